/**
 * Views: arrays that show another array's elements through a new layout, with no copy (NumPy's
 * `reshape` where strides allow it, `transpose`, `swapaxes`, `moveaxis`, `squeeze`, `expandDims`,
 * `broadcastTo`, `ravel`, `flip`, `diagonal`, and basic slicing), and the copies that go with them.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, viewOf } from "../core/gpuarray.ts";
import {
  broadcastStrides,
  checkShape,
  contiguousStrides,
  diagonalLayout,
  expandDimsLayout,
  flipLayout,
  normalizeAxes,
  normalizeAxis,
  reshapeStrides,
  reshapeTarget,
  type Shape,
  squeezeLayout,
  transposeLayout,
} from "../core/layout.ts";
import { parseSlices, sliceLayout, type SliceSpec } from "../core/slicing.ts";
import { copyOf } from "../exec/loop.ts";
import { record } from "../grad/tape.ts";
import { describe } from "../core/describe.ts";
import { AXES, type AxesOptions, type AxisArg, numberSlot, optionsOf } from "../core/axis_args.ts";

/** `axis` given by position or as `{ axis }`. */
function axisOf(what: string, arg: unknown): AxisArg | undefined {
  return optionsOf<AxesOptions>(what, [arg], [AXES], ["axis"], "{ axis: 0 }").axis;
}

/** Reports a view that keeps every element's position in order (`squeeze`, `expandDims`): its gradient is a reshape. */
function recordView<D extends DType>(what: string, a: GPUArray, view: GPUArray<D>): GPUArray<D> {
  record(what, [a], view, (g, c) => [c.ops.reshape(g, a.shape)]);
  return view;
}

/**
 * Reports a view that reads each element at most once (`slice`, `flip`, `diagonal`): its gradient is
 * the output's placed into zeros where `same` of a new array would read.
 */
function recordEmbedding<D extends DType>(
  what: string,
  a: GPUArray,
  view: GPUArray<D>,
  same: (t: GPUArray) => GPUArray,
): GPUArray<D> {
  record(what, [a], view, (g, c) => [c.ops.embed(g, a.shape, same)]);
  return view;
}

function check(a: unknown, what: string): GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  return a;
}

/**
 * `a` with another shape of the same size (one extent may be `-1`, inferred): a view where the
 * strides allow it, else a copy, as NumPy does.
 *
 * @throws {RangeError} when the sizes differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.reshape(ga.arange(6), [2, -1]); // shape [2, 3]; also ga.reshape(a, 2, -1)
 * ```
 */
export function reshape<D extends DType>(a: GPUArray<D>, ...shape: number[] | [Shape]): GPUArray<D> {
  check(a, "reshape");
  const given: unknown = shape.length === 1 && typeof shape[0] !== "number" ? shape[0] : shape;
  if (!Array.isArray(given) || given.some((d) => typeof d !== "number")) {
    throw new TypeError(
      `Cannot reshape to ${
        describe(given)
      }: give the new shape as a list of integers or as integers one by one`,
    );
  }
  const dims = reshapeTarget(a.shape, given);
  const strides = reshapeStrides(a, dims);
  let view: GPUArray<D>;
  if (strides !== undefined) view = viewOf(a, { shape: dims, strides, offset: a.offset });
  else {
    const flat = copyOf(a);
    view = viewOf(flat, { shape: dims, strides: contiguousStrides(dims), offset: 0 });
    flat.free(); // the view holds the copy's memory
  }
  record("reshape", [a], view, (g, c) => [c.ops.reshape(g, a.shape)]);
  return view;
}

/**
 * A view with the axes permuted (reversed when none are given), as a list or one by one
 * (`transpose(a, [1, 0])` or `transpose(a, 1, 0)`).
 *
 * @throws {RangeError} when `axes` is not a permutation of the axes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.transpose(ga.zeros([2, 3, 4]), [2, 0, 1]); // shape [4, 2, 3]; also ga.transpose(x, 2, 0, 1)
 * ```
 */
