import assert from "node:assert/strict";
import {
  broadcastShapes,
  coalesce,
  contiguousStrides,
  isContiguous,
  type Layout,
  reshapeStrides,
  reshapeTarget,
  transposeLayout,
} from "../../src/array/core/layout.ts";
import { parseSlices, sliceLayout } from "../../src/array/core/slicing.ts";

/** Every element offset of a layout, in C order. */
function offsets(l: Layout): number[] {
  const out: number[] = [];
  const walk = (axis: number, at: number) => {
    if (axis === l.shape.length) return void out.push(at);
    for (let i = 0; i < l.shape[axis]!; i++) walk(axis + 1, at + i * l.strides[axis]!);
  };
  walk(0, l.offset);
  return out;
}

/** Python's range(start, stop, step) of slice(s, e, st).indices(n), enumerated by brute force. */
function pythonSlice(n: number, s: number | null, e: number | null, st: number | null): number[] {
  const step = st ?? 1;
  const out: number[] = [];
  const norm = (v: number) => (v < 0 ? v + n : v);
  if (step > 0) {
    const start = s === null ? 0 : Math.min(Math.max(norm(s), 0), n);
    const stop = e === null ? n : Math.min(Math.max(norm(e), 0), n);
    for (let i = start; i < stop; i += step) out.push(i);
  } else {
    const start = s === null ? n - 1 : Math.min(Math.max(norm(s), -1), n - 1);
    const stop = e === null ? -1 : Math.min(Math.max(norm(e), -1), n - 1);
    for (let i = start; i > stop; i += step) out.push(i);
  }
  return out;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

Deno.test("sliceLayout() selects exactly Python's slice indices, negative steps and clamping included", () => {
  const r = rng(1);
  const pick = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  for (let c = 0; c < 3000; c++) {
    const n = pick(0, 9);
    const part = () => (r() < 0.25 ? null : pick(-12, 12));
    const s = part(), e = part(), st = r() < 0.3 ? null : [-3, -2, -1, 1, 2, 3][pick(0, 5)]!;
    const l = sliceLayout({ shape: [n], strides: [1], offset: 0 }, [[s, e, st]]);
    assert.deepEqual(offsets(l), pythonSlice(n, s, e, st), `[${s}:${e}:${st}] of ${n}`);
  }
});

Deno.test("slices as text mean what the same specs mean", () => {
  const base: Layout = { shape: [4, 5, 6], strides: contiguousStrides([4, 5, 6]), offset: 0 };
  assert.deepEqual(
    sliceLayout(base, parseSlices("1:3, ::-2, None, ..., -1")),
    sliceLayout(base, [
      [1, 3],
      [null, null, -2],
      null,
      "...",
      -1,
    ]),
  );
  assert.deepEqual(parseSlices(":, 2"), [[null, null, null], 2]);
  assert.throws(() => parseSlices("1:2:3:4"), SyntaxError);
  assert.throws(() => sliceLayout(base, [0, 0, 0, 0]), {
    name: "RangeError",
    message: /4 positions: it has 3 axes/,
  });
  assert.throws(() => sliceLayout(base, [4]), { name: "RangeError", message: /at 4: use -4 to 3/ });
  assert.throws(() => sliceLayout(base, [[0, 1, 0]]), { name: "RangeError", message: /step 0/ });
});

Deno.test("reshapeStrides() views what C order allows and refuses what it does not, as NumPy", () => {
  const c: Layout = { shape: [2, 3, 4], strides: contiguousStrides([2, 3, 4]), offset: 0 };
  for (const shape of [[24], [6, 4], [2, 12], [4, 3, 2], [1, 24, 1], [2, 1, 3, 1, 4]]) {
    const s = reshapeStrides(c, shape)!;
    assert.deepEqual(offsets({ shape, strides: s, offset: 0 }), offsets(c), `[${shape}]`);
  }
  const t = transposeLayout(c, [2, 1, 0]); // shape [4, 3, 2], not contiguous
  assert.equal(reshapeStrides(t, [24]), undefined, "a transposed array cannot be flattened in place");
  const merged = reshapeStrides(t, [4, 3, 2, 1])!;
  assert.deepEqual(offsets({ shape: [4, 3, 2, 1], strides: merged, offset: 0 }), offsets(t));
  // Splitting an axis of a sliced (strided) array keeps its stride pattern.
  const every2nd: Layout = { shape: [6], strides: [2], offset: 1 };
  const split = reshapeStrides(every2nd, [2, 3])!;
  assert.deepEqual(offsets({ shape: [2, 3], strides: split, offset: 1 }), offsets(every2nd));
  assert.deepEqual(reshapeTarget([2, 3, 4], [-1, 4]), [6, 4]);
  assert.throws(() => reshapeTarget([2, 3], [4, -1]), { name: "RangeError", message: /sizes differ/ });
  assert.throws(() => reshapeTarget([2, 3], [-1, -1]), { name: "RangeError", message: /only one extent/ });
});

Deno.test("broadcastShapes() aligns on the right and names both shapes and the axis when they clash", () => {
  assert.deepEqual(broadcastShapes([[8, 1, 6, 1], [7, 1, 5]], "add"), [8, 7, 6, 5]);
  assert.deepEqual(broadcastShapes([[], [3]], "add"), [3]);
  assert.deepEqual(broadcastShapes([[0, 1], [1, 4]], "add"), [0, 4]);
  assert.throws(() => broadcastShapes([[2, 3], [4, 3]], "add"), {
    name: "RangeError",
    message:
      "Cannot add arrays of shapes [2, 3] and [4, 3]: they differ at axis 0 (2 and 4) and neither is 1, so they do not broadcast",
  });
});

Deno.test("coalesce() merges axes every operand walks as one, and keeps what each operand reaches", () => {
  const r = rng(7);
  for (let c = 0; c < 500; c++) {
    const ndim = 1 + Math.floor(r() * 4);
    const shape = Array.from({ length: ndim }, () => 1 + Math.floor(r() * 4));
    const out = contiguousStrides(shape);
    const perm = shape.map((_, i) => i).sort(() => r() - 0.5);
    const inner = transposeLayout({
      shape: perm.map((p) => shape[p]!),
      strides: contiguousStrides(perm.map((p) => shape[p]!)),
      offset: 0,
    }, perm.map((_, i) => perm.indexOf(i)));
    const bcast = shape.map((_, i) => (r() < 0.3 ? 0 : out[i]!));
    const merged = coalesce(shape, [out, inner.strides, bcast]);
    const size = shape.reduce((a, b) => a * b, 1);
    assert.equal(merged.shape.reduce((a, b) => a * b, 1), size);
    // The set of (out, in, bcast) offset triples is the same before and after.
    const triples = (sh: readonly number[], ss: readonly (readonly number[])[]) => {
      const o = ss.map((s) => offsets({ shape: sh, strides: s, offset: 0 }));
      return o[0]!.map((_, i) => o.map((x) => x[i]).join(",")).sort();
    };
    assert.deepEqual(triples(merged.shape, merged.strides), triples(shape, [out, inner.strides, bcast]));
  }
  assert.deepEqual(
    coalesce([4, 5, 6], [contiguousStrides([4, 5, 6])]).shape,
    [120],
    "a contiguous array is one axis",
  );
  assert.ok(isContiguous([3, 1, 4], [4, 99, 1]), "an axis of extent 1 may have any stride");
});
