/**
 * The binary elementwise operations, one entry each: NumPy's other names, the dtype rule, the scalar
 * expression (IR), the doc line and an example. Everything else about them comes from here (see
 * `elementwise.ts`); to add one, add an entry and run `deno task gen`.
 *
 * @module
 */

import type { BinaryOperator, Expr, ExprBuilder } from "../../codegen/expr.ts";
import {
  arithmetic,
  binaryVjp,
  bitwise,
  comparisonRule,
  complexRule,
  defineOps,
  divisionRule,
  type ElementwiseOp,
  floatComparisonRule,
  floatRule,
  logicalRule,
  type RuleOperand,
} from "./elementwise.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import type { BinaryOp } from "../api/elementwise.ts";

const op = (o: BinaryOperator) => (e: ExprBuilder, [a, b]: readonly Expr[]) => e.bin(o, a!, b!);
const math = (fn: string) => (e: ExprBuilder, [a, b]: readonly Expr[]) => e.call(fn, a!, b!);
const truthy = (e: ExprBuilder, x: Expr) => e.bin("!=", x, e.lit(0));
const compare = (o: BinaryOperator, what: string) => ({
  rule: comparisonRule,
  expr: op(o),
  doc: `\`a ${what} b\` as a bool array.`,
});

const squared = (v: RuleOperand) => typeof v === "number" ? v * v : v.square();
const plus = (p: RuleOperand, q: RuleOperand) => typeof p === "number" ? (q as GPUArray).add(p) : p.add(q);
/** `log(x)` of an operand. */
const logOf = (x: RuleOperand) => (typeof x === "number" ? Math.log(x) : x.log());
/**
 * The gradient of P(a, x) (`sign` 1) or Q(a, x) (-1) with respect to x, `±exp(-x)·x^(a-1)/Γ(a)`; none
 * with respect to a (as PyTorch's).
 */
const incompleteGamma = (name: string, sign: number) =>
  binaryVjp((g, a, x, _, need, ops) => {
    if (need[0]) throw new TypeError(`Cannot differentiate ${name} with respect to a: only x has a gradient`);
    const xs = x as GPUArray;
    const logA = (typeof a === "number" ? ops.zeros([], xs.dtype).add(a) : a).lgamma();
    const power = xs.log().mul(typeof a === "number" ? a - 1 : a.sub(1));
    return [undefined, g.mul(power.sub(xs).sub(logA).exp().mul(sign))];
  });

const NEGATIVE_POWER =
  'integers to negative integer powers are not allowed (NumPy\'s rule); raise a float instead (astype("float64"))';

/** maximum, minimum and their NaN-ignoring twins: the gradient goes to the operand chosen (`a` on a tie). */
const chosen = binaryVjp((g, a, _, y, need, ops) => {
  const fromA = y.eq(a);
  return [need[0] ? ops.where(fromA, g, 0) : undefined, need[1] ? ops.where(fromA, 0, g) : undefined];
});
/** mod and fmod: `y = a - q·b` with `q = (a - y) / b` piecewise constant. */
const quotient = binaryVjp((
  g,
  a,
  b,
  y,
  need,
) => [g, need[1] ? g.mul(y.neg().add(a).div(b)).neg() : undefined]);

/** The binary elementwise operations. */
/**
 * `isclose` of complex operands (NumPy's): equal, both NaN where `equalNan`, or both finite with
 * `|a - b| <= atol + rtol·|b|` in the parts' real dtype.
 */
