/**
 * Arrays made from host data or on the device: `asarray` and `toGpu` of nested JS arrays and typed
 * arrays, `zeros`, `ones`, `full` and their `...Like` forms, `arange`.
 *
 * @module
 */

import { activeBackend } from "../../device/active.ts";
import { arrayArg, emptyLike, GPUArray } from "../core/gpuarray.ts";
import { elementValue, fill, linearFill } from "../ops/assign.ts";
import { type DType, dtypeOf, DTYPES } from "../../kernel/dtype.ts";
import { checkShape, type Shape, showShape, sizeOf } from "../core/layout.ts";
import { copyInto } from "../exec/loop.ts";
import { DTYPE, dtypeArg, type DTypeOptions, numberSlot, optionsOf } from "../core/axis_args.ts";

/** A nested JS array of numbers, bigints or booleans (`[[1, 2], [3, 4]]`), or one value. */
export type NestedArray = number | bigint | boolean | readonly NestedArray[];

/** The dtype a host typed array holds (Uint16Array reads as uint16, Uint8Array as uint8). */
export type DTypeOfArray<T> = T extends Float32Array ? "float32"
  : T extends Float64Array ? "float64"
  : T extends Float16Array ? "float16"
  : T extends Int8Array ? "int8"
  : T extends Uint8Array ? "uint8"
  : T extends Int16Array ? "int16"
  : T extends Uint16Array ? "uint16"
  : T extends Int32Array ? "int32"
  : T extends Uint32Array ? "uint32"
  : T extends BigInt64Array ? "int64"
  : T extends BigUint64Array ? "uint64"
  : T extends NestedArray ? "float32"
  : DType;

/** Reads a nested array into its shape and its values in C order; throws for ragged nesting. */
function flatten(data: NestedArray): { shape: number[]; values: (number | bigint | boolean)[] } {
  const shape: number[] = [];
  for (let level: NestedArray = data; Array.isArray(level); level = (level as readonly NestedArray[])[0]!) {
    shape.push(level.length);
    if (level.length === 0) break;
  }
  const values: (number | bigint | boolean)[] = [];
  const walk = (x: NestedArray, depth: number, path: string): void => {
    if (depth === shape.length) {
      if (Array.isArray(x)) throw ragged(path, "a list", "a value");
      if (typeof x !== "number" && typeof x !== "bigint" && typeof x !== "boolean") {
        throw new TypeError(
          `Cannot make an array from ${typeof x} at ${path}: use numbers, bigints or booleans`,
        );
      }
      values.push(x);
      return;
    }
    if (!Array.isArray(x)) throw ragged(path, "a value", `a list of ${shape[depth]}`);
    if (x.length !== shape[depth]) throw ragged(path, `${x.length} items`, `${shape[depth]}`);
    x.forEach((y, i) => walk(y, depth + 1, `${path}[${i}]`));
  };
  walk(data, 0, "data");
  return { shape, values };
}

function ragged(path: string, found: string, expected: string): RangeError {
  return new RangeError(
    `Cannot make an array from nested lists of different lengths: ${path} has ${found} where ${expected} was expected`,
  );
}

/**
 * The host typed array of `dtype` holding `values` (converted as NumPy converts them, refusing what the
 * dtype cannot hold as {@link elementValue} does).
 */
function hostArrayOf(values: readonly (number | bigint | boolean)[], dtype: DType): ArrayBufferView {
  if (dtype === "bfloat16" && values.length > 0) {
    throw new TypeError("Cannot make a bfloat16 array from numbers here: use astype()");
  }
  const info = DTYPES[dtype];
  // A complex dtype's numbers are real parts: the imaginary ones stay 0.
  const out = new info.array(values.length * info.parts);
  const wide = info.kind === "int" || info.kind === "uint" ? info.size === 8 : false;
  values.forEach((v, i) => {
    const x = elementValue(v, dtype, "put");
    if (wide) (out as BigInt64Array)[i] = BigInt(x);
    else (out as Float32Array)[i * info.parts] = Number(x);
  });
  return out;
}

