/**
 * Element types shared by every layer: kernels' C types, GPU arrays, NumPy files.
 *
 * @module
 */

/** The element types cudeno knows, named as NumPy names them. */
export type DType =
  | "float32"
  | "float64"
  | "float16"
  | "bfloat16"
  | "int8"
  | "uint8"
  | "int16"
  | "uint16"
  | "int32"
  | "uint32"
  | "int64"
  | "uint64"
  | "bool"
  | "complex64"
  | "complex128";

/** Any typed array a DType is stored in on the host. */
export type TypedArray =
  | Float32Array
  | Float64Array
  | Float16Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/** The host typed array that holds each DType (bfloat16 is kept as its raw bits in a Uint16Array). */
export interface HostArrayOf {
  /** A float32 array is held in a Float32Array. */
  float32: Float32Array;
  /** A float64 array is held in a Float64Array. */
  float64: Float64Array;
  /** A float16 array is held in a Float16Array. */
  float16: Float16Array;
  /** A bfloat16 array is held in a Uint16Array. */
  bfloat16: Uint16Array;
  /** A int8 array is held in a Int8Array. */
  int8: Int8Array;
  /** A uint8 array is held in a Uint8Array. */
  uint8: Uint8Array;
  /** A int16 array is held in a Int16Array. */
  int16: Int16Array;
  /** A uint16 array is held in a Uint16Array. */
  uint16: Uint16Array;
  /** A int32 array is held in a Int32Array. */
  int32: Int32Array;
  /** A uint32 array is held in a Uint32Array. */
  uint32: Uint32Array;
  /** A int64 array is held in a BigInt64Array. */
  int64: BigInt64Array;
  /** A uint64 array is held in a BigUint64Array. */
  uint64: BigUint64Array;
  /** A bool array is held in a Uint8Array. */
  bool: Uint8Array;
  /** A complex64 array is held in a Float32Array, real and imaginary parts interleaved. */
  complex64: Float32Array;
  /** A complex128 array is held in a Float64Array, real and imaginary parts interleaved. */
  complex128: Float64Array;
}

/** What is known about one DType. */
export interface DTypeInfo {
  /** The DType's name. */
  readonly name: DType;
  /** Bytes per element. */
  readonly size: number;
  /** Whether elements are floating point, signed or unsigned integers, or booleans. */
  readonly kind: "float" | "int" | "uint" | "bool" | "complex";
  /** Host typed-array elements per element: 2 for the complex dtypes (real and imaginary parts), else 1. */
  readonly parts: 1 | 2;
  /** The host typed array constructor. */
  readonly array: {
    new (length: number): TypedArray;
    new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): TypedArray;
  };
  /** The CUDA C spelling of the type. */
  readonly cuda: string;
  /** The OpenCL C spelling of the type. */
  readonly opencl: string;
  /** NumPy's little-endian type string (`<f4`). */
  readonly npy: string;
}

function info(
  name: DType,
  size: number,
  kind: DTypeInfo["kind"],
  array: DTypeInfo["array"],
  cuda: string,
  opencl: string,
  npy: string,
): DTypeInfo {
  return Object.freeze({ name, size, kind, parts: kind === "complex" ? 2 : 1, array, cuda, opencl, npy });
}

/**
 * Every DType with its size, kind, host array and C spellings.
 *
 * @example
 * ```ts
 * import { DTYPES } from "@cudeno/cudeno/array";
 * console.log(DTYPES.float32.size, DTYPES.float32.cuda); // 4 "float"
 * ```
 */
export const DTYPES: Readonly<Record<DType, DTypeInfo>> = Object.freeze({
  float32: info("float32", 4, "float", Float32Array, "float", "float", "<f4"),
  float64: info("float64", 8, "float", Float64Array, "double", "double", "<f8"),
  float16: info("float16", 2, "float", Float16Array, "__half", "half", "<f2"),
  bfloat16: info("bfloat16", 2, "float", Uint16Array, "__nv_bfloat16", "ushort", "<V2"),
  int8: info("int8", 1, "int", Int8Array, "signed char", "char", "|i1"),
  uint8: info("uint8", 1, "uint", Uint8Array, "unsigned char", "uchar", "|u1"),
  int16: info("int16", 2, "int", Int16Array, "short", "short", "<i2"),
  uint16: info("uint16", 2, "uint", Uint16Array, "unsigned short", "ushort", "<u2"),
  int32: info("int32", 4, "int", Int32Array, "int", "int", "<i4"),
  uint32: info("uint32", 4, "uint", Uint32Array, "unsigned int", "uint", "<u4"),
  int64: info("int64", 8, "int", BigInt64Array, "long long", "long", "<i8"),
  uint64: info("uint64", 8, "uint", BigUint64Array, "unsigned long long", "ulong", "<u8"),
  bool: info("bool", 1, "bool", Uint8Array, "bool", "uchar", "|b1"),
  complex64: info("complex64", 8, "complex", Float32Array, "float2", "float2", "<c8"),
  complex128: info("complex128", 16, "complex", Float64Array, "double2", "double2", "<c16"),
});

/**
 * Checks that a string names a DType.
 *
 * @example
 * ```ts
 * import { isDType } from "@cudeno/cudeno/array";
 * console.log(isDType("float32"), isDType("float")); // true false
 * ```
 */
export function isDType(name: unknown): name is DType {
  return typeof name === "string" && Object.hasOwn(DTYPES, name);
}

/**
 * The DType a host typed array holds (a Uint16Array is read as uint16, a Uint8Array as uint8).
 *
 * @example
 * ```ts
 * import { dtypeOf } from "@cudeno/cudeno/array";
 * console.log(dtypeOf(new Float32Array(4))); // "float32"
 * ```
 */
export function dtypeOf(array: ArrayBufferView): DType {
  if (array instanceof Float32Array) return "float32";
  if (array instanceof Float64Array) return "float64";
  if (array instanceof Float16Array) return "float16";
  if (array instanceof Int8Array) return "int8";
  if (array instanceof Uint8Array || array instanceof Uint8ClampedArray) return "uint8";
  if (array instanceof Int16Array) return "int16";
  if (array instanceof Uint16Array) return "uint16";
  if (array instanceof Int32Array) return "int32";
  if (array instanceof Uint32Array) return "uint32";
  if (array instanceof BigInt64Array) return "int64";
  if (array instanceof BigUint64Array) return "uint64";
  const kind = typeof array === "object" && array !== null
    ? array.constructor?.name ?? "an object"
    : String(array);
  throw new TypeError(`Cannot infer an element type from ${kind}: pass a typed array`);
}
