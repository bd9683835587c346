import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { groups, near, randomF32, REFERENCE, seeded } from "./_reduce_reference.ts";

type Options = { axis?: number | number[]; keepdims?: boolean; ddof?: number };

/** Runs `op` on `a` and compares it, element by element, with the host reference over `a`'s elements. */
function check(op: string, a: ga.GPUArray, options: Options, rel = 2e-5): void {
  const f = (ga as unknown as Record<string, (a: ga.GPUArray, o: Options) => ga.GPUArray>)[op]!;
  const result = f(a, options);
  const axes = options.axis === undefined
    ? a.shape.map((_, i) => i)
    : [options.axis].flat().map((x) => (x < 0 ? x + a.ndim : x));
  const want = groups(Array.from(a.get() as ArrayLike<number>, Number), a.shape, axes).map((xs) =>
    REFERENCE[op]!(xs, options.ddof)
  );
  const shape = options.keepdims
    ? a.shape.map((d, i) => (axes.includes(i) ? 1 : d))
    : a.shape.filter((_, i) => !axes.includes(i));
  assert.deepEqual(result.shape, shape, `${op} ${JSON.stringify(options)}: shape`);
  const got = Array.from(result.get() as ArrayLike<number | bigint>, Number);
  got.forEach((g, i) =>
    assert.ok(
      near(g, want[i]!, rel),
      `${op} ${JSON.stringify(options)} of ${a.shape}: [${i}] = ${g}, want ${want[i]}`,
    )
  );
  result.free();
}

eachBackend("sum() along each axis, negative axes, lists and keepdims matches the host", () => {
  using a = ga.toGpu(randomF32(4 * 5 * 6, 1), [4, 5, 6]);
  for (const axis of [0, 1, 2, -1, -3, [0, 2], [1, 2], [0, 1, 2], [-1, 0]]) {
    for (const keepdims of [false, true]) check("sum", a, { axis, keepdims });
  }
  using s = a.sum({ axis: 1 }); // the method is the function
  assert.deepEqual(s.shape, [4, 6]);
  assert.throws(() => a.sum({ axis: 3 }), {
    name: "RangeError",
    message: /axis 3 is out of range .* 3 dimensions/,
  });
  assert.throws(() => a.sum({ axis: [0, -3] }), { name: "RangeError", message: /names an axis twice/ });
});

eachBackend("every reduction along an axis of a float32 array matches the host", () => {
  using a = ga.toGpu(randomF32(6 * 40, 2, -3, 3), [6, 40]);
  const ops = [
    "sum",
    "prod",
    "mean",
    "min",
    "max",
    "ptp",
    "argmin",
    "argmax",
    "any",
    "all",
    "var",
    "std",
    "countNonzero",
    "nansum",
    "nanmean",
    "nanmin",
    "nanmax",
    "logsumexp",
  ];
  for (const op of ops) {
    for (const axis of [0, 1]) check(op, a, { axis }, op === "prod" ? 1e-4 : 2e-5);
  }
  check("var", a, { axis: 1, ddof: 1 });
  check("std", a, { axis: 0, ddof: 2, keepdims: true });
});

eachBackend("reductions read transposed, negatively strided and broadcast views in place", () => {
  using base = ga.toGpu(randomF32(8 * 9 * 10, 3), [8, 9, 10]);
  const views = [
    base.T, // [10, 9, 8]
    base.transpose(1, 0, 2),
    base.slice([null, null, -1], [1, 8, 3], [null, null, -2]), // [8, 3, 5], negative steps
    base.slice(2).broadcastTo([4, 9, 10]), // a broadcast axis of stride 0
    base.slice([], [], 3).expandDims(1), // an axis of extent 1
  ];
  for (const v of views) {
    for (const op of ["sum", "max", "argmax", "mean", "var"]) {
      for (let axis = 0; axis < v.ndim; axis++) check(op, v, { axis });
    }
    check("sum", v, { axis: [0, 2] });
    v.free();
  }
});

