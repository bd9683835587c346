import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import {
  argsortRef,
  compare,
  decode,
  dtypesHere,
  type Elem,
  hostOf,
  LONG,
  makeHost,
  rowsOf,
  same,
  toDevice,
  uniqueRef,
} from "./_sort_data.ts";

function assertSame(what: string, got: readonly Elem[], expected: readonly Elem[]): void {
  assert.equal(got.length, expected.length, `${what}: ${got.length} elements, expected ${expected.length}`);
  got.forEach((v, i) => {
    if (!same(v, expected[i]!)) assert.fail(`${what}: position ${i}: ${v}, expected ${expected[i]}`);
  });
}

eachBackend("unique() of every dtype gives NumPy's sorted values, counts and inverse", () => {
  for (const dtype of dtypesHere()) {
    for (const n of LONG ? [0, 1, 7, 5000, 70000, 2 ** 20] : [0, 1, 7, 5000, 20000]) {
      const host = makeHost(dtype, n, n + 1, "special");
      const xs = decode(dtype, host);
      const ref = uniqueRef(xs);
      using x = toDevice(dtype, host);
      using plain = ga.unique(x);
      assertSame(`${dtype}[${n}] unique`, hostOf(plain), ref.values);
      const { values, counts, inverse } = ga.unique(x, { returnCounts: true, returnInverse: true });
      assertSame(`${dtype}[${n}] values`, hostOf(values), ref.values);
      assert.deepEqual(Array.from(counts!.get(), Number), ref.counts, `${dtype}[${n}] counts`);
      assert.deepEqual(Array.from(inverse!.get(), Number), ref.inverse, `${dtype}[${n}] inverse`);
      for (const r of [values, counts!, inverse!]) r.free();
    }
  }
});

eachBackend("unique() counts -0.0 and +0.0 as one value and all NaNs as one, last", () => {
  using x = ga.toGpu(Float32Array.of(NaN, -0, 2, 0, NaN, -0, 2));
  const { values, counts, inverse } = ga.unique(x, { returnCounts: true, returnInverse: true });
  assertSame("values", Array.from(values.get()), [-0, 2, NaN]);
  assert.deepEqual(Array.from(counts!.get(), Number), [3, 2, 2]);
  assert.deepEqual(Array.from(inverse!.get(), Number), [2, 0, 1, 0, 2, 0, 1]);
});

eachBackend(
  "unique() flattens any layout; the inverse has the input's shape; options choose the outputs",
  () => {
    using x = ga.asarray([[3, 1, 3], [1, 2, 2]], "int32");
    using t = x.T;
    const r = ga.unique(t, { returnInverse: true });
    assert.deepEqual(Array.from(r.values.get()), [1, 2, 3]);
    assert.equal(r.counts, undefined);
    assert.deepEqual(r.inverse!.shape, [3, 2]);
    assert.deepEqual(Array.from(r.inverse!.get(), Number), [2, 0, 0, 1, 2, 1]);
    const c = ga.unique(x, { returnCounts: true });
    assert.equal(c.inverse, undefined);
    assert.deepEqual(Array.from(c.counts!.get(), Number), [2, 2, 2]);
  },
);

/** NumPy's searchsorted on the host. */
function searchRef(a: readonly Elem[], v: Elem, side: "left" | "right"): number {
  let i = 0;
  while (i < a.length && (side === "left" ? compare(a[i]!, v) < 0 : compare(a[i]!, v) <= 0)) i++;
  return i;
}

eachBackend(
  "searchsorted() finds NumPy's places on both sides, for every dtype, NaNs and zeros included",
  () => {
    for (const dtype of dtypesHere()) {
      const sortedHost = makeHost(dtype, 300, 2, "special");
      using a = ga.sort(toDevice(dtype, sortedHost));
      const as = hostOf(a);
      const valuesHost = makeHost(dtype, 500, 9, "special");
      using v = toDevice(dtype, valuesHost, [20, 25]);
      for (const side of ["left", "right"] as const) {
        using at = ga.searchsorted(a, v, { side });
        assert.deepEqual(at.shape, [20, 25]);
        const expected = decode(dtype, valuesHost).map((x) => searchRef(as, x, side));
        assert.deepEqual(Array.from(at.get(), Number), expected, `${dtype} ${side}`);
      }
    }
  },
);

