/**
 * Order statistics, NumPy style: `median`, `quantile`, `percentile` and their `nan` forms. Each sorts
 * the rows along the axis (the radix sort: NaN last) and reads the elements the quantile falls
 * between. Every row of `quantile` has the same length, so its indices and weights are host numbers
 * and the elements are views; the `nan` forms count each row's numbers, and compute each row's
 * indices and weights on the device and gather (NumPy's per-row `_nanquantile_1d`).
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { type AfterAxis, AXES, type AxisArg, optionsOf } from "../core/axis_args.ts";
import { astype, fill } from "../ops/assign.ts";
import { sort } from "../ops/sorting.ts";
import { countNonzero } from "../api/reductions.ts";
import { where } from "../ops/ufunc.ts";
import { add, ceil, eq, floor, ge, isnan, logicalNot, maximum, mul, rint, sub } from "../api/elementwise.ts";
import { stack } from "./join.ts";
import { type Along, along, pick, pickEach, shaped } from "./along.ts";
import { checkReal } from "../ops/sorting.ts";

/**
 * How a quantile between two elements is taken (NumPy's `method`): `"linear"` interpolates (the
 * default), `"lower"` and `"higher"` take the element below or above, `"nearest"` the nearer one
 * (halves to the even index), `"midpoint"` the mean of the two.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const method: ga.QuantileMethod = "midpoint";
 * console.log(ga.quantile(ga.asarray([1, 2, 3, 4]), 0.5, { method })); // 2.5
 * ```
 */
export type QuantileMethod = "linear" | "lower" | "higher" | "nearest" | "midpoint";

const METHODS: readonly QuantileMethod[] = ["linear", "lower", "higher", "nearest", "midpoint"];

/**
 * Options of {@link quantile}, {@link percentile} and their `nan` forms.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.QuantileOptions = { axis: 0, method: "lower", keepdims: true };
 * const q = ga.quantile(ga.asarray([[1, 2], [3, 4]]), 0.5, options); // shape [1, 2]
 * ```
 */
export interface QuantileOptions {
  /** The axis (a number) or axes (a list) along which to take it; absent: the flattened array. Also by position. Default: the flattened array. */
  readonly axis?: AxisArg;
  /** How to take a quantile between two elements (default `"linear"`). */
  readonly method?: QuantileMethod;
  /** Keep the reduced axes with extent 1. Default false. */
  readonly keepdims?: boolean;
}

/**
 * A quantile on the host: a number, or a bigint where a 64-bit integer array gives one of its own
 * elements (`lower`, `higher`, `nearest`).
 *
 * @example
 * ```ts
 * import type { QuantileValue } from "@cudeno/cudeno/array";
 * const v: QuantileValue<"float32"> = 2.5;
 * ```
 */
export type QuantileValue<D extends DType> = D extends "int64" | "uint64" ? number | bigint : number;

/**
 * What {@link quantile} returns for one quantile and options `O`: an array along an axis or with
 * `keepdims`, else the host value.
 *
 * @example
 * ```ts
 * import type { QuantileResult } from "@cudeno/cudeno/array";
 * const v: QuantileResult<{}, "float32"> = 2.5;
 * ```
 */
export type QuantileResult<O, D extends DType> = O extends { axis: AxisArg } | { keepdims: true } ? GPUArray
  : QuantileValue<D>;

const isFloat = (d: DType) => DTYPES[d].kind === "float";

/** Where a quantile falls in a sorted row of `n` (NumPy's `_get_indexes` and `_get_gamma`). */
interface Place {
  readonly prev: number;
  readonly next: number;
  /** The interpolation weight; undefined where the method takes element `prev` as it is. */
  readonly gamma?: number;
}

function placeOf(n: number, q: number, method: QuantileMethod): Place {
  const v0 = (n - 1) * q;
  if (method === "lower" || method === "higher" || method === "nearest") {
    const i = method === "lower" ? Math.floor(v0) : method === "higher" ? Math.ceil(v0) : roundHalfEven(v0);
    return { prev: i, next: i };
  }
  const v = method === "linear" ? v0 : 0.5 * (Math.floor(v0) + Math.ceil(v0));
  let prev = Math.floor(v), next = prev + 1;
  if (v >= n - 1) prev = next = -1;
  if (v < 0) prev = next = 0;
  const gamma = method === "linear" ? v - prev : v % 1 === 0 ? 0 : 0.5;
  return { prev: prev < 0 ? n - 1 : prev, next: next < 0 ? n - 1 : next, gamma };
}

