/**
 * Integer indexing: `take` (a gather along an axis) and `put` (a scatter into the flattened array),
 * each one loop through the kernel generator. An index out of range sets a flag on the device (the
 * call's tag, so the flag needs no clearing), which the host reads once after the loop and reports as
 * a `RangeError` naming the first such index; the kernel never touches memory outside the array.
 *
 * @module
 */

import { record, refuseTrackedWrite } from "../grad/tape.ts";
import type { Backend } from "../../device/backend.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray, persistent, sharesMemory, viewOf } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { castTo, indexType, load } from "../../codegen/c.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import { AXIS, type AxisOptions, optionsOf } from "../core/axis_args.ts";
import { copyInto, copyOf, runLoop } from "../exec/loop.ts";
import { fill } from "./assign.ts";
import { ravel } from "./views.ts";
import { deferCheck, tracing } from "../../device/compiling.ts";

/**
 * Integer indices: an array of an integer (or bool) dtype, one integer, or a list of integers.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const picks: ga.Indices[] = [ga.asarray([2, 0], "int32"), 1, [0, -1]];
 * ```
 */
export type Indices = GPUArray | number | readonly number[];

/** The out-of-range flag of one device and the tag the next loop sets it to. */
interface RangeFlag {
  readonly array: GPUArray;
  tag: number;
}

const rangeFlags = new WeakMap<Backend, RangeFlag>();
/** What an indexing call with a range check reads on the host (see `Backend.checkHostRead`). */
const INDEX_CHECK = "whether an index is out of range";

/** The device's flag, with a new tag for the next loop. */
function nextFlag(backend: Backend): RangeFlag {
  let flag = rangeFlags.get(backend);
  if (flag === undefined || flag.array.freed) {
    flag = { array: persistent(() => fill(new GPUArray(backend, [1], "int32"), 0)), tag: 0 };
    rangeFlags.set(backend, flag);
  }
  if (++flag.tag === 2 ** 31 - 1) {
    fill(flag.array, 0);
    flag.tag = 1;
  }
  return flag;
}

/** Whether a loop set `flag` to `tag` (waits for it). */
function raised(flag: RangeFlag, tag = flag.tag): boolean {
  const host = new Int32Array(1);
  flag.array.backend.read(host, flag.array.buffer, 0);
  return host[0] === tag;
}

/**
 * Checks the range of an indexing call: now (true where an index was out of range), or, in a step
 * being compiled, after each replay at the step's next call (false now), with `message`.
 */
function rangeChecked(flag: RangeFlag, message: () => string): boolean {
  const tag = flag.tag;
  const deferred = deferCheck({
    failed: () => {
      if (!raised(flag, tag)) return false;
      fill(flag.array, 0);
      return true;
    },
    get message() {
      return message();
    },
  });
  return !deferred && raised(flag);
}

/**
 * `indices` as an array of an integer or bool dtype on `backend` (a new one for numbers).
 *
 * @throws {TypeError} for floats, other values, or an array on another backend.
 */
export function indexArray(indices: Indices, backend: Backend, what: string): GPUArray {
  if (indices instanceof GPUArray) {
    if (DTYPES[indices.dtype].kind === "float") {
      throw new TypeError(
        `Cannot ${what} with ${indices.dtype} indices: pass an integer array (indices.astype("int64"))`,
      );
    }
    if (indices.backend !== backend) {
      throw new TypeError(
        `Cannot ${what} with indices on ${indices.backend.device} for an array on ${backend.device}`,
      );
    }
    return indices;
  }
  const list = typeof indices === "number" ? [indices] : indices;
  if (!Array.isArray(list) || !list.every((i) => Number.isSafeInteger(i))) {
    throw new TypeError(`Cannot ${what} with indices ${describe(indices)}: give integers`);
  }
  const out = new GPUArray(backend, typeof indices === "number" ? [] : [list.length], "int64");
  if (list.length > 0) backend.write(out.buffer, BigInt64Array.from(list, (i) => BigInt(i)), 0);
  return out;
}

/**
 * The first of `indices` outside `-extent .. extent - 1` (after NumPy's conversion to int64), read on
 * the host.
 */
function firstOutOfRange(indices: GPUArray, extent: number): bigint | undefined {
  for (const v of indices.get() as Iterable<number | bigint>) {
    const j = BigInt.asIntN(64, BigInt(v));
    if (j < -BigInt(extent) || j >= BigInt(extent)) return j;
  }
  return undefined;
}

/** The range of indices an extent takes, as words. */
export function validRange(extent: number): string {
  return extent === 0 ? "it is empty" : `use -${extent} to ${extent - 1}`;
}

/** One array of integer positions of a gather, broadcast over the output, and how far apart its positions lie in the source. */
export interface GatherIndex {
  readonly array: GPUArray;
  readonly step: number;
}

/**
 * Fills `out` from `source`, a view over `out`'s shape of the source's first element in the indexed
 * directions: each output element is the one `Σ index_k * step_k` further along the buffer. With
 * `extent`, the one index is checked against it (negative values counting from the end) and the
 * result says whether one was out of range.
 */
