import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray, fromIndex } from "./_nd.ts";

const digits = (idx: number[]) => idx.reduce((n, i) => n * 10 + i, 0);
function numbered(shape: number[], dtype: ga.DType = "float32"): ga.GPUArray {
  return ga.toGpu(fromIndex(shape, digits), shape, dtype);
}
/** The source index along an axis of each output position, for counts per element. */
const sourceOf = (counts: number[]) => counts.flatMap((c, i) => new Array<number>(c).fill(i));

eachBackend("repeat() by one count repeats each element along an axis, or over the flattened array", () => {
  using a = numbered([2, 3]);
  using flat = ga.repeat(a, 2);
  assertArray(flat, [12], ([k]) => digits([Math.floor(Math.floor(k! / 2) / 3), Math.floor(k! / 2) % 3]));
  using rows = a.repeat(3, 0);
  assertArray(rows, [6, 3], ([i, j]) => digits([Math.floor(i! / 3), j!]));
  using columns = ga.repeat(a, 2, -1);
  assertArray(columns, [2, 6], ([i, j]) => digits([i!, Math.floor(j! / 2)]));
  using none = ga.repeat(a, 0, 1);
  assert.deepEqual(none.shape, [2, 0]);
});

eachBackend("repeat() by a list of counts gathers each element that many times", () => {
  using a = numbered([3, 4]);
  const counts = [2, 0, 1, 3];
  using columns = ga.repeat(a, counts, 1);
  const from = sourceOf(counts);
  assertArray(columns, [3, 6], ([i, j]) => digits([i!, from[j!]!]));
  using rows = ga.repeat(a.T, [1, 3, 0, 2], 0); // a transposed view: [4, 3]
  const rowFrom = sourceOf([1, 3, 0, 2]);
  assertArray(rows, [6, 3], ([i, j]) => digits([j!, rowFrom[i!]!]));
  using flipped = ga.repeat(a.slice([], [null, null, -1]), [1, 2, 1, 2], 1);
  const flipFrom = sourceOf([1, 2, 1, 2]);
  assertArray(flipped, [3, 6], ([i, j]) => digits([i!, 3 - flipFrom[j!]!]));
});

eachBackend("repeat() keeps 64-bit integers and bools exact", () => {
  using big = ga.asarray([2n ** 62n + 1n, -5n]);
  using r = ga.repeat(big, [3, 1]);
  assertArray(r, [4], ([k]) => (k! < 3 ? 2n ** 62n + 1n : -5n));
  using flags = ga.asarray([[true, false]]);
  using f = ga.repeat(flags, 2, 0);
  assertArray(f, [2, 2], ([, j]) => j === 0);
});

eachBackend("repeat() refuses negative counts and lists of the wrong length", () => {
  using a = ga.zeros([2, 3]);
  assert.throws(() => ga.repeat(a, -1), { name: "RangeError", message: /Cannot repeat elements -1 times/ });
  assert.throws(() => ga.repeat(a, [1, 2], 1), {
    name: "RangeError",
    message:
      "Cannot repeat along axis 1 of extent 3 (shape [2, 3]) with 2 counts: give one count, or one for each of its 3 elements",
  });
  assert.throws(() => ga.repeat(a, 1, 2), { name: "RangeError", message: /axis 2 is out of range/ });
});

eachBackend("tile() repeats the whole array along each axis, as NumPy does", () => {
  using a = numbered([3]);
  using twice = ga.tile(a, 2);
  assertArray(twice, [6], ([k]) => k! % 3);
  using grid = ga.tile(a, [2, 1, 2]);
  assertArray(grid, [2, 1, 6], ([, , k]) => k! % 3);
  using m = numbered([2, 3]);
  using wide = ga.tile(m.T, 2); // reps padded to [1, 2]
  assertArray(wide, [3, 4], ([i, j]) => digits([j! % 2, i!]));
  using none = ga.tile(m, [0, 2]);
  assert.deepEqual(none.shape, [0, 6]);
  assert.throws(() => ga.tile(m, -1), { name: "RangeError", message: /give non-negative integers/ });
});

eachBackend("pad() surrounds an array with constant margins, as NumPy's constant mode", () => {
  using a = numbered([2, 3]);
  using framed = ga.pad(a, 1);
  assertArray(
    framed,
    [4, 5],
    ([i, j]) => (i! >= 1 && i! <= 2 && j! >= 1 && j! <= 3 ? digits([i! - 1, j! - 1]) : 0),
  );
  using uneven = ga.pad(a.T, [[1, 0], [0, 2]], { constantValues: [[7, 8], [9, 10]] });
  // Margins of axis 0 first, then axis 1's over them: the corner takes axis 1's value.
  assertArray(uneven, [4, 4], ([i, j]) => (j! >= 2 ? 10 : i === 0 ? 7 : digits([j!, i! - 1])));
  using same = ga.pad(a, [2, 1], { constantValues: -1 });
  assertArray(
    same,
    [5, 6],
    ([i, j]) => (i! >= 2 && i! < 4 && j! >= 2 && j! < 5 ? digits([i! - 2, j! - 2]) : -1),
  );
  using ints = ga.pad(ga.asarray([1, 2], "int32"), [[1, 1]], { constantValues: 2.7 });
  assertArray(ints, [4], ([k]) => [2, 1, 2, 2][k!]!);
});

eachBackend("pad() refuses malformed widths and values its dtype cannot hold", () => {
  using a = ga.zeros([2, 3], "uint8");
  assert.throws(() => ga.pad(a, [1, 2, 3]), {
    name: "RangeError",
    message:
      "Cannot pad an array of shape [2, 3] with pad width [1,2,3]: give one value, [before, after], or one [before, after] for each of its 2 axes",
  });
  assert.throws(() => ga.pad(a, -1), { name: "RangeError", message: /widths must be non-negative integers/ });
  assert.throws(() => ga.pad(a, 1, { constantValues: 300 }), {
    name: "RangeError",
    message: /300 is out of uint8's range 0\.\.255/,
  });
  assert.throws(() => ga.pad(a, 1, { mode: "edge" as "constant" }), {
    name: "RangeError",
    message: /mode "constant" only/,
  });
});
