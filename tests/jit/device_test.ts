import assert from "node:assert/strict";
import { device, grid, jit, shared, threadIdx } from "../../src/jit/mod.ts";

declare const SCALE: number, TILE: number, CLAMP: boolean;

Deno.test("a kernel calls a device function, emitted once as __device__ in CUDA and plainly in OpenCL", () => {
  const sq = device({ x: "f32" }, "f32", (x) => x * x, { name: "sq" });
  const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
    const i = grid(1);
    if (i < n) a[i] = sq(a[i]) + sq(2);
  }, { name: "squares", use: { sq } });
  const cuda = k.source("cuda"), opencl = k.source("opencl");
  assert.ok(cuda.includes("__device__ float sq(float x) {\n  return x * x;\n}"), cuda);
  assert.equal(cuda.match(/float sq\(/g)?.length, 1);
  assert.ok(opencl.includes("\nfloat sq(float x) {\n  return x * x;\n}"), opencl);
  assert.ok(cuda.includes("a[i] = sq(a[i]) + sq(2.0f);"), cuda);
  const a = Float32Array.of(1.5, -3, 0.1);
  k.simulate({ grid: 1, block: 4 }, a, 3);
  assert.deepEqual(Array.from(a), [
    6.25,
    13,
    Math.fround(Math.fround(Math.fround(0.1) * Math.fround(0.1)) + 4),
  ]);
});

Deno.test("device functions call other device functions, callees emitted before callers", () => {
  const sq = device({ x: "f64" }, "f64", (x) => x * x, { name: "sq" });
  const norm = device({ x: "f64", y: "f64" }, "f64", (x, y) => Math.sqrt(sq(x) + sq(y)), {
    name: "norm",
    use: { sq },
  });
  const k = jit({ out: "f64[]", xs: "f64[]", ys: "f64[]" }, (out, xs, ys) => {
    const i = threadIdx.x;
    out[i] = norm(xs[i], ys[i]) + sq(xs[i]);
  }, { name: "lengths", use: { norm, sq } });
  const cuda = k.source("cuda");
  const [s, n, main] = ["double sq(", "double norm(", "void lengths("].map((t) => cuda.indexOf(t));
  assert.ok(s >= 0 && s < n && n < main, cuda);
  assert.equal(cuda.match(/double sq\(/g)?.length, 1);
  const out = new Float64Array(2);
  k.simulate({ grid: 1, block: 2 }, out, Float64Array.of(3, 5), Float64Array.of(4, 12));
  assert.deepEqual(Array.from(out), [5 + 9, 13 + 25]);
});

Deno.test("device functions that share a name get distinct C names", () => {
  const a = device({ x: "i32" }, "i32", (x) => x + 1, { name: "step" });
  const b = device({ x: "i32" }, "i32", (x) => x + 2, { name: "step" });
  const k = jit({ out: "i32[]" }, (out) => {
    out[0] = a(0);
    out[1] = b(0);
  }, { use: { a, b } });
  const cuda = k.source("cuda");
  assert.ok(cuda.includes("int step(int x)") && cuda.includes("int step_2(int x)"), cuda);
  assert.ok(cuda.includes("out[0] = step(0);") && cuda.includes("out[1] = step_2(0);"), cuda);
  const out = new Int32Array(2);
  k.simulate({ grid: 1, block: 1 }, out);
  assert.deepEqual(Array.from(out), [1, 2]);
});

Deno.test("a void device function writes into an array parameter", () => {
  const fill = device({ a: "u32[]", i: "i32", v: "u32" }, "void", (a, i, v) => {
    if (i < 0) return;
    a[i] = v;
  }, { name: "fill" });
  const k = jit({ a: "u32[]" }, (a) => {
    fill(a, threadIdx.x, 7);
  }, { use: { fill } });
  assert.ok(k.source("opencl").includes("void fill(__global uint *a, int i, uint v)"), k.source("opencl"));
  const a = new Uint32Array(3);
  k.simulate({ grid: 1, block: 3 }, a);
  assert.deepEqual(Array.from(a), [7, 7, 7]);
});

Deno.test("a device function called from JavaScript runs in the simulator with its types", () => {
  const tenth = device({ x: "f32" }, "f32", (x) => x * 0.1, { name: "tenth" });
  assert.equal(tenth(3), Math.fround(3 * Math.fround(0.1)));
  assert.equal(tenth.name, "tenth");
  assert.equal(tenth.returns, "f32");
  assert.deepEqual(tenth.params, [{ name: "x", type: "float", dtype: "float32", array: false }]);
  assert.throws(() => tenth(), {
    name: "TypeError",
    message: 'Cannot simulate device function "tenth": it takes 1 arguments (x), got 0',
  });
  const store = device({ a: "f32[]" }, "void", (a) => {
    a[0] = 5;
  });
  const a = new Float32Array(1);
  assert.equal(store(a), undefined);
  assert.equal(a[0], 5);
});

Deno.test("compile-time constants act as literals: integers size arrays, floats adopt f32, booleans prune", () => {
  const k = jit({ a: "f32[]", out: "f32[]" }, (a, out) => {
    const tile = shared.array("f32", TILE * 2);
    const t = threadIdx.x;
    tile[t] = a[t] * SCALE;
    let v = tile[t];
    if (CLAMP) v = Math.min(v, 1);
    out[t] = v;
  }, { name: "scaled", constants: { TILE: 4, SCALE: 0.5, CLAMP: true } });
  const cuda = k.source("cuda");
  assert.ok(cuda.includes("__shared__ float tile[8];"), cuda);
  assert.ok(cuda.includes("a[t] * 0.5f"), cuda);
  assert.ok(cuda.includes("if (true) {"), cuda);
  assert.ok(!cuda.includes("double"), cuda);
  const out = new Float32Array(8);
  k.simulate({ grid: 1, block: 8 }, Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8), out);
  assert.deepEqual(Array.from(out), [0.5, 1, 1, 1, 1, 1, 1, 1]);
});

Deno.test("a const local with a constant value is a compile-time constant", () => {
  const k = jit({ out: "f32[]" }, (out) => {
    const W = 3;
    const HALF = 0.5;
    const row = shared.array("f32", W * W);
    row[threadIdx.x] = threadIdx.x * HALF;
    out[threadIdx.x] = row[threadIdx.x] + row.length;
  });
  assert.ok(k.source("cuda").includes("__shared__ float row[9];"));
  const out = new Float32Array(2);
  k.simulate({ grid: 1, block: 2 }, out);
  assert.deepEqual(Array.from(out), [9, 9.5]);
});
