import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

const values = (a: ga.GPUArray) => Array.from(a.get() as ArrayLike<number>, Number);

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
  "uniqueValues, uniqueCounts, uniqueInverse and uniqueAll match NumPy 2, each NaN its own value",
  () => {
    const host = [3, Number.NaN, 1, Number.NaN, 3, 2];
    const x = ga.asarray(host, "float64");
    // NumPy 2.5's unique_all of the same input.
    const all = ga.uniqueAll(x);
    assert.deepEqual(values(all.values).map((v) => (Number.isNaN(v) ? "nan" : v)), [1, 2, 3, "nan", "nan"]);
    assert.deepEqual(values(all.indices), [2, 5, 0, 1, 3]);
    assert.deepEqual(values(all.inverseIndices), [2, 3, 0, 4, 2, 1]);
    assert.deepEqual(values(all.counts), [1, 1, 2, 1, 1]);
    const [v, c] = ga.uniqueCounts(ga.asarray([3, 1, 3], "int32"));
    assert.deepEqual([values(v!), values(c!)], [[1, 3], [1, 2]]);
    const inv = ga.uniqueInverse(ga.asarray([[3, 1], [1, 2]], "int32"));
    assert.deepEqual([inv.inverseIndices.shape, values(inv.inverseIndices)], [[2, 2], [2, 0, 0, 1]]);
    assert.equal(ga.uniqueValues(ga.asarray([Number.NaN, 1], "float32")).size, 2);
    assert.deepEqual(values(ga.uniqueValues(x)).slice(0, 3), [1, 2, 3]);
  },
);
