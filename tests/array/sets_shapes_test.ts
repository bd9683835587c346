/**
 * Comparisons, sets and shapes (issue 33, item 4) against host references written here from NumPy's
 * documented rules, on random data, views and dtypes, with NaN and empty cases and their errors.
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { indicesOf, randomInts, seeded } from "./_host.ts";

function host(a: ga.GPUArray): number[] {
  return Array.from(a.get() as ArrayLike<number | bigint>, Number);
}

const sorted = (xs: Iterable<number>) =>
  [...xs].sort((a, b) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b));

/** The C-order elements of the view of C-order `values` (of `shape`) given by `pick(index)`. */
function view(
  values: readonly number[],
  shape: readonly number[],
  outShape: readonly number[],
  pick: (i: number[]) => number[],
): number[] {
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((p, e) => p * e, 1));
  return [...indicesOf(outShape)].map((i) => values[pick(i).reduce((p, v, d) => p + v * strides[d]!, 0)]!);
}

eachBackend("arrayEqual() compares shapes and values, NaN only with equalNan", () => {
  using a = ga.asarray([[1, 2], [3, NaN]]), b = ga.asarray([[1, 2], [3, NaN]], "float64");
  assert.equal(ga.arrayEqual(a, b), false);
  assert.equal(ga.arrayEqual(a, b, { equalNan: true }), true);
  using c = ga.asarray([[1, 3], [2, 4]], "int32"), d = ga.asarray([[1, 2], [3, 4]], "int8");
  assert.equal(ga.arrayEqual(c.T, d), true);
  assert.equal(ga.arrayEqual(c, d), false);
  assert.equal(ga.arrayEqual(d, d.reshape(4)), false);
  assert.equal(ga.arrayEqual(ga.zeros([0]), ga.zeros([0], "int32")), true);
  assert.equal(ga.arrayEqual(ga.asarray([-0]), ga.asarray([0])), true);
  assert.throws(() => ga.arrayEqual(a, b, { nan: true } as ga.ArrayEqualOptions), TypeError);
});

eachBackend(
  "isin() finds elements of any layout in test elements of another dtype; NaN is never found",
  () => {
    const xs = randomInts(60, 1, -10, 10), ts = randomInts(25, 2, -12, 12);
    using base = ga.asarray(xs, "int32").reshape(6, 10);
    using x = base.T.slice([null, null, 3]); // [4, 6], strided and transposed
    const xv = view(xs, [6, 10], [4, 6], ([i, j]) => [j!, 3 * i!]);
    using t = ga.asarray(ts, "float64");
    const set = new Set(ts);
    assert.deepEqual(host(ga.isin(x, t)), xv.map((v) => Number(set.has(v))));
    assert.deepEqual(host(ga.isin(x, t, { invert: true })), xv.map((v) => Number(!set.has(v))));
    assert.deepEqual(ga.isin(x, t).shape, [4, 6]);
    using f = ga.asarray([NaN, 0.5, -0, 2]), g = ga.asarray([NaN, 0, 0.5]);
    assert.deepEqual(host(ga.isin(f, g)), [0, 1, 1, 0]);
    assert.deepEqual(host(ga.isin(f, ga.zeros([0]))), [0, 0, 0, 0]);
    assert.deepEqual(ga.isin(ga.zeros([0]), g).shape, [0]);
  },
);