eachBackend("reductions over every axis give host values of NumPy's kinds", () => {
  using f = ga.asarray([[1, 2], [3, 4]]);
  assert.equal(f.sum(), 10);
  assert.equal(f.mean(), 2.5);
  assert.equal(f.max(), 4);
  assert.equal(f.argmax(), 3);
  assert.equal(f.T.argmax(), 3, "argmax of a transposed view is its flat C-order index");
  assert.equal(f.T.argmin({}), 0);
  assert.equal(f.any(), true);
  assert.equal(f.all(), true);
  assert.equal(f.countNonzero(), 4);
  assert.equal(f.var(), 1.25);
  using i = ga.toGpu(Int32Array.of(5, -7, 9), [3]);
  assert.equal(i.sum(), 7n, "an int32 sum is an exact bigint (int64)");
  assert.equal(i.prod(), -315n);
  assert.equal(i.max(), 9);
  assert.equal(i.mean(), 7 / 3);
  using u = ga.toGpu(Uint8Array.of(250, 250, 250));
  assert.equal(u.sum(), 750n, "uint8 sums in 64 bits");
  using big = ga.toGpu(BigInt64Array.of(2n ** 62n, 2n ** 61n, 1n));
  assert.equal(big.sum(), 2n ** 62n + 2n ** 61n + 1n, "int64 sums are exact");
  assert.equal(big.max(), 2n ** 62n);
  assert.equal(big.argmin(), 2);
  using b = ga.toGpu(Uint8Array.of(1, 0, 1)).astype("bool");
  assert.equal(b.sum(), 2n);
  assert.equal(b.any(), true);
  assert.equal(b.all(), false);
  using k = f.sum({ keepdims: true });
  assert.deepEqual(k.shape, [1, 1], "keepdims without axis gives an array, as NumPy does");
});

eachBackend("integer and bool reductions along axes accumulate in 64 bits and give NumPy's dtypes", () => {
  const host = Int8Array.from({ length: 3 * 200 }, (_, i) => (i * 37) % 255 - 127);
  using a = ga.toGpu(host, [3, 200]);
  using s = a.sum({ axis: 1 });
  assert.equal(s.dtype, "int64");
  const rows = groups(Array.from(host), [3, 200], [1]);
  assert.deepEqual(Array.from(s.get()), rows.map((r) => BigInt(r.reduce((x, y) => x + y, 0))));
  using u = ga.toGpu(Uint16Array.from({ length: 600 }, (_, i) => 65535 - i), [200, 3]);
  using us = u.sum({ axis: 0 });
  assert.equal(us.dtype, "uint64");
  const cols = groups(Array.from(u.get()), [200, 3], [0]);
  assert.deepEqual(Array.from(us.get()), cols.map((c) => BigInt(c.reduce((x, y) => x + y, 0))));
  using m = a.mean({ axis: 1 });
  assert.equal(m.dtype, "float64");
  rows.forEach((r, i) => assert.ok(near(m.get()[i]!, r.reduce((x, y) => x + y, 0) / r.length, 1e-12)));
  using mx = a.max({ axis: 0 });
  assert.equal(mx.dtype, "int8");
  using am = a.argmax({ axis: 1 });
  assert.equal(am.dtype, "int64");
  using b = a.gt(0);
  using any = b.any({ axis: 1 }), all = b.all({ axis: 1 }), count = b.countNonzero({ axis: 1 });
  assert.equal(any.dtype, "bool");
  assert.deepEqual(Array.from(count.get()), rows.map((r) => BigInt(r.filter((x) => x > 0).length)));
  assert.deepEqual(Array.from(all.get()), rows.map((r) => (r.every((x) => x > 0) ? 1 : 0)));
  using p = ga.toGpu(Int32Array.of(2, 3, 4, 5, 6, 7), [2, 3]).prod({ axis: 1 });
  assert.deepEqual(Array.from(p.get()), [24n, 210n]);
  assert.throws(() => b.ptp(), { name: "TypeError", message: /ptp is not defined for bool arrays/ });
});

eachBackend("max, min, argmax and argmin propagate the first NaN; the nan functions skip NaNs", () => {
  const x = Float32Array.of(1, NaN, 5, NaN, 2, 9, -1, 3, NaN, NaN, NaN, NaN);
  using a = ga.toGpu(x, [3, 4]);
  for (
    const op of [
      "max",
      "min",
      "argmax",
      "argmin",
      "nanmax",
      "nanmin",
      "nansum",
      "nanmean",
      "sum",
      "logsumexp",
    ]
  ) {
    check(op, a, { axis: 1 });
    check(op, a, { axis: 0 });
  }
  assert.equal(a.argmax(), 1, "the first NaN's flat index");
  assert.ok(Number.isNaN(a.max()));
  assert.equal(a.nanmax(), 9);
  assert.equal(a.nanmin(), -1);
  assert.equal(a.nansum(), 19);
  using ties = ga.asarray([[2, 7, 7, 1], [3, 3, 0, 0]]);
  assert.deepEqual(Array.from(ties.argmax({ axis: 1 }).get()), [1n, 0n], "ties give the first index");
  assert.deepEqual(Array.from(ties.argmin({ axis: 1 }).get()), [3n, 2n]);
});

