/**
 * `LinAlgError` (NumPy's `numpy.linalg.LinAlgError`): a matrix the computation cannot take (singular,
 * not positive definite) or a decomposition that did not converge, found by reading the factorization's
 * `info` per matrix back to the host once the work is done; `{ check: false }` skips that read.
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";

/**
 * A matrix `ga.linalg` cannot take: singular where an inverse is needed, not positive definite for
 * `cholesky`, or a decomposition that did not converge. The message says which, and in a batch which
 * matrix first ({@link index}) and how many. Calls that read this on the host take `{ check: false }`
 * to skip the read: results of such matrices are then inf or NaN, as CuPy's are.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * try {
 *   ga.linalg.inv(ga.asarray([[1, 2], [2, 4]]));
 * } catch (e) {
 *   if (e instanceof ga.linalg.LinAlgError) console.error(e.message, e.index); // singular, []
 * }
 * ```
 */
export class LinAlgError extends Error {
  /** The batch index (along the leading axes) of the first matrix at fault; `[]` for one matrix. */
  readonly index: readonly number[];

  /** An error with `message` about the matrix at batch `index`. */
  constructor(message: string, index: readonly number[] = []) {
    super(message);
    this.name = "LinAlgError";
    this.index = Object.freeze([...index]);
  }
}

/** What a failed `info` entry means, for the message. */
export interface Failure {
  /** The call, `"inv"`. */
  readonly what: string;
  /** The condition: `"is singular"`, `"is not positive definite"`, `"did not converge"`. */
  readonly problem: string;
  /** The detail of `info` value `k`, in parentheses after the problem (`"U[2, 2] ... is exactly zero"`). */
  readonly detail?: (k: number) => string;
  /** What `{ check: false }` gives instead, ending the message. */
  readonly instead: string;
}

/** The index along `shape` of flat (C-order) position `flat`. */
function unravel(flat: number, shape: readonly number[]): number[] {
  const index = new Array<number>(shape.length);
  for (let i = shape.length - 1; i >= 0; i--) {
    index[i] = flat % shape[i]!;
    flat = Math.floor(flat / shape[i]!);
  }
  return index;
}

/**
 * Reads `info` (int32, one per matrix, of the batch's shape) and throws a {@link LinAlgError} for the
 * first matrix whose entry is not 0.
 */
export function checkInfo(info: GPUArray<"int32">, failure: Failure): void {
  if (info.size === 0) return;
  const values = info.get();
  const first = values.findIndex((v) => v !== 0);
  if (first < 0) return;
  const bad = values.reduce((n, v) => n + (v !== 0 ? 1 : 0), 0);
  const index = unravel(first, info.shape);
  const detail = failure.detail === undefined ? "" : ` (${failure.detail(values[first]!)})`;
  const which = info.ndim === 0
    ? `the matrix ${failure.problem}${detail}`
    : bad === 1
    ? `matrix ${showShape(index)} of the batch ${failure.problem}${detail}`
    : `${bad} of the ${info.size} matrices of the batch ${
      failure.problem.replace(/^is /, "are ")
    }, the first at ${showShape(index)}${detail}`;
  throw new LinAlgError(
    `Cannot ${failure.what}: ${which}; pass { check: false } to get ${failure.instead} instead of this error`,
    index,
  );
}
