/**
 * `cond` (NumPy's `numpy.linalg.cond`): the ratio of the largest to the smallest singular value for
 * `p` null, 2 and -2 (its inverse), else `norm(x, p)·norm(inv(x), p)`; infinite for a singular matrix.
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { optionsOf } from "../core/axis_args.ts";
import { any } from "../api/reductions.ts";
import { reshape, slice } from "../ops/views.ts";
import { where } from "../ops/ufunc.ts";
import { div, isnan, logicalAnd, logicalNot, mul } from "../api/elementwise.ts";
import { checkArray, matrixShape } from "./operands.ts";
import { norm, type NormOrd } from "./norm.ts";
import { inv } from "./solve.ts";
import { svdvals } from "./svd.ts";
import { isTracked } from "../grad/tape.ts";

/**
 * Options of {@link cond}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.CondOptions = { p: "fro" };
 * ```
 */
export interface CondOptions {
  /** The norm (default null: the 2-norm, from the singular values); as {@link norm}'s matrix `ord`s. */
  readonly p?: NormOrd;
}

/**
 * The condition number of a matrix, or of each of a batch (NumPy's `cond`): with `p` null or 2 (by
 * position, or in the options) the largest singular value over the smallest (-2: the inverse), which
 * takes any m × n matrix; with `"fro"`, `"nuc"`, 1, -1, `Infinity` or `-Infinity`, `norm(x, p)` times
 * `norm(inv(x), p)` of square matrices. Infinite for a singular matrix (NaN only where the matrix holds
 * NaN). A host number for one matrix, an array for a batch.
 *
 * @throws {RangeError} for fewer than 2 dimensions, empty matrices, non-square ones for the norms that
 * need the inverse, or another `p`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.cond(ga.asarray([[1, 0], [0, 1e-3]]))); // 1000
 * console.log(ga.linalg.cond(ga.asarray([[1, 2], [3, 4]]), 1)); // 21
 * ```
 */
export function cond(x: GPUArray, p?: NormOrd | CondOptions): number | GPUArray;
export function cond(x: GPUArray, ...args: unknown[]): number | GPUArray {
  checkArray(x, "cond");
  const { p = null } = optionsOf<CondOptions>(
    "cond",
    args,
    [{
      name: "p",
      takes: (v) => v === null || typeof v === "number" || typeof v === "string",
      what: 'p (a number, "fro", "nuc" or null)',
    }],
    ["p"],
    '{ p: "fro" }',
  );
  const { m, n } = matrixShape(x, "cond", p !== null && p !== 2 && p !== -2);
  if (m === 0 || n === 0) {
    throw new RangeError(`Cannot cond an array of shape ${showShape(x.shape)}: its matrices are empty`);
  }
  let r: GPUArray;
  if (p === null || p === 2 || p === -2) {
    using s = svdvals(x);
    using first = slice(s, "...", 0), last = slice(s, "...", -1);
    r = p === -2 ? div(last, first) : div(first, last);
  } else {
    using inverse = inv(x, { check: false });
    const a = norm(x, p, [-2, -1], true), b = norm(inverse, p, [-2, -1], true);
    using _a = a as GPUArray, _b = b as GPUArray;
    using product = mul(a as GPUArray, b as GPUArray);
    using batch = reshape(product, x.shape.slice(0, -2));
    r = batch.copy();
  }
  // A singular matrix gives NaN (0/0, inf·0): infinite, as NumPy, unless the matrix itself holds NaN.
  using nan = isnan(r);
  using xnan = isnan(x);
  using anyNan = any(xnan, [-2, -1]);
  using clean = logicalNot(anyNan);
  using singular = logicalAnd(nan, clean);
  try {
    const fixed = where(singular, Infinity, r);
    if (fixed.ndim > 0 || isTracked(x)) return fixed;
    const value = fixed.item() as number;
    fixed.free();
    return value;
  } finally {
    r.free();
  }
}
