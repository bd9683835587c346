/**
 * The statistics routines (issue 33, item 2) against float64 host references written here from
 * NumPy's documented rules: order statistics, histograms and counts, moments and the `nan`
 * functions, on random data, views and dtypes, NaN and empty cases, and their errors.
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { seeded } from "./_host.ts";
import { assertNear, host, near, randomValues, rowsOf } from "./_stats_host.ts";

type Num = number;

const ascending = (a: number, b: number) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b);

function roundHalfEven(v: number): number {
  const f = Math.floor(v), d = v - f;
  return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
}

/** NumPy's quantile of one row in float64 (NaN where the row has one). */
function quantileRef(row: readonly Num[], q: number, method: ga.QuantileMethod): number {
  if (row.some(Number.isNaN)) return NaN;
  const s = [...row].sort(ascending), n = s.length, v = (n - 1) * q;
  const lo = Math.floor(v), hi = Math.min(lo + 1, n - 1);
  switch (method) {
    case "lower":
      return s[lo]!;
    case "higher":
      return s[Math.ceil(v)]!;
    case "nearest":
      return s[roundHalfEven(v)]!;
    case "midpoint":
      return (s[lo]! + s[Math.ceil(v)]!) / 2;
    default:
      return s[lo]! + (s[hi]! - s[lo]!) * (v - lo);
  }
}

const METHODS: ga.QuantileMethod[] = ["linear", "lower", "higher", "nearest", "midpoint"];
const QS = [0, 0.125, 0.3, 0.5, 0.875, 1];

eachBackend("quantile() and percentile() of float32 and int32 views match the float64 host reference", () => {
  const values = randomValues(35, 1);
  using base = ga.asarray(Float32Array.from(values)).reshape(7, 5);
  using t = base.T; // a transposed view, shape [5, 7]
  const tv = rowsOf(values, [7, 5], 0).flat(); // t's elements in C order
  using ints = t.astype("int32");
  const iv = tv.map(Math.trunc);
  for (const [x, xv, tol] of [[t, tv, 2e-6], [ints, iv, 1e-12]] as const) {
    for (const method of METHODS) {
      for (const axis of [null, 0, 1] as const) {
        const rows = rowsOf(xv, [5, 7], axis);
        const got = axis === null ? ga.quantile(x, QS, { method }) : ga.quantile(x, QS, axis, { method });
        const want = QS.flatMap((q) => rows.map((r) => quantileRef(r, q, method)));
        assertNear(host(got), want, tol, `${x.dtype} quantile ${method} axis ${axis}`);
        got.free();
      }
      const one = ga.percentile(x, 30, { method });
      assert.ok(near(Number(one), quantileRef(xv, 0.3, method), tol), `${x.dtype} percentile ${method}`);
    }
  }
  // Types: one quantile of floats keeps the dtype, a list gives float64, integers float64 (lower: int32).
  assert.equal(ga.quantile(t, 0.5, 0).dtype, "float32");
  assert.equal(ga.quantile(t, [0.5], 0).dtype, "float64");
  assert.equal(ga.quantile(ints, 0.5, 0).dtype, "float64");
  assert.equal(ga.quantile(ints, 0.5, 0, { method: "lower" }).dtype, "int32");
  // Several axes and keepdims.
  using cube = ga.asarray(Float32Array.from(randomValues(24, 2))).reshape(2, 3, 4);
  const cv = host(cube);
  const k = ga.quantile(cube, 0.25, [0, 2], { keepdims: true });
  assert.deepEqual(k.shape, [1, 3, 1]);
  const byMiddle = [0, 1, 2].map((j) => cv.filter((_, i) => Math.floor(i / 4) % 3 === j));
  assertNear(host(k), byMiddle.map((r) => quantileRef(r, 0.25, "linear")), 2e-6, "axes [0, 2]");
});

