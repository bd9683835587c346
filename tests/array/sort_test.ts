import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { sortLimits, sortRows } from "../../src/array/exec/radix.ts";
import { eachBackend } from "./_each_backend.ts";
import {
  argsortRef,
  decode,
  dtypesHere,
  type Elem,
  hostOf,
  LONG,
  makeHost,
  type Pattern,
  rowsOf,
  same,
  seeded,
  toDevice,
  uniqueRef,
} from "./_sort_data.ts";

/** Checks sorted values and argsort indices of rows of `rowLen` against the host reference. */
function checkRows(
  what: string,
  xs: readonly Elem[],
  rowLen: number,
  values: readonly Elem[] | undefined,
  indices: readonly bigint[] | undefined,
  descending = false,
): void {
  rowsOf(xs, rowLen).forEach((row, r) => {
    const order = argsortRef(row, descending);
    for (let i = 0; i < row.length; i++) {
      const at = r * rowLen + i;
      if (indices !== undefined && indices[at] !== BigInt(order[i]!)) {
        assert.fail(`${what}: row ${r}, position ${i}: index ${indices[at]}, expected ${order[i]}`);
      }
      if (values !== undefined && !same(values[at]!, row[order[i]!]!)) {
        assert.fail(`${what}: row ${r}, position ${i}: value ${values[at]}, expected ${row[order[i]!]}`);
      }
    }
  });
}

const SIZES = LONG
  ? [0, 1, 2, 3, 255, 2048, 2049, 4096, 4097, 65537, 2 ** 18 + 3, 2 ** 20]
  : [0, 1, 3, 2049, 4097, 40000];
const PATTERNS: Pattern[] = ["random", "sorted", "reversed", "equal", "special"];

eachBackend("sort() and argsort() of every dtype match the host reference at sizes from 0 up", () => {
  for (const dtype of dtypesHere()) {
    for (const n of SIZES) {
      const host = makeHost(dtype, n, n + 7);
      using x = toDevice(dtype, host);
      using s = ga.sort(x), order = ga.argsort(x);
      assert.equal(s.dtype, dtype);
      assert.equal(order.dtype, "int64");
      assert.deepEqual(s.shape, [n]);
      checkRows(`${dtype}[${n}]`, decode(dtype, host), n, decode(dtype, s.get()), Array.from(order.get()));
    }
  }
});

eachBackend("sort() keeps NumPy's order on sorted, reversed, all-equal and NaN-laden input", () => {
  const dtypes = dtypesHere().filter((d) =>
    ["float32", "float64", "float16", "bfloat16", "int16"].includes(d)
  );
  for (const dtype of dtypes) {
    for (const pattern of PATTERNS) {
      for (const n of [1000, 9000]) {
        const host = makeHost(dtype, n, 3, pattern);
        using x = toDevice(dtype, host);
        using s = ga.sort(x), order = ga.argsort(x);
        checkRows(
          `${dtype} ${pattern}[${n}]`,
          decode(dtype, host),
          n,
          decode(dtype, s.get()),
          Array.from(order.get()),
        );
      }
    }
  }
});

eachBackend("sort() puts NaN last and keeps -0.0 and +0.0 in their order, bit for bit", () => {
  const host = Float32Array.of(0, NaN, -0, 1, -Infinity, -0, 0, NaN, -1, Infinity, -0);
  using x = ga.toGpu(host);
  const s = Array.from(ga.sort(x).get());
  const expect = [-Infinity, -1, 0, -0, -0, 0, -0, 1, Infinity, NaN, NaN];
  s.forEach((v, i) => assert.ok(Object.is(v, expect[i]), `position ${i}: ${v}, expected ${expect[i]}`));
  assert.deepEqual(Array.from(ga.argsort(x).get(), Number), [4, 8, 0, 2, 5, 6, 10, 3, 9, 1, 7]);
});

