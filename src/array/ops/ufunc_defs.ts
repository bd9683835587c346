/**
 * The table of elementwise functions (NumPy's ufuncs): for each, which dtype it computes in and
 * returns for its operands' dtypes, and its C expression. Eager operations and fused functions both
 * read it; `ufunc.ts` runs an entry as a loop.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { computeType, cType, infinity, mathFn } from "../../codegen/c.ts";
import { divisionType, resultType } from "../core/dtypes.ts";

/** The dtypes of one application: what the operands are read as, what is computed in, what comes out. */
export interface UfuncTypes {
  /** The dtype each operand is converted to before the expression (a compute type). */
  readonly inputs: readonly DType[];
  /** The dtype of the expression's value (a compute type). */
  readonly compute: DType;
  /** The dtype of the result. */
  readonly out: DType;
}

/** One elementwise function. */
export interface UfuncDef {
  /** 1 or 2 operands. */
  readonly arity: 1 | 2;
  /** The dtypes for operands of these dtypes (after NumPy's promotion of scalars), or an error's detail. */
  readonly types: (operands: readonly DType[]) => UfuncTypes | string;
  /** The C expression of the result, in the compute dtype, from the operands' expressions. */
  readonly expr: (x: readonly string[], compute: DType, dialect: Dialect, out: DType) => string;
  /** C helper functions the expression calls, for this compute dtype (each defines a unique name). */
  readonly helpers?: (compute: DType, dialect: Dialect) => string;
}

const isFloat = (d: DType) => DTYPES[d].kind === "float";
const isBool = (d: DType) => d === "bool";

/** The float dtype math functions of `d` give: floats keep theirs, bool and 8/16-bit integers float32, else float64. */
export function mathType(d: DType): DType {
  if (isFloat(d)) return d;
  return DTYPES[d].size <= 2 ? "float32" : "float64";
}

const same = (out: DType, compute = computeType(out)): UfuncTypes => ({
  inputs: [compute, compute],
  compute,
  out,
});

/** Arithmetic in the common dtype; `boolAs` is what bool operands become (NumPy gives int8 for some). */
function arithmetic(boolAs: DType | "bool" | "error", name: string): UfuncDef["types"] {
  return ([a, b]: readonly DType[]): UfuncTypes | string => {
    let common = b === undefined ? a! : resultType(a!, b);
    if (common === "bool") {
      if (boolAs === "error") return `${name} is not defined for bool arrays`;
      common = boolAs;
    }
    return b === undefined ? { ...same(common), inputs: [computeType(common)] } : same(common);
  };
}

function floatFunction([a, b]: readonly DType[]): UfuncTypes {
  const out = mathType(b === undefined ? a! : resultType(a!, b));
  const compute = computeType(out);
  return { inputs: b === undefined ? [compute] : [compute, compute], compute, out };
}

function comparison([a, b]: readonly DType[]): UfuncTypes {
  const compute = computeType(resultType(a!, b!));
  return { inputs: [compute, compute], compute, out: "bool" };
}

/** Each operand tested in its own dtype (`!= 0`), the result bool. */
function logical(operands: readonly DType[]): UfuncTypes {
  return { inputs: operands.map(computeType), compute: "int32", out: "bool" };
}

function bitwise(name: string, boolAs: DType | "bool"): UfuncDef["types"] {
  return ([a, b]: readonly DType[]): UfuncTypes | string => {
    let common = b === undefined ? a! : resultType(a!, b);
    if (isFloat(common)) return `${name} needs integer or bool arrays, not ${common}`;
    if (common === "bool") common = boolAs;
    return b === undefined ? { ...same(common), inputs: [computeType(common)] } : same(common);
  };
}

/** Unary functions that keep integers and bools as they are. */
function keepsIntegers([a]: readonly DType[]): UfuncTypes {
  return { inputs: [computeType(a!)], compute: computeType(a!), out: a! };
}

function predicate([a]: readonly DType[]): UfuncTypes {
  return { inputs: [computeType(a!)], compute: computeType(a!), out: "bool" };
}

/**
 * The unsigned type of `t`'s width where `t` is a 32- or 64-bit signed integer: C leaves their
 * overflow undefined, and compilers then widen a product or sum that later code converts, so such
 * arithmetic is done in the unsigned type (which wraps) and converted back (as two's complement),
 * giving NumPy's wrapping results however the work is composed. Narrower integers compute in `int`.
 */
function wrapType(t: DType, d: Dialect): string | undefined {
  if (t === "int32") return cType("uint32", d);
  if (t === "int64") return cType("uint64", d);
  return undefined;
}

