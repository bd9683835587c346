/**
 * The inverse error functions, i0, expit, logit, xlogy and the regularised incomplete gamma functions
 * (issue 33 item 3), against SciPy 1.17.1's values (computed on the host beside this test, pasted here)
 * and host formulas, in float64 and float32; and their gradients against finite differences.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { checkGrad, randomPair, rng } from "../nn/_host.ts";

/** SciPy's values: `scipy.special.<name>(points)` in float64. */
const SCIPY: Record<string, [number[], number[]]> = {
  erfinv: [
    [-0.999999, -0.9, -0.5, -1e-8, 0, 0.3, 0.7, 0.99, 0.9999999999],
    [
      -3.458910737275499,
      -1.1630871536766743,
      -0.4769362762044699,
      -8.86226925452758e-9,
      0,
      0.2724627147267544,
      0.7328690779592169,
      1.8213863677184496,
      4.572824958544925,
    ],
  ],
  erfcinv: [
    [1e-300, 1e-100, 1e-20, 1e-10, 1e-3, 0.3, 1, 1.4, 1.9, 1.999999999],
    [
      26.209469960516124,
      15.065574702592647,
      6.601580622355143,
      4.572824967389486,
      2.3267537655135246,
      0.7328690779592171,
      0,
      -0.3708071585935579,
      -1.1630871536766738,
      -4.320005375575316,
    ],
  ],
  i0: [
    [0, 0.1, 1, 3.75, 10, 29.9, 30.1, 100, 700, -5],
    [
      1,
      1.0025015629340956,
      1.2660658777520082,
      9.118945860844567,
      2815.716628466254,
      708478330489.0146,
      862432920031.7792,
      1.0737517071310738e42,
      1.5295933476718735e302,
      27.239871823604442,
    ],
  ],
};
const A = [0.5, 2, 2, 10, 100, 3.5, 0.1, 50], X = [1, 0.5, 1, 5, 110, 20, 0.01, 49];
const GAMMAINC = [
  0.8427007929497151,
  0.09020401043104986,
  0.2642411176571153,
  0.03182805730620481,
  0.8417213299399129,
  0.9999987412096126,
  0.6626212599544796,
  0.46210439360094024,
];
const GAMMAINCC = [
  0.15729920705028105,
  0.9097959895689501,
  0.7357588823428847,
  0.9681719426937951,
  0.15827867006008706,
  1.258790387371308e-6,
  0.3373787400455204,
  0.5378956063990598,
];

function assertRelative(got: ArrayLike<number>, want: readonly number[], rtol: number, what: string): void {
  assert.equal(got.length, want.length, what);
  want.forEach((w, i) => {
    const g = got[i]!;
    const ok = Number.isNaN(w)
      ? Number.isNaN(g)
      : !Number.isFinite(w)
      ? g === w
      : Math.abs(g - w) <= rtol * Math.max(Math.abs(w), 1e-300);
    assert.ok(ok, `${what}[${i}]: got ${g}, want ${w}`);
  });
}

const call = (name: string, ...args: ga.GPUArray[]) =>
  (ga as unknown as Record<string, (...a: ga.GPUArray[]) => ga.GPUArray>)[name]!(...args);

eachBackend("erfinv, erfcinv and i0 match SciPy's values in float64, float32 to its precision", () => {
  for (const [name, [points, want]] of Object.entries(SCIPY)) {
    assertRelative(
      call(name, ga.asarray(points, "float64")).get() as Float64Array,
      want,
      1e-13,
      `${name} float64`,
    );
  }
  assertRelative(
    ga.erfinv(ga.asarray([-1, 1, 1.5, NaN], "float64")).get() as Float64Array,
    [-Infinity, Infinity, NaN, NaN],
    0,
    "erfinv edges",
  );
  assertRelative(
    ga.erfcinv(ga.asarray([0, 2, -0.5, NaN], "float64")).get() as Float64Array,
    [Infinity, -Infinity, NaN, NaN],
    0,
    "erfcinv edges",
  );
  // float32: i0 within float32's precision (past its range, infinity); erf(erfinv(x)) is x.
  const [points, want] = SCIPY.i0!;
  const f32 = want.map((w) => (Math.abs(w) > 3.4e38 ? Infinity : w));
  assertRelative(ga.i0(ga.asarray(points)).get() as Float32Array, f32, 1e-5, "i0 float32");
  const xs = [-0.99, -0.5, 0.001, 0.25, 0.9];
  assertRelative(
    ga.erf(ga.erfinv(ga.asarray(xs))).get() as Float32Array,
    xs.map(Math.fround),
    3e-6,
    "erf(erfinv) float32",
  );
});

