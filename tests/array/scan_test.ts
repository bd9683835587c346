import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { hostScan, randomInts, seeded, viewValues } from "./_host.ts";

/** Sizes around the tile (512 and 4096 elements on OpenCL and CUDA) and warp edges, and up to 2^20. */
const SIZES = [
  0,
  1,
  2,
  15,
  16,
  17,
  255,
  256,
  257,
  511,
  513,
  1000,
  4095,
  4096,
  4097,
  8193,
  65537,
  100_003,
  2 ** 20,
];

const add = (a: bigint, b: bigint) => a + b;
const mul64 = (a: bigint, b: bigint) => BigInt.asIntN(64, a * b);

function assertBigints(got: ArrayLike<bigint>, want: readonly bigint[], what: string): void {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) assert.fail(`${what}: element ${i} is ${got[i]}, want ${want[i]}`);
  }
}

eachBackend("cumsum() of int32 arrays of 0 to 2^20 elements is exact in int64", () => {
  for (const n of SIZES) {
    const host = Int32Array.from(randomInts(n, n + 1, -(2 ** 31), 2 ** 31 - 1));
    using a = ga.toGpu(host);
    using c = ga.cumsum(a);
    assert.equal(c.dtype, "int64");
    assert.deepEqual(c.shape, [n]);
    assertBigints(c.get(), hostScan([...host].map(BigInt), [n], 0, add, 0n), `cumsum of ${n}`);
  }
});

eachBackend("cumprod() of int64 arrays of 0 to 2^20 elements wraps at 64 bits exactly, as NumPy", () => {
  for (const n of SIZES) {
    // Odd factors, so the products do not become 0 modulo 2^64.
    const host = BigInt64Array.from(randomInts(n, n + 7, -1000, 1000), (v) => BigInt(2 * v + 1));
    using c = ga.toGpu(host).cumprod();
    assertBigints(c.get(), hostScan([...host], [n], 0, mul64, 1n), `cumprod of ${n}`);
  }
});

eachBackend(
  "cumsum() and cumprod() of float32 arrays of 0 to 2^20 elements match the host exactly on exact values",
  () => {
    for (const n of SIZES) {
      // Sums of integers below 2^24 and products of ±1, ±2 and ±0.5 are exact in float32, in any order.
      const ints = Float32Array.from(randomInts(n, n + 3, -8, 8));
      const signs = randomInts(n, n + 5, 0, 1);
      const factors = Float32Array.from(
        { length: n },
        (_, i) => (signs[i] ? -1 : 1) * (i % 4096 === 0 ? 2 : i % 4096 === 2048 ? 0.5 : 1),
      );
      if (n > 70_000) factors[70_000] = 0;
      using a = ga.toGpu(ints), b = ga.toGpu(factors);
      using s = ga.cumsum(a), p = ga.cumprod(b);
      assert.equal(s.dtype, "float32");
      assert.deepEqual(s.get(), Float32Array.from(hostScan([...ints], [n], 0, (x, y) => x + y, 0)));
      assert.deepEqual(p.get(), Float32Array.from(hostScan([...factors], [n], 0, (x, y) => x * y, 1)));
    }
  },
);

eachBackend("cumsum() of 1100 rows of 4200 (thousands of tiles), twice, matches the host", () => {
  const shape = [1100, 4200];
  const host = Float32Array.from(randomInts(shape[0]! * shape[1]!, 61, -3, 3));
  const want = Float32Array.from(hostScan([...host], shape, 1, (x, y) => x + y, 0));
  using a = ga.toGpu(host, shape), out = ga.empty(shape);
  for (let round = 0; round < 2; round++) {
    out.fill(0);
    ga.cumsum(a, { axis: 1, out });
    assert.deepEqual(out.get(), want, `round ${round}`);
  }
});

eachBackend("cumsum() of 2^20 random float32 values stays within 1e-4 of the float64 sum", () => {
  const r = seeded(11);
  const host = Float32Array.from({ length: 2 ** 20 }, () => r());
  using c = ga.cumsum(ga.toGpu(host));
  const got = c.get();
  let sum = 0;
  for (let i = 0; i < host.length; i++) {
    sum += host[i]!;
    if (!(Math.abs(got[i]! - sum) <= 1e-4 * sum + 1e-6)) assert.fail(`element ${i}: ${got[i]}, want ${sum}`);
  }
});