eachBackend("intersect1d(), union1d(), setdiff1d(), setxor1d() and unique()'s index match host sets", () => {
  for (const seed of [3, 4]) {
    const as = randomInts(80, seed, 0, 30), bs = randomInts(50, seed + 10, 10, 45);
    using a = ga.asarray(as, "int32").reshape(8, 10), b = ga.asarray(bs, "int64");
    using at = a.T;
    const av = view(as, [8, 10], [10, 8], ([i, j]) => [j!, i!]);
    const A = new Set(av), B = new Set(bs);
    assert.deepEqual(host(ga.intersect1d(at, b)), sorted([...A].filter((v) => B.has(v))));
    assert.deepEqual(host(ga.union1d(at, b)), sorted(new Set([...A, ...B])));
    assert.deepEqual(host(ga.setdiff1d(at, b)), sorted([...A].filter((v) => !B.has(v))));
    assert.deepEqual(host(ga.setxor1d(at, b)), sorted([...A, ...B].filter((v) => A.has(v) !== B.has(v))));
    const [v, i1, i2] = ga.intersect1d(at, b, { returnIndices: true });
    const common = host(v);
    assert.deepEqual(host(i1), common.map((c) => av.indexOf(c)));
    assert.deepEqual(host(i2), common.map((c) => bs.indexOf(c)));
    const u = ga.unique(at, { returnIndex: true, returnCounts: true });
    const values = sorted(A);
    assert.deepEqual(host(u.values), values);
    assert.deepEqual(host(u.index!), values.map((c) => av.indexOf(c)));
    assert.deepEqual(host(u.counts!), values.map((c) => av.filter((x) => x === c).length));
  }
  using f = ga.asarray([NaN, 1, 2, NaN, -0]), g = ga.asarray([NaN, 0, 2]);
  assert.deepEqual(host(ga.intersect1d(f, g)), [-0, 2]); // the first of the equal zeros, as NumPy
  const x = host(ga.setxor1d(f, g));
  assert.deepEqual(x.slice(0, 1), [1]);
  assert.ok(x.length === 3 && x.slice(1).every(Number.isNaN), "NumPy keeps both NaNs");
  assert.deepEqual(host(ga.setdiff1d(ga.asarray([3, 1, 3]), ga.asarray([1]), { assumeUnique: true })), [
    3,
    3,
  ]);
  assert.deepEqual(host(ga.union1d(ga.zeros([0]), ga.zeros([0]))), []);
  assert.deepEqual(host(ga.setxor1d(ga.zeros([0]), ga.zeros([0]))), []);
  assert.throws(() => ga.intersect1d(f, g, { indices: true } as ga.Intersect1dOptions), TypeError);
});

eachBackend(
  "partition() and argpartition() place the kth element with no larger before, no smaller after",
  () => {
    const xs = randomInts(48, 5, -20, 20).map((v) => v / 4);
    using x = ga.asarray(xs).reshape(6, 8);
    for (const [axis, kth] of [[-1, 3], [0, [0, 5]], [null, 47]] as const) {
      const p = ga.partition(x, kth, axis), i = ga.argpartition(x, kth, axis);
      const shape = axis === null ? [48] : [6, 8];
      const ax = axis === null ? 0 : (axis + 2) % 2;
      const rows = (vals: number[]) => {
        const out: number[][] = [];
        for (const idx of indicesOf(shape)) {
          if (idx[ax] !== 0) continue;
          out.push(Array.from({ length: shape[ax]! }, (_, k) => {
            const at = [...idx];
            at[ax] = k;
            return vals[at.reduce((s, v, d) => s * shape[d]! + v, 0)]!;
          }));
        }
        return out;
      };
      const pr = rows(host(p)), ir = rows(host(i));
      const orig = axis === null ? [xs] : rows(xs);
      pr.forEach((r, n) => {
        const s = sorted(orig[n]!);
        for (const k of typeof kth === "number" ? [kth] : kth) {
          assert.equal(r[k], s[k], `partition row ${n} kth ${k}`);
          assert.ok(r.slice(0, k).every((v) => v <= r[k]!) && r.slice(k + 1).every((v) => v >= r[k]!));
        }
        assert.deepEqual(ir[n]!.map((j) => orig[n]![j]), r, "argpartition gathers the partition");
      });
    }
    assert.throws(() => ga.partition(x, 8), /kth 8/);
    assert.throws(() => ga.argpartition(x, -7, 0), /kth -7/);
  },
);

