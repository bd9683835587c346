/**
 * The layout model every array shares: an array is elements of a buffer found through a shape,
 * strides (in elements; zero for a broadcast axis, negative for a flipped one) and an offset. Every
 * view (reshape, transpose, slice, broadcast, flip, squeeze, diagonal) is a new layout over the same
 * buffer, computed here with no device work; the kernel generator reads layouts to index memory.
 * Pure functions, testable without a GPU.
 *
 * @module
 */

import { describe } from "./describe.ts";

/** A shape: a number for 1-D, or the extent of each dimension. */
export type Shape = number | readonly number[];

/** Where an array's elements are in its buffer. */
export interface Layout {
  /** The extent of each dimension. */
  readonly shape: readonly number[];
  /** How many elements apart neighbours along each dimension are. */
  readonly strides: readonly number[];
  /** The element where index (0, 0, …) is. */
  readonly offset: number;
}

/** `[3, 4]` as the text `[3, 4]`. */
export function showShape(shape: readonly number[]): string {
  return `[${shape.join(", ")}]`;
}

/**
 * Normalises and checks a shape.
 *
 * @throws {RangeError} when an extent is not a non-negative integer.
 */
export function checkShape(shape: Shape): number[] {
  const dims = typeof shape === "number" ? [shape] : Array.isArray(shape) ? [...shape] : undefined;
  if (dims === undefined || dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new RangeError(`Cannot use shape ${describe(shape)}: every extent must be a non-negative integer`);
  }
  return dims;
}

/** The number of elements of a shape. */
export function sizeOf(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** C-order (row-major) strides of a shape. */
export function contiguousStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= Math.max(shape[i]!, 1);
  }
  return strides;
}

/** Whether the elements lie in C order with no gaps (axes of extent 1 may have any stride). */
export function isContiguous(shape: readonly number[], strides: readonly number[]): boolean {
  let expected = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const d = shape[i]!;
    if (d === 0) return true;
    if (d !== 1 && strides[i] !== expected) return false;
    expected *= d;
  }
  return true;
}

/**
 * An axis as a non-negative index (`-1` is the last).
 *
 * @throws {RangeError} naming the axis and the rank when it is out of range.
 */
export function normalizeAxis(axis: number, ndim: number, what: string): number {
  if (typeof axis !== "number") {
    throw new TypeError(`Cannot ${what}: axis ${describe(axis)} is not an integer`);
  }
  if (!Number.isInteger(axis) || axis < -ndim || axis >= ndim) {
    throw new RangeError(
      `Cannot ${what}: axis ${axis} is out of range for an array of ${ndim} dimension${
        ndim === 1 ? "" : "s"
      }${ndim === 0 ? "" : ` (use -${ndim} to ${ndim - 1})`}`,
    );
  }
  return axis < 0 ? axis + ndim : axis;
}

/**
 * Axes as sorted non-negative indices: all of them for `undefined`.
 *
 * @throws {RangeError} for an axis out of range or given twice.
 */
export function normalizeAxes(
  axis: number | readonly number[] | undefined,
  ndim: number,
  what: string,
): number[] {
  if (axis === undefined) return Array.from({ length: ndim }, (_, i) => i);
  if (typeof axis !== "number" && !Array.isArray(axis)) {
    throw new TypeError(`Cannot ${what}: axis ${describe(axis)} is neither an integer nor a list of them`);
  }
  const list = typeof axis === "number" ? [axis] : [...axis];
  const axes = list.map((a) => normalizeAxis(a, ndim, what));
  if (new Set(axes).size !== axes.length) {
    throw new RangeError(`Cannot ${what}: axis [${list.join(", ")}] names an axis twice`);
  }
  return axes.sort((a, b) => a - b);
}

/**
 * The shape arrays of these shapes broadcast to (NumPy's rules: aligned on the right, an extent of 1
 * stretches).
 *
 * @throws {RangeError} naming both shapes and the axis where they differ.
 */
export function broadcastShapes(shapes: readonly (readonly number[])[], what: string): number[] {
  const ndim = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(ndim).fill(1);
  const from = new Array<readonly number[] | undefined>(ndim);
  for (const shape of shapes) {
    for (let i = 0; i < shape.length; i++) {
      const axis = ndim - shape.length + i, d = shape[i]!;
      if (d === 1) continue;
      if (out[axis] === 1) {
        out[axis] = d;
        from[axis] = shape;
      } else if (out[axis] !== d) {
        throw new RangeError(
          `Cannot ${what} arrays of shapes ${showShape(from[axis]!)} and ${
            showShape(shape)
          }: they differ at axis ${axis} (${out[axis]} and ${d}) and neither is 1, so they do not broadcast`,
        );
      }
    }
  }
  return out;
}

/**
 * The strides that view `layout` as `shape` by broadcasting (0 along stretched axes).
 *
 * @throws {RangeError} when it cannot be broadcast to `shape`.
 */
