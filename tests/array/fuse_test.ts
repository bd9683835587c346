import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { cudaTest } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";
import { groups, near, randomF32, REFERENCE } from "./_reduce_reference.ts";

type A = ga.GPUArray;

/** Runs `fn`, counting the kernels it compiles and launches on the current backend. */
function counted<T>(fn: () => T): { value: T; compiled: number; launched: number } {
  const backend = ga.zeros(0).backend;
  const kernel = backend.kernel;
  let compiled = 0, launched = 0;
  backend.kernel = (key, make) => {
    const k = kernel.call(backend, key, () => (compiled++, make()));
    return { launch: (config, args) => (launched++, k.launch(config, args)) };
  };
  try {
    return { value: fn(), compiled, launched };
  } finally {
    delete (backend as { kernel?: unknown }).kernel;
  }
}

const floats = (a: unknown) => Array.from((a as A).get() as ArrayLike<number>);

/** Each row of `values` (C order, `shape`) along `axis` mapped by `f`, back in C order. */
function alongAxis(
  values: readonly number[],
  shape: readonly number[],
  axis: number,
  f: (row: number[]) => number[],
) {
  const out = new Array<number>(values.length);
  const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1), n = shape[axis]!;
  for (let start = 0; start < values.length; start++) {
    if (Math.floor(start / stride) % n !== 0) continue;
    const at = Array.from({ length: n }, (_, k) => start + k * stride);
    f(at.map((i) => values[i]!)).forEach((v, k) => (out[at[k]!] = v));
  }
  return out;
}

eachBackend("a fused elementwise chain is one kernel and matches the host", () => {
  const step = ga.fuse((x: A, y: A, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5));
  using x = ga.toGpu(randomF32(4000, 1, -2, 2), [40, 100]);
  using y = ga.toGpu(randomF32(100, 2, -2, 2), [100]);
  const { value: z, launched } = counted(() => step(x, y, 2));
  assert.equal(launched, 1, "one kernel");
  assert.equal(z.dtype, "float32");
  assert.deepEqual(z.shape, [40, 100]);
  const [hx, hy] = [x.get(), y.get()];
  floats(z).forEach((v, i) => {
    const f = Math.fround, want = f(f(Math.exp(f(f(hx[i]! * 2) + hy[i % 100]!))) * 0.5);
    assert.ok(near(v, want, 1e-6), `[${i}] = ${v}, want ${want}`);
  });
  z.free();
});

eachBackend("scalar arguments change value without tracing or compiling again", () => {
  let traces = 0;
  const scale = ga.fuse((x: A, a: number) => (traces++, x.mul(a).add(a)), { name: "scale" });
  using x = ga.toGpu(Int32Array.of(1, -2, 3, 40), [4]);
  using first = scale(x, 2);
  assert.deepEqual(floats(first), [4, -2, 8, 82]);
  const again = counted(() => [scale(x, 3), scale(x, -7), scale(x, 1_000_000)]);
  assert.equal(traces, 1, "traced once for integer scalars");
  assert.equal(again.compiled, 0, "no new kernel for new values");
  assert.equal(again.launched, 3);
  const [a, b, c] = again.value;
  assert.deepEqual(floats(a!), [6, -3, 12, 123]);
  assert.deepEqual(floats(b!), [-14, 7, -28, -287]);
  assert.deepEqual(floats(c!), [2_000_000, -1_000_000, 4_000_000, 41_000_000]);
  assert.equal(a!.dtype, "int32", "an integer stays a weak scalar");
  using half = scale(x, 0.5);
  assert.equal(traces, 2, "a fraction is another signature: NumPy gives float64");
  assert.equal(half.dtype, "float64");
  assert.deepEqual(floats(half), [1, -0.5, 2, 20.5]);
  using f = ga.toGpu(Float32Array.of(1, 2), [2]);
  using g = scale(f, 2);
  assert.equal(traces, 3, "a new dtype traces again");
  assert.deepEqual(floats(g), [4, 6]);
  for (const r of [a, b, c]) r!.free();
});

