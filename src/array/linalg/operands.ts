/**
 * What every `ga.linalg` function checks and prepares: the dtype it computes in (NumPy's: float32
 * stays float32, float64 and integers and bools compute in float64, float16 is refused), the shape of
 * a matrix or a batch of them, and the working copy a factorization overwrites, written column-major
 * (each matrix's transpose, row-major) as LAPACK reads it.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { realOf, resultType } from "../core/dtypes.ts";
import { conj } from "../api/elementwise.ts";
import { astype } from "../ops/assign.ts";
import { broadcastTo, swapaxes } from "../ops/views.ts";

/** The dtypes `ga.linalg` computes in. */
export type LinalgDType = "float32" | "float64";

/** The dtypes the LU and Cholesky family (`solve`, `inv`, `det`, `slogdet`, `cholesky`) computes in: the real ones and complex. */
export type LuDType = LinalgDType | "complex64" | "complex128";

/** The options of the calls that read whether every matrix could be factored. */
export interface CheckOptions {
  /**
   * Read back whether every matrix could be factored and throw a `LinAlgError` for one that could not,
   * as NumPy does (default true). With false nothing is read on the host: such a matrix's results are
   * inf or NaN, as CuPy's are.
   */
  readonly check?: boolean;
}

/** Throws unless `a` is a GPUArray (of any dtype: real matrices, and complex ones). */
export function checkArray(a: unknown, what: string): asserts a is GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
}

/**
 * The dtype an LU of `a` computes `dtype` in: complex64 and complex128 as they are (complex128 where
 * the device has float64), else {@link linalgType}.
 *
 * @throws {TypeError} for complex128 on a device without float64, and as {@link linalgType}.
 */
export function luType(a: GPUArray, dtype: DType, what: string): LuDType {
  if (dtype === "complex64") return dtype;
  if (dtype === "complex128") {
    if (!a.backend.supports("complex128")) {
      throw new TypeError(
        `Cannot ${what} a complex128 array on ${a.backend.device}: it computes in float64, which the device lacks; convert it to complex64 first, a.astype("complex64")`,
      );
    }
    return dtype;
  }
  return linalgType(a, dtype, what);
}

/** The dtype two operands of an LU compute in together (NumPy's common type, then {@link luType}). */
export function commonLuType(a: GPUArray, b: GPUArray, what: string): LuDType {
  sameBackend(a, b, what);
  return luType(a, resultType(a.dtype, b.dtype), what);
}

/** Throws unless `a` and `b` are on one backend. */
function sameBackend(a: GPUArray, b: GPUArray, what: string): void {
  if (a.backend !== b.backend) {
    throw new TypeError(
      `Cannot ${what} arrays on ${a.backend.device} and ${b.backend.device}: copy one over first`,
    );
  }
}

/**
 * The dtype `ga.linalg` computes arrays of `dtype` in, for call `what` on `a`'s device.
 *
 * @throws {TypeError} for float16 and bfloat16 (as NumPy), and for float64 work on a device without it.
 */
export function linalgType(a: GPUArray, dtype: DType, what: string): LinalgDType {
  const kind = DTYPES[dtype].kind;
  if (dtype === "float32") return "float32";
  if (kind === "float" && dtype !== "float64") {
    throw new TypeError(
      `Cannot ${what} a ${dtype} array: linear algebra computes in float32 or float64 (NumPy refuses ${dtype} too); convert it first, a.astype("float32")`,
    );
  }
  if (!a.backend.supports("float64")) {
    throw new TypeError(
      `Cannot ${what} a ${dtype} array on ${a.backend.device}: it computes in float64 (NumPy's type for ${dtype}), which the device lacks; convert it to float32 first, a.astype("float32")`,
    );
  }
  return "float64";
}

/**
 * Checks that `a` is a matrix or a batch of them (square where `square`), and returns its batch
 * shape and the matrices' rows and columns.
 *
 * @throws {RangeError} for fewer than 2 dimensions, or matrices that are not square where they must be.
 */
export function matrixShape(
  a: GPUArray,
  what: string,
  square: boolean,
): { batch: number[]; m: number; n: number } {
  if (a.ndim < 2) {
    throw new RangeError(
      `Cannot ${what} an array of shape ${
        showShape(a.shape)
      }: it takes a matrix or a batch of them, at least 2 dimensions`,
    );
  }
  const m = a.shape[a.ndim - 2]!, n = a.shape[a.ndim - 1]!;
  if (square && m !== n) {
    throw new RangeError(
      `Cannot ${what} an array of shape ${
        showShape(a.shape)
      }: its matrices must be square, and the last two axes are ${m} and ${n}`,
    );
  }
  return { batch: a.shape.slice(0, -2), m, n };
}

/** The number of matrices of a batch of shape `batch`. */
export function countOf(batch: readonly number[]): number {
  return batch.reduce((p, d) => p * d, 1);
}

/**
 * A new contiguous array of shape `[...batch, n, m]` in `dtype` holding each m × n matrix of `a`
 * (broadcast to `batch`) column-major: the buffer LAPACK's routines take and overwrite.
 */
export function columnMajorCopy<D extends LuDType>(
  a: GPUArray,
  dtype: D,
  batch?: readonly number[],
): GPUArray<D> {
  using t = swapaxes(a, -1, -2);
  if (batch === undefined || batch.length === a.ndim - 2 && batch.every((d, i) => d === a.shape[i])) {
    return astype(t, dtype);
  }
  using b = broadcastTo(t, [...batch, ...t.shape.slice(-2)]);
  return astype(b, dtype);
}

/**
 * A new contiguous array of shape `[...batch, m, n]` in `dtype` holding `a` (broadcast to `batch`) as
 * it is, row-major: LAPACK reads each matrix as its transpose (`det(Aᵀ) = det(A)`, and the inverse of
 * the transpose, written column-major, is the inverse row-major).
 */
export function rowMajorCopy<D extends LuDType>(
  a: GPUArray,
  dtype: D,
  batch?: readonly number[],
): GPUArray<D> {
  if (batch === undefined || batch.length === a.ndim - 2 && batch.every((d, i) => d === a.shape[i])) {
    return astype(a, dtype);
  }
  using b = broadcastTo(a, [...batch, ...a.shape.slice(-2)]);
  return astype(b, dtype);
}

/**
 * The conjugate transposes of `a`'s matrices (`aᴴ`, NumPy's `a.mT.conj()`): a view of the swapped
 * axes for real matrices, a new array for complex ones.
 */
export function adjoint(a: GPUArray): GPUArray {
  const t = swapaxes(a, -1, -2);
  if (realOf(a.dtype) === a.dtype) return t;
  using _t = t;
  return conj(t);
}

/** Whether the check of `options` is on (the default). */
export function checking(options: CheckOptions | undefined): boolean {
  flag(options?.check, "check");
  return options?.check !== false;
}

/**
 * `value` where it is a boolean option, false where it is left out.
 *
 * @throws {TypeError} for anything else.
 */
export function flag(value: unknown, name: string): boolean {
  if (value !== undefined && typeof value !== "boolean") {
    throw new TypeError(`Cannot take { ${name}: ${String(value)} }: ${name} is true or false`);
  }
  return value === true;
}