eachBackend("median() and nanmedian() follow NumPy on even and odd rows, NaN and empty input", () => {
  const values = randomValues(48, 3);
  using x = ga.asarray(Float32Array.from(values)).reshape(6, 8);
  for (const axis of [0, 1]) {
    const want = rowsOf(values, [6, 8], axis).map((r) => quantileRef(r, 0.5, "linear"));
    assertNear(host(ga.median(x, axis)), want, 2e-6, `median axis ${axis}`);
  }
  assert.ok(near(ga.median(x), quantileRef(values, 0.5, "linear"), 2e-6));
  assert.equal(ga.median(ga.asarray([1, 2, 3, 4], "int16")), 2.5);
  const withNan = randomValues(48, 4, 10);
  using y = ga.asarray(Float32Array.from(withNan)).reshape(6, 8);
  for (const axis of [0, 1]) {
    const rows = rowsOf(withNan, [6, 8], axis);
    assertNear(host(ga.median(y, axis)), rows.map((r) => quantileRef(r, 0.5, "linear")), 2e-6, "median NaN");
    const clean = rows.map((r) => r.filter((v) => !Number.isNaN(v)));
    const want = clean.map((r) => (r.length === 0 ? NaN : quantileRef(r, 0.5, "linear")));
    assertNear(host(ga.nanmedian(y, axis)), want, 2e-6, `nanmedian axis ${axis}`);
    for (const method of METHODS) {
      const got = ga.nanquantile(y, [0.1, 0.5, 0.9], axis, { method });
      const exp = [0.1, 0.5, 0.9].flatMap((q) =>
        clean.map((r) => (r.length === 0 ? NaN : quantileRef(r, q, method)))
      );
      assertNear(host(got), exp, 2e-6, `nanquantile ${method} axis ${axis}`);
    }
  }
  using allNan = ga.asarray([[NaN, NaN], [1, NaN]]);
  assertNear(host(ga.nanmedian(allNan, 1)), [NaN, 1], 0, "all-NaN row");
  assertNear(host(ga.nanpercentile(allNan, 50, 1)), [NaN, 1], 0, "nanpercentile");
  assert.ok(Number.isNaN(ga.median(ga.zeros([0]))));
  assert.ok(Number.isNaN(ga.nanquantile(ga.zeros([0]), 0.5) as number));
  assert.throws(() => ga.quantile(ga.zeros([0]), 0.5), RangeError);
  assert.throws(() => ga.quantile(x, 1.5), /\[0, 1\]/);
  assert.throws(() => ga.percentile(x, -1), /\[0, 100\]/);
  assert.throws(() => ga.quantile(x, 0.5, { method: "cubic" as ga.QuantileMethod }), TypeError);
  assert.throws(() => ga.median(x, 2), RangeError);
});

eachBackend("average() with weights, returned and keepdims matches the host reference", () => {
  const values = randomValues(12, 5), weights = randomValues(12, 6, 0, 0.5, 2);
  using a = ga.asarray(Float32Array.from(values)).reshape(3, 4);
  using w = ga.asarray(Float64Array.from(weights)).reshape(3, 4);
  const total = weights.reduce((p, v) => p + v, 0);
  const dot = values.reduce((p, v, i) => p + v * weights[i]!, 0);
  const [avg, scale] = ga.average(a, { weights: w, returned: true });
  assert.ok(near(avg as number, dot / total, 1e-12) && near(scale as number, total, 1e-12));
  using w1 = ga.asarray(Float32Array.from(weights.slice(0, 4)));
  const rows = ga.average(a, 1, { weights: w1 }) as ga.GPUArray;
  const want = [0, 1, 2].map((r) =>
    values.slice(4 * r, 4 * r + 4).reduce((p, v, i) => p + v * weights[i]!, 0) /
    weights.slice(0, 4).reduce((p, v) => p + v, 0)
  );
  assertNear(host(rows), want, 2e-6, "1-D weights along axis 1");
  assert.equal(ga.average(a) as number, ga.mean(a));
  const [m, c] = ga.average(ga.asarray([[1, 2], [3, 4]], "int32"), 0, { returned: true }) as ga.GPUArray[];
  assert.deepEqual([host(m!), host(c!), m!.dtype], [[2, 3], [2, 2], "float64"]);
  assert.deepEqual((ga.average(a, 0, { keepdims: true }) as ga.GPUArray).shape, [1, 4]);
  assert.throws(() => ga.average(a, 1, { weights: ga.zeros([4]) }), /sum to zero/);
  assert.throws(() => ga.average(a, { weights: w1 }), /need an axis/);
});

