/**
 * Joining and splitting arrays: `concatenate`, `stack`, `split`, `arraySplit`. A join writes each input
 * into its own view of the output, with one device copy (contiguous runs of one dtype) or one loop;
 * a split gives views.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { describe } from "../core/describe.ts";
import { GPUArray, viewOf } from "../core/gpuarray.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import { copyInto } from "../exec/loop.ts";
import { record } from "../grad/tape.ts";
import { resultType } from "../core/dtypes.ts";
import { expandDims, ravel, slice } from "../ops/views.ts";
import { AXIS, AXIS_OR_NULL, optionsOf } from "../core/axis_args.ts";

/**
 * The options of `concatenate`, `stack`, `split` and `arraySplit`: the axis, which may also be given
 * by position (`ga.concatenate([a, b], 1)` is `ga.concatenate([a, b], { axis: 1 })`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.JoinOptions = { axis: 1 };
 * const c = ga.concatenate([ga.ones([2, 1]), ga.zeros([2, 2])], options); // shape [2, 3]
 * ```
 */
export interface JoinOptions {
  /** The axis (negative counts from the end); `concatenate` also takes `null`, the inputs flattened. Default 0. */
  readonly axis?: number | null;
}

/** The axis of a join or split, given by position or as `{ axis }`, else 0. */
function axisArg(what: string, arg: unknown, nullable: boolean): number | null {
  const { axis } = optionsOf<JoinOptions>(
    what,
    [arg],
    [nullable ? AXIS_OR_NULL : AXIS],
    ["axis"],
    "{ axis: 1 }",
  );
  if (axis === null && !nullable) {
    throw new TypeError(`Cannot ${what} with axis null: give an axis (a number)`);
  }
  return axis === undefined ? 0 : axis;
}

/** Checks that `arrays` is a non-empty list of arrays on one backend. */
export function checkList(arrays: readonly GPUArray[], what: string): readonly GPUArray[] {
  if (!Array.isArray(arrays)) {
    throw new TypeError(
      `Cannot ${what} ${
        arrays instanceof GPUArray ? "a GPUArray" : arrays === null ? "null" : typeof arrays
      }: pass a list of arrays, as ga.${what}([a, b])`,
    );
  }
  if (arrays.length === 0) throw new TypeError(`Cannot ${what} an empty list: give at least one array`);
  arrays.forEach((a, i) => {
    if (!(a instanceof GPUArray)) {
      throw new TypeError(`Cannot ${what} item ${i}, ${a === null ? "null" : typeof a}: pass GPUArrays`);
    }
    if (a.backend !== arrays[0]!.backend) {
      throw new TypeError(
        `Cannot ${what} arrays on ${
          arrays[0]!.backend.device
        } and ${a.backend.device}: copy them to one backend first`,
      );
    }
  });
  return arrays;
}

/**
 * The arrays joined along an existing axis (NumPy's `concatenate`): every axis but `axis` must match;
 * the dtype is NumPy's result type of all the inputs. The axis (default 0) is given by position or
 * as `{ axis }`; `null` joins them flattened. Each input, of any layout, is written into its own view
 * of the result, with one device copy or one loop.
 *
 * @throws {RangeError} naming the shapes and the axis when they do not fit together, or for an axis
 * out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.ones([2, 3]), b = ga.zeros([1, 3], "int32");
 * const c = ga.concatenate([a, b]); // shape [3, 3], float64 (NumPy's result type of float32 and int32)
 * const d = ga.concatenate([a, a.slice([], [0, 1])], 1); // shape [2, 4]; also { axis: 1 }
 * ```
 */
export function concatenate(arrays: readonly GPUArray[], axis?: number | null | JoinOptions): GPUArray {
  const list = checkList(arrays, "concatenate");
  axis = axisArg("concatenate", axis, true);
  if (axis === null) return concatenate(list.map((a) => ravel(a)), 0);
  const first = list[0]!;
  if (first.ndim === 0) {
    throw new RangeError("Cannot concatenate 0-d arrays: give them an axis first, or use stack()");
  }
  const ax = normalizeAxis(axis, first.ndim, "concatenate");
  list.forEach((a, i) => {
    const mismatch = (detail: string) =>
      new RangeError(
        `Cannot concatenate arrays of shapes ${showShape(first.shape)} and ${
          showShape(a.shape)
        } (items 0 and ${i}) along axis ${ax}: ${detail}; every axis but the joined one must match`,
      );
    if (a.ndim !== first.ndim) throw mismatch(`they have ${first.ndim} and ${a.ndim} dimensions`);
    const k = a.shape.findIndex((d, j) => j !== ax && d !== first.shape[j]);
    if (k >= 0) throw mismatch(`they differ at axis ${k} (${first.shape[k]} and ${a.shape[k]})`);
  });
  const dtype = list.map((a) => a.dtype).reduce((x, y) => resultType(x, y));
  const shape = [...first.shape];
  shape[ax] = list.reduce((n, a) => n + a.shape[ax]!, 0);
  const out = new GPUArray(first.backend, shape, dtype);
  let start = 0;
  for (const a of list) {
    if (a.size > 0) {
      using part = viewOf(out, { shape: a.shape, strides: out.strides, offset: start * out.strides[ax]! });
      copyInto(part, a, "concatenate");
    }
    start += a.shape[ax]!;
  }
  const bounds = [0];
  for (const a of list) bounds.push(bounds.at(-1)! + a.shape[ax]!);
  record("concatenate", list, out, (g) => pieces(g, ax, bounds.slice(0, -1), bounds.slice(1)));
  return out;
}

