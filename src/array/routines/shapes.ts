/**
 * Rearranging and building arrays, NumPy style: `roll`, `rot90`, `fliplr`, `flipud` (views where
 * NumPy gives views), `cross`, `kron`, `indices`, `triuIndices`, `trilIndices`, and `partition` /
 * `argpartition` (a full sort along the axis, which satisfies a partition's promise).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import type { SliceSpec } from "../core/slicing.ts";
import { checkOptions } from "../../kernel/options.ts";
import { assign } from "../ops/assign.ts";
import { flip, moveaxis, ravel, reshape, slice, transpose } from "../ops/views.ts";
import { argsort, sort } from "../ops/sorting.ts";
import { mul, neg, sub } from "../api/elementwise.ts";
import { arange } from "./creation.ts";
import { tri } from "./matrices.ts";
import { nonzero } from "./compact.ts";
import { stack } from "./join.ts";
import { checkArray } from "../ops/sorting.ts";

/**
 * `a`'s elements shifted by `shift` places along `axis` (NumPy's `roll`), those pushed off one end
 * coming back at the other: along the flattened array when no axis is given, or along each axis of a
 * list by the shift in the same place of a list of shifts (one shift applies to every axis). A new
 * C-contiguous array.
 *
 * @throws {RangeError} when lists of shifts and axes differ in length, or for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.roll(ga.arange(5), 2).get()); // [3, 4, 0, 1, 2]
 * const r = ga.roll(ga.arange(6).reshape(2, 3), [1, -1], [0, 1]); // [[4, 5, 3], [1, 2, 0]]
 * ```
 */
export function roll<D extends DType>(
  a: GPUArray<D>,
  shift: number | readonly number[],
  axis?: number | readonly number[],
): GPUArray<D> {
  checkArray(a, "roll");
  const shifts = typeof shift === "number" ? [shift] : [...shift];
  if (shifts.some((s) => !Number.isInteger(s))) {
    throw new TypeError(`Cannot roll by ${String(shift)}: give an integer or a list of integers`);
  }
  if (axis === undefined) {
    if (shifts.length !== 1) {
      throw new RangeError(`Cannot roll the flattened array by ${shifts.length} shifts: give one`);
    }
    using flat = ravel(a);
    using rolled = roll(flat, shifts[0]!, 0);
    return reshape(rolled, a.shape).copy();
  }
  const axes = typeof axis === "number" ? [axis] : [...axis];
  if (shifts.length !== axes.length && shifts.length !== 1 && axes.length !== 1) {
    throw new RangeError(
      `Cannot roll by ${shifts.length} shifts along ${axes.length} axes: give one shift, or one per axis`,
    );
  }
  const by = new Map<number, number>();
  const count = Math.max(shifts.length, axes.length);
  for (let i = 0; i < count; i++) {
    const ax = normalizeAxis(axes[axes.length === 1 ? 0 : i]!, a.ndim, "roll");
    by.set(ax, (by.get(ax) ?? 0) + shifts[shifts.length === 1 ? 0 : i]!);
  }
  const moves = [...by].map(([ax, s]) => {
    const n = a.shape[ax]!;
    return { ax, s: n === 0 ? 0 : ((s % n) + n) % n, n };
  }).filter((m) => m.s !== 0);
  const out = new GPUArray(a.backend, a.shape, a.dtype);
  for (let piece = 0; piece < 2 ** moves.length; piece++) {
    const src: SliceSpec[] = a.shape.map(() => []), dst: SliceSpec[] = a.shape.map(() => []);
    moves.forEach(({ ax, s, n }, k) => {
      const wrapped = (piece >> k) & 1;
      src[ax] = wrapped ? [n - s, n] : [0, n - s];
      dst[ax] = wrapped ? [0, s] : [s, n];
    });
    using from = slice(a, ...src), to = slice(out, ...dst);
    assign(to, from);
  }
  return out;
}

/**
 * `m` rotated by 90° `k` times in the plane of two axes (NumPy's `rot90`), from the first axis towards
 * the second: a view.
 *
 * @throws {RangeError} for axes that are not two distinct axes of `m`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.asarray([[1, 2], [3, 4]]);
 * console.log(ga.rot90(m).get()); // Float32Array [2, 4, 1, 3]
 * const back = ga.rot90(m, -1, [0, 1]);
 * ```
 */
