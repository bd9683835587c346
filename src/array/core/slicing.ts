/**
 * Basic slicing, NumPy's `a[1:3, ::2, None, ..., -1]`, as a change of layout: `a.slice([1, 3],
 * [null, null, 2], null, "...", -1)` or the same as text, `a.slice("1:3, ::2, None, ..., -1")`.
 *
 * @module
 */

import { type Layout, showShape } from "./layout.ts";

/**
 * What one slice position selects: a number picks one index and drops the axis (negative counts from
 * the end); `[start, stop, step]` is a range (each part `null` or left out for its default, negatives
 * from the end, as Python's slices); `null` inserts a new axis of extent 1; `"..."` stands for as many
 * full ranges as the other positions leave.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.arange(24).reshape(2, 3, 4);
 * const specs: ga.SliceSpec[] = [0, [null, null, -1], null, [1, 3]];
 * console.log(a.slice(...specs).shape); // [3, 1, 2]
 * ```
 */
export type SliceSpec =
  | number
  | readonly [start?: number | null, stop?: number | null, step?: number | null]
  | null
  | "...";

function parsePart(part: string, text: string): SliceSpec {
  const p = part.trim();
  if (p === "...") return "...";
  if (p === "None" || p === "newaxis") return null;
  const bound = (s: string | undefined): number | null => {
    if (s === undefined || s.trim() === "") return null;
    const n = Number(s.trim());
    if (!Number.isInteger(n)) {
      throw new SyntaxError(`Cannot parse slice "${text}": "${s.trim()}" is not an integer`);
    }
    return n;
  };
  const pieces = p.split(":");
  if (pieces.length === 1) {
    const n = bound(pieces[0]);
    if (n === null) throw new SyntaxError(`Cannot parse slice "${text}": a position is empty`);
    return n;
  }
  if (pieces.length > 3) {
    throw new SyntaxError(`Cannot parse slice "${text}": "${p}" has more than two colons`);
  }
  return [bound(pieces[0]), bound(pieces[1]), bound(pieces[2])];
}

/**
 * Reads NumPy's slice text: `"1:3, ::2, None, ..., -1"`.
 *
 * @throws {SyntaxError} naming the part that is not a slice.
 */
export function parseSlices(text: string): SliceSpec[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part) => parsePart(part, text));
}

/** Python's `slice.indices()`: the first index, the step and the count of a range over `n`. */
function rangeOf(
  spec: readonly (number | null | undefined)[],
  n: number,
  axis: number,
): [number, number, number] {
  const [s, e, st] = spec;
  const step = st ?? 1;
  if (!Number.isInteger(step) || step === 0) {
    throw new RangeError(`Cannot slice axis ${axis} with step ${step}: the step must be a non-zero integer`);
  }
  for (const v of [s, e]) {
    if (v !== null && v !== undefined && !Number.isInteger(v)) {
      throw new RangeError(`Cannot slice axis ${axis} at ${v}: slice bounds must be integers or null`);
    }
  }
  const clamp = (v: number | null | undefined, dflt: number, lo: number, hi: number): number => {
    if (v === null || v === undefined) return dflt;
    const x = v < 0 ? v + n : v;
    return Math.min(Math.max(x, lo), hi);
  };
  if (step > 0) {
    const start = clamp(s, 0, 0, n), stop = clamp(e, n, 0, n);
    return [start, step, stop > start ? Math.ceil((stop - start) / step) : 0];
  }
  const start = clamp(s, n - 1, -1, n - 1), stop = clamp(e, -1, -1, n - 1);
  return [start, step, start > stop ? Math.ceil((start - stop) / -step) : 0];
}

/**
 * The layout `specs` select from `layout`.
 *
 * @throws {RangeError} for an index out of range, a zero step, or more positions than axes.
 * @throws {TypeError} for a position that is not a {@link SliceSpec}.
 */
export function sliceLayout(layout: Layout, specs: readonly SliceSpec[]): Layout {
  const ndim = layout.shape.length;
  const ellipses = specs.filter((s) => s === "...").length;
  if (ellipses > 1) throw new RangeError('Cannot slice with more than one "..."');
  const consuming = specs.filter((s) => s !== null && s !== "...").length;
  if (consuming > ndim) {
    throw new RangeError(
      `Cannot slice an array of shape ${
        showShape(layout.shape)
      } with ${consuming} positions: it has ${ndim} axes`,
    );
  }
  const full: SliceSpec[] = [];
  for (const s of specs) {
    if (s === "...") { for (let i = 0; i < ndim - consuming; i++) full.push([]); }
    else full.push(s);
  }
  while (full.filter((s) => s !== null).length < ndim) full.push([]);
  const shape: number[] = [], strides: number[] = [];
  let offset = layout.offset, axis = 0;
  for (const s of full) {
    if (s === null) {
      shape.push(1);
      strides.push(0);
      continue;
    }
    const n = layout.shape[axis]!, stride = layout.strides[axis]!;
    if (typeof s === "number") {
      if (!Number.isInteger(s) || s < -n || s >= n) {
        throw new RangeError(
          `Cannot index axis ${axis} (extent ${n}) of an array of shape ${showShape(layout.shape)} at ${s}: ${
            n === 0 ? "the axis is empty" : `use -${n} to ${n - 1}`
          }`,
        );
      }
      offset += (s < 0 ? s + n : s) * stride;
    } else if (Array.isArray(s)) {
      const [start, step, count] = rangeOf(s, n, axis);
      if (count > 0) offset += start * stride;
      shape.push(count);
      strides.push(stride * step);
    } else {
      throw new TypeError(
        `Cannot slice with ${JSON.stringify(s)}: use a number, [start, stop, step], null or "..."`,
      );
    }
    axis++;
  }
  return { shape, strides, offset };
}