/**
 * The arrays, all of one shape, joined along a new axis at position `axis` of the result (NumPy's
 * `stack`), given by position or as `{ axis }` (default 0).
 *
 * @throws {RangeError} when the shapes differ, or for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rows = ga.stack([ga.arange(3), ga.ones(3)]); // shape [2, 3]
 * const columns = ga.stack([ga.arange(3), ga.ones(3)], -1); // shape [3, 2]; also { axis: -1 }
 * ```
 */
export function stack(arrays: readonly GPUArray[], axis?: number | JoinOptions): GPUArray {
  const list = checkList(arrays, "stack");
  const ax0 = axisArg("stack", axis, false) as number;
  const first = list[0]!;
  list.forEach((a, i) => {
    if (a.ndim !== first.ndim || a.shape.some((d, k) => d !== first.shape[k])) {
      throw new RangeError(
        `Cannot stack arrays of shapes ${showShape(first.shape)} and ${
          showShape(a.shape)
        } (items 0 and ${i}): every array must have the same shape`,
      );
    }
  });
  const ax = normalizeAxis(ax0, first.ndim + 1, "stack");
  const views = list.map((a) => expandDims(a, ax));
  try {
    return concatenate(views, ax);
  } finally {
    for (const v of views) v.free();
  }
}

/** The views of `a` between the boundaries `starts[i]`..`ends[i]` along `axis` (Python's slice rules). */
function pieces<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  starts: number[],
  ends: number[],
): GPUArray<D>[] {
  const full = Array.from({ length: axis }, () => [] as const);
  return starts.map((s, i) => slice(a, ...full, [s, ends[i]!]));
}

/**
 * `a` cut along `axis` into views (NumPy's `array_split`): `sections` equal parts as far as they go (the
 * first `n % sections` one longer), or the parts between the listed indices (Python's slice rules:
 * negative from the end, clamped, empty where an index is before the previous one).
 *
 * The axis (default 0) is given by position or as `{ axis }`.
 *
 * @throws {RangeError} for a section count that is not a positive integer, or an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [a, b, c] = ga.arraySplit(ga.arange(7), 3); // lengths 3, 2, 2
 * const [head, middle, tail] = ga.arraySplit(ga.arange(10), [2, 5]); // [0, 2), [2, 5), [5, 10)
 * const [left, right] = ga.arraySplit(ga.ones([2, 5]), 2, { axis: 1 }); // [2, 3] and [2, 2]
 * ```
 */
export function arraySplit<D extends DType>(
  a: GPUArray<D>,
  sections: number | readonly number[],
  axis?: number | JoinOptions,
): GPUArray<D>[] {
  if (!(a instanceof GPUArray)) throw new TypeError("Cannot split a value that is not a GPUArray: pass one");
  const ax = normalizeAxis(axisArg("split", axis, false) as number, a.ndim, "split");
  const n = a.shape[ax]!;
  if (typeof sections === "number") {
    if (!Number.isInteger(sections) || sections <= 0) {
      throw new RangeError(`Cannot split into ${sections} sections: give a positive integer`);
    }
    const each = Math.floor(n / sections), extra = n % sections;
    const bounds = [0];
    for (let i = 0; i < sections; i++) bounds.push(bounds[i]! + each + (i < extra ? 1 : 0));
    return pieces(a, ax, bounds.slice(0, -1), bounds.slice(1));
  }
  if (!Array.isArray(sections)) {
    throw new TypeError(
      `Cannot split into ${
        describe(sections)
      }: give a number of sections or a list of indices, as ga.split(a, 2) or ga.split(a, [1, 3])`,
    );
  }
  const indices = [...sections];
  if (indices.some((i) => !Number.isInteger(i))) {
    throw new TypeError(`Cannot split at ${describe(indices)}: give integer indices`);
  }
  return pieces(a, ax, [0, ...indices], [...indices, n]);
}

/**
 * `a` cut along `axis` into `sections` equal views, or at the listed indices (NumPy's `split`). The
 * axis (default 0) is given by position or as `{ axis }`.
 *
 * @throws {RangeError} when `sections` does not divide the axis, or for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [left, right] = ga.split(ga.zeros([4, 6]), 2, 1); // two [4, 3] views; also { axis: 1 }
 * ```
 */
export function split<D extends DType>(
  a: GPUArray<D>,
  sections: number | readonly number[],
  axis?: number | JoinOptions,
): GPUArray<D>[] {
  if (typeof sections === "number" && a instanceof GPUArray) {
    axis = axisArg("split", axis, false) as number;
    const n = a.shape[normalizeAxis(axis, a.ndim, "split")]!;
    if (Number.isInteger(sections) && sections > 0 && n % sections !== 0) {
      throw new RangeError(
        `Cannot split axis ${axis} of extent ${n} into ${sections} equal sections: ${n} is not a multiple of ${sections}; arraySplit() allows unequal ones`,
      );
    }
  }
  return arraySplit(a, sections, axis);
}
