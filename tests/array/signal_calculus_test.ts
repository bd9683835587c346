/**
 * The signal and calculus routines (issue 33, item 2) — `correlate`, `convolve`, `interp`,
 * `trapezoid`, `gradient` — against float64 host references written here from NumPy's rules.
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertNear, host, near, type Num, randomValues, rowsOf } from "./_stats_host.ts";

/** Full correlation `c[k] = Σ a[k + j - (m - 1)] v[j]` and the part of `mode`. */
function correlateRef(a: readonly Num[], v: readonly Num[], mode: ga.ConvolveMode): Num[] {
  const n = a.length, m = v.length;
  const full = Array.from({ length: n + m - 1 }, (_, t) => {
    let s = 0;
    for (let j = 0; j < m; j++) {
      const i = t - (m - 1) + j;
      if (i >= 0 && i < n) s += a[i]! * v[j]!;
    }
    return s;
  });
  if (mode === "full") return full;
  if (mode === "valid") return full.slice(Math.min(n, m) - 1, Math.max(n, m));
  const start = n >= m ? Math.floor((m - 1) / 2) : Math.floor(n / 2);
  return full.slice(start, start + Math.max(n, m));
}

eachBackend(
  "correlate() and convolve() in every mode match the host sums, for float and integer views",
  () => {
    for (const [n, m] of [[1, 1], [7, 3], [4, 4], [3, 8], [50, 6]]) {
      const av = randomValues(n * 2, 16 + n).slice(0, 2 * n), vv = randomValues(m, 17 + m);
      using base = ga.asarray(Float32Array.from(av));
      using a = base.slice([null, null, 2]);
      const as = av.filter((_, i) => i % 2 === 0);
      using v = ga.asarray(Float32Array.from(vv));
      using ai = a.astype("int32"), vi = ga.asarray(Int16Array.from(vv.map((x) => Math.round(x * 3))));
      for (const mode of ["full", "same", "valid"] as const) {
        assertNear(
          host(ga.correlate(a, v, mode)),
          correlateRef(as, vv, mode),
          1e-5,
          `correlate ${n} ${m} ${mode}`,
        );
        const [x, y] = m > n ? [vv, as] : [as, vv];
        assertNear(
          host(ga.convolve(a, v, mode)),
          correlateRef(x, [...y].reverse(), mode),
          1e-5,
          `convolve ${mode}`,
        );
        const ints = ga.correlate(ai, vi, mode);
        assert.equal(ints.dtype, "int32");
        assert.deepEqual(host(ints), correlateRef(as.map(Math.trunc), host(vi), mode), `int ${mode}`);
      }
    }
    assert.deepEqual(host(ga.correlate(ga.asarray([1, 2, 3]), ga.asarray([0, 1, 0.5]))), [3.5]);
    assert.throws(() => ga.convolve(ga.zeros([0]), ga.ones([2])), /non-empty 1-D/);
    assert.throws(() => ga.correlate(ga.ones([2, 2]), ga.ones([2])), RangeError);
    assert.throws(() => ga.correlate(ga.ones([2]), ga.ones([2]), "wide" as ga.ConvolveMode), TypeError);
  },
);

/** NumPy's interp at `x` in float64. */
function interpRef(x: number, xp: readonly Num[], fp: readonly Num[], left?: number, right?: number): number {
  const n = xp.length;
  if (Number.isNaN(x)) return x;
  if (x < xp[0]!) return left ?? fp[0]!;
  if (x > xp[n - 1]!) return right ?? fp[n - 1]!;
  if (x === xp[n - 1]) return fp[n - 1]!;
  let j = 0;
  while (xp[j + 1]! <= x) j++;
  if (xp[j] === x) return fp[j]!;
  return ((fp[j + 1]! - fp[j]!) / (xp[j + 1]! - xp[j]!)) * (x - xp[j]!) + fp[j]!;
}

eachBackend("interp() matches NumPy's piecewise-linear rule, with left, right and period", () => {
  const xp = [-3, -1, -0.5, 0, 2, 2.5, 4], fp = randomValues(7, 18);
  const xs = [...randomValues(39, 19, 3, -5, 6), ...xp, -3.5, 4.5];
  using x = ga.asarray(Float32Array.from(xs)).reshape(6, 8).T;
  const xv = rowsOf(xs, [6, 8], 0).flat();
  using xpa = ga.asarray(Float64Array.from(xp)), fpa = ga.asarray(Float32Array.from(fp));
  const got = ga.interp(x, xpa, fpa);
  assert.deepEqual([got.shape, got.dtype], [[8, 6], "float64"]);
  assertNear(host(got), xv.map((v) => interpRef(v, xp, fp)), 1e-12, "interp");
  assertNear(
    host(ga.interp(x, xpa, fpa, { left: -9, right: 9 })),
    xv.map((v) => interpRef(v, xp, fp, -9, 9)),
    1e-12,
    "edges",
  );
  const px = [350, 10, -10, 725, 180], pxp = [0, 90, 180, 270], pfp = [1, 2, 3, 4];
  const periodic = px.map((v) => interpRef(((v % 360) + 360) % 360, [-90, ...pxp, 360], [4, ...pfp, 1]));
  assertNear(
    host(ga.interp(ga.asarray(px), ga.asarray(pxp), ga.asarray(pfp), { period: 360 })),
    periodic,
    1e-9,
    "period",
  );
  assert.throws(() => ga.interp(x, xpa, ga.ones([3])), RangeError);
  assert.throws(() => ga.interp(x, xpa, fpa, { period: 0 }), RangeError);
});

