/**
 * `unique` and `searchsorted`, NumPy style, over the sort's keys (so equality and order are NumPy's:
 * -0.0 and +0.0 are one value, NaNs are one value and sort last).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { copyOf } from "../exec/loop.ts";
import { reshape, slice } from "../ops/views.ts";
import { take } from "../ops/indexing.ts";
import { astype } from "../ops/assign.ts";
import { callOp } from "../ops/ufunc.ts";
import { BINARY } from "../ops/binary_ops.ts";
import { resultType } from "../core/dtypes.ts";
import { blockShare, keyOrder, sortKernel, sortRows, SortScratch, variantFor } from "../exec/radix.ts";
import { SORT_BLOCK, sortTile, type SortVariant } from "../exec/sort_keys_source.ts";
import { searchSource } from "../exec/search_source.ts";
import { checkReal } from "../ops/sorting.ts";
import type { Backend, BackendKernel } from "../../device/backend.ts";
import { checkOptions } from "../../kernel/options.ts";
import { uniqueAlong } from "./lexsort.ts";

function searchKernel(backend: Backend, v: SortVariant, name: string): BackendKernel {
  return backend.kernel(`search:${v.width}${v.wide ? "w" : "n"}:${name}`, () => ({
    name,
    source: searchSource(v, backend.dialect),
  }));
}

/**
 * Options of {@link unique}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.UniqueOptions = { returnCounts: true, returnInverse: true };
 * ```
 */
export interface UniqueOptions {
  /** Also return how many times each unique value occurs. Default false. */
  readonly returnCounts?: boolean;
  /** Also return, for each element of the input, the index of its value in `values`. Default false. */
  readonly returnInverse?: boolean;
  /** Also return, for each unique value, the flat index of its first occurrence in the input. Default false. */
  readonly returnIndex?: boolean;
  /**
   * The distinct slices along this axis instead of the distinct elements (NumPy's `axis`): `values`
   * keeps the other axes, the slices sorted lexicographically; `inverse` and `index` count slices.
   * Slices holding NaN are each their own. Default null: the flattened elements.
   */
  readonly axis?: number | null;
}

/**
 * What {@link unique} returns when given options.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r: ga.UniqueResult<"int32"> = ga.unique(ga.asarray([2, 1, 2], "int32"), { returnCounts: true });
 * console.log(r.values.get(), r.counts?.get()); // Int32Array [1, 2] BigInt64Array [1n, 2n]
 * ```
 */
export interface UniqueResult<D extends DType> {
  /** The distinct values, sorted (1-D). */
  readonly values: GPUArray<D>;
  /** How many elements equal each value (int64), with `returnCounts`. */
  readonly counts?: GPUArray<"int64">;
  /** Each input element's index in `values` (int64, the input's shape), with `returnInverse`. */
  readonly inverse?: GPUArray<"int64">;
  /** The flat index of each value's first occurrence in the input (int64), with `returnIndex`. */
  readonly index?: GPUArray<"int64">;
}

/**
 * The sorted distinct elements of `a`, flattened (NumPy's `unique`). NumPy's equality: -0.0 and +0.0
 * are one value (the first in `a`'s order stands for it), and all NaNs are one, last. With options,
 * an object with the values and, as asked, the counts, the inverse (the input's shape, as NumPy 2)
 * and the index of each value's first occurrence (`returnIndex`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const u = ga.unique(ga.asarray([3, 1, 3, NaN, 1, NaN])); // [1, 3, NaN]
 * const options = { returnCounts: true, returnInverse: true };
 * const { values, counts, inverse } = ga.unique(ga.asarray([5, 2, 5]), options);
 * console.log(u.get()); // [1, 3, NaN]
 * console.log(values.get(), counts!.get(), inverse!.get()); // [2, 5] [1n, 2n] [1n, 0n, 1n]
 * ```
 */
export function unique<D extends DType>(a: GPUArray<D>): GPUArray<D>;
/**
 * {@link unique} with options: the values and, as asked, the counts and the inverse.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, counts } = ga.unique(ga.asarray([5, 2, 5]), { returnCounts: true }); // [2, 5] [1n, 2n]
 * const rows = ga.unique(ga.asarray([[1, 2], [0, 5], [1, 2]]), { axis: 0 }).values; // [[0, 5], [1, 2]]
 * ```
 */
