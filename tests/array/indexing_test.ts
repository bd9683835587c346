import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { indicesOf, randomInts, seeded, viewValues } from "./_host.ts";

/** NumPy's `take` on the host: `values` (C order) of `shape`, `indices` (C order) of `indexShape`. */
function hostTake(
  values: readonly number[],
  shape: readonly number[],
  indices: readonly number[],
  indexShape: readonly number[],
  axis: number | undefined,
): { shape: number[]; values: number[] } {
  if (axis === undefined) {
    const n = values.length;
    return { shape: [...indexShape], values: indices.map((j) => values[j < 0 ? j + n : j]!) };
  }
  const n = shape[axis]!;
  const pre = shape.slice(0, axis).reduce((a, b) => a * b, 1);
  const post = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const out: number[] = [];
  for (let p = 0; p < pre; p++) {
    for (const j of indices) {
      for (let q = 0; q < post; q++) out.push(values[(p * n + (j < 0 ? j + n : j)) * post + q]!);
    }
  }
  return { shape: [...shape.slice(0, axis), ...indexShape, ...shape.slice(axis + 1)], values: out };
}

function base(): { host: Float32Array; a: ga.GPUArray } {
  const host = Float32Array.from(randomInts(120, 1, -99, 99));
  return { host, a: ga.toGpu(host, [4, 5, 6]) };
}

eachBackend(
  "take() along every axis of views, with negative indices of every integer dtype, matches the host",
  () => {
    const { host, a } = base();
    using _a = a;
    const views: [string, ga.GPUArray][] = [
      ["a", a],
      ["a.T", a.T],
      ["a[::-1, 1:, ::-2]", a.slice([null, null, -1], [1, null], [null, null, -2])],
    ];
    for (const [name, view] of views) {
      const values = viewValues([...host], view);
      for (let axis = 0; axis < view.ndim; axis++) {
        const n = view.shape[axis]!;
        const picks: [ga.DType, number[], number[]][] = [
          ["int8", [-1, 0, n - 1], [3]],
          ["uint8", [1, n - 1, 1], [3]],
          ["int32", [0, -n, 1, -2], [2, 2]],
          ["int64", [n - 1], [1]],
        ];
        for (const [dtype, list, shape] of picks) {
          using idx = ga.toGpu(Float64Array.from(list), shape, "float64").astype(dtype);
          const want = hostTake(values, view.shape, list, shape, axis);
          using got = ga.take(view, idx, axis);
          assert.deepEqual(got.shape, want.shape, `${name} along ${axis} with ${dtype}`);
          assert.deepEqual(
            [...got.get() as Float32Array],
            want.values,
            `${name} along ${axis} with ${dtype}`,
          );
        }
      }
      // Without an axis: the flattened array, with indices from a reversed view and a list.
      using idx = ga.toGpu(Int32Array.of(5, -1, 0, 17), [4]);
      using reversed = idx.slice([null, null, -1]);
      assert.deepEqual(
        [...ga.take(view, reversed).get() as Float32Array],
        hostTake(values, [], [17, 0, -1, 5], [4], undefined).values,
      );
      assert.deepEqual(
        [...view.take([-3, 2]).get() as Float32Array],
        hostTake(values, [], [-3, 2], [2], undefined).values,
      );
    }
    using one = ga.take(a, 7);
    assert.deepEqual(one.shape, []);
    assert.deepEqual(one.get(), Float32Array.of(host[7]!));
    // NumPy converts other integer dtypes to int64 first: uint64's largest value is -1, a bool is 0 or 1.
    using last = ga.toGpu(BigUint64Array.of(2n ** 64n - 1n));
    assert.deepEqual(ga.take(a, last).get(), Float32Array.of(host[119]!));
    assert.deepEqual(ga.take(a, ga.asarray([true, false])).get(), Float32Array.of(host[1]!, host[0]!));
  },
);

eachBackend(
  "take() of an index out of range is a RangeError naming it and the extent, and later takes are unaffected",
  () => {
    using x = ga.asarray([[1, 2, 3], [4, 5, 6]]);
    assert.throws(() => ga.take(x, [0, 7, 9], 1), {
      name: "RangeError",
      message: "Cannot take index 7 along axis 1: it is out of range for extent 3 (use -3 to 2)",
    });
    assert.throws(() => x.take([1, -7]), {
      name: "RangeError",
      message: "Cannot take index -7 of the flattened array: it is out of range for extent 6 (use -6 to 5)",
    });
    assert.throws(() => ga.take(x, ga.asarray([2], "int64"), -2), {
      name: "RangeError",
      message: "Cannot take index 2 along axis 0: it is out of range for extent 2 (use -2 to 1)",
    });
    const kept: Float32Array = ga.take(x, [1], 1).get(); // take keeps the dtype, and get() is typed
    assert.deepEqual(kept, Float32Array.of(2, 5));
    assert.throws(() => ga.take(ga.zeros([3, 0]), [0], 1), {
      name: "RangeError",
      message: /extent 0 \(it is empty\)/,
    });
    assert.deepEqual(ga.take(ga.zeros([3, 0]), [], 1).shape, [3, 0]);
    assert.deepEqual(ga.take(x, ga.zeros([0, 2], "int32"), 0).shape, [0, 2, 3]);
    assert.throws(() => ga.take(x, ga.asarray([1.5])), { name: "TypeError", message: /float32 indices/ });
    assert.throws(() => ga.take(x, [0.5]), TypeError);
    assert.throws(() => ga.take(x, [0], 2), RangeError);
  },
);