eachBackend("argsort() is stable: equal elements keep their order, in short and long rows", () => {
  for (const n of [100, 3000, 50000]) {
    const host = Int32Array.from({ length: n }, (_, i) => (i * 7919) % 5);
    using x = ga.toGpu(host);
    checkRows(`int32[${n}]`, Array.from(host), n, undefined, Array.from(ga.argsort(x).get()));
  }
});

eachBackend("sort() along each axis of 2-D and 3-D arrays matches sorting each row on the host", () => {
  const cases: [number[], number][] = [
    [[37, 300], 1],
    [[37, 300], 0],
    [[5, 6, 700], 1],
    [[5, 6, 700], -1],
    [[3, 5000], 1], // rows longer than a tile
    [[5000, 3], 0],
    [[2000, 7], 1], // many rows to a tile
    [[4, 0, 3], 2],
  ];
  for (const [shape, axis] of cases) {
    const size = shape.reduce((a, b) => a * b, 1);
    const host = makeHost("float32", size, size + axis, "special");
    using x = ga.toGpu(host, shape);
    using s = ga.sort(x, { axis }), order = ga.argsort(x, { axis });
    assert.ok(s.isContiguous);
    assert.deepEqual(s.shape, shape);
    // The host reference sorts the axis moved last.
    using moved = ga.moveaxis(x, axis, -1);
    using sMoved = ga.moveaxis(s, axis, -1), oMoved = ga.moveaxis(order, axis, -1);
    checkRows(
      `[${shape}] axis ${axis}`,
      hostOf(moved),
      shape.at(axis)!,
      hostOf(sMoved),
      Array.from(oMoved.get()),
    );
  }
});

eachBackend("sort() of views (a transpose, a reversed slice) reads them through their layout", () => {
  const host = makeHost("int16", 60 * 50, 11);
  using base = ga.toGpu(host, [60, 50]);
  using t = base.T;
  using sl = base.slice([null, null, -3], [5, 45, 2]);
  for (const [name, view] of [["transpose", t], ["slice", sl]] as const) {
    using s = ga.sort(view), order = ga.argsort(view, { axis: 0 });
    using copy = view.copy();
    const rowLen = view.shape.at(-1)!;
    checkRows(`${name} last axis`, hostOf(copy), rowLen, hostOf(s), undefined);
    using moved = ga.moveaxis(copy, 0, -1), oMoved = ga.moveaxis(order, 0, -1);
    checkRows(`${name} axis 0`, hostOf(moved), view.shape[0]!, undefined, Array.from(oMoved.get()));
  }
});

eachBackend("sort() with axis null sorts the flattened array; 0-d arrays need it", () => {
  using x = ga.asarray([[3, 1], [2, 0]]);
  assert.deepEqual(Array.from(ga.sort(x, { axis: null }).get()), [0, 1, 2, 3]);
  assert.deepEqual(Array.from(ga.argsort(x.T, { axis: null }).get(), Number), [3, 2, 1, 0]);
  using scalar = ga.asarray(5).reshape([]);
  assert.throws(() => ga.sort(scalar), {
    name: "RangeError",
    message: /Cannot sort: axis -1 is out of range/,
  });
  assert.deepEqual(Array.from(ga.sort(scalar, { axis: null }).get()), [5]);
});

eachBackend("a.sort() sorts in place through a view and returns nothing; a.argsort() is argsort()", () => {
  using base = ga.asarray([[5, 4, 3, 2], [9, 8, 7, 6]]);
  using view = base.slice([], [1, null]);
  assert.equal(view.sort(), undefined);
  assert.deepEqual(Array.from(base.get()), [5, 2, 3, 4, 9, 6, 7, 8]);
  base.sort({ axis: 0 });
  assert.deepEqual(Array.from(base.get()), [5, 2, 3, 4, 9, 6, 7, 8]);
  using col = ga.asarray([[2, 1], [1, 2]]);
  col.sort({ axis: 0 });
  assert.deepEqual(Array.from(col.get()), [1, 1, 2, 2]);
  assert.deepEqual(Array.from(ga.asarray([3, 1, 2]).argsort().get(), Number), [1, 2, 0]);
  using b = ga.broadcastTo(ga.asarray([2, 1]), [2, 2]);
  assert.throws(() => b.sort(), { name: "RangeError", message: /broadcast view/ });
});