export function unique<D extends DType>(a: GPUArray<D>, options: UniqueOptions): UniqueResult<D>;
export function unique<D extends DType>(
  a: GPUArray<D>,
  options?: UniqueOptions,
): GPUArray<D> | UniqueResult<D> {
  checkReal(a, "take the unique values of");
  checkOptions(options, "take unique values", "{ returnCounts: true }", [
    "returnCounts",
    "returnInverse",
    "returnIndex",
    "axis",
  ]);
  a.backend.checkHostRead("unique()", "the size of its result");
  if (options?.axis !== undefined && options.axis !== null) return uniqueAlong(a, options.axis, options);
  const wantCounts = options?.returnCounts === true, wantInverse = options?.returnInverse === true;
  const wantIndex = options?.returnIndex === true;
  const backend = a.backend, n = a.size;
  const flat = a.isContiguous ? reshape(a, [n]) : copyOf(a);
  const sorted = new GPUArray(backend, [n], a.dtype);
  const perm = wantInverse || wantIndex ? new GPUArray(backend, [n], "int64") : undefined;
  sortRows(flat, n, { values: sorted, indices: perm });
  flat.free();
  const v = variantFor(a.dtype, n);
  const order = keyOrder(a.dtype, false);
  const { blocks, tilesPerBlock } = blockShare(Math.max(n, 1), sortTile(v));
  const offBytes = v.wide ? 8 : 4;
  using scratch = new SortScratch(backend);
  const counts = scratch.buffer("counts", blocks * offBytes);
  const totals = scratch.buffer("totals", SORT_BLOCK * offBytes);
  let runs = 0;
  if (n > 0) {
    searchKernel(backend, v, "cudeno_unique_count").launch(
      { grid: blocks, block: SORT_BLOCK },
      [sorted.buffer, counts, n, order.kind, order.inf, tilesPerBlock],
    );
    sortKernel(backend, v, "cudeno_sort_scan").launch({ grid: 1, block: SORT_BLOCK }, [
      counts,
      totals,
      blocks,
    ]);
    const total = new (v.wide ? BigUint64Array : Uint32Array)(1);
    backend.read(total, totals, 0);
    runs = Number(total[0]!);
  }
  const values = new GPUArray(backend, [runs], a.dtype);
  const starts = wantCounts || wantIndex ? new GPUArray(backend, [runs + 1], "int64") : undefined;
  const inverse = wantInverse ? new GPUArray(backend, a.shape, "int64") : undefined;
  if (n > 0) {
    searchKernel(backend, v, "cudeno_unique_write").launch({ grid: blocks, block: SORT_BLOCK }, [
      sorted.buffer,
      perm?.buffer ?? sorted.buffer,
      counts,
      values.buffer,
      starts?.buffer ?? sorted.buffer,
      inverse?.buffer ?? sorted.buffer,
      n,
      order.kind,
      order.inf,
      tilesPerBlock,
      1 | (starts ? 2 : 0) | (inverse ? 4 : 0),
    ]);
  }
  sorted.free();
  let index: GPUArray<"int64"> | undefined;
  if (wantIndex) {
    using firsts = slice(starts!, [0, -1]);
    index = take(perm!, firsts) as GPUArray<"int64">;
  }
  perm?.free();
  if (options === undefined) return values;
  let countsOut: GPUArray<"int64"> | undefined;
  if (wantCounts) {
    if (runs === 0) countsOut = new GPUArray(backend, [0], "int64");
    else {
      using ends = slice(starts!, [1, null]), begins = slice(starts!, [0, -1]);
      countsOut = callOp(BINARY.sub, [ends, begins], undefined, "sub") as GPUArray<"int64">;
    }
  }
  starts?.free();
  return { values, counts: countsOut, inverse, index };
}

/**
 * Options of {@link searchsorted}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.SearchsortedOptions = { side: "right" };
 * ```
 */
export interface SearchsortedOptions {
  /** `"left"` (default): the first place where a value could go; `"right"`: the last. */
  readonly side?: "left" | "right";
}

/**
 * Where each of `values` would go in the sorted 1-D array `sorted` to keep it sorted (NumPy's
 * `searchsorted`): for `side: "left"` the first index `i` with `sorted[i] >= value`, for `"right"` the
 * first with `sorted[i] > value`, in NumPy's order (NaN last). int64, of `values`' shape. Both are
 * compared in their common dtype (NumPy's promotion).
 *
 * @throws {RangeError} when `sorted` is not 1-D.
 * @throws {TypeError} for a side other than "left" or "right".
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const at = ga.searchsorted(ga.asarray([1, 2, 2, 5]), ga.asarray([2, 6, 0]));
 * console.log(at.get()); // BigInt64Array [1n, 4n, 0n]
 * ```
 */
export function searchsorted(
  sorted: GPUArray,
  values: GPUArray,
  options: SearchsortedOptions = {},
): GPUArray<"int64"> {
  checkReal(sorted, "searchsorted in");
  checkReal(values, "searchsorted for");
  checkOptions(options, "searchsorted", '{ side: "right" }', ["side"]);
  const side = options.side ?? "left";
  if (side !== "left" && side !== "right") {
    throw new TypeError(`Cannot searchsorted with side "${side}": use "left" or "right"`);
  }
  if (sorted.ndim !== 1) {
    throw new RangeError(
      `Cannot searchsorted in an array of shape ${showShape(sorted.shape)}: it must be 1-D (ravel() it)`,
    );
  }
  if (sorted.backend !== values.backend) {
    throw new TypeError(
      `Cannot searchsorted arrays on ${sorted.backend.device} and ${values.backend.device}: copy one to the other's backend first`,
    );
  }
  const dtype = resultType(sorted.dtype, values.dtype);
  const prepared = (x: GPUArray) => (x.dtype !== dtype ? astype(x, dtype) : x.isContiguous ? x : copyOf(x));
  const a = prepared(sorted), x = prepared(values);
  const out = new GPUArray(values.backend, values.shape, "int64");
  try {
    if (x.size > 0) {
      const v = variantFor(dtype, Math.max(a.size, x.size));
      const order = keyOrder(dtype, false);
      searchKernel(a.backend, v, "cudeno_searchsorted").launch(
        { grid: Math.ceil(x.size / SORT_BLOCK), block: SORT_BLOCK },
        [
          a.buffer,
          a.offset,
          a.size,
          x.buffer,
          x.offset,
          out.buffer,
          x.size,
          order.kind,
          order.inf,
          side === "right" ? 1 : 0,
        ],
      );
    }
  } finally {
    if (a !== sorted) a.free();
    if (x !== values) x.free();
  }
  return out;
}
