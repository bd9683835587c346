/**
 * Sorting along an axis, NumPy style: `sort`, `argsort` (stable), and `topk` (PyTorch's). The axis
 * is moved last in a contiguous copy (none is made for a contiguous array sorted along its last axis),
 * each row is radix-sorted (`radix.ts`), and the result comes back C-contiguous with the axis in
 * place. NaN sorts last, as in NumPy; -0.0 and +0.0 compare equal and keep their order.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import { GPUArray } from "./gpuarray.ts";
import { normalizeAxis, showShape } from "./layout.ts";
import { copyOf } from "./loop.ts";
import { moveaxis, reshape, slice } from "./views.ts";
import { assign } from "./assign.ts";
import { sortRows } from "./radix.ts";

/**
 * Options of {@link sort} and {@link argsort}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.SortOptions = { axis: 0 };
 * ```
 */
export interface SortOptions {
  /** The axis to sort along (default -1, the last); `null` sorts the flattened array (NumPy's `axis=None`). */
  readonly axis?: number | null;
}

/** Throws unless `a` is a GPUArray. */
export function checkArray(a: unknown, what: string): GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  return a;
}

/** A temporary view or copy made from `a`, used once and then released. */
function consume<D extends DType, E extends DType>(v: GPUArray<D>, make: (v: GPUArray<D>) => GPUArray<E>) {
  try {
    return make(v);
  } finally {
    v.free();
  }
}

/** `a`'s elements as contiguous rows along an axis (`null`: one row of all of them). */
interface Rows<D extends DType> {
  /** Contiguous, the axis last: `a` itself, a view of it, or a copy. */
  readonly x: GPUArray<D>;
  /** Elements per row. */
  readonly rowLen: number;
  /** The axis the rows lie along in `a`, where it is not the last (undefined when last or flattened). */
  readonly moved: number | undefined;
}

function rowsOf<D extends DType>(a: GPUArray<D>, axis: number | null, what: string): Rows<D> {
  if (axis === null) {
    const x = a.isContiguous ? reshape(a, [a.size]) : consume(copyOf(a), (c) => reshape(c, [a.size]));
    return { x, rowLen: a.size, moved: undefined };
  }
  const ax = normalizeAxis(axis, a.ndim, what);
  if (ax === a.ndim - 1) return { x: a.isContiguous ? a : copyOf(a), rowLen: a.shape[ax]!, moved: undefined };
  return { x: consume(moveaxis(a, ax, -1), copyOf), rowLen: a.shape[ax]!, moved: ax };
}

/** Lets go of the rows where they are not `a` itself. */
function release(rows: Rows<DType>, a: GPUArray): void {
  if (rows.x !== a) rows.x.free();
}

/** `r`, made along the rows' last axis, with that axis moved back where it was in C order (frees `r`). */
function restore<E extends DType>(r: GPUArray<E>, rows: Rows<DType>): GPUArray<E> {
  if (rows.moved === undefined) return r;
  const moved = rows.moved;
  return consume(r, (x) => consume(moveaxis(x, -1, moved), copyOf));
}

/**
 * A sorted copy of `a` along an axis (default the last; `axis: null` sorts the flattened array), in
 * NumPy's order: NaN last, -0.0 and +0.0 equal (they keep their order). Every dtype; a radix sort.
 *
 * @throws {RangeError} for an axis out of range (a 0-d array has none: use `axis: null`).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const s = ga.sort(ga.asarray([[3, 1, 2], [0, NaN, -1]])); // [[1, 2, 3], [-1, 0, NaN]]
 * console.log(s.get());
 * ```
 */
export function sort<D extends DType>(a: GPUArray<D>, options: SortOptions = {}): GPUArray<D> {
  checkArray(a, "sort");
  const rows = rowsOf(a, options.axis === undefined ? -1 : options.axis, "sort");
  const values = new GPUArray(a.backend, rows.x.shape, a.dtype);
  sortRows(rows.x, rows.rowLen, { values });
  release(rows, a);
  return restore(values, rows);
}