/**
 * An array on the active backend from host data (NumPy's `asarray`): nested JS arrays (numbers give
 * float32 unless `dtype` says otherwise, booleans bool, bigints int64), a typed array (its own dtype),
 * or a GPUArray (itself, or a converted copy when `dtype` differs). The dtype is given by position
 * or as `{ dtype }`.
 *
 * @throws {RangeError} for ragged nesting, or a value the dtype cannot hold: one outside an integer
 * dtype's range (`asarray([300], "uint8")`, as NumPy 2), NaN or an infinity in an integer dtype, or an
 * integer that float32 would round (past 2^24 = 16777216: give float64 or an integer dtype).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]]); // float32, shape [2, 3]
 * const i = ga.asarray([1, 2, 3], "int32"); // also ga.asarray([1, 2, 3], { dtype: "int32" })
 * const b = ga.asarray([true, false]); // bool
 * ```
 */
export function asarray<D extends DType = "float32">(
  data: NestedArray | ArrayBufferView | GPUArray,
  options?: DTypeOptions<D>,
): GPUArray<D>;
/** `asarray(data, dtype)`: the dtype by position. */
export function asarray<D extends DType>(
  data: NestedArray | ArrayBufferView | GPUArray,
  dtype: D,
): GPUArray<D>;
export function asarray(data: NestedArray | ArrayBufferView | GPUArray, arg?: unknown): GPUArray {
  const dtype = dtypeArg("asarray", arg);
  if (data instanceof GPUArray) {
    if (dtype === undefined || data.dtype === dtype) return data;
    const out = new GPUArray(data.backend, data.shape, dtype);
    copyInto(out, data, "asarray");
    return out;
  }
  if (ArrayBuffer.isView(data)) return toGpu(data as ArrayBufferView & { length: number }, undefined, dtype);
  return toGpu(data, undefined, dtype);
}

/**
 * Copies host data to the device (PyCUDA's `gpuarray.to_gpu`): a typed array (shape defaults to 1-D;
 * the dtype follows the array; a `dtype` of the same element size reads its bits, so pass `"bfloat16"`
 * to read a Uint16Array as bfloat16, and one of another size converts the values, as NumPy's
 * `asarray`) or nested JS arrays (as {@link asarray}).
 *
 * @throws {RangeError} when `shape` does not match the data.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.toGpu(Float32Array.from({ length: 6 }, (_, i) => i), [2, 3]);
 * const y = ga.toGpu([[1, 2], [3, 4]]);
 * ```
 */
export function toGpu<
  T extends (ArrayBufferView & { length: number }) | NestedArray,
  D extends DType = DTypeOfArray<T>,
>(
  host: T,
  shape?: Shape,
  dtype?: D,
): GPUArray<D> {
  let values: ArrayBufferView & { length: number };
  let dims: number[];
  let d: DType;
  if (ArrayBuffer.isView(host)) {
    values = host as ArrayBufferView & { length: number };
    d = dtype ?? dtypeOf(values);
    // A complex dtype's elements are pairs of the host array's.
    if (DTYPES[d].size * values.length !== values.byteLength * DTYPES[d].parts) {
      // Elements of another size are values to convert (NumPy's asarray(int32 data, dtype=int64)).
      return toGpu(values, shape).astype(d) as GPUArray<D>;
    }
    dims = [values.length / DTYPES[d].parts];
  } else {
    const nested = flatten(host as NestedArray);
    const all = nested.values;
    d = dtype ??
      (all.length > 0 && all.every((v) => typeof v === "boolean")
        ? "bool"
        : all.some((v) => typeof v === "bigint")
        ? "int64"
        : "float32");
    values = hostArrayOf(all, d) as ArrayBufferView & { length: number };
    dims = nested.shape;
  }
  if (shape !== undefined) {
    const given = checkShape(shape), count = values.length / DTYPES[d].parts;
    if (sizeOf(given) !== count) {
      throw new RangeError(
        `Cannot put ${count} elements into shape ${showShape(given)} (${sizeOf(given)} elements)`,
      );
    }
    dims = given;
  }
  const out = new GPUArray(activeBackend(), dims, d as D);
  if (out.size > 0) out.backend.write(out.buffer, values, 0);
  return out;
}

