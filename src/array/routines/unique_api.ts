/**
 * NumPy 2's array API `unique_values`, `unique_counts`, `unique_inverse` and `unique_all`, over
 * {@link unique}: as NumPy's, they count every NaN as its own value (`equal_nan=False`), so the NaNs
 * that `unique` gathers into one last value are spread back into one value each, in the order they
 * stand in the input.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import { fill } from "../ops/assign.ts";
import { where } from "../ops/ufunc.ts";
import { ravel, reshape, slice } from "../ops/views.ts";
import { cumsum } from "../ops/scan.ts";
import { isnan } from "../api/elementwise.ts";
import { countNonzero } from "../api/reductions.ts";
import { concatenate } from "./join.ts";
import { nonzero } from "./compact.ts";
import { unique } from "./search.ts";
import { named } from "../linalg/results.ts";

/** What NumPy's `unique_all` gives: values, first indices, inverse indices (`x`'s shape), counts. */
interface Parts<D extends DType> {
  values: GPUArray<D>;
  indices: GPUArray<"int64">;
  inverse: GPUArray<"int64">;
  counts: GPUArray<"int64">;
}

/** `unique` with every part, NaNs one value each. */
function uniqueParts<D extends DType>(x: GPUArray<D>, what: string): Parts<D> {
  arrayArg(x, what);
  const r = unique(x, { returnCounts: true, returnInverse: true, returnIndex: true });
  const parts: Parts<D> = { values: r.values, indices: r.index!, inverse: r.inverse!, counts: r.counts! };
  if (DTYPES[x.dtype].kind !== "float") return parts;
  using flat = ravel(x);
  using nan = isnan(flat);
  const nans = Number(countNonzero(nan));
  if (nans <= 1) return parts;
  // unique's last value stands for every NaN: k - 1 values come before it.
  const k = parts.values.size;
  using keptValues = slice(parts.values, [0, k - 1]);
  using keptIndices = slice(parts.indices, [0, k - 1]);
  using keptCounts = slice(parts.counts, [0, k - 1]);
  using nanValues = fill(new GPUArray(x.backend, [nans], x.dtype), Number.NaN);
  using ones = fill(new GPUArray(x.backend, [nans], "int64"), 1);
  const [positions] = nonzero(nan) as [GPUArray<"int64">];
  using _positions = positions;
  // The i-th NaN (in C order) is value k - 1 + i.
  using rank = cumsum(nan, { dtype: "int64" });
  using shifted = rank.add(k - 2);
  using flatInverse = ravel(parts.inverse);
  using inverse = where(nan, shifted, flatInverse);
  const spread: Parts<D> = {
    values: concatenate([keptValues, nanValues]) as GPUArray<D>,
    indices: concatenate([keptIndices, positions]) as GPUArray<"int64">,
    inverse: reshape(inverse, x.shape).copy() as GPUArray<"int64">,
    counts: concatenate([keptCounts, ones]) as GPUArray<"int64">,
  };
  for (const part of Object.values(parts)) part.free();
  return spread;
}

/**
 * The sorted distinct values of `x`, flattened, each NaN its own (NumPy's `unique_values`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.uniqueValues(ga.asarray([3, NaN, 1, NaN, 3])).get()); // [1, 3, NaN, NaN]
 * ```
 */
export function uniqueValues<D extends DType>(x: GPUArray<D>): GPUArray<D> {
  const { values, indices, inverse, counts } = uniqueParts(x, "uniqueValues");
  for (const part of [indices, inverse, counts]) part.free();
  return values;
}

/** What {@link uniqueCounts} gives: `[values, counts]`, also by name. */
export type UniqueCountsResult<D extends DType> =
  & readonly [values: GPUArray<D>, counts: GPUArray<"int64">]
  & { readonly values: GPUArray<D>; readonly counts: GPUArray<"int64"> };

/**
 * The sorted distinct values of `x` and how often each occurs, each NaN its own (NumPy's
 * `unique_counts`): `[values, counts]`, also `.values` and `.counts`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, counts } = ga.uniqueCounts(ga.asarray([3, 1, 3])); // [1, 3] [1n, 2n]
 * ```
 */
export function uniqueCounts<D extends DType>(x: GPUArray<D>): UniqueCountsResult<D> {
  const { values, indices, inverse, counts } = uniqueParts(x, "uniqueCounts");
  indices.free();
  inverse.free();
  return named([values, counts] as const, { values, counts });
}

/** What {@link uniqueInverse} gives: `[values, inverseIndices]`, also by name. */
export type UniqueInverseResult<D extends DType> =
  & readonly [values: GPUArray<D>, inverseIndices: GPUArray<"int64">]
  & { readonly values: GPUArray<D>; readonly inverseIndices: GPUArray<"int64"> };

/**
 * The sorted distinct values of `x` and, for each element, the index of its value (in `x`'s shape),
 * each NaN its own (NumPy's `unique_inverse`): `[values, inverseIndices]`, also by name.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [values, inverse] = ga.uniqueInverse(ga.asarray([[3, 1], [1, 2]])); // [1, 2, 3] [[2n, 0n], [0n, 1n]]
 * ```
 */
export function uniqueInverse<D extends DType>(x: GPUArray<D>): UniqueInverseResult<D> {
  const { values, indices, inverse, counts } = uniqueParts(x, "uniqueInverse");
  indices.free();
  counts.free();
  return named([values, inverse] as const, { values, inverseIndices: inverse });
}

/** What {@link uniqueAll} gives: `[values, indices, inverseIndices, counts]`, also by name. */
export type UniqueAllResult<D extends DType> =
  & readonly [
    values: GPUArray<D>,
    indices: GPUArray<"int64">,
    inverseIndices: GPUArray<"int64">,
    counts: GPUArray<"int64">,
  ]
  & {
    readonly values: GPUArray<D>;
    readonly indices: GPUArray<"int64">;
    readonly inverseIndices: GPUArray<"int64">;
    readonly counts: GPUArray<"int64">;
  };

/**
 * The sorted distinct values of `x`, the flat index of each one's first occurrence, each element's
 * value index (in `x`'s shape) and each value's count, each NaN its own (NumPy's `unique_all`):
 * `[values, indices, inverseIndices, counts]`, also by name.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, indices, counts } = ga.uniqueAll(ga.asarray([3, 1, 3])); // [1, 3] [1n, 0n] [1n, 2n]
 * ```
 */
export function uniqueAll<D extends DType>(x: GPUArray<D>): UniqueAllResult<D> {
  const { values, indices, inverse, counts } = uniqueParts(x, "uniqueAll");
  return named([values, indices, inverse, counts] as const, {
    values,
    indices,
    inverseIndices: inverse,
    counts,
  });
}
