/**
 * Weighted means and second moments, NumPy style: `average`, `cov` and `corrcoef`, as composites of
 * the elementwise functions, the reductions and `matmul`.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes, showShape } from "../core/layout.ts";
import { type AfterAxis, AXES, type AxisArg, optionsOf } from "../core/axis_args.ts";
import { resultType } from "../core/dtypes.ts";
import { checkOptions } from "../../kernel/options.ts";
import { any, mean, sum } from "../api/reductions.ts";
import { astype, fill } from "../ops/assign.ts";
import { broadcastTo, diagonal, reshape, transpose } from "../ops/views.ts";
import { matmul } from "../ops/matmul.ts";
import { clip } from "../ops/ufunc.ts";
import { div, eq, lt, mul, ne, rint, sqrt, sub } from "../api/elementwise.ts";
import { concatenate } from "./join.ts";
import { checkReal } from "../ops/sorting.ts";

const isFloat = (d: DType) => DTYPES[d].kind === "float";

/**
 * Options of {@link average}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.AverageOptions = { axis: 0, weights: ga.asarray([1, 3]), returned: true };
 * ```
 */
export interface AverageOptions {
  /** The axis (a number) or axes (a list) to average over; absent: all of them. Also by position. Default: every axis. */
  readonly axis?: AxisArg;
  /**
   * A weight per element: `a`'s shape, or 1-D of the length of the one axis averaged over. Absent: all
   * weights are 1 (the mean).
   * Default: equal weights.
   */
  readonly weights?: GPUArray;
  /** Also return the sum of the weights (broadcast to the average's shape): `[average, sumOfWeights]`. Default false. */
  readonly returned?: boolean;
  /** Keep the averaged axes with extent 1. Default false. */
  readonly keepdims?: boolean;
}

type Value = GPUArray | number;

/**
 * The weighted average of `a` (NumPy's `average`): `sum(a * weights) / sum(weights)` along the axes
 * (by position or `{ axis }`), or over every element as a host number. Without weights, the mean.
 * Integer arrays average in float64; mixed dtypes follow NumPy's promotion. With `returned`, the pair
 * `[average, sumOfWeights]`.
 *
 * @throws {RangeError} where the weights along an axis sum to zero, or for weights of a shape that is
 * neither `a`'s nor the averaged axis's length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.asarray([[1, 2], [3, 4]]);
 * console.log(ga.average(a)); // 2.5
 * console.log(ga.average(a, 1, { weights: ga.asarray([3, 1]) }).get()); // Float32Array [1.25, 3.25]
 * const [avg, total] = ga.average(a, { weights: ga.asarray([[1, 1], [1, 2]]), returned: true }); // 2.8, 5
 * ```
 */
export function average(a: GPUArray, options?: AverageOptions & { returned?: false }): GPUArray | number;
/** `average` with `returned`: the average and the sum of the weights. */
export function average(
  a: GPUArray,
  options: AverageOptions & { returned: true },
): [GPUArray | number, GPUArray | number];
/** `average` along an axis given by position: an array. */
export function average(
  a: GPUArray,
  axis: AxisArg,
  options?: AfterAxis<AverageOptions> & { returned?: false },
): GPUArray;
/** `average` along an axis given by position, with `returned`: the average and the weights' sum. */
export function average(
  a: GPUArray,
  axis: AxisArg,
  options: AfterAxis<AverageOptions> & { returned: true },
): [GPUArray, GPUArray];
export function average(a: GPUArray, ...args: unknown[]): Value | [Value, Value] {
  checkReal(a, "average");
  const o = optionsOf<AverageOptions>(
    "average",
    args,
    [AXES],
    ["axis", "weights", "returned", "keepdims"],
    "{ axis: 0, weights }",
  );
  const r = averageOf(a, o);
  const whole = o.axis === undefined && o.keepdims !== true;
  const host = (x: GPUArray): Value => {
    if (!whole) return x;
    using one = x;
    return Number(one.item());
  };
  if (o.returned === true) return [host(r.avg), host(r.scale)];
  r.scale.free();
  return host(r.avg);
}

