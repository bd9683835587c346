/**
 * `pinv` and `matrixRank` (NumPy's `numpy.linalg.pinv` and `matrix_rank`), from the SVD (or, for
 * `hermitian` matrices, from `eigh`), with singular values below a tolerance counted as zero.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { any, max, sum } from "../api/reductions.ts";
import { matmul } from "../ops/matmul.ts";
import { expandDims } from "../ops/views.ts";
import { realOf } from "../core/dtypes.ts";
import { where } from "../ops/ufunc.ts";
import { abs, div, gt, mul, ne } from "../api/elementwise.ts";
import { EPSILON } from "./kernel_text.ts";
import { decompose, svdvals } from "./svd.ts";
import { eigh, eigvalsh } from "./eigh.ts";
import {
  adjoint,
  checkArray,
  checking,
  type CheckOptions,
  flag,
  type LinalgDType,
  type LuDType,
  luType,
  matrixShape,
} from "./operands.ts";
import { arrayLike } from "./lapack.ts";
import { fill } from "../ops/assign.ts";
import type { LuType } from "./solve.ts";

/**
 * Options of {@link pinv}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.PinvOptions = { rcond: 1e-6, hermitian: true };
 * ```
 */
export interface PinvOptions extends CheckOptions {
  /** Singular values up to `rcond` times the largest count as zero (default 1e-15, NumPy's). */
  readonly rcond?: number;
  /** NumPy 2's name for `rcond`; given as null, `max(m, n)·eps` of the dtype. Default: `max(m, n)·eps`. */
  readonly rtol?: number | null;
  /** The matrices are symmetric: decompose them with `eigh` (faster), reading the lower triangle. Default false. */
  readonly hermitian?: boolean;
}

/**
 * Options of {@link matrixRank}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.MatrixRankOptions = { tol: 1e-3 };
 * ```
 */
export interface MatrixRankOptions extends CheckOptions {
  /** Singular values up to `tol` count as zero (default: the largest times `rtol`). */
  readonly tol?: number;
  /** The relative tolerance (default `max(m, n)·eps` of the dtype, NumPy's). */
  readonly rtol?: number;
  /** The matrices are symmetric: their singular values are the eigenvalues' magnitudes. Default false. */
  readonly hermitian?: boolean;
}

function number(value: unknown, name: string, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !(value >= 0)) {
    throw new TypeError(`Cannot ${what} with ${name} ${String(value)}: give a number of 0 or more`);
  }
  return value;
}

/** `values` where they are above `tolerance` times each matrix's largest (in magnitude), as 1/value; 0 elsewhere. */
export function reciprocals(values: GPUArray, magnitudes: GPUArray, tolerance: number): GPUArray {
  using largest = max(magnitudes, -1, { keepdims: true });
  using cutoff = mul(largest, tolerance);
  using kept = gt(magnitudes, cutoff);
  using inverse = div(1, values);
  return where(kept, inverse, 0);
}

/**
 * The Moore–Penrose pseudo-inverse of a matrix, or of each of a batch (NumPy's `pinv`): `V·S⁺·Uᵀ`
 * from the SVD, singular values up to `rcond` (by position, or in the options) times the largest
 * taken as zero. With `hermitian: true` the matrices are taken as symmetric (their lower triangle)
 * and decomposed with `eigh`. float32 for float32, complex64 and complex128 as they are, else float64.
 *
 * @throws {LinAlgError} where a decomposition did not converge; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions, or non-square matrices with `hermitian`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const p = ga.linalg.pinv(ga.asarray([[1, 2], [2, 4], [3, 6]])); // rank 1: [2, 3]
 * ```
 */
