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
