/**
 * The binary elementwise functions (NumPy's ufuncs of two operands) as functions of the module; each is
 * also a method of `GPUArray` (`ga.add(a, b)` is `a.add(b)`). Arrays broadcast; a JS number or bigint
 * is a weak scalar (NEP 50: it takes the array's dtype where its value fits).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import type { DivisionResult, OperandResult } from "../core/dtypes.ts";
import { binary, type Operand, type OpOptions } from "./ufunc.ts";

/**
 * The dtype of a binary function of operands `A` and `B`: that of the array operand(s), with scalars
 * weak ({@link OperandResult}).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d: ga.BinaryResult<ga.GPUArray<"int16">, number> = "int16";
 * ```
 */
export type BinaryResult<A, B> = A extends GPUArray<infer D> ? OperandResult<D, B>
  : B extends GPUArray<infer E> ? OperandResult<E, A>
  : DType;

/**
 * `a + b`, elementwise, broadcasting; either may be a scalar.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.add(ga.ones([2, 3]), ga.arange(3));
 * ```
 */
export function add<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("add", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * `a - b`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sub(10, ga.arange(4));
 * ```
 */
export function sub<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("sub", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * `a * b`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.mul(ga.arange(4), 2);
 * ```
 */
export function mul<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("mul", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * `a / b`, true division (integers give float64).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.div(ga.arange(4), 2);
 * ```
 */
export function div<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<DivisionResult<BinaryResult<A, B>>> {
  return binary("div", a, b, options) as GPUArray<DivisionResult<BinaryResult<A, B>>>;
}

/**
 * `a ** b` (integer powers exact; a negative integer exponent gives 0 unless the base is ±1).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.pow(ga.arange(4), 2);
 * ```
 */
export function pow<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("pow", a, b, options) as GPUArray;
}

/**
 * The larger of `a` and `b`, elementwise; NaN propagates.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.maximum(ga.asarray([-2, 1]), 0);
 * ```
 */
export function maximum<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("maximum", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * The smaller of `a` and `b`, elementwise; NaN propagates.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.minimum(ga.arange(4), 2);
 * ```
 */
export function minimum<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("minimum", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * The larger of `a` and `b`, elementwise, ignoring a NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.fmax(ga.asarray([NaN, 1]), 0);
 * ```
 */
export function fmax<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("fmax", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * The smaller of `a` and `b`, elementwise, ignoring a NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.fmin(ga.asarray([NaN, 1]), 0);
 * ```
 */
export function fmin<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("fmin", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * The angle of the point (b, a), `atan2(a, b)`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.arctan2(ga.ones(2), ga.asarray([1, -1]));
 * ```
 */
export function arctan2<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("arctan2", a, b, options) as GPUArray;
}

/**
 * `sqrt(a² + b²)`, elementwise, without overflow in between.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.hypot(ga.asarray([3]), 4);
 * ```
 */
export function hypot<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("hypot", a, b, options) as GPUArray;
}

/**
 * Floor division, Python's `a // b` (integer division by zero gives 0).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.floorDivide(ga.asarray([-7, 7], "int32"), 2) // [-4, 3];
 * ```
 */
export function floorDivide<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("floorDivide", a, b, options) as GPUArray;
}

/**
 * The remainder of floor division, with the divisor's sign (Python's `a % b`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.mod(ga.asarray([-7, 7], "int32"), 3) // [2, 1];
 * ```
 */
export function mod<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("mod", a, b, options) as GPUArray;
}

/**
 * `a == b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.eq(ga.arange(3), 1);
 * ```
 */
export function eq<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("eq", a, b, options) as GPUArray<"bool">;
}

/**
 * `a != b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.ne(ga.arange(3), 1);
 * ```
 */
export function ne<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("ne", a, b, options) as GPUArray<"bool">;
}

/**
 * `a < b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.lt(ga.arange(3), 1);
 * ```
 */
export function lt<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("lt", a, b, options) as GPUArray<"bool">;
}

/**
 * `a <= b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.le(ga.arange(3), 1);
 * ```
 */
export function le<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("le", a, b, options) as GPUArray<"bool">;
}

/**
 * `a > b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.gt(ga.arange(3), 1);
 * ```
 */
export function gt<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("gt", a, b, options) as GPUArray<"bool">;
}

/**
 * `a >= b` as a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.ge(ga.arange(3), 1);
 * ```
 */
export function ge<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray<"bool"> {
  return binary("ge", a, b, options) as GPUArray<"bool">;
}

/**
 * Whether both are non-zero, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.logicalAnd(ga.arange(3), 1);
 * ```
 */
export function logicalAnd<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<"bool"> {
  return binary("logicalAnd", a, b, options) as GPUArray<"bool">;
}

/**
 * Whether either is non-zero, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.logicalOr(ga.arange(3), 0);
 * ```
 */
export function logicalOr<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<"bool"> {
  return binary("logicalOr", a, b, options) as GPUArray<"bool">;
}

/**
 * Whether exactly one is non-zero, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.logicalXor(ga.arange(3), 1);
 * ```
 */
export function logicalXor<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<"bool"> {
  return binary("logicalXor", a, b, options) as GPUArray<"bool">;
}

/**
 * Bitwise and of integer or bool arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.bitwiseAnd(ga.arange(8, undefined, 1, "int32"), 3);
 * ```
 */
export function bitwiseAnd<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("bitwiseAnd", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * Bitwise or of integer or bool arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.bitwiseOr(ga.arange(8, undefined, 1, "int32"), 1);
 * ```
 */
export function bitwiseOr<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("bitwiseOr", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * Bitwise exclusive or of integer or bool arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.bitwiseXor(ga.arange(8, undefined, 1, "int32"), 5);
 * ```
 */
export function bitwiseXor<A extends Operand, B extends Operand>(
  a: A,
  b: B,
  options?: OpOptions,
): GPUArray<BinaryResult<A, B>> {
  return binary("bitwiseXor", a, b, options) as GPUArray<BinaryResult<A, B>>;
}

/**
 * `a << b` for integer arrays (0 once the shift passes the width, as NumPy).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.leftShift(ga.ones(4, "int32"), ga.arange(4, undefined, 1, "int32"));
 * ```
 */
export function leftShift<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("leftShift", a, b, options) as GPUArray;
}

/**
 * `a >> b` for integer arrays, arithmetic for signed types.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.rightShift(ga.full(4, 16, "int32"), 2);
 * ```
 */
export function rightShift<A extends Operand, B extends Operand>(a: A, b: B, options?: OpOptions): GPUArray {
  return binary("rightShift", a, b, options) as GPUArray;
}