/** `a op b` in compute type `t`, wrapping for signed integers. */
function wrapping(op: "+" | "-" | "*") {
  return ([a, b]: readonly string[], t: DType, d: Dialect): string => {
    const u = wrapType(t, d);
    return u === undefined ? `(${a} ${op} ${b})` : `((${cType(t, d)})((${u})${a} ${op} (${u})${b}))`;
  };
}

/** `-a` in compute type `t`, wrapping for signed integers. */
function negate(a: string, t: DType, d: Dialect): string {
  const u = wrapType(t, d);
  return u === undefined ? `(-${a})` : `((${cType(t, d)})(0 - (${u})${a}))`;
}

const fn = (name: string) => (x: readonly string[], t: DType, d: Dialect) =>
  `${mathFn(name, t, d)}(${x.join(", ")})`;
const decl = (d: Dialect) => (d === "cuda" ? "__device__ __forceinline__" : "inline");

/** Python's floor division and modulo (the divisor's sign), as NumPy's `npy_divmod` computes them. */
function divmodHelpers(t: DType, d: Dialect): string {
  const c = cType(t, d);
  const h = decl(d);
  if (isFloat(t)) {
    const [fmod, floor, copysign] = ["fmod", "floor", "copysign"].map((f) => mathFn(f, t, d));
    return `${h} ${c} cudeno_mod_${t}(${c} a, ${c} b) {
  ${c} m = ${fmod}(a, b);
  if (!b) return m;
  if (m) { if ((b < 0) != (m < 0)) m += b; } else m = ${copysign}((${c})0, b);
  return m;
}
${h} ${c} cudeno_floordiv_${t}(${c} a, ${c} b) {
  if (!b) return a / b;
  ${c} m = ${fmod}(a, b);
  ${c} q = (a - m) / b;
  if (m && ((b < 0) != (m < 0))) q -= (${c})1;
  if (!q) return ${copysign}((${c})0, a / b);
  ${c} f = ${floor}(q);
  return q - f > (${c})0.5 ? f + (${c})1 : f;
}`;
  }
  const signed = DTYPES[t].kind === "int";
  const u = cType(DTYPES[t].size === 8 ? "uint64" : DTYPES[t].size === 4 ? "uint32" : "uint32", d);
  return `${h} ${c} cudeno_mod_${t}(${c} a, ${c} b) {
  if (b == 0${signed ? " || b == -1" : ""}) return 0;
  ${c} r = a % b;
  ${signed ? "if (r != 0 && ((r < 0) != (b < 0))) r += b;" : ""}
  return r;
}
${h} ${c} cudeno_floordiv_${t}(${c} a, ${c} b) {
  if (b == 0) return 0;
  ${signed ? `if (b == -1) return (${c})(0 - (${u})a);` : ""}
  ${c} q = a / b;
  ${signed ? "if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;" : ""}
  return q;
}`;
}

function powHelpers(t: DType, d: Dialect): string {
  if (isFloat(t)) return "";
  const c = cType(t, d);
  const negative = DTYPES[t].kind === "int"
    ? "if (e < 0) return b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0);"
    : "";
  const u = wrapType(t, d) ?? c;
  return `${
    decl(d)
  } ${c} cudeno_ipow_${t}(${c} b, ${c} e) { ${negative} ${u} r = 1, m = (${u})b; while (e > 0) { if (e & 1) r *= m; m *= m; e >>= 1; } return (${c})r; }`;
}

/** Shifts with NumPy's results for counts outside the type's width (C leaves them undefined). */
function shiftHelpers(t: DType, d: Dialect): string {
  const c = cType(t, d);
  const bits = DTYPES[t].size * 8;
  const neg = DTYPES[t].kind === "int" ? "a < 0 ? -1 : 0" : "0";
  const u = wrapType(t, d) ?? c;
  return `${
    decl(d)
  } ${c} cudeno_shl_${t}(${c} a, ${c} b) { return (b < 0 || b >= ${bits}) ? 0 : (${c})((${u})a << b); }
${
    decl(d)
  } ${c} cudeno_shr_${t}(${c} a, ${c} b) { return (b < 0 || b >= ${bits}) ? (${c})(${neg}) : (${c})(a >> b); }`;
}

/** The names of the binary elementwise functions. */
export type BinaryOp =
  | "add"
  | "sub"
  | "mul"
  | "div"
  | "pow"
  | "maximum"
  | "minimum"
  | "fmax"
  | "fmin"
  | "arctan2"
  | "hypot"
  | "floorDivide"
  | "mod"
  | "eq"
  | "ne"
  | "lt"
  | "le"
  | "gt"
  | "ge"
  | "logicalAnd"
  | "logicalOr"
  | "logicalXor"
  | "bitwiseAnd"
  | "bitwiseOr"
  | "bitwiseXor"
  | "leftShift"
  | "rightShift";

