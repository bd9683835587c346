import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray, fromIndex } from "./_nd.ts";

/** A float32 array whose element at (i, j, ...) is `base` + the digits of its index. */
function numbered(shape: number[], base = 0, dtype: ga.DType = "float32"): ga.GPUArray {
  const values = fromIndex(shape, (idx) => base + idx.reduce((n, i) => n * 10 + i, 0));
  return ga.toGpu(values.length === 0 ? [] : values, shape, dtype);
}
const digits = (idx: number[]) => idx.reduce((n, i) => n * 10 + i, 0);

eachBackend("concatenate() joins along axis 0 and axis 1 as NumPy does", () => {
  using a = numbered([2, 3]), b = numbered([1, 3], 100), c = numbered([2, 2], 200);
  using rows = ga.concatenate([a, b]);
  assertArray(rows, [3, 3], ([i, j]) => (i! < 2 ? digits([i!, j!]) : 100 + j!));
  using columns = ga.concatenate([a, c, a], 1);
  assertArray(
    columns,
    [2, 8],
    ([i, j]) => j! < 3 ? digits([i!, j!]) : j! < 5 ? 200 + digits([i!, j! - 3]) : digits([i!, j! - 5]),
  );
  using last = ga.concatenate([a, c], -1);
  assert.deepEqual(last.shape, [2, 5]);
});

eachBackend("concatenate() of views reads each through its layout", () => {
  using a = numbered([3, 4]);
  using t = a.T; // [4, 3], strides [1, 4]
  using flipped = a.slice([null, null, -1], [1, 4]); // rows reversed, columns 1..3: [3, 3]
  using broadcast = ga.broadcastTo(numbered([1, 3], 500), [2, 3]);
  using joined = ga.concatenate([t, flipped, broadcast]);
  assertArray(
    joined,
    [9, 3],
    ([i, j]) => i! < 4 ? digits([j!, i!]) : i! < 7 ? digits([2 - (i! - 4), j! + 1]) : 500 + j!,
  );
  using along1 = ga.concatenate([t.slice([0, 3]), flipped], 1); // [3, 3] + [3, 3]
  assertArray(along1, [3, 6], ([i, j]) => (j! < 3 ? digits([j!, i!]) : digits([2 - i!, j! - 3 + 1])));
});

eachBackend("concatenate() gives NumPy's result type of its inputs", () => {
  using i8 = ga.asarray([-1, 2], "int8"), u8 = ga.asarray([200], "uint8");
  using small = ga.concatenate([i8, u8]);
  assert.equal(small.dtype, "int16");
  assertArray(small, [3], ([i]) => [-1, 2, 200][i!]!);
  using flags = ga.asarray([true, false]), ints = ga.asarray([7], "int32");
  using mixed = ga.concatenate([flags, ints]);
  assert.equal(mixed.dtype, "int32");
  assertArray(mixed, [3], ([i]) => [1, 0, 7][i!]!);
  using f = ga.asarray([0.5]), i = ga.asarray([3], "int16");
  using floats = ga.concatenate([f, i]);
  assert.equal(floats.dtype, "float32");
  assertArray(floats, [2], ([k]) => [0.5, 3][k!]!);
  using big = ga.asarray([2n ** 40n]), u = ga.asarray([5], "uint32");
  using wide = ga.concatenate([u, big]);
  assert.equal(wide.dtype, "int64");
  assertArray(wide, [2], ([k]) => [5n, 2n ** 40n][k!]!);
});

eachBackend("concatenate() with axis null joins the arrays flattened, and skips empty ones", () => {
  using a = numbered([2, 2]), b = numbered([3], 50), empty = ga.zeros([0, 2]);
  using flat = ga.concatenate([a.T, b], null);
  assertArray(flat, [7], ([i]) => [0, 10, 1, 11, 50, 51, 52][i!]!);
  using withEmpty = ga.concatenate([empty, a, empty]);
  assertArray(withEmpty, [2, 2], digits);
  using nothing = ga.concatenate([empty, empty]);
  assert.deepEqual(nothing.shape, [0, 2]);
});

