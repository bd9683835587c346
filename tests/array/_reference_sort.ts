/**
 * The host reference's sorting and searching: stable `sort`/`argsort` along an axis (NaN last, -0.0
 * and +0.0 equal so they keep their order), `unique` (NaNs collapse into one, as NumPy 2), `searchsorted`
 * and `topk` (sorted by value, ties by index; NaN counts as the largest value, as in `sort`).
 */

import { fromFn, fromValues, lanes, type Ref } from "./_reference.ts";
import type { Value } from "./_reference_dtype.ts";
import { axisOf } from "./_reference_shape.ts";

/** NumPy's sort order: numbers ascending, NaN after everything, -0 equal to +0. */
export function compare(x: Value, y: Value): number {
  const nx = typeof x === "number" && Number.isNaN(x), ny = typeof y === "number" && Number.isNaN(y);
  if (nx || ny) return nx && ny ? 0 : nx ? 1 : -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The stable order of a lane (NaN last; `largest`: descending, ties still by position). */
function order(lane: readonly Value[], largest = false): number[] {
  return [...lane.keys()].sort((p, q) => (largest ? -1 : 1) * compare(lane[p]!, lane[q]!) || p - q);
}

/** The array sorting runs along, and the axis: null sorts the flattened array. */
function along(a: Ref, axis: number | null): [Ref, number] {
  if (axis === null) return [a.ravel(), 0];
  if (a.ndim === 0) throw new RangeError("Cannot sort a 0-d array along an axis");
  return [a, axis];
}

/** A sorted copy along `axis` (null: of the flattened array). */
export function sort(a: Ref, options: { axis?: number | null } = {}): Ref {
  const [src, axis] = along(a, options.axis === undefined ? -1 : options.axis);
  return lanes(src, axis, a.dtype, (lane) => order(lane).map((k) => lane[k]!));
}

/** The int64 indices that sort `a` along `axis`, stably. */
export function argsort(a: Ref, options: { axis?: number | null } = {}): Ref {
  const [src, axis] = along(a, options.axis === undefined ? -1 : options.axis);
  return lanes(src, axis, "int64", (lane) => order(lane));
}

/**
 * The sorted distinct values of the flattened array; with options (array-api.md), a record of them and,
 * as asked, their counts and where each element went.
 */
export function unique(
  a: Ref,
  options?: { returnCounts?: boolean; returnInverse?: boolean },
): Ref | { values: Ref; counts?: Ref; inverse?: Ref } {
  const flat = a.values();
  const order = [...flat.keys()].sort((p, q) => compare(flat[p]!, flat[q]!) || p - q);
  const values: Value[] = [], counts: number[] = [], inverse = new Array<number>(flat.length);
  for (const k of order) {
    if (values.length === 0 || compare(values.at(-1)!, flat[k]!) !== 0) {
      values.push(flat[k]!);
      counts.push(0);
    }
    counts[counts.length - 1]!++;
    inverse[k] = values.length - 1;
  }
  const v = fromValues(a.dtype, [values.length], values);
  if (options === undefined) return v;
  return {
    values: v,
    ...(options.returnCounts ? { counts: fromValues("int64", [counts.length], counts) } : {}),
    ...(options.returnInverse ? { inverse: fromValues("int64", a.shape, inverse) } : {}),
  };
}

/** Where `values` would be inserted into the sorted 1-D `sorted` (left: before equal elements). */
export function searchsorted(sorted: Ref, values: Ref, options: { side?: "left" | "right" } = {}): Ref {
  if (sorted.ndim !== 1) throw new RangeError("Cannot searchsorted in an array that is not 1-D");
  const s = sorted.values(), right = options.side === "right";
  return fromFn("int64", values.shape, (i) => {
    const v = values.get(i);
    let lo = 0, hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1, c = compare(s[mid]!, v);
      if (c < 0 || (right && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
}

/** The `k` largest (or smallest) elements along `axis`, sorted by value then index, and their int64 indices. */
export function topk(
  a: Ref,
  k: number,
  options: { axis?: number; largest?: boolean } = {},
): { values: Ref; indices: Ref } {
  const { axis = -1, largest = true } = options;
  const [src, ax] = along(a, axis);
  const n = src.shape[axisOf(ax, src.ndim, "topk")]!;
  if (!Number.isInteger(k) || k < 0 || k > n) {
    throw new RangeError(`Cannot take the top ${k} of an axis of ${n}`);
  }
  return {
    values: lanes(src, ax, a.dtype, (lane) => order(lane, largest).slice(0, k).map((j) => lane[j]!), k),
    indices: lanes(src, ax, "int64", (lane) => order(lane, largest).slice(0, k), k),
  };
}
