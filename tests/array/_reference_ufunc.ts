/**
 * The host reference's elementwise operations: broadcasting binary and unary ufuncs with NumPy 2
 * promotion (weak JS scalars), float results rounded to their dtype, integer wraparound, `where`,
 * `clip` and `astype`. Deviations from NumPy, as array-api.md fixes them: true division of integers
 * gives float64 and float math functions of bool and 8/16-bit integers give float32 (NumPy: float16
 * for bool and 8-bit), and an integer-valued JS number is an integer scalar (JS has no `2.0`).
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { fromFn, promote, reader, Ref } from "./_reference.ts";
import {
  bits,
  cast,
  checkFits,
  kind,
  resultType,
  roundHalfEven,
  roundTo,
  type Scalar,
  type Value,
} from "./_reference_dtype.ts";
import { broadcastShapes } from "./_reference_shape.ts";

/** An array or a weak JS scalar. */
export type Operand = Ref | Scalar;

/** The dtype float math functions give: floats keep theirs; bool and 8/16-bit integers float32; others float64. */
export function mathType(d: DType): DType {
  if (kind(d) === "float") return d;
  return kind(d) === "bool" || bits(d) <= 16 ? "float32" : "float64";
}

/**
 * The dtype a binary math function gives: with a float operand the promoted dtype; for two integer
 * arrays the promotion of the floats each needs (NumPy's loop search: uint16 with int8 gives float32).
 */
function mathPairType(a: Operand, b: Operand): DType {
  if (!(a instanceof Ref) || !(b instanceof Ref)) return mathType(promote([a, b]));
  if (kind(a.dtype) === "float" || kind(b.dtype) === "float") return resultType(a.dtype, b.dtype);
  return resultType(mathType(a.dtype), mathType(b.dtype));
}

/** The dtype true division gives: floats keep theirs, integers and bool give float64. */
export const divisionType = (d: DType): DType => (kind(d) === "float" ? d : "float64");

/** Builds the broadcast result of `fn` over the operands' elements (scalars as given). */
export function elementwise(
  dtype: DType,
  operands: readonly Operand[],
  fn: (...v: Value[]) => Value | boolean,
): Ref {
  const shape = broadcastShapes(...operands.filter((x): x is Ref => x instanceof Ref).map((x) => x.shape));
  const read = operands.map((x) => reader(x, shape));
  return fromFn(dtype, shape, (i) => fn(...read.map((r) => r(i))));
}

const truthy = (v: Value) => v !== 0 && v !== 0n;
type B2 = (a: number, b: number) => number | boolean;
const big = (v: Value) => BigInt(v);

/** C's `pow`, where JS's `Math.pow` differs (`1 ** NaN`, `(-1) ** Infinity`). */
function cpow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (x === -1 && Math.abs(y) === Infinity) return 1;
  return x ** y;
}

/** NumPy's float `divmod` (npy_divmod), each step rounded to dtype `t`. */
function floatDivmod(a: number, b: number, t: DType): [number, number] {
  const mod = a % b;
  if (b === 0) return [a / b, mod];
  let div = roundTo(t, roundTo(t, a - mod) / b), m = mod;
  if (mod !== 0) {
    if ((b < 0) !== (mod < 0)) {
      m = roundTo(t, mod + b);
      div -= 1;
    }
  } else m = b < 0 ? -0 : 0;
  let floor: number;
  if (div !== 0) {
    floor = Math.floor(div);
    if (div - floor > 0.5) floor += 1;
  } else floor = a / b < 0 || Object.is(a / b, -0) ? -0 : 0;
  return [floor, m];
}

function intDivmod(a: bigint, b: bigint): [bigint, bigint] {
  if (b === 0n) return [0n, 0n];
  let q = a / b, r = a % b;
  if (r !== 0n && (r < 0n) !== (b < 0n)) {
    q -= 1n;
    r += b;
  }
  return [q, r];
}

function intPow(base: bigint, e: bigint, t: DType): bigint {
  if (e < 0n) throw new RangeError("Cannot raise integers to negative integer powers");
  let r = 1n;
  const wrap = (v: bigint) => BigInt(cast(v, t));
  for (let b = wrap(base); e > 0n; e >>= 1n, b = wrap(b * b)) if (e & 1n) r = wrap(r * b);
  return r;
}

/** How a binary ufunc picks its dtypes, and what it computes per kind of the promoted dtype. */
interface BinaryDef {
  /** same: the promoted dtype; div/math: a float; compare/logical: bool; bitwise: integers and bool only. */
  rule: "same" | "div" | "math" | "compare" | "logical" | "bitwise";
  float?: (a: number, b: number, t: DType) => number | boolean;
  int?: (a: bigint, b: bigint, t: DType) => bigint | boolean;
  /** On two bools: a function, `"int8"` to compute in int8 as NumPy does, or absent: a TypeError. */
  bool?: ((a: number, b: number) => number | boolean) | "int8";
}