function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * NumPy's `_lerp(a, b, t)`: `a + (b - a)·t`, or `b - (b - a)·(1 - t)` where `t >= 0.5`. `b - a` is
 * taken in the elements' dtype; `wide` computes the rest in float64 (a list of quantiles, as NumPy's
 * non-weak `q`). Integer elements are converted to float64 first.
 */
function lerp(a: GPUArray, b: GPUArray, t: number | GPUArray, wide: boolean): GPUArray {
  const float = isFloat(a.dtype), widen = wide && a.dtype !== "float64";
  using a0 = float ? undefined : astype(a, "float64"), b0 = float ? undefined : astype(b, "float64");
  using d0 = sub(b0 ?? b, a0 ?? a);
  using a1 = widen ? astype(a, "float64") : undefined, b1 = widen ? astype(b, "float64") : undefined;
  using d1 = widen ? astype(d0, "float64") : undefined;
  const x = a1 ?? a0 ?? a, y = b1 ?? b0 ?? b, diff = d1 ?? d0;
  if (typeof t === "number") {
    using step = mul(diff, t >= 0.5 ? 1 - t : t);
    return t >= 0.5 ? sub(y, step) : add(x, step);
  }
  const tt = wide ? t : astype(t, diff.dtype);
  using rest64 = sub(1, t);
  const rest = wide ? rest64 : astype(rest64, diff.dtype);
  using up = mul(diff, tt), down = mul(diff, rest);
  using low = add(x, up), high = sub(y, down), upper = ge(t, 0.5);
  if (tt !== t) tt.free();
  if (rest !== rest64) rest.free();
  return where(upper, high, low);
}

function checkQ(q: unknown, scale: number, what: string): number[] {
  const list = typeof q === "number" ? [q] : Array.isArray(q) ? q : undefined;
  if (list === undefined || list.some((v) => typeof v !== "number")) {
    const shown = typeof q === "object" && q !== null && !Array.isArray(q)
      ? "an object"
      : JSON.stringify(q) ?? String(q);
    throw new TypeError(`Cannot ${what} with q ${shown}: give a number or a list of numbers`);
  }
  return list.map((v: number) => {
    if (!(v >= 0 && v <= scale)) {
      throw new RangeError(`Cannot ${what} with q ${v}: it must be in [0, ${scale}]`);
    }
    return v / scale;
  });
}

function optionsFor(what: string, args: readonly unknown[]): QuantileOptions {
  const o = optionsOf<QuantileOptions>(what, args, [AXES], ["axis", "method", "keepdims"], "{ axis: 0 }");
  if (o.method !== undefined && !METHODS.includes(o.method)) {
    throw new TypeError(`Cannot ${what} with method "${o.method}": use one of ${METHODS.join(", ")}`);
  }
  return o;
}

/** `r` as the caller gets it: a host value for one quantile of the whole array, else the array. */
export function finish(r: GPUArray, lead: number, rows: Along, keepdims: boolean, scalar: boolean): unknown {
  if (rows.whole && !keepdims && scalar) {
    using one = r;
    const v = one.item();
    return typeof v === "boolean" ? Number(v) : v;
  }
  return shaped(r, lead, rows, keepdims);
}

/** The quantiles `qs` of rows with no NaN skipped: one array per quantile, of the rows' shape. */
function quantileRows(s: GPUArray, ax: number, qs: number[], method: QuantileMethod, wide: boolean) {
  const n = s.shape[ax]!;
  using last = isFloat(s.dtype) ? pick(s, ax, n - 1) : undefined;
  using hasNan = last === undefined ? undefined : isnan(last);
  return qs.map((q) => {
    const p = placeOf(n, q, method);
    using lo = pick(s, ax, p.prev), hi = pick(s, ax, p.next);
    return withNan(p.gamma === undefined ? lo.copy() : lerp(lo, hi, p.gamma, wide), hasNan);
  });
}

