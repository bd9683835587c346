/**
 * Sorting along an axis, NumPy style: `sort`, `argsort` (stable), and `topk` (PyTorch's). The axis
 * is moved last in a contiguous copy (none is made for a contiguous array sorted along its last axis),
 * each row is radix-sorted (`radix.ts`), and the result comes back C-contiguous with the axis in
 * place. NaN sorts last, as in NumPy; -0.0 and +0.0 compare equal and keep their order.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, sharesMemory } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import { copyOf } from "../exec/loop.ts";
import { moveaxis, reshape, slice } from "./views.ts";
import { assign } from "./assign.ts";
import { take } from "./indexing.ts";
import { type GradOps, isTracked, record, refuseTrackedWrite } from "../grad/tape.ts";
import { sortRows } from "../exec/radix.ts";
import { outputFor } from "./ufunc.ts";
import { type AfterAxis, AXIS, AXIS_OR_NULL, optionsOf, type Slot } from "../core/axis_args.ts";

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
  /**
   * The axis to sort along (default -1, the last; also given by position: `ga.sort(a, 0)`); `null`
   * sorts the flattened array (`axis=None`).
   */
  readonly axis?: number | null;
  /** Where the result goes: an array of its shape and dtype (any layout; the input itself too). Default: a new array. */
  readonly out?: GPUArray;
}

/** Throws unless `a` is a GPUArray. */
export function checkArray(a: unknown, what: string): GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  return a;
}

/**
 * Throws unless `a` is a GPUArray of real numbers: what orders, counts, bins or factors elements
 * (sorting, sets, statistics, `ga.linalg`) is not defined here for complex numbers.
 */
