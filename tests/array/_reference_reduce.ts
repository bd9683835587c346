/**
 * The host reference's reductions (axis, keepdims, ddof; NumPy's dtype and NaN rules), scans
 * (`cumsum`, `cumprod`, `diff`) and `softmax`/`logSoftmax`. With no axis (and no keepdims) a
 * reduction gives a host value as array-api.md says: a bigint for int64/uint64 results, a boolean
 * for any/all, else a number. Integer sums, means and variances are exact; float sums are
 * compensated float64 sums (close to exact, whatever order a device adds in), rounded once.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { fromFn, lanes, type Ref } from "./_reference.ts";
import { cast, isBig, kind, roundTo, type Value } from "./_reference_dtype.ts";
import { axesOf, axisOf, indices } from "./_reference_shape.ts";
import { mathType } from "./_reference_ufunc.ts";

/** Options of the reductions. */
export interface ReduceOptions {
  readonly axis?: number | readonly number[];
  readonly keepdims?: boolean;
  readonly ddof?: number;
}

/** A host value as array-api.md gives one: boolean for any/all, bigint for 64-bit integers, else a number. */
export type Host = number | bigint | boolean;

/** The dtype `sum` and `prod` give: narrow integers and bool accumulate in 64 bits. */
export function sumType(d: DType): DType {
  if (kind(d) === "float") return d;
  return kind(d) === "uint" ? "uint64" : "int64";
}

/** The dtype `mean`, `var`, `std` and `logsumexp` give: integers and bool give float64. */
export function meanType(d: DType): DType {
  return kind(d) === "float" ? d : "float64";
}

function host(v: Value, d: DType, bool: boolean): Host {
  if (bool) return v === 1;
  return isBig(d) ? BigInt(v) : Number(v);
}

/**
 * Reduces `a` over `options.axis` (all when absent): `fn` maps the values of each reduced group (in
 * C order of the reduced axes) to one value of `dtype`. A host result is a boolean only for `any`
 * and `all` (`boolHost`); min and max of a bool array give a number, as array-api.md words it.
 */
export function reduce(
  a: Ref,
  options: ReduceOptions,
  dtype: DType,
  fn: (values: Value[]) => Value | boolean,
  boolHost = false,
): Ref | Host {
  const { axis, keepdims = false } = options;
  const axes = axis === undefined ? [...a.shape.keys()] : axesOf(axis, a.ndim, "reduce");
  const kept = [...a.shape.keys()].filter((k) => !axes.includes(k));
  const inner = indices(axes.map((k) => a.shape[k]!));
  if (inner.length === 0) fn([]); // an empty group throws for ops with no identity, even when the result is empty
  const group = (i: readonly number[]) =>
    inner.map((r) => {
      const j = new Array<number>(a.ndim);
      kept.forEach((k, o) => (j[k] = i[keepdims ? k : o]!));
      axes.forEach((k, o) => (j[k] = r[o]!));
      return a.get(j);
    });
  const shape = keepdims ? a.shape.map((d, k) => (axes.includes(k) ? 1 : d)) : kept.map((k) => a.shape[k]!);
  const out = fromFn(dtype, shape, (i) => fn(group(i)));
  return axis === undefined && !keepdims ? host(out.get([]), dtype, boolHost) : out;
}

const isNaN = (v: Value) => typeof v === "number" && Number.isNaN(v);
const truthy = (v: Value) => v !== 0 && v !== 0n;
const f64 = (vs: Value[]) => vs.map(Number);

function empty(what: string): never {
  throw new RangeError(`Cannot take the ${what} of an empty axis: it has no identity`);
}

/** A float64 sum with Neumaier's compensation: close to the exact sum, whatever order a device adds in. */
function fsum(xs: number[]): number {
  let s = 0, c = 0;
  for (const x of xs) {
    const t = s + x;
    c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
  }
  return Number.isFinite(s) ? s + c : s;
}

