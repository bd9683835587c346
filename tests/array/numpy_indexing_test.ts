import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

const values = (a: ga.GPUArray) => Array.from(a.get() as ArrayLike<number>, Number);

eachBackend(
  "putAlongAxis() writes per position along an axis in place as NumPy's put_along_axis, against a host loop",
  () => {
    // A 3-D float64 array, its middle axis, indices broadcasting over the last axis, values over both.
    const host = Array.from({ length: 24 }, (_, i) => i);
    const cube = ga.asarray(host, "float64").reshape([2, 3, 4]);
    const idx = [[[2, 0, -1, 1]], [[1, -3, 0, 2]]];
    const vals = [[[100, 101, 102, 103]], [[200, 201, 202, 203]]];
    ga.putAlongAxis(cube, ga.asarray(idx, "int32"), ga.asarray(vals, "float64"), 1);
    idx.forEach((plane, i) =>
      plane[0]!.forEach((j, k) => {
        host[i * 12 + ((j + 3) % 3) * 4 + k] = vals[i]![0]![k]!;
      })
    );
    assert.deepEqual(values(cube), host);
    // A scalar value, { axis }, and the flattened array with axis null.
    const x = ga.zeros([2, 3], "float32");
    ga.putAlongAxis(x, ga.asarray([[2], [0]], "int64"), 1, { axis: 1 });
    assert.deepEqual(values(x), [0, 0, 1, 1, 0, 0]);
    ga.putAlongAxis(x, ga.asarray([4, -1], "int32"), ga.asarray([7, 9], "float32"), null);
    assert.deepEqual(values(x), [0, 0, 1, 1, 7, 9]);
    // Into a transposed view: written through to its base.
    const base = ga.zeros([3, 2], "float32");
    ga.putAlongAxis(base.T, ga.asarray([[1], [2]], "int32"), 5, 1);
    assert.deepEqual(values(base), [0, 0, 5, 0, 0, 5]);
    assert.throws(() => ga.putAlongAxis(x, ga.asarray([[3], [0]], "int32"), 1, 1), {
      name: "RangeError",
      message: /putAlongAxis: an index along axis 1 is out of range for extent 3 \(-3 to 2\)/,
    });
    assert.throws(() => ga.putAlongAxis(x, ga.asarray([[0.5]], "float32"), 1, 1), {
      name: "TypeError",
      message: /putAlongAxis with float32 indices/,
    });
  },
);

eachBackend(
  "choose() picks per element the choice its index names, with modes raise, wrap and clip, as NumPy",
  () => {
    const pick = ga.asarray([0, 2, 1, 0], "int32");
    const choices = [ga.arange(4, "float32"), ga.full([4], 10, "float32"), ga.full([4], 20, "float32")];
    assert.deepEqual(values(ga.choose(pick, choices)), [0, 20, 10, 3]);
    // One array whose first axis holds the choices; a column of indices broadcasting against rows.
    const stacked = ga.asarray([[1, 2, 3], [4, 5, 6]], "float64");
    const column = ga.asarray([[1], [0]], "int8");
    const both = ga.choose(column, stacked);
    assert.deepEqual([both.shape, values(both)], [[2, 3], [4, 5, 6, 1, 2, 3]]);
    const odd = ga.asarray([3, -1, 5, -4], "int32"), two = [ga.zeros(4), ga.ones(4)];
    assert.deepEqual(values(ga.choose(odd, two, { mode: "wrap" })), [1, 1, 1, 0]);
    assert.deepEqual(values(ga.choose(odd, two, { mode: "clip" })), [1, 0, 1, 0]);
    assert.throws(() => ga.choose(ga.asarray([0, -1, 0, 1], "int32"), two), {
      name: "RangeError",
      message: /Cannot choose: an entry of a is out of range for 2 choices \(0 to 1\)/,
    });
    assert.throws(() => ga.choose(ga.asarray([0.5]), two), { name: "TypeError", message: /float32 indices/ });
    assert.throws(() => ga.choose(pick, []), RangeError);
    assert.throws(() => ga.choose(pick, two, { mode: "nearest" as never }), TypeError);
    // The gradient reaches each choice where it was picked.
    const halves = ga.asarray([0, 1, 1, 0], "int32");
    const g = ga.grad((c: ga.GPUArray) =>
      ga.sum(ga.choose(halves, [c, c.mul(3)]).mul(2)) as unknown as ga.GPUArray
    )(ga.arange(4, "float64"));
    assert.deepEqual(values(g), [2, 6, 6, 2]);
  },
);