export function transpose<D extends DType>(
  a: GPUArray<D>,
  ...order: [] | [readonly number[] | undefined] | number[]
): GPUArray<D> {
  check(a, "transpose");
  const first = order[0];
  const axes = typeof first === "number" ? order as number[] : first;
  if (axes !== undefined && (!Array.isArray(axes) || axes.some((x) => typeof x !== "number"))) {
    throw new TypeError(
      `Cannot transpose with axes ${describe(axes)}: give a permutation of the axes, as a list or one by one`,
    );
  }
  const view = viewOf(a, transposeLayout(a, axes));
  record("transpose", [a], view, (g, c) => {
    const order = axes === undefined
      ? a.shape.map((_, i) => a.ndim - 1 - i)
      : axes.map((x) => normalizeAxis(x, a.ndim, "transpose"));
    const back = new Array<number>(order.length);
    order.forEach((o, i) => back[o] = i);
    return [c.ops.transpose(g, back)];
  });
  return view;
}

/**
 * A view with two axes exchanged.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const s = ga.swapaxes(ga.zeros([2, 3, 4]), 0, 2); // shape [4, 3, 2]
 * ```
 */
export function swapaxes<D extends DType>(a: GPUArray<D>, axis1: number, axis2: number): GPUArray<D> {
  check(a, "swapaxes");
  const order = a.shape.map((_, i) => i);
  const i = normalizeAxis(axis1, a.ndim, "swapaxes"), j = normalizeAxis(axis2, a.ndim, "swapaxes");
  [order[i], order[j]] = [order[j]!, order[i]!];
  return transpose(a, order);
}

/**
 * A view with axes moved to new positions, the others keeping their order.
 *
 * @throws {RangeError} when `source` and `destination` differ in length or repeat an axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.moveaxis(ga.zeros([2, 3, 4]), 0, -1); // shape [3, 4, 2]
 * ```
 */
export function moveaxis<D extends DType>(
  a: GPUArray<D>,
  source: number | readonly number[],
  destination: number | readonly number[],
): GPUArray<D> {
  check(a, "moveaxis");
  for (const [name, axes] of [["source", source], ["destination", destination]] as const) {
    if (typeof axes !== "number" && (!Array.isArray(axes) || axes.some((x) => typeof x !== "number"))) {
      throw new TypeError(`Cannot moveaxis with ${name} ${describe(axes)}: give an axis or a list of axes`);
    }
  }
  const src = (typeof source === "number" ? [source] : [...source]).map((x) =>
    normalizeAxis(x, a.ndim, "moveaxis")
  );
  const dst = (typeof destination === "number" ? [destination] : [...destination]).map((x) =>
    normalizeAxis(x, a.ndim, "moveaxis")
  );
  if (src.length !== dst.length || new Set(src).size !== src.length || new Set(dst).size !== dst.length) {
    throw new RangeError(
      `Cannot moveaxis from [${src.join(", ")}] to [${
        dst.join(", ")
      }]: give as many distinct axes on each side`,
    );
  }
  const rest = a.shape.map((_, i) => i).filter((i) => !src.includes(i));
  const order = new Array<number>(a.ndim);
  dst.forEach((d, k) => order[d] = src[k]!);
  for (let i = 0, r = 0; i < a.ndim; i++) if (order[i] === undefined) order[i] = rest[r++]!;
  return transpose(a, order);
}

/**
 * A view without axes of extent 1 (all of them, or those listed, by position or as `{ axis }`).
 *
 * @throws {RangeError} when a listed axis has another extent, or is out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const s = ga.squeeze(ga.zeros([1, 3, 1])); // shape [3]
 * const t = ga.squeeze(ga.zeros([1, 3, 1]), 0); // shape [3, 1]; also { axis: 0 }, a.squeeze(0)
 * ```
 */
export function squeeze<D extends DType>(a: GPUArray<D>, axis?: AxisArg | AxesOptions): GPUArray<D> {
  check(a, "squeeze");
  axis = axisOf("squeeze", axis);
  const axes = axis === undefined
    ? a.shape.map((d, i) => (d === 1 ? i : -1)).filter((i) => i >= 0)
    : normalizeAxes(axis, a.ndim, "squeeze");
  return recordView("squeeze", a, viewOf(a, squeezeLayout(a, axes)));
}

