/**
 * NumPy's `nan` functions that the reductions' table does not hold — `nanvar`, `nanstd`, `nanprod`,
 * `nancumsum`, `nancumprod`, `nanargmin`, `nanargmax` — as composites: the NaNs are replaced by the
 * operation's identity (or masked out of the counts) and the plain reduction or scan runs. Integer
 * and bool arrays have no NaN: they run the plain function.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import { type AfterAxis, AXES, AXIS, type AxisArg, optionsOf } from "../core/axis_args.ts";
import type {
  ArgOptions,
  MeanType,
  Reduced,
  ReduceOptions,
  SumType,
  VarOptions,
} from "../ops/reduction_types.ts";
import type { SumValue } from "../core/methods.ts";
import {
  all,
  any,
  argmax,
  argmin,
  countNonzero,
  prod,
  std,
  sum,
  var as variance,
} from "../api/reductions.ts";
import { cumprod, cumsum, type ScanOptions } from "../ops/scan.ts";
import { astype } from "../ops/assign.ts";
import { where } from "../ops/ufunc.ts";
import { div, isnan, le, logicalNot, mul, sqrt, sub } from "../api/elementwise.ts";
import { checkReal } from "../ops/sorting.ts";

const isFloat = (d: DType) => DTYPES[d].kind === "float";

/** `a` with its NaNs replaced by `value` (freed by the caller). */
function replaced(a: GPUArray, value: number): GPUArray {
  using mask = isnan(a);
  return where(mask, value, a);
}

function varianceOf(a: GPUArray, args: readonly unknown[], what: "nanvar" | "nanstd"): unknown {
  checkReal(a, `take the ${what} of`);
  const o = optionsOf<VarOptions>(what, args, [AXES], ["axis", "keepdims", "ddof"], "{ axis: 0 }");
  if (!isFloat(a.dtype)) return (what === "nanvar" ? variance : std)(a, o);
  const ddof = o.ddof ?? 0;
  if (typeof ddof !== "number" || !Number.isFinite(ddof)) {
    throw new TypeError(`Cannot ${what} with ddof ${String(ddof)}: pass a finite number`);
  }
  const axes = normalizeAxes(o.axis, a.ndim, what);
  const reduce = { axis: axes, keepdims: true };
  const wide: DType = a.dtype === "float16" || a.dtype === "bfloat16" ? "float32" : a.dtype;
  using x = astype(a, wide);
  using mask = isnan(x), ok = logicalNot(mask);
  using count = countNonzero(ok, reduce);
  using n = astype(count, wide);
  using zeroed = where(mask, 0, x);
  using total = sum(zeroed, reduce);
  using mean = div(total, n);
  using centred = sub(x, mean);
  using dev = where(mask, 0, centred);
  using sq = mul(dev, dev);
  using ss = sum(sq, { axis: axes, keepdims: o.keepdims === true });
  using dof0 = sub(n, ddof);
  using dof = o.keepdims === true || axes.length === 0 ? dof0.copy() : dof0.squeeze(axes);
  using v = div(ss, dof);
  using bad = le(dof, 0);
  using v1 = where(bad, NaN, v);
  using r = what === "nanstd" ? sqrt(v1) : v1.copy();
  const out = astype(r, a.dtype);
  if (o.axis !== undefined || o.keepdims === true) return out;
  using one = out;
  return one.item();
}

/**
 * The variance of the elements that are not NaN (NumPy's `nanvar`): along axes (by position or
 * `{ axis }`), or of all of them as a host number. `ddof` as {@link variance}'s; a slice with no more
 * than `ddof` numbers gives NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanvar(ga.asarray([1, NaN, 3]))); // 1
 * const v = ga.nanvar(ga.asarray([[1, NaN], [2, 4]]), 1, { ddof: 1 }); // [NaN, 2]
 * ```
 */
export function nanvar<D extends DType, O extends VarOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>>;
/** `nanvar` along an axis given by position: an array. */
export function nanvar<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<VarOptions>,
): GPUArray<MeanType<D>>;
export function nanvar(a: GPUArray, ...args: unknown[]): unknown {
  return varianceOf(a, args, "nanvar");
}

/**
 * The standard deviation of the elements that are not NaN (NumPy's `nanstd`): the square root of
 * {@link nanvar}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanstd(ga.asarray([1, NaN, 3]))); // 1
 * ```
 */
export function nanstd<D extends DType, O extends VarOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>>;
/** `nanstd` along an axis given by position: an array. */
export function nanstd<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<VarOptions>,
): GPUArray<MeanType<D>>;
export function nanstd(a: GPUArray, ...args: unknown[]): unknown {
  return varianceOf(a, args, "nanstd");
}

/**
 * The product of the elements, NaNs counted as 1 (NumPy's `nanprod`), with {@link prod}'s axes,
 * options and dtypes.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanprod(ga.asarray([2, NaN, 3]))); // 6
 * ```
 */