/** A sum: exact for integers (wrapped by the caller), compensated float64 for floats. */
function total(vs: Value[], d: DType): Value {
  return kind(d) === "float" ? fsum(f64(vs)) : vs.reduce<bigint>((x, y) => x + BigInt(y), 0n);
}
/** The mean in float64, from the exact (integers) or compensated (floats) sum. */
function average(vs: Value[]): number {
  const exact = vs.every((v) => typeof v === "bigint" || Number.isInteger(v));
  return Number(exact ? total(vs, "int64") : total(vs, "float64")) / vs.length;
}
function product(vs: Value[], d: DType): Value {
  return kind(d) === "float"
    ? f64(vs).reduce((x, y) => x * y, 1)
    : vs.reduce<bigint>((x, y) => x * BigInt(y), 1n);
}
function extreme(vs: Value[], what: string, pick: (x: Value, y: Value) => boolean): Value {
  if (vs.length === 0) empty(what);
  const nan = vs.find(isNaN);
  return nan ?? vs.reduce((x, y) => (pick(y, x) ? y : x));
}
function argExtreme(vs: Value[], what: string, pick: (x: Value, y: Value) => boolean): number {
  if (vs.length === 0) empty(what);
  const nan = vs.findIndex(isNaN);
  if (nan >= 0) return nan;
  return vs.reduce<number>((best, y, k) => (pick(y, vs[best]!) ? k : best), 0);
}
/** The variance: exact for integers (n·Σx² − (Σx)² in bigints), two-pass compensated float64 for floats. */
function variance(vs: Value[], ddof: number): number {
  const n = vs.length, dof = Math.max(n - ddof, 0);
  if (vs.every((v) => typeof v === "bigint" || Number.isInteger(v))) {
    const s1 = total(vs, "int64") as bigint, s2 = vs.reduce<bigint>((s, v) => s + BigInt(v) ** 2n, 0n);
    return Number(BigInt(n) * s2 - s1 * s1) / (n * dof);
  }
  const mean = average(vs);
  return fsum(f64(vs).map((v) => (v - mean) ** 2)) / dof;
}

type R = (a: Ref, options?: ReduceOptions) => Ref | Host;
type Fold = (values: Value[], a: Ref, options: ReduceOptions) => Value | boolean;
const gt = (x: Value, y: Value) => x > y, lt = (x: Value, y: Value) => x < y;
const noNaN = (v: Value[]) => v.filter((x) => !isNaN(x));
const same = (d: DType) => d;

/** A reduction whose result dtype is `dtypeOf(a.dtype)` and whose groups fold with `fold`. */
function reduction(dtypeOf: (d: DType) => DType, fold: Fold, boolHost = false): R {
  return (a, options = {}) => reduce(a, options, dtypeOf(a.dtype), (v) => fold(v, a, options), boolHost);
}

export const sum: R = reduction(sumType, (v, a) => total(v, sumType(a.dtype)));
export const prod: R = reduction(sumType, (v, a) => product(v, sumType(a.dtype)));
export const mean: R = reduction(meanType, (v) => average(v));
export const min: R = reduction(same, (v) => extreme(v, "min", lt));
export const max: R = reduction(same, (v) => extreme(v, "max", gt));
/** The index of the first extreme: an int64 array with an axis, a host number (the flat index) without. */
const argReduction = (what: string, pick: (x: Value, y: Value) => boolean): R => {
  const f = reduction(() => "int64", (v) => argExtreme(v, what, pick));
  return (a, options) => {
    const r = f(a, options);
    return typeof r === "bigint" ? Number(r) : r;
  };
};
export const argmin: R = argReduction("argmin", lt);
export const argmax: R = argReduction("argmax", gt);
export const any: R = reduction(() => "bool", (v) => v.some(truthy), true);
export const all: R = reduction(() => "bool", (v) => v.every(truthy), true);
const variance_: R = reduction(meanType, (v, _, o) => variance(v, o.ddof ?? 0));
export const std: R = reduction(meanType, (v, _, o) => Math.sqrt(variance(v, o.ddof ?? 0)));
export { variance_ as var };
export const nansum: R = reduction(sumType, (v, a) => total(noNaN(v), sumType(a.dtype)));
export const nanmean: R = reduction(meanType, (v) => average(noNaN(v)));
export const nanmin: R = reduction(
  same,
  (v) => (v.length > 0 && noNaN(v).length === 0 ? NaN : extreme(noNaN(v), "nanmin", lt)),
);
export const nanmax: R = reduction(
  same,
  (v) => (v.length > 0 && noNaN(v).length === 0 ? NaN : extreme(noNaN(v), "nanmax", gt)),
);

