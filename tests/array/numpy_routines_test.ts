import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

const values = (a: ga.GPUArray) => Array.from(a.get() as ArrayLike<number>, Number);

eachBackend("atleast1d/2d/3d add NumPy's axes; hstack, vstack, dstack and columnStack join as NumPy", () => {
  const s = ga.asarray(5, "float32"),
    v = ga.asarray([1, 2, 3], "float32"),
    m = ga.asarray([[1, 2], [3, 4]], "float32");
  assert.deepEqual([ga.atleast1d(s).shape, ga.atleast2d(s).shape, ga.atleast3d(s).shape], [[1], [1, 1], [
    1,
    1,
    1,
  ]]);
  assert.deepEqual([ga.atleast2d(v).shape, ga.atleast3d(v).shape, ga.atleast3d(m).shape], [
    [1, 3],
    [1, 3, 1],
    [2, 2, 1],
  ]);
  assert.equal(ga.atleast1d(v), v);
  const h = ga.hstack([v, ga.asarray([4, 5], "float32")]);
  assert.deepEqual([h.shape, values(h)], [[5], [1, 2, 3, 4, 5]]);
  const h2 = ga.hstack([m, ga.asarray([[9], [8]], "float32")]);
  assert.deepEqual([h2.shape, values(h2)], [[2, 3], [1, 2, 9, 3, 4, 8]]);
  const vs = ga.vstack([v, ga.asarray([[4, 5, 6], [7, 8, 9]], "float32")]);
  assert.deepEqual([vs.shape, values(vs)], [[3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  const d = ga.dstack([m, m.mul(10)]);
  assert.deepEqual([d.shape, values(d)], [[2, 2, 2], [1, 10, 2, 20, 3, 30, 4, 40]]);
  const c = ga.columnStack([v, v.mul(2)]);
  assert.deepEqual([c.shape, values(c)], [[3, 2], [1, 2, 2, 4, 3, 6]]);
  assert.throws(() => ga.vstack([v, ga.ones([2])]), RangeError);
  assert.throws(() => ga.hstack([]), TypeError);
});

eachBackend(
  "diag() builds a matrix from a vector on any diagonal and reads one back; diagflat flattens first",
  () => {
    const v = ga.asarray([1, 2, 3], "float64");
    const d = ga.diag(v);
    assert.deepEqual([d.shape, values(d)], [[3, 3], [1, 0, 0, 0, 2, 0, 0, 0, 3]]);
    const above = ga.diag(ga.asarray([7, 8], "float64"), 1);
    assert.deepEqual([above.shape, values(above)], [[3, 3], [0, 7, 0, 0, 0, 8, 0, 0, 0]]);
    const below = ga.diag(ga.asarray([7], "float64"), -2);
    assert.deepEqual(values(below), [0, 0, 0, 0, 0, 0, 7, 0, 0]);
    assert.deepEqual(values(ga.diag(d)), [1, 2, 3]);
    assert.deepEqual(values(ga.diag(ga.arange(9, "float64").reshape([3, 3]), -1)), [3, 7]);
    assert.deepEqual(values(ga.diagflat(ga.asarray([[1, 2], [3, 4]], "float64"))).filter((x) => x !== 0), [
      1,
      2,
      3,
      4,
    ]);
    assert.throws(() => ga.diag(ga.ones([2, 2, 2])), RangeError);
    // The gradient of sum(diag(v) * w) is w's diagonal.
    const w = ga.asarray([[1, 2, 3], [4, 5, 6], [7, 8, 9]], "float64");
    const g = ga.grad((v: ga.GPUArray) => ga.sum(ga.diag(v).mul(w)) as unknown as ga.GPUArray)(v);
    assert.deepEqual(values(g), [1, 5, 9]);
  },
);

eachBackend("logspace() and geomspace() match NumPy's sequences, ends exact", () => {
  const near = (got: number[], want: number[], rel: number) =>
    got.forEach((x, i) =>
      assert.ok(Math.abs(x - want[i]!) <= rel * Math.abs(want[i]!), `${i}: ${x} vs ${want[i]}`)
    );
  near(values(ga.logspace(0, 3, 4)), [1, 10, 100, 1000], 1e-6);
  near(values(ga.logspace(0, 4, 5, { base: 2, dtype: "float64" })), [1, 2, 4, 8, 16], 1e-14);
  near(values(ga.logspace(1, 2, 4, { endpoint: false, dtype: "float64" })), [
    10,
    10 ** 1.25,
    10 ** 1.5,
    10 ** 1.75,
  ], 1e-14);
  const g = values(ga.geomspace(1, 256, 9, "float64"));
  near(g, [1, 2, 4, 8, 16, 32, 64, 128, 256], 1e-14);
  assert.deepEqual([g[0], g[8]], [1, 256]);
  const down = values(ga.geomspace(-1000, -1, 4, "float64"));
  near(down, [-1000, -100, -10, -1], 1e-14);
  assert.deepEqual([down[0], down[3]], [-1000, -1]);
  assert.throws(() => ga.geomspace(0, 10), { name: "RangeError", message: /cannot include zero/ });
  assert.throws(() => ga.geomspace(-1, 10), { name: "RangeError", message: /ends of one sign/ });
  assert.throws(() => ga.logspace(0, 1, 3, { base: Infinity }), RangeError);
});

eachBackend("nanToNum() replaces NaN and the infinities, in float, complex and integer arrays", () => {
  const x = ga.asarray([NaN, Infinity, -Infinity, 1.5], "float64");
  assert.deepEqual(values(ga.nanToNum(x)), [0, Number.MAX_VALUE, -Number.MAX_VALUE, 1.5]);
  assert.deepEqual(values(ga.nanToNum(x, { nan: -1, posinf: 100, neginf: -100 })), [-1, 100, -100, 1.5]);
  const f = ga.asarray([Infinity, NaN], "float32");
  assert.deepEqual(values(ga.nanToNum(f)), [3.4028234663852886e38, 0]);
  const z = ga.complex(ga.asarray([NaN, 1], "float64"), ga.asarray([2, -Infinity], "float64"));
  assert.deepEqual(values(ga.nanToNum(z)), [0, 2, 1, -Number.MAX_VALUE]);
  const i = ga.asarray([1, 2], "int32");
  const copied = ga.nanToNum(i);
  assert.notEqual(copied, i);
  assert.deepEqual(values(copied), [1, 2]);
  assert.throws(() => ga.nanToNum(x, { nan: "0" as unknown as number }), TypeError);
  // The gradient flows to the kept elements only.
  const g = ga.grad((x: ga.GPUArray) => ga.sum(ga.nanToNum(x).mul(2)) as unknown as ga.GPUArray)(x);
  assert.deepEqual(values(g), [0, 0, 0, 2]);
});

eachBackend(
  "takeAlongAxis() gathers per position along an axis as NumPy, broadcasting, and scatters its gradient back",
  () => {
    const x = ga.asarray([[10, 30, 20], [60, 40, 50]], "float64");
    assert.deepEqual(values(ga.takeAlongAxis(x, ga.argmax(x, 1, { keepdims: true }), 1)), [30, 60]);
    assert.deepEqual(values(ga.takeAlongAxis(x, ga.argsort(x, 1), { axis: 1 })), [10, 20, 30, 40, 50, 60]);
    // Indices [1, 3] along axis 0 broadcast over both rows' columns.
    const along0 = ga.takeAlongAxis(x, ga.asarray([[1, 0, 1]], "int32"), 0);
    assert.deepEqual([along0.shape, values(along0)], [[1, 3], [60, 30, 50]]);
    assert.deepEqual(values(ga.takeAlongAxis(x, ga.asarray([[-1], [0]], "int64"), 1)), [20, 60]);
    assert.deepEqual(values(ga.takeAlongAxis(x, ga.asarray([5, 0], "int32"), null)), [50, 10]);
    // A 3-D array along its middle axis against a host loop.
    const cube = ga.arange(24, "float64").reshape([2, 3, 4]);
    const idx = ga.asarray([[[2, 0, 1, 2]], [[1, 1, 0, 2]]], "int32");
    const host = [[[2, 0, 1, 2]], [[1, 1, 0, 2]]].flatMap((plane, i) =>
      plane[0]!.map((j, k) => i * 12 + j * 4 + k)
    );
    assert.deepEqual(values(ga.takeAlongAxis(cube, idx, 1)), host);
    assert.throws(() => ga.takeAlongAxis(x, ga.asarray([[3], [0]], "int32"), 1), {
      name: "RangeError",
      message: /takeAlongAxis: an index along axis 1 is out of range for extent 3 \(-3 to 2\)/,
    });
    assert.throws(() => ga.takeAlongAxis(x, ga.asarray([1], "int32"), 1), RangeError);
    assert.throws(() => ga.takeAlongAxis(x, ga.asarray([[0.5]], "float32"), 1), TypeError);
    const g = ga.grad((x: ga.GPUArray) =>
      ga.sum(ga.takeAlongAxis(x, ga.asarray([[2, 2], [0, 1]], "int32"), 1)) as unknown as ga.GPUArray
    )(x);
    assert.deepEqual(values(g), [0, 0, 2, 1, 1, 0]);
  },
);

eachBackend(
  "select() takes the first condition that holds, else the fallback, broadcasting, as NumPy",
  () => {
    const x = ga.arange(6, "float32");
    assert.deepEqual(values(ga.select([x.lt(2), x.gt(3)], [x, x.mul(10)], -1)), [0, 1, -1, -1, 40, 50]);
    // Overlapping conditions: the first wins; scalars and a broadcast row as choices.
    const m = ga.arange(6, "float64").reshape([2, 3]);
    const row = ga.asarray([100, 200, 300], "float64");
    assert.deepEqual(values(ga.select([m.ge(4), m.ge(1)], [row, 7])), [0, 7, 7, 7, 200, 300]);
    assert.throws(() => ga.select([x.lt(2)], []), RangeError);
    assert.throws(() => ga.select([x], [x]), { name: "TypeError", message: /condition 0 of dtype float32/ });
    // The gradient reaches each choice where it was taken.
    const g = ga.grad((x: ga.GPUArray) =>
      ga.sum(ga.select([x.lt(2), x.gt(3)], [x.mul(3), x.mul(x)], 0)) as unknown as ga.GPUArray
    )(ga.arange(6, "float64"));
    assert.deepEqual(values(g), [3, 3, 0, 0, 8, 10]);
  },
);

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
  "permuteDims, matrixTranspose, vecdot, matvec, vecmat and the broadcast helpers follow NumPy 2, against host products",
  () => {
    const a = ga.arange(24, "float64").reshape([2, 3, 4]);
    const p = ga.permuteDims(a, [2, 0, 1]);
    assert.deepEqual(p.shape, [4, 2, 3]);
    assert.equal(values(p)[1], 4); // p[0, 0, 1] = a[0, 1, 0]
    assert.deepEqual(ga.matrixTranspose(a).shape, [2, 4, 3]);
    assert.throws(() => ga.matrixTranspose(ga.zeros([3])), {
      name: "RangeError",
      message: /at least 2 dimensions/,
    });
    assert.throws(() => ga.permuteDims(a, [0, 1]), RangeError);
    // vecdot along the last axis and along axis 0 by position, broadcasting, against host sums.
    const m = [[1, 2, 3], [4, 5, 6]], v = [7, 8, 9];
    const x = ga.asarray(m, "float64"), w = ga.asarray(v, "float64");
    assert.deepEqual(values(ga.vecdot(x, w)), m.map((r) => r.reduce((s, e, j) => s + e * v[j]!, 0)));
    assert.deepEqual(values(ga.vecdot(x, x, 0)), [1 + 16, 4 + 25, 9 + 36]);
    assert.deepEqual(values(ga.vecdot(x, x, { axis: -2 })), [17, 29, 45]);
    assert.throws(() => ga.vecdot(x, ga.ones([1])), { name: "RangeError", message: /one length/ });
    // Complex: vecdot and vecmat conjugate the first operand, matvec does not.
    const z = ga.complex(ga.asarray([1, 0]), ga.asarray([1, 2])); // [1+1i, 2i]
    assert.deepEqual(Array.from(ga.vecdot(z, z).get() as Float32Array), [6, 0]); // |1+i|² + |2i|²
    assert.deepEqual(values(ga.matvec(x, w)), [50, 122]);
    assert.deepEqual(values(ga.vecmat(ga.asarray([1, 1], "float64"), x)), [5, 7, 9]);
    const batch = ga.matvec(ga.stack([x, x.mul(2)]), w);
    assert.deepEqual([batch.shape, values(batch)], [[2, 2], [50, 122, 100, 244]]);
    assert.throws(() => ga.matvec(w, w), RangeError);
    const [b1, b2] = ga.broadcastArrays(ga.zeros([3, 1]), ga.ones([4]));
    assert.deepEqual([b1!.shape, b2!.shape], [[3, 4], [3, 4]]);
    assert.deepEqual(ga.broadcastShapes([3, 1], [4], []), [3, 4]);
    assert.throws(() => ga.broadcastShapes([3], [4]), RangeError);
    assert.throws(() => ga.broadcastShapes([-1]), TypeError);
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
  "polyval, vander, polyder, polyint and polyfit match NumPy's values, computed on the host",
  () => {
    // Horner on the host: 2x³ - x + 4 at a few points, float64.
    const p = [2, 0, -1, 4], xs = [-1.5, 0, 0.5, 2];
    const at = (c: number[], x: number) => c.reduce((y, a) => y * x + a, 0);
    const y = ga.polyval(ga.asarray(p, "float64"), ga.asarray(xs, "float64"));
    assert.deepEqual(values(y), xs.map((x) => at(p, x)));
    assert.deepEqual(ga.polyval(ga.asarray(p, "float64"), ga.asarray(2, "float64")).shape, []);
    assert.deepEqual(values(ga.polyval(ga.asarray([], "float64"), ga.asarray([1, 2], "float64"))), [0, 0]);
    const v = ga.vander(ga.asarray([1, 2, 3], "int32"), 3);
    assert.deepEqual([v.shape, values(v)], [[3, 3], [1, 1, 1, 4, 2, 1, 9, 3, 1]]);
    assert.deepEqual(values(ga.vander(ga.asarray([1, 2], "float64"), 3, { increasing: true })), [
      1,
      1,
      1,
      1,
      2,
      4,
    ]);
    assert.deepEqual(values(ga.polyder(ga.asarray([1, 3, 2, 5], "int32"))), [3, 6, 2]);
    assert.deepEqual(values(ga.polyder(ga.asarray([1, 2, 3], "int32"), 2)), [2]);
    assert.equal(ga.polyder(ga.asarray([5], "int32")).size, 0);
    assert.deepEqual(values(ga.polyint(ga.asarray([3, 2, 1], "int32"))), [1, 1, 1, 0]);
    const twice = values(ga.polyint(ga.asarray([1, 2], "float64"), 2, 3));
    [1 / 6, 1, 3, 3].forEach((want, i) => assert.ok(Math.abs(twice[i]! - want) < 1e-15, `polyint ${i}`));
    // polyfit recovers a cubic from exact samples, and fits two columns at once.
    const cubic = [0.5, -2, 1, 3], px = Array.from({ length: 12 }, (_, i) => i / 3 - 2);
    const fit = values(
      ga.polyfit(ga.asarray(px, "float64"), ga.asarray(px.map((x) => at(cubic, x)), "float64"), 3),
    );
    cubic.forEach((c, i) => assert.ok(Math.abs(fit[i]! - c) < 1e-9, `polyfit coefficient ${i}: ${fit[i]}`));
    const cols = ga.polyfit(ga.asarray([0, 1, 2, 3]), ga.asarray([[1, 0], [3, 1], [5, 2], [7, 3]]), 1);
    assert.deepEqual(cols.shape, [2, 2]);
    values(cols).forEach((c, i) => assert.ok(Math.abs(c - [2, 1, 1, 0][i]!) < 1e-5, `two fits ${i}: ${c}`));
    assert.throws(() => ga.polyval(ga.ones([2, 2]), ga.ones(3)), {
      name: "RangeError",
      message: /1-D array/,
    });
    assert.throws(() => ga.polyfit(ga.ones(3), ga.ones(4), 1), RangeError);
    assert.throws(() => ga.polyder(ga.ones(3), -1), RangeError);
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
  "hsplit, vsplit, dsplit, resize, trimZeros and arrayEquiv follow NumPy, against host values",
  () => {
    const x = ga.arange(24, "float32").reshape([2, 3, 4]);
    const [left, right] = ga.hsplit(x, [1]);
    assert.deepEqual([left!.shape, right!.shape], [[2, 1, 4], [2, 2, 4]]);
    assert.deepEqual(ga.hsplit(ga.arange(6, "float32"), 3).map((p) => values(p)), [[0, 1], [2, 3], [4, 5]]);
    assert.deepEqual(ga.vsplit(x, 2).map((p) => p.shape), [[1, 3, 4], [1, 3, 4]]);
    const planes = ga.dsplit(x, 2);
    assert.deepEqual([planes[1]!.shape, values(planes[1]!).slice(0, 2)], [[2, 3, 2], [2, 3]]);
    assert.throws(() => ga.vsplit(ga.arange(4, "float32"), 2), { name: "RangeError", message: /at least 2/ });
    assert.throws(() => ga.dsplit(ga.zeros([2, 2]), 2), RangeError);
    // resize: the flattened input cyclically, zeros from nothing.
    const r = ga.resize(ga.asarray([1, 2, 3], "float32"), [2, 4]);
    assert.deepEqual([r.shape, values(r)], [[2, 4], [1, 2, 3, 1, 2, 3, 1, 2]]);
    assert.deepEqual(values(ga.resize(ga.asarray([[1, 2], [3, 4]], "int32"), 3)), [1, 2, 3]);
    assert.deepEqual(values(ga.resize(ga.zeros([0]), [2])), [0, 0]);
    assert.throws(() => ga.resize(x, [-1]), TypeError);
    // trimZeros, both ends and one.
    const z = ga.asarray([0, 0, 1, 0, 2, 0], "float32");
    assert.deepEqual(values(ga.trimZeros(z)), [1, 0, 2]);
    assert.deepEqual(values(ga.trimZeros(z, "f")), [1, 0, 2, 0]);
    assert.deepEqual(values(ga.trimZeros(z, "b")), [0, 0, 1, 0, 2]);
    assert.equal(ga.trimZeros(ga.zeros([3])).size, 0);
    assert.throws(() => ga.trimZeros(ga.zeros([2, 2])), RangeError);
    // arrayEquiv: broadcasting shapes with equal elements.
    assert.equal(ga.arrayEquiv(ga.asarray([1, 2]), ga.asarray([[1, 2], [1, 2]])), true);
    assert.equal(ga.arrayEquiv(ga.asarray([1, 2]), ga.asarray([[1, 2], [1, 3]])), false);
    assert.equal(ga.arrayEquiv(ga.asarray([1, 2]), ga.asarray([1, 2, 3])), false);
  },
);

eachBackend("amax and amin are NumPy's names for max and min, and their errors say amax and amin", () => {
  const x = ga.asarray([[3, 1], [0, 5]], "float32");
  assert.equal(ga.amax(x), 5);
  assert.deepEqual(values(ga.amin(x, 1)), [1, 0]);
  assert.deepEqual(values(ga.amax(x, { axis: 0, keepdims: true })), [3, 5]);
  assert.throws(() => ga.amax(ga.zeros([0])), {
    name: "RangeError",
    message: /Cannot take the amax of an empty array/,
  });
  assert.throws(() => ga.amin(x, 2), { name: "RangeError", message: /axis 2 is out of range/ });
  assert.throws(() => ga.amin(x, "0" as never), { name: "TypeError", message: /amin/ });
});

eachBackend(
  "isposinf, isneginf, iscomplex, isreal, iscomplexobj, isrealobj, fix and around follow NumPy",
  () => {
    const x = ga.asarray([Infinity, -Infinity, 1, Number.NaN, -0.5], "float64");
    assert.deepEqual(values(ga.isposinf(x)), [1, 0, 0, 0, 0]);
    assert.deepEqual(values(ga.isneginf(x)), [0, 1, 0, 0, 0]);
    const z = ga.complex(ga.asarray([1, 2, 0]), ga.asarray([0, 3, -1]));
    assert.deepEqual(values(ga.iscomplex(z)), [0, 1, 1]);
    assert.deepEqual(values(ga.isreal(z)), [1, 0, 0]);
    assert.deepEqual([values(ga.iscomplex(x)), values(ga.isreal(x))], [[0, 0, 0, 0, 0], [1, 1, 1, 1, 1]]);
    assert.deepEqual([ga.iscomplexobj(z), ga.isrealobj(z), ga.iscomplexobj(x), ga.isrealobj(x)], [
      true,
      false,
      false,
      true,
    ]);
    assert.deepEqual(values(ga.fix(ga.asarray([-1.5, 2.7, -0.2], "float64"))), [-1, 2, -0]);
    assert.deepEqual(values(ga.around(ga.asarray([0.5, 1.5, 2.5, -0.5], "float64"))), [0, 2, 2, -0]);
  },
);

eachBackend(
  "cumulativeSum and cumulativeProd follow NumPy 2: the axis required past 1-D, includeInitial",
  () => {
    assert.deepEqual(values(ga.cumulativeSum(ga.asarray([1, 2, 3], "float32"))), [1, 3, 6]);
    assert.deepEqual(values(ga.cumulativeSum(ga.asarray([1, 2, 3], "float32"), { includeInitial: true })), [
      0,
      1,
      3,
      6,
    ]);
    const m = ga.asarray([[1, 2], [3, 4]], "int32");
    const p = ga.cumulativeProd(m, 1, { includeInitial: true });
    assert.deepEqual([p.shape, values(p)], [[2, 3], [1, 1, 2, 1, 3, 12]]);
    const s = ga.cumulativeSum(m, { axis: 0, dtype: "float64" });
    assert.deepEqual([s.dtype, values(s)], ["float64", [1, 2, 4, 6]]);
    assert.throws(() => ga.cumulativeSum(m), { name: "TypeError", message: /without an axis/ });
    assert.throws(() => ga.cumulativeSum(ga.asarray(3)), RangeError);
  },
);

eachBackend(
  "block() assembles nested lists as NumPy: inner lists along the last axis, leading axes added",
  () => {
    const a = ga.asarray([[1, 2], [3, 4]], "float32"), z = ga.zeros([2, 2], "float32");
    const m = ga.block([[a, z], [z, a.mul(2)]]);
    assert.deepEqual(m.shape, [4, 4]);
    assert.deepEqual(values(m), [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 2, 4, 0, 0, 6, 8]);
    // 1-D blocks in one list join end to end; in two lists they become rows.
    const v = ga.asarray([1, 2], "float32"), w = ga.asarray([3], "float32");
    assert.deepEqual(values(ga.block([v, w])), [1, 2, 3]);
    const rows = ga.block([[v], [ga.asarray([5, 6], "float32")]]);
    assert.deepEqual([rows.shape, values(rows)], [[2, 2], [1, 2, 5, 6]]);
    assert.deepEqual(values(ga.block(v)), [1, 2]);
    assert.throws(() => ga.block([]), { name: "RangeError", message: /empty list at arrays/ });
    assert.throws(() => ga.block([[v], w]), { name: "RangeError", message: /different depths/ });
    const g = ga.grad((x: ga.GPUArray) => ga.sum(ga.block([[x, x.mul(3)]])) as unknown as ga.GPUArray)(
      ga.ones([2, 2], "float64"),
    );
    assert.deepEqual(values(g), [4, 4, 4, 4]);
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