/** The quantiles `qs` of the numbers of each row, NaN skipped (`s` sorted, `count` each row's numbers). */
function nanQuantileRows(
  s: GPUArray,
  ax: number,
  count: GPUArray,
  qs: number[],
  method: QuantileMethod,
  wide: boolean,
) {
  const what = "nanquantile";
  using c = astype(count, "float64");
  using top = sub(c, 1);
  using none = eq(count, 0);
  return qs.map((q) => {
    using v0 = mul(top, q);
    if (method === "lower" || method === "higher" || method === "nearest") {
      using f = method === "lower" ? floor(v0) : method === "higher" ? ceil(v0) : rint(v0);
      using i = maximum(f, 0), idx = astype(i, "int64");
      using r = pickEach(s, ax, idx, what);
      return where(none, NaN, r);
    }
    using fl = floor(v0), ce = ceil(v0), mid0 = add(fl, ce);
    using v = method === "linear" ? v0.copy() : mul(mid0, 0.5);
    using fv = floor(v), above = ge(v, top);
    using prevF = where(above, -1, fv);
    using last = maximum(top, 0), nextF = add(fv, 1);
    using prevI = where(above, last, maximum(fv, 0)), nextI = where(above, last, nextF);
    using prev = astype(prevI, "int64"), next = astype(nextI, "int64");
    using whole = eq(v, fv);
    using gamma = method === "linear" ? sub(v, prevF) : where(whole, 0, 0.5);
    using lo = pickEach(s, ax, prev, what), hi = pickEach(s, ax, next, what);
    using r = lerp(lo, hi, gamma, wide);
    return where(none, NaN, r);
  });
}

function quantileOf(
  a: GPUArray,
  q: unknown,
  args: readonly unknown[],
  scale: number,
  nan: boolean,
  what: string,
) {
  checkReal(
    a,
    what === "percentile" || what === "nanpercentile" ? "take the percentile of" : `take the ${what} of`,
  );
  const qs = checkQ(q, scale, what);
  const o = optionsFor(what, args);
  const method = o.method ?? "linear", keepdims = o.keepdims === true;
  const scalar = typeof q === "number";
  const rows = along(a, o.axis, what);
  const { x, ax } = rows;
  const n = x.shape[ax]!;
  const skip = nan && isFloat(a.dtype);
  if (n === 0 && !skip) {
    if (x !== a) x.free();
    throw new RangeError(
      `Cannot take the ${what} of an empty ${rows.whole ? "array" : `axis`} (shape ${
        showShape(a.shape)
      }): it has no elements`,
    );
  }
  const wide = !scalar || !isFloat(a.dtype);
  const rowShape = x.shape.filter((_, d) => d !== ax);
  let results: GPUArray[];
  if (n === 0) {
    const dtype = method === "lower" || method === "higher" || method === "nearest"
      ? a.dtype
      : wide
      ? "float64"
      : a.dtype;
    results = qs.map(() => fill(new GPUArray(a.backend, rowShape, dtype), NaN));
  } else {
    using s = sort(x, ax);
    if (skip) {
      using ok = logicalNot(isnan(x));
      using count = countNonzero(ok, ax);
      results = nanQuantileRows(s, ax, count, qs, method, wide);
    } else results = quantileRows(s, ax, qs, method, wide);
  }
  if (x !== a) x.free();
  if (scalar) return finish(results[0]!, 0, rows, keepdims, true);
  const r = stack(results);
  for (const part of results) part.free();
  return finish(r, 1, rows, keepdims, false);
}

/**
 * The `q`-th quantile of `a` (NumPy's `quantile`): `q` in [0, 1], a number or a list (the result then
 * has a leading axis of the quantiles). Along an axis or axes (by position or `{ axis }`), or of the
 * flattened array: one quantile of the whole array is a host value. A row with a NaN gives NaN.
 * `method` is NumPy's (default `"linear"`). Floats keep their dtype for one quantile and give float64
 * for a list (NumPy's promotion); integers give float64 (their own dtype for `lower`, `higher` and
 * `nearest`).
 *
 * @throws {RangeError} for `q` outside [0, 1] or an empty axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[10, 7, 4], [3, 2, 1]]);
 * console.log(ga.quantile(x, 0.5)); // 3.5
 * console.log(ga.quantile(x, [0.25, 0.75], 1).get()); // Float64Array [5.5, 1.5, 8.5, 2.5]
 * console.log(ga.quantile(x, 0.5, { axis: 0, method: "lower" }).get()); // Float32Array [3, 2, 1]
 * ```
 */