/** Random host values of an integer dtype across its range (odd ones, for products). */
function randomOf(dtype: ga.DType, n: number, seed: number, odd: boolean): ga.TypedArray {
  const info = ga.DTYPES[dtype];
  const out = new info.array(n);
  const items = out as unknown as (number | bigint)[];
  const bits = info.size * 8, signed = info.kind === "int";
  const r = seeded(seed);
  for (let i = 0; i < n; i++) {
    let v = 0n;
    for (let b = 0; b < bits; b += 16) v = (v << 16n) | BigInt(Math.floor(r() * 65536));
    if (odd) v |= 1n;
    v = info.kind === "bool" ? v & 1n : signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v);
    items[i] = bits === 64 ? v : Number(v);
  }
  return out;
}

eachBackend("cumsum() and cumprod() of every integer dtype and bool accumulate in 64 bits, as NumPy", () => {
  const cases: [ga.DType, ga.DType][] = [
    ["bool", "int64"],
    ["int8", "int64"],
    ["uint8", "uint64"],
    ["int16", "int64"],
    ["uint16", "uint64"],
    ["int32", "int64"],
    ["uint32", "uint64"],
    ["int64", "int64"],
    ["uint64", "uint64"],
  ];
  for (const [dtype, want] of cases) {
    // 5000 elements take several tiles (one tile per row otherwise); one dtype is enough for that path here.
    for (const n of dtype === "uint16" ? [300, 5000] : [300]) {
      const wrap = (v: bigint) => (want === "int64" ? BigInt.asIntN(64, v) : BigInt.asUintN(64, v));
      const sums = randomOf(dtype, n, n, false), factors = randomOf(dtype, n, n + 1, dtype !== "bool");
      using a = ga.toGpu(sums, undefined, dtype);
      using b = ga.toGpu(factors, undefined, dtype);
      using s = a.cumsum(), p = b.cumprod();
      assert.equal(s.dtype, want);
      assert.equal(p.dtype, want);
      const host = (x: ArrayLike<number | bigint>) => Array.from(x, (v) => BigInt(v));
      const ref = (x: ArrayLike<number | bigint>, f: (a: bigint, b: bigint) => bigint, e: bigint) =>
        hostScan(host(x), [n], 0, (u, v) => wrap(f(u, v)), e);
      assertBigints(host(s.get()), ref(sums, add, 0n), `cumsum of ${n} ${dtype}`);
      assertBigints(host(p.get()), ref(factors, (u, v) => u * v, 1n), `cumprod of ${n} ${dtype}`);
    }
  }
});

const toBfloat16 = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0]! >>> 16;
const fromBfloat16 = (bits: number) => new Float32Array(Uint32Array.of(bits << 16).buffer)[0]!;

eachBackend(
  "cumsum() and cumprod() of every float dtype keep it, and match the host exactly on exact values",
  () => {
    const backend = ga.zeros(1).backend;
    const dtypes = (["float16", "bfloat16", "float32", "float64"] as const).filter((d) =>
      backend.supports(d)
    );
    for (const dtype of dtypes) {
      const n = 200; // bfloat16 holds every integer up to 256
      const ints = randomInts(n, 21, dtype === "bfloat16" ? -1 : -4, dtype === "bfloat16" ? 1 : 4);
      // Products of ±1, ±2 and ±0.5 whose exponents stay at 0 or 1 are exact in every float dtype.
      const signs = randomInts(n, 22, 0, 1);
      const bounded = signs.map((s, i) => (s ? -1 : 1) * (i % 10 === 3 ? 2 : i % 10 === 7 ? 0.5 : 1));
      const upload = (values: number[]) =>
        dtype === "bfloat16"
          ? ga.toGpu(Uint16Array.from(values, toBfloat16), undefined, "bfloat16")
          : ga.toGpu(Float64Array.from(values), undefined, "float64").astype(dtype);
      const download = (x: ga.GPUArray) =>
        dtype === "bfloat16"
          ? Array.from(x.get() as Uint16Array, fromBfloat16)
          : Array.from(x.get() as Float32Array);
      using a = upload(ints), b = upload(bounded);
      using s = ga.cumsum(a), p = ga.cumprod(b);
      assert.equal(s.dtype, dtype);
      assert.equal(p.dtype, dtype);
      assert.deepEqual(download(s), hostScan(ints, [n], 0, (x, y) => x + y, 0), `cumsum of ${dtype}`);
      assert.deepEqual(download(p), hostScan(bounded, [n], 0, (x, y) => x * y, 1), `cumprod of ${dtype}`);
    }
  },
);