const nanMax = (a: number, b: number) => (Number.isNaN(a) ? a : Number.isNaN(b) ? b : a > b ? a : b);
const nanMin = (a: number, b: number) => (Number.isNaN(a) ? a : Number.isNaN(b) ? b : a < b ? a : b);
const or = (a: number, b: number) => a | b, and = (a: number, b: number) => a & b;
const shiftOut = (b: bigint, t: DType) => b < 0n || b >= BigInt(bits(t));

const BINARY: Record<string, BinaryDef> = {
  add: { rule: "same", float: (a, b) => a + b, int: (a, b) => a + b, bool: or },
  sub: { rule: "same", float: (a, b) => a - b, int: (a, b) => a - b },
  mul: { rule: "same", float: (a, b) => a * b, int: (a, b) => a * b, bool: and },
  div: { rule: "div", float: (a, b) => a / b },
  pow: { rule: "same", float: cpow, int: intPow, bool: "int8" },
  maximum: { rule: "same", float: nanMax, int: (a, b) => (a > b ? a : b), bool: or },
  minimum: { rule: "same", float: nanMin, int: (a, b) => (a < b ? a : b), bool: and },
  fmax: {
    rule: "same",
    float: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a > b ? a : b),
    int: (a, b) => (a > b ? a : b),
    bool: or,
  },
  fmin: {
    rule: "same",
    float: (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : a < b ? a : b),
    int: (a, b) => (a < b ? a : b),
    bool: and,
  },
  arctan2: { rule: "math", float: Math.atan2 },
  hypot: { rule: "math", float: (a, b) => Math.hypot(a, b) },
  floorDivide: {
    rule: "same",
    float: (a, b, t) => floatDivmod(a, b, t)[0],
    int: (a, b) => intDivmod(a, b)[0],
    bool: "int8",
  },
  mod: {
    rule: "same",
    float: (a, b, t) => (b === 0 ? a % b : floatDivmod(a, b, t)[1]),
    int: (a, b) => intDivmod(a, b)[1],
    bool: "int8",
  },
  eq: { rule: "compare", float: (a, b) => a === b, int: (a, b) => a === b },
  ne: { rule: "compare", float: (a, b) => a !== b, int: (a, b) => a !== b },
  lt: { rule: "compare", float: (a, b) => a < b, int: (a, b) => a < b },
  le: { rule: "compare", float: (a, b) => a <= b, int: (a, b) => a <= b },
  gt: { rule: "compare", float: (a, b) => a > b, int: (a, b) => a > b },
  ge: { rule: "compare", float: (a, b) => a >= b, int: (a, b) => a >= b },
  logicalAnd: { rule: "logical", bool: and },
  logicalOr: { rule: "logical", bool: or },
  logicalXor: { rule: "logical", bool: (a, b) => a ^ b },
  bitwiseAnd: { rule: "bitwise", int: (a, b) => a & b, bool: and },
  bitwiseOr: { rule: "bitwise", int: (a, b) => a | b, bool: or },
  bitwiseXor: { rule: "bitwise", int: (a, b) => a ^ b, bool: (a, b) => a ^ b },
  leftShift: { rule: "bitwise", int: (a, b, t) => (shiftOut(b, t) ? 0n : a << b), bool: "int8" },
  rightShift: {
    rule: "bitwise",
    int: (a, b, t) => (shiftOut(b, t) ? (a < 0n ? -1n : 0n) : a >> b),
    bool: "int8",
  },
};

function binary(op: string, a: Operand, b: Operand): Ref {
  const def = BINARY[op]!;
  if (!(a instanceof Ref) && !(b instanceof Ref)) throw new TypeError(`Cannot ${op} two scalars`);
  const t = promote([a, b]);
  if (def.rule === "logical") {
    return elementwise("bool", [a, b], (x, y) => (def.bool as B2)(+truthy(x), +truthy(y)));
  }
  if (def.rule === "compare") {
    const exact = [a, b].every((x) => (x instanceof Ref ? kind(x.dtype) !== "float" : Number.isInteger(x)));
    return elementwise(
      "bool",
      [a, b],
      (x, y) => exact ? def.int!(big(x), big(y), t) : def.float!(Number(cast(x, t)), Number(cast(y, t)), t),
    );
  }
  if (def.rule === "bitwise" && kind(t) === "float") throw new TypeError(`Cannot ${op} ${t} operands`);
  const out = def.rule === "div" ? divisionType(t) : def.rule === "math" ? mathPairType(a, b) : t;
  if (kind(out) !== "float") {
    for (const x of [a, b]) if (!(x instanceof Ref)) checkFits(x, t, `${op} ${x} and a ${t} array`);
  }
  if (kind(out) === "bool") {
    const f = def.bool;
    if (f === undefined) throw new TypeError(`Cannot ${op} bool arrays`);
    if (f === "int8") return elementwise("int8", [a, b], (x, y) => def.int!(big(x), big(y), "int8"));
    return elementwise("bool", [a, b], (x, y) => f(Number(x), Number(y)));
  }
  if (kind(out) === "float") {
    return elementwise(out, [a, b], (x, y) => def.float!(Number(cast(x, out)), Number(cast(y, out)), out));
  }
  return elementwise(out, [a, b], (x, y) => def.int!(big(x), big(y), out));
}

