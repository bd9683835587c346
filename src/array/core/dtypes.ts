/**
 * NumPy's type promotion for array operations: which dtype `a + b`, `a / b` or `sqrt(a)` gives.
 * Scalars are "weak" (NEP 50): `int32 array + 2` stays int32, `int32 array + 2.5` becomes float64.
 *
 * @module
 */

import { type DType, DTYPES, isDType } from "../../kernel/dtype.ts";
import { describe } from "./describe.ts";
import type { PromotionTable } from "./promotion_table.ts";

const FLOAT_ORDER: DType[] = ["float16", "bfloat16", "float32", "float64"];
const SIGNED: DType[] = ["int8", "int16", "int32", "int64"];
const UNSIGNED: DType[] = ["uint8", "uint16", "uint32", "uint64"];

function signedHolding(u: DType): DType | "float64" {
  const i = UNSIGNED.indexOf(u);
  return i < 3 ? SIGNED[i + 1]! : "float64";
}

function floatHolding(intType: DType): DType {
  const size = DTYPES[intType].size;
  return size === 1 ? "float16" : size === 2 ? "float32" : "float64";
}

function largerFloat(a: DType, b: DType): DType {
  if ((a === "float16" && b === "bfloat16") || (a === "bfloat16" && b === "float16")) return "float32";
  return FLOAT_ORDER.indexOf(a) >= FLOAT_ORDER.indexOf(b) ? a : b;
}

/**
 * The dtype of a binary operation on two arrays (NumPy's `result_type`).
 *
 * @example
 * ```ts
 * import { resultType } from "@cudeno/cudeno/array";
 * console.log(resultType("int32", "float32")); // "float64"
 * ```
 */
export function resultType(a: DType, b: DType): DType {
  if (!isDType(a) || !isDType(b)) {
    throw new TypeError(
      `Cannot find the result type of ${describe(a)} and ${
        describe(b)
      }: pass two dtypes, such as "float32" and "int8" (an array's is a.dtype)`,
    );
  }
  if (a === b) return a;
  if (a === "bool") return b;
  if (b === "bool") return a;
  const ka = DTYPES[a].kind, kb = DTYPES[b].kind;
  if (ka === "complex" || kb === "complex") return complexOf(resultType(realOf(a), realOf(b)));
  if (ka === "float" && kb === "float") return largerFloat(a, b);
  if (ka === "float") return largerFloat(a, floatHolding(b));
  if (kb === "float") return largerFloat(b, floatHolding(a));
  if (ka === kb) return DTYPES[a].size >= DTYPES[b].size ? a : b;
  const [s, u] = ka === "int" ? [a, b] : [b, a];
  if (DTYPES[s].size > DTYPES[u].size) return s;
  return signedHolding(u) as DType;
}

/**
 * The real dtype of a complex one's parts (complex64: float32); other dtypes are their own.
 *
 * @example
 * ```ts
 * import { realOf } from "@cudeno/cudeno/array";
 * console.log(realOf("complex128"), realOf("int8")); // "float64" "int8"
 * ```
 */
export function realOf(dtype: DType): DType {
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot find the real dtype of ${describe(dtype)}: pass a dtype, such as "complex64"`,
    );
  }
  return dtype === "complex64" ? "float32" : dtype === "complex128" ? "float64" : dtype;
}

/**
 * The complex dtype that holds values of `dtype` (float64 and the 32/64-bit integers: complex128;
 * the other reals: complex64).
 *
 * @example
 * ```ts
 * import { complexOf } from "@cudeno/cudeno/array";
 * console.log(complexOf("float32"), complexOf("int32")); // "complex64" "complex128"
 * ```
 */
export function complexOf(dtype: DType): ComplexDType {
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot find the complex dtype of ${describe(dtype)}: pass a dtype, such as "float32"`,
    );
  }
  if (dtype === "complex64" || dtype === "complex128") return dtype;
  const real = DTYPES[dtype].kind === "float" ? dtype : resultType(dtype, "float32");
  return real === "float64" ? "complex128" : "complex64";
}

/** The dtype of an operation between an array of `dtype` and a JS number (a weak scalar). */
export function resultTypeWithScalar(dtype: DType, scalar: number | bigint): DType {
  if (typeof scalar === "bigint") return dtype === "bool" ? "int64" : dtype;
  if (DTYPES[dtype].kind === "float" || DTYPES[dtype].kind === "complex") return dtype;
  if (Number.isInteger(scalar)) return dtype === "bool" ? "int64" : dtype;
  return "float64";
}

/**
 * The float dtypes.
 *
 * @example
 * ```ts
 * import type { FloatDType } from "@cudeno/cudeno/array";
 * const d: FloatDType = "bfloat16";
 * ```
 */
export type FloatDType = "float16" | "bfloat16" | "float32" | "float64";

/**
 * The complex dtypes: pairs of float32 or float64 (real, imaginary), as NumPy's and C's.
 *
 * @example
 * ```ts
 * import type { ComplexDType } from "@cudeno/cudeno/array";
 * const d: ComplexDType = "complex64";
 * ```
 */