eachBackend("the 64-bit index path sorts like the 32-bit one", () => {
  for (const dtype of ["float32", "int64"] as const) {
    for (const [n, rowLen] of [[5000, 5000], [9000, 3000], [3000, 30]]) {
      const host = makeHost(dtype, n, 5, "special");
      using x = toDevice(dtype, host);
      using values = ga.empty([n], dtype), indices = ga.empty([n], "int64");
      sortRows(x, rowLen, { values, indices }, { wide: true });
      checkRows(
        `wide ${dtype}[${n}/${rowLen}]`,
        decode(dtype, host),
        rowLen,
        decode(dtype, values.get()),
        Array.from(indices.get()),
      );
    }
  }
});

eachBackend("sort() and argsort() name the call and the axis when the axis is out of range", () => {
  using x = ga.zeros([2, 3]);
  assert.throws(() => ga.sort(x, { axis: 2 }), {
    name: "RangeError",
    message: /^Cannot sort: axis 2 is out of range for an array of 2 dimensions/,
  });
  assert.throws(() => ga.argsort(x, { axis: -3 }), {
    name: "RangeError",
    message: /^Cannot argsort: axis -3/,
  });
  assert.throws(() => ga.sort([1, 2] as unknown as ga.GPUArray), {
    name: "TypeError",
    message: /^Cannot sort object: pass a GPUArray/,
  });
});

eachBackend("sort(), argsort() and topk() write into out: contiguous, a view, or the input itself", () => {
  const host = makeHost("float32", 4 * 5000, 3, "special");
  const xs = decode("float32", host);
  using x = ga.toGpu(host, [4, 5000]);
  using out = ga.empty([4, 5000]);
  assert.equal(ga.sort(x, { out }), out);
  checkRows("sort into out", xs, 5000, hostOf(out), undefined);
  using order = ga.empty([5000, 4], "int64");
  using orderT = order.T;
  assert.equal(ga.argsort(x, { out: orderT }), orderT);
  checkRows("argsort into a view", xs, 5000, undefined, Array.from(orderT.copy().get()));
  using values = ga.empty([4, 5000]), indices = ga.empty([4, 5000], "int64");
  const top = ga.topk(x, 5000, { largest: false, out: { values, indices } });
  assert.equal(top.values, values);
  checkRows("topk into out", xs, 5000, hostOf(values), Array.from(indices.get()));
  using y = x.copy();
  ga.sort(y, { axis: 1, out: y });
  checkRows("sort into its input", xs, 5000, hostOf(y), undefined);
  using small = ga.empty([3]);
  assert.throws(() => ga.sort(x, { out: small }), {
    name: "RangeError",
    message: /^Cannot sort into an array of shape \[3\]: the result has shape \[4, 5000\]/,
  });
  assert.throws(() => ga.argsort(x, { out }), {
    name: "TypeError",
    message: /^Cannot argsort into a float32 array: the result is int64/,
  });
});

/** The elements of `view` (a view of an array holding `base`) in C order, read through its layout. */
function elementsOf(base: readonly Elem[], view: ga.GPUArray): Elem[] {
  const out: Elem[] = [];
  const index = view.shape.map(() => 0);
  for (let n = 0; n < view.size; n++) {
    out.push(base[view.offset + index.reduce((s, i, d) => s + i * view.strides[d]!, 0)]!);
    for (let d = view.ndim - 1; d >= 0 && ++index[d]! === view.shape[d]; d--) index[d] = 0;
  }
  return out;
}