export function rot90<D extends DType>(
  m: GPUArray<D>,
  k = 1,
  axes: readonly [number, number] = [0, 1],
): GPUArray<D> {
  checkArray(m, "rot90");
  if (!Number.isInteger(k)) throw new TypeError(`Cannot rot90 ${k} times: give an integer`);
  if (axes.length !== 2) throw new RangeError(`Cannot rot90 in the plane of ${axes.length} axes: give two`);
  const [p, q] = axes.map((x) => normalizeAxis(x, m.ndim, "rot90"));
  if (p === q) {
    throw new RangeError(`Cannot rot90 in the plane of axes ${axes[0]} and ${axes[1]}: they must differ`);
  }
  const turns = ((k % 4) + 4) % 4;
  if (turns === 0) return slice(m);
  if (turns === 2) {
    using once = flip(m, p!);
    return flip(once, q!);
  }
  const order = m.shape.map((_, i) => i);
  [order[p!], order[q!]] = [order[q!]!, order[p!]!];
  if (turns === 1) {
    using flipped = flip(m, q!);
    return transpose(flipped, order);
  }
  using swapped = transpose(m, order);
  return flip(swapped, q!);
}

/**
 * `m` with its columns (axis 1) in reverse order (NumPy's `fliplr`): a view.
 *
 * @throws {RangeError} for fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.fliplr(ga.asarray([[1, 2], [3, 4]])).get()); // Float32Array [2, 1, 4, 3]
 * ```
 */
export function fliplr<D extends DType>(m: GPUArray<D>): GPUArray<D> {
  checkArray(m, "fliplr");
  if (m.ndim < 2) {
    throw new RangeError(
      `Cannot fliplr an array of shape ${showShape(m.shape)}: it needs 2 dimensions or more`,
    );
  }
  return flip(m, 1);
}

/**
 * `m` with its rows (axis 0) in reverse order (NumPy's `flipud`): a view.
 *
 * @throws {RangeError} for a 0-d array.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.flipud(ga.asarray([[1, 2], [3, 4]])).get()); // Float32Array [3, 4, 1, 2]
 * ```
 */
export function flipud<D extends DType>(m: GPUArray<D>): GPUArray<D> {
  checkArray(m, "flipud");
  if (m.ndim < 1) throw new RangeError("Cannot flipud a 0-d array: it needs 1 dimension or more");
  return flip(m, 0);
}

/**
 * Options of {@link cross}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.CrossOptions = { axis: 0 };
 * ```
 */
export interface CrossOptions {
  /** The axis of `a` that holds its vectors (default -1). */
  readonly axisa?: number;
  /** The axis of `b` that holds its vectors (default -1). */
  readonly axisb?: number;
  /** The axis of the result that holds its vectors (default -1). */
  readonly axisc?: number;
  /** One axis for all three (overrides them). */
  readonly axis?: number;
}

/**
 * The cross product of the vectors of `a` and `b` (NumPy's `cross`), broadcast over the other axes:
 * 3-element vectors give 3-element vectors; a 2-element vector counts as one with z = 0, and two
 * 2-element vectors give the z component alone. The dtype is the inputs' common one.
 *
 * @throws {RangeError} for vectors of other lengths than 2 or 3.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.cross(ga.asarray([1, 0, 0]), ga.asarray([0, 1, 0])).get()); // Float32Array [0, 0, 1]
 * const z = ga.cross(ga.asarray([1, 2]), ga.asarray([4, 5])); // -3, a 0-d array
 * ```
 */
