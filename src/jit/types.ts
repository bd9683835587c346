/**
 * The JIT's types: the names a signature uses, what they hold, their DTypes, and the promotion rules
 * that decide the type of `a + b` when `a` and `b` differ.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";

/**
 * A scalar parameter, local or return type: 32-bit signed and unsigned integers, and single- and
 * double-precision floats.
 *
 * @example
 * ```ts
 * import { device, type ScalarType } from "@cudeno/cudeno/jit";
 * const returns: ScalarType = "f32";
 * const half = device({ x: "f32" }, returns, (x) => x * 0.5);
 * ```
 */
export type ScalarType = "i32" | "u32" | "f32" | "f64";

/**
 * The element type of a 1-D array parameter or shared array. Reads of i8, u8, i16 and u16 elements
 * give i32 values.
 *
 * @example
 * ```ts
 * import { type ElementType, jit, shared } from "@cudeno/cudeno/jit";
 * const element: ElementType = "u16";
 * const k = jit({ out: "u16[]" }, (out) => {
 *   const tile = shared.array("u16", 32);
 *   out[0] = tile[0];
 * });
 * ```
 */
export type ElementType = "f32" | "f64" | "i32" | "u32" | "i8" | "u8" | "i16" | "u16";

/**
 * A 1-D array parameter type: `"f32[]"`. In C it is a pointer (`float *`, in OpenCL
 * `__global float *`); the simulator takes the matching typed array (a Float32Array).
 *
 * @example
 * ```ts
 * import type { ArrayType } from "@cudeno/cudeno/jit";
 * const input: ArrayType = "f32[]";
 * ```
 */
export type ArrayType = `${ElementType}[]`;

/**
 * A parameter type in a kernel or device-function signature.
 *
 * @example
 * ```ts
 * import type { JitType } from "@cudeno/cudeno/jit";
 * const signature: Record<string, JitType> = { x: "f32[]", n: "i32" };
 * ```
 */
export type JitType = ScalarType | ArrayType;

/**
 * What a device function returns: a scalar, or `"void"` for one that only writes arrays.
 *
 * @example
 * ```ts
 * import { device, type ReturnType } from "@cudeno/cudeno/jit";
 * const returns: ReturnType = "void";
 * const zero = device({ a: "f32[]" }, "void", (a) => {
 *   a[0] = 0;
 * });
 * ```
 */
export type ReturnType = ScalarType | "void";

/** The type of a value inside a kernel: a scalar, or the boolean that comparisons produce. */
export type ValueType = ScalarType | "bool";

/**
 * A host typed array of one of the element types: what `simulate()` takes for an array parameter.
 *
 * @example
 * ```ts
 * import type { HostArray } from "@cudeno/cudeno/jit";
 * const args: (number | HostArray)[] = [new Float32Array(8), 8];
 * ```
 */
export type HostArray =
  | Float32Array
  | Float64Array
  | Int32Array
  | Uint32Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array;

/** What the JIT knows about one element type. */
export interface ElementInfo {
  /** The DType of the elements. */
  readonly dtype: DType;
  /** The scalar type a read of one element gives (`i8` reads as `i32`, as JavaScript reads a number). */
  readonly value: ScalarType;
  /** Bytes per element. */
  readonly size: number;
  /** The host typed array that holds the elements. */
  readonly array: { new (length: number): HostArray; readonly name: string };
}

/** Every element type, with its DType, read type and host array. */
export const ELEMENTS: Readonly<Record<ElementType, ElementInfo>> = Object.freeze({
  f32: { dtype: "float32", value: "f32", size: 4, array: Float32Array },
  f64: { dtype: "float64", value: "f64", size: 8, array: Float64Array },
  i32: { dtype: "int32", value: "i32", size: 4, array: Int32Array },
  u32: { dtype: "uint32", value: "u32", size: 4, array: Uint32Array },
  i8: { dtype: "int8", value: "i32", size: 1, array: Int8Array },
  u8: { dtype: "uint8", value: "i32", size: 1, array: Uint8Array },
  i16: { dtype: "int16", value: "i32", size: 2, array: Int16Array },
  u16: { dtype: "uint16", value: "i32", size: 2, array: Uint16Array },
});

/** The DType of each scalar type. */
export const SCALAR_DTYPES: Readonly<Record<ScalarType, DType>> = Object.freeze({
  i32: "int32",
  u32: "uint32",
  f32: "float32",
  f64: "float64",
});

/** A parsed signature type. */
export type ParsedType =
  | { readonly kind: "scalar"; readonly type: ScalarType }
  | { readonly kind: "array"; readonly element: ElementType };

/** Reads a signature type string, or returns undefined when it names no JIT type. */
export function parseType(text: unknown): ParsedType | undefined {
  if (typeof text !== "string") return undefined;
  if (Object.hasOwn(SCALAR_DTYPES, text)) return { kind: "scalar", type: text as ScalarType };
  const element = text.endsWith("[]") ? text.slice(0, -2) : "";
  if (Object.hasOwn(ELEMENTS, element)) return { kind: "array", element: element as ElementType };
  return undefined;
}

/** Every signature type, for messages. */
export const TYPE_NAMES: string = [
  ...Object.keys(SCALAR_DTYPES),
  ...Object.keys(ELEMENTS).map((e) => `${e}[]`),
].join(", ");

/** Whether a type is i32 or u32. */
export function isInt(type: ValueType): type is "i32" | "u32" {
  return type === "i32" || type === "u32";
}

/** Whether a type is f32 or f64. */
export function isFloat(type: ValueType): type is "f32" | "f64" {
  return type === "f32" || type === "f64";
}

/**
 * The common type of two scalar types in arithmetic and comparisons, or undefined when there is none:
 * - an integer with a float gives that float (the integer is converted, as C converts it);
 * - f32 with f64 gives f64;
 * - i32 with u32 has none: JavaScript adds and compares them exactly, C would convert the i32 to u32,
 *   so the kernel must say which it means with `i32()` or `u32()`.
 */
export function promote(a: ScalarType, b: ScalarType): ScalarType | undefined {
  if (a === b) return a;
  if (isFloat(a) && isFloat(b)) return "f64";
  if (isFloat(a)) return a;
  if (isFloat(b)) return b;
  return undefined;
}

/** Whether a number is exactly representable in an integer type. */
export function fits(value: number, type: "i32" | "u32"): boolean {
  if (!Number.isInteger(value)) return false;
  return type === "i32" ? value >= -0x80000000 && value <= 0x7fffffff : value >= 0 && value <= 0xffffffff;
}

/** Converts a number to a scalar type with JavaScript's conversions (`|0`, `>>>0`, `Math.fround`). */
export function convert(value: number, type: ScalarType): number {
  switch (type) {
    case "i32":
      return value | 0;
    case "u32":
      return value >>> 0;
    case "f32":
      return Math.fround(value);
    case "f64":
      return value;
  }
}