/** The average along `o.axis` and the weights' sum, broadcast to its shape. */
function averageOf(a: GPUArray, o: AverageOptions): { avg: GPUArray; scale: GPUArray } {
  const axes = normalizeAxes(o.axis, a.ndim, "average");
  const reduce = { axis: axes, keepdims: o.keepdims === true };
  const w = o.weights;
  if (w === undefined) {
    const avg = mean(a, reduce) as GPUArray;
    const count = axes.reduce((p, d) => p * a.shape[d]!, 1);
    return { avg, scale: fill(new GPUArray(a.backend, avg.shape, avg.dtype), count) };
  }
  checkReal(w, "average with weights");
  const dtype: DType = isFloat(a.dtype)
    ? resultType(a.dtype, w.dtype)
    : resultType(resultType(a.dtype, w.dtype), "float64");
  let wb: GPUArray;
  if (w.ndim === a.ndim && w.shape.every((e, k) => e === a.shape[k])) wb = w;
  else {
    if (o.axis === undefined) {
      throw new RangeError(
        `Cannot average an array of shape ${showShape(a.shape)} with weights of shape ${
          showShape(w.shape)
        }: weights of another shape than the array's need an axis`,
      );
    }
    if (axes.length !== 1 || w.ndim !== 1 || w.size !== a.shape[axes[0]!]) {
      throw new RangeError(
        `Cannot average along axis ${String(o.axis)} with weights of shape ${
          showShape(w.shape)
        }: give the array's shape, or 1-D weights of the axis's length`,
      );
    }
    wb = reshape(w, a.shape.map((e, d) => (d === axes[0] ? e : 1)));
  }
  using wt = astype(wb, dtype), at = astype(a, dtype);
  if (wb !== w) wb.free();
  using full = broadcastTo(wt, a.shape);
  const scale = sum(full, reduce) as GPUArray;
  using zero = eq(scale, 0);
  if (any(zero)) {
    scale.free();
    throw new RangeError(`Cannot average along axis ${String(o.axis ?? "(all)")}: the weights sum to zero`);
  }
  using product = mul(at, wt);
  using total = sum(product, reduce) as GPUArray;
  return { avg: div(total, scale), scale };
}

/**
 * Options of {@link cov}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.CovOptions = { rowvar: false, ddof: 0 };
 * ```
 */
export interface CovOptions {
  /** Whether each row is a variable and each column an observation (default true); false: the transpose. */
  readonly rowvar?: boolean;
  /** Normalise by `N` instead of `N - 1` (default false); `ddof` overrides it. */
  readonly bias?: boolean;
  /** Normalise by `N - ddof` (default 1, or 0 with `bias`). */
  readonly ddof?: number;
  /** An integer count per observation (1-D, non-negative): how many times it occurs. Default: each once. */
  readonly fweights?: GPUArray;
  /** A weight per observation (1-D, non-negative), its importance. Default: equal weights. */
  readonly aweights?: GPUArray;
}

/** `x` as NumPy's `cov` sees it: 2-D (a row per variable), float64. */
function variables(x: GPUArray, rowvar: boolean, what: string): GPUArray {
  if (x.ndim > 2) {
    throw new RangeError(
      `Cannot ${what} an array of shape ${showShape(x.shape)}: it has more than 2 dimensions`,
    );
  }
  const x2 = x.ndim === 2 ? x : reshape(x, [1, x.size]);
  const t = !rowvar && x2.shape[0] !== 1 ? transpose(x2) : x2;
  try {
    return astype(t, "float64");
  } finally {
    if (t !== x2) t.free();
    if (x2 !== x) x2.free();
  }
}

function observationWeights(w: GPUArray, n: number, name: string, integer: boolean): GPUArray {
  checkReal(w, `cov with ${name}`);
  if (w.ndim !== 1 || w.size !== n) {
    throw new RangeError(
      `Cannot cov with ${name} of shape ${
        showShape(w.shape)
      }: give one weight per observation (1-D, length ${n})`,
    );
  }
  const f = astype(w, "float64");
  using neg = lt(f, 0);
  const bad = integer
    ? (() => {
      using r = rint(f), off = ne(f, r);
      return any(off) as boolean;
    })()
    : false;
  if (bad) {
    f.free();
    throw new TypeError(`Cannot cov with ${name} that are not integers: give integer counts`);
  }
  if (any(neg)) {
    f.free();
    throw new RangeError(`Cannot cov with negative ${name}: give weights of 0 or more`);
  }
  return f;
}

/**
 * The covariance matrix of the variables in `m` (and `y`, appended as more variables) (NumPy's
 * `cov`): each row a variable, each column an observation (columns with `rowvar: false`), float64.
 * One variable gives a 0-d array. `fweights` and `aweights` weight the observations as NumPy's do.
 *
 * @throws {RangeError} for more than 2 dimensions, negative weights or weights of the wrong length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.asarray([[0, 1, 2], [2, 1, 0]]);
 * console.log(ga.cov(m).get()); // Float64Array [1, -1, -1, 1]
 * const c = ga.cov(ga.asarray([1, 2, 4]), ga.asarray([1, 0, 3]), { bias: true }); // 2 x 2
 * ```
 */
