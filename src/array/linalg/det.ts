/**
 * `det` and `slogdet` (NumPy's `numpy.linalg.det` and `slogdet`) from an LU factorization: the product
 * of U's diagonal, negated for an odd number of row swaps. LAPACK factors each matrix's transpose (the
 * row-major copy read column-major), which has the same determinant.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { linearFill } from "../ops/assign.ts";
import { diagonal, expandDims } from "../ops/views.ts";
import { prod, sum } from "../api/reductions.ts";
import { abs, log, ne, neg, remainder, sign } from "../api/elementwise.ts";
import { where } from "../ops/ufunc.ts";
import { arrayLike, luFactor } from "./lapack.ts";
import { adjoint, checkArray, type LuDType, luType, matrixShape, rowMajorCopy } from "./operands.ts";
import { inv, type LinalgType, type LuType } from "./solve.ts";
import { undefinedGradient } from "./gradient.ts";
import { conjugated, differentiated, tracked } from "../grad/tape.ts";
import { realOf } from "../core/dtypes.ts";

/**
 * A value per matrix: a host number for one matrix, an array of the batch's shape for a batch (and a
 * 0-d array for one matrix inside a differentiated function, so the gradient flows).
 */
type PerMatrix<D extends DType, R extends DType = LuType<D>> =
  | (R extends "complex64" | "complex128" ? [number, number] : number)
  | GPUArray<R>;

/**
 * The determinant's sign (1, -1, or 0 for a singular matrix) and the natural log of its absolute value
 * (`-Infinity` for a singular matrix), NumPy's `SlogdetResult`: host numbers for one matrix, arrays of
 * the batch's shape for a batch.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { sign, logabsdet }: ga.linalg.SlogdetResult<"float32"> = ga.linalg.slogdet(ga.eye(3));
 * ```
 */
export interface SlogdetResult<D extends DType> {
  /** 1 or -1 (0 where the determinant is 0); for complex matrices `det / |det|`, as `[re, im]` for one. */
  readonly sign: PerMatrix<D>;
  /** `log(|det|)`, real for complex matrices too. */
  readonly logabsdet: PerMatrix<D, LinalgType<D>>;
}

const COMPLEX_SIGN =
  "Cannot differentiate slogdet's sign of complex matrices (its phase) yet: differentiate logabsdet, or det";

/** LU of each matrix and whether its permutation is odd: U's diagonal and a bool per matrix. */
function factored(
  a: GPUArray,
  what: string,
): { diag: GPUArray<LuDType>; odd: GPUArray; free: () => void } {
  checkArray(a, what);
  const { n } = matrixShape(a, what, true);
  const w = rowMajorCopy(a, luType(a, a.dtype, what));
  const { ipiv, info } = luFactor(w);
  info.free();
  const diag = diagonal(w, 0, -2, -1);
  using rows = linearFill(arrayLike(w, [n], "int64"), 1, 1);
  using swapped = ne(ipiv, rows);
  using swaps = sum(swapped, -1);
  using parity = remainder(swaps, 2);
  const odd = ne(parity, 0);
  ipiv.free();
  return {
    diag,
    odd,
    free: () => {
      diag.free();
      odd.free();
      w.free();
    },
  };
}

/** A 0-d result as a host number (`[re, im]` for a complex one), else the array. */
function perMatrix<D extends DType, R extends DType = LuType<D>>(x: GPUArray): PerMatrix<D, R> {
  if (x.ndim > 0) return x as GPUArray<R>;
  const value = x.item();
  x.free();
  return value as PerMatrix<D, R>;
}

/**
 * The determinant of a square matrix (a host number), or of each of a batch (an array of the batch's
 * shape), as NumPy's `det`: 0 for a singular matrix (no error). float32 for float32, complex64 and
 * complex128 as they are (a single one as `[re, im]`), else float64. Inside a differentiated function
 * the result is an array (0-d for one matrix), whose gradient is `det·a⁻ᵀ`.
 *
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.det(ga.asarray([[1, 2], [3, 4]]))); // -2 (to rounding)
 * const dets = ga.linalg.det(ga.ones([5, 3, 3])) as ga.GPUArray; // [5] zeros
 * ```
 */
export function det<D extends DType>(a: GPUArray<D>): PerMatrix<D> {
  if (tracked(a)) {
    const d = differentiated(
      "det",
      [a],
      () => detOf(a),
      (d) => [[d, (g) => [inverseScaled(a, g.mul(conjugated(d)))]]],
    );
    return d as GPUArray<LuType<D>>;
  }
  return perMatrix(detOf(a));
}

function detOf(a: GPUArray): GPUArray {
  const f = factored(a, "det");
  try {
    using p = prod(f.diag, -1);
    using negated = neg(p);
    return where(f.odd, negated, p);
  } finally {
    f.free();
  }
}

/** `a⁻ᴴ` times `s`, a value per matrix: the gradient of `log|det a|` scaled (det's rule, `ḡ·conj(det)`, and slogdet's). */
function inverseScaled(a: GPUArray, s: GPUArray): GPUArray {
  return adjoint(inv(a, { check: false })).mul(expandDims(expandDims(s, -1), -1));
}

/**
 * The sign and the log of the absolute value of the determinant (NumPy's `slogdet`), which stay in
 * range where the determinant itself would overflow or underflow: host numbers for one matrix, arrays
 * for a batch.
 *
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { sign, logabsdet } = ga.linalg.slogdet(ga.eye(50).mul(1000)); // 1, 150·ln 10 (det overflows float32)
 * ```
 */
export function slogdet<D extends DType>(a: GPUArray<D>): SlogdetResult<D> {
  if (tracked(a)) {
    // The sign is piecewise constant: no gradient flows through it.
    return differentiated("slogdet", [a], () => slogdetOf(a), (r) => [
      [r.sign, realOf(r.sign.dtype) === r.sign.dtype ? () => [] : undefinedGradient(COMPLEX_SIGN)],
      [r.logabsdet, (g) => [inverseScaled(a, g)]],
    ]) as SlogdetResult<D>;
  }
  const { sign, logabsdet } = slogdetOf(a);
  return { sign: perMatrix(sign), logabsdet: perMatrix<D, LinalgType<D>>(logabsdet) };
}

function slogdetOf(a: GPUArray): { sign: GPUArray; logabsdet: GPUArray } {
  const f = factored(a, "slogdet");
  try {
    using signs = sign(f.diag);
    using s = prod(signs, -1);
    using negated = neg(s);
    using magnitudes = abs(f.diag);
    using logs = log(magnitudes);
    return { sign: where(f.odd, negated, s), logabsdet: sum(logs, -1) };
  } finally {
    f.free();
  }
}
