/**
 * `median` and `nanmedian`, NumPy style: the rows along the axis sorted (the radix sort: NaN last),
 * then the mean of the two middle elements (of each row's numbers, for `nanmedian`, whose middle is
 * gathered per row).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { type AfterAxis, AXES, type AxisArg, optionsOf } from "../core/axis_args.ts";
import { astype, fill } from "../ops/assign.ts";
import { checkReal, sort } from "../ops/sorting.ts";
import { countNonzero } from "../api/reductions.ts";
import { where } from "../ops/ufunc.ts";
import { add, eq, floor, isnan, logicalNot, maximum, mul, sub } from "../api/elementwise.ts";
import { along, pick, pickEach } from "./along.ts";
import { finish, withNan } from "./quantile.ts";

const isFloat = (d: DType) => DTYPES[d].kind === "float";

/**
 * Options of {@link median} and {@link nanmedian}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.MedianOptions = { axis: 1, keepdims: true };
 * ```
 */
export interface MedianOptions {
  /** The axis (a number) or axes (a list); absent: the flattened array. Also by position. Default: the flattened array. */
  readonly axis?: AxisArg;
  /** Keep the reduced axes with extent 1. Default false. */
  readonly keepdims?: boolean;
}

/** The mean of the two middle elements `lo` and `hi` (one element twice for an odd row), as NumPy's `mean` of them. */
function middle(lo: GPUArray, hi: GPUArray, same: GPUArray | boolean): GPUArray {
  const out: DType = isFloat(lo.dtype) ? lo.dtype : "float64";
  if (same === true) return astype(lo, out);
  const dtype: DType = lo.dtype === "float16" || lo.dtype === "bfloat16" ? "float32" : out;
  using x = astype(lo, dtype), y = astype(hi, dtype);
  using total = add(x, y);
  using mean = mul(total, 0.5);
  if (same === false) return astype(mean, out);
  using chosen = where(same, x, mean);
  return astype(chosen, out);
}

function medianOf(a: GPUArray, args: readonly unknown[], nan: boolean): unknown {
  const what = nan ? "nanmedian" : "median";
  checkReal(a, `take the ${what} of`);
  const o = optionsOf<MedianOptions>(what, args, [AXES], ["axis", "keepdims"], "{ axis: 0 }");
  const keepdims = o.keepdims === true;
  const rows = along(a, o.axis, what);
  const { x, ax } = rows;
  const n = x.shape[ax]!;
  const rowShape = x.shape.filter((_, d) => d !== ax);
  let r: GPUArray;
  if (n === 0) r = fill(new GPUArray(a.backend, rowShape, isFloat(a.dtype) ? a.dtype : "float64"), NaN);
  else {
    using s = sort(x, ax);
    if (nan && isFloat(a.dtype)) {
      using ok = logicalNot(isnan(x));
      using count = countNonzero(ok, ax);
      using none = eq(count, 0);
      using c = maximum(count, 1), top = sub(c, 1);
      using half = floorDivide2(top);
      using hiIdx = sub(top, half);
      using lo = pickEach(s, ax, half, what), hi = pickEach(s, ax, hiIdx, what);
      using same = eq(half, hiIdx);
      using m = middle(lo, hi, same);
      r = where(none, NaN, m);
    } else {
      using lo = pick(s, ax, Math.floor((n - 1) / 2)), hi = pick(s, ax, Math.ceil((n - 1) / 2));
      using last = isFloat(a.dtype) ? pick(s, ax, n - 1) : undefined;
      using bad = last === undefined ? undefined : isnan(last);
      r = withNan(middle(lo, hi, n % 2 === 1), bad);
    }
  }
  if (x !== a) x.free();
  return finish(r, 0, rows, keepdims, true);
}

/** `floor(x / 2)` of a non-negative int64 array. */
function floorDivide2(x: GPUArray): GPUArray {
  using f = astype(x, "float64");
  using h = mul(f, 0.5);
  using fl = floor(h);
  return astype(fl, "int64");
}

/**
 * The median of `a` (NumPy's `median`): along an axis or axes (by position or `{ axis }`), or of the
 * flattened array as a host number. The mean of the two middle elements of an even row; a row with a
 * NaN gives NaN; an empty one NaN. Floats keep their dtype, integers give float64.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[10, 7, 4], [3, 2, 1]]);
 * console.log(ga.median(x)); // 3.5
 * console.log(ga.median(x, 0).get()); // Float32Array [6.5, 4.5, 2.5]
 * ```
 */
export function median<O extends MedianOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): O extends { axis: AxisArg } | { keepdims: true } ? GPUArray : number;
/** `median` along an axis given by position: an array. */
export function median(a: GPUArray, axis: AxisArg, options?: AfterAxis<MedianOptions>): GPUArray;
export function median(a: GPUArray, ...args: unknown[]): unknown {
  return medianOf(a, args, false);
}

/**
 * {@link median} with NaNs skipped (NumPy's `nanmedian`): a row of NaNs only gives NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanmedian(ga.asarray([NaN, 4, 1, 2]))); // 2
 * ```
 */
export function nanmedian<O extends MedianOptions = Record<never, never>>(
  a: GPUArray,
  options?: O,
): O extends { axis: AxisArg } | { keepdims: true } ? GPUArray : number;
/** `nanmedian` along an axis given by position: an array. */
export function nanmedian(a: GPUArray, axis: AxisArg, options?: AfterAxis<MedianOptions>): GPUArray;
export function nanmedian(a: GPUArray, ...args: unknown[]): unknown {
  return medianOf(a, args, true);
}