/** The number of non-zero elements: an int64 array with an axis, a host number without. */
export function countNonzero(a: Ref, options: ReduceOptions = {}): Ref | Host {
  const r = reduce(a, options, "int64", (v) => v.filter(truthy).length);
  return typeof r === "bigint" ? Number(r) : r;
}

/** `max - min` in the dtype (integers wrap); bool: TypeError, as NumPy. */
export function ptp(a: Ref, options: ReduceOptions = {}): Ref | Host {
  if (a.dtype === "bool") throw new TypeError("Cannot take ptp of a bool array");
  return reduce(a, options, a.dtype, (v) => {
    const [hi, lo] = [extreme(v, "ptp", gt), extreme(v, "ptp", lt)];
    return kind(a.dtype) === "float" ? roundTo(a.dtype, Number(hi) - Number(lo)) : BigInt(hi) - BigInt(lo);
  });
}

/** `log(sum(exp(x)))`, shifted by the finite maximum (SciPy's rule); empty: -inf. */
export const logsumexp: R = reduction(meanType, (v) => {
  const x = f64(v), m = Math.max(...x);
  const shift = Number.isFinite(m) ? m : 0;
  return Math.log(x.reduce((s, y) => s + Math.exp(y - shift), 0)) + shift;
});

// ---- scans and softmax ------------------------------------------------------------------------------

function scan(a: Ref, axis: number | undefined, step: (acc: Value, x: Value) => Value, start: Value): Ref {
  if (axis === undefined) return scan(a.ravel(), 0, step, start);
  const d = sumType(a.dtype);
  return lanes(a, axis, d, (lane) => {
    let acc = start;
    return lane.map((x) => (acc = cast(step(acc, x), d)));
  });
}

/** Running sums along `axis` (no axis: of the flattened array); the dtype is `sum`'s. */
export function cumsum(a: Ref, options: { axis?: number } = {}): Ref {
  const big = kind(sumType(a.dtype)) !== "float";
  return scan(a, options.axis, (s, x) => (big ? BigInt(s) + BigInt(x) : Number(s) + Number(x)), big ? 0n : 0);
}
/** Running products along `axis`. */
export function cumprod(a: Ref, options: { axis?: number } = {}): Ref {
  const big = kind(sumType(a.dtype)) !== "float";
  return scan(a, options.axis, (s, x) => (big ? BigInt(s) * BigInt(x) : Number(s) * Number(x)), big ? 1n : 1);
}

/** The n-th difference along `axis` (bool: `!=`, as NumPy). */
export function diff(a: Ref, options: { n?: number; axis?: number } = {}): Ref {
  const { n = 1, axis = -1 } = options;
  if (a.ndim === 0) throw new RangeError("Cannot diff a 0-d array");
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`Cannot diff with order ${n}`);
  const d = a.dtype;
  const once = (x: Value[]) =>
    x.slice(1).map((v, k) =>
      d === "bool" ? v !== x[k] : kind(d) === "float" ? Number(v) - Number(x[k]) : BigInt(v) - BigInt(x[k]!)
    ).map((v) => cast(v, d));
  return lanes(a, axis, d, (lane) => {
    let x = lane;
    for (let k = 0; k < n; k++) x = once(x);
    return x;
  }, Math.max(0, a.shape[axisOf(axis, a.ndim, "diff")]! - n));
}

function softLanes(a: Ref, axis: number, log: boolean): Ref {
  return lanes(a, axis, mathType(a.dtype), (lane) => {
    const x = f64(lane), m = Math.max(...x);
    const s = x.reduce((acc, v) => acc + Math.exp(v - m), 0);
    return x.map((v) => (log ? v - m - Math.log(s) : Math.exp(v - m) / s));
  });
}
/** `exp(x - max) / sum(exp(x - max))` along `axis`. */
export function softmax(a: Ref, options: { axis?: number } = {}): Ref {
  return softLanes(a, options.axis ?? -1, false);
}
/** `x - max - log(sum(exp(x - max)))` along `axis`. */
export function logSoftmax(a: Ref, options: { axis?: number } = {}): Ref {
  return softLanes(a, options.axis ?? -1, true);
}