/** The bin of `x` among increasing `edges` (the last bin closed), or -1. */
function binRef(x: number, edges: readonly number[]): number {
  const n = edges.length - 1;
  if (!(x >= edges[0]! && x <= edges[n]!)) return -1;
  if (x === edges[n]) return n - 1;
  let i = 0;
  while (edges[i + 1]! <= x) i++;
  return i;
}

eachBackend("histogram() and histogram2d() bin views of every float dtype by NumPy's rule", () => {
  const values = randomValues(300, 7, 0, -3, 3), withNan = randomValues(300, 7, 6, -3, 3);
  for (const dtype of ["float32", "float64", "int32"] as const) {
    using base = ga.asarray([...values], dtype).reshape(20, 15);
    using x = base.T.slice([null, null, 2]); // strided and transposed
    const xv = rowsOf(values, [20, 15], 0).filter((_, i) => i % 2 === 0).flat().map((v) =>
      dtype === "int32" ? Math.trunc(v) : v
    );
    for (const bins of [1, 7, 64]) {
      const [h, e] = ga.histogram(x, bins);
      const edges = host(e);
      assert.equal(e.dtype, dtype === "float32" ? "float32" : "float64");
      const lo = Math.min(...xv), hi = Math.max(...xv);
      assertNear(
        edges,
        Array.from({ length: bins + 1 }, (_, i) => lo + ((hi - lo) * i) / bins),
        1e-6,
        "edges",
      );
      const want = new Array(bins).fill(0);
      for (const v of xv) want[binRef(v, edges)]++;
      assert.deepEqual(host(h), want, `${dtype} histogram of ${bins} bins`);
      h.free();
      e.free();
    }
    if (dtype === "int32") continue;
    using nb = ga.asarray([...withNan], dtype).reshape(20, 15);
    using y = nb.T;
    const yv = rowsOf(withNan, [20, 15], 0).flat();
    assert.throws(() => ga.histogram(y, 4), /not finite/);
    const edges = [-2, -0.5, 0, 0.25, 2.5];
    using w = ga.asarray(Float32Array.from(randomValues(yv.length, 8, 0, 0, 1))).reshape(y.shape);
    const wv = host(w);
    const [h, e] = ga.histogram(y, { bins: edges, weights: w });
    const want = [0, 0, 0, 0];
    yv.forEach((v, i) => {
      if (binRef(v, edges) >= 0) want[binRef(v, edges)] += wv[i]!;
    });
    assertNear(host(h), want, 1e-6, `${dtype} weighted histogram`);
    assert.deepEqual([h.dtype, host(e)], ["float32", edges]);
    const [d] = ga.histogram(y, { bins: 5, range: [-1, 1], density: true });
    const counts = new Array(5).fill(0);
    const re = Array.from({ length: 6 }, (_, i) => (i === 5 ? 1 : i * 0.4 - 1)).map((v) =>
      dtype === "float32" ? Math.fround(v) : v
    );
    for (const v of yv) if (binRef(v, re) >= 0) counts[binRef(v, re)]++;
    const n = counts.reduce((p, c) => p + c, 0);
    assertNear(host(d), counts.map((c, i) => c / (re[i + 1]! - re[i]!) / n), 1e-6, `${dtype} density`);
  }
  const xs = randomValues(200, 9, 0, 0, 1), ys = randomValues(200, 10, 0, -1, 1);
  using x = ga.asarray(Float64Array.from(xs)), y = ga.asarray(Float64Array.from(ys));
  const [h2, xe, ye] = ga.histogram2d(x, y, { bins: [4, 3], range: [[0, 1], [-1, 1]] });
  const want = new Array(12).fill(0);
  const xev = host(xe), yev = host(ye);
  xs.forEach((v, i) => {
    const a = binRef(v, xev), b = binRef(ys[i]!, yev);
    if (a >= 0 && b >= 0) want[a * 3 + b]++;
  });
  assert.deepEqual(h2.shape, [4, 3]);
  assert.deepEqual(host(h2), want);
  assertNear(xev, [0, 0.25, 0.5, 0.75, 1], 0, "x edges");
  const [hd] = ga.histogram2d(x, y, { bins: 2, density: true });
  const area = host(hd).reduce((p, v) => p + v, 0);
  assert.ok(area > 0);
  assert.throws(() => ga.histogram(x, 0), RangeError);
  assert.throws(() => ga.histogram(x, { range: [1, 0] }), /max must be larger/);
  assert.throws(() => ga.histogram(x, ga.asarray([0, 2, 1])), /increase monotonically/);
  assert.throws(() => ga.histogram2d(x, ga.zeros([3])), RangeError);
  assert.throws(() => ga.histogram(ga.asarray([true, false]), 2), TypeError);
  const [empty, ee] = ga.histogram(ga.zeros([0]), 4);
  assert.deepEqual([host(empty), host(ee)], [[0, 0, 0, 0], [0, 0.25, 0.5, 0.75, 1]]);
});

