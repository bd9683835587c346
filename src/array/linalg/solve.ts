/**
 * `solve` and `inv` (NumPy's `numpy.linalg.solve` and `inv`): LU with partial pivoting, then the
 * triangular solves, over a batch of matrices.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { ResultType } from "../core/dtypes.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { broadcastShapes, showShape } from "../core/layout.ts";
import { optionsOf } from "../core/axis_args.ts";
import { astype, fill } from "../ops/assign.ts";
import { broadcastTo, diagonal, expandDims, reshape, squeeze, swapaxes } from "../ops/views.ts";
import { SMALL_KERNEL_ORDER, smallBlock, smallSource } from "./small_source.ts";
import { matmul } from "../ops/matmul.ts";
import { differentiated, tracked, type Vjp } from "../grad/tape.ts";
import { checkInfo, type Failure } from "./errors.ts";
import { arrayLike, luFactor, luSolve } from "./lapack.ts";
import {
  adjoint,
  checkArray,
  checking,
  type CheckOptions,
  columnMajorCopy,
  commonLuType,
  countOf,
  type LuDType,
  luType,
  matrixShape,
  rowMajorCopy,
} from "./operands.ts";

/**
 * The real dtype `ga.linalg` returns for arrays of `D`: float32 for float32 and complex64 (their
 * magnitudes, eigenvalues and singular values), float64 for the rest (NumPy's).
 *
 * @example
 * ```ts
 * import type * as ga from "@cudeno/cudeno/array";
 * const t: ga.linalg.LinalgType<"int32"> = "float64";
 * ```
 */
export type LinalgType<D extends DType> = D extends "float32" | "complex64" ? "float32" : "float64";

/**
 * The dtype `solve`, `inv` and `det` return for arrays of `D`: {@link LinalgType}, and complex64 and
 * complex128 as they are (NumPy's).
 *
 * @example
 * ```ts
 * import type * as ga from "@cudeno/cudeno/array";
 * const t: ga.linalg.LuType<"complex64"> = "complex64";
 * ```
 */
export type LuType<D extends DType> = D extends "complex64" | "complex128" ? D : LinalgType<D>;

/** What an LU factorization's `info` means, for call `what`. */
export const SINGULAR = (what: string): Failure => ({
  what,
  problem: "is singular",
  detail: (k: number) => `U[${k - 1}, ${k - 1}] of its LU factorization is exactly zero`,
  instead: "inf and NaN",
});

/** The options of the calls that take only `check`. */
export function checkOptionsOf(what: string, args: readonly unknown[]): CheckOptions {
  return optionsOf<CheckOptions>(what, args, [], ["check"], "{ check: false }");
}

/** The row-major contiguous copy of a column-major working array (`[..., columns, rows]` → `[..., rows, columns]`). */
export function rowMajor<D extends DType>(w: GPUArray<D>): GPUArray<D> {
  using t = swapaxes(w, -1, -2);
  return t.copy();
}

/**
 * The solution `x` of `a·x = b` (NumPy's `solve`): `a` is a square matrix or a batch of them
 * (`[..., n, n]`); `b` is a vector (`[n]`, solved against every matrix) or a batch of matrices
 * (`[..., n, k]`, each column a right-hand side), the batch axes broadcasting as NumPy's do. The result
 * has `b`'s shape with the broadcast batch, in float32 for float32 operands, complex64 or complex128
 * where either is complex (NumPy's promotion), and float64 otherwise.
 *
 * @throws {LinAlgError} where a matrix is singular (exactly, in its LU factorization), naming the first
 * in a batch; with `{ check: false }` nothing is read back and such a solution is inf or NaN.
 * @throws {RangeError} for shapes that do not fit: not square, or `b`'s length differs from `n`.
 * @throws {TypeError} for float16 operands, or float64 work on a device without float64.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.asarray([[3, 1], [1, 2]]);
 * const x = ga.linalg.solve(a, ga.asarray([9, 8])); // [2, 3]
 * const xs = ga.linalg.solve(ga.stack([a, a]), ga.ones([2, 2, 3])); // 2 systems of 3 right-hand sides
 * ```
 */
