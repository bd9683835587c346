/**
 * Repeating and padding: `repeat`, `tile`, `resize`, `pad`. `tile` and an even `repeat` are one copy of a view of
 * the input with zero strides into a view of the output that splits each axis in two; a `repeat` by a
 * list of counts gathers along its axis through an index of the output's extent there; `pad` copies the
 * input into the middle of the output and fills the margins, axis by axis, as NumPy does; `resize`
 * takes the flattened input cyclically.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, viewOf } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import { AXIS, type AxisOptions, optionsOf } from "../core/axis_args.ts";
import { copyInto, runLoop } from "../exec/loop.ts";
import { ravel, reshape, slice } from "../ops/views.ts";
import { take } from "../ops/indexing.ts";
import { remainder } from "../api/elementwise.ts";
import { record } from "../grad/tape.ts";
import { elementValue, fill, linearFill } from "../ops/assign.ts";
import { indexType } from "../../codegen/c.ts";
import { scalarValue } from "../ops/ufunc.ts";
import { checkOptions } from "../../kernel/options.ts";

function check(a: unknown, what: string): GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  return a;
}

/** Writes `src` (repeated `count` times along `axis`) into `out`, in one copy of two views. */
function repeatEvenly(src: GPUArray, out: GPUArray, axis: number, count: number): void {
  const split = <T>(
    list: readonly T[],
    pair: [T, T],
  ) => [...list.slice(0, axis), ...pair, ...list.slice(axis + 1)];
  const n = src.shape[axis]!, step = out.strides[axis]!;
  const shape = split(src.shape, [n, count]);
  using to = viewOf(out, { shape, strides: split(out.strides, [count * step, step]), offset: 0 });
  using from = viewOf(src, {
    shape,
    strides: split(src.strides, [src.strides[axis]!, 0]),
    offset: src.offset,
  });
  copyInto(to, from, "repeat");
}

/** Writes element `index[j]` of `src` along `axis` to element j of `out` there, in one loop. */
function gather(src: GPUArray, out: GPUArray, axis: number, index: Int32Array): void {
  const zeros = out.shape.map(() => 0);
  using idx = new GPUArray(src.backend, index.length, "int32");
  src.backend.write(idx.buffer, index, 0);
  // The index steps along the axis only; the source is pinned to its element 0 there, and the loop
  // steps from that element by the index times the source's stride.
  using at = viewOf(idx, { shape: out.shape, strides: zeros.map((_, k) => (k === axis ? 1 : 0)), offset: 0 });
  using from = viewOf(src, {
    shape: out.shape,
    strides: src.strides.map((s, k) => (k === axis ? 0 : s)),
    offset: src.offset,
  });
  const wide = indexType(src.backend.dialect);
  runLoop(
    {
      key: "gather",
      arrays: [from, at, out],
      written: [false, false, true],
      scalars: [{ value: scalarValue(src.strides[axis]!, "int64"), dtype: "int64" }],
      statement: ([x, k, y], [s]) => `${y} = (&${x})[(${wide})${k} * ${s}];`,
    },
    out.shape,
    "repeat",
  );
}

/**
 * Each element repeated (NumPy's `repeat`): `repeats` times along `axis`, or, with a list, element i
 * `repeats[i]` times; with no axis, over the flattened array. The axis is given by position or as
 * `{ axis }`.
 *
 * @throws {RangeError} for a negative count, a list whose length is not the axis's extent, or an axis
 * out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.repeat(ga.arange(3), 2); // [0, 0, 1, 1, 2, 2]
 * const b = ga.repeat(ga.arange(4).reshape(2, 2), [1, 3], 0); // rows 0, 1, 1, 1; also { axis: 0 }
 * ```
 */