/** The names of the unary elementwise functions. */
export type UnaryOp =
  | "neg"
  | "abs"
  | "exp"
  | "log"
  | "sqrt"
  | "sin"
  | "cos"
  | "tan"
  | "tanh"
  | "arcsin"
  | "arccos"
  | "arctan"
  | "sinh"
  | "cosh"
  | "log1p"
  | "expm1"
  | "log2"
  | "log10"
  | "floor"
  | "ceil"
  | "trunc"
  | "round"
  | "sign"
  | "isnan"
  | "isinf"
  | "isfinite"
  | "square"
  | "reciprocal"
  | "logicalNot"
  | "invert";

/** The binary elementwise functions. */
export const BINARY: Readonly<Record<BinaryOp, UfuncDef>> = {
  add: { arity: 2, types: arithmetic("bool", "add"), expr: wrapping("+") },
  sub: { arity: 2, types: arithmetic("error", "subtract"), expr: wrapping("-") },
  mul: { arity: 2, types: arithmetic("bool", "multiply"), expr: wrapping("*") },
  div: {
    arity: 2,
    types: ([a, b]) => {
      const common = resultType(a!, b!);
      const out = isFloat(common) ? divisionType(common) : "float64";
      return same(out);
    },
    expr: ([a, b]) => `(${a} / ${b})`,
  },
  pow: {
    arity: 2,
    types: arithmetic("int8", "power"),
    expr: (
      [a, b],
      t,
      d,
    ) => (isFloat(t) ? `${mathFn("pow", t, d)}(${a}, ${b})` : `cudeno_ipow_${t}(${a}, ${b})`),
    helpers: powHelpers,
  },
  maximum: {
    arity: 2,
    types: arithmetic("bool", "maximum"),
    expr: ([a, b]) => `((${a} != ${a} || ${a} > ${b}) ? ${a} : ${b})`,
  },
  minimum: {
    arity: 2,
    types: arithmetic("bool", "minimum"),
    expr: ([a, b]) => `((${a} != ${a} || ${a} < ${b}) ? ${a} : ${b})`,
  },
  fmax: {
    arity: 2,
    types: arithmetic("bool", "fmax"),
    expr: ([a, b], t, d) => (isFloat(t) ? fn("fmax")([a!, b!], t, d) : `(${a} > ${b} ? ${a} : ${b})`),
  },
  fmin: {
    arity: 2,
    types: arithmetic("bool", "fmin"),
    expr: ([a, b], t, d) => (isFloat(t) ? fn("fmin")([a!, b!], t, d) : `(${a} < ${b} ? ${a} : ${b})`),
  },
  arctan2: { arity: 2, types: floatFunction, expr: fn("atan2") },
  hypot: { arity: 2, types: floatFunction, expr: fn("hypot") },
  floorDivide: {
    arity: 2,
    types: arithmetic("int8", "floorDivide"),
    expr: ([a, b], t) => `cudeno_floordiv_${t}(${a}, ${b})`,
    helpers: divmodHelpers,
  },
  mod: {
    arity: 2,
    types: arithmetic("int8", "mod"),
    expr: ([a, b], t) => `cudeno_mod_${t}(${a}, ${b})`,
    helpers: divmodHelpers,
  },
  eq: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} == ${b})` },
  ne: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} != ${b})` },
  lt: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} < ${b})` },
  le: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} <= ${b})` },
  gt: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} > ${b})` },
  ge: { arity: 2, types: comparison, expr: ([a, b]) => `(${a} >= ${b})` },
  logicalAnd: { arity: 2, types: logical, expr: ([a, b]) => `((${a} != 0) && (${b} != 0))` },
  logicalOr: { arity: 2, types: logical, expr: ([a, b]) => `((${a} != 0) || (${b} != 0))` },
  logicalXor: { arity: 2, types: logical, expr: ([a, b]) => `((${a} != 0) != (${b} != 0))` },
  bitwiseAnd: { arity: 2, types: bitwise("bitwiseAnd", "bool"), expr: ([a, b]) => `(${a} & ${b})` },
  bitwiseOr: { arity: 2, types: bitwise("bitwiseOr", "bool"), expr: ([a, b]) => `(${a} | ${b})` },
  bitwiseXor: { arity: 2, types: bitwise("bitwiseXor", "bool"), expr: ([a, b]) => `(${a} ^ ${b})` },
  leftShift: {
    arity: 2,
    types: bitwise("leftShift", "int8"),
    expr: ([a, b], t) => `cudeno_shl_${t}(${a}, ${b})`,
    helpers: shiftHelpers,
  },
  rightShift: {
    arity: 2,
    types: bitwise("rightShift", "int8"),
    expr: ([a, b], t) => `cudeno_shr_${t}(${a}, ${b})`,
    helpers: shiftHelpers,
  },
};

/** The unary elementwise functions. */
export const UNARY: Readonly<Record<UnaryOp, UfuncDef>> = {
  neg: { arity: 1, types: arithmetic("error", "negative"), expr: ([a], t, d) => negate(a!, t, d) },
  abs: {
    arity: 1,
    types: keepsIntegers,
    expr: (
      [a],
      t,
      d,
    ) => (isFloat(t) ? fn("fabs")([a!], t, d) : isBool(t) ? a! : `(${a} < 0 ? ${negate(a!, t, d)} : ${a})`),
  },
  exp: { arity: 1, types: floatFunction, expr: fn("exp") },
  log: { arity: 1, types: floatFunction, expr: fn("log") },
  sqrt: { arity: 1, types: floatFunction, expr: fn("sqrt") },
  sin: { arity: 1, types: floatFunction, expr: fn("sin") },
  cos: { arity: 1, types: floatFunction, expr: fn("cos") },
  tan: { arity: 1, types: floatFunction, expr: fn("tan") },
  tanh: { arity: 1, types: floatFunction, expr: fn("tanh") },
  arcsin: { arity: 1, types: floatFunction, expr: fn("asin") },
  arccos: { arity: 1, types: floatFunction, expr: fn("acos") },
  arctan: { arity: 1, types: floatFunction, expr: fn("atan") },
  sinh: { arity: 1, types: floatFunction, expr: fn("sinh") },
  cosh: { arity: 1, types: floatFunction, expr: fn("cosh") },
  log1p: { arity: 1, types: floatFunction, expr: fn("log1p") },
  expm1: { arity: 1, types: floatFunction, expr: fn("expm1") },
  log2: { arity: 1, types: floatFunction, expr: fn("log2") },
  log10: { arity: 1, types: floatFunction, expr: fn("log10") },
  floor: { arity: 1, types: keepsIntegers, expr: ([a], t, d) => (isFloat(t) ? fn("floor")([a!], t, d) : a!) },
  ceil: { arity: 1, types: keepsIntegers, expr: ([a], t, d) => (isFloat(t) ? fn("ceil")([a!], t, d) : a!) },
  trunc: { arity: 1, types: keepsIntegers, expr: ([a], t, d) => (isFloat(t) ? fn("trunc")([a!], t, d) : a!) },
  round: { arity: 1, types: keepsIntegers, expr: ([a], t, d) => (isFloat(t) ? fn("rint")([a!], t, d) : a!) },
  sign: {
    arity: 1,
    types: arithmetic("error", "sign"),
    expr: ([a], t, d) => `(${a} != ${a} ? ${a} : (${cType(t, d)})((${a} > 0) - (${a} < 0)))`,
  },
  isnan: { arity: 1, types: predicate, expr: ([a]) => `(${a} != ${a})` },
  isinf: {
    arity: 1,
    types: predicate,
    expr: ([a], t, d) => (isFloat(t) ? `(${fn("fabs")([a!], t, d)} == ${infinity(t, d)})` : "0"),
  },
  isfinite: {
    arity: 1,
    types: predicate,
    expr: (
      [a],
      t,
      d,
    ) => (isFloat(t) ? `(${a} == ${a} && ${fn("fabs")([a!], t, d)} != ${infinity(t, d)})` : "1"),
  },
  square: {
    arity: 1,
    types: arithmetic("int8", "square"),
    expr: ([a], t, d) => wrapping("*")([a!, a!], t, d),
  },
  reciprocal: {
    arity: 1,
    types: arithmetic("int8", "reciprocal"),
    expr: ([a], t, d) => (isFloat(t) ? `((${cType(t, d)})1 / ${a})` : `(${a} == 0 ? 0 : 1 / ${a})`),
  },
  logicalNot: { arity: 1, types: logical, expr: ([a]) => `(${a} == 0)` },
  invert: {
    arity: 1,
    types: bitwise("invert", "bool"),
    expr: ([a], t, d, out) => (out === "bool" ? `(${a} == 0)` : `(${cType(t, d)})(~${a})`),
  },
};
