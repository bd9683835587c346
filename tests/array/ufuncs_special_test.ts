import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { digamma, erf, erfc, lgamma } from "./_reference_special.ts";

/** Asserts `got` is `want` within `rtol` relative (and as much absolute), NaN and infinities exactly. */
function assertClose(got: ArrayLike<number>, want: readonly number[], rtol: number, what: string): void {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!, w = want[i]!;
    if (Number.isNaN(w) || !Number.isFinite(w)) {
      assert.ok(
        Object.is(g, w) || (Number.isNaN(w) && Number.isNaN(g)),
        `${what}[${i}]: got ${g}, want ${w}`,
      );
      continue;
    }
    assert.ok(Math.abs(g - w) <= rtol * Math.max(1, Math.abs(w)), `${what}[${i}]: got ${g}, want ${w}`);
  }
}

const UNARY: readonly [string, (x: number) => number, readonly number[]][] = [
  ["exp2", (x) => 2 ** x, [-3, -0.5, 0, 1, 10.25, -Infinity, NaN]],
  ["cbrt", Math.cbrt, [-27, -0.001, 0, 1, 8, 1e6, Infinity]],
  ["arcsinh", Math.asinh, [-3, -0.1, 0, 0.5, 20]],
  ["arccosh", Math.acosh, [1, 1.5, 3, 100]],
  ["arctanh", Math.atanh, [-0.9, -0.1, 0, 0.5, 0.99]],
  ["erf", erf, [-4, -1.5, -0.3, 0, 0.1, 0.9, 2, 2.6, 6, Infinity, NaN]],
  ["erfc", erfc, [-2, -0.5, 0, 0.4, 1.7, 2.5, 4, 9, Infinity]],
  ["lgamma", lgamma, [0.001, 0.5, 1.5, 2.5, 3.7, 10, 57.3, 170.5, -0.5, -2.5, -7.25]],
  ["digamma", digamma, [0.01, 0.5, 1, 1.5, 2, 3.3, 9.9, 10, 37.2, 1e4, -0.5, -1.5, -2.25, -3, 0]],
  ["sinc", (x) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x)), [-2.5, -1, -0.25, 0, 0.5, 1, 3.3]],
  ["deg2rad", (x) => (x * Math.PI) / 180, [-180, 0, 45, 90, 360]],
  ["rad2deg", (x) => (x * 180) / Math.PI, [-Math.PI, 0, 1, Math.PI / 2]],
];

eachBackend(
  "the special and float ufuncs of the op table match float64 host references in float32 and float64",
  () => {
    for (const [name, ref, values] of UNARY) {
      const fn = (ga as unknown as Record<string, (a: ga.GPUArray) => ga.GPUArray>)[name]!;
      for (const dtype of ["float32", "float64"] as const) {
        if (dtype === "float64" && !supportsF64()) continue;
        using x = ga.asarray(values, dtype);
        using y = fn(x);
        assert.equal(y.dtype, dtype, `${name} keeps ${dtype}`);
        const want = values.map((v) => Math.fround(ref(dtype === "float32" ? Math.fround(v) : v)));
        assertClose(
          y.get() as Float32Array,
          dtype === "float32" ? want : values.map(ref),
          dtype === "float32" ? 2e-5 : 1e-12,
          `${name}(${dtype})`,
        );
      }
    }
  },
);

/** Whether the array backend computes in float64 (PoCL and NVIDIA's OpenCL do; some devices do not). */
function supportsF64(): boolean {
  try {
    using probe = ga.zeros(1, "float64");
    return probe.dtype === "float64";
  } catch {
    return false;
  }
}

eachBackend("float ufuncs of integer arrays compute in float32 (8/16-bit) or float64 (32/64-bit)", () => {
  using small = ga.asarray([1, 8, 27], "int16");
  using r16 = ga.cbrt(small);
  assert.equal(r16.dtype, "float32");
  assertClose(r16.get() as Float32Array, [1, 2, 3], 1e-6, "cbrt(int16)");
  using big = ga.asarray([0, 1, 2], "int32");
  using e = ga.erf(big);
  assert.equal(e.dtype, "float64");
  assertClose(e.get() as Float64Array, [0, erf(1), erf(2)], 1e-12, "erf(int32)");
});

eachBackend(
  "copysign, logaddexp, logaddexp2 and heaviside match host references, broadcasting and with scalars",
  () => {
    const a = [-2, -0.5, 0, 1, 700, 1000, -Infinity, NaN];
    const b = [3, -1, -0, 1, 700, -1000, -Infinity, 2];
    using x = ga.asarray(a, "float64"), y = ga.asarray(b, "float64");
    const lae = (p: number, q: number) =>
      p === q ? p + Math.LN2 : Math.max(p, q) + Math.log1p(Math.exp(-Math.abs(p - q)));
    const lae2 = (p: number, q: number) =>
      p === q ? p + 1 : Math.max(p, q) + Math.log2(1 + 2 ** -Math.abs(p - q));
    const cases: [ga.GPUArray, (p: number, q: number) => number][] = [
      [ga.copysign(x, y), (p, q) => (Object.is(q, -0) || q < 0 ? -Math.abs(p) : Math.abs(p))],
      [ga.logaddexp(x, y), lae],
      [ga.logaddexp2(x, y), lae2],
      [ga.heaviside(x, y), (p, q) => (Number.isNaN(p) ? NaN : p < 0 ? 0 : p > 0 ? 1 : q)],
    ];
    for (const [got, ref] of cases) {
      using r = got;
      assertClose(r.get() as Float64Array, a.map((p, i) => ref(p, b[i]!)), 1e-13, "binary");
    }
    using m = ga.asarray([[0, 1], [2, 3]], "float32");
    using h = ga.heaviside(m.sub(1), 0.5); // a 2-D array and a scalar
    assertClose(h.get() as Float32Array, [0, 0.5, 1, 1], 0, "heaviside(m - 1, 0.5)");
    using l = ga.logaddexp(m, ga.asarray([0, 1], "float32")); // broadcasting a row
    assertClose(
      l.get() as Float32Array,
      [lae(0, 0), lae(1, 1), lae(2, 0), lae(3, 1)],
      1e-6,
      "logaddexp rows",
    );
  },
);