export function pinv<D extends DType>(
  a: GPUArray<D>,
  rcond?: number | PinvOptions,
  options?: PinvOptions,
): GPUArray<LuType<D>>;
export function pinv(a: GPUArray, ...args: unknown[]): GPUArray {
  checkArray(a, "pinv");
  const options = optionsOf<PinvOptions>(
    "pinv",
    args,
    [{ name: "rcond", takes: (v) => typeof v === "number", what: "rcond (a number)" }],
    ["rcond", "rtol", "hermitian", "check"],
    "{ rcond: 1e-10 }",
  );
  const hermitian = flag(options.hermitian, "hermitian"), check = checking(options);
  const { batch, m, n } = matrixShape(a, "pinv", hermitian);
  const dtype = luType(a, a.dtype, "pinv"), eps = EPSILON[realOf(dtype) as LinalgDType];
  let rcond = number(options.rcond, "rcond", "pinv");
  if (options.rtol !== undefined) {
    if (rcond !== undefined) throw new TypeError("Cannot pinv with both rcond and rtol: give one");
    rcond = options.rtol === null ? Math.max(m, n) * eps : number(options.rtol, "rtol", "pinv");
  }
  rcond ??= 1e-15;
  if (Math.min(m, n) === 0) return fill(arrayLike(a, [...batch, n, m], dtype), 0);
  if (hermitian) {
    const [w, v] = eigh(a, { check });
    using _w = w, _v = v;
    using magnitudes = abs(w);
    using inverse = reciprocals(w, magnitudes, rcond);
    using row = expandDims(inverse, -2);
    using scaled = mul(v, row);
    using vt = adjoint(v);
    return matmul(scaled, vt) as GPUArray<LuDType>;
  }
  const { u, s, vh } = decompose(a, true, false, check, "pinv");
  using _u = u!, _s = s, _vh = vh!;
  using inverse = reciprocals(s, s, rcond);
  using row = expandDims(inverse, -2);
  using v = adjoint(vh!);
  using scaled = mul(v, row);
  using ut = adjoint(u!);
  return matmul(scaled, ut) as GPUArray<LuDType>;
}

/**
 * The rank of a matrix, or of each of a batch (NumPy's `matrix_rank`): how many singular values are
 * above `tol` (by position, or in the options; default: the largest times `rtol`, whose default is
 * `max(m, n)·eps`). A host number for one matrix (and for a vector or a scalar: 1 unless all zero), an
 * int64 array for a batch. With `hermitian: true` the singular values are the magnitudes of the
 * eigenvalues of the (symmetric) matrices.
 *
 * @throws {LinAlgError} where a decomposition did not converge; `{ check: false }` skips that read.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.matrixRank(ga.asarray([[1, 2], [2, 4]]))); // 1
 * console.log(ga.linalg.matrixRank(ga.eye(4))); // 4
 * ```
 */
export function matrixRank(
  a: GPUArray,
  tol?: number | MatrixRankOptions,
  options?: MatrixRankOptions,
): number | GPUArray<"int64">;
export function matrixRank(a: GPUArray, ...args: unknown[]): number | GPUArray<"int64"> {
  checkArray(a, "matrixRank");
  const options = optionsOf<MatrixRankOptions>(
    "matrixRank",
    args,
    [{ name: "tol", takes: (v) => typeof v === "number", what: "tol (a number)" }],
    ["tol", "rtol", "hermitian", "check"],
    "{ tol: 1e-6 }",
  );
  const tol = number(options.tol, "tol", "matrixRank"), rtol = number(options.rtol, "rtol", "matrixRank");
  const hermitian = flag(options.hermitian, "hermitian"), check = checking(options);
  if (tol !== undefined && rtol !== undefined) {
    throw new TypeError("Cannot matrixRank with both tol and rtol: give one");
  }
  if (a.ndim < 2) {
    using nonzero = ne(a, 0);
    return any(nonzero) ? 1 : 0;
  }
  const { m, n } = matrixShape(a, "matrixRank", hermitian);
  const eps = EPSILON[realOf(luType(a, a.dtype, "matrixRank")) as LinalgDType];
  let values: GPUArray;
  if (hermitian) {
    using w = eigvalsh(a, { check });
    values = abs(w);
  } else {
    values = svdvals(a, { check });
  }
  using _values = values;
  let above: GPUArray;
  if (tol !== undefined) {
    above = gt(values, tol);
  } else if (Math.min(m, n) === 0) {
    above = gt(values, 0);
  } else {
    using largest = max(values, -1, { keepdims: true });
    using cutoff = mul(largest, rtol ?? Math.max(m, n) * eps);
    above = gt(values, cutoff);
  }
  using _above = above;
  if (a.ndim === 2) return Number(sum(above));
  return sum(above, -1) as GPUArray<"int64">;
}