export function quantile<D extends DType, O extends QuantileOptions = Record<never, never>>(
  a: GPUArray<D>,
  q: number,
  options?: O,
): QuantileResult<O, D>;
/** `quantile` of several quantiles, or along an axis given by position: an array. */
export function quantile(
  a: GPUArray,
  q: number | readonly number[],
  axis?: AxisArg | QuantileOptions,
  options?: AfterAxis<QuantileOptions>,
): GPUArray;
export function quantile(a: GPUArray, q: number | readonly number[], ...args: unknown[]): unknown {
  return quantileOf(a, q, args, 1, false, "quantile");
}

/**
 * The `q`-th percentile of `a` (NumPy's `percentile`): {@link quantile} of `q / 100`, `q` in [0, 100].
 *
 * @throws {RangeError} for `q` outside [0, 100] or an empty axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.percentile(ga.arange(11), 90)); // 9
 * const p = ga.percentile(ga.ones([3, 4]), [5, 95], 1); // shape [2, 3]
 * ```
 */
export function percentile<D extends DType, O extends QuantileOptions = Record<never, never>>(
  a: GPUArray<D>,
  q: number,
  options?: O,
): QuantileResult<O, D>;
/** `percentile` of several percentiles, or along an axis given by position: an array. */
export function percentile(
  a: GPUArray,
  q: number | readonly number[],
  axis?: AxisArg | QuantileOptions,
  options?: AfterAxis<QuantileOptions>,
): GPUArray;
export function percentile(a: GPUArray, q: number | readonly number[], ...args: unknown[]): unknown {
  return quantileOf(a, q, args, 100, false, "percentile");
}

/**
 * {@link quantile} with NaNs skipped (NumPy's `nanquantile`): each row's quantile of its numbers; a
 * row of NaNs only, or an empty one, gives NaN. Integer arrays have no NaN: the same as `quantile`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, NaN, 3], [NaN, NaN, NaN]]);
 * console.log(ga.nanquantile(x, 0.5, 1).get()); // Float32Array [2, NaN]
 * ```
 */
export function nanquantile<D extends DType, O extends QuantileOptions = Record<never, never>>(
  a: GPUArray<D>,
  q: number,
  options?: O,
): QuantileResult<O, D>;
/** `nanquantile` of several quantiles, or along an axis given by position: an array. */
export function nanquantile(
  a: GPUArray,
  q: number | readonly number[],
  axis?: AxisArg | QuantileOptions,
  options?: AfterAxis<QuantileOptions>,
): GPUArray;
export function nanquantile(a: GPUArray, q: number | readonly number[], ...args: unknown[]): unknown {
  return quantileOf(a, q, args, 1, true, "nanquantile");
}

/**
 * {@link percentile} with NaNs skipped (NumPy's `nanpercentile`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.nanpercentile(ga.asarray([NaN, 1, 2, 3]), 50)); // 2
 * ```
 */
export function nanpercentile<D extends DType, O extends QuantileOptions = Record<never, never>>(
  a: GPUArray<D>,
  q: number,
  options?: O,
): QuantileResult<O, D>;
/** `nanpercentile` of several percentiles, or along an axis given by position: an array. */
export function nanpercentile(
  a: GPUArray,
  q: number | readonly number[],
  axis?: AxisArg | QuantileOptions,
  options?: AfterAxis<QuantileOptions>,
): GPUArray;
export function nanpercentile(a: GPUArray, q: number | readonly number[], ...args: unknown[]): unknown {
  return quantileOf(a, q, args, 100, true, "nanpercentile");
}

/** `r` (freed) with NaN in the rows where `bad` holds; `r` itself where there is no `bad`. */
export function withNan(r: GPUArray, bad: GPUArray | undefined): GPUArray {
  if (bad === undefined) return r;
  using owned = r;
  return where(bad, NaN, owned);
}
