/**
 * The names NumPy 2 took from the Python array API standard, over the operations that were here
 * already: `permuteDims`, `matrixTranspose`, `vecdot`, `matvec`, `vecmat`, `broadcastArrays`,
 * `broadcastShapes`, `cumulativeSum`, `cumulativeProd`. Each is a composite (views, products, a sum), so it differentiates and fuses as
 * its parts do.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { broadcastShapes as broadcastOf, normalizeAxis, showShape } from "../core/layout.ts";
import { realOf } from "../core/dtypes.ts";
import { describe } from "../core/describe.ts";
import { type AfterAxis, AXIS, optionsOf } from "../core/axis_args.ts";
import { fill } from "../ops/assign.ts";
import { cumprod, cumsum } from "../ops/scan.ts";
import { concatenate } from "./join.ts";
import { broadcastTo, expandDims, squeeze, swapaxes, transpose } from "../ops/views.ts";
import { matmul } from "../ops/matmul.ts";
import { conj, multiply } from "../api/elementwise.ts";
import { sum } from "../api/reductions.ts";

/**
 * The array with its axes in the order `axes` (NumPy's `permute_dims`, the array API's name for
 * `transpose` with every axis given), a view.
 *
 * @throws {RangeError} where `axes` is not a permutation of the array's axes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.permuteDims(ga.zeros([2, 3, 4]), [2, 0, 1]); // shape [4, 2, 3]
 * ```
 */
export function permuteDims<D extends DType>(a: GPUArray<D>, axes: readonly number[]): GPUArray<D> {
  arrayArg(a, "permuteDims");
  if (!Array.isArray(axes)) {
    throw new TypeError(`Cannot permuteDims with axes ${describe(axes)}: give every axis, in the new order`);
  }
  return transpose(a, axes);
}

/**
 * The transposes of the matrices of `a` (its last two axes swapped; NumPy's `matrix_transpose`,
 * `a.mT`), a view.
 *
 * @throws {RangeError} for fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.matrixTranspose(ga.zeros([5, 2, 3])); // shape [5, 3, 2]
 * ```
 */
export function matrixTranspose<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  arrayArg(a, "matrixTranspose");
  if (a.ndim < 2) {
    throw new RangeError(
      `Cannot matrixTranspose an array of shape ${showShape(a.shape)}: it needs at least 2 dimensions`,
    );
  }
  return swapaxes(a, -1, -2);
}

/** `a`'s conjugate where complex, else `a` itself. */
function conjugated(a: GPUArray): GPUArray {
  return realOf(a.dtype) === a.dtype ? a : conj(a);
}

/** Frees `x` unless it is one of `kept`. */
function drop(x: GPUArray, ...kept: GPUArray[]): void {
  if (!kept.includes(x)) x.free();
}

/**
 * The dot products of vectors along `axis` (default the last; NumPy's `vecdot`:
 * `sum(conj(a) * b, axis)`), given by position or as `{ axis }`, the other axes broadcasting; the
 * vectors must have one length.
 *
 * @throws {RangeError} where the vectors' lengths differ, an axis is out of range, or shapes do not
 * broadcast.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d = ga.vecdot(ga.asarray([[1, 2], [3, 4]]), ga.asarray([1, 1])); // [3, 7]
 * const columns = ga.vecdot(ga.asarray([[1, 2], [3, 4]]), ga.ones([2, 2]), 0); // [4, 6]
 * ```
 */
export function vecdot(a: GPUArray, b: GPUArray, axis?: number | { readonly axis?: number }): GPUArray {
  arrayArg(a, "vecdot");
  arrayArg(b, "vecdot");
  const given = optionsOf<{ axis?: number }>("vecdot", [axis], [AXIS], ["axis"], "{ axis: 0 }").axis;
  const shape = broadcastOf([a.shape, b.shape], "vecdot");
  const ax = normalizeAxis(given ?? -1, shape.length, "vecdot");
  const back = ax - shape.length; // from the end, the same in every operand
  const na = a.shape[a.ndim + back], nb = b.shape[b.ndim + back];
  if (na === undefined || nb === undefined || na !== nb) {
    throw new RangeError(
      `Cannot vecdot arrays of shapes ${showShape(a.shape)} and ${
        showShape(b.shape)
      } along axis ${back}: the vectors must have one length in both`,
    );
  }
  const left = conjugated(a);
  try {
    using product = multiply(left, b);
    return sum(product, ax);
  } finally {
    drop(left, a);
  }
}

/**
 * The products of matrices and vectors (NumPy's `matvec`): `a` is `[..., m, n]`, `b` `[..., n]`, the
 * result `[..., m]`, the batch axes broadcasting.
 *
 * @throws {RangeError} where the lengths do not match or `a` has fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.matvec(ga.asarray([[1, 2], [3, 4]]), ga.asarray([1, 1])); // [3, 7]
 * ```
 */
export function matvec(a: GPUArray, b: GPUArray): GPUArray {
  arrayArg(a, "matvec");
  arrayArg(b, "matvec");
  if (a.ndim < 2 || b.ndim < 1) {
    throw new RangeError(
      `Cannot matvec arrays of shapes ${showShape(a.shape)} and ${
        showShape(b.shape)
      }: give matrices [..., m, n] and vectors [..., n]`,
    );
  }
  using column = expandDims(b, -1);
  using product = matmul(a, column);
  return squeeze(product, -1);
}

/**
 * The products of vectors and matrices (NumPy's `vecmat`, which conjugates the vector): `a` is
 * `[..., n]`, `b` `[..., n, m]`, the result `[..., m]`, the batch axes broadcasting.
 *
 * @throws {RangeError} where the lengths do not match or `b` has fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.vecmat(ga.asarray([1, 1]), ga.asarray([[1, 2], [3, 4]])); // [4, 6]
 * ```
 */