eachBackend(
  "histogram() and bincount() of 2^17 samples count the same in blocks' shared counters (up to 4096 bins) as past them",
  () => {
    const n = 2 ** 17 + 3, r = seeded(21);
    // Uneven edges (the uniform guess misses, the search finds), and samples on edges and outside them.
    for (const bins of [256, 5000]) {
      const edges = Array.from({ length: bins + 1 }, (_, i) => (i / bins) ** 2);
      const xs = Array.from(
        { length: n },
        (_, i) => (i % 97 === 0 ? edges[i % (bins + 1)]! : r() * 1.1 - 0.05),
      );
      using x = ga.asarray(Float64Array.from(xs)), e = ga.asarray(Float64Array.from(edges));
      const [h] = ga.histogram(x, { bins: e });
      const want = new Array(bins).fill(0);
      for (const v of xs) if (binRef(v, edges) >= 0) want[binRef(v, edges)]++;
      assert.deepEqual(host(h), want, `${bins} uneven bins`);
      h.free();
      const ks = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 3 : Math.floor(r() * bins)));
      using k = ga.asarray(Int32Array.from(ks));
      const counts = new Array(bins).fill(0);
      for (const v of ks) counts[v]++;
      assert.deepEqual(host(ga.bincount(k, { minlength: bins })), counts, `bincount into ${bins}`);
    }
  },
);

eachBackend("bincount() and digitize() match NumPy's counts and bin indices", () => {
  const r = seeded(11);
  const xs = Array.from({ length: 5000 }, () => Math.floor(r() * 40));
  for (const dtype of ["int32", "uint8", "int64"] as const) {
    using x = ga.asarray([...xs], dtype);
    const want = new Array(40).fill(0);
    for (const v of xs) want[v]++;
    assert.deepEqual(host(ga.bincount(x)), want, `${dtype} bincount`);
    const ws = randomValues(xs.length, 12, 0, 0, 1);
    using w = ga.asarray(Float32Array.from(ws));
    const sums = new Array(50).fill(0);
    xs.forEach((v, i) => (sums[v] += ws[i]!));
    const got = ga.bincount(x, { weights: w, minlength: 50 });
    assert.equal(got.dtype, "float64");
    assertNear(host(got), sums, 1e-9, `${dtype} weighted bincount`);
  }
  assert.deepEqual(host(ga.bincount(ga.zeros([0], "int32"), { minlength: 3 })), [0, 0, 0]);
  assert.throws(() => ga.bincount(ga.asarray([1, -1], "int32")), /negative/);
  assert.throws(() => ga.bincount(ga.asarray([1.5])), TypeError);
  assert.throws(() => ga.bincount(ga.zeros([2, 2], "int32")), RangeError);
  const xv = randomValues(100, 13, 3, -1, 12);
  using x = ga.asarray(Float32Array.from(xv)).reshape(10, 10).T;
  const tv = rowsOf(xv, [10, 10], 0).flat();
  const bins = [0, 1, 2.5, 4, 10];
  const count = (v: number, right: boolean, b: readonly number[]) =>
    b.filter((e) => (right ? e < v : e <= v)).length + (Number.isNaN(v) ? b.length : 0);
  for (const right of [false, true]) {
    using inc = ga.asarray(Float64Array.from(bins));
    assert.deepEqual(
      host(ga.digitize(x, inc, { right })),
      tv.map((v) => count(v, right, bins)),
      "increasing",
    );
    using dec = ga.asarray(Float64Array.from([...bins].reverse()));
    const want = tv.map((v) => bins.length - count(v, right, bins));
    assert.deepEqual(host(ga.digitize(x, dec, { right })), want, "decreasing");
  }
  assert.throws(() => ga.digitize(x, ga.asarray([0, 2, 1])), /monotonically/);
});