function closeComplex(e: ExprBuilder, a: Expr, b: Expr): Expr {
  const r = e.t === "complex64" ? "float32" : "float64";
  const real = (op: BinaryOperator, x: Expr, y: Expr): Expr => ({ node: "binary", op, a: x, b: y, type: r });
  const abs = (x: Expr) => e.callAs("abs", r, x);
  const test = (fn: string, x: Expr) => e.callAs(fn, "int32", x);
  // The tolerances and the flag arrive as complex values of the compute dtype: their magnitudes.
  const equalNan = e.bin("!=", e.operand(4), e.lit(0));
  const tolerance = real("+", abs(e.operand(3)), real("*", abs(e.operand(2)), abs(b)));
  return e.bin(
    "||",
    e.bin("||", e.bin("==", a, b), e.bin("&&", equalNan, e.bin("&&", test("isnan", a), test("isnan", b)))),
    e.bin(
      "&&",
      e.bin("&&", test("isfinite", a), test("isfinite", b)),
      real("<=", abs(e.sub(a, b)), tolerance),
    ),
  );
}

export const BINARY: Readonly<Record<BinaryOp, ElementwiseOp>> = defineOps(2, {
  add: {
    vjp: binaryVjp((g) => [g, g]),
    rule: arithmetic("bool"),
    complex: true,
    expr: op("+"),
    doc: "`a + b`, elementwise, broadcasting; either may be a scalar.",
    example: "ga.add(ga.ones([2, 3]), ga.arange(3))",
  },
  sub: {
    vjp: binaryVjp((g) => [g, g.neg()]),
    aliases: ["subtract"],
    rule: arithmetic("error"),
    complex: true,
    expr: op("-"),
    doc: "`a - b`, elementwise.",
    example: "ga.sub(10, ga.arange(4))",
  },
  mul: {
    vjp: binaryVjp((g, a, b) => [g.mul(b), g.mul(a)]),
    aliases: ["multiply"],
    rule: arithmetic("bool"),
    complex: true,
    expr: op("*"),
    doc: "`a * b`, elementwise.",
    example: "ga.mul(ga.arange(4), 2)",
  },
  div: {
    vjp: binaryVjp((g, _, b, y) => [g.div(b), g.mul(y).div(b).neg()]),
    aliases: ["divide", "trueDivide"],
    rule: divisionRule,
    complex: true,
    expr: op("/"),
    doc: "`a / b`, true division (integers give float64).",
    example: "ga.div(ga.arange(4), 2)",
  },
  pow: {
    vjp: binaryVjp((g, a, b, y, need) => [
      need[0] ? g.mul(b).mul((a as GPUArray).pow(typeof b === "number" ? b - 1 : b.sub(1))) : undefined,
      need[1] ? g.mul(y).mul(typeof a === "number" ? Math.log(a) : a.log()) : undefined,
    ]),
    aliases: ["power"],
    rule: arithmetic("int8"),
    complex: (e, [a, b]) => e.call("pow", a!, b!),
    expr: (e, [a, b]) => e.float ? e.call("pow", a!, b!) : e.helper("ipow", a!, b!),
    check: (operands, out) => {
      // NumPy's rule: integers to negative integer powers are an error (the result would be a fraction).
      if (DTYPES[out].kind !== "int" && DTYPES[out].kind !== "uint") return undefined;
      const b = operands[1];
      if (typeof b === "number" || typeof b === "bigint") return b < 0 ? NEGATIVE_POWER : undefined;
      const e = b as GPUArray;
      return DTYPES[e.dtype].kind === "int" ? [e.lt(0).reshape([-1]).any(0), NEGATIVE_POWER] : undefined;
    },
    doc:
      "`a ** b` (integer powers exact; an integer to a negative integer power is a RangeError, as NumPy's, read from the device when the exponent is an array).",
    example: "ga.pow(ga.arange(4), 2)",
  },
  maximum: {
    vjp: chosen,
    rule: arithmetic("bool"),
    expr: (e, [a, b]) => e.max(a!, b!),
    doc: "The larger of `a` and `b`, elementwise; NaN propagates.",
    example: "ga.maximum(ga.asarray([-2, 1]), 0)",
  },
  minimum: {
    vjp: chosen,
    rule: arithmetic("bool"),
    expr: (e, [a, b]) => e.select(e.bin("||", e.isnan(a!), e.bin("<", a!, b!)), a!, b!),
    doc: "The smaller of `a` and `b`, elementwise; NaN propagates.",
    example: "ga.minimum(ga.arange(4), 2)",
  },
  fmax: {
    vjp: chosen,
    rule: arithmetic("bool"),
    expr: (e, [a, b]) => e.float ? e.call("fmax", a!, b!) : e.select(e.bin(">", a!, b!), a!, b!),
    doc: "The larger of `a` and `b`, elementwise, ignoring a NaN.",
    example: "ga.fmax(ga.asarray([NaN, 1]), 0)",
  },
  fmin: {
    vjp: chosen,
    rule: arithmetic("bool"),
    expr: (e, [a, b]) => e.float ? e.call("fmin", a!, b!) : e.select(e.bin("<", a!, b!), a!, b!),
    doc: "The smaller of `a` and `b`, elementwise, ignoring a NaN.",
    example: "ga.fmin(ga.asarray([NaN, 1]), 0)",
  },
  arctan2: {
    vjp: binaryVjp((g, a, b) => {
      const r2 = plus(squared(a), squared(b));
      return [g.mul(b).div(r2), g.mul(a).div(r2).neg()];
    }),
    aliases: ["atan2"],
    rule: floatRule,
    expr: math("atan2"),
    doc: "The angle of the point (b, a), `atan2(a, b)`, elementwise.",
    example: "ga.arctan2(ga.ones(2), ga.asarray([1, -1]))",
  },
  hypot: {
    vjp: binaryVjp((g, a, b, y) => [g.mul(a).div(y), g.mul(b).div(y)]),
    rule: floatRule,
    expr: math("hypot"),
    doc: "`sqrt(a² + b²)`, elementwise, without overflow in between.",
    example: "ga.hypot(ga.asarray([3]), 4)",
  },
  copysign: {
    vjp: binaryVjp((
      g,
      a,
      _,
      y,
    ) => [g.mul(y.sign()).mul(typeof a === "number" ? Math.sign(a) : a.sign()), undefined]),
    rule: floatRule,
    expr: math("copysign"),
    doc: "The magnitude of `a` with the sign of `b`, elementwise.",
    example: "ga.copysign(ga.asarray([1, 2]), -1)",
  },
  logaddexp: {
    vjp: binaryVjp((g, a, b, y) => [g.mul(y.neg().add(a).exp()), g.mul(y.neg().add(b).exp())]),
    rule: floatRule,
    expr: (e, [a, b]) =>
      e.select(
        e.bin("==", a!, b!),
        e.add(a!, e.lit(Math.LN2)),
        e.add(e.max(a!, b!), e.call("log1p", e.call("exp", e.un("-", e.call("fabs", e.sub(a!, b!)))))),
      ),
    doc: "`log(exp(a) + exp(b))`, computed without overflow.",
    example: "ga.logaddexp(ga.asarray([1000, 0]), ga.asarray([1000, 0]))",
  },
  logaddexp2: {
    vjp: binaryVjp((g, a, b, y) => [g.mul(y.neg().add(a).exp2()), g.mul(y.neg().add(b).exp2())]),
    rule: floatRule,
    expr: (e, [a, b]) =>
      e.select(
        e.bin("==", a!, b!),
        e.add(a!, e.lit(1)),
        e.add(
          e.max(a!, b!),
          e.mul(e.call("log1p", e.call("exp2", e.un("-", e.call("fabs", e.sub(a!, b!))))), e.lit(Math.LOG2E)),
        ),
      ),
    doc: "`log2(2 ** a + 2 ** b)`, computed without overflow.",
    example: "ga.logaddexp2(ga.asarray([1, 2]), 3)",
  },
  xlogy: {
    vjp: binaryVjp((g, a, b, _, need, ops) => [
      need[0]
        ? (typeof a === "number" ? g.mul(a === 0 ? 0 : logOf(b)) : ops.where(a.ne(0), g.mul(logOf(b)), 0))
        : undefined,
      need[1] ? g.mul(a).div(b) : undefined,
    ]),
    rule: floatRule,
    expr: (e, [a, b]) =>
      e.select(e.bin("==", a!, e.lit(0)), e.select(e.isnan(b!), b!, e.lit(0)), e.mul(a!, e.call("log", b!))),
    doc: "`a * log(b)`, 0 where `a` is 0 (unless `b` is NaN), as SciPy's `xlogy`.",
    example: "ga.xlogy(ga.asarray([0, 2]), ga.asarray([0, 3]))",
  },
  gammainc: {
    vjp: incompleteGamma("gammainc", 1),
    rule: floatRule,
    expr: (e, [a, x]) => e.helper("gammainc", a!, x!),
    doc: "The regularised lower incomplete gamma function P(a, x) (SciPy's `gammainc`), for a > 0 and x ≥ 0.",
    example: "ga.gammainc(2, ga.asarray([0, 1, 10]))",
  },
  gammaincc: {
    vjp: incompleteGamma("gammaincc", -1),
    rule: floatRule,
    expr: (e, [a, x]) => e.helper("gammaincc", a!, x!),
    doc: "The regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x) (SciPy's `gammaincc`).",
    example: "ga.gammaincc(2, ga.asarray([0, 1, 10]))",
  },
  complex: {
    vjp: (g) => [g.real, g.imag],
    rule: complexRule,
    complex: true,
    expr: (e, [re, im]) => e.callAs("complex", e.t, re!, im!),
    method: false,
    doc:
      "The complex numbers `re + im·i` from real and imaginary parts that broadcast (float32 and smaller give complex64, float64 and 32/64-bit integers complex128), as PyTorch's `complex` and TensorFlow's.",
    example: "ga.complex(ga.ones(3), ga.arange(3)) // [1+0j, 1+1j, 1+2j]",
  },
  heaviside: {
    vjp: "zero",
    rule: floatRule,
    expr: (e, [a, b]) =>
      e.select(
        e.isnan(a!),
        a!,
        e.select(e.bin("<", a!, e.lit(0)), e.lit(0), e.select(e.bin(">", a!, e.lit(0)), e.lit(1), b!)),
      ),
    doc: "The Heaviside step: 0 where `a < 0`, `b` where `a == 0`, 1 where `a > 0` (NaN stays NaN).",
    example: "ga.heaviside(ga.asarray([-1, 0, 2]), 0.5) // [0, 0.5, 1]",
  },
  floorDivide: {
    vjp: "zero",
    rule: arithmetic("int8"),
    expr: (e, [a, b]) => e.helper("floordiv", a!, b!),
    doc: "Floor division, Python's `a // b` (integer division by zero gives 0).",
    example: 'ga.floorDivide(ga.asarray([-7, 7], "int32"), 2) // [-4, 3]',
  },
  mod: {
    vjp: quotient,
    aliases: ["remainder"],
    rule: arithmetic("int8"),
    expr: (e, [a, b]) => e.helper("mod", a!, b!),
    doc: "The remainder of floor division, with the divisor's sign (Python's `a % b`).",
    example: 'ga.mod(ga.asarray([-7, 7], "int32"), 3) // [2, 1]',
  },
  fmod: {
    vjp: quotient,
    rule: arithmetic("int8"),
    expr: (e, [a, b]) => e.float ? e.call("fmod", a!, b!) : e.helper("fmod", a!, b!),
    doc:
      "The remainder of truncated division, with the dividend's sign (C's `fmod`; integer `x % 0` gives 0).",
    example: 'ga.fmod(ga.asarray([-7, 7], "int32"), 3) // [-1, 1]',
  },
  eq: { aliases: ["equal"], ...compare("==", "=="), complex: true, example: "ga.eq(ga.arange(3), 1)" },
  ne: { aliases: ["notEqual"], ...compare("!=", "!="), complex: true, example: "ga.ne(ga.arange(3), 1)" },
  lt: { aliases: ["less"], ...compare("<", "<"), example: "ga.lt(ga.arange(3), 1)" },
  le: { aliases: ["lessEqual"], ...compare("<=", "<="), example: "ga.le(ga.arange(3), 1)" },
  gt: { aliases: ["greater"], ...compare(">", ">"), example: "ga.gt(ga.arange(3), 1)" },
  ge: { aliases: ["greaterEqual"], ...compare(">=", ">="), example: "ga.ge(ga.arange(3), 1)" },
  isclose: {
    rule: floatComparisonRule,
    params: { rtol: 1e-5, atol: 1e-8, equalNan: false },
    expr: (e, [a, b, rtol, atol, equalNan]) =>
      e.bin(
        "||",
        e.bin(
          "||",
          e.bin("==", a!, b!),
          e.bin("&&", truthy(e, equalNan!), e.bin("&&", e.isnan(a!), e.isnan(b!))),
        ),
        e.bin(
          "&&",
          e.bin("&&", e.bin("!=", e.call("fabs", a!), e.inf()), e.bin("!=", e.call("fabs", b!), e.inf())),
          e.bin("<=", e.call("fabs", e.sub(a!, b!)), e.add(atol!, e.mul(rtol!, e.call("fabs", b!)))),
        ),
      ),
    complex: (e, [a, b]) => closeComplex(e, a!, b!),
    doc:
      "Whether `a` and `b` are equal within a tolerance, `|a - b| <= atol + rtol * |b|` (NumPy's `isclose`; infinities equal only themselves, NaNs each other only with `equalNan`; complex numbers by their magnitudes).",
    example: "ga.isclose(ga.asarray([1, 1.1]), 1, { rtol: 0.01 }) // [true, false]",
  },
  logicalAnd: {
    rule: logicalRule,
    expr: (e, [a, b]) => e.bin("&&", truthy(e, a!), truthy(e, b!)),
    doc: "Whether both are non-zero, elementwise.",
    example: "ga.logicalAnd(ga.arange(3), 1)",
  },
  logicalOr: {
    rule: logicalRule,
    expr: (e, [a, b]) => e.bin("||", truthy(e, a!), truthy(e, b!)),
    doc: "Whether either is non-zero, elementwise.",
    example: "ga.logicalOr(ga.arange(3), 0)",
  },
  logicalXor: {
    rule: logicalRule,
    expr: (e, [a, b]) => e.bin("!=", truthy(e, a!), truthy(e, b!)),
    doc: "Whether exactly one is non-zero, elementwise.",
    example: "ga.logicalXor(ga.arange(3), 1)",
  },
  bitwiseAnd: {
    rule: bitwise("bool"),
    expr: op("&"),
    doc: "Bitwise and of integer or bool arrays.",
    example: 'ga.bitwiseAnd(ga.arange(8, undefined, 1, "int32"), 3)',
  },
  bitwiseOr: {
    rule: bitwise("bool"),
    expr: op("|"),
    doc: "Bitwise or of integer or bool arrays.",
    example: 'ga.bitwiseOr(ga.arange(8, undefined, 1, "int32"), 1)',
  },
  bitwiseXor: {
    rule: bitwise("bool"),
    expr: op("^"),
    doc: "Bitwise exclusive or of integer or bool arrays.",
    example: 'ga.bitwiseXor(ga.arange(8, undefined, 1, "int32"), 5)',
  },
  leftShift: {
    aliases: ["bitwiseLeftShift"],
    rule: bitwise("int8"),
    expr: (e, [a, b]) => e.helper("shl", a!, b!),
    doc: "`a << b` for integer arrays (0 once the shift passes the width, as NumPy).",
    example: 'ga.leftShift(ga.ones(4, "int32"), ga.arange(4, undefined, 1, "int32"))',
  },
  rightShift: {
    aliases: ["bitwiseRightShift"],
    rule: bitwise("int8"),
    expr: (e, [a, b]) => e.helper("shr", a!, b!),
    doc: "`a >> b` for integer arrays, arithmetic for signed types.",
    example: 'ga.rightShift(ga.full(4, 16, "int32"), 2)',
  },
});
