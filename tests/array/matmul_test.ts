import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { cudaProblem, cudaTest, openclProblem } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";

/** Deterministic test data in [-1, 1) (mulberry32), independent of the library's generators. */
function hostRandom(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  }
  return out;
}

/** `a[m×k]·b[k×n]` in float64, row-major, for the rows listed (all by default). */
function hostMatmul(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  m: number,
  k: number,
  n: number,
  rows: readonly number[] = Array.from({ length: m }, (_, i) => i),
): Float64Array {
  const out = new Float64Array(rows.length * n);
  rows.forEach((i, r) => {
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p]!;
      for (let j = 0; j < n; j++) out[r * n + j]! += x * b[p * n + j]!;
    }
  });
  return out;
}

/** ‖got − want‖_F / ‖want‖_F. */
function relativeError(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let diff = 0, norm = 0;
  for (let i = 0; i < want.length; i++) {
    diff += (got[i]! - want[i]!) ** 2;
    norm += want[i]! ** 2;
  }
  return Math.sqrt(diff / norm);
}

function supportsFloat64(): boolean {
  return ga.zeros(1).backend.supports("float64");
}

eachBackend("matmul() multiplies a small matrix as worked by hand", () => {
  const a = ga.toGpu(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]);
  const b = ga.toGpu(new Float32Array([7, 8, 9, 10, 11, 12]), [3, 2]);
  const c = ga.matmul(a, b);
  assert.deepEqual(c.shape, [2, 2]);
  assert.equal(c.dtype, "float32");
  assert.deepEqual([...c.get()], [58, 64, 139, 154]);
});

eachBackend("matmul() matches a float64 host product to 1e-5 for float32 at sizes that fill no tile", () => {
  const sizes: [number, number, number][] = [[33, 17, 45], [1, 1, 1], [16, 16, 16], [1, 100, 1], [
    100,
    1,
    100,
  ], [
    17,
    300,
    5,
  ]];
  for (const [m, k, n] of sizes) {
    const a = hostRandom(m * k, m), b = hostRandom(k * n, n + 1000);
    const c = ga.matmul(ga.toGpu(Float32Array.from(a), [m, k]), ga.toGpu(Float32Array.from(b), [k, n]));
    assert.deepEqual(c.shape, [m, n]);
    const want = hostMatmul(Float32Array.from(a), Float32Array.from(b), m, k, n);
    const err = relativeError(c.get(), want);
    assert.ok(err < 1e-5, `[${m}, ${k}]·[${k}, ${n}]: relative error ${err}`);
  }
});

eachBackend(
  "matmul() matches a float64 host product to 1e-12 for float64 where the device has float64",
  () => {
    if (!supportsFloat64()) return;
    const [m, k, n] = [45, 33, 17];
    const a = hostRandom(m * k, 1), b = hostRandom(k * n, 2);
    const c = ga.matmul(ga.toGpu(a, [m, k]), ga.toGpu(b, [k, n]));
    assert.equal(c.dtype, "float64");
    const err = relativeError(c.get(), hostMatmul(a, b, m, k, n));
    assert.ok(err < 1e-12, `relative error ${err}`);
  },
);

eachBackend("matmul() multiplies 1000×1000 float32 matrices to 1e-5", () => {
  const n = 1000;
  const a = Float32Array.from(hostRandom(n * n, 3)), b = Float32Array.from(hostRandom(n * n, 4));
  const c = ga.matmul(ga.toGpu(a, [n, n]), ga.toGpu(b, [n, n])).get();
  const rows = [0, 1, 2, 499, 500, 997, 998, 999, ...Array.from({ length: 24 }, (_, i) => 17 + i * 37)];
  const got = new Float64Array(rows.length * n);
  rows.forEach((i, r) => got.set(c.subarray(i * n, (i + 1) * n), r * n));
  const err = relativeError(got, hostMatmul(a, b, n, n, n, rows));
  assert.ok(err < 1e-5, `relative error ${err}`);
});

