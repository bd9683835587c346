/**
 * Typing rules on IR expressions: how literals adopt a type, how two operands meet at a common type,
 * and which implicit conversions assignments, stores and arguments allow.
 *
 * Literals are weak: `2.5` and `2` have no fixed type until they meet a typed operand (`x * 2.5` is f32
 * when `x` is f32) or a typed destination. Standing alone, an integer literal is i32 (u32 past 2^31-1,
 * f64 past 2^32-1) and a float literal is f64.
 *
 * @module
 */

import type { ConstExpr, Expr } from "./ir.ts";
import {
  convert,
  ELEMENTS,
  type ElementType,
  fits,
  isFloat,
  isInt,
  promote,
  type ScalarType,
  type ValueType,
} from "./types.ts";

/** Reports a typing problem; the caller adds the position. */
export type Fail = (detail: string) => never;

/** A weak literal of a number. */
export function literal(value: number, kind: "int" | "float"): ConstExpr {
  const type: ScalarType = kind === "int" && fits(value, "i32")
    ? "i32"
    : kind === "int" && fits(value, "u32")
    ? "u32"
    : "f64";
  return { op: "const", type, value, weak: kind === "float" || type === "f64" ? "float" : "int" };
}

/** A typed constant. */
export function constant(value: number | boolean, type: ValueType): ConstExpr {
  return { op: "const", type, value: typeof value === "number" ? convert(value, type as ScalarType) : value };
}

/** The weak kind of an expression: `"int"`, `"float"`, or undefined when its type is settled. */
export function weakness(e: Expr): "int" | "float" | undefined {
  return e.op === "const" || e.op === "select" ? e.weak : undefined;
}

/** Whether an expression is a weak constant with a known value. */
export function isWeakConst(e: Expr): e is ConstExpr & { value: number } {
  return e.op === "const" && e.weak !== undefined;
}

/** Gives a weak expression the type it has standing alone; a settled one is returned as it is. */
export function settle(e: Expr, fail: Fail): Expr {
  if (e.op === "const" && e.weak) return constant(e.value, e.type);
  if (e.op === "select" && e.weak) {
    const [then, otherwise, type] = unify(settle(e.then, fail), settle(e.otherwise, fail), fail);
    return { op: "select", type, test: e.test, then, otherwise };
  }
  return e;
}

/**
 * Converts a weak expression to a type: an integer literal to any numeric type it fits, a float
 * literal to f32 or f64. Fails on a float literal for an integer type.
 */
export function adopt(e: Expr, type: ScalarType, fail: Fail): Expr {
  if (e.op === "const" && e.weak) {
    const value = e.value as number;
    if (isInt(type) && !fits(value, type)) {
      fail(
        Number.isInteger(value)
          ? `${value} does not fit in ${type}`
          : `${value} is not an integer: it cannot be used as ${type}; convert the other side with f64()`,
      );
    }
    return constant(value, type);
  }
  if (e.op === "select" && e.weak) {
    return {
      op: "select",
      type,
      test: e.test,
      then: adopt(e.then, type, fail),
      otherwise: adopt(e.otherwise, type, fail),
    };
  }
  return e;
}

/** Converts a settled expression to a type with a cast node (nothing when it already has the type). */
export function cast(e: Expr, type: ScalarType): Expr {
  if (e.type === type) return e;
  if (e.op === "const") return constant(e.value as number, type);
  return { op: "cast", type, value: e };
}

/**
 * Brings two numeric operands to their common type (see `promote` in types.ts): a weak operand adopts
 * the other's type where it can (a float literal meeting an integer makes both f64), then the narrower
 * operand is converted.
 */
export function unify(left: Expr, right: Expr, fail: Fail): [Expr, Expr, ScalarType] {
  if (left.type === "bool" || right.type === "bool") {
    fail("booleans cannot be used as numbers: write cond ? 1 : 0");
  }
  const wl = weakness(left), wr = weakness(right);
  if (wl && wr) {
    left = settle(left, fail);
    right = settle(right, fail);
  } else if (wl) {
    left = meet(left, wl, right.type as ScalarType, fail);
  } else if (wr) {
    right = meet(right, wr, left.type as ScalarType, fail);
  }
  const type = promote(left.type as ScalarType, right.type as ScalarType);
  if (type === undefined) {
    fail(`it mixes ${left.type} and ${right.type}: convert one side with i32() or u32()`);
  }
  return [cast(left, type), cast(right, type), type];
}

function meet(weak: Expr, kind: "int" | "float", type: ScalarType, fail: Fail): Expr {
  return kind === "float" && isInt(type) ? settle(weak, fail) : adopt(weak, type, fail);
}

/**
 * Converts a value for a destination of type `to` (a local, a parameter, a return value): the same
 * type, an integer into a float, or f32 into f64. Narrowing and i32/u32 changes need a cast.
 */
export function assignable(e: Expr, to: ValueType, what: string, fail: Fail): Expr {
  if (to === "bool" || e.type === "bool") {
    if (to === e.type) return e;
    fail(`${what} is ${to} and cannot hold a ${e.type}${to === "bool" ? "" : ": write cond ? 1 : 0"}`);
  }
  const kind = weakness(e);
  if (kind) {
    if (kind === "float" && isInt(to)) {
      fail(`${what} is ${to} and cannot hold the float ${describe(e)}: convert with ${to}()`);
    }
    return adopt(e, to, fail);
  }
  const from = e.type as ScalarType;
  if (from === to || (isFloat(to) && isInt(from)) || (from === "f32" && to === "f64")) return cast(e, to);
  return fail(`${what} is ${to} and cannot hold a ${from}: convert with ${to}()`);
}

/**
 * Converts a value for a store into an array: any number into a float array (the array rounds it, as
 * a Float32Array does); an integer into an integer array (the array wraps it, as an Int8Array does).
 */
export function storable(e: Expr, element: ElementType, fail: Fail): Expr {
  const value = ELEMENTS[element].value;
  if (e.type === "bool") fail(`a ${element}[] element cannot hold a boolean: write cond ? 1 : 0`);
  const kind = weakness(e);
  if (isFloat(value)) return kind ? adopt(e, value, fail) : e;
  if (kind === "float" || isFloat(e.type as ValueType)) {
    fail(`a ${element}[] element cannot hold a float: convert with i32() or u32()`);
  }
  if (kind) {
    const settled = settle(e, fail);
    return settled.type === "f64" ? fail(`${describe(e)} does not fit in ${element}`) : settled;
  }
  return e;
}

function describe(e: Expr): string {
  return e.op === "const" ? String(e.value) : "value";
}