export function gather(
  out: GPUArray,
  source: GPUArray,
  index: readonly GatherIndex[],
  extent: number | undefined,
  what: string,
  message = () => `Cannot ${what}: an index was out of range for extent ${extent}`,
): boolean {
  if (out.size === 0) return false;
  const d = out.backend.dialect, ix = indexType(d);
  const flag = extent === undefined ? undefined : nextFlag(out.backend);
  const count = index.length;
  runLoop(
    {
      key: `gather${count}${extent === undefined ? "" : "?"}`,
      arrays: [source, ...index.map((i) => i.array), out],
      written: [false, ...index.map(() => false), true],
      pointers: flag === undefined ? [] : [{ array: flag.array, written: true }],
      scalars: [
        ...index.map((i) => ({ value: i.step, dtype: "int64" as DType })),
        ...(flag === undefined ? [] : [
          { value: extent!, dtype: "int64" as DType },
          { value: flag.tag, dtype: "int32" as DType },
        ]),
      ],
      statement: (ref, scalar, _index, pointer) => {
        const [x, y] = [ref[0]!, ref[count + 1]!];
        const positions = index.map((_, k) => `(${ix})(${load(ref[k + 1]!, index[k]!.array.dtype, d)})`);
        if (flag === undefined) {
          return `${y} = (&${x})[${positions.map((p, k) => `${p} * ${scalar[k]}`).join(" + ")}];`;
        }
        const [n, tag] = [scalar[count]!, scalar[count + 1]!];
        return `${ix} j = ${positions[0]}; if (j < 0) j += ${n};
      if (j < 0 || j >= ${n}) ${pointer[0]}[0] = ${tag}; else ${y} = (&${x})[j * ${scalar[0]}];`;
      },
    },
    out.shape,
    what,
  );
  return flag !== undefined && rangeChecked(flag, message);
}

/**
 * The elements of `a` at `indices` along `axis` (NumPy's `take`): the result's shape is `a`'s with
 * the axis replaced by the indices' shape. Without an axis, `indices` index the flattened array.
 * Negative indices count from the end. `a` may have any layout (without an axis, a non-contiguous `a`
 * is flattened into a copy first, as NumPy does). The axis is given by position or as `{ axis }`.
 *
 * @throws {RangeError} naming the first index out of range and the axis's extent, or for an axis out
 * of range.
 * @throws {TypeError} for float indices.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]]);
 * console.log(ga.take(x, ga.asarray([2, 0], "int32"), 1).get()); // Float32Array [3, 1, 6, 4]
 * console.log(ga.take(x, [-1, 0]).get()); // Float32Array [6, 1]
 * const rows = ga.take(x, [1, 1], { axis: 0 }); // also x.take([1, 1], 0)
 * ```
 */