export function cov(m: GPUArray, y?: GPUArray | CovOptions, options?: CovOptions): GPUArray<"float64"> {
  if (y !== undefined && !(y instanceof GPUArray)) {
    if (options !== undefined) throw new TypeError("Cannot cov with two options objects: give one");
    options = y;
    y = undefined;
  }
  checkReal(m, "cov");
  checkOptions(options, "cov", "{ rowvar: false }", ["rowvar", "bias", "ddof", "fweights", "aweights"]);
  const rowvar = options?.rowvar ?? true;
  let x = variables(m, rowvar, "cov");
  if (x.shape[0] === 0) {
    x.free();
    return new GPUArray(m.backend, [0, 0], "float64");
  }
  if (y !== undefined) {
    using yv = variables(checkReal(y, "cov with"), rowvar, "cov");
    if (yv.shape[1] !== x.shape[1]) {
      x.free();
      throw new RangeError(
        `Cannot cov variables of ${x.shape[1]} and ${yv.shape[1]} observations: give them as many`,
      );
    }
    using xs = x;
    x = concatenate([xs, yv], 0);
  }
  using X = x;
  const n = X.shape[1]!;
  const ddof = options?.ddof ?? (options?.bias === true ? 0 : 1);
  if (typeof ddof !== "number" || !Number.isInteger(ddof)) {
    throw new TypeError(`Cannot cov with ddof ${String(ddof)}: give an integer`);
  }
  using fw = options?.fweights === undefined
    ? undefined
    : observationWeights(options.fweights, n, "fweights", true);
  using aw = options?.aweights === undefined
    ? undefined
    : observationWeights(options.aweights, n, "aweights", false);
  using w = fw !== undefined && aw !== undefined ? mul(fw, aw) : (fw ?? aw)?.copy();
  const { avg, scale } = averageOf(X, { axis: 1, weights: w, keepdims: true });
  using mu = avg, ws = scale;
  const wSum = Number(ws.item(0, 0));
  let fact: number;
  if (w === undefined) fact = n - ddof;
  else if (ddof === 0) fact = wSum;
  else if (aw === undefined) fact = wSum - ddof;
  else {
    using wa = mul(w, aw);
    fact = wSum - (ddof * Number(sum(wa))) / wSum;
  }
  if (fact <= 0) fact = 0;
  using centred = sub(X, mu);
  using weighted = w === undefined ? centred.copy() : mul(centred, w);
  using t = transpose(weighted);
  using c = matmul(centred, t);
  using scaled = mul(c, 1 / fact);
  return (scaled.shape[0] === 1 ? reshape(scaled, []) : scaled.copy()) as GPUArray<"float64">;
}

/**
 * Options of {@link corrcoef}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.CorrcoefOptions = { rowvar: false };
 * ```
 */
export interface CorrcoefOptions {
  /** Whether each row is a variable (default true); false: each column. */
  readonly rowvar?: boolean;
}

/**
 * The Pearson correlation coefficients of the variables in `x` (and `y`) (NumPy's `corrcoef`): the
 * covariance matrix over the outer product of the standard deviations, clipped to [-1, 1]; float64.
 * A variable that does not vary gives NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.corrcoef(ga.asarray([1, 2, 3]), ga.asarray([2, 4, 7]));
 * console.log(r.get()); // Float64Array [1, 0.9933992677987828, 0.9933992677987828, 1]
 * ```
 */
export function corrcoef(
  x: GPUArray,
  y?: GPUArray | CorrcoefOptions,
  options?: CorrcoefOptions,
): GPUArray<"float64"> {
  if (y !== undefined && !(y instanceof GPUArray)) {
    if (options !== undefined) throw new TypeError("Cannot corrcoef with two options objects: give one");
    options = y;
    y = undefined;
  }
  checkOptions(options, "corrcoef", "{ rowvar: false }", ["rowvar"]);
  using c = cov(x, y as GPUArray | undefined, { rowvar: options?.rowvar ?? true });
  if (c.ndim === 0) return div(c, c) as GPUArray<"float64">;
  using d = diagonal(c);
  using sd = sqrt(d);
  using col = reshape(sd, [sd.size, 1]);
  using r1 = div(c, col);
  using r2 = div(r1, sd);
  return clip(r2, -1, 1) as GPUArray<"float64">;
}
