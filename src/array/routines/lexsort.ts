/**
 * Orders of several keys: `lexsort` (NumPy's: the last key first) as stable sorts from the least to
 * the most significant key, and `unique` along an axis (NumPy's `unique(a, axis=k)`: the distinct
 * slices), whose slices are ordered that way column by column.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { ascontiguousarray, moveaxis, reshape, slice } from "../ops/views.ts";
import { put, take } from "../ops/indexing.ts";
import { argsort } from "../ops/sorting.ts";
import { any } from "../api/reductions.ts";
import { cumsum } from "../ops/scan.ts";
import { nonzero } from "./compact.ts";
import { concatenate } from "./join.ts";
import { arange, asarray } from "./creation.ts";
import { astype } from "../ops/assign.ts";
import { ne, sub } from "../api/elementwise.ts";
import type { UniqueOptions, UniqueResult } from "./search.ts";

/**
 * The indices that sort by several keys (NumPy's `lexsort`): by the last key, ties by the one before,
 * and so on; equal in every key, in their order. `keys` is a list of 1-D arrays of one length, or a
 * 2-D array whose rows are the keys. Each key is one stable sort (`argsort`).
 *
 * @throws {TypeError} for keys that are not arrays, or no key.
 * @throws {RangeError} for keys of different lengths or more than one dimension.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const surnames = ga.asarray([2, 1, 2, 1]), firstNames = ga.asarray([0, 3, 1, 2]);
 * const order = ga.lexsort([firstNames, surnames]); // by surname, then first name: [3, 1, 0, 2]
 * ```
 */
export function lexsort(keys: readonly GPUArray[] | GPUArray): GPUArray<"int64"> {
  const list = keys instanceof GPUArray
    ? (keys.ndim === 2
      ? Array.from({ length: keys.shape[0]! }, (_, i) => slice(keys, [i, i + 1]).reshape([-1]))
      : [keys])
    : keys;
  if (!Array.isArray(list) && !(keys instanceof GPUArray)) {
    throw new TypeError(`Cannot lexsort ${describe(keys)}: pass a list of 1-D arrays or a 2-D array of keys`);
  }
  if (list.length === 0) throw new TypeError("Cannot lexsort no keys: pass at least one");
  list.forEach((k, i) => {
    if (!(k instanceof GPUArray)) {
      throw new TypeError(`Cannot lexsort key ${i}, ${describe(k)}: keys are GPUArrays`);
    }
    if (k.ndim !== 1 || k.size !== list[0]!.size) {
      throw new RangeError(
        `Cannot lexsort key ${i} of shape ${showShape(k.shape)}: keys are 1-D and of one length (${
          list[0]!.size
        })`,
      );
    }
  });
  let order: GPUArray<"int64"> | undefined;
  for (const key of list) {
    const step = argsort(order === undefined ? key : take(key, order));
    order = order === undefined ? step : take(order, step);
  }
  return order!;
}

/** {@link unique}'s `axis`: the distinct slices along it, sorted lexicographically. */
export function uniqueAlong<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options: UniqueOptions,
): UniqueResult<D> {
  if (!Number.isInteger(axis) || axis < -a.ndim || axis >= a.ndim) {
    throw new RangeError(
      `Cannot take unique values along axis ${describe(axis)} of an array of shape ${
        showShape(a.shape)
      }: use -${a.ndim} to ${a.ndim - 1}`,
    );
  }
  const ax = axis < 0 ? axis + a.ndim : axis;
  const moved = moveaxis(a, ax, 0), n = moved.shape[0]!, rest = moved.shape.slice(1);
  const width = rest.reduce((p, d) => p * d, 1);
  const rows = reshape(ascontiguousarray(moved), [n, width]);
  // Rows in lexicographic order: the first column is the most significant key, so it is sorted last.
  const columns = Array.from({ length: width }, (_, c) => reshape(slice(rows, [], [c, c + 1]), [n]))
    .reverse();
  const order = width === 0 || n === 0 ? arange(n, "int64") : lexsort(columns);
  const sorted = take(rows, order, 0);
  // A slice starts a new value where it differs from the one before it in any element.
  const changed = n > 1 ? any(ne(slice(sorted, [1, n]), slice(sorted, [0, n - 1])), 1) : asarray([], "bool");
  const first = n === 0 ? changed : concatenate([asarray([true]), changed]);
  const [starts] = nonzero(first) as [GPUArray<"int64">];
  const k = starts.size;
  const values = moveaxis(reshape(take(sorted, starts, 0), [k, ...rest]), 0, ax) as GPUArray<D>;
  const result: {
    values: GPUArray<D>;
    counts?: GPUArray<"int64">;
    inverse?: GPUArray<"int64">;
    index?: GPUArray<"int64">;
  } = { values: ascontiguousarray(values) };
  if (options.returnCounts === true) {
    result.counts = sub(concatenate([slice(starts, [1, k]), asarray([n], "int64")]), starts) as GPUArray<
      "int64"
    >;
  }
  if (options.returnInverse === true) {
    const group = sub(cumsum(astype(first, "int64")), 1) as GPUArray<"int64">;
    const inverse = new GPUArray(a.backend, [n], "int64");
    put(inverse, order, group);
    result.inverse = inverse;
  }
  if (options.returnIndex === true) result.index = take(order, starts);
  return result;
}
