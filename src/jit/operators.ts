/**
 * The types of operators on translated operands: arithmetic, bit operators, comparisons and Math
 * functions, with JavaScript's arithmetic on two constants (constant folding) and the conversions of
 * operands that the bit operators and true division apply.
 *
 * @module
 */

import { MATH_JS } from "./builtins.ts";
import { adopt, cast, constant, type Fail, isWeakConst, literal, settle, unify, weakness } from "./coerce.ts";
import type { BinaryOp, CompareOp, ConstExpr, Expr, MathFn } from "./ir.ts";
import { isInt, type ScalarType, type ValueType } from "./types.ts";

const COMPARE: Readonly<Record<string, CompareOp>> = {
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  "==": "==",
  "===": "==",
  "!=": "!=",
  "!==": "!=",
};

const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "**"]);
const BITWISE = new Set(["&", "|", "^", "<<", ">>", ">>>"]);

/** A binary operator on translated operands (also the operator of a compound assignment). */
export function binary(operator: string, left: Expr, right: Expr, fail: Fail): Expr {
  if (Object.hasOwn(COMPARE, operator)) return compare(COMPARE[operator], left, right, fail);
  if (isWeakConst(left) && isWeakConst(right)) {
    const value = fold(operator, left.value, right.value);
    const whole = (left.weak === "int" && right.weak === "int") || BITWISE.has(operator);
    return literal(value, whole && Number.isInteger(value) ? "int" : "float");
  }
  if (ARITHMETIC.has(operator)) {
    if (operator === "**") return math("pow", [left, right], fail);
    if (operator === "/" && integral(left) && integral(right)) {
      left = toF64(left, fail);
      right = toF64(right, fail);
    }
    const [a, b, type] = unify(left, right, fail);
    return { op: "binary", type, operator: operator as BinaryOp, left: a, right: b };
  }
  if (BITWISE.has(operator)) {
    const type = operator === ">>>" ? "u32" : "i32";
    return {
      op: "binary",
      type,
      operator: operator as BinaryOp,
      left: toInt(left, type, fail),
      right: toInt(right, "i32", fail),
    };
  }
  return fail(`${operator} is not supported`);
}

/** A comparison of translated operands, folded when both are constants. */
function compare(operator: CompareOp, left: Expr, right: Expr, fail: Fail): Expr {
  if (left.type === "bool" || right.type === "bool") {
    if (left.type !== right.type) {
      fail("a boolean is compared with a number: compare like with like");
    }
    if (operator !== "==" && operator !== "!=") {
      fail(`booleans cannot be ordered with ${operator}`);
    }
    return { op: "compare", type: "bool", operator, left, right };
  }
  if (isWeakConst(left) && isWeakConst(right)) {
    return constant(fold(operator, left.value, right.value) !== 0, "bool");
  }
  const [a, b] = unify(left, right, fail);
  return { op: "compare", type: "bool", operator, left: a, right: b };
}

/** A Math function on translated operands (also `**`), folded when they are all constants. */
export function math(fn: MathFn, values: Expr[], fail: Fail): Expr {
  if (values.some((v) => v.type === "bool")) fail(`Math.${fn}() needs numbers, not booleans`);
  if (values.every(isWeakConst)) {
    const result = MATH_JS[fn](...values.map((v) => (v as ConstExpr).value as number));
    const integral = values.every((v) => weakness(v) === "int") && Number.isInteger(result);
    return literal(result, integral ? "int" : "float");
  }
  if (fn === "min" || fn === "max") {
    return values.reduce((acc, next) => {
      const [a, b, type] = unify(acc, next, fail);
      return { op: "math", type, fn, args: [a, b] };
    });
  }
  if (values.length === 2) {
    let [a, b, type] = unify(values[0], values[1], fail);
    if (isInt(type)) [a, b, type] = [cast(a, "f64"), cast(b, "f64"), "f64"];
    return { op: "math", type, fn, args: [a, b] };
  }
  const v = settle(values[0], fail);
  if (isInt(v.type as ValueType)) {
    if (fn === "floor" || fn === "ceil" || fn === "round" || (fn === "abs" && v.type === "u32")) return v;
    if (fn === "abs") return { op: "math", type: "i32", fn, args: [v] };
    return { op: "math", type: "f64", fn, args: [cast(v, "f64")] };
  }
  return { op: "math", type: v.type as ScalarType, fn, args: [v] };
}

function integral(e: Expr): boolean {
  return weakness(e) === "int" || (weakness(e) === undefined && isInt(e.type as ValueType));
}

function toF64(e: Expr, fail: Fail): Expr {
  return weakness(e) ? adopt(e, "f64", fail) : cast(e, "f64");
}

/** JavaScript's ToInt32 or ToUint32 of an operand, as the bit operators apply them. */
export function toInt(e: Expr, type: "i32" | "u32", fail: Fail): Expr {
  if (e.type === "bool") fail("bit operators need numbers, not booleans: write cond ? 1 : 0");
  if (isWeakConst(e)) return constant(e.value, type);
  return cast(settle(e, fail), type);
}

/** JavaScript's result of a binary operator on two constants. */
function fold(operator: string, a: number, b: number): number {
  switch (operator) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return a / b;
    case "%":
      return a % b;
    case "**":
      return a ** b;
    case "&":
      return a & b;
    case "|":
      return a | b;
    case "^":
      return a ^ b;
    case "<<":
      return a << b;
    case ">>":
      return a >> b;
    case ">>>":
      return a >>> b;
    case "<":
      return Number(a < b);
    case "<=":
      return Number(a <= b);
    case ">":
      return Number(a > b);
    case ">=":
      return Number(a >= b);
    case "==":
      return Number(a === b);
    default:
      return Number(a !== b);
  }
}