export function broadcastStrides(layout: Layout, shape: readonly number[], what: string): number[] {
  const { shape: from, strides } = layout;
  const lead = shape.length - from.length;
  if (lead < 0) {
    throw new RangeError(
      `Cannot ${what}: an array of shape ${showShape(from)} cannot broadcast to ${
        showShape(shape)
      }, which has fewer dimensions`,
    );
  }
  return shape.map((d, axis) => {
    if (axis < lead) return 0;
    const e = from[axis - lead]!;
    if (e === d) return strides[axis - lead]!;
    if (e === 1) return 0;
    throw new RangeError(
      `Cannot ${what}: an array of shape ${showShape(from)} cannot broadcast to ${
        showShape(shape)
      } (axis ${axis}: ${e} against ${d})`,
    );
  });
}

/**
 * The layout with its axes in the order `axes` (NumPy's `transpose`; none given reverses them).
 *
 * @throws {RangeError} when `axes` is not a permutation of the axes.
 */
export function transposeLayout(layout: Layout, axes: readonly number[] | undefined): Layout {
  const ndim = layout.shape.length;
  const order = axes === undefined || axes.length === 0
    ? Array.from({ length: ndim }, (_, i) => ndim - 1 - i)
    : axes.map((a) => normalizeAxis(a, ndim, "transpose"));
  if (order.length !== ndim || new Set(order).size !== ndim) {
    throw new RangeError(
      `Cannot transpose an array of shape ${showShape(layout.shape)} with axes [${
        axes!.join(", ")
      }]: give each of its ${ndim} axes once`,
    );
  }
  return {
    shape: order.map((a) => layout.shape[a]!),
    strides: order.map((a) => layout.strides[a]!),
    offset: layout.offset,
  };
}

/**
 * Strides that show the elements of `layout` in C order as `shape` without moving them, or
 * undefined where no strides can (NumPy's `_attempt_nocopy_reshape`).
 */
export function reshapeStrides(layout: Layout, shape: readonly number[]): number[] | undefined {
  const oldShape: number[] = [], oldStrides: number[] = [];
  layout.shape.forEach((d, i) => {
    if (d !== 1) {
      oldShape.push(d);
      oldStrides.push(layout.strides[i]!);
    }
  });
  if (sizeOf(shape) === 0 || sizeOf(layout.shape) === 0) return contiguousStrides(shape);
  const out = new Array<number>(shape.length).fill(0);
  let oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < shape.length && oi < oldShape.length) {
    let np = shape[ni]!, op = oldShape[oi]!;
    while (np !== op) {
      if (np < op) np *= shape[nj++]!;
      else op *= oldShape[oj++]!;
    }
    for (let k = oi; k < oj - 1; k++) {
      if (oldStrides[k] !== oldShape[k + 1]! * oldStrides[k + 1]!) return undefined;
    }
    out[nj - 1] = oldStrides[oj - 1]!;
    for (let k = nj - 1; k > ni; k--) out[k - 1] = out[k]! * shape[k]!;
    ni = nj++;
    oi = oj++;
  }
  // Trailing extents of 1 take the stride a C-order array would give them.
  for (let k = ni; k < shape.length; k++) out[k] = k > 0 ? out[k - 1]! : 1;
  return out;
}

/**
 * The shape asked of `reshape`, with one `-1` inferred.
 *
 * @throws {RangeError} when the sizes differ or the shape is malformed.
 */
export function reshapeTarget(from: readonly number[], shape: readonly number[]): number[] {
  const size = sizeOf(from);
  const dims = [...shape];
  if (dims.some((d) => !Number.isSafeInteger(d) || d < -1)) {
    throw new RangeError(
      `Cannot reshape to ${
        showShape(shape)
      }: every extent must be a non-negative integer (or one -1, inferred)`,
    );
  }
  const unknown = dims.indexOf(-1);
  if (unknown >= 0 && dims.indexOf(-1, unknown + 1) >= 0) {
    throw new RangeError(`Cannot reshape to ${showShape(shape)}: only one extent can be -1`);
  }
  if (unknown >= 0) {
    const known = sizeOf(dims.filter((_, i) => i !== unknown));
    dims[unknown] = known === 0 ? 0 : size / known;
  }
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0) || sizeOf(dims) !== size) {
    throw new RangeError(
      `Cannot reshape an array of shape ${showShape(from)} to ${
        showShape(shape)
      }: the sizes differ (${size} elements)`,
    );
  }
  return dims;
}

/** The layout with the listed axes reversed (NumPy's `flip`). */
export function flipLayout(layout: Layout, axes: readonly number[]): Layout {
  let offset = layout.offset;
  const strides = [...layout.strides];
  for (const a of axes) {
    if (layout.shape[a]! > 0) offset += (layout.shape[a]! - 1) * strides[a]!;
    strides[a] = -strides[a]!;
  }
  return { shape: layout.shape, strides, offset };
}