export function cross(a: GPUArray, b: GPUArray, options?: CrossOptions): GPUArray {
  checkArray(a, "cross");
  checkArray(b, "cross with");
  checkOptions(options, "cross", "{ axis: 0 }", ["axisa", "axisb", "axisc", "axis"]);
  const axisa = options?.axis ?? options?.axisa ?? -1, axisb = options?.axis ?? options?.axisb ?? -1;
  const axisc = options?.axis ?? options?.axisc ?? -1;
  if (a.ndim === 0 || b.ndim === 0) throw new RangeError("Cannot cross 0-d arrays: give arrays of vectors");
  using u = moveaxis(a, normalizeAxis(axisa, a.ndim, "cross"), -1);
  using v = moveaxis(b, normalizeAxis(axisb, b.ndim, "cross"), -1);
  const [na, nb] = [u.shape[u.ndim - 1]!, v.shape[v.ndim - 1]!];
  if ((na !== 2 && na !== 3) || (nb !== 2 && nb !== 3)) {
    throw new RangeError(
      `Cannot cross vectors of ${na} and ${nb} elements: the vectors (along axisa and axisb) must have 2 or 3`,
    );
  }
  const c = (x: GPUArray, i: number) => slice(x, "...", i);
  using a0 = c(u, 0), a1 = c(u, 1), b0 = c(v, 0), b1 = c(v, 1);
  using a2 = na === 3 ? c(u, 2) : undefined, b2 = nb === 3 ? c(v, 2) : undefined;
  const minus = (p: GPUArray, q: GPUArray, r: GPUArray, s: GPUArray) => {
    using x = mul(p, q), y = mul(r, s);
    return sub(x, y);
  };
  using z = minus(a0, b1, a1, b0);
  if (na === 2 && nb === 2) return z.copy();
  const parts: GPUArray[] = [];
  if (a2 !== undefined && b2 !== undefined) parts.push(minus(a1, b2, a2, b1), minus(a2, b0, a0, b2));
  else if (a2 === undefined) {
    using p = mul(a0, b2!);
    parts.push(mul(a1, b2!), neg(p));
  } else {
    using p = mul(a2, b1);
    parts.push(neg(p), mul(a2, b0));
  }
  using r = stack([...parts, z], -1);
  for (const p of parts) p.free();
  using moved = moveaxis(r, -1, normalizeAxis(axisc, r.ndim, "cross"));
  return moved.copy();
}

/**
 * The Kronecker product of `a` and `b` (NumPy's `kron`): blocks of `b` scaled by each element of `a`,
 * of shape `a.shape * b.shape` (the shorter shape padded with leading 1s).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.kron(ga.asarray([1, 10]), ga.asarray([1, 2, 3])).get()); // [1, 2, 3, 10, 20, 30]
 * const blocks = ga.kron(ga.eye(2), ga.ones([2, 2])); // shape [4, 4]
 * ```
 */
export function kron(a: GPUArray, b: GPUArray): GPUArray {
  checkArray(a, "kron");
  checkArray(b, "kron with");
  if (a.ndim === 0 || b.ndim === 0) return mul(a, b);
  const nd = Math.max(a.ndim, b.ndim);
  const as = [...Array(nd - a.ndim).fill(1), ...a.shape], bs = [...Array(nd - b.ndim).fill(1), ...b.shape];
  using x = reshape(a, as.flatMap((e) => [e, 1])), y = reshape(b, bs.flatMap((e) => [1, e]));
  using product = mul(x, y);
  return reshape(product, as.map((e, k) => e * bs[k]!));
}

/**
 * Options of {@link indices}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.IndicesOptions = { dtype: "int32", sparse: true };
 * ```
 */
export interface IndicesOptions {
  /** The dtype of the indices (default int64). */
  readonly dtype?: DType;
  /** Give one array per axis, of extent 1 along the others, instead of one array of them all. */
  readonly sparse?: boolean;
}

/**
 * The index along each axis of every position of a grid of shape `dimensions` (NumPy's `indices`):
 * an array of shape `[dimensions.length, ...dimensions]` whose `i`-th row holds the index along axis
 * `i`; with `sparse`, one array per axis that broadcasts to the grid.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.indices([2, 3]).get()); // BigInt64Array [0n, 0n, 0n, 1n, 1n, 1n, 0n, 1n, 2n, 0n, 1n, 2n]
 * const [r, c] = ga.indices([2, 3], { sparse: true }); // shapes [2, 1] and [1, 3]
 * ```
 */