export function repeat<D extends DType>(
  a: GPUArray<D>,
  repeats: number | readonly number[],
  axis?: number | AxisOptions,
): GPUArray<D> {
  check(a, "repeat");
  axis = optionsOf<AxisOptions>("repeat", [axis], [AXIS], ["axis"], "{ axis: 0 }").axis;
  const ax = axis === undefined ? 0 : normalizeAxis(axis, a.ndim, "repeat");
  if (typeof repeats !== "number" && !Array.isArray(repeats)) {
    throw new TypeError(
      `Cannot repeat elements ${
        describe(repeats)
      } times: give a count or a list of counts, as ga.repeat(a, 2)`,
    );
  }
  const counts = typeof repeats === "number" ? [repeats] : [...repeats];
  const bad = counts.find((c) => !Number.isInteger(c) || c < 0);
  if (bad !== undefined) {
    throw new RangeError(`Cannot repeat elements ${describe(bad)} times: give non-negative integer counts`);
  }
  using src = axis === undefined ? ravel(a) : viewOf(a, a);
  const n = src.shape[ax]!;
  if (counts.length !== 1 && counts.length !== n) {
    throw new RangeError(
      `Cannot repeat along axis ${ax} of extent ${n} (shape ${
        showShape(src.shape)
      }) with ${counts.length} counts: give one count, or one for each of its ${n} elements`,
    );
  }
  const each = counts.length === 1 ? new Array<number>(n).fill(counts[0]!) : counts;
  const shape = [...src.shape];
  shape[ax] = each.reduce((x, y) => x + y, 0);
  const out = new GPUArray(src.backend, shape, src.dtype);
  if (out.size === 0) return out;
  if (each.every((c) => c === each[0])) {
    repeatEvenly(src, out, ax, each[0]!);
    // Each element's gradient: the sum of its copies'.
    record("repeat", [a], out, (g, { ops }) => {
      const split = [...src.shape.slice(0, ax + 1), each[0]!, ...src.shape.slice(ax + 1)];
      return [ops.reshape(ops.sumKeep(ops.reshape(g, split), [ax + 1]), a.shape)];
    });
  } else {
    const index = new Int32Array(shape[ax]!);
    let j = 0;
    each.forEach((c, i) => index.fill(i, j, j += c));
    gather(src, out, ax, index);
  }
  return out;
}

/**
 * `a` repeated `reps` times along each axis (NumPy's `tile`): `reps` and `a.shape` are first padded with
 * leading 1s to the same length.
 *
 * @throws {RangeError} for a negative repetition.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.tile(ga.arange(3), [2, 2]); // shape [2, 6]: [[0, 1, 2, 0, 1, 2], [0, 1, 2, 0, 1, 2]]
 * ```
 */
export function tile<D extends DType>(a: GPUArray<D>, reps: number | readonly number[]): GPUArray<D> {
  check(a, "tile");
  if (typeof reps !== "number" && !Array.isArray(reps)) {
    throw new TypeError(
      `Cannot tile with reps ${describe(reps)}: give a count or a list of counts, as ga.tile(a, [2, 1])`,
    );
  }
  const list = typeof reps === "number" ? [reps] : [...reps];
  if (list.some((r) => !Number.isInteger(r) || r < 0)) {
    throw new RangeError(`Cannot tile with reps ${describe(list)}: give non-negative integers`);
  }
  const ndim = Math.max(list.length, a.ndim);
  const r = [...new Array<number>(ndim - list.length).fill(1), ...list];
  const lead = new Array<number>(ndim - a.ndim).fill(0);
  const extents = [...lead.map(() => 1), ...a.shape], steps = [...lead, ...a.strides];
  const out = new GPUArray(a.backend, extents.map((e, k) => e * r[k]!), a.dtype);
  if (out.size === 0) return out;
  // Axis k of the output as two, [r_k, e_k]: repetition i, element j is at (i e_k + j) steps.
  const pairs = <T>(f: (k: number) => [T, T]) => extents.flatMap((_, k) => f(k));
  const shape = pairs((k) => [r[k]!, extents[k]!]);
  using to = viewOf(out, {
    shape,
    strides: pairs((k) => [extents[k]! * out.strides[k]!, out.strides[k]!]),
    offset: 0,
  });
  using from = viewOf(a, { shape, strides: pairs((k) => [0, steps[k]!]), offset: a.offset });
  copyInto(to, from, "tile");
  record("tile", [a], out, (g, { ops }) => {
    const copies = extents.map((_, k) => 2 * k);
    return [ops.reshape(ops.sumKeep(ops.reshape(g, shape), copies), a.shape)];
  });
  return out;
}

/** A value or values for each side of each axis, as {@link pad} takes them. */
export type PadSpec<T> = T | readonly T[] | readonly (readonly T[])[];

/** Options of {@link pad}. */
export interface PadOptions {
  /** How the margins are filled: `"constant"` (the only mode so far). Default `"constant"`. */
  readonly mode?: "constant";
  /** The margins' values: one, `[before, after]`, or one pair per axis (NumPy's forms). Default 0. */
  readonly constantValues?: PadSpec<number | bigint | boolean>;
}