export function vecmat(a: GPUArray, b: GPUArray): GPUArray {
  arrayArg(a, "vecmat");
  arrayArg(b, "vecmat");
  if (a.ndim < 1 || b.ndim < 2) {
    throw new RangeError(
      `Cannot vecmat arrays of shapes ${showShape(a.shape)} and ${
        showShape(b.shape)
      }: give vectors [..., n] and matrices [..., n, m]`,
    );
  }
  const left = conjugated(a);
  try {
    using row = expandDims(left, -2);
    using product = matmul(row, b);
    return squeeze(product, -2);
  } finally {
    drop(left, a);
  }
}

/**
 * The arrays broadcast to their common shape (NumPy's `broadcast_arrays`), as views.
 *
 * @throws {RangeError} where the shapes do not broadcast.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [x, y] = ga.broadcastArrays(ga.zeros([3, 1]), ga.zeros([4])); // both [3, 4]
 * ```
 */
export function broadcastArrays(...arrays: GPUArray[]): GPUArray[] {
  arrays.forEach((a) => arrayArg(a, "broadcastArrays"));
  const shape = broadcastOf(arrays.map((a) => a.shape), "broadcastArrays");
  return arrays.map((a) => broadcastTo(a, shape));
}

/**
 * The shape that arrays of `shapes` broadcast to (NumPy's `broadcast_shapes`).
 *
 * @throws {RangeError} where the shapes do not broadcast, naming them.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.broadcastShapes([3, 1], [4], [])); // [3, 4]
 * ```
 */
export function broadcastShapes(...shapes: (readonly number[])[]): number[] {
  for (const shape of shapes) {
    if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || d < 0)) {
      throw new TypeError(
        `Cannot broadcastShapes with ${describe(shape)}: give each shape as a list of non-negative integers`,
      );
    }
  }
  return broadcastOf(shapes, "broadcastShapes");
}

/**
 * Options of {@link cumulativeSum} and {@link cumulativeProd}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.CumulativeOptions = { axis: 1, includeInitial: true };
 * ```
 */
export interface CumulativeOptions {
  /** The axis to accumulate along (also by position); required for more than one dimension. */
  readonly axis?: number;
  /** The result's dtype (NumPy's `cumsum` rule by default). */
  readonly dtype?: DType;
  /** Start with the identity (0 for sums, 1 for products), so the axis grows by one. Default false. */
  readonly includeInitial?: boolean;
}

function cumulative(kind: "sum" | "prod", a: GPUArray, args: readonly unknown[], what: string): GPUArray {
  arrayArg(a, what);
  const options = optionsOf<CumulativeOptions>(
    what,
    args,
    [AXIS],
    ["axis", "dtype", "includeInitial"],
    "{ axis: 0, includeInitial: true }",
  );
  if (a.ndim === 0) throw new RangeError(`Cannot ${what} a 0-d array: give at least one dimension`);
  if (options.axis === undefined && a.ndim > 1) {
    throw new TypeError(
      `Cannot ${what} an array of ${a.ndim} dimensions without an axis: give one, as ga.${what}(a, 0)`,
    );
  }
  const axis = normalizeAxis(options.axis ?? 0, a.ndim, what);
  const scan = { ...(options.dtype === undefined ? {} : { dtype: options.dtype }) };
  const scanned = kind === "sum" ? cumsum(a, axis, scan) : cumprod(a, axis, scan);
  if (options.includeInitial !== true) return scanned;
  const shape = a.shape.map((d, k) => (k === axis ? 1 : d));
  using initial = fill(new GPUArray(a.backend, shape, scanned.dtype), kind === "sum" ? 0 : 1);
  try {
    return concatenate([initial, scanned], axis);
  } finally {
    scanned.free();
  }
}

/**
 * The cumulative sum along an axis (NumPy 2's `cumulative_sum`, the array API's): as `cumsum`, but the
 * axis is required beyond one dimension, and `{ includeInitial: true }` starts with 0.
 *
 * @throws {TypeError} without an axis for more than one dimension.
 * @throws {RangeError} for a 0-d array or an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.cumulativeSum(ga.asarray([1, 2, 3]), { includeInitial: true }); // [0, 1, 3, 6]
 * ```
 */
export function cumulativeSum(a: GPUArray, options?: CumulativeOptions): GPUArray;
/** `cumulativeSum` along an axis given by position. */
export function cumulativeSum(a: GPUArray, axis: number, options?: AfterAxis<CumulativeOptions>): GPUArray;
export function cumulativeSum(a: GPUArray, ...args: unknown[]): GPUArray {
  return cumulative("sum", a, args, "cumulativeSum");
}

/**
 * The cumulative product along an axis (NumPy 2's `cumulative_prod`): as `cumprod`, but the axis is
 * required beyond one dimension, and `{ includeInitial: true }` starts with 1.
 *
 * @throws {TypeError} without an axis for more than one dimension.
 * @throws {RangeError} for a 0-d array or an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.cumulativeProd(ga.asarray([[1, 2], [3, 4]]), 1); // [[1, 2], [3, 12]]
 * ```
 */
export function cumulativeProd(a: GPUArray, options?: CumulativeOptions): GPUArray;
/** `cumulativeProd` along an axis given by position. */
export function cumulativeProd(a: GPUArray, axis: number, options?: AfterAxis<CumulativeOptions>): GPUArray;
export function cumulativeProd(a: GPUArray, ...args: unknown[]): GPUArray {
  return cumulative("prod", a, args, "cumulativeProd");
}
