/**
 * NumPy's `take_along_axis` (PyTorch's `gather`): per-position indices along one axis, as one `take`
 * of flat positions into a contiguous copy, so the gradient is `take`'s scatter-add; and
 * `put_along_axis` (PyTorch's `scatter`), as one `put` at the flat positions that taking along the
 * axis from the array's own element numbers gives.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { broadcastShapes, normalizeAxis, showShape } from "../core/layout.ts";
import { AXIS_OR_NULL, optionsOf } from "../core/axis_args.ts";
import { astype, linearFill } from "../ops/assign.ts";
import { broadcastTo, copy, moveaxis, ravel, reshape } from "../ops/views.ts";
import { put, takeWith } from "../ops/indexing.ts";
import { where } from "../ops/ufunc.ts";

/**
 * The elements of `a` at `indices` along `axis` (NumPy's `take_along_axis`, PyTorch's `gather`):
 * `out[..., j, ...] = a[..., indices[..., j, ...], ...]`. `indices` has `a`'s number of dimensions, its
 * other axes broadcasting with `a`'s; negative indices count from the end. The axis is given by
 * position or as `{ axis }`; `null` takes from the flattened `a` with 1-D indices. Differentiable (the
 * gradient is scattered back and added).
 *
 * @throws {RangeError} for an index out of range (naming the axis and its extent; in a compiled step at
 * its next call, as `take`'s), an axis out of range, or shapes that do not fit.
 * @throws {TypeError} for indices that are not of an integer dtype.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[10, 30, 20], [60, 40, 50]]);
 * const top = ga.takeAlongAxis(x, ga.argmax(x, 1, { keepdims: true }), 1); // [[30], [60]]
 * const sorted = ga.takeAlongAxis(x, ga.argsort(x, 1), 1); // each row ascending
 * ```
 */
export function takeAlongAxis<D extends DType>(
  a: GPUArray<D>,
  indices: GPUArray,
  axis: number | null | { readonly axis?: number | null },
): GPUArray<D> {
  return alongAxis(a, indices, axis, "takeAlongAxis");
}

/**
 * Writes `values` into `a` at `indices` along `axis`, in place (NumPy's `put_along_axis`, PyTorch's
 * `scatter`): `a[..., indices[..., j, ...], ...] = values[..., j, ...]`. `indices` has `a`'s number of
 * dimensions, its other axes broadcasting with `a`'s, and `values` broadcasts to the indices' shape;
 * negative indices count from the end; `null` writes into the flattened `a` with 1-D indices. Where an
 * index repeats, which of its values lands is not defined (as in NumPy). Not differentiable: `a` is
 * written in place.
 *
 * @throws {RangeError} for an index out of range (naming the axis and its extent), an axis out of
 * range, or shapes that do not fit.
 * @throws {TypeError} for indices that are not of an integer dtype.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros([2, 3]);
 * ga.putAlongAxis(x, ga.asarray([[2], [0]], "int64"), 1, 1); // [[0, 0, 1], [1, 0, 0]]
 * ```
 */
export function putAlongAxis<D extends DType>(
  a: GPUArray<D>,
  indices: GPUArray,
  values: GPUArray | number | bigint,
  axis: number | null | { readonly axis?: number | null },
): GPUArray<D> {
  arrayArg(a, "putAlongAxis");
  // Each element's C-order position in a, taken along the axis as takeAlongAxis takes values.
  using ids = linearFill(new GPUArray(a.backend, a.shape, "int64"), 0, 1);
  using positions = alongAxis(ids, indices, axis, "putAlongAxis");
  if (!(values instanceof GPUArray)) return put(a, positions, values);
  using wide = broadcastTo(values, positions.shape);
  return put(a, positions, wide);
}

/**
 * `takeAlongAxis` as `what`, which the errors name; `outOfRange`, where given, is the message for an
 * index out of range.
 */
export function alongAxis<D extends DType>(
  a: GPUArray<D>,
  indices: GPUArray,
  axis: number | null | { readonly axis?: number | null },
  what: string,
  outOfRange?: (extent: number) => string,
): GPUArray<D> {
  arrayArg(a, what);
  arrayArg(indices, what);
  const ax = optionsOf<{ axis?: number | null }>(what, [axis], [AXIS_OR_NULL], ["axis"], "{ axis: 1 }").axis;
  if (indices.dtype.startsWith("float") || indices.dtype.startsWith("complex") || indices.dtype === "bool") {
    throw new TypeError(
      `Cannot ${what} with ${indices.dtype} indices: give an integer array (argsort's, argmax's)`,
    );
  }
  if (ax === null || ax === undefined) {
    if (indices.ndim !== 1) {
      throw new RangeError(
        `Cannot ${what} of the flattened array with indices of shape ${
          showShape(indices.shape)
        }: give 1-D indices`,
      );
    }
    using flat = ravel(a);
    return along(flat, indices, 0, what, outOfRange);
  }
  if (indices.ndim !== a.ndim) {
    throw new RangeError(
      `Cannot ${what} of an array of shape ${showShape(a.shape)} with indices of shape ${
        showShape(indices.shape)
      }: they must have the same number of dimensions`,
    );
  }
  return along(a, indices, normalizeAxis(ax, a.ndim, what), what, outOfRange);
}

function along<D extends DType>(
  a: GPUArray<D>,
  indices: GPUArray,
  axis: number,
  what: string,
  outOfRange = (n: number) =>
    `Cannot ${what}: an index along axis ${axis} is out of range for extent ${n} (${-n} to ${n - 1})`,
): GPUArray<D> {
  const n = a.shape[axis]!;
  using am = moveaxis(a, axis, -1), im = moveaxis(indices, axis, -1);
  const batch = broadcastShapes([am.shape.slice(0, -1), im.shape.slice(0, -1)], what);
  const m = im.shape[im.ndim - 1]!;
  using wideA = broadcastTo(am, [...batch, n]), wideI = broadcastTo(im, [...batch, m]);
  using i64 = astype(wideI, "int64");
  // Flat positions: the row's start plus the index, negative ones from the end.
  const rows = batch.reduce((p, d) => p * d, 1);
  using starts = linearFill(new GPUArray(a.backend, [rows, 1], "int64"), 0, n);
  using shaped = reshape(starts, [...batch, 1]);
  using negative = i64.lt(0), lifted = i64.add(n);
  using wrapped = where(negative, lifted, i64);
  using inside = wrapped.add(shaped);
  // An index out of range points past the end, so take's own check (deferred in a compiled step) finds it.
  using low = i64.lt(-n), high = i64.ge(n), outside = low.logicalOr(high);
  using positions = where(outside, -1 - rows * n, inside);
  using contiguous = copy(wideA);
  using flat = ravel(contiguous);
  const taken = takeWith(
    flat,
    positions,
    undefined,
    () => outOfRange(n),
  );
  return moveaxis(taken, -1, axis) as GPUArray<D>;
}