/** NumPy's `broadcast_to(spec, (ndim, 2))`: a [before, after] pair for each axis. */
function perAxis<T>(spec: PadSpec<T>, ndim: number, shape: readonly number[], what: string): [T, T][] {
  const fail = () =>
    new RangeError(
      `Cannot pad an array of shape ${showShape(shape)} with ${what} ${
        JSON.stringify(spec, (_, v) => (typeof v === "bigint" ? `${v}` : v))
      }: give one value, [before, after], or one [before, after] for each of its ${ndim} axes`,
    );
  if (!Array.isArray(spec)) return Array.from({ length: ndim }, () => [spec as T, spec as T]);
  const rows = spec.every((x) => Array.isArray(x))
    ? (spec as readonly (readonly T[])[])
    : [spec as readonly T[]];
  if (rows.length !== 1 && rows.length !== ndim) throw fail();
  return Array.from({ length: ndim }, (_, k) => {
    const row = rows.length === 1 ? rows[0]! : rows[k]!;
    if (row.length !== 1 && row.length !== 2) throw fail();
    return [row[0]!, row[row.length - 1]!];
  });
}

/**
 * `a` with margins (NumPy's `pad`, mode `"constant"`): `padWidth` elements before and after along each
 * axis, given as one count, `[before, after]`, or one pair per axis, filled with `constantValues`
 * (converted to the dtype; where margins of two axes meet, the later axis's value).
 *
 * @throws {RangeError} for a negative or malformed width, or a value the dtype cannot hold.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const framed = ga.pad(ga.ones([2, 2]), 1); // shape [4, 4], zeros around
 * const left = ga.pad(ga.arange(3), [2, 0], { constantValues: -1 }); // [-1, -1, 0, 1, 2]
 * ```
 */
export function pad<D extends DType>(
  a: GPUArray<D>,
  padWidth: PadSpec<number>,
  options: PadOptions = {},
): GPUArray<D> {
  check(a, "pad");
  checkOptions(options, "pad", "{ constantValues: -1 }", ["mode", "constantValues"]);
  if ((options.mode ?? "constant") !== "constant") {
    throw new RangeError(`Cannot pad with mode "${options.mode}": cudeno pads with mode "constant" only`);
  }
  const widths = perAxis(padWidth, a.ndim, a.shape, "pad width");
  if (widths.flat().some((w) => !Number.isInteger(w) || w < 0)) {
    throw new RangeError(
      `Cannot pad an array of shape ${showShape(a.shape)} by ${
        describe(widths)
      }: widths must be non-negative integers`,
    );
  }
  const values = perAxis(options.constantValues ?? 0, a.ndim, a.shape, "constant values");
  for (const v of values.flat()) elementValue(v, a.dtype, "pad with");
  const shape = a.shape.map((d, k) => d + widths[k]![0] + widths[k]![1]);
  const out = new GPUArray(a.backend, shape, a.dtype);
  if (out.size === 0) return out;
  const { strides } = out;
  if (a.size > 0) {
    const offset = widths.reduce((o, [before], k) => o + before * strides[k]!, 0);
    using middle = viewOf(out, { shape: a.shape, strides, offset });
    copyInto(middle, a, "pad");
  }
  widths.forEach(([before, after], k) => {
    const margin = (extent: number, start: number, value: number | bigint | boolean) => {
      if (extent === 0) return;
      using view = viewOf(out, {
        shape: shape.map((d, j) => (j === k ? extent : d)),
        strides,
        offset: start * strides[k]!,
      });
      fill(view, value);
    };
    margin(before, 0, values[k]![0]);
    margin(after, shape[k]! - after, values[k]![1]);
  });
  record(
    "pad",
    [a],
    out,
    (g) => [slice(g, ...widths.map(([before], k) => [before, before + a.shape[k]!] as const))],
  );
  return out;
}

/**
 * A new array of shape `shape` filled with `a`'s elements in C order, repeated from the start as
 * often as needed (NumPy's `resize`, the function: zeros where `a` is empty).
 *
 * @throws {TypeError} for a shape that is not a list of non-negative integers.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.resize(ga.asarray([1, 2, 3]), [2, 4]); // [[1, 2, 3, 1], [2, 3, 1, 2]]
 * ```
 */
export function resize<D extends DType>(a: GPUArray<D>, shape: number | readonly number[]): GPUArray<D> {
  check(a, "resize");
  const dims = typeof shape === "number" ? [shape] : shape;
  if (!Array.isArray(dims) || dims.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new TypeError(`Cannot resize to ${describe(shape)}: give a list of non-negative integers`);
  }
  const size = dims.reduce((p, d) => p * d, 1);
  if (a.size === 0) return fill(new GPUArray(a.backend, dims, a.dtype), 0);
  using positions = linearFill(new GPUArray(a.backend, [size], "int64"), 0, 1);
  using cyclic = remainder(positions, a.size);
  using flat = ravel(a);
  using taken = take(flat, cyclic);
  return reshape(taken, dims);
}