/**
 * A view with new axes of extent 1 at the given positions of the result.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const column = ga.expandDims(ga.arange(3), 1); // shape [3, 1]; also { axis: 1 }, a.expandDims(1)
 * const both = ga.expandDims(ga.arange(3), [0, 2]); // shape [1, 3, 1]
 * ```
 */
export function expandDims<D extends DType>(a: GPUArray<D>, axis: AxisArg | AxesOptions): GPUArray<D> {
  check(a, "expandDims");
  axis = axisOf("expandDims", axis)!;
  if (typeof axis !== "number" && !Array.isArray(axis)) {
    throw new TypeError(
      `Cannot expandDims with axis ${describe(axis)}: give the new axis (a number) or a list of them`,
    );
  }
  return recordView(
    "expandDims",
    a,
    viewOf(a, expandDimsLayout(a, typeof axis === "number" ? [axis] : axis)),
  );
}

/**
 * A view of `a` broadcast to `shape` (its elements repeat; write into a copy of it, not the view).
 *
 * @throws {RangeError} when `a` does not broadcast to `shape`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rows = ga.broadcastTo(ga.arange(3), [4, 3]);
 * ```
 */
export function broadcastTo<D extends DType>(a: GPUArray<D>, shape: Shape): GPUArray<D> {
  check(a, "broadcastTo");
  const dims = checkShape(shape);
  const view = viewOf(a, {
    shape: dims,
    strides: broadcastStrides(a, dims, "broadcastTo"),
    offset: a.offset,
  });
  record("broadcastTo", [a], view, (g, c) => [c.ops.sumTo(g, a.shape)]);
  return view;
}

/**
 * Throws unless `order` is NumPy's "C" (or not given): arrays here are laid out and walked in C order
 * only, and an order the caller expected would give the elements in another sequence.
 */
export function checkOrder(order: unknown, what: string, fix: string): void {
  if (order === undefined || order === "C") return;
  throw new TypeError(
    `Cannot ${what} in order ${describe(order)}: cudeno works in C order (row-major) only; ${fix}`,
  );
}

/**
 * The elements as one axis, in C order: a view when `a` is contiguous, else a copy.
 *
 * @throws {TypeError} for an `order` other than "C" (for column-major order, ravel the transpose).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const flat = ga.ravel(ga.zeros([2, 3])); // shape [6]
 * ```
 */
export function ravel<D extends DType>(a: GPUArray<D>, order?: "C"): GPUArray<D> {
  checkOrder(order, "ravel", "for column-major order, ravel the transpose: ga.ravel(a.T)");
  return reshape(a, [-1]);
}

/**
 * A view with the order of elements reversed along the listed axes (all of them by default), given
 * by position or as `{ axis }`.
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.flip(ga.arange(4)); // [3, 2, 1, 0]
 * const upsideDown = ga.flip(ga.ones([2, 3]), 0); // also { axis: 0 }, a.flip(0)
 * ```
 */
export function flip<D extends DType>(a: GPUArray<D>, axis?: AxisArg | AxesOptions): GPUArray<D> {
  check(a, "flip");
  const axes = normalizeAxes(axisOf("flip", axis), a.ndim, "flip");
  return recordEmbedding("flip", a, viewOf(a, flipLayout(a, axes)), (t) => viewOf(t, flipLayout(t, axes)));
}

/**
 * Options of {@link diagonal} and `trace`, which NumPy also takes by position: `diagonal(a, offset,
 * axis1, axis2)`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.DiagonalOptions = { offset: 1, axis1: 1, axis2: 2 };
 * const d = ga.diagonal(ga.ones([2, 3, 3]), options); // shape [2, 2]
 * ```
 */
export interface DiagonalOptions {
  /** Which diagonal: 0 the main one, above it positive, below negative. Default 0. */
  readonly offset?: number;
  /** The first axis of the 2-D planes. Default 0. */
  readonly axis1?: number;
  /** The second axis of the 2-D planes. Default 1. */
  readonly axis2?: number;
}