/** The sorted order along `axis` of a C-order array of `shape`: each position's source (flat, and within the row). */
function argsortAlong(
  xs: readonly Elem[],
  shape: readonly number[],
  axis: number,
): { order: number[]; within: number[] } {
  const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1), len = shape[axis]!;
  const order = new Array<number>(xs.length), within = new Array<number>(xs.length);
  for (let flat = 0; flat < xs.length; flat++) {
    if (Math.floor(flat / stride) % len !== 0) continue; // one row per start position
    const row = Array.from({ length: len }, (_, j) => xs[flat + j * stride]!);
    argsortRef(row).forEach((src, j) => {
      order[flat + j * stride] = flat + src * stride;
      within[flat + j * stride] = src;
    });
  }
  return { order, within };
}

eachBackend("sort() and argsort() of random views along random axes match the host reference", () => {
  const r = seeded(99);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const dtypes = dtypesHere();
  for (let c = 0; c < (LONG ? 3000 : 150); c++) {
    const dtype = dtypes[int(0, dtypes.length - 1)]!;
    const shape = Array.from({ length: int(1, 4) }, () => int(0, c % 10 === 0 ? 2000 : 9));
    const size = shape.reduce((a, b) => a * b, 1);
    if (size > 20000) continue;
    const host = makeHost(dtype, size, c, r() < 0.5 ? "random" : "special");
    using base = toDevice(dtype, host, shape);
    let view = base.transpose(...shape.map((_, i) => i).sort(() => r() - 0.5));
    if (r() < 0.5) {
      const specs = view.shape.map((d): ga.SliceSpec =>
        d > 2 && r() < 0.5 ? [d - 1, 0, -int(1, 2)] : [null, null]
      );
      const sliced = view.slice(...specs);
      view.free();
      view = sliced;
    }
    const axis = int(-view.ndim, view.ndim - 1);
    const what = `case ${c}: ${dtype} view of [${shape}] as [${view.shape}] axis ${axis}`;
    const xs = elementsOf(decode(dtype, host), view);
    const { order, within } = argsortAlong(xs, view.shape, (axis + view.ndim) % view.ndim);
    using s = ga.sort(view, { axis }), o = ga.argsort(view, { axis });
    const got = hostOf(s), gotIdx = Array.from(o.get(), Number);
    for (let i = 0; i < xs.length; i++) {
      if (!same(got[i]!, xs[order[i]!]!)) {
        assert.fail(`${what}: sort at ${i}: ${got[i]}, expected ${xs[order[i]!]}`);
      }
      if (gotIdx[i] !== within[i]) {
        assert.fail(`${what}: argsort at ${i}: ${gotIdx[i]}, expected ${within[i]}`);
      }
    }
    view.free();
  }
});

const SHARES: [ga.DType, number, number][] = [["float32", 40000, 40000], ["int64", 30000, 10000], [
  "uint8",
  33333,
  33333,
]];

eachBackend(
  "sort(), argsort() and unique() over many tiles (several to a block where blocks share tiles) match the host reference",
  () => {
    const kept = sortLimits.maxBlocks;
    sortLimits.maxBlocks = 3;
    try {
      for (const [dtype, n, rowLen] of SHARES) {
        const host = makeHost(dtype, n, 17, "special");
        const xs = decode(dtype, host);
        using x = toDevice(dtype, host, [n / rowLen, rowLen]);
        using s = ga.sort(x), order = ga.argsort(x);
        checkRows(`${dtype}[${n}]`, xs, rowLen, hostOf(s), Array.from(order.get()));
        const u = ga.unique(x, { returnCounts: true, returnInverse: true });
        const ref = uniqueRef(xs);
        const values = hostOf(u.values);
        assert.equal(values.length, ref.values.length, `${dtype} unique values`);
        values.forEach((v, i) => assert.ok(same(v, ref.values[i]!), `${dtype} unique value ${i}: ${v}`));
        assert.deepEqual(Array.from(u.counts!.get(), Number), ref.counts, `${dtype} counts`);
        assert.deepEqual(Array.from(u.inverse!.get(), Number), ref.inverse, `${dtype} inverse`);
      }
    } finally {
      sortLimits.maxBlocks = kept;
    }
  },
);