/** The covariance of the rows of `x` (float64), weighted, normalised by `fact`. */
function covRef(x: Num[][], w: Num[] | undefined, ddof: number, aw?: Num[]): Num[] {
  const n = x[0]!.length, wt = w ?? new Array(n).fill(1);
  const ws = wt.reduce((p, v) => p + v, 0);
  const mean = x.map((r) => r.reduce((p, v, i) => p + v * wt[i]!, 0) / ws);
  let fact = w === undefined
    ? n - ddof
    : ddof === 0
    ? ws
    : aw === undefined
    ? ws - ddof
    : ws - (ddof * wt.reduce((p, v, i) => p + v * aw[i]!, 0)) / ws;
  if (fact <= 0) fact = 0;
  return x.flatMap((a, i) =>
    x.map((b, j) => a.reduce((p, v, k) => p + (v - mean[i]!) * (b[k]! - mean[j]!) * wt[k]!, 0) / fact)
  );
}

eachBackend("cov() and corrcoef() of views, with weights, bias and ddof, match the float64 reference", () => {
  const values = randomValues(60, 14);
  using m = ga.asarray(Float32Array.from(values)).reshape(20, 3); // observations in rows
  const cols = [0, 1, 2].map((j) => values.filter((_, i) => i % 3 === j));
  assertNear(host(ga.cov(m, { rowvar: false })), covRef(cols, undefined, 1), 1e-9, "rowvar false");
  assertNear(host(ga.cov(m.T, { bias: true })), covRef(cols, undefined, 0), 1e-9, "bias");
  const f = Array.from({ length: 20 }, (_, i) => (i % 3) + 1), a = randomValues(20, 15, 0, 0.1, 2);
  using fw = ga.asarray(Int32Array.from(f)), aw = ga.asarray(Float64Array.from(a));
  const w = f.map((v, i) => v * a[i]!);
  assertNear(host(ga.cov(m.T, { fweights: fw, aweights: aw })), covRef(cols, w, 1, a), 1e-9, "weights");
  assertNear(host(ga.cov(m.T, { fweights: fw, ddof: 0 })), covRef(cols, f, 0), 1e-9, "fweights ddof 0");
  using x0 = m.T.slice(0), x1 = m.T.slice(1);
  const c = covRef([cols[0]!, cols[1]!], undefined, 1);
  assertNear(host(ga.cov(x0, x1)), c, 1e-9, "two variables");
  const one = ga.cov(x0);
  assert.deepEqual([one.shape, one.dtype], [[], "float64"]);
  const full = covRef(cols, undefined, 1);
  const r = full.map((v, k) => v / Math.sqrt(full[Math.floor(k / 3) * 4]! * full[(k % 3) * 4]!));
  assertNear(host(ga.corrcoef(m, { rowvar: false })), r, 1e-9, "corrcoef");
  assert.ok(Number.isNaN(host(ga.corrcoef(ga.ones([4])))[0]!));
  assert.throws(() => ga.cov(ga.zeros([2, 2, 2])), /more than 2 dimensions/);
  assert.throws(() => ga.cov(m.T, { aweights: ga.asarray([-1, ...a.slice(1)]) }), /negative/);
  assert.throws(() => ga.cov(m.T, { fweights: ga.asarray([0.5, ...f.slice(1)]) }), TypeError);
  assert.throws(() => ga.cov(m.T, { fweights: ga.ones([3], "int32") }), RangeError);
});

