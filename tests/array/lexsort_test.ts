import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

/** A small seeded generator of integers in [0, n). */
function ints(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % n);
}

/** lexsort on the host: the last key first, ties in index order. */
function lexsortHost(keys: number[][]): number[] {
  const idx = keys[0]!.map((_, i) => i);
  return idx.sort((i, j) => {
    for (let k = keys.length - 1; k >= 0; k--) {
      if (keys[k]![i] !== keys[k]![j]) return keys[k]![i]! - keys[k]![j]!;
    }
    return i - j;
  });
}

eachBackend("lexsort() orders by the last key, then the earlier ones, stable, as the host reference", () => {
  const next = ints(3);
  for (const [k, n] of [[1, 50], [2, 200], [3, 1000]] as const) {
    const keys = Array.from({ length: k }, () => Array.from({ length: n }, () => next(5)));
    const want = lexsortHost(keys);
    assert.deepEqual(Array.from(ga.lexsort(keys.map((key) => ga.asarray(key, "int32"))).get(), Number), want);
    assert.deepEqual(Array.from(ga.lexsort(ga.asarray(keys)).get(), Number), want, "a 2-D array of keys");
  }
  assert.throws(() => ga.lexsort([]), { name: "TypeError", message: /no keys/ });
  assert.throws(() => ga.lexsort([ga.zeros([3]), ga.zeros([4])]), {
    name: "RangeError",
    message: /key 1 of shape \[4\]/,
  });
});

eachBackend(
  "unique(a, { axis }) gives the distinct slices in order, with counts, inverse and index, as NumPy",
  () => {
    const next = ints(5);
    // 3-D, along each axis, the array a transposed view: slices repeat since their values are few.
    const data = Array.from(
      { length: 6 },
      () => Array.from({ length: 4 }, () => Array.from({ length: 2 }, () => next(2))),
    );
    const base = ga.asarray(data, "int32").transpose(1, 0, 2); // [4, 6, 2]
    const host = (i: number, j: number, l: number) => data[j]![i]![l]!;
    for (const axis of [0, 1, 2, -1]) {
      const ax = (axis + 3) % 3, shape = [4, 6, 2];
      const n = shape[ax]!;
      // Each slice along `ax` as a flat list in C order of the other axes.
      const sliceOf = (s: number) => {
        const out: number[] = [];
        for (let i = 0; i < 4; i++) {
          for (let j = 0; j < 6; j++) {
            for (let l = 0; l < 2; l++) if ([i, j, l][ax] === s) out.push(host(i, j, l));
          }
        }
        return out;
      };
      const slices = Array.from({ length: n }, (_, s) => sliceOf(s));
      const key = (s: number[]) => s.join(",");
      const distinct = [...new Map(slices.map((s) => [key(s), s])).values()].sort((p, q) => {
        for (let i = 0; i < p.length; i++) if (p[i] !== q[i]) return p[i]! - q[i]!;
        return 0;
      });
      const r = ga.unique(base, { axis, returnCounts: true, returnInverse: true, returnIndex: true });
      const got = Array.from({ length: distinct.length }, (_, s) => {
        const v = ga.take(r.values, [s], ax);
        return Array.from(v.get() as Int32Array);
      });
      assert.deepEqual(got, distinct, `axis ${axis}: the values`);
      assert.deepEqual(r.values.shape[ax], distinct.length);
      const keys = distinct.map(key);
      assert.deepEqual(
        Array.from(r.counts!.get(), Number),
        keys.map((k) => slices.filter((s) => key(s) === k).length),
      );
      assert.deepEqual(Array.from(r.inverse!.get(), Number), slices.map((s) => keys.indexOf(key(s))));
      assert.deepEqual(
        Array.from(r.index!.get(), Number),
        keys.map((k) => slices.findIndex((s) => key(s) === k)),
      );
    }
  },
);

eachBackend(
  "unique(a, { axis }) takes -0.0 and +0.0 as one, keeps each NaN slice, and names a bad axis",
  () => {
    const r = ga.unique(ga.asarray([[0, 1], [-0, 1], [NaN, 1], [NaN, 1]]), { axis: 0, returnCounts: true });
    const v = r.values.get() as Float32Array;
    assert.equal(r.values.shape[0], 3);
    assert.deepEqual([Math.abs(v[0]!), v[1], v[3]], [0, 1, 1]);
    assert.ok(Number.isNaN(v[2]!) && Number.isNaN(v[4]!));
    assert.deepEqual(Array.from(r.counts!.get(), Number), [2, 1, 1]);
    assert.deepEqual(ga.unique(ga.zeros([0, 3]), { axis: 0 }).values.shape, [0, 3]);
    assert.throws(() => ga.unique(ga.zeros([2, 2]), { axis: 2 }), {
      name: "RangeError",
      message: /along axis 2 of an array of shape \[2, 2\]: use -2 to 1/,
    });
  },
);