eachBackend("searchsorted() compares in the common dtype and reads views", () => {
  using a = ga.asarray([1, 2, 2, 3], "int32");
  using v = ga.asarray([2.5, 2, -1, 9], "float32");
  assert.deepEqual(Array.from(ga.searchsorted(a, v).get(), Number), [3, 1, 0, 4]);
  assert.deepEqual(Array.from(ga.searchsorted(a, v, { side: "right" }).get(), Number), [3, 3, 0, 4]);
  using wide = ga.asarray([9, 7, 5, 3, 1, 0]);
  using rev = wide.slice([null, null, -2]); // [0, 3, 7]
  using q = ga.asarray([[3, 8], [0, -1]]).T;
  assert.deepEqual(Array.from(ga.searchsorted(rev, q).get(), Number), [1, 0, 3, 0]);
  using empty = ga.zeros([0]);
  assert.deepEqual(Array.from(ga.searchsorted(empty, v).get(), Number), [0, 0, 0, 0]);
});

eachBackend("searchsorted() refuses a sorted array that is not 1-D and an unknown side", () => {
  using a = ga.zeros([2, 2]), v = ga.zeros([3]);
  assert.throws(() => ga.searchsorted(a, v), {
    name: "RangeError",
    message: /^Cannot searchsorted in an array of shape \[2, 2\]: it must be 1-D/,
  });
  assert.throws(() => ga.searchsorted(v, v, { side: "middle" as "left" }), {
    name: "TypeError",
    message: /^Cannot searchsorted with side "middle": use "left" or "right"/,
  });
});

/** The top k of each row on the host: indices by value (largest or smallest first), ties by index. */
function topkRef(row: readonly Elem[], k: number, largest: boolean): number[] {
  return argsortRef(row, largest).slice(0, k);
}

eachBackend("topk() gives the largest or smallest k along an axis, sorted by value, ties by index", () => {
  const cases: [number[], number, number][] = [
    [[50], 5, -1],
    [[6, 300], 10, 1],
    [[300, 6], 7, 0],
    [[4, 3, 5000], 100, -1], // rows longer than a tile
    [[3, 9], 9, 1],
    [[3, 9], 0, 1],
  ];
  for (const dtype of dtypesHere().filter((d) => ["float32", "int8", "uint64", "float16"].includes(d))) {
    for (const [shape, k, axis] of cases) {
      for (const largest of [true, false]) {
        const size = shape.reduce((a, b) => a * b, 1);
        const host = makeHost(dtype, size, size + k, "special");
        using x = toDevice(dtype, host, shape);
        const { values, indices } = ga.topk(x, k, { axis, largest });
        const outShape = shape.map((d, i) => (i === (axis + shape.length) % shape.length ? k : d));
        assert.deepEqual(values.shape, outShape);
        assert.deepEqual(indices.shape, outShape);
        using moved = ga.moveaxis(x, axis, -1);
        using vm = ga.moveaxis(values, axis, -1), im = ga.moveaxis(indices, axis, -1);
        const got = hostOf(vm), gotIdx = Array.from(im.get(), Number);
        rowsOf(hostOf(moved), shape.at(axis)!).forEach((row, r) => {
          const what = `${dtype} [${shape}] k=${k} axis ${axis} ${largest ? "largest" : "smallest"} row ${r}`;
          const ref = topkRef(row, k, largest);
          assert.deepEqual(gotIdx.slice(r * k, (r + 1) * k), ref, what);
          assertSame(what, got.slice(r * k, (r + 1) * k), ref.map((i) => row[i]!));
        });
        values.free();
        indices.free();
      }
    }
  }
});

eachBackend("topk() counts NaN as the largest and refuses k outside 0 to the extent", () => {
  using x = ga.asarray([1, NaN, 3, -0, 0]);
  const top = ga.topk(x, 3);
  assertSame("largest", Array.from(top.values.get()), [NaN, 3, 1]);
  const low = ga.topk(x, 3, { largest: false });
  assertSame("smallest", Array.from(low.values.get()), [-0, 0, 1]);
  assert.deepEqual(Array.from(low.indices.get(), Number), [3, 4, 0]);
  assert.throws(() => ga.topk(x, 6), {
    name: "RangeError",
    message:
      /^Cannot take the top 6 of an array of shape \[5\] along axis -1: k must be an integer from 0 to 5/,
  });
  assert.throws(() => ga.topk(x, 1.5), { name: "RangeError" });
});
