import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomF32(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const r = seeded(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * r());
}

eachBackend("toGpu() and get() round-trip every dtype", () => {
  const arrays: [ArrayBufferView & { length: number }, ga.DType][] = [
    [Float32Array.of(1.5, -2, 3), "float32"],
    [Int32Array.of(-7, 0, 2 ** 31 - 1), "int32"],
    [Uint32Array.of(0, 4e9, 7), "uint32"],
    [Int8Array.of(-128, 0, 127), "int8"],
    [Uint8Array.of(0, 200, 255), "uint8"],
  ];
  if (ga.backend() === "cuda" || ga.toGpu(new Uint8Array(1)).backend.supports("float64")) {
    arrays.push([Float64Array.of(Math.PI, -1e300, 5e-324), "float64"]);
  }
  for (const [host, dtype] of arrays) {
    using g = ga.toGpu(host);
    assert.equal(g.dtype, dtype);
    assert.deepEqual(g.get(), host);
  }
});

eachBackend("GPUArray reports shape, size, dtype and nbytes, and reshape() shares memory", () => {
  using a = ga.toGpu(Float32Array.from({ length: 12 }, (_, i) => i), [3, 4]);
  assert.deepEqual(a.shape, [3, 4]);
  assert.equal(a.size, 12);
  assert.equal(a.ndim, 2);
  assert.equal(a.nbytes, 48);
  const b = a.reshape(2, -1);
  assert.deepEqual(b.shape, [2, 6]);
  b.set(new Float32Array(12).fill(9));
  assert.ok(a.get().every((v) => v === 9));
  assert.throws(() => a.reshape(5, 5), {
    name: "RangeError",
    message: /Cannot reshape an array of shape \[3, 4\] to \[5, 5\]/,
  });
  assert.equal(
    String(a),
    "array([[9., 9., 9., 9.],\n       [9., 9., 9., 9.],\n       [9., 9., 9., 9.]], dtype=float32)",
  );
});

eachBackend("get() copies the whole array and refuses an index, pointing to item() and slice()", async () => {
  using a = ga.arange(6).reshape(2, 3);
  assert.throws(() => a.get(0 as never), {
    name: "TypeError",
    message:
      "Cannot get(0) an array of shape [2, 3]: get() copies the whole array and takes no index; for one element use a.item(i), for part of it a.slice(...).get()",
  });
  await assert.rejects(() => a.getAsync(1 as never), {
    name: "TypeError",
    message: /^Cannot getAsync\(1\)/,
  });
  assert.deepEqual([...a.get()], [0, 1, 2, 3, 4, 5]);
});

eachBackend(
  "a shape with a negative, fractional or string extent is a RangeError showing it as given",
  () => {
    for (
      const [shape, shown] of [[-1, "-1"], [[2, 2.5], "[2, 2.5]"], [[2, "3"], '[2, "3"]'], [
        "3",
        '"3"',
      ]] as const
    ) {
      assert.throws(() => ga.zeros(shape as never), {
        name: "RangeError",
        message: `Cannot use shape ${shown}: every extent must be a non-negative integer`,
      });
    }
  },
);

eachBackend("toGpu() rejects a shape that does not match the data", () => {
  assert.throws(() => ga.toGpu(new Float32Array(6), [4, 2]), {
    name: "RangeError",
    message: /Cannot put 6 elements into shape \[4, 2\]/,
  });
  assert.throws(() => ga.empty([-1]), RangeError);
  assert.throws(() => ga.empty(4, "float8" as ga.DType), TypeError);
});

eachBackend("zeros, ones, full, arange and emptyLike make the arrays they say", () => {
  assert.deepEqual(ga.zeros([2, 2]).get(), new Float32Array(4));
  assert.deepEqual(ga.ones(3, "int32").get(), Int32Array.of(1, 1, 1));
  assert.deepEqual(ga.full(3, -5, "int8").get(), Int8Array.of(-5, -5, -5));
  assert.deepEqual(
    ga.arange(5).get(),
    Int32Array.of(0, 1, 2, 3, 4),
    "integers give int32, as NumPy's arange",
  );
  assert.deepEqual(ga.arange(1, 2, 0.25).get(), Float32Array.of(1, 1.25, 1.5, 1.75));
  assert.deepEqual(ga.arange(10, 0, -3, "int32").get(), Int32Array.of(10, 7, 4, 1));
  const like = ga.emptyLike(ga.zeros([3, 5], "uint8"));
  assert.deepEqual([like.shape, like.dtype], [[3, 5], "uint8"]);
  assert.throws(() => ga.arange(0, 1, 0), RangeError);
});