export function checkReal(a: unknown, what: string): GPUArray {
  const x = checkArray(a, what);
  if (x.dtype === "complex64" || x.dtype === "complex128") {
    throw new TypeError(
      `Cannot ${what} a ${x.dtype} array: it is not defined for complex numbers here; take ga.real(a), ga.imag(a) or ga.abs(a) first`,
    );
  }
  return x;
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

/** `r`, made along the rows' last axis, with that axis moved back where it was, C-contiguous (frees `r`). */
function restore(r: GPUArray, rows: Rows<DType>): GPUArray {
  if (rows.moved === undefined) return r;
  const moved = rows.moved;
  return consume(r, (x) => consume(moveaxis(x, -1, moved), copyOf));
}

/** An output: an `out` array given by the caller, `true` for a new array, or undefined when not wanted. */
type Wanted = GPUArray | true | undefined;

/**
 * Sorts `a` along `axis` and keeps the first `k` of each row (all: undefined), into the outputs
 * wanted. Where an `out` array is contiguous, apart from `a` and the rows are `a`'s last axis, the
 * sort writes into it; else into new arrays, copied over.
 */
function sortAlong(
  a: GPUArray,
  axis: number | null,
  k: number | undefined,
  descending: boolean,
  want: { readonly values?: Wanted; readonly indices?: Wanted },
  what: string,
): { values?: GPUArray; indices?: GPUArray } {
  const rows = rowsOf(a, axis, what);
  const kept = k ?? rows.rowLen;
  if (!Number.isInteger(kept) || kept < 0 || kept > rows.rowLen) {
    if (rows.x !== a) rows.x.free();
    throw new RangeError(
      `Cannot ${what} of an array of shape ${
        showShape(a.shape)
      } along axis ${axis}: k must be an integer from 0 to ${rows.rowLen}`,
    );
  }
  const shape = rows.moved === undefined ? [...rows.x.shape] : [...a.shape];
  const along = rows.moved ?? shape.length - 1;
  shape[along] = kept;
  const dtypes = { values: a.dtype, indices: "int64" as DType };
  for (const key of ["values", "indices"] as const) {
    const w = want[key];
    if (w !== undefined && w !== true) outputFor(a, shape, dtypes[key], w, what);
  }
  const direct = rows.moved === undefined && kept === rows.rowLen;
  const target = (w: Wanted, dtype: DType) => {
    if (w === undefined) return undefined;
    if (w !== true && direct && w.isContiguous && !sharesMemory(w, a)) return w;
    return new GPUArray(a.backend, rows.x.shape, dtype);
  };
  const made = {
    values: target(want.values, a.dtype),
    indices: target(want.indices, "int64") as GPUArray<"int64"> | undefined,
  };
  try {
    sortRows(rows.x, rows.rowLen, made, { descending });
  } finally {
    if (rows.x !== a) rows.x.free();
  }
  const finish = (w: Wanted, r: GPUArray | undefined) => {
    if (w === undefined || r === undefined || r === w) return r;
    const firstK = kept === rows.rowLen ? r : consume(r, (x) => consume(slice(x, "...", [0, kept]), copyOf));
    const result = restore(firstK, rows);
    if (w === true) return result;
    assign(w, result);
    result.free();
    return w;
  };
  return { values: finish(want.values, made.values), indices: finish(want.indices, made.indices) };
}

/**
 * A sorted copy of `a` along an axis (default the last; `axis: null` sorts the flattened array), in
 * NumPy's order: NaN last, -0.0 and +0.0 equal (they keep their order). Every dtype; a radix sort.
 * With `out`, into that array (which may be `a` itself), and returns it.
 *
 * @throws {RangeError} for an axis out of range (a 0-d array has none: use `axis: null`), or an `out`
 * of another shape.
 * @throws {TypeError} for an `out` of another dtype.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const s = ga.sort(ga.asarray([[3, 1, 2], [0, NaN, -1]])); // [[1, 2, 3], [-1, 0, NaN]]
 * console.log(s.get());
 * const columns = ga.sort(ga.asarray([[3, 1], [0, 2]]), 0); // along axis 0; also { axis: 0 }
 * ```
 */
export function sort<D extends DType>(a: GPUArray<D>, options?: SortOptions): GPUArray<D>;
/** `sort` along an axis given by position (`sort(a, 0)`, `sort(a, null)`, `sort(a, 0, { out })`). */
export function sort<D extends DType>(
  a: GPUArray<D>,
  axis: number | null,
  options?: AfterAxis<SortOptions>,
): GPUArray<D>;
export function sort<D extends DType>(a: GPUArray<D>, ...args: unknown[]): GPUArray<D> {
  checkReal(a, "sort");
  const options = optionsOf<SortOptions>("sort", args, [AXIS_OR_NULL], ["axis", "out"], "{ axis: 0 }");
  const axis = options.axis === undefined ? -1 : options.axis;
  if (!isTracked(a)) {
    return sortAlong(a, axis, undefined, false, { values: options.out ?? true }, "sort").values as GPUArray<
      D
    >;
  }
  if (options.out !== undefined) refuseTrackedWrite("sort into out", options.out, [a]);
  const { values, indices } = sortAlong(a, axis, undefined, false, { values: true, indices: true }, "sort");
  record("sort", [a], values!, (g, { ops }) => [unsort(g, indices!, axis === null ? 0 : axis, a.shape, ops)]);
  return values as GPUArray<D>;
}

/** `g` put back where `sort` took each element from (`order`, its indices along `axis`), in `shape`. */
function unsort(
  g: GPUArray,
  order: GPUArray,
  axis: number,
  shape: readonly number[],
  ops: GradOps,
): GPUArray {
  const ax = normalizeAxis(axis, g.ndim, "sort"), n = g.shape[ax]!, rows = g.size / n;
  const last = (x: GPUArray) => moveaxis(x, ax, -1);
  const rank = ops.reshape(last(argsort(order, ax)), [rows, n]);
  const at = rank.add(ops.reshape(ops.arange(rows).mul(n), [rows, 1]));
  const back = ops.reshape(take(ops.reshape(last(g), [g.size]), at), last(g).shape);
  return ops.reshape(moveaxis(back, -1, ax), shape);
}

/**
 * The indices that sort `a` along an axis (int64; default the last axis, `axis: null` the flattened
 * array): a stable sort, so equal elements keep their order. NaN last, -0.0 and +0.0 equal. With
 * `out`, into that int64 array, and returns it.
 *
 * @throws {RangeError} for an axis out of range, or an `out` of another shape.
 * @throws {TypeError} for an `out` that is not int64.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const order = ga.argsort(ga.asarray([30, 10, 20, 10])); // [1, 3, 2, 0]
 * console.log(order.get());
 * const down = ga.argsort(ga.asarray([[3, 1], [0, 2]]), 0); // along axis 0: [[1, 0], [0, 1]]
 * ```
 */
export function argsort(a: GPUArray, options?: SortOptions): GPUArray<"int64">;
/** `argsort` along an axis given by position (`argsort(a, 0)`, `argsort(a, null)`, `argsort(a, 0, { out })`). */
export function argsort(
  a: GPUArray,
  axis: number | null,
  options?: AfterAxis<SortOptions>,
): GPUArray<"int64">;
export function argsort(a: GPUArray, ...args: unknown[]): GPUArray<"int64"> {
  checkReal(a, "argsort");
  const options = optionsOf<SortOptions>("argsort", args, [AXIS_OR_NULL], ["axis", "out"], "{ axis: 0 }");
  const axis = options.axis === undefined ? -1 : options.axis;
  return sortAlong(a, axis, undefined, false, { indices: options.out ?? true }, "argsort")
    .indices as GPUArray<"int64">;
}

/**
 * Sorts `a` in place along an axis (NumPy's `ndarray.sort`, the method `a.sort()`, `a.sort(0)`,
 * `a.sort({ axis: 0 })`): writes through a view; returns nothing. `args` are the method's arguments.
 *
 * @throws {RangeError} for an axis out of range, or a broadcast view (its elements overlap).
 */
export function sortInPlace(a: GPUArray, args: readonly unknown[]): void {
  checkReal(a, "sort");
  const options = optionsOf<{ axis?: number | null }>("sort", args, [AXIS_OR_NULL], ["axis"], "{ axis: 0 }");
  if (options.axis === null) {
    throw new TypeError("Cannot sort an array in place with axis null: use ga.sort(a, { axis: null })");
  }
  sort(a, { axis: options.axis, out: a });
}

/** `largest`, PyTorch's positional after the axis. */
const LARGEST: Slot = {
  name: "largest",
  takes: (v) => typeof v === "boolean",
  what: "largest (a boolean)",
};

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
  /** The axis to select along (default -1, the last; also given by position: `ga.topk(a, 2, 0)`). */
  readonly axis?: number;
  /** The largest elements, largest first (default); `false`: the smallest, smallest first. */
  readonly largest?: boolean;
  /** Where the values and indices go (PyTorch's `out=(values, indices)`): arrays of the result's shape. Default: new arrays. */
  readonly out?: { readonly values: GPUArray; readonly indices: GPUArray<"int64"> };
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
 * indices (PyTorch's `sort`). With `out`, into those two arrays, and returns them.
 *
 * @throws {RangeError} for an axis out of range, `k` not an integer from 0 to the axis's extent, or
 * an `out` array of another shape.
 * @throws {TypeError} for `out` arrays of other dtypes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { values, indices } = ga.topk(ga.asarray([[4, 9, 1], [7, 7, 2]]), 2);
 * console.log(values.get(), indices.get()); // [9, 4, 7, 7] [1n, 0n, 0n, 1n]
 * const lowest = ga.topk(ga.asarray([[4, 9], [7, 2]]), 1, 0, { largest: false }); // PyTorch's topk(a, k, dim)
 * ```
 */
export function topk<D extends DType>(a: GPUArray<D>, k: number, options?: TopkOptions): TopkResult<D>;
/**
 * `topk` along an axis given by position, then PyTorch's `largest` (`topk(a, 2, 0)`, `topk(a, 2, 0,
 * false)`, `topk(a, 2, 0, { largest: false })`).
 */
export function topk<D extends DType>(
  a: GPUArray<D>,
  k: number,
  axis: number,
  largest?: boolean | AfterAxis<TopkOptions>,
  options?: Omit<TopkOptions, "axis" | "largest">,
): TopkResult<D>;
export function topk<D extends DType>(a: GPUArray<D>, k: number, ...args: unknown[]): TopkResult<D> {
  checkReal(a, "topk");
  const options = optionsOf<TopkOptions>(
    "topk",
    args,
    [AXIS, LARGEST],
    ["axis", "largest", "out"],
    "{ axis: 0, largest: false }",
  );
  const { values, indices } = sortAlong(
    a,
    options.axis ?? -1,
    k,
    options.largest !== false,
    { values: options.out?.values ?? true, indices: options.out?.indices ?? true },
    `take the top ${describe(k)}`,
  );
  return { values: values as GPUArray<D>, indices: indices as GPUArray<"int64"> };
}