export function nanprod<D extends DType, O extends ReduceOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, SumValue<D>, SumType<D>>;
/** `nanprod` along an axis given by position: an array. */
export function nanprod<D extends DType>(
  a: GPUArray<D>,
  axis: AxisArg,
  options?: AfterAxis<ReduceOptions>,
): GPUArray<SumType<D>>;
export function nanprod(a: GPUArray, ...args: unknown[]): unknown {
  checkReal(a, "take the nanprod of");
  if (!isFloat(a.dtype)) return (prod as (a: GPUArray, ...r: unknown[]) => unknown)(a, ...args);
  using x = replaced(a, 1);
  return (prod as (a: GPUArray, ...r: unknown[]) => unknown)(x, ...args);
}

/**
 * The cumulative sum, NaNs counted as 0 (NumPy's `nancumsum`), with {@link cumsum}'s axis, options
 * and dtypes.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nancumsum(ga.asarray([1, NaN, 2])).get()); // Float32Array [1, 1, 3]
 * ```
 */
export function nancumsum<D extends DType>(a: GPUArray<D>, options?: ScanOptions): GPUArray<SumType<D>>;
/** `nancumsum` along an axis given by position. */
export function nancumsum<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<ScanOptions>,
): GPUArray<SumType<D>>;
export function nancumsum(a: GPUArray, ...args: unknown[]): GPUArray {
  checkReal(a, "take the nancumsum of");
  const scan = cumsum as (a: GPUArray, ...r: unknown[]) => GPUArray;
  if (!isFloat(a.dtype)) return scan(a, ...args);
  using x = replaced(a, 0);
  return scan(x, ...args);
}

/**
 * The cumulative product, NaNs counted as 1 (NumPy's `nancumprod`), with {@link cumprod}'s axis,
 * options and dtypes.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nancumprod(ga.asarray([2, NaN, 3])).get()); // Float32Array [2, 2, 6]
 * ```
 */
export function nancumprod<D extends DType>(a: GPUArray<D>, options?: ScanOptions): GPUArray<SumType<D>>;
/** `nancumprod` along an axis given by position. */
export function nancumprod<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<ScanOptions>,
): GPUArray<SumType<D>>;
export function nancumprod(a: GPUArray, ...args: unknown[]): GPUArray {
  checkReal(a, "take the nancumprod of");
  const scan = cumprod as (a: GPUArray, ...r: unknown[]) => GPUArray;
  if (!isFloat(a.dtype)) return scan(a, ...args);
  using x = replaced(a, 1);
  return scan(x, ...args);
}

function argOf(a: GPUArray, args: readonly unknown[], what: "nanargmax" | "nanargmin"): unknown {
  checkReal(a, `take the ${what} of`);
  const o = optionsOf<ArgOptions>(what, args, [AXIS], ["axis", "keepdims", "out"], "{ axis: 0 }");
  const plain = (what === "nanargmax" ? argmax : argmin) as (a: GPUArray, o: ArgOptions) => unknown;
  if (!isFloat(a.dtype)) return plain(a, o);
  using mask = isnan(a);
  const allNan = o.axis === undefined ? a.size > 0 && (all(mask) as boolean) : (() => {
    using each = all(mask, o.axis!);
    return any(each) as boolean;
  })();
  if (allNan) {
    throw new RangeError(
      `Cannot ${what}: ${
        o.axis === undefined ? "every element is NaN" : `a slice along axis ${o.axis} is all NaN`
      }, so it has no ${what === "nanargmax" ? "largest" : "smallest"} number`,
    );
  }
  using x = where(mask, what === "nanargmax" ? -Infinity : Infinity, a);
  return plain(x, o);
}

/**
 * The index of the largest element that is not NaN (NumPy's `nanargmax`): along an axis (by position
 * or `{ axis }`), or into the flattened array as a host number.
 *
 * @throws {RangeError} where a slice is all NaN (NumPy's "All-NaN slice encountered"), or empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanargmax(ga.asarray([1, NaN, 3, 2]))); // 2
 * ```
 */
export function nanargmax<O extends ArgOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, number, "int64">;
/** `nanargmax` along an axis given by position: an array. */
export function nanargmax(a: GPUArray, axis: number, options?: AfterAxis<ArgOptions>): GPUArray<"int64">;
export function nanargmax(a: GPUArray, ...args: unknown[]): unknown {
  return argOf(a, args, "nanargmax");
}

/**
 * The index of the smallest element that is not NaN (NumPy's `nanargmin`).
 *
 * @throws {RangeError} where a slice is all NaN, or empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanargmin(ga.asarray([[NaN, 4], [2, 3]]), 1).get()); // BigInt64Array [1n, 0n]
 * ```
 */
export function nanargmin<O extends ArgOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): Reduced<O, number, "int64">;
/** `nanargmin` along an axis given by position: an array. */
export function nanargmin(a: GPUArray, axis: number, options?: AfterAxis<ArgOptions>): GPUArray<"int64">;
export function nanargmin(a: GPUArray, ...args: unknown[]): unknown {
  return argOf(a, args, "nanargmin");
}