eachBackend("expit, logit and xlogy match their formulas, with no overflow and SciPy's zeros", () => {
  const xs = [-1000, -30, -1, 0, 0.5, 3, 40, 1000];
  const expit = xs.map((x) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x))));
  assertRelative(ga.expit(ga.asarray(xs, "float64")).get() as Float64Array, expit, 1e-15, "expit");
  const ps = [0, 1e-10, 0.25, 0.5, 0.9, 1, 1.5, -0.1];
  const logit = ps.map((p) => Math.log(p / (1 - p)));
  assertRelative(ga.logit(ga.asarray(ps, "float64")).get() as Float64Array, logit, 1e-14, "logit");
  const a = [0, 0, 0, 2, -1, 3], b = [0, NaN, 5, 3, 0.5, 0];
  const xlogy = a.map((x, i) => (x === 0 && !Number.isNaN(b[i]!) ? 0 : x * Math.log(b[i]!)));
  assertRelative(
    ga.xlogy(ga.asarray(a, "float64"), ga.asarray(b, "float64")).get() as Float64Array,
    xlogy,
    1e-15,
    "xlogy",
  );
});

eachBackend("gammainc and gammaincc match SciPy's values, with NaN outside their domain", () => {
  const a = ga.asarray(A, "float64"), x = ga.asarray(X, "float64");
  assertRelative(ga.gammainc(a, x).get() as Float64Array, GAMMAINC, 1e-12, "gammainc");
  assertRelative(ga.gammaincc(a, x).get() as Float64Array, GAMMAINCC, 1e-11, "gammaincc");
  assertRelative(
    ga.gammainc(ga.asarray(A), ga.asarray(X)).get() as Float32Array,
    GAMMAINC,
    2e-5,
    "gammainc float32",
  );
  assertRelative(
    ga.gammainc(ga.asarray([0, -1, 2, 2], "float64"), ga.asarray([1, 1, -1, Infinity], "float64"))
      .get() as Float64Array,
    [NaN, NaN, NaN, 1],
    0,
    "gammainc edges",
  );
});

eachBackend(
  "gradients of the inverse error functions, expit, logit, xlogy and gammainc's x match finite differences",
  () => {
    const random = rng(41);
    const [u] = randomPair([5], random, -0.9, 0.9), [p] = randomPair([5], random, 0.1, 0.9);
    const [y] = randomPair([5], random, 0.5, 3), [r] = randomPair([5], random);
    const weighted = (f: (t: ga.GPUArray) => ga.GPUArray) => (t: ga.GPUArray) => ga.sum(f(t).mul(r), 0);
    checkGrad(weighted(ga.erfinv), [u], [0], random, "erfinv");
    checkGrad(weighted((t) => ga.erfcinv(t.add(1))), [u], [0], random, "erfcinv");
    checkGrad(weighted(ga.expit), [u], [0], random, "expit");
    checkGrad(weighted(ga.logit), [p], [0], random, "logit");
    checkGrad((a, b) => ga.sum(ga.xlogy(a, b).mul(r), 0), [u, y], [0, 1], random, "xlogy");
    checkGrad((x) => ga.sum(ga.gammainc(2.5, x).mul(r), 0), [y], [0], random, "gammainc x");
    checkGrad((x) => ga.sum(ga.gammaincc(y, x).mul(r), 0), [y], [0], random, "gammaincc x");
    assert.throws(() => ga.grad((a: ga.GPUArray) => ga.sum(ga.gammainc(a, y), 0))(y), /with respect to a/);
    assert.throws(() => ga.grad((t: ga.GPUArray) => ga.sum(ga.i0(t), 0))(y), /i0/);
  },
);
