/**
 * Rearranging and combining arrays, NumPy style: `roll`, `rot90`, `fliplr`, `flipud` (views where
 * NumPy gives views), `cross` and `kron`.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import type { SliceSpec } from "../core/slicing.ts";
import { AXES, type AxesOptions, type AxisArg, numberSlot, optionsOf } from "../core/axis_args.ts";
import { assign } from "../ops/assign.ts";
import { checkArray } from "../ops/sorting.ts";
import { flip, moveaxis, ravel, reshape, slice, transpose } from "../ops/views.ts";
import { mul, neg, sub } from "../api/elementwise.ts";
import { stack } from "./join.ts";

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
  axis?: AxisArg | AxesOptions,
): GPUArray<D> {
  checkArray(a, "roll");
  axis = optionsOf<AxesOptions>("roll", [axis], [AXES], ["axis"], "{ axis: 0 }").axis;
  const shifts = typeof shift === "number" ? [shift] : Array.isArray(shift) ? [...shift] : [NaN];
  if (shifts.some((s) => !Number.isInteger(s))) {
    const shown = typeof shift === "object" && shift !== null && !Array.isArray(shift)
      ? "an object"
      : JSON.stringify(shift) ?? String(shift);
    throw new TypeError(`Cannot roll by ${shown}: give an integer or a list of integers`);
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
 * Options of {@link rot90}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.Rot90Options = { k: 2, axes: [1, 2] };
 * ```
 */
export interface Rot90Options {
  /** How many quarter turns (default 1; negative turns the other way). Also by position. */
  readonly k?: number;
  /** The plane, two distinct axes (default `[0, 1]`): the turn goes from the first towards the second. */
  readonly axes?: readonly [number, number];
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
  k?: number | Rot90Options,
  axes?: readonly [number, number] | Rot90Options,
): GPUArray<D>;
/** `rot90(m, k, axes, {})`: every argument by position. */
export function rot90<D extends DType>(
  m: GPUArray<D>,
  k: number | undefined,
  axes: readonly [number, number] | undefined,
  options?: Rot90Options,
): GPUArray<D>;
export function rot90<D extends DType>(m: GPUArray<D>, ...args: unknown[]): GPUArray<D> {
  checkArray(m, "rot90");
  const o = optionsOf<Rot90Options>(
    "rot90",
    args,
    [numberSlot("k"), { name: "axes", takes: (v) => Array.isArray(v), what: "the axes (a list of two)" }],
    ["k", "axes"],
    "{ k: 2, axes: [1, 2] }",
  );
  const k = o.k ?? 1, axes = o.axes ?? [0, 1];
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
  /** One axis for all three (overrides them). Default: none (`axisa`, `axisb`, `axisc` apply). */
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
export function cross(a: GPUArray, b: GPUArray, options?: CrossOptions): GPUArray;
/** `cross(a, b, axisa, axisb, axisc)`, NumPy's positions, then `{ axis }`. */
export function cross(
  a: GPUArray,
  b: GPUArray,
  axisa: number | undefined,
  axisb?: number | CrossOptions,
  axisc?: number | CrossOptions,
  options?: CrossOptions,
): GPUArray;
export function cross(a: GPUArray, b: GPUArray, ...args: unknown[]): GPUArray {
  checkArray(a, "cross");
  checkArray(b, "cross with");
  const options = optionsOf<CrossOptions>(
    "cross",
    args,
    [numberSlot("axisa"), numberSlot("axisb"), numberSlot("axisc")],
    ["axisa", "axisb", "axisc", "axis"],
    "{ axis: 0 }",
  );
  const axisa = options.axis ?? options.axisa ?? -1, axisb = options.axis ?? options.axisb ?? -1;
  const axisc = options.axis ?? options.axisc ?? -1;
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