eachBackend("put() writes at flat indices, repeating the values, through views, as NumPy", () => {
  using a = ga.arange(10, undefined, 1, "int32");
  ga.put(a, [0, 2, -1], [7, 8]);
  assert.deepEqual(a.get(), Int32Array.of(7, 1, 8, 3, 4, 5, 6, 7, 8, 7));
  a.put(ga.asarray([3, 4], "uint8"), 2.9);
  assert.deepEqual(a.get().slice(3, 5), Int32Array.of(2, 2), "floats into integers truncate");
  a.put([5], ga.asarray([1e9], "float64"));
  assert.equal(a.get()[5], 1e9);
  // Into a transposed view: its flat positions are its own C order.
  const host = Float32Array.from(randomInts(12, 2, -9, 9));
  using m = ga.toGpu(host, [3, 4]);
  const t = m.T;
  const order = viewValues([...host.keys()], t);
  ga.put(t, ga.toGpu(Int32Array.of(0, 5, -1)), ga.asarray([100, 200, 300]));
  const want = Float32Array.from(host);
  [[0, 100], [5, 200], [11, 300]].forEach(([k, v]) => want[order[k!]!] = v!);
  assert.deepEqual(m.get(), want);
  // Values that overlap the array are read before any is written.
  using b = ga.arange(6, "float32");
  ga.put(b, [0, 1, 2], b.slice([3, null]));
  assert.deepEqual(b.get(), Float32Array.of(3, 4, 5, 3, 4, 5));
  ga.put(b, [], [1]);
  ga.put(b, [1], []);
  assert.deepEqual(b.get(), Float32Array.of(3, 4, 5, 3, 4, 5), "no indices or no values: nothing written");
});

eachBackend("put() of an index out of range is a RangeError naming it and the size", () => {
  using a = ga.zeros(10);
  assert.throws(() => ga.put(a, [3, 10], 1), {
    name: "RangeError",
    message:
      "Cannot put at index 10: it is out of range for an array of shape [10] (10 elements; use -10 to 9)",
  });
  assert.throws(() => ga.put(a.reshape(2, 5).T, [-11], 1), { name: "RangeError", message: /index -11/ });
  assert.throws(() => ga.put(ga.zeros(0), [0], 1), { name: "RangeError", message: /it is empty/ });
  ga.put(a, [9], 4);
  assert.equal(a.get()[9], 4);
  assert.throws(() => ga.put(ga.zeros(3, "uint8"), [0], 300), RangeError);
});

/** The C-order multi-indices of the non-zero `values` of `shape`. */
function hostNonzero(values: readonly number[], shape: readonly number[]): number[][] {
  const out: number[][] = [];
  let k = 0;
  for (const idx of indicesOf(shape)) if (values[k++] !== 0) out.push(idx);
  return out;
}

eachBackend(
  "nonzero() and argwhere() of arrays of 0 to 2^20 elements and of views match the host (NaN counts, -0 does not)",
  () => {
    const r = seeded(5);
    for (const n of [0, 1, 17, 4097, 2 ** 20]) {
      const host = Float32Array.from({ length: n }, () => {
        const u = r();
        return u < 0.6 ? 0 : u < 0.7 ? -0 : u < 0.75 ? NaN : u;
      });
      using a = ga.toGpu(host);
      const want = hostNonzero([...host], [n]).map(([i]) => BigInt(i!));
      const [at] = ga.nonzero(a);
      assert.deepEqual([...at!.get()], want, `nonzero of ${n}`);
      assert.equal(at!.dtype, "int64");
      using rows = ga.argwhere(a);
      assert.deepEqual(rows.shape, [want.length, 1]);
    }
    const host = Int8Array.from(randomInts(3 * 4 * 5, 6, -1, 1));
    using c = ga.toGpu(host, [3, 4, 5]);
    for (const view of [c, c.T, c.slice([null, null, -1], 2), ga.broadcastTo(c.slice(0, 0), [2, 5])]) {
      const want = hostNonzero(viewValues([...host], view), view.shape);
      const got = view.nonzero();
      assert.equal(got.length, view.ndim);
      got.forEach((g, d) => assert.deepEqual([...g.get()], want.map((idx) => BigInt(idx[d]!))));
      using rows = ga.argwhere(view);
      assert.deepEqual(rows.shape, [want.length, view.ndim]);
      assert.deepEqual([...rows.get()], want.flat().map(BigInt));
    }
    assert.deepEqual(ga.nonzero(ga.zeros([2, 3], "bool")).map((x) => x.shape), [[0], [0]]);
    assert.throws(() => ga.nonzero(ga.asarray(1)), { name: "RangeError", message: /0-d array/ });
    assert.deepEqual(ga.argwhere(ga.asarray(5)).shape, [1, 0]);
    assert.deepEqual(ga.argwhere(ga.asarray(0)).shape, [0, 0]);
  },
);