eachBackend("a reduction of elementwise work is one reduction and gives host values as eagerly", () => {
  const loss = ga.fuse((p: A, q: A) => p.sub(q).square().sum());
  using p = ga.toGpu(randomF32(100_000, 3), [100_000]);
  using q = ga.toGpu(randomF32(100_000, 4), [100_000]);
  const { value, launched } = counted(() => loss(p, q));
  assert.ok(launched <= 2, `a reduction (and its final combine), not ${launched} kernels`);
  const [hp, hq] = [p.get(), q.get()];
  let want = 0;
  for (let i = 0; i < hp.length; i++) want += Math.fround(Math.fround(hp[i]! - hq[i]!) ** 2);
  assert.equal(typeof value, "number");
  assert.ok(near(value as number, want, 1e-5), `${value} vs ${want}`);
  using i = ga.toGpu(Int32Array.of(3, -4, 5), [3]);
  assert.equal(loss(i, i.mul(2)), 50n, "integer sums are exact bigints");
  assert.equal(ga.fuse((x: A) => x.gt(4).any())(i), true);
  assert.equal(ga.fuse((x: A) => x.argmax())(i), 2);
  assert.equal(ga.fuse((x: A) => x.mean())(i), 4 / 3);
});

eachBackend("rows normalised by their norm are one row kernel, along rows and columns", () => {
  const norm = ga.fuse((x: A) => x.div(x.square().sum({ axis: -1, keepdims: true }).sqrt()));
  const cases: [number[], number][] = [[[80, 200], 1], [[5, 3000], 2], [[2, 20_000], 3], [[3, 4, 5], 4]];
  for (const [shape, seed] of cases) {
    using x = ga.toGpu(randomF32(shape.reduce((a, b) => a * b), seed), shape);
    const { value: y, launched } = counted(() => norm(x));
    assert.equal(launched, 1, `${shape}: one kernel`);
    const want = alongAxis(floats(x), shape, shape.length - 1, (row) => {
      const s = Math.sqrt(row.reduce((a, v) => a + v * v, 0));
      return row.map((v) => v / s);
    });
    floats(y).forEach((v, i) => assert.ok(near(v, want[i]!, 1e-5), `${shape} [${i}]: ${v} vs ${want[i]}`));
    y.free();
  }
  const columns = ga.fuse((x: A) => x.div(x.square().sum({ axis: 0, keepdims: true }).sqrt()));
  using x = ga.toGpu(randomF32(40 * 6, 5), [40, 6]);
  const { value: y, launched } = counted(() => columns(x.T.slice([null, null, -1])));
  assert.equal(launched, 1, "a view's columns: one kernel");
  const view = Array.from(x.T.slice([null, null, -1]).copy().get());
  const want = alongAxis(view, [6, 40], 0, (col) => {
    const s = Math.sqrt(col.reduce((a, v) => a + v * v, 0));
    return col.map((v) => v / s);
  });
  floats(y).forEach((v, i) => assert.ok(near(v, want[i]!, 1e-5), `[${i}]: ${v} vs ${want[i]}`));
  y.free();
});

eachBackend("softmax written with max, exp and sum is one kernel and equals ga.softmax", () => {
  const softmax = ga.fuse((x: A) => {
    const e = x.sub(x.max({ axis: 1, keepdims: true })).exp();
    return e.div(e.sum({ axis: 1, keepdims: true }));
  });
  for (const shape of [[100, 50], [7, 3000], [3, 9000]]) {
    using x = ga.toGpu(randomF32(shape[0]! * shape[1]!, 6, -20, 20), shape);
    const { value: p, launched } = counted(() => softmax(x));
    assert.equal(launched, 1, `${shape}: two stages and the output in one kernel`);
    using q = ga.softmax(x, { axis: 1 });
    const want = floats(q);
    floats(p).forEach((v, i) => assert.ok(near(v, want[i]!, 1e-6), `${shape} [${i}]: ${v} vs ${want[i]}`));
    p.free();
  }
});