eachBackend("matmul() writes into out and returns it", () => {
  const a = ga.toGpu(new Float32Array([1, 2, 3, 4]), [2, 2]);
  const out = ga.full([2, 2], -1);
  assert.equal(ga.matmul(a, a, { out }), out);
  assert.deepEqual([...out.get()], [7, 10, 15, 22]);
});

eachBackend(
  "matmul() gives zeros when the inner dimension is empty and an empty array when an outer one is",
  () => {
    const z = ga.matmul(ga.empty([3, 0]), ga.empty([0, 2]));
    assert.deepEqual(z.shape, [3, 2]);
    assert.deepEqual([...z.get()], [0, 0, 0, 0, 0, 0]);
    assert.deepEqual(ga.matmul(ga.empty([0, 4]), ga.ones([4, 5])).shape, [0, 5]);
  },
);

eachBackend("matmul() rejects arrays whose inner dimensions differ", () => {
  assert.throws(() => ga.matmul(ga.zeros([2, 3]), ga.zeros([4, 5])), {
    name: "RangeError",
    message: /^Cannot matmul arrays of shapes \[2, 3\] and \[4, 5\]: the first's columns \(3\) must equal/,
  });
});

eachBackend("matmul() rejects freed arrays", () => {
  const a = ga.ones([2, 2]);
  a.free();
  assert.throws(() => ga.matmul(a, ga.ones([2, 2])), { name: "TypeError", message: /it was freed/ });
});

Deno.test({
  name: cudaProblem === undefined && openclProblem === undefined
    ? "matmul() rejects arrays on different backends"
    : "matmul() rejects arrays on different backends [ignored: needs both CUDA and OpenCL]",
  ignore: cudaProblem !== undefined || openclProblem !== undefined,
  fn: () => {
    ga.useBackend("cuda");
    const a = ga.ones([2, 2]);
    ga.useBackend("opencl");
    assert.throws(() => ga.matmul(a, ga.ones([2, 2])), {
      name: "TypeError",
      message: /copy one to the other's/,
    });
  },
});

function decodeBfloat16(bits: Uint16Array): Float64Array {
  const f = new Float32Array(new Uint32Array(Array.from(bits, (b) => b << 16)).buffer);
  return Float64Array.from(f);
}

cudaTest("matmul() multiplies float16 and bfloat16 matrices with float accumulation", () => {
  ga.useBackend("cuda");
  const [m, k, n] = [65, 129, 33];
  for (const [dtype, tolerance] of [["float16", 2e-3], ["bfloat16", 1e-2]] as const) {
    const a = ga.toGpu(Float32Array.from(hostRandom(m * k, 5)), [m, k]).astype(dtype);
    const b = ga.toGpu(Float32Array.from(hostRandom(k * n, 6)), [k, n]).astype(dtype);
    const c = ga.matmul(a, b);
    assert.equal(c.dtype, dtype);
    const host = (x: ga.GPUArray) =>
      dtype === "float16"
        ? Float64Array.from(x.get() as Float16Array)
        : decodeBfloat16(x.get() as Uint16Array);
    const err = relativeError(host(c), hostMatmul(host(a), host(b), m, k, n));
    assert.ok(err < tolerance, `${dtype}: relative error ${err}`);
  }
});

cudaTest("matmul() on CUDA computes float32 at full precision, not TF32", () => {
  ga.useBackend("cuda");
  const n = 512;
  const a = Float32Array.from(hostRandom(n * n, 7)), b = Float32Array.from(hostRandom(n * n, 8));
  const c = ga.matmul(ga.toGpu(a, [n, n]), ga.toGpu(b, [n, n])).get();
  // TF32 keeps 10 mantissa bits and would leave an error near 1e-4.
  const err = relativeError(c, hostMatmul(a, b, n, n, n));
  assert.ok(err < 2e-6, `relative error ${err}`);
});

cudaTest("CublasError reports cuBLAS's status name and description", () => {
  const e = new ga.CublasError(7, "cublasSgemm_v2");
  assert.equal(e.name, "CublasError");
  assert.equal(e.code, 7);
  assert.equal(e.call, "cublasSgemm_v2");
  assert.match(e.message, /^cublasSgemm_v2 failed: CUBLAS_STATUS_INVALID_VALUE/);
});
