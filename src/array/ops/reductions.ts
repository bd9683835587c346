/**
 * Reductions, NumPy style: `sum(a)` gives a host value, `sum(a, 0)` or `sum(a, { axis: 0 })` an
 * array (the axis by position or in the options, the other options after it: `sum(a, 0, { keepdims:
 * true })`). Each runs as one reduction through the generator (`reduction.ts`), reading views in
 * place.
 *
 * @module
 */

import { type DType, isDType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import { reduceArray, reduceToHost } from "../exec/reduction.ts";
import { builtinReduction, checkElements, type ReduceOp, REDUCTIONS } from "./reduction_defs.ts";
import type { HostValue, SumValue } from "../core/methods.ts";
import { asEager, kindOf, needsTag, recordReduce, Traced } from "../fuse/trace.ts";
import { isTracked, recordReduction, refuseTrackedWrite } from "../grad/tape.ts";
import { type AfterAxis, AXES, AXIS, type AxisArg, optionsOf } from "../core/axis_args.ts";
import type { ArgOptions, MeanType, Reduced, ReduceOptions, SumType, VarOptions } from "./reduction_types.ts";
import { spreadOfParts } from "./complex_parts.ts";

export type { ArgOptions, MeanType, Reduced, ReduceOptions, SumType, VarOptions } from "./reduction_types.ts";

/** The options of reductions, and of var() and std(). */
const REDUCE_OPTIONS = ["axis", "keepdims", "out"], VAR_OPTIONS = [...REDUCE_OPTIONS, "ddof"];

/** The options of a reduction's call: its axis given by position or in the options, and the rest. */
function optionsFor(op: ReduceOp, args: readonly unknown[]): VarOptions {
  const arg = op === "argmin" || op === "argmax";
  const known = op === "var" || op === "std" ? VAR_OPTIONS : REDUCE_OPTIONS;
  const options = optionsOf<VarOptions>(op, args, [arg ? AXIS : AXES], known, "{ axis: 0 }");
  if (arg && typeof options.axis !== "number" && options.axis !== undefined) {
    throw new TypeError(
      `Cannot ${op} along axes [${
        String(options.axis)
      }]: give one axis (a number), or none for the flat index`,
    );
  }
  return options;
}

function run(op: ReduceOp, a: unknown, args: readonly unknown[]): unknown {
  if (needsTag([a])) return asEager(() => run(op, a, args));
  if (!(a instanceof GPUArray) && !(a instanceof Traced)) {
    throw new TypeError(`Cannot ${op} ${kindOf(a)}: pass a GPUArray`);
  }
  const options = optionsFor(op, args);
  const values = op === "var" || op === "std" ? [ddofOf(op, options)] : [];
  const def = REDUCTIONS[op];
  const complex = a.dtype === "complex64" || a.dtype === "complex128";
  if (complex && (op === "var" || op === "std") && a instanceof GPUArray) {
    return spreadOfParts(a, (part) => run("var", part, args), op === "std");
  }
  if (complex && op !== "sum" && op !== "prod" && op !== "mean") {
    throw new TypeError(
      `Cannot ${op} a ${a.dtype} array: ${op} is not defined for complex numbers; reduce ga.real(a), ga.imag(a) or ga.abs(a)`,
    );
  }
  const out = def.out(a.dtype);
  if (!isDType(out)) throw new TypeError(`Cannot ${op} a ${a.dtype} array: ${out}`);
  if (a instanceof Traced) return recordReduce(op, a, out, options, values);
  const axes = normalizeAxes(options.axis, a.ndim, op);
  checkElements(op, a.shape, axes, options.axis === undefined);
  const red = builtinReduction(op, a, out, values);
  const tracked = isTracked(a);
  if (options.axis === undefined && options.keepdims !== true && options.out === undefined && !tracked) {
    if (complex) {
      // A complex total comes back as [re, im].
      using total = reduceArray(red, a.shape, axes, false, undefined, op);
      return total.item();
    }
    const value = reduceToHost(red, a.shape, op);
    return def.host === "number" ? Number(value) : def.host === "boolean" ? value !== 0 : value;
  }
  if (options.out !== undefined) refuseTrackedWrite(`${op} into out`, options.out, [a]);
  const y = reduceArray(red, a.shape, axes, options.keepdims === true, options.out, op);
  const rule = def.vjp;
  recordReduction(
    op,
    a,
    y,
    axes,
    options.keepdims === true,
    rule && ((g, x, y, axes, ops) => rule(g, x, y, axes, ops, values)),
  );
  return y;
}

function ddofOf(op: string, options: VarOptions): number {
  const ddof = options.ddof ?? 0;
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
 * console.log(ga.sum(x), ga.sum(x, 0).get()); // 10 Float32Array [4, 6]
 * const rows = x.sum({ axis: 1, keepdims: true }); // shape [2, 1]; also x.sum(1, { keepdims: true })
 * ```
 */
export function sum<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, SumValue<D>, SumType<D>>;
/** `sum` along an axis given by position (`sum(a, 0)`, `sum(a, 1, { keepdims: true })`): an array. */
export function sum<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<SumType<D>>;
export function sum(a: GPUArray, ...args: unknown[]): unknown {
  return run("sum", a, args);
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
): Reduced<O, SumValue<D>, SumType<D>>;
/** `prod` along an axis given by position (`prod(a, 0)`, `prod(a, 1, { keepdims: true })`): an array. */
export function prod<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<SumType<D>>;
export function prod(a: GPUArray, ...args: unknown[]): unknown {
  return run("prod", a, args);
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
): Reduced<O, number, MeanType<D>>;
/** `mean` along an axis given by position (`mean(a, 0)`, `mean(a, 1, { keepdims: true })`): an array. */
export function mean<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<MeanType<D>>;
export function mean(a: GPUArray, ...args: unknown[]): unknown {
  return run("mean", a, args);
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
): Reduced<O, HostValue<D>, D>;
/** `min` along an axis given by position (`min(a, 0)`, `min(a, 1, { keepdims: true })`): an array. */
export function min<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<D>;
export function min(a: GPUArray, ...args: unknown[]): unknown {
  return run("min", a, args);
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
): Reduced<O, HostValue<D>, D>;
/** `max` along an axis given by position (`max(a, 0)`, `max(a, 1, { keepdims: true })`): an array. */
export function max<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<D>;
export function max(a: GPUArray, ...args: unknown[]): unknown {
  return run("max", a, args);
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
): Reduced<O, HostValue<D>, D>;
/** `ptp` along an axis given by position (`ptp(a, 0)`, `ptp(a, 1, { keepdims: true })`): an array. */
export function ptp<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<D>;
export function ptp(a: GPUArray, ...args: unknown[]): unknown {
  return run("ptp", a, args);
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
): Reduced<O, number, "int64">;
/** `argmin` along an axis given by position (`argmin(a, 0)`, `argmin(a, 1, { keepdims: true })`): an array. */
export function argmin(a: GPUArray, axis: number, options?: AfterAxis<ReduceOptions>): GPUArray<"int64">;
export function argmin(a: GPUArray, ...args: unknown[]): unknown {
  return run("argmin", a, args);
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
): Reduced<O, number, "int64">;
/** `argmax` along an axis given by position (`argmax(a, 0)`, `argmax(a, 1, { keepdims: true })`): an array. */
export function argmax(a: GPUArray, axis: number, options?: AfterAxis<ReduceOptions>): GPUArray<"int64">;
export function argmax(a: GPUArray, ...args: unknown[]): unknown {
  return run("argmax", a, args);
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
): Reduced<O, boolean, "bool">;
/** `any` along an axis given by position (`any(a, 0)`, `any(a, 1, { keepdims: true })`): an array. */
export function any(a: GPUArray, axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<"bool">;
export function any(a: GPUArray, ...args: unknown[]): unknown {
  return run("any", a, args);
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
): Reduced<O, boolean, "bool">;
/** `all` along an axis given by position (`all(a, 0)`, `all(a, 1, { keepdims: true })`): an array. */
export function all(a: GPUArray, axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<"bool">;
export function all(a: GPUArray, ...args: unknown[]): unknown {
  return run("all", a, args);
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
): Reduced<O, number, MeanType<D>>;
/** `var` along an axis given by position (`var(a, 0)`, `var(a, 1, { ddof: 1 })`): an array. */
function variance<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<VarOptions>,
): GPUArray<MeanType<D>>;
function variance(a: GPUArray, ...args: unknown[]): unknown {
  return run("var", a, args);
}
export { variance as var };

/**
 * The standard deviation, the square root of the variance (`var`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.random.normal([100, 8], { seed: 1 });
 * const z = x.sub(ga.mean(x, 0, { keepdims: true })).div(ga.std(x, 0, { keepdims: true }));
 * ```
 */
export function std<D extends DType, O extends VarOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>>;
/** `std` along an axis given by position (`std(a, 0)`, `std(a, 1, { keepdims: true })`): an array. */
export function std<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<VarOptions>,
): GPUArray<MeanType<D>>;
export function std(a: GPUArray, ...args: unknown[]): unknown {
  return run("std", a, args);
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
): Reduced<O, number, "int64">;
/** `countNonzero` along an axis given by position (`countNonzero(a, 0)`, `countNonzero(a, 1, { keepdims: true })`): an array. */
export function countNonzero(
  a: GPUArray,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<"int64">;
export function countNonzero(a: GPUArray, ...args: unknown[]): unknown {
  return run("countNonzero", a, args);
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
): Reduced<O, SumValue<D>, SumType<D>>;
/** `nansum` along an axis given by position (`nansum(a, 0)`, `nansum(a, 1, { keepdims: true })`): an array. */
export function nansum<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<SumType<D>>;
export function nansum(a: GPUArray, ...args: unknown[]): unknown {
  return run("nansum", a, args);
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
): Reduced<O, number, MeanType<D>>;
/** `nanmean` along an axis given by position (`nanmean(a, 0)`, `nanmean(a, 1, { keepdims: true })`): an array. */
export function nanmean<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<MeanType<D>>;
export function nanmean(a: GPUArray, ...args: unknown[]): unknown {
  return run("nanmean", a, args);
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
): Reduced<O, HostValue<D>, D>;
/** `nanmin` along an axis given by position (`nanmin(a, 0)`, `nanmin(a, 1, { keepdims: true })`): an array. */
export function nanmin<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<D>;
export function nanmin(a: GPUArray, ...args: unknown[]): unknown {
  return run("nanmin", a, args);
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
): Reduced<O, HostValue<D>, D>;
/** `nanmax` along an axis given by position (`nanmax(a, 0)`, `nanmax(a, 1, { keepdims: true })`): an array. */
export function nanmax<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<D>;
export function nanmax(a: GPUArray, ...args: unknown[]): unknown {
  return run("nanmax", a, args);
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
): Reduced<O, number, MeanType<D>>;
/** `logsumexp` along an axis given by position (`logsumexp(a, 0)`, `logsumexp(a, 1, { keepdims: true })`): an array. */
export function logsumexp<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<MeanType<D>>;
export function logsumexp(a: GPUArray, ...args: unknown[]): unknown {
  return run("logsumexp", a, args);
}