eachBackend(
  "fmod keeps the dividend's sign for floats and integers, integer division by zero giving 0",
  () => {
    using f = ga.fmod(ga.asarray([-7.5, 7.5, -1, 5], "float64"), ga.asarray([2, -2, 3, Infinity], "float64"));
    assertClose(f.get() as Float64Array, [-1.5, 1.5, -1, 5], 0, "fmod floats");
    using i = ga.fmod(ga.asarray([-7, 7, -7, 7, 5], "int32"), ga.asarray([3, -3, -3, 3, 0], "int32"));
    assert.equal(i.dtype, "int32");
    assert.deepEqual([...(i.get() as Int32Array)], [-1, 1, -1, 1, 0]);
    using m = ga.mod(ga.asarray([-7, 7], "int32"), 3);
    assert.deepEqual([...(m.get() as Int32Array)], [2, 1], "mod differs from fmod");
  },
);

eachBackend(
  "isclose follows NumPy's tolerance, infinities and equalNan; allclose is every element close",
  () => {
    const a = [1, 1 + 1e-6, 1.1, Infinity, Infinity, NaN, 0, 1e-9];
    const b = [1, 1, 1, Infinity, -Infinity, NaN, 1e-9, 0];
    using x = ga.asarray(a, "float64"), y = ga.asarray(b, "float64");
    const ref = (rtol: number, atol: number, nan: boolean) =>
      a.map((p, i) => {
        const q = b[i]!;
        if (p === q) return true;
        if (Number.isNaN(p) || Number.isNaN(q)) return nan && Number.isNaN(p) && Number.isNaN(q);
        if (!Number.isFinite(p) || !Number.isFinite(q)) return false;
        return Math.abs(p - q) <= atol + rtol * Math.abs(q);
      });
    using d = ga.isclose(x, y);
    assert.equal(d.dtype, "bool");
    assert.deepEqual(d.tolist(), ref(1e-5, 1e-8, false));
    using loose = x.isclose(y, { rtol: 0.2, atol: 0, equalNan: true });
    assert.deepEqual(loose.tolist(), ref(0.2, 0, true));
    using finite = ga.isclose(ga.asarray([1, Infinity]), Infinity);
    assert.deepEqual(finite.tolist(), [false, true], "a finite value is never close to infinity");
    assert.equal(ga.allclose(x.slice([0, 2]), y.slice([0, 2])), true);
    assert.equal(ga.allclose(x, y), false);
    assert.equal(ga.allclose(x.slice([5, 6]), y.slice([5, 6]), { equalNan: true }), true);
    assert.throws(
      () => ga.isclose(x, y, { rtol: "big" as unknown as number }),
      /Cannot isclose with rtol = "big": pass a number/,
    );
    assert.throws(() => ga.isclose(x, y, { rTol: 1 } as never), /did you mean rtol\?/);
  },
);

eachBackend(
  "NumPy's long names are the same operations as the short ones, and messages use the name called",
  () => {
    using x = ga.asarray([1, 2, 3], "int32");
    const pairs: [ga.GPUArray, ga.GPUArray][] = [
      [ga.multiply(x, 2), ga.mul(x, 2)],
      [ga.subtract(x, 1), x.sub(1)],
      [ga.divide(x, 2), x.div(2)],
      [ga.power(x, 2), x.pow(2)],
      [ga.negative(x), x.neg()],
      [ga.absolute(ga.negative(x)), x],
      [ga.remainder(x, 2), x.mod(2)],
      [ga.greater(x, 1), x.gt(1)],
      [ga.lessEqual(x, 2), x.le(2)],
      [ga.notEqual(x, 2), x.ne(2)],
      [x.multiply(x), x.mul(x)],
      [x.greaterEqual(2), ga.ge(x, 2)],
    ];
    for (const [long, short] of pairs) {
      assert.equal(long.dtype, short.dtype);
      assert.deepEqual(long.tolist(), short.tolist());
    }
    using flags = ga.asarray([true, false]);
    assert.throws(() => ga.subtract(flags, flags), {
      name: "TypeError",
      message: /^Cannot subtract: subtract is not defined for bool arrays/,
    });
    assert.throws(() => flags.sub(flags), {
      name: "TypeError",
      message: /^Cannot sub: sub is not defined for bool arrays/,
    });
    assert.throws(
      () => ga.erf(5 as unknown as ga.GPUArray),
      /Cannot erf number: pass a GPUArray/,
    );
  },
);