eachBackend("compress() selects slices along an axis by a 1-D condition, as NumPy", () => {
  const { host, a } = base();
  using _a = a;
  const values = [...host];
  const cond = [true, false, true, true, false];
  const picked = cond.flatMap((c, i) => (c ? [i] : []));
  assert.deepEqual([...ga.compress(cond, a, 1).get()], hostTake(values, a.shape, picked, [3], 1).values);
  using gcond = ga.toGpu(Int32Array.of(0, 3, 0, -1), [4]);
  assert.deepEqual([...a.compress(gcond, 0).get()], hostTake(values, a.shape, [1, 3], [2], 0).values);
  assert.deepEqual(
    [...ga.compress([0, 1, 0, 1], a).get()],
    [values[1], values[3]],
    "shorter, over the flattened array",
  );
  const t = a.T;
  assert.deepEqual(
    [...ga.compress([1, 0, 0, 0, 0, 1, 0, 0], t, 0).get()],
    hostTake(viewValues(values, t), t.shape, [0, 5], [2], 0).values,
    "longer than the axis, with no true past it",
  );
  assert.deepEqual(ga.compress([false, false], a, 2).shape, [4, 5, 0]);
  assert.throws(() => ga.compress([0, 1, 0, 0, 0, 0, 1], a, 1), {
    name: "RangeError",
    message:
      "Cannot compress along axis 1: the condition selects position 6, past the extent 5 (use -5 to 4)",
  });
  assert.throws(() => ga.compress(ga.ones([2, 2], "bool"), a, 0), {
    name: "RangeError",
    message: /condition of shape \[2, 2\]: it must be 1-D/,
  });
});

eachBackend(
  "mask() is NumPy's a[m]: full and leading-dimension masks, on views, empty selections and 2^20 elements",
  () => {
    const { host, a } = base();
    using _a = a;
    const values = [...host];
    for (const view of [a, a.T, a.slice([null, null, -1], [1, 4])]) {
      const vals = viewValues(values, view);
      using m = view.gt(0);
      assert.deepEqual([...ga.mask(view, m).get()], vals.filter((v) => v > 0), "a full mask");
      using lead = view.slice([], [], 0).lt(0); // the mask of the first two dimensions
      const rows = viewValues(values, view.slice([], [], 0)).flatMap((v, k) => (v < 0 ? [k] : []));
      const inner = view.shape[2]!;
      using got = view.mask(lead);
      assert.deepEqual(got.shape, [rows.length, inner]);
      assert.deepEqual([...got.get()], rows.flatMap((k) => vals.slice(k * inner, (k + 1) * inner)));
    }
    assert.deepEqual(ga.mask(a, ga.zeros([4, 5], "bool")).shape, [0, 6]);
    assert.deepEqual(ga.mask(a, ga.asarray(true)).shape, [1, 4, 5, 6]);
    assert.deepEqual(ga.mask(a, ga.asarray(false)).shape, [0, 4, 5, 6]);
    const n = 2 ** 20, r = seeded(9);
    const big = Float32Array.from({ length: n }, () => r() - 0.5);
    using g = ga.toGpu(big);
    assert.deepEqual(ga.mask(g, g.gt(0.25)).get(), big.filter((v) => v > 0.25));
    assert.throws(() => ga.mask(a, ga.ones([4, 6], "bool")), {
      name: "RangeError",
      message:
        "Cannot mask an array of shape [4, 5, 6] with a mask of shape [4, 6]: they differ at axis 1 (5 and 6); the mask's shape must be the array's leading dimensions",
    });
    assert.throws(() => ga.mask(a, ga.ones([4, 5, 6, 1], "bool")), {
      name: "RangeError",
      message: /more dimensions/,
    });
    assert.throws(() => ga.mask(a, ga.ones([4], "int32")), { name: "TypeError", message: /int32 array/ });
  },
);