eachBackend("elementwise arithmetic matches the host, with scalars broadcast", () => {
  const n = 100_003;
  const x = randomF32(n, 1), z = randomF32(n, 2, 0.5, 2);
  using gx = ga.toGpu(x), gz = ga.toGpu(z);
  const y = gx.mul(2).add(gz).get();
  const q = gx.div(gz).get();
  const d = ga.sub(1, gx).get();
  const p = gz.pow(2).get() as Float32Array;
  for (let i = 0; i < n; i++) {
    assert.equal(y[i], Math.fround(Math.fround(x[i]! * 2) + z[i]!));
    assert.equal(q[i], Math.fround(x[i]! / z[i]!));
    assert.equal(d[i], Math.fround(1 - x[i]!));
    assert.ok(Math.abs(p[i]! - z[i]! * z[i]!) <= 1e-6 * z[i]! * z[i]!);
  }
});

eachBackend("add() with out writes in place and checks the out array", () => {
  using a = ga.ones(1000);
  a.add(1, { out: a });
  assert.ok(a.get().every((v) => v === 2));
  assert.throws(() => a.add(1, { out: ga.zeros(10) }), RangeError);
  assert.throws(() => a.add(1, { out: ga.zeros(1000, "int32") }), {
    name: "TypeError",
    message: /the result is float32/,
  });
});

eachBackend("maximum, minimum, neg, abs and comparisons match the host", () => {
  const x = randomF32(5000, 3);
  using g = ga.toGpu(x);
  const mx = g.maximum(0).get(), mn = ga.minimum(g, 0.25).get(), ng = g.neg().get(), ab = ga.abs(g).get();
  const lt = g.lt(0).get(), ge = g.ge(0.5).get(), eq = g.eq(g).get();
  for (let i = 0; i < x.length; i++) {
    assert.equal(mx[i], Math.max(x[i]!, 0));
    assert.equal(mn[i], Math.min(x[i]!, 0.25));
    assert.equal(ng[i], -x[i]!);
    assert.equal(ab[i], Math.abs(x[i]!));
    assert.equal(lt[i], x[i]! < 0 ? 1 : 0);
    assert.equal(ge[i], x[i]! >= 0.5 ? 1 : 0);
    assert.equal(eq[i], 1);
  }
  assert.equal(g.lt(0).dtype, "bool");
});

eachBackend("exp, log, sqrt, sin, cos and tanh match the host within float32 accuracy", () => {
  const x = randomF32(4096, 4, 0.01, 3);
  using g = ga.toGpu(x);
  const fns: [string, (a: ga.GPUArray) => ga.GPUArray, (v: number) => number][] = [
    ["exp", ga.exp, Math.exp],
    ["log", ga.log, Math.log],
    ["sqrt", ga.sqrt, Math.sqrt],
    ["sin", ga.sin, Math.sin],
    ["cos", ga.cos, Math.cos],
    ["tanh", ga.tanh, Math.tanh],
  ];
  for (const [name, f, ref] of fns) {
    const out = f(g).get() as Float32Array;
    for (let i = 0; i < x.length; i++) {
      const want = ref(x[i]!);
      assert.ok(
        Math.abs(out[i]! - want) <= 4e-6 * Math.max(1, Math.abs(want)),
        `${name}(${x[i]}) = ${out[i]}, want ${want}`,
      );
    }
  }
});