eachBackend("roll(), rot90(), fliplr() and flipud() match index arithmetic on views", () => {
  const xs = randomInts(60, 6, -50, 50);
  using base = ga.asarray(xs, "int32").reshape(3, 4, 5);
  using x = base.slice([], [null, null, -1]); // [3, 4, 5], reversed along axis 1
  const at = (i: number, j: number, k: number) => xs[i * 20 + (3 - j) * 5 + k]!;
  const xv = [...indicesOf([3, 4, 5])].map(([i, j, k]) => at(i!, j!, k!));
  const mod = (a: number, n: number) => ((a % n) + n) % n;
  assert.deepEqual(host(ga.roll(x, 7)), xv.map((_, f) => xv[mod(f - 7, 60)]!));
  assert.deepEqual(
    host(ga.roll(x, -2, 1)),
    [...indicesOf([3, 4, 5])].map(([i, j, k]) => at(i!, mod(j! + 2, 4), k!)),
  );
  const r2 = ga.roll(x, [1, 3, 9], [0, 2, 2]);
  assert.deepEqual(
    host(r2),
    [...indicesOf([3, 4, 5])].map(([i, j, k]) => at(mod(i! - 1, 3), j!, mod(k! - 12, 5))),
  );
  assert.deepEqual(host(ga.roll(ga.zeros([0, 2]), 3, 0)), []);
  assert.throws(() => ga.roll(x, [1, 2], [0, 1, 2]), RangeError);
  assert.throws(() => ga.roll(x, 1, 3), RangeError);
  using m = ga.asarray(xs.slice(0, 12), "int32").reshape(3, 4);
  const mv = (i: number, j: number) => xs[i * 4 + j]!;
  const rot = (k: number) => {
    const t = ((k % 4) + 4) % 4, shape = t % 2 === 0 ? [3, 4] : [4, 3];
    return [...indicesOf(shape)].map(([i, j]) =>
      t === 0 ? mv(i!, j!) : t === 1 ? mv(j!, 3 - i!) : t === 2 ? mv(2 - i!, 3 - j!) : mv(2 - j!, i!)
    );
  };
  for (const k of [-1, 0, 1, 2, 3, 5]) assert.deepEqual(host(ga.rot90(m, k)), rot(k), `rot90 k=${k}`);
  assert.deepEqual(host(ga.rot90(m, 1, [1, 0])), rot(-1));
  const r = ga.rot90(base, 1, [0, 2]);
  assert.deepEqual(r.shape, [5, 4, 3]);
  assert.equal(r.item(0, 1, 2), xs[2 * 20 + 5 + 4]);
  assert.deepEqual(host(ga.fliplr(m)), [...indicesOf([3, 4])].map(([i, j]) => mv(i!, 3 - j!)));
  assert.deepEqual(host(ga.flipud(m)), [...indicesOf([3, 4])].map(([i, j]) => mv(2 - i!, j!)));
  assert.throws(() => ga.fliplr(ga.ones([3])), /2 dimensions/);
  assert.throws(() => ga.flipud(ga.asarray(1)), RangeError);
  assert.throws(() => ga.rot90(m, 1, [0, 0]), /must differ/);
});

eachBackend("cross() and kron() match the host products, broadcasting and across axes", () => {
  const r = seeded(7);
  const vals = (n: number) => Array.from({ length: n }, () => Math.round(r() * 20 - 10));
  const crossRef = (a: number[], b: number[]) => {
    const [a0, a1, a2 = 0] = a, [b0, b1, b2 = 0] = b;
    return [a1! * b2 - a2 * b1!, a2 * b0! - a0! * b2, a0! * b1! - a1! * b0!];
  };
  const av = vals(12), bv = vals(3);
  using a = ga.asarray(av).reshape(4, 3), b = ga.asarray(bv, "int32");
  const rows = [0, 1, 2, 3].map((i) => av.slice(3 * i, 3 * i + 3));
  assert.deepEqual(host(ga.cross(a, b)), rows.flatMap((x) => crossRef(x, bv)));
  assert.deepEqual(host(ga.cross(a.T, b, { axisa: 0 })), rows.flatMap((x) => crossRef(x, bv)));
  const c0 = ga.cross(a.T, b, { axisa: 0, axisc: 0 });
  assert.deepEqual(c0.shape, [3, 4]);
  const tr = rows.map((x) => crossRef(x, bv));
  assert.deepEqual(host(c0), [0, 1, 2].flatMap((k) => tr.map((t) => t[k]!)));
  using a2 = a.slice([], [0, 2]);
  assert.deepEqual(host(ga.cross(a2, b)), rows.flatMap((x) => crossRef(x.slice(0, 2), bv)));
  assert.deepEqual(host(ga.cross(b, a2)), rows.flatMap((x) => crossRef(bv, x.slice(0, 2))));
  const z = ga.cross(a2, a2.flip(0));
  assert.deepEqual(host(z), rows.map((x, i) => crossRef(x.slice(0, 2), rows[3 - i]!.slice(0, 2))[2]!));
  assert.throws(() => ga.cross(ga.ones([4]), ga.ones([3])), /2 or 3/);
  const kv = vals(6), lv = vals(4);
  using k = ga.asarray(kv, "int32").reshape(2, 3), l = ga.asarray(lv, "int32").reshape(2, 2);
  const kr = ga.kron(k, l);
  assert.deepEqual(kr.shape, [4, 6]);
  assert.deepEqual(
    host(kr),
    [...indicesOf([4, 6])].map(([i, j]) =>
      kv[Math.floor(i! / 2) * 3 + Math.floor(j! / 2)]! * lv[(i! % 2) * 2 + (j! % 2)]!
    ),
  );
  const k1 = ga.kron(ga.asarray([1, 10]), l.T);
  assert.deepEqual(k1.shape, [2, 4]);
  assert.deepEqual(
    host(k1),
    [...indicesOf([2, 4])].map(([i, j]) => [1, 10][Math.floor(j! / 2)]! * lv[(j! % 2) * 2 + i!]!),
  );
  assert.deepEqual(host(ga.kron(ga.asarray(3), l)), lv.map((v) => 3 * v));
});