eachBackend(
  "empty axes: sum 0, prod 1, mean NaN, and min, max and argmax a RangeError naming the axis",
  () => {
    using e = ga.zeros([3, 0]);
    assert.deepEqual(Array.from(e.sum({ axis: 1 }).get()), [0, 0, 0]);
    assert.deepEqual(Array.from(e.prod({ axis: 1 }).get()), [1, 1, 1]);
    assert.ok(e.mean({ axis: 1 }).get().every(Number.isNaN));
    assert.deepEqual(e.sum({ axis: 0 }).shape, [0], "an empty kept axis gives an empty result");
    assert.equal(e.sum(), 0);
    assert.equal(ga.zeros(0, "int32").sum(), 0n);
    assert.equal(e.any(), false);
    assert.equal(e.all(), true);
    assert.equal(e.logsumexp(), -Infinity);
    const call = (op: string, options?: { axis: number }) =>
      (ga as unknown as Record<string, (a: ga.GPUArray, o?: { axis: number }) => unknown>)[op]!(e, options);
    for (const op of ["max", "min", "argmax", "argmin", "ptp", "nanmax", "nanmin"]) {
      assert.throws(() => call(op, { axis: 1 }), {
        name: "RangeError",
        message: new RegExp(`Cannot take the ${op} along axis 1 of an array of shape \\[3, 0\\]`),
      });
      assert.throws(() => call(op), { name: "RangeError", message: /of an empty array of shape \[3, 0\]/ });
    }
    using none = e.max({ axis: 0 });
    assert.deepEqual(none.shape, [0], "an empty result of a non-empty axis is fine, as in NumPy");
  },
);

eachBackend("out receives the result, through a strided view, and may overlap the input", () => {
  using a = ga.toGpu(randomF32(5 * 7, 4), [5, 7]);
  using out = ga.zeros([7, 2]);
  const column = out.slice([], 1);
  assert.equal(a.sum({ axis: 0, out: column }), column);
  const want = groups(Array.from(a.get()), [5, 7], [0]).map((g) => g.reduce((x, y) => x + y, 0));
  Array.from(out.get()).forEach((v, i) => {
    if (i % 2 === 0) assert.equal(v, 0, "the other column is untouched");
    else assert.ok(near(v, want[(i - 1) / 2]!, 1e-5));
  });
  const first = a.slice(0); // the sums land on the input's own first row
  const before = groups(Array.from(a.get()), [5, 7], [0]).map((g) => Math.max(...g));
  a.max({ axis: 0, out: first });
  assert.deepEqual(Array.from(first.get()), before.map(Math.fround));
  assert.throws(() => a.sum({ axis: 0, out: ga.zeros([5]) }), {
    name: "RangeError",
    message: /result has shape \[7\]/,
  });
  assert.throws(() => a.sum({ axis: 0, out: ga.zeros([7], "float64") }), {
    name: "TypeError",
    message: /result is float32/,
  });
  assert.throws(() => a.sum({ axis: 1, out: ga.zeros([1]).broadcastTo([5]) }), {
    name: "RangeError",
    message: /broadcast view/,
  });
  using scalar = ga.zeros([]);
  assert.equal(a.sum({ out: scalar }), scalar, "out without an axis: every axis, into out");
  assert.ok(near(scalar.get()[0]!, Array.from(a.get()).reduce((x, y) => x + y, 0), 1e-5));
  using idx = ga.zeros([5], "int64");
  a.argmax({ axis: 1, out: idx });
  assert.equal(idx.get().length, 5);
  assert.throws(() => a.argmax({ axis: [0, 1] as unknown as number }), {
    name: "TypeError",
    message: /give one axis/,
  });
});