export function solve<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
  options?: CheckOptions,
): GPUArray<LuType<ResultType<A, B>>>;
export function solve(a: GPUArray, b: GPUArray, ...args: unknown[]): GPUArray {
  checkArray(a, "solve");
  checkArray(b, "solve");
  if (tracked(a, b)) {
    const again = () => solve(a, b, ...(args as [CheckOptions?]));
    return differentiated("solve", [a, b], again, (x) => [[x, solveVjp(a, b.ndim === 1, x)]]);
  }
  const check = checking(checkOptionsOf("solve", args));
  const { batch: aBatch, n } = matrixShape(a, "solve", true);
  const dtype = commonLuType(a, b, "solve");
  const vector = b.ndim === 1;
  const rows = vector ? b.shape[0] : b.ndim >= 2 ? b.shape[b.ndim - 2] : undefined;
  if (rows !== n) {
    throw new RangeError(
      `Cannot solve a system of shape ${showShape(a.shape)} for b of shape ${
        showShape(b.shape)
      }: b must be a vector of length ${n} or of shape [..., ${n}, k] (k right-hand sides)`,
    );
  }
  const batch = broadcastShapes([aBatch, vector ? [] : b.shape.slice(0, -2)], "solve");
  if (check) {
    a.backend.checkHostRead(
      "solve()",
      "whether every matrix is invertible (pass { check: false } to skip it)",
    );
  }
  if (n <= SMALL_KERNEL_ORDER) {
    using column = vector ? expandDims(b, -1) : undefined;
    const { x, info } = small(a, column ?? b, batch, n, dtype);
    using _info = info;
    const result = vector ? reshape(x, [...batch, n]) : x;
    if (result !== x) x.free();
    return checked(result, info, check, "solve");
  }
  using w = columnMajorCopy(a, dtype, batch);
  using column = vector ? expandDims(b, -1) : undefined;
  using rhs = columnMajorCopy(column ?? b, dtype, batch);
  const { ipiv, info } = luFactor(w);
  using _ipiv = ipiv, _info = info;
  luSolve(w, ipiv, rhs);
  const x = vector ? reshape(rhs, [...batch, n]).copy() : rowMajor(rhs);
  if (check) {
    try {
      checkInfo(info, SINGULAR("solve"));
    } catch (e) {
      x.free();
      throw e;
    }
  }
  return x;
}

/**
 * The inverse of a square matrix, or of each of a batch (NumPy's `inv`), in float32 for float32,
 * complex64 and complex128 as they are, and float64 otherwise.
 *
 * @throws {LinAlgError} where a matrix is singular, naming the first in a batch; with
 * `{ check: false }` nothing is read back and such an inverse is inf or NaN.
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const ai = ga.linalg.inv(ga.asarray([[4, 7], [2, 6]])); // [[0.6, -0.7], [-0.2, 0.4]]
 * const many = ga.linalg.inv(ga.random.normal([100, 8, 8], { seed: 1 }), { check: false });
 * ```
 */
export function inv<D extends DType>(a: GPUArray<D>, options?: CheckOptions): GPUArray<LuType<D>>;
export function inv(a: GPUArray, ...args: unknown[]): GPUArray {
  checkArray(a, "inv");
  if (tracked(a)) {
    const again = () => inv(a, ...(args as [CheckOptions?]));
    return differentiated(
      "inv",
      [a],
      again,
      (y) => [[y, (g) => [matmul(matmul(adjoint(y), g), adjoint(y)).neg()]]],
    );
  }
  const check = checking(checkOptionsOf("inv", args));
  const { batch, n } = matrixShape(a, "inv", true);
  const dtype = luType(a, a.dtype, "inv");
  if (check) {
    a.backend.checkHostRead("inv()", "whether every matrix is invertible (pass { check: false } to skip it)");
  }
  if (n <= SMALL_KERNEL_ORDER) {
    const { x, info } = small(a, undefined, batch, n, dtype);
    using _info = info;
    return checked(x, info, check, "inv");
  }
  // The row-major copy is each matrix's transpose, column-major: its inverse, column-major, is the
  // inverse of the matrix row-major.
  using w = rowMajorCopy(a, dtype);
  const { ipiv, info } = luFactor(w);
  using _ipiv = ipiv, _info = info;
  const x = identities(a, batch, n, dtype);
  luSolve(w, ipiv, x);
  if (check) {
    try {
      checkInfo(info, SINGULAR("inv"));
    } catch (e) {
      x.free();
      throw e;
    }
  }
  return x;
}

