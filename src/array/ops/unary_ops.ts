/**
 * The unary elementwise operations, one entry each: NumPy's other names, the dtype rule, the scalar
 * expression (IR), the doc line and an example. Everything else about them comes from here (see
 * `elementwise.ts`); to add one, add an entry and run `deno task gen`.
 *
 * @module
 */

import type { Expr, ExprBuilder } from "../../codegen/expr.ts";
import {
  absRule,
  arithmetic,
  bitwise,
  defineOps,
  type ElementwiseOp,
  floatRule,
  keepsDtype,
  logicalRule,
  predicateRule,
  realRule,
  unaryVjp,
} from "./elementwise.ts";
import { realOf } from "../core/dtypes.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import type { UnaryOp } from "../api/elementwise.ts";

/** A float math function of the C library, of the same name in both dialects. */
const math = (fn: string) => (e: ExprBuilder, [x]: readonly Expr[]) => e.call(fn, x!);
/** A rounding function: the C function for floats, the value itself for integers. */
const rounding = (fn: string) => (e: ExprBuilder, [x]: readonly Expr[]) => e.float ? e.call(fn, x!) : x!;

const isComplex = (x: GPUArray) => DTYPES[x.dtype].kind === "complex";

/** The unary elementwise operations. */
export const UNARY: Readonly<Record<UnaryOp, ElementwiseOp>> = defineOps(1, {
  neg: {
    vjp: unaryVjp((g) => g.neg()),
    aliases: ["negative"],
    rule: arithmetic("error"),
    complex: true,
    expr: (e, [x]) => e.un("-", x!),
    doc: "`-a`, elementwise.",
    example: "ga.neg(ga.ones(3))",
  },
  abs: {
    // Complex: ḡ·z/|z| (0 at 0), from x = z̄.
    vjp: unaryVjp((g, x, y, ops) =>
      isComplex(x) ? ops.where(y.eq(0), 0, g.mul(x.conj().div(y))) : g.mul(x.sign())
    ),
    aliases: ["absolute"],
    rule: absRule,
    complex: (e, [x]) => e.callAs("abs", realOf(e.t), x!),
    expr: (e, [x], out) =>
      e.float
        ? e.call("fabs", x!)
        : out === "bool"
        ? x!
        : e.select(e.bin("<", x!, e.lit(0)), e.un("-", x!), x!),
    doc: "`|a|`, elementwise.",
    example: "ga.abs(ga.asarray([-2, 1]))",
  },
  exp: {
    vjp: unaryVjp((g, _, y) => g.mul(y)),
    rule: floatRule,
    complex: true,
    expr: math("exp"),
    doc: "`e ** a`, elementwise.",
    example: "ga.exp(ga.zeros(3))",
  },
  exp2: {
    vjp: unaryVjp((g, _, y) => g.mul(y).mul(Math.LN2)),
    rule: floatRule,
    complex: true,
    expr: math("exp2"),
    doc: "`2 ** a`, elementwise.",
    example: "ga.exp2(ga.arange(4))",
  },
  log: {
    vjp: unaryVjp((g, x) => g.div(x)),
    rule: floatRule,
    complex: true,
    expr: math("log"),
    doc: "The natural logarithm, elementwise.",
    example: "ga.log(ga.ones(3))",
  },
  sqrt: {
    vjp: unaryVjp((g, _, y) => g.div(y.mul(2))),
    rule: floatRule,
    complex: true,
    expr: math("sqrt"),
    doc: "The square root, elementwise.",
    example: "ga.sqrt(ga.arange(4))",
  },
  cbrt: {
    vjp: unaryVjp((g, _, y) => g.div(y.square().mul(3))),
    rule: floatRule,
    expr: math("cbrt"),
    doc: "The cube root, elementwise.",
    example: "ga.cbrt(ga.asarray([-8, 27]))",
  },
  sin: {
    vjp: unaryVjp((g, x) => g.mul(x.cos())),
    rule: floatRule,
    complex: true,
    expr: math("sin"),
    doc: "The sine (radians), elementwise.",
    example: "ga.sin(ga.arange(4))",
  },
  cos: {
    vjp: unaryVjp((g, x) => g.mul(x.sin()).neg()),
    rule: floatRule,
    complex: true,
    expr: math("cos"),
    doc: "The cosine (radians), elementwise.",
    example: "ga.cos(ga.arange(4))",
  },
  tan: {
    vjp: unaryVjp((g, _, y) => g.mul(y.square().add(1))),
    rule: floatRule,
    complex: true,
    expr: math("tan"),
    doc: "The tangent (radians), elementwise.",
    example: "ga.tan(ga.arange(4))",
  },
  arcsin: {
    vjp: unaryVjp((g, x) => g.div(x.square().neg().add(1).sqrt())),
    aliases: ["asin"],
    rule: floatRule,
    complex: true,
    expr: math("asin"),
    doc: "The inverse sine, elementwise.",
    example: "ga.arcsin(ga.asarray([0, 1]))",
  },
  arccos: {
    vjp: unaryVjp((g, x) => g.div(x.square().neg().add(1).sqrt()).neg()),
    aliases: ["acos"],
    rule: floatRule,
    complex: true,
    expr: math("acos"),
    doc: "The inverse cosine, elementwise.",
    example: "ga.arccos(ga.asarray([0, 1]))",
  },
  arctan: {
    vjp: unaryVjp((g, x) => g.div(x.square().add(1))),
    aliases: ["atan"],
    rule: floatRule,
    complex: true,
    expr: math("atan"),
    doc: "The inverse tangent, elementwise.",
    example: "ga.arctan(ga.asarray([0, 1]))",
  },
  sinh: {
    vjp: unaryVjp((g, x) => g.mul(x.cosh())),
    rule: floatRule,
    complex: true,
    expr: math("sinh"),
    doc: "The hyperbolic sine, elementwise.",
    example: "ga.sinh(ga.arange(3))",
  },
  cosh: {
    vjp: unaryVjp((g, x) => g.mul(x.sinh())),
    rule: floatRule,
    complex: true,
    expr: math("cosh"),
    doc: "The hyperbolic cosine, elementwise.",
    example: "ga.cosh(ga.arange(3))",
  },
  tanh: {
    vjp: unaryVjp((g, _, y) => g.mul(y.square().neg().add(1))),
    rule: floatRule,
    complex: true,
    expr: math("tanh"),
    doc: "The hyperbolic tangent, elementwise.",
    example: "ga.tanh(ga.arange(4))",
  },
  arcsinh: {
    vjp: unaryVjp((g, x) => g.div(x.square().add(1).sqrt())),
    aliases: ["asinh"],
    rule: floatRule,
    complex: true,
    expr: math("asinh"),
    doc: "The inverse hyperbolic sine, elementwise.",
    example: "ga.arcsinh(ga.arange(3))",
  },
  arccosh: {
    vjp: unaryVjp((g, x) => g.div(x.square().sub(1).sqrt())),
    aliases: ["acosh"],
    rule: floatRule,
    complex: true,
    expr: math("acosh"),
    doc: "The inverse hyperbolic cosine, elementwise.",
    example: "ga.arccosh(ga.asarray([1, 2]))",
  },
  arctanh: {
    vjp: unaryVjp((g, x) => g.div(x.square().neg().add(1))),
    aliases: ["atanh"],
    rule: floatRule,
    complex: true,
    expr: math("atanh"),
    doc: "The inverse hyperbolic tangent, elementwise.",
    example: "ga.arctanh(ga.asarray([0, 0.5]))",
  },
  log1p: {
    vjp: unaryVjp((g, x) => g.div(x.add(1))),
    rule: floatRule,
    complex: true,
    expr: math("log1p"),
    doc: "`log(1 + a)`, accurate for small `a`.",
    example: "ga.log1p(ga.asarray([1e-8]))",
  },
  expm1: {
    vjp: unaryVjp((g, _, y) => g.mul(y.add(1))),
    rule: floatRule,
    complex: true,
    expr: math("expm1"),
    doc: "`exp(a) - 1`, accurate for small `a`.",
    example: "ga.expm1(ga.asarray([1e-8]))",
  },
  log2: {
    vjp: unaryVjp((g, x) => g.div(x.mul(Math.LN2))),
    rule: floatRule,
    complex: true,
    expr: math("log2"),
    doc: "The base-2 logarithm, elementwise.",
    example: "ga.log2(ga.asarray([1, 8]))",
  },
  log10: {
    vjp: unaryVjp((g, x) => g.div(x.mul(Math.LN10))),
    rule: floatRule,
    complex: true,
    expr: math("log10"),
    doc: "The base-10 logarithm, elementwise.",
    example: "ga.log10(ga.asarray([1, 100]))",
  },
  erf: {
    vjp: unaryVjp((g, x) => g.mul(x.square().neg().exp().mul(2 / Math.sqrt(Math.PI)))),
    rule: floatRule,
    expr: math("erf"),
    doc: "The error function, elementwise.",
    example: "ga.erf(ga.asarray([0, 0.5]))",
  },
  erfc: {
    vjp: unaryVjp((g, x) => g.mul(x.square().neg().exp().mul(-2 / Math.sqrt(Math.PI)))),
    rule: floatRule,
    expr: math("erfc"),
    doc: "The complementary error function `1 - erf(a)`, accurate where `erf(a)` is near 1.",
    example: "ga.erfc(ga.asarray([0, 3]))",
  },
  lgamma: {
    vjp: unaryVjp((g, x) => g.mul(x.digamma())),
    aliases: ["gammaln"],
    rule: floatRule,
    expr: math("lgamma"),
    doc: "The natural logarithm of the absolute value of the gamma function (SciPy's `gammaln`).",
    example: "ga.lgamma(ga.asarray([0.5, 10]))",
  },
  digamma: {
    aliases: ["psi"],
    rule: floatRule,
    expr: (e, [x]) => e.helper("digamma", x!),
    doc:
      "The digamma function, the derivative of `lgamma` (SciPy's `psi`): -infinity at 0 and NaN at the negative integers, as PyTorch's.",
    example: "ga.digamma(ga.asarray([1, 2.5]))",
  },
  erfinv: {
    vjp: unaryVjp((g, _, y) => g.mul(y.square().exp().mul(Math.sqrt(Math.PI) / 2))),
    rule: floatRule,
    expr: (e, [x]) => e.helper("erfinv", x!),
    doc:
      "The inverse error function: `erfinv(erf(a)) = a` on (-1, 1), ±infinity at ±1, NaN beyond (SciPy's `erfinv`).",
    example: "ga.erfinv(ga.asarray([0, 0.5, -1]))",
  },
  erfcinv: {
    vjp: unaryVjp((g, _, y) => g.mul(y.square().exp().mul(-Math.sqrt(Math.PI) / 2))),
    rule: floatRule,
    expr: (e, [x]) => e.helper("erfcinv", x!),
    doc: "The inverse complementary error function on (0, 2), accurate for small `a` (SciPy's `erfcinv`).",
    example: "ga.erfcinv(ga.asarray([1, 1e-10]))",
  },
  i0: {
    rule: floatRule,
    expr: (e, [x]) => e.helper("i0", x!),
    doc: "The modified Bessel function of the first kind, order 0 (NumPy's `i0`).",
    example: "ga.i0(ga.asarray([0, 1, 10]))",
  },
  expit: {
    vjp: unaryVjp((g, _, y) => g.mul(y).mul(y.neg().add(1))),
    rule: floatRule,
    expr: (e, [x]) => {
      const ex = e.call("exp", x!);
      const positive = e.div(e.lit(1), e.add(e.lit(1), e.call("exp", e.un("-", x!))));
      return e.select(e.bin(">=", x!, e.lit(0)), positive, e.div(ex, e.add(e.lit(1), ex)));
    },
    doc: "The logistic sigmoid `1 / (1 + exp(-a))`, without overflow (SciPy's `expit`).",
    example: "ga.expit(ga.asarray([-1000, 0, 2]))",
  },
  logit: {
    vjp: unaryVjp((g, x) => g.div(x.mul(x.neg().add(1)))),
    rule: floatRule,
    expr: (e, [x]) => e.call("log", e.div(x!, e.sub(e.lit(1), x!))),
    doc:
      "`log(a / (1 - a))`, the inverse of `expit` (SciPy's `logit`): ±infinity at 1 and 0, NaN outside [0, 1].",
    example: "ga.logit(ga.asarray([0.25, 0.5]))",
  },
  sinc: {
    vjp: unaryVjp((g, x, y, ops) => g.mul(ops.where(x.eq(0), 0, x.mul(Math.PI).cos().sub(y).div(x)))),
    rule: floatRule,
    expr: (e, [x]) => {
      const px = e.mul(e.lit(Math.PI), x!);
      return e.select(e.bin("==", x!, e.lit(0)), e.lit(1), e.div(e.call("sin", px), px));
    },
    doc: "The normalised sinc function `sin(πa) / (πa)` (1 at 0), as NumPy's `sinc`.",
    example: "ga.sinc(ga.asarray([0, 0.5, 1]))",
  },
  deg2rad: {
    vjp: unaryVjp((g) => g.mul(Math.PI / 180)),
    aliases: ["radians"],
    rule: floatRule,
    expr: (e, [x]) => e.mul(x!, e.lit(Math.PI / 180)),
    doc: "Angles in degrees converted to radians.",
    example: "ga.deg2rad(ga.asarray([90, 180]))",
  },
  rad2deg: {
    vjp: unaryVjp((g) => g.mul(180 / Math.PI)),
    aliases: ["degrees"],
    rule: floatRule,
    expr: (e, [x]) => e.mul(x!, e.lit(180 / Math.PI)),
    doc: "Angles in radians converted to degrees.",
    example: "ga.rad2deg(ga.asarray([Math.PI]))",
  },
  floor: {
    vjp: "zero",
    rule: keepsDtype,
    expr: rounding("floor"),
    doc: "Rounded down, elementwise (integers unchanged).",
    example: "ga.floor(ga.asarray([-1.5, 1.5]))",
  },
  ceil: {
    vjp: "zero",
    rule: keepsDtype,
    expr: rounding("ceil"),
    doc: "Rounded up, elementwise (integers unchanged).",
    example: "ga.ceil(ga.asarray([-1.5, 1.5]))",
  },
  trunc: {
    vjp: "zero",
    aliases: ["fix"],
    rule: keepsDtype,
    expr: rounding("trunc"),
    doc: "Rounded toward zero, elementwise (integers unchanged; NumPy's `trunc` and `fix`).",
    example: "ga.trunc(ga.asarray([-1.5, 1.5]))",
  },
  round: {
    vjp: "zero",
    aliases: ["rint", "around"],
    rule: keepsDtype,
    expr: rounding("rint"),
    doc: "Rounded to the nearest integer, halves to even (NumPy's `round`, `around` and `rint`).",
    example: "ga.round(ga.asarray([0.5, 1.5, 2.5])) // [0, 2, 2]",
  },
  sign: {
    vjp: "zero",
    rule: arithmetic("error"),
    complex: (e, [x]) => e.call("sign", x!),
    expr: (e, [x]) =>
      e.select(
        e.isnan(x!),
        x!,
        e.select(e.bin(">", x!, e.lit(0)), e.lit(1), e.select(e.bin("<", x!, e.lit(0)), e.lit(-1), e.lit(0))),
      ),
    doc: "-1, 0 or 1 by the sign of each element (NaN stays NaN).",
    example: "ga.sign(ga.asarray([-3, 0, 2]))",
  },
  isnan: {
    rule: predicateRule,
    complex: true,
    expr: (e, [x]) => e.isnan(x!),
    doc: "Whether each element is NaN.",
    example: "ga.isnan(ga.asarray([NaN, 1]))",
  },
  isinf: {
    rule: predicateRule,
    complex: (e, [x]) => e.callAs("isinf", "int32", x!),
    expr: (e, [x]) => e.float ? e.isinf(x!) : e.lit(0),
    doc: "Whether each element is +infinity or -infinity.",
    example: "ga.isinf(ga.asarray([Infinity, 1]))",
  },
  isfinite: {
    rule: predicateRule,
    complex: (e, [x]) => e.callAs("isfinite", "int32", x!),
    expr: (e, [x]) =>
      e.float ? e.bin("&&", e.bin("==", x!, x!), e.bin("!=", e.call("fabs", x!), e.inf())) : e.lit(1),
    doc: "Whether each element is neither infinite nor NaN.",
    example: "ga.isfinite(ga.asarray([Infinity, 1]))",
  },
  square: {
    vjp: unaryVjp((g, x) => g.mul(x).mul(2)),
    rule: arithmetic("int8"),
    complex: true,
    expr: (e, [x]) => e.mul(x!, x!),
    doc: "`a * a`, elementwise.",
    example: "ga.square(ga.arange(4))",
  },
  reciprocal: {
    vjp: unaryVjp((g, _, y) => g.mul(y.square()).neg()),
    rule: arithmetic("int8"),
    complex: (e, [x]) => e.div(e.lit(1), x!),
    expr: (e, [x]) =>
      e.float ? e.div(e.lit(1), x!) : e.select(e.bin("==", x!, e.lit(0)), e.lit(0), e.div(e.lit(1), x!)),
    doc: "`1 / a`, elementwise (integer division for integer arrays).",
    example: "ga.reciprocal(ga.asarray([2, 4]))",
  },
  logicalNot: {
    rule: logicalRule,
    expr: (e, [x]) => e.bin("==", x!, e.lit(0)),
    doc: "Whether each element is zero.",
    example: "ga.logicalNot(ga.arange(3))",
  },
  invert: {
    aliases: ["bitwiseNot", "bitwiseInvert"],
    rule: bitwise("bool"),
    expr: (e, [x], out) => out === "bool" ? e.bin("==", x!, e.lit(0)) : e.un("~", x!),
    doc: "Bitwise not of integers (`~a`), logical not of bools.",
    example: 'ga.invert(ga.asarray([0, 1], "int32")) // [-1, -2]',
  },
  conj: {
    vjp: unaryVjp((g) => g.conj()),
    aliases: ["conjugate"],
    rule: keepsDtype,
    complex: (e, [x]) => e.call("conj", x!),
    expr: (_, [x]) => x!,
    doc: "The complex conjugate, elementwise (real arrays are their own).",
    example: "ga.conj(ga.complex(ga.ones(2), ga.arange(2)))",
  },
  angle: {
    // Complex: ḡ·i·z/|z|² (i·z = -im z + i·re z), 0 at 0 as PyTorch's. Real: piecewise constant.
    vjp: (g, c) => {
      const z = c.inputs[0] as GPUArray;
      if (!isComplex(z)) return [];
      const magnitude = z.abs();
      const step = g.mul(c.ops.complex(z.imag.neg(), z.real)).div(magnitude.mul(magnitude));
      return [c.ops.where(magnitude.eq(0), 0, step)];
    },
    rule: realRule,
    complex: (e, [x]) => e.callAs("angle", realOf(e.t), x!),
    expr: (e, [x]) => e.call("atan2", e.lit(0), x!),
    doc:
      "The argument (phase) of each complex number, in radians in (-π, π]; π for negative reals, 0 for others.",
    example: "ga.angle(ga.complex(ga.zeros(2), ga.ones(2))) // [π/2, π/2]",
  },
});