eachBackend("long and short reductions take every walk: split rows, split columns, and many outputs", () => {
  const cases: [number[], number | number[]][] = [
    [[3, 70_000], 1], // few long rows: the reduced elements split over blocks
    [[70_000, 3], 0], // few long columns, split
    [[2, 5000, 3], [0, 2]], // reduced axes that do not merge
    [[5000, 40], 1], // many short rows: a warp each
    [[40, 5000], 0], // many columns
    [[600_000], 0], // one long row, split into more than 32 parts
    [[7, 3, 4, 5], [1, 3]], // kept axes that do not merge
  ];
  cases.forEach(([shape, axis], i) => {
    const n = shape.reduce((x, y) => x * y, 1);
    using a = ga.toGpu(randomF32(n, 10 + i), shape);
    check("sum", a, { axis }, 1e-4);
    if (typeof axis === "number") check("argmax", a, { axis });
    check("var", a, { axis }, 1e-4);
  });
  using wide = ga.toGpu(randomF32(5 * 4100, 9), [5, 4100]);
  const ragged = wide.slice([], [0, 4098]); // aligned rows whose length is not a multiple of 4
  for (const op of ["sum", "argmin", "max"]) check(op, ragged, { axis: 1 });
  ragged.free();
});

eachBackend("var, std, logsumexp and nanmean match the host in float64 where the device has it", () => {
  using probe = ga.zeros(1);
  if (!probe.backend.supports("float64")) return;
  const r = seeded(7);
  const host = Float64Array.from({ length: 4 * 300 }, () => 1e6 + r());
  using a = ga.toGpu(host, [4, 300]);
  check("var", a, { axis: 1 }, 1e-8); // a large mean: a one-pass sum of squares would lose it
  check("std", a, { axis: 0, ddof: 1 }, 1e-8);
  check("logsumexp", a, { axis: 1 }, 1e-12);
  using i = ga.toGpu(Int32Array.of(1, 2, 3, 4), [2, 2]);
  using v = i.var({ axis: 0 });
  assert.equal(v.dtype, "float64");
  assert.deepEqual(Array.from(v.get()), [1, 1]);
});

eachBackend("logsumexp is stable for large and -Infinity inputs", () => {
  using a = ga.toGpu(Float32Array.of(1000, 1000, -Infinity, -Infinity, 0, -Infinity), [3, 2]);
  const got = Array.from(a.logsumexp({ axis: 1 }).get());
  assert.ok(near(got[0]!, 1000 + Math.log(2), 1e-6));
  assert.equal(got[1], -Infinity);
  assert.ok(near(got[2]!, 0, 1e-7));
});

eachBackend("vdot and norm read views through their layouts", () => {
  using a = ga.toGpu(randomF32(200, 11), [10, 20]);
  using b = ga.toGpu(randomF32(200, 12), [20, 10]);
  const x = Array.from(a.get()), y = Array.from(b.T.get());
  const dot = x.reduce((s, v, i) => s + v * y[i]!, 0);
  assert.ok(near(ga.vdot(a, b.T), dot, 1e-5));
  assert.ok(near(a.T.norm(), Math.sqrt(x.reduce((s, v) => s + v * v, 0)), 1e-6));
  assert.throws(() => ga.vdot(a, ga.zeros(3)), {
    name: "RangeError",
    message: /the sizes \(200 and 3\) differ/,
  });
});

eachBackend(
  "ReductionKernel reduces views and broadcasts with no copy, and snippets may index arrays themselves",
  () => {
    using a = ga.toGpu(randomF32(60, 13), [6, 10]);
    const sumSq = new ga.ReductionKernel("float32", {
      neutral: "0",
      reduce: "a + b",
      map: "x[i] * x[i] * w",
      arguments: "const float *x, float w",
    });
    const t = Array.from(a.T.get());
    assert.ok(near(sumSq(a.T, 2), 2 * t.reduce((s, v) => s + v * v, 0), 1e-5));
    const diff = new ga.ReductionKernel("float32", {
      neutral: "0",
      reduce: "a + b",
      map: "i + 1 < n ? x[i + 1] - x[i] : 0",
      arguments: "const float *x, int n",
    });
    const flat = Array.from(a.get());
    assert.ok(near(diff(a, 60), flat[59]! - flat[0]!, 1e-5), "a telescoping sum of neighbours");
    assert.throws(() => diff(a.T, 60), { name: "TypeError", message: /argument x is a view/ });
  },
);

/** Checks softmax and logSoftmax of `a` along `axis` (into `out` where given) against the host. */
function checkSoftmax(a: ga.GPUArray, axis: number, out?: ga.GPUArray): void {
  const ax = axis < 0 ? axis + a.ndim : axis;
  const rows = groups(Array.from(a.get() as ArrayLike<number>), a.shape, [ax]);
  for (const log of [false, true]) {
    const p = log ? ga.logSoftmax(a, { axis, out }) : a.softmax({ axis, out });
    assert.deepEqual(p.shape, a.shape);
    const got = groups(Array.from(p.get() as ArrayLike<number>), a.shape, [ax]);
    rows.forEach((row, r) => {
      const m = Math.max(...row), s = row.reduce((acc, x) => acc + Math.exp(x - m), 0);
      row.forEach((x, j) => {
        const want = log ? x - m - Math.log(s) : Math.exp(x - m) / s;
        assert.ok(near(got[r]![j]!, want, 1e-5), `${a.shape} axis ${axis} log ${log}: row ${r} [${j}]`);
      });
    });
    if (out === undefined) p.free();
  }
}