eachBackend(
  "cumsum() and cumprod() along every axis of views (transposed, stepped, flipped, broadcast) match the host",
  () => {
    const shape = [6, 40, 700];
    const size = shape.reduce((a, b) => a * b);
    const base = Int32Array.from(randomInts(size, 31, -4, 3), (v) => 2 * v + 1);
    using a = ga.toGpu(base, shape);
    const long = Int32Array.from(randomInts(4 * 18_001, 32, -4, 3), (v) => 2 * v + 1);
    using b = ga.toGpu(long, [4, 18_001]);
    const row = Int32Array.from(randomInts(700, 33, -9, 9));
    using r = ga.toGpu(row, [1, 700]);
    const views: [string, ga.GPUArray, Int32Array][] = [
      ["a", a, base],
      ["a.T", a.T, base],
      ["a[::-1, 5:35, ::-3]", a.slice([null, null, -1], [5, 35], [null, null, -3]), base],
      ["moveaxis(a, 2, 0)", ga.moveaxis(a, 2, 0), base],
      ["b[1:, ::2]", b.slice([1, null], [null, null, 2]), long],
      ["b[::-1]", b.slice([null, null, -1]), long],
      ["broadcast row", ga.broadcastTo(r, [5, 700]), row],
    ];
    for (const [name, view, host] of views) {
      const values = viewValues([...host].map(BigInt), view);
      for (let axis = -1; axis < view.ndim; axis++) {
        using s = ga.cumsum(view, { axis }), p = ga.cumprod(view, { axis });
        assert.deepEqual(s.shape, view.shape);
        const ax = axis < 0 ? axis + view.ndim : axis;
        assertBigints(
          s.get() as BigInt64Array,
          hostScan(values, view.shape, ax, add, 0n),
          `cumsum of ${name} along ${axis}`,
        );
        assertBigints(
          p.get() as BigInt64Array,
          hostScan(values, view.shape, ax, mul64, 1n),
          `cumprod of ${name} along ${axis}`,
        );
      }
      using flat = ga.cumsum(view);
      assertBigints(
        flat.get() as BigInt64Array,
        hostScan(values, [values.length], 0, add, 0n),
        `cumsum of ${name}, flattened`,
      );
    }
  },
);

eachBackend("cumsum() and cumprod() with a dtype convert each element to it first, as NumPy", () => {
  assert.deepEqual(ga.cumsum(ga.asarray([300, 300], "int32"), { dtype: "int8" }).get(), Int8Array.of(44, 88));
  assert.deepEqual(ga.cumsum(ga.asarray([1, -1, 0]), { dtype: "bool" }).get(), Uint8Array.of(1, 1, 1));
  assert.deepEqual(ga.cumprod(ga.asarray([2.5, 2.5]), { dtype: "int32" }).get(), Int32Array.of(2, 4));
  assert.deepEqual(
    ga.cumsum(ga.asarray([1, 2, 3], "int32"), { dtype: "float32" }).get(),
    Float32Array.of(1, 3, 6),
  );
});

eachBackend("cumsum() and cumprod() write into out: a new array, a view, or the input itself", () => {
  const host = Float32Array.from(randomInts(6000, 51, -9, 9));
  const want = Float32Array.from(hostScan([...host], [6000], 0, (x, y) => x + y, 0));
  using a = ga.toGpu(host), out = ga.empty(6000);
  assert.equal(ga.cumsum(a, { out }), out);
  assert.deepEqual(out.get(), want);
  using grid = ga.zeros([2, 6000]);
  ga.cumsum(a, { out: grid.slice(1) });
  assert.deepEqual(grid.get().slice(6000), want);
  using m = ga.toGpu(host.slice(0, 12), [3, 4]), t = ga.zeros([4, 3]);
  ga.cumprod(m, { axis: 0, out: t.T });
  assert.deepEqual([...t.T.get()], hostScan([...host.slice(0, 12)], [3, 4], 0, (x, y) => x * y, 1));
  a.cumsum({ out: a });
  assert.deepEqual(a.get(), want, "in place");
  assert.throws(() => ga.cumsum(a, { out: ga.empty(6000, "float64") }), {
    name: "TypeError",
    message: /float32/,
  });
  assert.throws(() => ga.cumsum(a, { out: ga.empty(5999) }), RangeError);
  assert.deepEqual(ga.cumsum(a, { dtype: "float64", out: ga.empty(6000, "float64") }).dtype, "float64");
});