eachBackend("nanvar(), nanstd(), nanprod(), nancumsum() and nanargmin/max() skip NaN as NumPy does", () => {
  const values = randomValues(30, 21, 8);
  using x = ga.asarray(Float32Array.from(values)).reshape(5, 6);
  for (const axis of [0, 1]) {
    const rows = rowsOf(values, [5, 6], axis).map((r) => r.filter((v) => !Number.isNaN(v)));
    const varOf = (r: Num[], ddof: number) => {
      const m = r.reduce((p, v) => p + v, 0) / r.length;
      return r.length - ddof <= 0 ? NaN : r.reduce((p, v) => p + (v - m) ** 2, 0) / (r.length - ddof);
    };
    assertNear(host(ga.nanvar(x, axis)), rows.map((r) => varOf(r, 0)), 1e-5, `nanvar ${axis}`);
    assertNear(
      host(ga.nanstd(x, axis, { ddof: 1 })),
      rows.map((r) => Math.sqrt(varOf(r, 1))),
      1e-5,
      "nanstd",
    );
    assertNear(host(ga.nanprod(x, axis)), rows.map((r) => r.reduce((p, v) => p * v, 1)), 1e-5, "nanprod");
    const raw = rowsOf(values, [5, 6], axis);
    const argmax = raw.map((r) =>
      r.reduce((b, v, i) => (!Number.isNaN(v) && (b < 0 || v > r[b]!) ? i : b), -1)
    );
    const argmin = raw.map((r) =>
      r.reduce((b, v, i) => (!Number.isNaN(v) && (b < 0 || v < r[b]!) ? i : b), -1)
    );
    if (argmax.every((i) => i >= 0)) {
      assert.deepEqual(host(ga.nanargmax(x, axis)), argmax, `nanargmax ${axis}`);
      assert.deepEqual(host(ga.nanargmin(x, axis)), argmin, `nanargmin ${axis}`);
    }
  }
  let run = 0;
  assertNear(host(ga.nancumsum(x)), values.map((v) => (run += Number.isNaN(v) ? 0 : v)), 1e-5, "nancumsum");
  const clean = values.filter((v) => !Number.isNaN(v));
  assert.ok(
    near(
      ga.nanvar(x) as number,
      clean.reduce((p, v) => p + (v - clean.reduce((a, b) => a + b, 0) / clean.length) ** 2, 0) /
        clean.length,
      1e-5,
    ),
  );
  using ints = ga.asarray([[1, 2], [3, 4]], "int32");
  assert.deepEqual([ga.nanprod(ints), host(ga.nancumsum(ints, 1)), ga.nanargmax(ints)], [
    24n,
    [1, 3, 3, 7],
    3,
  ]);
  using allNan = ga.asarray([[NaN, NaN], [1, 2]]);
  assert.throws(() => ga.nanargmax(allNan, 1), /all NaN/);
  assert.throws(() => ga.nanargmin(ga.asarray([NaN])), /every element is NaN/);
  assertNear(host(ga.nanvar(allNan, 1, { ddof: 2 })), [NaN, NaN], 0, "too few numbers give NaN");
});

eachBackend(
  "histogram(), bincount() and digitize() take NumPy's positional arguments or the same options",
  () => {
    using x = ga.asarray([0.5, 1.5, 2.5, 9]);
    const [byPosition] = ga.histogram(x, 3, [0, 3]);
    const [byOptions] = ga.histogram(x, { bins: 3, range: [0, 3] });
    assert.deepEqual([host(byPosition), host(byOptions)], [[1, 1, 1], [1, 1, 1]]);
    const [dense] = ga.histogram(x, [0, 1, 3], { density: true });
    assertNear(host(dense), [1 / 3, 1 / 3], 1e-12, "edges by position, density in the options");
    const [h2] = ga.histogram2d(x, x, 2, [[0, 3], [0, 3]]);
    assert.deepEqual(host(h2), [1, 0, 0, 2]);
    using i = ga.asarray([0, 2, 2], "int32"), w = ga.asarray([1, 2, 3]);
    assert.deepEqual(host(ga.bincount(i, w, 4)), host(ga.bincount(i, { weights: w, minlength: 4 })));
    assert.deepEqual(host(ga.bincount(i, undefined, 4)), [1, 0, 2, 0]);
    using edges = ga.asarray([0, 1, 2]);
    assert.deepEqual(host(ga.digitize(ga.asarray([1, 2]), edges, true)), [1, 2]);
    assert.deepEqual(host(ga.digitize(ga.asarray([1, 2]), edges, { right: true })), [1, 2]);
    assert.throws(() => ga.histogram(x, 3, { bins: 4 } as ga.HistogramOptions), /give bins once/);
    assert.throws(() => ga.histogram(x, "auto" as unknown as number), TypeError);
    assert.throws(() => ga.bincount(i, { weight: w } as ga.BincountOptions), TypeError);
  },
);