export function indices(
  dimensions: readonly number[],
  options?: IndicesOptions & { sparse?: false },
): GPUArray;
/** `indices` with `sparse: true`: one array per axis. */
export function indices(
  dimensions: readonly number[],
  options: IndicesOptions & { sparse: true },
): GPUArray[];
export function indices(dimensions: readonly number[], options?: IndicesOptions): GPUArray | GPUArray[] {
  checkOptions(options, "indices", '{ dtype: "int32" }', ["dtype", "sparse"]);
  if (!Array.isArray(dimensions) || dimensions.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new RangeError(
      `Cannot make indices of dimensions ${String(dimensions)}: give a list of extents (integers, 0 or more)`,
    );
  }
  const dtype = options?.dtype ?? "int64";
  const rows = dimensions.map((n, i) => {
    using r = arange(n, dtype);
    return reshape(r, dimensions.map((_, k) => (k === i ? n : 1)));
  });
  if (options?.sparse === true) return rows;
  const out = new GPUArray(activeBackend(), [dimensions.length, ...dimensions], dtype);
  rows.forEach((r, i) => {
    using row = slice(out, i);
    assign(row, r);
    r.free();
  });
  return out;
}

function triangleIndices(
  n: number,
  k: number,
  m: number | undefined,
  upper: boolean,
): [GPUArray<"int64">, GPUArray<"int64">] {
  const what = upper ? "triuIndices" : "trilIndices";
  if (!Number.isInteger(k)) throw new TypeError(`Cannot ${what} with k ${k}: give an integer`);
  using mask = tri(n, m ?? n, upper ? k - 1 : k, "bool");
  using keep = upper ? mask.logicalNot() : mask.copy();
  const [r, c] = nonzero(keep);
  return [r!, c!];
}

/**
 * The row and column indices of the upper triangle of an `n × m` matrix (NumPy's `triu_indices`): the
 * elements on and above diagonal `k` (0 the main one), in C order, two int64 arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.triuIndices(3);
 * console.log(rows.get(), cols.get()); // [0n, 0n, 0n, 1n, 1n, 2n] [0n, 1n, 2n, 1n, 2n, 2n]
 * ```
 */
export function triuIndices(n: number, k = 0, m?: number): [GPUArray<"int64">, GPUArray<"int64">] {
  return triangleIndices(n, k, m, true);
}

/**
 * The row and column indices of the lower triangle of an `n × m` matrix (NumPy's `tril_indices`): the
 * elements on and below diagonal `k`, in C order, two int64 arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.trilIndices(3, -1); // [1n, 2n, 2n] [0n, 0n, 1n]
 * ```
 */
export function trilIndices(n: number, k = 0, m?: number): [GPUArray<"int64">, GPUArray<"int64">] {
  return triangleIndices(n, k, m, false);
}

function checkKth(a: GPUArray, kth: number | readonly number[], axis: number | null, what: string): void {
  const n = axis === null ? a.size : a.shape[normalizeAxis(axis, a.ndim, what)]!;
  for (const k of typeof kth === "number" ? [kth] : kth) {
    if (!Number.isInteger(k) || k < -n || k >= n) {
      throw new RangeError(
        `Cannot ${what} with kth ${k}: it is out of range for ${n} elements (use ${-n} to ${n - 1})`,
      );
    }
  }
}

/**
 * `a` partitioned along `axis` (default -1; null: flattened) around each index of `kth` (NumPy's
 * `partition`): the element at `kth` is the one a sort would put there, those before it are no
 * larger, those after no smaller. Here the whole row is sorted, which keeps that promise for every
 * `kth` at once. NaN goes last.
 *
 * @throws {RangeError} for a `kth` out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const p = ga.partition(ga.asarray([3, 4, 2, 1]), 2);
 * console.log(p.item(2)); // 3
 * ```
 */
export function partition<D extends DType>(
  a: GPUArray<D>,
  kth: number | readonly number[],
  axis: number | null = -1,
): GPUArray<D> {
  checkArray(a, "partition");
  checkKth(a, kth, axis, "partition");
  return sort(a, axis);
}

/**
 * The indices that partition `a` along `axis` around `kth` (NumPy's `argpartition`), int64: the
 * indices of a stable sort, which keep {@link partition}'s promise for every `kth`.
 *
 * @throws {RangeError} for a `kth` out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i = ga.argpartition(ga.asarray([3, 4, 2, 1]), 1);
 * console.log(i.item(1)); // 2n
 * ```
 */
export function argpartition(
  a: GPUArray,
  kth: number | readonly number[],
  axis: number | null = -1,
): GPUArray<"int64"> {
  checkArray(a, "argpartition");
  checkKth(a, kth, axis, "argpartition");
  return argsort(a, axis) as GPUArray<"int64">;
}
