/**
 * The typed scalar-expression IR that elementwise operations are written in: operands, literals,
 * casts, math calls, helper calls, binary and unary operators and selects, each node with the dtype it
 * computes in. An {@link ExprBuilder} makes nodes for one compute dtype; {@link renderExpr} writes a
 * tree as C for a dialect, through the Target's spellings (math names, literals, infinities) and its
 * rule for signed overflow (32- and 64-bit signed `+`, `-`, `*` and negation are done in the unsigned
 * type and converted back, so they wrap as NumPy's do however a compiler widens them). A new dialect
 * is a new Target; nothing here names one.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import { convert, cType, infinity, literal, mathFn } from "./c.ts";
import { COMPLEX_FUNCTIONS, complexPrefix } from "./complex.ts";
import { type HelperName, helperSource } from "./helpers.ts";

/** A binary operator of the IR. Comparisons and logical operators give int32 (0 or 1). */
export type BinaryOperator =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "&"
  | "|"
  | "^"
  | "<<"
  | ">>"
  | "=="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "&&"
  | "||";

/** One node; `type` is the dtype its value has (a compute dtype). */
export type Expr =
  | { readonly node: "operand"; readonly index: number; readonly type: DType }
  | { readonly node: "literal"; readonly value: number; readonly type: DType }
  | { readonly node: "infinity"; readonly negative: boolean; readonly type: DType }
  | { readonly node: "cast"; readonly x: Expr; readonly type: DType }
  | { readonly node: "call"; readonly fn: string; readonly args: readonly Expr[]; readonly type: DType }
  | { readonly node: "helper"; readonly fn: HelperName; readonly args: readonly Expr[]; readonly type: DType }
  | {
    readonly node: "binary";
    readonly op: BinaryOperator;
    readonly a: Expr;
    readonly b: Expr;
    readonly type: DType;
  }
  | { readonly node: "unary"; readonly op: "-" | "!" | "~"; readonly x: Expr; readonly type: DType }
  | {
    readonly node: "select";
    readonly cond: Expr;
    readonly a: Expr;
    readonly b: Expr;
    readonly type: DType;
  };

const COMPARISONS: ReadonlySet<BinaryOperator> = new Set(["==", "!=", "<", "<=", ">", ">=", "&&", "||"]);

/** Makes IR nodes computing in one dtype (`t`): literals, math calls and arithmetic take it. */
export class ExprBuilder {
  /** The compute dtype. */
  readonly t: DType;
  /** Whether `t` is a float dtype. */
  readonly float: boolean;
  /** Whether `t` is a signed integer dtype. */
  readonly signed: boolean;
  /** Whether `t` is a complex dtype. */
  readonly complex: boolean;

  /** A builder for compute dtype `t`. */
  constructor(t: DType) {
    this.t = t;
    this.float = DTYPES[t].kind === "float";
    this.signed = DTYPES[t].kind === "int";
    this.complex = DTYPES[t].kind === "complex";
  }

  /** Operand `index`, read as `type` (default the compute dtype). */
  operand(index: number, type: DType = this.t): Expr {
    return { node: "operand", index, type };
  }
  /** A literal of the compute dtype. */
  lit(value: number): Expr {
    return { node: "literal", value, type: this.t };
  }
  /** +infinity (or -infinity) of the compute dtype. */
  inf(negative = false): Expr {
    return { node: "infinity", negative, type: this.t };
  }
  /** `x` converted to `type`. */
  cast(x: Expr, type: DType): Expr {
    return { node: "cast", x, type };
  }
  /** A C math function of the compute dtype (`exp`: `expf` or `exp` as the Target spells it). */
  call(fn: string, ...args: Expr[]): Expr {
    return { node: "call", fn, args, type: this.t };
  }
  /** A C math function whose value has dtype `type` (a complex number's `abs` is real). */
  callAs(fn: string, type: DType, ...args: Expr[]): Expr {
    return { node: "call", fn, args, type };
  }
  /** A helper function defined beside the kernel (see helpers.ts). */
  helper(fn: HelperName, ...args: Expr[]): Expr {
    return { node: "helper", fn, args, type: this.t };
  }
  /** `a op b`: arithmetic in the compute dtype, comparisons and logic as int32. */
  bin(op: BinaryOperator, a: Expr, b: Expr): Expr {
    return { node: "binary", op, a, b, type: COMPARISONS.has(op) ? "int32" : this.t };
  }
  /** `-x`, `!x` (int32) or `~x`. */
  un(op: "-" | "!" | "~", x: Expr): Expr {
    return { node: "unary", op, x, type: op === "!" ? "int32" : this.t };
  }
  /** `cond ? a : b`. */
  select(cond: Expr, a: Expr, b: Expr): Expr {
    return { node: "select", cond, a, b, type: a.type };
  }
  /** `a + b`. */
  add(a: Expr, b: Expr): Expr {
    return this.bin("+", a, b);
  }
  /** `a - b`. */
  sub(a: Expr, b: Expr): Expr {
    return this.bin("-", a, b);
  }
  /** `a * b`. */
  mul(a: Expr, b: Expr): Expr {
    return this.bin("*", a, b);
  }
  /** `a / b`. */
  div(a: Expr, b: Expr): Expr {
    return this.bin("/", a, b);
  }
  /** Whether `x` is NaN (`x != x`). */
  isnan(x: Expr): Expr {
    return this.bin("!=", x, x);
  }
  /** Whether `x` is ±infinity. */
  isinf(x: Expr): Expr {
    return this.bin("==", this.call("fabs", x), this.inf());
  }
  /** The larger of `a` and `b`, a NaN in `a` propagating (NumPy's `maximum` for a known non-NaN `b`). */
  max(a: Expr, b: Expr): Expr {
    return this.select(this.bin("||", this.isnan(a), this.bin(">", a, b)), a, b);
  }
}