/** How a unary ufunc picks its dtype, and what it computes per kind. */
interface UnaryDef {
  /** same: keeps the dtype; math: a float; test: bool. */
  rule: "same" | "math" | "test";
  float?: (a: number) => number | boolean;
  int?: (a: bigint) => bigint | boolean;
  /** On bools: a function, `"int8"` to compute in int8 as NumPy does, or absent: a TypeError. */
  bool?: ((a: number) => number | boolean) | "int8";
}

const sign = (a: number) => (Number.isNaN(a) ? a : a > 0 ? 1 : a < 0 ? -1 : 0);
const UNARY: Record<string, UnaryDef> = {
  neg: { rule: "same", float: (a) => -a, int: (a) => -a },
  abs: { rule: "same", float: Math.abs, int: (a) => (a < 0n ? -a : a), bool: (a) => a },
  sign: { rule: "same", float: sign, int: (a) => (a > 0n ? 1n : a < 0n ? -1n : 0n) },
  floor: { rule: "same", float: Math.floor, int: (a) => a, bool: (a) => a },
  ceil: { rule: "same", float: Math.ceil, int: (a) => a, bool: (a) => a },
  trunc: { rule: "same", float: Math.trunc, int: (a) => a, bool: (a) => a },
  round: { rule: "same", float: roundHalfEven, int: (a) => a },
  square: { rule: "same", float: (a) => a * a, int: (a) => a * a, bool: "int8" },
  reciprocal: { rule: "same", float: (a) => 1 / a, int: (a) => (a === 0n ? 0n : 1n / a), bool: "int8" },
  invert: { rule: "same", int: (a) => ~a, bool: (a) => 1 - a },
  isnan: { rule: "test", float: Number.isNaN, int: () => false },
  isinf: { rule: "test", float: (a) => Math.abs(a) === Infinity, int: () => false },
  isfinite: { rule: "test", float: Number.isFinite, int: () => true },
  logicalNot: { rule: "test", float: (a) => a === 0, int: (a) => a === 0n },
  exp: { rule: "math", float: Math.exp },
  log: { rule: "math", float: Math.log },
  sqrt: { rule: "math", float: Math.sqrt },
  sin: { rule: "math", float: Math.sin },
  cos: { rule: "math", float: Math.cos },
  tan: { rule: "math", float: Math.tan },
  tanh: { rule: "math", float: Math.tanh },
  log1p: { rule: "math", float: Math.log1p },
  expm1: { rule: "math", float: Math.expm1 },
  log2: { rule: "math", float: Math.log2 },
  log10: { rule: "math", float: Math.log10 },
  arcsin: { rule: "math", float: Math.asin },
  arccos: { rule: "math", float: Math.acos },
  arctan: { rule: "math", float: Math.atan },
  sinh: { rule: "math", float: Math.sinh },
  cosh: { rule: "math", float: Math.cosh },
};

function unary(op: string, a: Ref): Ref {
  const def = UNARY[op]!;
  if (!(a instanceof Ref)) throw new TypeError(`Cannot ${op} a scalar: pass an array`);
  const t = a.dtype;
  if (def.rule === "test") {
    return elementwise("bool", [a], (x) => (kind(t) === "float" ? def.float!(Number(x)) : def.int!(big(x))));
  }
  // NumPy has no bool loop for round: it goes through float16 (here float32, as for every math function).
  const out = def.rule === "math" || (op === "round" && t === "bool") ? mathType(t) : t;
  if (kind(out) === "float") {
    if (def.float === undefined) throw new TypeError(`Cannot ${op} ${t} arrays`);
    return elementwise(out, [a], (x) => def.float!(Number(cast(x, out))));
  }
  const f = kind(out) === "bool" ? def.bool : def.int;
  if (f === undefined) throw new TypeError(`Cannot ${op} ${t} arrays`);
  if (f === "int8" || kind(out) !== "bool") {
    return elementwise(f === "int8" ? "int8" : out, [a], (x) => def.int!(big(x)));
  }
  return elementwise("bool", [a], (x) => (f as (a: number) => number | boolean)(Number(x)));
}

