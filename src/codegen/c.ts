/**
 * The C pieces generated array kernels are assembled from, by dialect name: each delegates to the
 * dialect's {@link Target} (`targets.ts`), so generators that hold a dialect rather than a target
 * read the same spellings. Nothing here tells dialects apart.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import { targetOf } from "./targets.ts";
import { complexPrefix } from "./complex.ts";

/**
 * A C spelling of `dtype` in `dialect`.
 *
 * @example
 * ```ts
 * import { cType } from "./c.ts";
 * console.log(cType("uint8", "opencl")); // uchar
 * ```
 */
export function cType(dtype: DType, dialect: Dialect): string {
  return targetOf(dialect).cType(dtype);
}

/**
 * The type arithmetic on `dtype` is done in: float for the 16-bit floats, bool as int, else itself.
 *
 * @example
 * ```ts
 * import { computeType } from "./c.ts";
 * console.log(computeType("float16")); // float32
 * ```
 */
export function computeType(dtype: DType): DType {
  if (dtype === "float16" || dtype === "bfloat16") return "float32";
  if (dtype === "bool") return "int32";
  return dtype;
}

/**
 * What a kernel source must start with to use these dtypes (half and bfloat16 headers, fp64/fp16 pragmas).
 *
 * @example
 * ```ts
 * import { preamble } from "./c.ts";
 * console.log(preamble(["float64"], "opencl")); // #pragma OPENCL EXTENSION cl_khr_fp64 : enable
 * ```
 */
export function preamble(dtypes: readonly DType[], dialect: Dialect): string {
  return targetOf(dialect).preamble(dtypes);
}

/**
 * Converts `expr` (of a compute type) to a value stored as `to`.
 *
 * @example
 * ```ts
 * import { castTo } from "./c.ts";
 * console.log(castTo("x", "int32", "cuda")); // (int)(x)
 * ```
 */
export function castTo(expr: string, to: DType, dialect: Dialect): string {
  return targetOf(dialect).castTo(expr, to);
}

/**
 * `expr`, a value of compute type `from`, as compute type `to`: a C conversion between real types; a
 * real number becomes a complex one with a zero imaginary part, a complex number of the other width
 * converts both parts, and a complex number becomes a real one by its real part (NumPy's `astype`).
 *
 * @example
 * ```ts
 * import { convert } from "./c.ts";
 * console.log(convert("x", "float32", "int32", "cuda")); // ((int)x)
 * ```
 */
export function convert(expr: string, from: DType, to: DType, dialect: Dialect): string {
  if (from === to) return expr;
  const fromComplex = DTYPES[from].kind === "complex", toComplex = DTYPES[to].kind === "complex";
  if (!fromComplex && !toComplex) return `((${cType(to, dialect)})${expr})`;
  if (!toComplex) return `((${cType(to, dialect)})(${expr}).x)`;
  if (fromComplex) return `${complexPrefix(to)}from_${from === "complex64" ? "c64" : "c128"}(${expr})`;
  const real = to === "complex64" ? "float32" : "float64";
  return `${complexPrefix(to)}make((${cType(real, dialect)})(${expr}), 0)`;
}

/**
 * Reads a stored value of `dtype` as its compute type.
 *
 * @example
 * ```ts
 * import { load } from "./c.ts";
 * console.log(load("x[i]", "bool", "opencl")); // (int)(x[i])
 * ```
 */
export function load(expr: string, dtype: DType, dialect: Dialect): string {
  return targetOf(dialect).load(expr, dtype);
}

/**
 * The name of a C math function for `dtype` (CUDA spells float versions with an `f`).
 *
 * @example
 * ```ts
 * import { mathFn } from "./c.ts";
 * console.log(mathFn("exp", "float32", "cuda")); // expf
 * ```
 */
export function mathFn(name: string, dtype: DType, dialect: Dialect): string {
  return targetOf(dialect).mathFn(name, dtype);
}

/**
 * Positive or negative infinity of a floating compute type, as a C expression.
 *
 * @example
 * ```ts
 * import { infinity } from "./c.ts";
 * console.log(infinity("float32", "opencl", true)); // (-INFINITY)
 * ```
 */
export function infinity(dtype: DType, dialect: Dialect, negative = false): string {
  return targetOf(dialect).infinity(dtype, negative);
}

/**
 * A global-memory pointer parameter of `dtype`, not aliased by another.
 *
 * @example
 * ```ts
 * import { pointerParam } from "./c.ts";
 * console.log(pointerParam("float32", "x", "cuda", true)); // const float *__restrict__ x
 * ```
 */
export function pointerParam(dtype: DType, name: string, dialect: Dialect, readOnly = false): string {
  return targetOf(dialect).pointerParam(dtype, name, readOnly);
}

/**
 * The 64-bit integer type used for element indices.
 *
 * @example
 * ```ts
 * import { indexType } from "./c.ts";
 * console.log(indexType("cuda")); // long long
 * ```
 */
export function indexType(dialect: Dialect): string {
  return targetOf(dialect).indexType;
}

const INT_RANGE: Partial<Record<DType, readonly [string, string]>> = {
  int8: ["-128", "127"],
  uint8: ["0", "255"],
  bool: ["0", "1"],
  int16: ["-32768", "32767"],
  uint16: ["0", "65535"],
  int32: ["(-2147483647 - 1)", "2147483647"],
  uint32: ["0u", "4294967295u"],
  int64: ["(-9223372036854775807LL - 1)", "9223372036854775807LL"],
  uint64: ["0ULL", "18446744073709551615ULL"],
};

/**
 * The largest value of a compute type (+infinity for floats), as a C expression: the neutral element of min.
 *
 * @example
 * ```ts
 * import { highest } from "./c.ts";
 * console.log(highest("int32", "cuda")); // 2147483647
 * ```
 */
export function highest(dtype: DType, dialect: Dialect): string {
  return DTYPES[dtype].kind === "float" ? infinity(dtype, dialect) : INT_RANGE[dtype]![1];
}

/**
 * The lowest value of a compute type (-infinity for floats), as a C expression: the neutral element of max.
 *
 * @example
 * ```ts
 * import { lowest } from "./c.ts";
 * console.log(lowest("uint8", "opencl")); // 0
 * ```
 */
export function lowest(dtype: DType, dialect: Dialect): string {
  return DTYPES[dtype].kind === "float" ? infinity(dtype, dialect, true) : INT_RANGE[dtype]![0];
}

/**
 * A literal of `value` in a compute type (`2.5f`, `3`, `1.0e+300`).
 *
 * @example
 * ```ts
 * import { literal } from "./c.ts";
 * console.log(literal(2.5, "float32", "cuda")); // 2.5f
 * ```
 */
export function literal(value: number, dtype: DType, dialect: Dialect): string {
  return targetOf(dialect).literal(value, dtype);
}