eachBackend("cumsum() of a 0-d array is 1-D, and an axis out of range is a RangeError", () => {
  assert.deepEqual(ga.cumsum(ga.asarray(5)).get(), Float32Array.of(5));
  assert.deepEqual(ga.cumsum(ga.asarray(5), { axis: 0 }).shape, [1]);
  assert.deepEqual(ga.cumsum(ga.zeros([3, 0]), { axis: 1 }).shape, [3, 0]);
  assert.throws(() => ga.cumsum(ga.zeros([2, 3]), { axis: 2 }), {
    name: "RangeError",
    message: "Cannot cumsum: axis 2 is out of range for an array of 2 dimensions (use -2 to 1)",
  });
  assert.throws(() => ga.cumprod(ga.zeros(3), { dtype: "float8" as ga.DType }), TypeError);
});

eachBackend("diff() takes n-th differences along an axis of views, as NumPy", () => {
  const host = Float32Array.from(randomInts(28, 41, -50, 50));
  using x = ga.toGpu(host, [4, 7]);
  const values = (v: ga.GPUArray) => viewValues([...host], v);
  const differences = (vals: number[], shape: number[], axis: number) => {
    const out: number[] = [];
    const [rows, cols] = shape as [number, number];
    if (axis === 1) {
      for (let i = 0; i < rows; i++) {
        for (let j = 0; j + 1 < cols; j++) out.push(vals[i * cols + j + 1]! - vals[i * cols + j]!);
      }
    } else {
      for (let i = 0; i + 1 < rows; i++) {
        for (let j = 0; j < cols; j++) out.push(vals[(i + 1) * cols + j]! - vals[i * cols + j]!);
      }
    }
    return out;
  };
  for (const view of [x, x.T, x.slice([null, null, -1], [1, null, 2])]) {
    const vals = values(view);
    const shape = [...view.shape];
    assert.deepEqual([...ga.diff(view).get()], differences(vals, shape, 1));
    assert.deepEqual([...ga.diff(view, { axis: 0 }).get()], differences(vals, shape, 0));
    const once = differences(vals, shape, 1);
    assert.deepEqual([...view.diff({ n: 2 }).get()], differences(once, [shape[0]!, shape[1]! - 1], 1));
  }
  assert.deepEqual(ga.diff(ga.asarray([true, false, false])).get(), Uint8Array.of(1, 0));
  assert.equal(ga.diff(ga.asarray([true, false])).dtype, "bool");
  assert.deepEqual(ga.diff(ga.asarray([1, 5, 2], "uint8")).get(), Uint8Array.of(4, 253));
  assert.deepEqual(ga.diff(x, { n: 0 }).get(), host);
  assert.deepEqual(ga.diff(x, { n: 9 }).shape, [4, 0]);
  assert.throws(() => ga.diff(ga.asarray(5)), { name: "RangeError", message: /0-d array/ });
  assert.throws(() => ga.diff(x, { n: -1 }), { name: "RangeError", message: /n = -1/ });
  assert.throws(() => ga.diff(x, { axis: 2 }), RangeError);
});

eachBackend("cumsum, cumprod and diff are methods too", () => {
  using x = ga.asarray([[1, 2, 3], [4, 5, 6]], "int32");
  assert.deepEqual(x.cumsum({ axis: 1 }).get(), BigInt64Array.of(1n, 3n, 6n, 4n, 9n, 15n));
  assert.deepEqual(x.cumprod().get(), BigInt64Array.of(1n, 2n, 6n, 24n, 120n, 720n));
  assert.deepEqual(x.diff({ axis: 0 }).get(), Int32Array.of(3, 3, 3));
  // The result types follow NumPy's dtypes, so get() is typed.
  const sums: BigInt64Array = x.cumsum().get();
  const unsigned: BigUint64Array = ga.cumprod(ga.asarray([1, 2], "uint8")).get();
  const floats: Float32Array = ga.cumsum(ga.asarray([0.5, 0.25])).get();
  assert.deepEqual([sums[5], unsigned[1], floats[1]], [21n, 2n, 0.75]);
});