eachBackend("softmax and logSoftmax along rows and columns match the host", () => {
  const cases: [number[], number][] = [
    [[3, 7], -1], // short rows, a block each
    [[100, 50], 1], // short rows, a warp each
    [[80, 200], 1], // a warp each, with vector loads
    [[5, 3000], 1], // rows a block keeps in registers
    [[1, 3000], 1], // one row, with vector loads
    [[2, 20_000], 1], // rows longer than registers hold
    [[40, 6], 0], // the column walk
    [[3, 4, 5], 1], // a middle axis
  ];
  cases.forEach(([shape, axis], i) => {
    const n = shape.reduce((x, y) => x * y, 1);
    using a = ga.toGpu(randomF32(n, 20 + i, -20, 20), shape);
    checkSoftmax(a, axis);
  });
  using wide = ga.toGpu(randomF32(70 * 204, 29, -20, 20), [70, 204]);
  using target = ga.zeros([70, 204]);
  const ragged = wide.slice([], [0, 202]), into = target.slice([], [0, 202]); // aligned rows, ragged ends
  checkSoftmax(ragged, 1, into);
  assert.ok(target.slice([], [202, null]).get().every((v) => v === 0), "out's other columns are untouched");
  ragged.free();
  into.free();
});

eachBackend("softmax reads views, writes in place, and gives floats for integers", () => {
  using a = ga.toGpu(randomF32(4 * 6, 30, -5, 5), [4, 6]);
  const view = a.T.slice([null, null, -1]); // [6, 4], reversed rows
  const rows = groups(Array.from(view.get()), [6, 4], [1]);
  using p = ga.softmax(view);
  const got = groups(Array.from(p.get()), [6, 4], [1]);
  rows.forEach((row, r) => {
    const s = row.reduce((acc, x) => acc + Math.exp(x), 0);
    row.forEach((x, j) => assert.ok(near(got[r]![j]!, Math.exp(x) / s, 1e-5)));
  });
  const before = groups(Array.from(a.get()), [4, 6], [1]);
  assert.equal(ga.softmax(a, { out: a }), a, "in place");
  groups(Array.from(a.get()), [4, 6], [1]).forEach((row, r) => {
    const s = before[r]!.reduce((acc, x) => acc + Math.exp(x), 0);
    row.forEach((x, j) => assert.ok(near(x, Math.exp(before[r]![j]!) / s, 1e-5)));
  });
  using i = ga.toGpu(Int32Array.of(0, 1, 2, 3), [2, 2]);
  using q = i.softmax();
  assert.equal(q.dtype, "float64");
  const e = Math.E;
  assert.ok(near(q.get()[1]!, e / (1 + e), 1e-12));
  using nan = ga.softmax(ga.toGpu(Float32Array.of(1, NaN, 2, 3, 4, 5), [2, 3]));
  assert.ok(nan.get().slice(0, 3).every(Number.isNaN), "a NaN makes its row NaN");
  assert.ok(near(nan.get()[5]!, Math.exp(2) / (1 + Math.exp(1) + Math.exp(2)), 1e-6));
  assert.throws(() => ga.softmax(a, { axis: 2 }), { name: "RangeError", message: /axis 2 is out of range/ });
});

eachBackend("argmax of different dtypes with split reductions does not mix up their kernels", () => {
  using f = ga.toGpu(randomF32(600_000, 40), [600_000]);
  using i = ga.toGpu(Int32Array.from({ length: 600_000 }, (_, k) => ((k * 7919) % 600_011) - 300_000), [
    600_000,
  ]);
  const host = (xs: ArrayLike<number>) => REFERENCE.argmax!(Array.from(xs));
  assert.equal(f.argmax(), host(f.get()));
  assert.equal(i.argmax(), host(i.get()));
  assert.equal(i.argmin(), host(Array.from(i.get(), (x) => -x)));
  assert.equal(f.argmin({ axis: 0 }).get()[0], BigInt(REFERENCE.argmin!(Array.from(f.get()))));
});