eachBackend("concatenate() refuses arrays that do not fit together, naming their shapes and the axis", () => {
  using a = ga.zeros([2, 3]), b = ga.zeros([2, 4]), c = ga.zeros([3]), s = ga.zeros([]);
  assert.throws(() => ga.concatenate([a, b]), {
    name: "RangeError",
    message:
      "Cannot concatenate arrays of shapes [2, 3] and [2, 4] (items 0 and 1) along axis 0: they differ at axis 1 (3 and 4); every axis but the joined one must match",
  });
  assert.throws(() => ga.concatenate([a, c]), {
    name: "RangeError",
    message: /they have 2 and 1 dimensions/,
  });
  assert.throws(() => ga.concatenate([s, s]), {
    name: "RangeError",
    message: /Cannot concatenate 0-d arrays/,
  });
  assert.throws(() => ga.concatenate([a, a], 2), { name: "RangeError", message: /axis 2 is out of range/ });
  assert.throws(() => ga.concatenate([]), { name: "TypeError", message: /empty list/ });
  assert.throws(() => ga.concatenate(a as never), {
    name: "TypeError",
    message: "Cannot concatenate a GPUArray: pass a list of arrays, as ga.concatenate([a, b])",
  });
  assert.throws(() => ga.stack(a as never), {
    name: "TypeError",
    message: /^Cannot stack a GPUArray: pass a list/,
  });
});

eachBackend("stack() joins arrays of one shape along a new axis", () => {
  using a = numbered([2, 3]), b = numbered([2, 3], 100);
  using first = ga.stack([a, b]);
  assertArray(first, [2, 2, 3], ([k, i, j]) => 100 * k! + digits([i!, j!]));
  using middle = ga.stack([a, b.T.T], 1);
  assertArray(middle, [2, 2, 3], ([i, k, j]) => 100 * k! + digits([i!, j!]));
  using last = ga.stack([a, b, a], -1);
  assertArray(last, [2, 3, 3], ([i, j, k]) => (k === 1 ? 100 : 0) + digits([i!, j!]));
  using c = ga.zeros([3, 2]);
  assert.throws(() => ga.stack([a, c]), {
    name: "RangeError",
    message:
      "Cannot stack arrays of shapes [2, 3] and [3, 2] (items 0 and 1): every array must have the same shape",
  });
});

eachBackend("arraySplit() and split() cut into views as NumPy does", () => {
  using a = numbered([7]);
  const parts = ga.arraySplit(a, 3);
  assert.deepEqual(parts.map((p) => p.tolist()), [[0, 1, 2], [3, 4], [5, 6]]);
  const cut = ga.split(numbered([10]), [3, -2, 2, 20]);
  assert.deepEqual(cut.map((p) => p.tolist()), [[0, 1, 2], [3, 4, 5, 6, 7], [], [
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
  ], []]);
  using m = numbered([4, 6]);
  const [left, right] = ga.split(m, 2, 1);
  assertArray(left!, [4, 3], digits);
  assertArray(right!, [4, 3], ([i, j]) => digits([i!, j! + 3]));
  right!.fill(-1); // a view: writes through
  assertArray(m, [4, 6], ([i, j]) => (j! >= 3 ? -1 : digits([i!, j!])));
  const more = ga.arraySplit(ga.arange(2), 4);
  assert.deepEqual(more.map((p) => p.shape[0]), [1, 1, 0, 0]);
});

eachBackend("split() refuses an unequal division and arraySplit() a non-positive count", () => {
  using a = ga.zeros([7, 2]);
  assert.throws(() => ga.split(a, 3), {
    name: "RangeError",
    message:
      "Cannot split axis 0 of extent 7 into 3 equal sections: 7 is not a multiple of 3; arraySplit() allows unequal ones",
  });
  assert.throws(() => ga.arraySplit(a, 0), { name: "RangeError", message: /give a positive integer/ });
  assert.throws(() => ga.split(a, 2, 2), { name: "RangeError", message: /axis 2 is out of range/ });
  assert.throws(() => ga.split(a, [1.5]), { name: "TypeError", message: /give integer indices/ });
});