eachBackend("integer arrays keep integer arithmetic and promote like NumPy", () => {
  using a = ga.toGpu(Int32Array.of(-7, 2, 9, 100));
  assert.deepEqual(a.add(3).get(), Int32Array.of(-4, 5, 12, 103));
  assert.deepEqual(a.pow(2).get(), Int32Array.of(49, 4, 81, 10000));
  assert.equal(a.div(2).dtype, "float64");
  assert.equal(a.add(0.5).dtype, "float64");
  assert.equal(a.add(ga.toGpu(Float32Array.of(1, 1, 1, 1))).dtype, "float64");
  assert.equal(ga.toGpu(Uint8Array.of(1)).add(ga.toGpu(Int8Array.of(1))).dtype, "int16");
  assert.deepEqual(ga.abs(a).get(), Int32Array.of(7, 2, 9, 100));
  assert.deepEqual(a.astype("float32").get(), Float32Array.of(-7, 2, 9, 100));
  assert.deepEqual(ga.toGpu(Float32Array.of(1.9, -1.9)).astype("int32").get(), Int32Array.of(1, -1));
});

eachBackend("where() picks elementwise from arrays and scalars", () => {
  using x = ga.toGpu(Float32Array.of(-2, -1, 0, 1, 2));
  assert.deepEqual(ga.where(x.gt(0), x, 0).get(), Float32Array.of(0, 0, 0, 1, 2));
  assert.deepEqual(
    ga.where(x.lt(0), -1, 1).get(),
    BigInt64Array.of(-1n, -1n, 1n, 1n, 1n),
    "two int scalars give int64, as in NumPy",
  );
});

eachBackend("operations on arrays of different shapes are a RangeError naming both shapes", () => {
  assert.throws(() => ga.zeros([2, 3]).add(ga.zeros([3, 2])), {
    name: "RangeError",
    message:
      "Cannot add arrays of shapes [2, 3] and [3, 2]: they differ at axis 0 (2 and 3) and neither is 1, so they do not broadcast",
  });
});

eachBackend("a freed array is a TypeError, free() is idempotent, and a view keeps the memory it uses", () => {
  const a = ga.ones(8);
  const view = a.reshape(2, 4);
  a.free();
  a.free();
  assert.equal(a.freed, true);
  assert.equal(view.freed, false, "the view still holds the memory");
  assert.throws(() => a.get(), { name: "TypeError", message: /it was freed/ });
  assert.throws(() => a.add(1), TypeError);
  assert.deepEqual(view.add(1).get(), new Float32Array(8).fill(2));
  view.free();
  assert.throws(() => view.get(), { name: "TypeError", message: /it was freed/ });
});

eachBackend("sum, mean, min, max, dot and norm of 2^20 float32 values match a float64 host reference", () => {
  const n = 1 << 20;
  const x = randomF32(n, 5), y = randomF32(n, 6);
  using gx = ga.toGpu(x), gy = ga.toGpu(y);
  let sum = 0, dot = 0, sq = 0, min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    sum += x[i]!;
    dot += x[i]! * y[i]!;
    sq += x[i]! * x[i]!;
    min = Math.min(min, x[i]!);
    max = Math.max(max, x[i]!);
  }
  const close = (got: number, want: number, scale: number) =>
    assert.ok(Math.abs(got - want) <= 1e-6 * scale, `got ${got}, want ${want}`);
  close(gx.sum(), sum, Math.sqrt(n));
  close(ga.mean(gx), sum / n, 1e-3);
  const product = gx.dot(gy); // two 1-D arrays: a host number
  assert.equal(typeof product, "number");
  close(product as number, dot, Math.sqrt(n));
  close(ga.norm(gx), Math.sqrt(sq), Math.sqrt(sq)); // float32, as NumPy's norm of float32
  assert.equal(gx.min(), min);
  assert.equal(ga.max(gx), max);
});

eachBackend("reductions handle sizes that are not multiples of the block and integer dtypes", () => {
  for (const n of [1, 7, 255, 256, 1025, 12_345]) {
    using a = ga.arange(n, undefined, 1, "int32");
    assert.equal(a.sum(), BigInt(((n - 1) * n) / 2), `sum of arange(${n}), exact as a bigint`);
    assert.equal(a.max(), n - 1);
    assert.equal(a.min(), 0);
  }
  assert.equal(ga.toGpu(Uint8Array.of(200, 200, 200)).sum(), 600n, "uint8 sums do not overflow");
  assert.equal(ga.toGpu(BigInt64Array.of(2n ** 60n, 1n)).sum(), 2n ** 60n + 1n, "int64 sums are exact");
  assert.throws(() => ga.zeros(0).max(), RangeError);
  assert.equal(ga.zeros(0).sum(), 0);
});