/** The layout without the listed axes, which must have extent 1. */
export function squeezeLayout(layout: Layout, axes: readonly number[]): Layout {
  for (const a of axes) {
    if (layout.shape[a] !== 1) {
      throw new RangeError(
        `Cannot squeeze axis ${a} of an array of shape ${showShape(layout.shape)}: its extent is ${
          layout.shape[a]
        }, not 1`,
      );
    }
  }
  const keep = (_: number, i: number) => !axes.includes(i);
  return { shape: layout.shape.filter(keep), strides: layout.strides.filter(keep), offset: layout.offset };
}

/** The layout with new axes of extent 1 at the listed positions of the result. */
export function expandDimsLayout(layout: Layout, axes: readonly number[]): Layout {
  const ndim = layout.shape.length + axes.length;
  const at = normalizeAxes(axes, ndim, "expandDims");
  const shape: number[] = [], strides: number[] = [];
  let k = 0;
  for (let i = 0; i < ndim; i++) {
    if (at.includes(i)) {
      shape.push(1);
      strides.push(0);
    } else {
      shape.push(layout.shape[k]!);
      strides.push(layout.strides[k++]!);
    }
  }
  return { shape, strides, offset: layout.offset };
}

/** The layout of the diagonal `offset` of axes `axis1` and `axis2`, as a last axis (NumPy's `diagonal`). */
export function diagonalLayout(layout: Layout, offset: number, axis1: number, axis2: number): Layout {
  const ndim = layout.shape.length;
  const a1 = normalizeAxis(axis1, ndim, "take a diagonal"),
    a2 = normalizeAxis(axis2, ndim, "take a diagonal");
  if (a1 === a2) throw new RangeError(`Cannot take a diagonal: axis1 and axis2 are both ${a1}`);
  if (!Number.isInteger(offset)) {
    throw new RangeError(`Cannot take a diagonal at offset ${offset}: use an integer`);
  }
  const n1 = layout.shape[a1]!, n2 = layout.shape[a2]!;
  const length = Math.max(0, offset >= 0 ? Math.min(n1, n2 - offset) : Math.min(n1 + offset, n2));
  let start = layout.offset;
  if (length > 0) start += offset >= 0 ? offset * layout.strides[a2]! : -offset * layout.strides[a1]!;
  const keep = (_: number, i: number) => i !== a1 && i !== a2;
  return {
    shape: [...layout.shape.filter(keep), length],
    strides: [...layout.strides.filter(keep), layout.strides[a1]! + layout.strides[a2]!],
    offset: start,
  };
}

/**
 * The smallest and largest element offsets, relative to the layout's offset, that an array reaches
 * ([0, 0] when it has no elements).
 */
export function extent(shape: readonly number[], strides: readonly number[]): [number, number] {
  let lo = 0, hi = 0;
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 0) return [0, 0];
    const reach = (shape[i]! - 1) * strides[i]!;
    if (reach < 0) lo += reach;
    else hi += reach;
  }
  return [lo, hi];
}

/**
 * Merges the dimensions of several operands seen over one shape into as few as possible, as PyTorch's
 * TensorIterator does: axes of extent 1 go, and neighbouring axes merge where every operand steps
 * over them as over one. Axes are first ordered by operand `lead`'s strides (largest outside; the
 * output, so that it is written in memory order even through a transposed view). The result is in C
 * order (last axis innermost) and has at least one axis.
 */
export function coalesce(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
  lead = 0,
): { shape: number[]; strides: number[][] } {
  const first = strides[lead]!;
  // The axes of extent other than 1, outermost first: by the lead operand's |stride|, larger first,
  // in their own order where equal (an insertion sort: ranks are small).
  const axes: number[] = [];
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === 1) continue;
    let j = axes.length;
    axes.push(i);
    while (j > 0 && Math.abs(first[axes[j - 1]!]!) < Math.abs(first[i]!)) {
      axes[j] = axes[j - 1]!;
      j--;
    }
    axes[j] = i;
  }
  const outShape: number[] = [];
  const outStrides: number[][] = [];
  for (let k = 0; k < strides.length; k++) outStrides.push([]);
  for (const a of axes) {
    const last = outShape.length - 1;
    const d = shape[a]!;
    let merge = last >= 0;
    for (let k = 0; merge && k < strides.length; k++) merge = outStrides[k]![last] === strides[k]![a]! * d;
    if (merge) outShape[last]! *= d;
    else outShape.push(d);
    for (let k = 0; k < strides.length; k++) {
      outStrides[k]![merge ? last : outShape.length - 1] = strides[k]![a]!;
    }
  }
  if (outShape.length === 0) return { shape: [sizeOf(shape)], strides: strides.map(() => [1]) };
  return { shape: outShape, strides: outStrides };
}