eachBackend("rows standardised by mean and std, and the argmax, run as row stages", () => {
  const standard = ga.fuse((x: A) =>
    x.sub(x.mean({ axis: 1, keepdims: true })).div(x.std({ axis: 1, keepdims: true, ddof: 1 }))
  );
  using x = ga.toGpu(randomF32(30 * 77, 7, -3, 5), [30, 77]);
  const { value: z, launched } = counted(() => standard(x));
  assert.equal(launched, 1);
  const host = floats(x);
  const want = alongAxis(host, [30, 77], 1, (row) => {
    const m = REFERENCE.mean!(row), s = REFERENCE.std!(row, 1);
    return row.map((v) => (v - m) / s);
  });
  floats(z).forEach((v, i) => assert.ok(near(v, want[i]!, 2e-5), `[${i}]: ${v} vs ${want[i]}`));
  z.free();
  const best = ga.fuse((x: A) => x.argmax({ axis: 1, keepdims: true }).add(1000));
  using b = best(x);
  assert.equal(b.dtype, "int64");
  const rows = groups(host, [30, 77], [1]);
  assert.deepEqual(
    Array.from(b.get() as BigInt64Array, Number),
    rows.map((r) => REFERENCE.argmax!(r) + 1000),
  );
});

eachBackend("the eager calls' errors come out of fused calls unchanged", () => {
  using x = ga.toGpu(Float32Array.of(1, 2, 3, 4, 5, 6), [2, 3]);
  using u = ga.toGpu(Uint8Array.of(1, 2, 3), [3]);
  using bools = x.gt(2);
  using empty = ga.zeros([0, 3]);
  const same = (fn: (...args: never[]) => unknown, ...args: unknown[]) => {
    const eager = () => (fn as (...a: unknown[]) => unknown)(...args);
    const fused = () => (ga.fuse(fn) as unknown as (...a: unknown[]) => unknown)(...args);
    let error: Error | undefined;
    try {
      eager();
    } catch (e) {
      error = e as Error;
    }
    assert.ok(error, "the eager call throws");
    assert.throws(fused, { name: error.name, message: error.message });
  };
  same((a: A, b: A) => a.add(b).mul(2), x, ga.zeros([2]));
  same((a: A, s: number) => a.add(s), u, 300);
  same((a: A) => a.add(-1), u);
  same((a: A) => a.sub(a), bools);
  same((a: A) => a.max({ axis: 0 }).add(1), empty);
  same((a: A) => a.astype("float" as ga.DType), x);
  same((a: A) => a.sum({ axis: 2 }), x);
  same((a: A) => a.add("two" as unknown as number), x);
});

eachBackend("steps a fused function cannot take are TypeErrors that name them", () => {
  using x = ga.toGpu(Float32Array.of(1, 2, 3, 4), [2, 2]);
  using i = ga.toGpu(Int32Array.of(1, 2), [2]);
  const refused = (fn: (...args: never[]) => unknown, message: RegExp, ...args: unknown[]) =>
    assert.throws(() => (ga.fuse(fn, { name: "f" }) as unknown as (...a: unknown[]) => unknown)(...args), {
      name: "TypeError",
      message,
    });
  refused((a: A) => a.reshape(4), /Cannot call x\.reshape\(\) inside ga\.fuse\(\): views and copies/, x);
  refused((a: A) => a.T, /Cannot read x\.T inside ga\.fuse\(\)/, x);
  refused((a: A) => a.shape[0], /Cannot read x\.shape inside ga\.fuse\(\): a traced array has a dtype/, x);
  refused((a: A) => a.get(), /Cannot call x\.get\(\) inside ga\.fuse\(\): a traced array has no values/, x);
  refused(
    (a: A) => ga.matmul(a, a),
    /^Cannot trace f: Cannot matmul .*; inside ga\.fuse\(\), arrays support/,
    x,
  );
  refused(
    (a: A, s: number) => a.mul(s * 2),
    /Cannot use scalar argument 1 as a JS value inside ga\.fuse\(\)/,
    x,
    3,
  );
  refused((a: A) => a.add(1, { out: a }), /Cannot add into out inside ga\.fuse\(\)/, x);
  refused((a: A) => [a, a], /Cannot fuse f: it returned a list; a fused function returns one array/, x);
  refused(
    (a: A) => a.sub(a.mean()),
    /Cannot sub the host value of mean\(\) and a int32 array inside ga\.fuse\(\)/,
    i,
  );
  refused((a: A) => a, /Cannot call f with string as argument 1/, x, "no");
  let leaked: A | undefined;
  const leak = ga.fuse((a: A) => (leaked = a, a.add(1)));
  leak(x).free();
  assert.throws(() => leaked!.add(1), { name: "TypeError", message: /outside it/ });
  assert.throws(() => ga.fuse(3 as never), {
    name: "TypeError",
    message: "Cannot fuse number: pass a function",
  });
});