eachBackend("trapezoid() and gradient() match the host differences on uniform and given coordinates", () => {
  const ys = randomValues(24, 20);
  using y = ga.asarray(Float64Array.from(ys)).reshape(4, 6);
  const rows = rowsOf(ys, [4, 6], 1), cols = rowsOf(ys, [4, 6], 0);
  const trap = (r: Num[], x?: Num[], dx = 1) =>
    r.slice(1).reduce((p, v, i) => p + ((x ? x[i + 1]! - x[i]! : dx) * (v + r[i]!)) / 2, 0);
  assertNear(host(ga.trapezoid(y) as ga.GPUArray), rows.map((r) => trap(r)), 1e-12, "rows");
  assertNear(
    host(ga.trapezoid(y, { axis: 0, dx: 0.5 }) as ga.GPUArray),
    cols.map((r) => trap(r, undefined, 0.5)),
    1e-12,
    "dx",
  );
  const xs = [0, 0.5, 1.5, 1.75, 3, 4];
  using x = ga.asarray(Float64Array.from(xs));
  assertNear(host(ga.trapezoid(y, x) as ga.GPUArray), rows.map((r) => trap(r, xs)), 1e-12, "coordinates");
  assert.ok(near(ga.trapezoid(y.slice(0)) as number, trap(rows[0]!), 1e-12));
  assert.equal(ga.trapezoid(ga.zeros([0])), 0);
  const grad = (r: Num[], h: Num[] | number, order: 1 | 2) => {
    const n = r.length, step = (i: number) => (typeof h === "number" ? h : h[i + 1]! - h[i]!);
    return r.map((_, i) => {
      if (i === 0 && order === 1) return (r[1]! - r[0]!) / step(0);
      if (i === n - 1 && order === 1) return (r[n - 1]! - r[n - 2]!) / step(n - 2);
      if (i === 0 || i === n - 1) {
        const [p, q] = i === 0 ? [step(0), step(1)] : [step(n - 3), step(n - 2)];
        const [f0, f1, f2] = i === 0 ? [r[0]!, r[1]!, r[2]!] : [r[n - 3]!, r[n - 2]!, r[n - 1]!];
        return i === 0
          ? -(2 * p + q) / (p * (p + q)) * f0 + ((p + q) / (p * q)) * f1 - (p / (q * (p + q))) * f2
          : (q / (p * (p + q))) * f0 - ((q + p) / (p * q)) * f1 + ((2 * q + p) / (q * (p + q))) * f2;
      }
      const p = step(i - 1), q = step(i);
      return (-q / (p * (p + q))) * r[i - 1]! + ((q - p) / (p * q)) * r[i]! + (p / (q * (p + q))) * r[i + 1]!;
    });
  };
  for (const order of [1, 2] as const) {
    const [g0, g1] = ga.gradient(y, 2, { edgeOrder: order }) as ga.GPUArray[];
    assertNear(host(g1!), rows.flatMap((r) => grad(r, 2, order)), 1e-12, `axis 1 order ${order}`);
    const byCol = cols.map((c) => grad(c, 2, order));
    assertNear(
      host(g0!),
      [0, 1, 2, 3].flatMap((i) => byCol.map((c) => c[i]!)),
      1e-12,
      `axis 0 order ${order}`,
    );
    const gx = ga.gradient(y, x, { axis: 1, edgeOrder: order }) as ga.GPUArray;
    assertNear(host(gx), rows.flatMap((r) => grad(r, xs, order)), 1e-10, `coordinates order ${order}`);
  }
  const gi = ga.gradient(ga.asarray([1, 4, 9, 16], "int32")) as ga.GPUArray;
  assert.deepEqual([gi.dtype, host(gi)], ["float64", [3, 4, 6, 7]]);
  assert.throws(() => ga.gradient(ga.ones([2]), { edgeOrder: 2 }), /at least 3/);
  assert.throws(() => ga.gradient(y, 1, 2, 3), RangeError);
  assert.throws(() => ga.gradient(y, ga.ones([5]), { axis: 1 }), /length 6/);
});

eachBackend(
  "correlate(), interp() and trapezoid() take NumPy's positional arguments or the same options",
  () => {
    using a = ga.asarray([1, 2, 3]), v = ga.asarray([0, 1, 0.5]);
    assert.deepEqual(host(ga.correlate(a, v, { mode: "full" })), host(ga.correlate(a, v, "full")));
    assert.deepEqual(host(ga.convolve(a, v, { mode: "same" })), [1, 2.5, 4]);
    using xp = ga.asarray([1, 2, 3]), fp = ga.asarray([3, 2, 0]), x = ga.asarray([0, 4]);
    assert.deepEqual(host(ga.interp(x, xp, fp, -1, 9)), [-1, 9]);
    assert.deepEqual(host(ga.interp(x, xp, fp, undefined, { right: 9 })), [3, 9]);
    using y = ga.asarray([[1, 2, 3], [4, 5, 6]]);
    assert.deepEqual(host(ga.trapezoid(y, undefined, 2, 0) as ga.GPUArray), [5, 7, 9]);
    assert.deepEqual(host(ga.trapezoid(y, { dx: 2, axis: 0 }) as ga.GPUArray), [5, 7, 9]);
    assert.deepEqual(host(ga.trapezoid(y, xp, { axis: 1 }) as ga.GPUArray), [4, 10]);
    assert.throws(() => ga.trapezoid(y, undefined, 2, { dx: 1 }), /give dx once/);
    assert.throws(() => ga.interp(x, xp, fp, "left" as unknown as number), TypeError);
  },
);
