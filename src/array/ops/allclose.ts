/**
 * `allclose`: whether every element of `isclose(a, b)` holds, a composite of the op table's `isclose`
 * and the `all` reduction.
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import { BINARY } from "./binary_ops.ts";
import { callOp, type Operand } from "./ufunc.ts";
import { all } from "../api/reductions.ts";

/** The tolerances of `isclose` and `allclose` (NumPy's defaults). */
export interface CloseOptions {
  /** The relative tolerance (default 1e-5). */
  readonly rtol?: number;
  /** The absolute tolerance (default 1e-8). */
  readonly atol?: number;
  /** Whether NaN is close to NaN (default false). */
  readonly equalNan?: boolean;
}

/**
 * Whether `a` and `b` are close everywhere, `|a - b| <= atol + rtol * |b|` elementwise after
 * broadcasting (NumPy's `allclose`): a host boolean.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const same = ga.allclose(ga.asarray([1, 2]), ga.asarray([1, 2 + 1e-9])); // true
 * ```
 */
export function allclose(a: Operand, b: Operand, options?: CloseOptions): boolean {
  using close = callOp(BINARY.isclose, [a, b], options, "allclose") as GPUArray<"bool">;
  return all(close) as boolean;
}