export function take<D extends DType>(
  a: GPUArray<D>,
  indices: Indices,
  axis?: number | AxisOptions,
): GPUArray<D> {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot take from ${typeof a}: pass a GPUArray`);
  axis = optionsOf<AxisOptions>("take", [axis], [AXIS], ["axis"], "{ axis: 0 }").axis;
  return takeWith(
    a,
    indices,
    axis,
    (j, extent, ax) =>
      `Cannot take index ${j} ${ax === undefined ? "of the flattened array" : `along axis ${ax}`}: ` +
      `it is out of range for extent ${extent} (${validRange(extent)})`,
  );
}

/** {@link take}, with the message an index out of range gives. */
export function takeWith<D extends DType>(
  a: GPUArray<D>,
  indices: Indices,
  axis: number | undefined,
  message: (index: bigint, extent: number, axis: number | undefined) => string,
): GPUArray<D> {
  // In a step being compiled, the range is checked at the step's next call (`rangeChecked`).
  if (!tracing()) a.backend.checkHostRead("take()", INDEX_CHECK);
  const idx = indexArray(indices, a.backend, "take");
  const source = axis === undefined ? ravel(a) : a;
  try {
    const ax = axis === undefined ? 0 : normalizeAxis(axis, a.ndim, "take");
    const extent = source.shape[ax]!;
    const pre = source.shape.slice(0, ax), post = source.shape.slice(ax + 1);
    const shape = [...pre, ...idx.shape, ...post];
    const out = new GPUArray(a.backend, shape, a.dtype);
    using from = viewOf(source, {
      shape,
      strides: [...source.strides.slice(0, ax), ...idx.shape.map(() => 0), ...source.strides.slice(ax + 1)],
      offset: source.offset,
    });
    using at = viewOf(idx, {
      shape,
      strides: [...pre.map(() => 0), ...idx.strides, ...post.map(() => 0)],
      offset: idx.offset,
    });
    const where = axis === undefined ? "of the flattened array" : `along axis ${ax}`;
    const deferred = () =>
      `Cannot take an index ${where}: one was out of range for extent ${extent} (${validRange(extent)})`;
    if (gather(out, from, [{ array: at, step: source.strides[ax]! }], extent, "take", deferred)) {
      out.free();
      throw new RangeError(
        message(firstOutOfRange(idx, extent)!, extent, axis === undefined ? undefined : ax),
      );
    }
    record("take", [source], out, (g, { ops }) => {
      // Scatter-add as a product with the one-hot matrix of the indices (m × extent).
      const m = idx.size, P = pre.reduce((n, d) => n * d, 1), Q = post.reduce((n, d) => n * d, 1);
      const at = ops.reshape(ops.where(idx.lt(0), idx.add(extent), idx), [m, 1]);
      const hot = at.eq(ops.reshape(ops.arange(extent), [1, extent])).astype(g.dtype);
      const rows = ops.transpose(ops.reshape(g, [P, m, Q]), [0, 2, 1]);
      return [ops.reshape(ops.transpose(ops.matmul(rows, hot), [0, 2, 1]), source.shape)];
    });
    return out;
  } finally {
    if (source !== a) source.free();
    if (idx !== indices) idx.free();
  }
}

/** `values` as an array on `backend`: arrays as they are, numbers as a new int64 or float64 array. */
function valueArray(
  values: GPUArray | number | bigint | readonly number[],
  dtype: DType,
  backend: Backend,
): GPUArray {
  if (values instanceof GPUArray) {
    if (values.backend !== backend) {
      throw new TypeError(`Cannot put values on ${values.backend.device} into an array on ${backend.device}`);
    }
    return values;
  }
  if (typeof values === "number" || typeof values === "bigint") {
    return fill(new GPUArray(backend, [1], dtype), values);
  }
  if (!Array.isArray(values) || !values.every((v) => typeof v === "number")) {
    throw new TypeError(`Cannot put ${describe(values)}: give an array, a number or a list of numbers`);
  }
  const whole = values.every((v) => Number.isSafeInteger(v));
  const type = whole ? "int64" : backend.supports("float64") ? "float64" : "float32";
  const out = new GPUArray(backend, [values.length], type);
  const host = whole
    ? BigInt64Array.from(values, (v) => BigInt(v))
    : type === "float64"
    ? Float64Array.from(values)
    : Float32Array.from(values);
  if (values.length > 0) backend.write(out.buffer, host, 0);
  return out;
}

/**
 * Writes `values` into `a` at the flat (C-order) positions `indices`, in place (NumPy's `put`):
 * `values` are converted to `a`'s dtype and repeat when fewer than the indices; negative indices
 * count from the end. Where an index repeats, which of its values lands is not defined. A
 * non-contiguous `a` is written through a contiguous copy, as NumPy does.
 *
 * @throws {RangeError} naming the first index out of range and the size (some values may have been
 * written before, as in NumPy).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros(5);
 * ga.put(x, [0, -1], ga.asarray([7, 9]));
 * console.log(x.get()); // Float32Array [7, 0, 0, 0, 9]
 * ```
 */
export function put<A extends GPUArray>(
  a: A,
  indices: Indices,
  values: GPUArray | number | bigint | readonly number[],
): A {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot put into ${typeof a}: pass a GPUArray`);
  refuseTrackedWrite("put", a, [values]);
  a.backend.checkHostRead("put()", INDEX_CHECK);
  const idx = indexArray(indices, a.backend, "put");
  const given = valueArray(values, a.dtype, a.backend);
  const target = a.isContiguous ? a : copyOf(a);
  // Indices and values are read from memory that the loop does not write, in C order.
  const at = sharesMemory(idx, target) ? copyOf(idx) : idx;
  const from = given.isContiguous && !sharesMemory(given, target) ? given : copyOf(given);
  try {
    if (idx.size === 0 || from.size === 0) return a;
    const d = a.backend.dialect, ix = indexType(d);
    const flag = nextFlag(a.backend);
    runLoop(
      {
        key: "put",
        arrays: [at],
        written: [false],
        pointers: [{ array: target, written: true }, { array: from, written: false }, {
          array: flag.array,
          written: true,
        }],
        scalars: [
          { value: a.size, dtype: "int64" },
          { value: from.size, dtype: "int64" },
          { value: flag.tag, dtype: "int32" },
        ],
        statement: ([i], [n, count, tag], k, [y, v, f]) => {
          const value = castTo(load(`${v}[(${ix})(${k}) % ${count}]`, from.dtype, d), a.dtype, d);
          return `${ix} j = (${ix})(${load(i!, at.dtype, d)}); if (j < 0) j += ${n};
      if (j < 0 || j >= ${n}) ${f}[0] = ${tag}; else ${y}[j] = ${value};`;
        },
      },
      at.shape,
      "put",
    );
    if (raised(flag)) {
      const j = firstOutOfRange(idx, a.size)!;
      throw new RangeError(
        `Cannot put at index ${j}: it is out of range for an array of shape ${
          showShape(a.shape)
        } (${a.size} elements; ${validRange(a.size)})`,
      );
    }
    if (target !== a) copyInto(a, target, "put");
    return a;
  } finally {
    if (target !== a) target.free();
    if (at !== idx) at.free();
    if (from !== given) from.free();
    if (given !== values) given.free();
    if (idx !== indices) idx.free();
  }
}