eachBackend("source() shows the last call's kernels in CUDA C and OpenCL C", () => {
  const norm = ga.fuse(
    (x: A, eps: number) => x.div(x.square().sum({ axis: 1, keepdims: true }).add(eps).sqrt()),
    {
      name: "rownorm",
    },
  );
  assert.throws(() => norm.source("cuda"), {
    name: "TypeError",
    message: /it has not run yet; call it once/,
  });
  using x = ga.toGpu(randomF32(64 * 256, 8), [64, 256]);
  norm(x, 1e-6).free();
  const cuda = norm.source("cuda"), opencl = norm.source("opencl");
  assert.match(cuda, /^\/\/ cudeno_fuse_rownorm_rows\n/);
  assert.match(cuda, /__global__ void cudeno_fuse_rownorm_rows\(/);
  assert.match(cuda, /__shfl_down_sync/);
  assert.match(opencl, /__kernel void cudeno_fuse_rownorm_rows\(__global const float \*p0/);
  assert.match(opencl, /sqrt\(/);
  const loss = ga.fuse((p: A, q: A) => p.sub(q).square().sum(), { name: "loss" });
  loss(x, x);
  assert.match(loss.source("opencl"), /cudeno_fuse_loss_reduce\(/);
});

eachBackend("arrays from the closure are read at each call, and fused functions compose", () => {
  using w = ga.toGpu(Float32Array.of(1, 2, 3), [3]);
  const shift = ga.fuse((x: A) => x.add(w));
  using x = ga.zeros([2, 3]);
  assert.deepEqual(floats(shift(x)), [1, 2, 3, 1, 2, 3]);
  w.set(Float32Array.of(10, 20, 30));
  assert.deepEqual(floats(shift(x)), [10, 20, 30, 10, 20, 30]);
  const twice = ga.fuse((x: A) => shift(shift(x)).mul(2));
  const { value, launched } = counted(() => twice(x));
  assert.equal(launched, 1, "the inner fused function is traced into the outer one");
  assert.deepEqual(floats(value), [40, 80, 120, 40, 80, 120]);
});

cudaTest("float16 and bfloat16 steps round to their dtype as the eager calls do, bit for bit", () => {
  ga.useBackend("cuda");
  const chain = ga.fuse((x: A, y: A) => x.mul(x).add(y.mul(3)).sub(x.mul(y)).exp().sqrt());
  for (const dtype of ["float16", "bfloat16"] as const) {
    using x = ga.toGpu(randomF32(3000, 9, -3, 3)).astype(dtype);
    using y = ga.toGpu(randomF32(3000, 10, -3, 3)).astype(dtype);
    using eager = x.mul(x).add(y.mul(3)).sub(x.mul(y)).exp().sqrt();
    using fused = chain(x, y);
    assert.equal(fused.dtype, dtype);
    assert.deepEqual(floats(fused), floats(eager), dtype);
  }
});