/**
 * An array of `value` everywhere (NumPy's `full`); a float value in an integer dtype truncates. The
 * dtype (default float32) is given by position or as `{ dtype }`.
 *
 * @throws {RangeError} when the dtype cannot hold `value`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sevens = ga.full([2, 3], 7, "int32"); // also { dtype: "int32" }
 * ```
 */
export function full<D extends DType = "float32">(
  shape: Shape,
  value: number | bigint | boolean,
  options?: DTypeOptions<D>,
): GPUArray<D>;
/** `full(shape, value, dtype)`: the dtype by position. */
export function full<D extends DType>(shape: Shape, value: number | bigint | boolean, dtype: D): GPUArray<D>;
export function full(shape: Shape, value: number | bigint | boolean, dtype?: unknown): GPUArray {
  const out = new GPUArray(activeBackend(), shape, dtypeArg("full", dtype) ?? "float32");
  return fill(out, value);
}

/**
 * An array of zeros, float32 unless the dtype (by position or as `{ dtype }`) says otherwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.zeros([1000, 1000]);
 * const counts = ga.zeros([4], { dtype: "int32" }); // also ga.zeros([4], "int32")
 * ```
 */
export function zeros<D extends DType = "float32">(shape: Shape, options?: DTypeOptions<D>): GPUArray<D>;
/** `zeros(shape, dtype)`: the dtype by position. */
export function zeros<D extends DType>(shape: Shape, dtype: D): GPUArray<D>;
export function zeros(shape: Shape, dtype?: unknown): GPUArray {
  return full(shape, 0, { dtype: dtypeArg("zeros", dtype) });
}

/**
 * An array of ones, float32 unless the dtype (by position or as `{ dtype }`) says otherwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const o = ga.ones(16, "float64"); // also ga.ones(16, { dtype: "float64" })
 * ```
 */
export function ones<D extends DType = "float32">(shape: Shape, options?: DTypeOptions<D>): GPUArray<D>;
/** `ones(shape, dtype)`: the dtype by position. */
export function ones<D extends DType>(shape: Shape, dtype: D): GPUArray<D>;
export function ones(shape: Shape, dtype?: unknown): GPUArray {
  return full(shape, 1, { dtype: dtypeArg("ones", dtype) });
}

/**
 * An array of `value` with `like`'s shape and backend, and its dtype unless `dtype` says otherwise
 * (NumPy's `full_like`, the dtype by position or as `{ dtype }`); a float value in an integer dtype
 * truncates.
 *
 * @throws {RangeError} when the dtype cannot hold `value`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const nines = ga.fullLike(ga.zeros([2, 3], "int32"), 9);
 * const halves = ga.fullLike(nines, 0.5, { dtype: "float32" });
 * ```
 */
export function fullLike<D extends DType, E extends DType = D>(
  like: GPUArray<D>,
  value: number | bigint | boolean,
  options?: DTypeOptions<E>,
): GPUArray<E>;
/** `fullLike(like, value, dtype)`: the dtype by position. */
export function fullLike<D extends DType, E extends DType>(
  like: GPUArray<D>,
  value: number | bigint | boolean,
  dtype: E,
): GPUArray<E>;
export function fullLike(like: GPUArray, value: number | bigint | boolean, dtype?: unknown): GPUArray {
  arrayArg(like, "fullLike");
  return fill(emptyLike(like, { dtype: dtypeArg("fullLike", dtype) }), value);
}

