/**
 * Reductions, NumPy style: `sum(a)` gives a host value, `sum(a, { axis: 0 })` an array. Each runs
 * as one reduction through the generator (`reduction.ts`), reading views in place.
 *
 * @module
 */

import { type DType, isDType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import { reduceArray, reduceToHost } from "../exec/reduction.ts";
import { builtinReduction, checkElements, type ReduceOp, REDUCTIONS } from "./reduction_defs.ts";
import type { FloatDType } from "../core/dtypes.ts";
import type { HostValue, SumValue } from "../core/methods.ts";
import { asEager, kindOf, needsTag, recordReduce, Traced } from "../fuse/trace.ts";
import { checkOptions } from "../../kernel/options.ts";

/**
 * Options of reductions.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rowSums = ga.sum(ga.ones([2, 3]), { axis: 1, keepdims: true }); // shape [2, 1]
 * ```
 */
export interface ReduceOptions {
  /** The axes to reduce: a number, a list (negative counts from the end), or absent for all of them. */
  readonly axis?: number | readonly number[];
  /** Keep the reduced axes, with extent 1, so the result broadcasts against the input. */
  readonly keepdims?: boolean;
  /** Write the result here (its shape and dtype; a view is fine) and return it. */
  readonly out?: GPUArray;
}

/**
 * Options of `var` and `std`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sampleStd = ga.std(ga.arange(10), { ddof: 1 });
 * ```
 */
export interface VarOptions extends ReduceOptions {
  /** Delta degrees of freedom: the sum of squares is divided by `n - ddof`. Default 0. */
  readonly ddof?: number;
}

/**
 * Options of `argmin` and `argmax`: one axis, or none for the flat index.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const best = ga.argmax(ga.ones([4, 10]), { axis: 1 }); // int64, shape [4]
 * ```
 */
export interface ArgOptions {
  /** The axis to search along; absent: the index into the flattened array. */
  readonly axis?: number;
  /** Keep the reduced axis with extent 1. */
  readonly keepdims?: boolean;
  /** Write the indices here (int64, the result's shape). */
  readonly out?: GPUArray;
}

/**
 * What a reduction returns for options `O`: the host value `H` when they name no axis, `keepdims` or
 * `out` (NumPy's scalar), else a `GPUArray<R>`.
 *
 * @example
 * ```ts
 * import type { Reduced } from "@cudeno/cudeno/array";
 * const v: Reduced<{}, number, "float32"> = 1.5;
 * ```
 */
export type Reduced<O, H, R extends DType> = O extends
  { axis: number | readonly number[] } | { keepdims: true } | { out: GPUArray } ? GPUArray<R>
  : O extends { axis?: undefined; keepdims?: false; out?: undefined } ? H
  : H | GPUArray<R>;

/**
 * The dtype `sum` and `prod` give for `D`: floats keep theirs, unsigned integers give uint64, other
 * integers and bools int64 (NumPy's accumulation in 64 bits).
 *
 * @example
 * ```ts
 * import type { SumType } from "@cudeno/cudeno/array";
 * const d: SumType<"uint8"> = "uint64";
 * ```
 */
export type SumType<D extends DType> = D extends FloatDType ? D
  : D extends "uint8" | "uint16" | "uint32" | "uint64" ? "uint64"
  : "int64";

/**
 * The dtype `mean`, `var`, `std`, `nanmean` and `logsumexp` give for `D`: floats keep theirs, the rest
 * give float64.
 *
 * @example
 * ```ts
 * import type { MeanType } from "@cudeno/cudeno/array";
 * const d: MeanType<"int32"> = "float64";
 * ```
 */
export type MeanType<D extends DType> = D extends FloatDType ? D : "float64";

/** The options of reductions, and of var() and std(). */
const REDUCE_OPTIONS = ["axis", "keepdims", "out"], VAR_OPTIONS = [...REDUCE_OPTIONS, "ddof"];

function run(
  op: ReduceOp,
  a: unknown,
  options: ReduceOptions | undefined,
  values: readonly number[] = [],
): unknown {
  if (needsTag([a])) return asEager(() => run(op, a, options, values));
  if (!(a instanceof GPUArray) && !(a instanceof Traced)) {
    throw new TypeError(`Cannot ${op} ${kindOf(a)}: pass a GPUArray`);
  }
  checkOptions(options, op, "{ axis: 0 }", op === "var" || op === "std" ? VAR_OPTIONS : REDUCE_OPTIONS);
  const def = REDUCTIONS[op];
  const out = def.out(a.dtype);
  if (!isDType(out)) throw new TypeError(`Cannot ${op} a ${a.dtype} array: ${out}`);
  if (a instanceof Traced) return recordReduce(op, a, out, options, values);
  const axes = normalizeAxes(options?.axis, a.ndim, op);
  checkElements(op, a.shape, axes, options?.axis === undefined);
  const red = builtinReduction(op, a, out, values);
  if (options?.axis === undefined && options?.keepdims !== true && options?.out === undefined) {
    const value = reduceToHost(red, a.shape, op);
    return def.host === "number" ? Number(value) : def.host === "boolean" ? value !== 0 : value;
  }
  return reduceArray(red, a.shape, axes, options?.keepdims === true, options?.out, op);
}

function argRun(op: "argmin" | "argmax", a: unknown, options: ArgOptions | undefined): unknown {
  if (needsTag([a])) return asEager(() => argRun(op, a, options));
  checkOptions(options, op, "{ axis: 0 }", REDUCE_OPTIONS);
  if (options !== undefined && typeof options.axis !== "number" && options.axis !== undefined) {
    throw new TypeError(
      `Cannot ${op} along axes [${
        String(options.axis)
      }]: give one axis (a number), or none for the flat index`,
    );
  }
  return run(op, a, options);
}

function ddofOf(op: string, options: VarOptions | undefined): number {
  const ddof = options?.ddof ?? 0;
  if (typeof ddof !== "number" || !Number.isFinite(ddof)) {
    throw new TypeError(`Cannot ${op} with ddof ${String(ddof)}: pass a finite number`);
  }
  return ddof;
}

/**
 * The sum of the elements (NumPy's `sum`): over every axis a host value (a number for floats, an
 * exact bigint for integers and bools, which sum in 64 bits), along axes an array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2], [3, 4]]);
 * console.log(ga.sum(x), ga.sum(x, { axis: 0 }).get()); // 10 Float32Array [4, 6]
 * ```
 */
export function sum<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, SumValue<D>, SumType<D>> {
  return run("sum", a, options) as Reduced<O, SumValue<D>, SumType<D>>;
}

/**
 * The product of the elements (integers multiply in 64 bits; the product of none is 1).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.prod(ga.arange(1, 6, 1, "int32"))); // 120n
 * ```
 */
export function prod<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, SumValue<D>, SumType<D>> {
  return run("prod", a, options) as Reduced<O, SumValue<D>, SumType<D>>;
}

/**
 * The arithmetic mean (float64 for integers; NaN for no elements).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const colMeans = ga.mean(ga.ones([3, 4]), { axis: 0 }); // shape [4]
 * ```
 */
export function mean<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>> {
  return run("mean", a, options) as Reduced<O, number, MeanType<D>>;
}

/**
 * The smallest element; a NaN wins.
 *
 * @throws {RangeError} when a reduced axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.min(ga.asarray([3, 1, 2]))); // 1
 * ```
 */
export function min<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, HostValue<D>, D> {
  return run("min", a, options) as Reduced<O, HostValue<D>, D>;
}

/**
 * The largest element; a NaN wins.
 *
 * @throws {RangeError} when a reduced axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rowMax = ga.max(ga.asarray([[1, 5], [7, 2]]), { axis: 1 }); // [5, 7]
 * ```
 */
export function max<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, HostValue<D>, D> {
  return run("max", a, options) as Reduced<O, HostValue<D>, D>;
}

/**
 * The range, `max - min` ("peak to peak"), in the input's dtype.
 *
 * @throws {RangeError} when a reduced axis is empty.
 * @throws {TypeError} for bool arrays.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.ptp(ga.asarray([4, 9, 1]))); // 8
 * ```
 */
export function ptp<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, HostValue<D>, D> {
  return run("ptp", a, options) as Reduced<O, HostValue<D>, D>;
}

/**
 * The index of the smallest element (the first one; the first NaN where there is one): along an
 * axis an int64 array, else the flat index as a number.
 *
 * @throws {RangeError} when the axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.argmin(ga.asarray([3, 1, 1]))); // 1
 * ```
 */
export function argmin<O extends ArgOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, number, "int64"> {
  return argRun("argmin", a, options) as Reduced<O, number, "int64">;
}

/**
 * The index of the largest element (the first one; the first NaN where there is one): along an axis
 * an int64 array, else the flat index as a number.
 *
 * @throws {RangeError} when the axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const pred = ga.argmax(ga.asarray([[0.1, 0.9], [0.8, 0.2]]), { axis: 1 }); // int64 [1, 0]
 * ```
 */
export function argmax<O extends ArgOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, number, "int64"> {
  return argRun("argmax", a, options) as Reduced<O, number, "int64">;
}

/**
 * Whether any element is non-zero (NaN counts as non-zero).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.any(ga.asarray([0, 0, 2]))); // true
 * ```
 */
export function any<O extends ReduceOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, boolean, "bool"> {
  return run("any", a, options) as Reduced<O, boolean, "bool">;
}

/**
 * Whether every element is non-zero (true for no elements).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rowsAllPositive = ga.all(ga.asarray([[1, 2], [0, 3]]).gt(0), { axis: 1 }); // [true, false]
 * ```
 */
export function all<O extends ReduceOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, boolean, "bool"> {
  return run("all", a, options) as Reduced<O, boolean, "bool">;
}

/**
 * The variance, the mean of squared deviations from the mean, divided by `n - ddof` (one pass,
 * Welford's and Chan's formulas; float64 for integers).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.var(ga.asarray([1, 2, 3, 4]))); // 1.25
 * ```
 */
function variance<D extends DType, O extends VarOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>> {
  if (needsTag([a])) return asEager(() => variance(a, options));
  return run("var", a, options, [ddofOf("var", options)]) as Reduced<O, number, MeanType<D>>;
}
export { variance as var };

/**
 * The standard deviation, the square root of the variance (`var`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.random.normal([100, 8], { seed: 1 });
 * const z = x.sub(ga.mean(x, { axis: 0, keepdims: true })).div(ga.std(x, { axis: 0, keepdims: true }));
 * ```
 */
export function std<D extends DType, O extends VarOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>> {
  if (needsTag([a])) return asEager(() => std(a, options));
  return run("std", a, options, [ddofOf("std", options)]) as Reduced<O, number, MeanType<D>>;
}

/**
 * How many elements are non-zero: int64 along axes, a number over every axis.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.countNonzero(ga.asarray([0, 1, 2, 0]))); // 2
 * ```
 */
export function countNonzero<O extends ReduceOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, number, "int64"> {
  return run("countNonzero", a, options) as Reduced<O, number, "int64">;
}

/**
 * The sum with NaNs counted as zero.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nansum(ga.asarray([1, NaN, 2]))); // 3
 * ```
 */
export function nansum<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, SumValue<D>, SumType<D>> {
  return run("nansum", a, options) as Reduced<O, SumValue<D>, SumType<D>>;
}

/**
 * The mean of the elements that are not NaN (NaN where all are).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanmean(ga.asarray([1, NaN, 3]))); // 2
 * ```
 */
export function nanmean<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>> {
  return run("nanmean", a, options) as Reduced<O, number, MeanType<D>>;
}

/**
 * The smallest element that is not NaN (NaN where all are).
 *
 * @throws {RangeError} when a reduced axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanmin(ga.asarray([NaN, 4, 2]))); // 2
 * ```
 */
export function nanmin<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, HostValue<D>, D> {
  return run("nanmin", a, options) as Reduced<O, HostValue<D>, D>;
}

/**
 * The largest element that is not NaN (NaN where all are).
 *
 * @throws {RangeError} when a reduced axis is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanmax(ga.asarray([NaN, 4, 2]))); // 4
 * ```
 */
export function nanmax<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, HostValue<D>, D> {
  return run("nanmax", a, options) as Reduced<O, HostValue<D>, D>;
}

/**
 * `log(sum(exp(a)))`, computed stably in one pass (a running maximum, as SciPy's `logsumexp`
 * subtracts it): float64 for integers, -Infinity for no elements.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const lse = ga.logsumexp(ga.asarray([[1000, 1000], [0, 0]]), { axis: 1 }); // [1000.693, 0.693]
 * ```
 */
export function logsumexp<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>> {
  return run("logsumexp", a, options) as Reduced<O, number, MeanType<D>>;
}
