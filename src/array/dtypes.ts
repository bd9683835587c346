/**
 * NumPy's type promotion for array operations: which dtype `a + b`, `a / b` or `sqrt(a)` gives.
 * Scalars are "weak" (NEP 50): `int32 array + 2` stays int32, `int32 array + 2.5` becomes float64.
 *
 * @module
 */

import { type DType, DTYPES } from "../kernel/dtype.ts";

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
  if (a === b) return a;
  if (a === "bool") return b;
  if (b === "bool") return a;
  const ka = DTYPES[a].kind, kb = DTYPES[b].kind;
  if (ka === "float" && kb === "float") return largerFloat(a, b);
  if (ka === "float") return largerFloat(a, floatHolding(b));
  if (kb === "float") return largerFloat(b, floatHolding(a));
  if (ka === kb) return DTYPES[a].size >= DTYPES[b].size ? a : b;
  const [s, u] = ka === "int" ? [a, b] : [b, a];
  if (DTYPES[s].size > DTYPES[u].size) return s;
  return signedHolding(u) as DType;
}

/** The dtype of an operation between an array of `dtype` and a JS number (a weak scalar). */
export function resultTypeWithScalar(dtype: DType, scalar: number | bigint): DType {
  if (typeof scalar === "bigint") return dtype === "bool" ? "int64" : dtype;
  if (DTYPES[dtype].kind === "float") return dtype;
  if (Number.isInteger(scalar)) return dtype === "bool" ? "int64" : dtype;
  return "float64";
}

/** The dtype true division gives (`/`): floats stay, integers become float64 (float32 for 8/16-bit ones). */
export function divisionType(dtype: DType): DType {
  if (DTYPES[dtype].kind === "float") return dtype;
  return DTYPES[dtype].size <= 2 ? "float32" : "float64";
}