/**
 * Zeros with `like`'s shape, backend and dtype (or `dtype`, by position or as `{ dtype }`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.zerosLike(ga.ones([2, 2]));
 * const i = ga.zerosLike(z, { dtype: "int32" }); // also ga.zerosLike(z, "int32")
 * ```
 */
export function zerosLike<D extends DType, E extends DType = D>(
  like: GPUArray<D>,
  options?: DTypeOptions<E>,
): GPUArray<E>;
/** `zerosLike(like, dtype)`: the dtype by position. */
export function zerosLike<D extends DType, E extends DType>(like: GPUArray<D>, dtype: E): GPUArray<E>;
export function zerosLike(like: GPUArray, dtype?: unknown): GPUArray {
  arrayArg(like, "zerosLike");
  return fullLike(like, 0, { dtype: dtypeArg("zerosLike", dtype) });
}

/**
 * Ones with `like`'s shape, backend and dtype (or `dtype`, by position or as `{ dtype }`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const o = ga.onesLike(ga.zeros([3]), "int8"); // also { dtype: "int8" }
 * ```
 */
export function onesLike<D extends DType, E extends DType = D>(
  like: GPUArray<D>,
  options?: DTypeOptions<E>,
): GPUArray<E>;
/** `onesLike(like, dtype)`: the dtype by position. */
export function onesLike<D extends DType, E extends DType>(like: GPUArray<D>, dtype: E): GPUArray<E>;
export function onesLike(like: GPUArray, dtype?: unknown): GPUArray {
  arrayArg(like, "onesLike");
  return fullLike(like, 1, { dtype: dtypeArg("onesLike", dtype) });
}

/**
 * The dtype {@link arange} gives for arguments of types `A` without a dtype: int32 for integer
 * literals of up to 9 characters, float32 where one is a fractional literal, and where the values are
 * not known to the types (a `number`) any of the three it may give: int32 for integers, int64 past
 * int32's range, float32 for others.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const n: number = 5;
 * const a: ga.GPUArray<"int32"> = ga.arange(5);
 * const b: ga.GPUArray<"float32"> = ga.arange(0, 1, 0.25);
 * const c: ga.GPUArray<ga.ArangeDType> = ga.arange(n); // int32 at run time
 * ```
 */
export type ArangeDType<A extends readonly unknown[] = number[]> =
  // What the type of each number says of it: "int" for an integer literal of up to 9 characters (or
  // undefined, a stop left out), "float" for a fractional literal, "unknown" for a `number`.
  (A[number] extends infer N ? N extends undefined ? "int"
    : N extends number ? number extends N ? "unknown"
      : `${N}` extends `${bigint}`
        ? (`${N}` extends
          `${infer _0}${infer _1}${infer _2}${infer _3}${infer _4}${infer _5}${infer _6}${infer _7}${infer _8}${infer _9}${infer _10}`
          ? "unknown"
          : "int")
      : "float"
    : "unknown"
    : never) extends infer K ? "float" extends K ? "float32"
    : "unknown" extends K ? "int32" | "int64" | "float32"
    : "int32"
    : never;

/**
 * Options of {@link arange}: NumPy's keywords after the first argument.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.ArangeOptions<"int32"> = { step: 2, dtype: "int32" };
 * const evens = ga.arange(10, options); // [0, 2, 4, 6, 8]
 * ```
 */
export interface ArangeOptions<D extends DType = DType> extends DTypeOptions<D> {
  /** The difference between neighbouring values (default 1). */
  readonly step?: number;
}