const isComplex = (t: DType) => DTYPES[t].kind === "complex";

/** The complex library's function for each operator defined on complex numbers. */
const COMPLEX_OPERATORS: Partial<Record<BinaryOperator, string>> = {
  "+": "add",
  "-": "sub",
  "*": "mul",
  "/": "div",
  "==": "eq",
  "!=": "ne",
};

/** A call of math function `fn` (the C library's name) on complex arguments of dtype `t`. */
function complexCall(fn: string, t: DType, args: readonly string[]): string {
  const name = fn === "fabs" ? "abs" : fn;
  if (!COMPLEX_FUNCTIONS.has(name)) throw new TypeError(`${fn} is not defined for complex numbers`);
  return `${complexPrefix(t)}${name}(${args.join(", ")})`;
}

/** The unsigned type of a 32- or 64-bit signed integer dtype, in which its arithmetic wraps. */
function wrapType(t: DType, d: Dialect): string | undefined {
  if (t === "int32") return cType("uint32", d);
  if (t === "int64") return cType("uint64", d);
  return undefined;
}

/**
 * `e` as C text of dialect `d`, operand `i` being the expression `operands[i]`; the helper functions
 * it calls are added to `helpers` (their sources, each defining a unique name).
 */
export function renderExpr(e: Expr, operands: readonly string[], d: Dialect, helpers: Set<string>): string {
  const r = (x: Expr) => renderExpr(x, operands, d, helpers);
  switch (e.node) {
    case "operand":
      return operands[e.index]!;
    case "literal":
      return literal(e.value, e.type, d);
    case "infinity":
      return infinity(e.type, d, e.negative);
    case "cast":
      return convert(r(e.x), e.x.type, e.type, d);
    case "call":
      if (e.fn === "complex") return `${complexPrefix(e.type)}make(${e.args.map(r).join(", ")})`;
      if (isComplex(e.args[0]!.type)) return complexCall(e.fn, e.args[0]!.type, e.args.map(r));
      return `${mathFn(e.fn, e.type, d)}(${e.args.map(r).join(", ")})`;
    case "helper":
      helpers.add(helperSource(e.fn, e.type, d));
      return `cudeno_${e.fn}_${e.type}(${e.args.map(r).join(", ")})`;
    case "binary": {
      if (isComplex(e.a.type) || isComplex(e.b.type)) {
        const name = COMPLEX_OPERATORS[e.op];
        if (name === undefined) throw new TypeError(`${e.op} is not defined for complex numbers`);
        return `${complexPrefix(isComplex(e.a.type) ? e.a.type : e.b.type)}${name}(${r(e.a)}, ${r(e.b)})`;
      }
      const u = e.op === "+" || e.op === "-" || e.op === "*" ? wrapType(e.type, d) : undefined;
      if (u === undefined) return `(${r(e.a)} ${e.op} ${r(e.b)})`;
      return `((${cType(e.type, d)})((${u})${r(e.a)} ${e.op} (${u})${r(e.b)}))`;
    }
    case "unary": {
      if (isComplex(e.x.type)) {
        if (e.op === "~") throw new TypeError("~ is not defined for complex numbers");
        return e.op === "-"
          ? `${complexPrefix(e.x.type)}neg(${r(e.x)})`
          : `(!${complexPrefix(e.x.type)}nz(${r(e.x)}))`;
      }
      const u = e.op === "-" ? wrapType(e.type, d) : undefined;
      if (u !== undefined) return `((${cType(e.type, d)})(0 - (${u})${r(e.x)}))`;
      return e.op === "~" ? `(${cType(e.type, d)})(~${r(e.x)})` : `(${e.op}${r(e.x)})`;
    }
    case "select":
      return `(${r(e.cond)} ? ${r(e.a)} : ${r(e.b)})`;
  }
}