export type ComplexDType = "complex64" | "complex128";

/**
 * {@link resultType} at the type level: the dtype `a.add(b)` has for arrays of dtypes `A` and `B`, so a
 * result's `get()` is typed (`float32` with `float32` gives a `Float32Array`).
 *
 * @example
 * ```ts
 * import type { ResultType } from "@cudeno/cudeno/array";
 * const d: ResultType<"int32", "float32"> = "float64";
 * ```
 */
export type ResultType<A extends DType, B extends DType> = A extends DType
  ? B extends DType ? PromotionTable[A][B]
  : never
  : never;

/**
 * The dtype of an operation between an array of `D` and an operand `O`: an array's dtype promotes by
 * {@link ResultType}; a JS number is weak (NEP 50), so it keeps a float dtype and may give float64
 * for an integer one (`int32 + 0.5`); a bigint keeps an integer dtype.
 *
 * @example
 * ```ts
 * import type { OperandResult } from "@cudeno/cudeno/array";
 * const d: OperandResult<"float32", number> = "float32";
 * ```
 */
export type OperandResult<D extends DType, O> = O extends { readonly dtype: infer E extends DType }
  ? ResultType<D, E>
  : O extends bigint ? (D extends "bool" ? "int64" : D)
  : D extends FloatDType | ComplexDType ? D
  : D extends "bool" ? "int64" | "float64"
  : D | "float64";

/**
 * The dtype of float functions (`exp`, `sqrt`, `arctan2`) of `D`: floats keep theirs; bool and
 * 8/16-bit integers give float32, 32/64-bit integers float64.
 *
 * @example
 * ```ts
 * import type { FloatResult } from "@cudeno/cudeno/array";
 * const d: FloatResult<"int32"> = "float64";
 * ```
 */
export type FloatResult<D extends DType> = D extends FloatDType | ComplexDType ? D
  : D extends "int32" | "uint32" | "int64" | "uint64" ? "float64"
  : "float32";

/**
 * The dtype of true division (`div`) of `D`: floats keep theirs, integers and bools give float64.
 *
 * @example
 * ```ts
 * import type { DivisionResult } from "@cudeno/cudeno/array";
 * const d: DivisionResult<"int8"> = "float64";
 * ```
 */
export type DivisionResult<D extends DType> = D extends FloatDType | ComplexDType ? D : "float64";

/**
 * `D`, or int8 where `D` is bool: NumPy's `pow`, `square`, `floorDivide` and shifts compute bools as
 * int8.
 *
 * @example
 * ```ts
 * import type { BoolAsInt8 } from "@cudeno/cudeno/array";
 * const d: BoolAsInt8<"bool"> = "int8";
 * ```
 */
export type BoolAsInt8<D extends DType> = D extends "bool" ? "int8" : D;

/**
 * {@link realOf} at the type level: a complex dtype's parts' float dtype; others are their own.
 *
 * @example
 * ```ts
 * import type { RealOf } from "@cudeno/cudeno/array";
 * const d: RealOf<"complex64"> = "float32";
 * ```
 */
export type RealOf<D extends DType> = D extends "complex64" ? "float32"
  : D extends "complex128" ? "float64"
  : D;

/**
 * {@link complexOf} at the type level: the complex dtype that holds values of `D`.
 *
 * @example
 * ```ts
 * import type { ComplexOf } from "@cudeno/cudeno/array";
 * const d: ComplexOf<"int32"> = "complex128";
 * ```
 */
export type ComplexOf<D extends DType> = D extends ComplexDType ? D
  : D extends "float64" | "int32" | "uint32" | "int64" | "uint64" ? "complex128"
  : "complex64";

/**
 * The dtype an elementwise function gives by its dtype rule's name, for operands promoting to `D`: the
 * op table's rules (`src/array/ops/elementwise.ts`) at the type level.
 *
 * @example
 * ```ts
 * import type { RuleResult } from "@cudeno/cudeno/array";
 * const d: RuleResult<"float", "int16"> = "float32";
 * ```
 */
export type RuleResult<R extends string, D extends DType> = R extends "bool" ? "bool"
  : R extends "abs" ? RealOf<D>
  : R extends "real" ? RealOf<FloatResult<D>>
  : R extends "complex" ? ComplexOf<D>
  : R extends "float" ? FloatResult<D>
  : R extends "division" ? DivisionResult<D>
  : R extends "int8ForBool" ? BoolAsInt8<D>
  : D;

/**
 * The dtype operands `A` and `B` of a binary function promote to: that of the array operand(s), with
 * scalars weak ({@link OperandResult}).
 *
 * @example
 * ```ts
 * import type { BinaryResult, GPUArray } from "@cudeno/cudeno/array";
 * const d: BinaryResult<GPUArray<"int16">, number> = "int16";
 * ```
 */
export type BinaryResult<A, B> = A extends { readonly dtype: infer D extends DType } ? OperandResult<D, B>
  : B extends { readonly dtype: infer E extends DType } ? OperandResult<E, A>
  : DType;