/**
 * Evenly spaced values `start, start + step, ...` below `stop` (NumPy's `arange`); `arange(n)`
 * counts from 0. The dtype follows the numbers given by position, or comes as `{ dtype }`:
 * `arange(5, "int32")` is NumPy's `arange(5, dtype=...)`. Without one, integer arguments give
 * integers, as in NumPy and PyTorch: int32, or int64 where a value is past int32's range; any other
 * argument gives float32 (the default float here).
 *
 * @throws {RangeError} for a zero step, or for values an integer dtype given cannot hold.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.arange(5).get()); // Int32Array [0, 1, 2, 3, 4]
 * console.log(ga.arange(0, 1, 0.25).get()); // Float32Array [0, 0.25, 0.5, 0.75]
 * console.log(ga.arange(1, 2, 0.25, "float64").get()); // Float64Array [1, 1.25, 1.5, 1.75]
 * const i = ga.arange(5, "int32"); // also ga.arange(5, { dtype: "int32" })
 * const odd = ga.arange(1, 10, { step: 2, dtype: "int32" }); // [1, 3, 5, 7, 9]
 * ```
 */
export function arange<A extends number>(stop: A): GPUArray<ArangeDType<[A]>>;
/** `arange(stop, options)`: the dtype, or a step, in the options. */
export function arange<D extends DType = ArangeDType>(stop: number, options: ArangeOptions<D>): GPUArray<D>;
/** `arange(stop, dtype)`: NumPy's `arange(5, dtype=...)`. */
export function arange<D extends DType>(stop: number, dtype: D): GPUArray<D>;
/** `arange(start, stop)`. */
export function arange<A extends number, B extends number | undefined>(
  start: A,
  stop: B,
): GPUArray<ArangeDType<[A, B]>>;
/** `arange(start, stop, options)`. */
export function arange<D extends DType = ArangeDType>(
  start: number,
  stop: number | undefined,
  options: ArangeOptions<D>,
): GPUArray<D>;
/** `arange(start, stop, dtype)`. */
export function arange<D extends DType>(start: number, stop: number | undefined, dtype: D): GPUArray<D>;
/** `arange(start, stop, step)`. */
export function arange<A extends number, B extends number | undefined, C extends number | undefined>(
  start: A,
  stop: B,
  step: C,
): GPUArray<ArangeDType<[A, B, C]>>;
/** `arange(start, stop, step, options)`: the dtype's options. */
export function arange<D extends DType = ArangeDType>(
  start: number,
  stop: number | undefined,
  step: number | undefined,
  options: DTypeOptions<D>,
): GPUArray<D>;
/** `arange(start, stop, step, dtype)`, NumPy's positions. */
export function arange<D extends DType>(
  start: number,
  stop: number | undefined,
  step: number | undefined,
  dtype: D,
): GPUArray<D>;
export function arange(start: number, ...args: unknown[]): GPUArray {
  const options = optionsOf<ArangeOptions & { stop?: number }>(
    "arange",
    args,
    ARANGE_SLOTS,
    ["step", "dtype"],
    '{ step: 2, dtype: "int32" }',
  );
  const { stop, step = 1, dtype } = options;
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0 || !Number.isFinite(step)) {
    throw new RangeError(`Cannot arange() with step ${step}: give a non-zero finite step`);
  }
  const n = Math.max(0, Math.ceil((to - from) / step));
  const last = from + Math.max(0, n - 1) * step;
  const integers = [from, to, step].every(Number.isSafeInteger) && Number.isSafeInteger(last);
  const d = dtype ?? (!integers ? "float32" : [from, last].every(fitsInt32) ? "int32" : "int64");
  if (DTYPES[d] !== undefined && DTYPES[d].kind !== "float" && n > 0) {
    elementValue(from, d, "write");
    elementValue(last, d, "write");
  }
  const out = new GPUArray(activeBackend(), n, d);
  return linearFill(out, from, step);
}

const fitsInt32 = (x: number) => x >= -(2 ** 31) && x < 2 ** 31;

/** NumPy's positions after `arange`'s first argument: stop, step, dtype (a dtype may come earlier). */
const ARANGE_SLOTS = [numberSlot("stop"), numberSlot("step"), DTYPE];