/**
 * The rule of `x = solve(a, b)`: `b̄ = solve(aᴴ, ḡ)`, `ā = -b̄·xᴴ` (with `b` and `x` as columns where
 * `b` is a `vector`; ᴴ is the transpose for real matrices).
 */
function solveVjp(a: GPUArray, vector: boolean, x: GPUArray): Vjp {
  return (g, { need }) => {
    const columns = vector ? expandDims(g, -1) : g;
    const gb = solve(adjoint(a), columns, { check: false });
    const ga = need[0] ? matmul(gb, adjoint(vector ? expandDims(x, -1) : x)).neg() : undefined;
    return [ga, vector ? squeeze(gb, -1) : gb];
  };
}

/** `x`, or a {@link LinAlgError} (freeing it) where `check` and `info` names a singular matrix. */
function checked(x: GPUArray, info: GPUArray<"int32">, check: boolean, what: string): GPUArray {
  if (!check) return x;
  try {
    checkInfo(info, SINGULAR(what));
  } catch (e) {
    x.free();
    throw e;
  }
  return x;
}

/**
 * `a⁻¹·b` (`b` undefined: `a⁻¹`) for matrices of order `n` ≤ {@link SMALL_KERNEL_ORDER} over `batch`,
 * in one launch of the one-thread-per-matrix kernel, with each matrix's `info`.
 */
function small(
  a: GPUArray,
  b: GPUArray | undefined,
  batch: readonly number[],
  n: number,
  dtype: LuDType,
): { x: GPUArray; info: GPUArray<"int32"> } {
  const k = b === undefined ? n : b.shape[b.ndim - 1]!;
  // Row-major and contiguous over the whole batch, in the working dtype: a copy only where not already.
  const ready = (x: GPUArray, columns: number) => {
    const shape = [...batch, n, columns];
    if (
      x.dtype === dtype && x.isContiguous && x.shape.length === shape.length &&
      x.shape.every((d, i) => d === shape[i])
    ) {
      return x;
    }
    using wide = broadcastTo(x, shape);
    return astype(wide, dtype);
  };
  const aa = ready(a, n), bb = b === undefined ? aa : ready(b, k);
  try {
    const x = arrayLike(a, [...batch, n, k], dtype), info = arrayLike(a, batch, "int32");
    const count = countOf(batch), block = smallBlock(n, DTYPES[dtype].size), inverse = b === undefined;
    if (count > 0 && k > 0 && n > 0) {
      a.backend.kernel(
        `linalg:small:${inverse ? "inv" : "solve"}:${n}:${dtype}:${block}`,
        () => smallSource(a.backend.dialect, dtype, n, inverse, block),
      ).launch({ grid: Math.ceil(count / block), block }, [
        aa.buffer,
        aa.offset,
        bb.buffer,
        bb.offset,
        x.buffer,
        count,
        k,
        info.buffer,
      ]);
    } else {
      fill(info, 0);
    }
    return { x, info };
  } finally {
    if (aa !== a) aa.free();
    if (bb !== b && bb !== aa) bb.free();
  }
}

/** A batch of identity matrices of order `n` on `like`'s backend. */
export function identities<D extends LuDType>(
  like: GPUArray,
  batch: readonly number[],
  n: number,
  dtype: D,
): GPUArray<D> {
  const x = fill(arrayLike(like, [...batch, n, n], dtype), 0);
  using d = diagonal(x, 0, -2, -1);
  fill(d, 1);
  return x;
}