/**
 * The indices that sort `a` along an axis (int64; default the last axis, `axis: null` the flattened
 * array): a stable sort, so equal elements keep their order. NaN last, -0.0 and +0.0 equal.
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const order = ga.argsort(ga.asarray([30, 10, 20, 10])); // [1, 3, 2, 0]
 * console.log(order.get());
 * ```
 */
export function argsort(a: GPUArray, options: SortOptions = {}): GPUArray<"int64"> {
  checkArray(a, "argsort");
  const rows = rowsOf(a, options.axis === undefined ? -1 : options.axis, "argsort");
  const indices = new GPUArray(a.backend, rows.x.shape, "int64");
  sortRows(rows.x, rows.rowLen, { indices });
  release(rows, a);
  return restore(indices, rows);
}

/**
 * Sorts `a` in place along an axis (NumPy's `ndarray.sort`): writes through a view; returns nothing.
 *
 * @throws {RangeError} for an axis out of range, or a broadcast view (its elements overlap).
 */
export function sortInPlace(a: GPUArray, options: { readonly axis?: number } = {}): void {
  checkArray(a, "sort");
  if (options.axis === null) {
    throw new TypeError("Cannot sort an array in place with axis null: use ga.sort(a, { axis: null })");
  }
  using sorted = sort(a, options);
  assign(a, sorted);
}

/**
 * Options of {@link topk}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.TopkOptions = { axis: 0, largest: false };
 * ```
 */
export interface TopkOptions {
  /** The axis to select along (default -1, the last). */
  readonly axis?: number;
  /** The largest elements, largest first (default); `false`: the smallest, smallest first. */
  readonly largest?: boolean;
}

/**
 * What {@link topk} returns.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, indices }: ga.TopkResult<"float32"> = ga.topk(ga.asarray([1, 3, 2]), 2);
 * ```
 */
export interface TopkResult<D extends DType> {
  /** The `k` elements along the axis, in order. */
  readonly values: GPUArray<D>;
  /** Their indices along the axis (int64). */
  readonly indices: GPUArray<"int64">;
}

/**
 * The `k` largest (or, with `largest: false`, smallest) elements along an axis and their indices
 * (PyTorch's `topk`), sorted by value, equal values by index. NaN counts as the largest, as in
 * NumPy's order. With `k` the axis's extent and `largest: false`, it is a sort returning values and
 * indices (PyTorch's `sort`).
 *
 * @throws {RangeError} for an axis out of range, or `k` not an integer from 0 to the axis's extent.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, indices } = ga.topk(ga.asarray([[4, 9, 1], [7, 7, 2]]), 2);
 * console.log(values.get(), indices.get()); // [9, 4, 7, 7] [1n, 0n, 0n, 1n]
 * ```
 */
export function topk<D extends DType>(a: GPUArray<D>, k: number, options: TopkOptions = {}): TopkResult<D> {
  checkArray(a, "topk");
  const rows = rowsOf(a, options.axis ?? -1, "take the top k");
  if (!Number.isInteger(k) || k < 0 || k > rows.rowLen) {
    release(rows, a);
    throw new RangeError(
      `Cannot take the top ${k} of an array of shape ${showShape(a.shape)} along axis ${
        options.axis ?? -1
      }: k must be an integer from 0 to ${rows.rowLen}`,
    );
  }
  const values = new GPUArray(a.backend, rows.x.shape, a.dtype);
  const indices = new GPUArray(a.backend, rows.x.shape, "int64");
  sortRows(rows.x, rows.rowLen, { values, indices }, { descending: options.largest !== false });
  release(rows, a);
  // The first k along the last axis, as a contiguous array (frees the whole).
  const first = <E extends DType>(r: GPUArray<E>) =>
    k === rows.rowLen ? r : consume(r, (x) => consume(slice(x, "...", [0, k]), copyOf));
  return { values: restore(first(values), rows), indices: restore(first(indices), rows) };
}