/** The `{ out }` option of the ufuncs: the result is written into `out` (same shape and dtype), which is returned. */
export interface OutOption {
  readonly out?: Ref;
}

function into(r: Ref, options: OutOption | undefined): Ref {
  const out = options?.out;
  if (out === undefined) return r;
  if (out.shape.join() !== r.shape.join()) {
    throw new RangeError(
      `Cannot write a result of shape [${r.shape.join(", ")}] into [${out.shape.join(", ")}]`,
    );
  }
  if (out.dtype !== r.dtype) {
    throw new TypeError(`Cannot write a ${r.dtype} result into a ${out.dtype} array`);
  }
  return out.assign(r);
}

type B = (a: Operand, b: Operand, options?: OutOption) => Ref;
type U = (a: Ref, options?: OutOption) => Ref;
const b = (op: string): B => (x, y, o) => into(binary(op, x, y), o);
const u = (op: string): U => (x, o) => into(unary(op, x), o);

export const add: B = b("add"), sub: B = b("sub"), mul: B = b("mul"), div: B = b("div"), pow: B = b("pow");
export const maximum: B = b("maximum"), minimum: B = b("minimum"), fmax: B = b("fmax"), fmin: B = b("fmin");
export const arctan2: B = b("arctan2"),
  hypot: B = b("hypot"),
  floorDivide: B = b("floorDivide"),
  mod: B = b("mod");
export const eq: B = b("eq"),
  ne: B = b("ne"),
  lt: B = b("lt"),
  le: B = b("le"),
  gt: B = b("gt"),
  ge: B = b("ge");
export const logicalAnd: B = b("logicalAnd"), logicalOr: B = b("logicalOr"), logicalXor: B = b("logicalXor");
export const bitwiseAnd: B = b("bitwiseAnd"), bitwiseOr: B = b("bitwiseOr"), bitwiseXor: B = b("bitwiseXor");
export const leftShift: B = b("leftShift"), rightShift: B = b("rightShift");
export const neg: U = u("neg"),
  abs: U = u("abs"),
  sign_: U = u("sign"),
  floor: U = u("floor"),
  ceil: U = u("ceil");
export const trunc: U = u("trunc"),
  round: U = u("round"),
  square: U = u("square"),
  reciprocal: U = u("reciprocal");
export const invert: U = u("invert"),
  isnan: U = u("isnan"),
  isinf: U = u("isinf"),
  isfinite: U = u("isfinite");
export const logicalNot: U = u("logicalNot"), exp: U = u("exp"), log: U = u("log"), sqrt: U = u("sqrt");
export const sin: U = u("sin"),
  cos: U = u("cos"),
  tan: U = u("tan"),
  tanh: U = u("tanh"),
  log1p: U = u("log1p");
export const expm1: U = u("expm1"), log2: U = u("log2"), log10: U = u("log10"), arcsin: U = u("arcsin");
export const arccos: U = u("arccos"), arctan: U = u("arctan"), sinh: U = u("sinh"), cosh: U = u("cosh");
export { sign_ as sign };

/** The names of the binary and unary ufuncs. */
export const BINARY_UFUNCS: readonly string[] = Object.keys(BINARY);
export const UNARY_UFUNCS: readonly string[] = Object.keys(UNARY);

/** `cond ? x : y`, broadcasting; `cond` is tested `!= 0`; the dtype is that of `x` and `y` (scalars weak). */
export function where(cond: Ref, x: Operand, y: Operand): Ref {
  const t = promote([x, y]);
  return elementwise(t, [cond, x, y], (c, p, q) => (truthy(c) ? cast(p, t) : cast(q, t)));
}

/** `minimum(maximum(a, lo), hi)` in the promoted dtype; `null` skips a bound; NaN propagates. */
export function clip(a: Ref, lo: Operand | null, hi: Operand | null): Ref {
  let r: Ref = a;
  const t = promote([a, ...[lo, hi].filter((x): x is Operand => x !== null)]);
  if (t !== a.dtype) r = a.astype(t);
  if (lo !== null) r = maximum(r, lo instanceof Ref ? lo : cast(lo, t));
  if (hi !== null) r = minimum(r, hi instanceof Ref ? hi : cast(hi, t));
  return r.dtype === t ? r : r.astype(t);
}

/** A copy converted to `dtype` (floats to integers truncate). */
export const astype = (a: Ref, dtype: DType): Ref => a.astype(dtype);