/**
 * A view of a diagonal: the two axes go, and the diagonal becomes the last axis (NumPy's `diagonal`):
 * `offset`, `axis1` and `axis2` by position, as NumPy's, or in the options.
 *
 * @throws {RangeError} for an array of fewer than 2 dimensions, or axes out of range or equal.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d = ga.diagonal(ga.eye(3)); // [1, 1, 1]
 * const above = ga.diagonal(ga.eye(3), 1); // [0, 0]; also { offset: 1 }
 * const planes = ga.diagonal(ga.ones([3, 2, 3]), 0, 0, 2); // shape [2, 3]
 * ```
 */
export function diagonal<D extends DType>(a: GPUArray<D>, options?: DiagonalOptions): GPUArray<D>;
/** `diagonal(a, offset, axis1, axis2)`, NumPy's positions (options may follow the last one given). */
export function diagonal<D extends DType>(
  a: GPUArray<D>,
  offset: number,
  axis1?: number | Omit<DiagonalOptions, "offset">,
  axis2?: number | Omit<DiagonalOptions, "offset" | "axis1">,
): GPUArray<D>;
export function diagonal<D extends DType>(a: GPUArray<D>, ...args: unknown[]): GPUArray<D> {
  check(a, "take a diagonal of");
  const options = diagonalOptions("take a diagonal", args);
  if (a.ndim < 2) {
    throw new RangeError(`Cannot take a diagonal of an array of ${a.ndim} dimension(s): it needs at least 2`);
  }
  const layout = (t: GPUArray) =>
    diagonalLayout(t, options.offset ?? 0, options.axis1 ?? 0, options.axis2 ?? 1);
  return recordEmbedding("diagonal", a, viewOf(a, layout(a)), (t) => viewOf(t, layout(t)));
}

/** The positions NumPy gives `diagonal` and `trace` after the array. */
const DIAGONAL_SLOTS = [numberSlot("offset"), numberSlot("axis1"), numberSlot("axis2")];

/** The options of `diagonal` or `trace` (`what`) from their arguments after the array. */
export function diagonalOptions(what: string, args: readonly unknown[]): DiagonalOptions {
  return optionsOf(what, args, DIAGONAL_SLOTS, ["offset", "axis1", "axis2"], "{ offset: 1 }");
}

/**
 * A view of the elements basic indexing selects: NumPy's `a[1:3, ::2, None, ..., -1]` is
 * `slice(a, [1, 3], [null, null, 2], null, "...", -1)` or `slice(a, "1:3, ::2, None, ..., -1")`.
 *
 * @throws {RangeError} for an index out of range or a zero step.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.arange(12).reshape(3, 4);
 * const evenColumns = ga.slice(x, [], [null, null, 2]); // x[:, ::2]
 * const same = ga.slice(x, ":, ::2");
 * const column = ga.slice(x, [], 1, null); // x[:, 1, None], shape [3, 1]
 * ```
 */
export function slice<D extends DType>(a: GPUArray<D>, ...specs: (SliceSpec | string)[]): GPUArray<D> {
  check(a, "slice");
  const list = specs.length === 1 && typeof specs[0] === "string" && specs[0] !== "..."
    ? parseSlices(specs[0])
    : (specs as SliceSpec[]);
  return recordEmbedding("slice", a, viewOf(a, sliceLayout(a, list)), (t) => viewOf(t, sliceLayout(t, list)));
}

/**
 * A C-contiguous copy of `a` (its own memory).
 *
 * @throws {TypeError} for an `order` other than "C".
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.copy(ga.zeros([2, 3]).T);
 * ```
 */
export function copy<D extends DType>(a: GPUArray<D>, order?: "C"): GPUArray<D> {
  check(a, "copy");
  checkOrder(order, "copy", "for the values in column-major memory, copy the transpose: a.T.copy().T");
  const out = copyOf(a);
  record("copy", [a], out, (g) => [g]);
  return out;
}

/**
 * `a` itself when it is C-contiguous, else a contiguous copy (NumPy's `ascontiguousarray`; a 0-d
 * array becomes 1-D, as there).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.ascontiguousarray(ga.zeros([2, 3]).T); // a copy in C order
 * ```
 */
export function ascontiguousarray<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  check(a, "ascontiguousarray");
  if (a.ndim === 0) return reshape(a, [1]);
  if (a.isContiguous) return a;
  const out = copyOf(a);
  record("ascontiguousarray", [a], out, (g) => [g]);
  return out;
}