eachBackend("getAsync() returns the data without blocking the event loop", async () => {
  using a = ga.arange(1 << 16);
  const out = await a.getAsync();
  assert.equal(out[12345], 12345);
});

eachBackend("ElementwiseKernel runs PyCUDA's lin_comb", () => {
  const lin = new ga.ElementwiseKernel(
    "float *x, float *y, float *z, float a, float b",
    "z[i] = a*x[i] + b*y[i]",
    "lin_comb",
  );
  const x = randomF32(50_000, 7), y = randomF32(50_000, 8);
  using gx = ga.toGpu(x), gy = ga.toGpu(y), gz = ga.emptyLike(gx);
  lin(gx, gy, gz, 3, -1);
  const z = gz.get();
  for (let i = 0; i < x.length; i++) {
    const want = 3 * x[i]! - y[i]!; // the compiler may fuse the multiply-add, so allow float32 rounding
    assert.ok(
      Math.abs(z[i]! - want) <= 4e-7 * Math.max(1, Math.abs(want)),
      `z[${i}] = ${z[i]}, want ${want}`,
    );
  }
  assert.throws(() => lin(gx, gy, gz, 3), { name: "TypeError", message: /takes 5 arguments/ });
  assert.throws(() => lin(gx, gy, ga.zeros(10, "int32"), 3, 1), {
    name: "TypeError",
    message: /argument z is int32/,
  });
});

eachBackend("ReductionKernel computes a dot product and a max with user snippets", () => {
  const x = randomF32(30_000, 9), y = randomF32(30_000, 10);
  const dot = new ga.ReductionKernel("float64", {
    neutral: "0",
    reduce: "a + b",
    map: "(double)x[i] * y[i]",
    arguments: "const float *x, const float *y",
  });
  let ref = 0;
  for (let i = 0; i < x.length; i++) ref += x[i]! * y[i]!;
  if (!ga.toGpu(new Uint8Array(1)).backend.supports("float64")) return;
  using gx = ga.toGpu(x), gy = ga.toGpu(y);
  assert.ok(Math.abs(dot(gx, gy) - ref) < 1e-9 * x.length);
  const maxAbs = new ga.ReductionKernel("int32", {
    neutral: "0",
    reduce: "a > b ? a : b",
    map: "abs(v[i])",
    arguments: "const int *v",
  });
  assert.equal(maxAbs(ga.toGpu(Int32Array.of(3, -90, 12, 7))), 90);
});

eachBackend("ReductionKernel takes INFINITY and NAN in its snippets on every backend", () => {
  const max = new ga.ReductionKernel("float32", {
    neutral: "-INFINITY",
    reduce: "a > b ? a : b",
    map: "x[i] < 0 ? NAN : x[i]",
    arguments: "float *x",
  });
  assert.equal(max(ga.asarray([1, 5, 3])), 5);
  assert.equal(max(ga.asarray([-Infinity])), -Infinity, "the neutral element is -INFINITY");
  const countNaN = new ga.ReductionKernel("int32", {
    neutral: "0",
    reduce: "a + b",
    map: "(x[i] != x[i]) ? 1 : 0",
    arguments: "float *x",
  });
  assert.equal(countNaN(ga.asarray([NaN, 1, NaN])), 2);
  const anyNaN = new ga.ReductionKernel("int32", {
    neutral: "0",
    reduce: "a | b",
    map: "(x[i] < 0 ? NAN : x[i]) != (x[i] < 0 ? NAN : x[i])",
    arguments: "float *x",
  });
  assert.equal(anyNaN(ga.asarray([2, -1])), 1, "a negative element maps to NAN");
  assert.equal(anyNaN(ga.asarray([2, 1])), 0);
});