eachBackend(
  "unravelIndex() and ravelMultiIndex() convert flat indices and coordinates as NumPy, both ways, with modes",
  () => {
    const shape = [3, 4, 5];
    const flat = [0, 7, 23, 59, 41];
    const coords = ga.unravelIndex(ga.asarray(flat, "int32"), shape);
    // The host's C-order coordinates.
    const host = shape.map((_, axis) =>
      flat.map((f) => Math.floor(f / shape.slice(axis + 1).reduce((p, d) => p * d, 1)) % shape[axis]!)
    );
    assert.deepEqual(coords.map(values), host);
    assert.deepEqual(values(ga.ravelMultiIndex(coords, shape)), flat);
    // Coordinates broadcasting: a column of rows against a row of columns.
    const grid = ga.ravelMultiIndex([ga.asarray([[0], [2]], "int64"), ga.asarray([1, 3], "int8")], [3, 4]);
    assert.deepEqual([grid.shape, values(grid)], [[2, 2], [1, 3, 9, 11]]);
    const odd = [ga.asarray([-1, 3], "int32"), ga.asarray([5, 0], "int32")];
    assert.deepEqual(values(ga.ravelMultiIndex(odd, [3, 4], { mode: "wrap" })), [2 * 4 + 1, 0]);
    assert.deepEqual(values(ga.ravelMultiIndex(odd, [3, 4], { mode: "clip" })), [3, 8]);
    assert.throws(() => ga.ravelMultiIndex(odd, [3, 4]), {
      name: "RangeError",
      message: /coordinate along axis 1 is out of range for extent 4/,
    });
    assert.throws(() => ga.unravelIndex(ga.asarray([60], "int32"), shape), {
      name: "RangeError",
      message: /out of range for shape \[3, 4, 5\] \(0 to 59\)/,
    });
    assert.throws(() => ga.unravelIndex(ga.asarray([-1], "int32"), shape), RangeError);
    assert.throws(() => ga.unravelIndex(ga.asarray([1.5]), shape), TypeError);
    assert.throws(() => ga.ravelMultiIndex([ga.asarray([0], "int32")], [3, 4]), RangeError);
  },
);

eachBackend(
  "flatnonzero, extract, place, putmask, copyto and fillDiagonal write and read as NumPy, against host loops",
  () => {
    const m = ga.asarray([[0, 2, 0], [3, 0, 4]], "float32");
    assert.deepEqual(values(ga.flatnonzero(m)), [1, 3, 5]);
    assert.deepEqual(values(ga.extract(m.gt(2), m)), [3, 4]);
    assert.throws(() => ga.extract(ga.ones(5), m), { name: "RangeError", message: /as many elements/ });
    // place: masked positions in order take the values, repeated.
    const p = ga.arange(6, "float32");
    ga.place(p, p.gt(2), ga.asarray([40, 50], "float32"));
    assert.deepEqual(values(p), [0, 1, 2, 40, 50, 40]);
    assert.throws(() => ga.place(p, p.gt(0), ga.asarray([], "float32")), RangeError);
    // putmask: position i takes values[i % size].
    const q = ga.arange(5, "float32");
    ga.putmask(q, q.gt(2), ga.asarray([10, 20], "float32"));
    assert.deepEqual(values(q), [0, 1, 2, 20, 10]);
    ga.putmask(q, q.lt(1), 7);
    assert.deepEqual(values(q), [7, 1, 2, 20, 10]);
    // copyto with a broadcast source and mask.
    const dst = ga.zeros([2, 3], "float32");
    ga.copyto(dst, ga.asarray([1, 2, 3], "float32"), { where: ga.asarray([true, false, true]) });
    assert.deepEqual(values(dst), [1, 0, 3, 1, 0, 3]);
    ga.copyto(dst, 9);
    assert.deepEqual(values(dst), [9, 9, 9, 9, 9, 9]);
    // fillDiagonal: square, tall with and without wrap (NumPy's positions), a cube.
    const host = (rows: number, cols: number, flat: number[]) =>
      Array.from({ length: rows * cols }, (_, i) => (flat.includes(i) ? 5 : 0));
    assert.deepEqual(values(ga.fillDiagonal(ga.zeros([3, 3]), 5)), host(3, 3, [0, 4, 8]));
    assert.deepEqual(values(ga.fillDiagonal(ga.zeros([5, 3]), 5)), host(5, 3, [0, 4, 8]));
    assert.deepEqual(values(ga.fillDiagonal(ga.zeros([5, 3]), 5, { wrap: true })), host(5, 3, [0, 4, 8, 12]));
    assert.deepEqual(values(ga.fillDiagonal(ga.zeros([2, 2, 2]), 5)), host(2, 4, [0, 7]));
    assert.throws(() => ga.fillDiagonal(ga.zeros([2, 3, 2]), 1), RangeError);
  },
);

eachBackend(
  "piecewise() keeps each piece where its condition holds, the last condition winning, as NumPy",
  () => {
    const host = [-2, -1, 0, 1, 2];
    const x = ga.asarray(host, "float64");
    const y = ga.piecewise(x, [x.lt(0), x.ge(0)], [(v) => v.neg(), (v) => v.mul(v)]);
    assert.deepEqual(values(y), host.map((v) => (v < 0 ? -v : v * v)));
    // Constants, an extra piece for elsewhere, and overlapping conditions (the later wins).
    const z = ga.piecewise(x, [x.gt(0), x.gt(1)], [10, 20, -1]);
    assert.deepEqual(values(z), host.map((v) => (v > 1 ? 20 : v > 0 ? 10 : -1)));
    // No piece for elsewhere: zero there; the result keeps x's dtype.
    const w = ga.piecewise(ga.asarray([1, 5, 9], "int32"), [ga.asarray([false, true, false])], [7]);
    assert.deepEqual([w.dtype, values(w)], ["int32", [0, 7, 0]]);
    assert.throws(() => ga.piecewise(x, [x.lt(0)], [1, 2, 3]), {
      name: "RangeError",
      message: /1 conditions and 3/,
    });
    assert.throws(() => ga.piecewise(x, [x], [1]), { name: "TypeError", message: /bool arrays/ });
  },
);
