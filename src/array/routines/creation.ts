/**
 * Arrays made from host data or on the device: `asarray` and `toGpu` of nested JS arrays and typed
 * arrays, `zeros`, `ones`, `full` and their `...Like` forms, `arange`.
 *
 * @module
 */

import { activeBackend } from "../../device/active.ts";
import { emptyLike, GPUArray } from "../core/gpuarray.ts";
import { fill, linearFill } from "../ops/assign.ts";
import { type DType, dtypeOf, DTYPES } from "../../kernel/dtype.ts";
import { checkShape, type Shape, showShape, sizeOf } from "../core/layout.ts";
import { copyInto } from "../exec/loop.ts";

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

/** The host typed array of `dtype` holding `values` (converted as NumPy converts them). */
function hostArrayOf(values: readonly (number | bigint | boolean)[], dtype: DType): ArrayBufferView {
  const info = DTYPES[dtype];
  const out = new info.array(values.length);
  const wide = info.kind !== "float" && info.size === 8;
  values.forEach((v, i) => {
    const x = typeof v === "boolean" ? (v ? 1 : 0) : v;
    if (dtype === "bfloat16") {
      throw new TypeError("Cannot make a bfloat16 array from numbers here: use astype()");
    }
    if (wide) (out as BigInt64Array)[i] = typeof x === "bigint" ? x : BigInt(Math.trunc(x));
    else if (dtype === "bool") (out as Uint8Array)[i] = x !== 0 && x !== 0n ? 1 : 0;
    else (out as Float32Array)[i] = info.kind === "float" ? Number(x) : Math.trunc(Number(x));
  });
  return out;
}

/**
 * An array on the active backend from host data (NumPy's `asarray`): nested JS arrays (numbers give
 * float32 unless `dtype` says otherwise, booleans bool, bigints int64), a typed array (its own dtype),
 * or a GPUArray (itself, or a converted copy when `dtype` differs).
 *
 * @throws {RangeError} for ragged nesting.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]]); // float32, shape [2, 3]
 * const i = ga.asarray([1, 2, 3], "int32");
 * const b = ga.asarray([true, false]); // bool
 * ```
 */
export function asarray<D extends DType = "float32">(
  data: NestedArray | ArrayBufferView | GPUArray,
  dtype?: D,
): GPUArray<D> {
  if (data instanceof GPUArray) {
    if (dtype === undefined || data.dtype === dtype) return data as GPUArray<D>;
    const out = new GPUArray(data.backend, data.shape, dtype);
    copyInto(out, data, "asarray");
    return out;
  }
  if (ArrayBuffer.isView(data)) return toGpu(data as ArrayBufferView & { length: number }, undefined, dtype);
  return toGpu(data, undefined, dtype) as GPUArray<D>;
}

/**
 * Copies host data to the device (PyCUDA's `gpuarray.to_gpu`): a typed array (shape defaults to 1-D;
 * the dtype follows the array, so pass `"bfloat16"` to read a Uint16Array as bfloat16) or nested JS
 * arrays (as {@link asarray}).
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
    if (DTYPES[d].size * values.length !== values.byteLength) {
      throw new TypeError(`Cannot read a ${values.constructor.name} as ${d}: the element sizes differ`);
    }
    dims = [values.length];
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
    const given = checkShape(shape);
    if (sizeOf(given) !== values.length) {
      throw new RangeError(
        `Cannot put ${values.length} elements into shape ${showShape(given)} (${sizeOf(given)} elements)`,
      );
    }
    dims = given;
  }
  const out = new GPUArray(activeBackend(), dims, d as D);
  if (out.size > 0) out.backend.write(out.buffer, values, 0);
  return out;
}

/**
 * An array of `value` everywhere (NumPy's `full`); a float value in an integer dtype truncates.
 *
 * @throws {RangeError} when the dtype cannot hold `value`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sevens = ga.full([2, 3], 7, "int32");
 * ```
 */
export function full<D extends DType = "float32">(
  shape: Shape,
  value: number | bigint | boolean,
  dtype?: D,
): GPUArray<D> {
  const out = new GPUArray(activeBackend(), shape, (dtype ?? "float32") as D);
  return fill(out, value);
}

/**
 * An array of zeros.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.zeros([1000, 1000]);
 * ```
 */
export function zeros<D extends DType = "float32">(shape: Shape, dtype?: D): GPUArray<D> {
  return full(shape, 0, dtype);
}

/**
 * An array of ones.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const o = ga.ones(16, "float64");
 * ```
 */
export function ones<D extends DType = "float32">(shape: Shape, dtype?: D): GPUArray<D> {
  return full(shape, 1, dtype);
}

/**
 * An array of `value` with `like`'s shape and backend, and its dtype unless `dtype` says otherwise
 * (NumPy's `full_like`); a float value in an integer dtype truncates.
 *
 * @throws {RangeError} when the dtype cannot hold `value`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const nines = ga.fullLike(ga.zeros([2, 3], "int32"), 9);
 * ```
 */
export function fullLike<D extends DType, E extends DType = D>(
  like: GPUArray<D>,
  value: number | bigint | boolean,
  dtype?: E,
): GPUArray<E> {
  return fill(emptyLike(like, dtype), value);
}

/**
 * Zeros with `like`'s shape, backend and dtype (or `dtype`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.zerosLike(ga.ones([2, 2]));
 * ```
 */
export function zerosLike<D extends DType, E extends DType = D>(like: GPUArray<D>, dtype?: E): GPUArray<E> {
  return fullLike(like, 0, dtype);
}

/**
 * Ones with `like`'s shape, backend and dtype (or `dtype`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const o = ga.onesLike(ga.zeros([3]), "int8");
 * ```
 */
export function onesLike<D extends DType, E extends DType = D>(like: GPUArray<D>, dtype?: E): GPUArray<E> {
  return fullLike(like, 1, dtype);
}

/**
 * Evenly spaced values `start, start + step, ...` below `stop` (NumPy's `arange`); `arange(n)`
 * counts from 0.
 *
 * @throws {RangeError} for a zero step.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.arange(5).get()); // Float32Array [0, 1, 2, 3, 4]
 * console.log(ga.arange(1, 2, 0.25, "float64").get()); // Float64Array [1, 1.25, 1.5, 1.75]
 * ```
 */
export function arange<D extends DType = "float32">(
  start: number,
  stop?: number,
  step = 1,
  dtype?: D,
): GPUArray<D> {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0 || !Number.isFinite(step)) {
    throw new RangeError(`Cannot arange() with step ${step}: give a non-zero finite step`);
  }
  const n = Math.max(0, Math.ceil((to - from) / step));
  const out = new GPUArray(activeBackend(), n, (dtype ?? "float32") as D);
  return linearFill(out, from, step) as GPUArray<D>;
}