eachBackend("indices(), triuIndices() and trilIndices() list NumPy's positions", () => {
  const g = ga.indices([2, 3, 4]);
  assert.deepEqual([g.shape, g.dtype], [[3, 2, 3, 4], "int64"]);
  const pos = [...indicesOf([2, 3, 4])];
  assert.deepEqual(host(g), [0, 1, 2].flatMap((d) => pos.map((p) => p[d]!)));
  const [r, c] = ga.indices([2, 3], { sparse: true, dtype: "int32" });
  assert.deepEqual([r!.shape, c!.shape, host(r!), host(c!), r!.dtype], [
    [2, 1],
    [1, 3],
    [0, 1],
    [0, 1, 2],
    "int32",
  ]);
  for (
    const [n, k, m] of [[4, 0, undefined], [4, 1, 6], [5, -2, 3], [3, 5, undefined], [
      0,
      0,
      undefined,
    ]] as const
  ) {
    const cols = m ?? n;
    const up = [...indicesOf([n, cols])].filter(([i, j]) => j! - i! >= k);
    const low = [...indicesOf([n, cols])].filter(([i, j]) => j! - i! <= k);
    const [ur, uc] = ga.triuIndices(n, k, m), [lr, lc] = ga.trilIndices(n, k, m);
    assert.deepEqual(
      [host(ur), host(uc)],
      [up.map((p) => p[0]!), up.map((p) => p[1]!)],
      `triu ${n} ${k} ${m}`,
    );
    assert.deepEqual(
      [host(lr), host(lc)],
      [low.map((p) => p[0]!), low.map((p) => p[1]!)],
      `tril ${n} ${k} ${m}`,
    );
  }
  assert.throws(() => ga.indices([2, -1]), RangeError);
  assert.throws(() => ga.triuIndices(3, 0.5), TypeError);
});

eachBackend(
  "roll(), rot90(), cross(), indices(), the triangles and partition() take positions or options",
  () => {
    using m = ga.asarray([[1, 2, 3], [4, 5, 6]], "int32");
    assert.deepEqual(host(ga.roll(m, 1, { axis: 1 })), host(ga.roll(m, 1, 1)));
    assert.deepEqual(host(ga.rot90(m, { k: 2 })), host(ga.rot90(m, 2)));
    assert.deepEqual(host(ga.rot90(m, undefined, [1, 0])), host(ga.rot90(m, { axes: [1, 0] })));
    using a = ga.asarray([[1, 0], [0, 1], [0, 0]]), b = ga.asarray([[0, 0], [1, 0], [0, 1]]);
    assert.deepEqual(host(ga.cross(a, b, 0, 0, 0)), host(ga.cross(a, b, { axis: 0 })));
    assert.deepEqual(host(ga.cross(a, b, { axis: 0 })), [0, 1, 0, 0, 1, 0]);
    assert.equal(ga.indices([2, 2], "int16").dtype, "int16");
    assert.deepEqual(host(ga.triuIndices(3, { k: 1, m: 4 })[1]), host(ga.triuIndices(3, 1, 4)[1]));
    assert.deepEqual(host(ga.trilIndices(2, 0, { m: 3 })[1]), [0, 0, 1]);
    using x = ga.asarray([[3, 1], [2, 4]]);
    assert.deepEqual(host(ga.partition(x, 0, { axis: 0 })), [2, 1, 3, 4]);
    assert.deepEqual(host(ga.argpartition(x, 1, null)), [1, 2, 0, 3]);
    assert.throws(() => ga.roll(m, 1, "1" as unknown as number), TypeError);
    assert.throws(() => ga.rot90(m, 1, { k: 2 }), /give k once/);
  },
);

eachBackend(
  "a.argpartition() is argpartition(a); a.partition() partitions in place as NumPy's method",
  () => {
    using x = ga.asarray([[3, 1, 2], [9, 7, 8]]);
    assert.deepEqual(host(x.argpartition(1)), host(ga.argpartition(x, 1)));
    assert.deepEqual(host(x.argpartition(0, { axis: 0 })), [0, 0, 0, 1, 1, 1]);
    assert.equal(x.partition(1), undefined);
    assert.deepEqual(host(x), [1, 2, 3, 7, 8, 9]);
    x.partition([0], 0);
    assert.deepEqual(host(x), [1, 2, 3, 7, 8, 9]);
    assert.throws(() => x.partition(3), /kth 3/);
    assert.throws(() => x.partition(0, null as unknown as number), /axis null/);
  },
);
