/**
 * Counting into bins, NumPy style: `histogram`, `histogram2d` and `digitize`. The edges, ranges and
 * checks are here; the counting is one kernel (`binning.ts`, with `bincount`). Bin `i` holds
 * `edges[i] <= x < edges[i + 1]`, the last bin also its right edge.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { Backend } from "../../device/backend.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { resultType } from "../core/dtypes.ts";
import { optionsOf, type Slot } from "../core/axis_args.ts";
import { astype } from "../ops/assign.ts";
import { flip, slice } from "../ops/views.ts";
import { all, any, max, min, sum } from "../api/reductions.ts";
import { div, ge, gt, le, mul, sub } from "../api/elementwise.ts";
import { searchsorted } from "./search.ts";
import { checkReal } from "../ops/sorting.ts";
import { binCounts, checkWeights, sumType } from "./binning.ts";

const kindOf = (d: DType) => DTYPES[d].kind;
const isFloat = (d: DType) => kindOf(d) === "float";

/** A 1-D array of `values` in `dtype` on `backend`. */
function hostArray(backend: Backend, values: readonly number[], dtype: "float32" | "float64"): GPUArray {
  const host = dtype === "float64" ? Float64Array.from(values) : Float32Array.from(values);
  return new GPUArray(backend, [values.length], dtype).set(host);
}

/**
 * NumPy's `linspace(first, last, n + 1)` on the host, rounded as it computes it: in float32 where the
 * range came from float32 (or narrower) samples, else in float64.
 */
function uniformEdges(first: number, last: number, n: number, f32: boolean): number[] {
  const r = f32 ? Math.fround : (v: number) => v;
  const delta = r(last - first), step = r(delta / n);
  const e = Array.from(
    { length: n + 1 },
    (_, i) => r((step === 0 ? r(r(i / n) * delta) : r(i * step)) + first),
  );
  e[n] = last;
  return e;
}

/** The range to bin over: `range`, or the samples' own (widened by 0.5 each way when it is one value). */
function outerEdges(
  a: GPUArray,
  range: readonly [number, number] | undefined,
  f32: boolean,
  what: string,
): [number, number] {
  let [first, last] = range ?? (a.size === 0 ? [0, 1] : [Number(min(a)), Number(max(a))]);
  if (first > last) {
    throw new RangeError(`Cannot ${what} with range [${first}, ${last}]: max must be larger than min`);
  }
  if (!Number.isFinite(first) || !Number.isFinite(last)) {
    throw new RangeError(
      `Cannot ${what}: the ${
        range === undefined ? "autodetected" : "supplied"
      } range [${first}, ${last}] is not finite${
        range === undefined ? " (give a range, or drop the NaNs and infinities)" : ""
      }`,
    );
  }
  const r = f32 ? Math.fround : (v: number) => v;
  if (first === last) [first, last] = [r(first - 0.5), r(last + 0.5)];
  return [first, last];
}

/** Given edges as a contiguous 1-D array, checked to increase. */
function givenEdges(backend: Backend, bins: GPUArray | readonly number[], what: string): GPUArray {
  const e = bins instanceof GPUArray ? bins : hostArray(backend, bins, "float64");
  if (e.ndim !== 1 || e.size < 2) {
    throw new RangeError(
      `Cannot ${what} with edges of shape ${showShape(e.shape)}: give at least two edges in a 1-D array`,
    );
  }
  using hi = slice(e, [1, null]), lo = slice(e, [null, -1]);
  using down = gt(lo, hi);
  if (any(down)) throw new RangeError(`Cannot ${what}: the bin edges must increase monotonically`);
  return e;
}

/**
 * The bins of {@link histogram}: a count of uniform bins over the range, or the edges (an array or a
 * list, increasing).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const bins: ga.HistogramBins = [0, 0.5, 2];
 * ```
 */
export type HistogramBins = number | GPUArray | readonly number[];

function checkBins(bins: unknown, what: string): void {
  if (typeof bins === "number") {
    if (!Number.isInteger(bins) || bins < 1) {
      throw new RangeError(`Cannot ${what} with ${bins} bins: give a positive integer, or the edges`);
    }
  } else if (
    !(bins instanceof GPUArray) && !(Array.isArray(bins) && bins.every((b) => typeof b === "number"))
  ) {
    throw new TypeError(
      `Cannot ${what} with bins ${String(bins)}: give a number of bins, or the edges (an array or a list)`,
    );
  }
}

/** Whether NumPy computes uniform edges of `a` in float32: from the range of float32 (or narrower) samples. */
function narrowRange(a: GPUArray, range: unknown): boolean {
  return range === undefined && isFloat(a.dtype) && a.dtype !== "float64";
}

/**
 * The edges of one axis (`edges`, as returned), the same in the dtype samples are compared in
 * (`compared`), and the bin count. Uniform edges are stored as `store(a, range)`.
 */
function axisEdges(
  a: GPUArray,
  bins: HistogramBins,
  range: readonly [number, number] | undefined,
  store: (a: GPUArray, range: unknown) => DType,
  what: string,
): { edges: GPUArray; compared: GPUArray; bins: number } {
  checkBins(bins, what);
  let edges: GPUArray;
  if (typeof bins === "number") {
    const f32 = narrowRange(a, range);
    const host = hostArray(
      a.backend,
      uniformEdges(...outerEdges(a, range, f32, what), bins, f32),
      f32 ? "float32" : "float64",
    );
    const type = store(a, range);
    if (type === host.dtype) edges = host;
    else {
      using own = host;
      edges = astype(own, type);
    }
  } else {
    const given = givenEdges(a.backend, bins, what);
    edges = given === bins ? given.copy() : given;
  }
  const type = resultType(a.dtype, edges.dtype);
  const compared = type === "float16" || type === "bfloat16" ? "float32" : type;
  return {
    edges,
    compared: edges.dtype === compared ? edges : astype(edges, compared),
    bins: edges.size - 1,
  };
}

function checkSamples(a: unknown, what: string): GPUArray {
  const x = checkReal(a, what);
  if (x.dtype === "bool") {
    throw new TypeError(`Cannot ${what} a bool array: convert it with astype("int8") first`);
  }
  return x;
}

/** NumPy's second position of `histogram`: the bins. */
const BINS: Slot = {
  name: "bins",
  takes: (v) =>
    typeof v === "number" || v instanceof GPUArray ||
    (Array.isArray(v) && v.every((e) => typeof e === "number")),
  what: "the bins (a count, or the edges)",
};

/** NumPy's third position of `histogram`: the range, two numbers. */
const RANGE: Slot = {
  name: "range",
  takes: (v) => Array.isArray(v) && v.length === 2 && v.every((e) => typeof e === "number"),
  what: "the range ([lower, upper])",
};

/**
 * Options of {@link histogram}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.HistogramOptions = { range: [0, 1], density: true };
 * ```
 */
export interface HistogramOptions {
  /** The bins: a count (default 10, uniform over `range`) or the edges (increasing). Also by position. */
  readonly bins?: HistogramBins;
  /** `[lower, upper]` of uniform bins (default the samples' minimum and maximum); samples outside are not counted. */
  readonly range?: readonly [number, number];
  /** Give the density (each bin's count over the total and the bin's width), float64, instead of counts. Default false. */
  readonly density?: boolean;
  /** A weight per sample (the samples' shape): each bin sums its samples' weights instead of counting them. Default: none (each sample counts 1). */
  readonly weights?: GPUArray;
}

/**
 * The histogram of `a`'s elements (NumPy's `histogram`, flattened, any layout): `[hist, edges]`.
 * `bins` is a count of uniform bins over `range` (default 10 over the elements' minimum and maximum)
 * or the edges. Bin `i` holds `edges[i] <= x < edges[i + 1]`; the last one includes its right edge;
 * NaNs and elements outside count nowhere. Counts are int64; with `weights`, sums in the weights'
 * dtype (accumulated in float64); with `density`, float64 densities. Uniform edges are float64 for
 * integers, the elements' dtype for floats.
 *
 * @throws {RangeError} for a range that is not finite or whose minimum passes its maximum, a bin count
 * that is not a positive integer, edges that do not increase, or weights of another shape.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [hist, edges] = ga.histogram(ga.asarray([1, 2, 1, 4]), 3);
 * console.log(hist.get(), edges.get()); // BigInt64Array [2n, 1n, 1n] Float32Array [1, 2, 3, 4]
 * const [h] = ga.histogram(ga.asarray([0.5, 1.5]), { bins: [0, 1, 2], density: true }); // [0.5, 0.5]
 * ```
 */
export function histogram(a: GPUArray, options?: HistogramOptions): [GPUArray, GPUArray];
/** `histogram(a, bins, range)`, NumPy's positions, then the other options. */
export function histogram(
  a: GPUArray,
  bins: HistogramBins | undefined,
  range?: readonly [number, number] | Omit<HistogramOptions, "bins" | "range">,
  options?: Omit<HistogramOptions, "bins" | "range">,
): [GPUArray, GPUArray];
export function histogram(a: GPUArray, ...args: unknown[]): [GPUArray, GPUArray] {
  const what = "histogram";
  checkSamples(a, "take the histogram of");
  const options = optionsOf<HistogramOptions>(
    what,
    args,
    [BINS, RANGE],
    ["bins", "range", "density", "weights"],
    "{ bins: 10, range: [0, 1] }",
  );
  const weights = checkWeights(options.weights, a.shape, what);
  const { edges, compared, bins: n } = axisEdges(
    a,
    options.bins ?? 10,
    options.range,
    (x) => (isFloat(x.dtype) ? x.dtype : "float64"),
    what,
  );
  const counts = binCounts([{ x: a, edges: compared, bins: n }], weights, what);
  if (compared !== edges) compared.free();
  if (options.density === true) {
    using owned = counts;
    using hi = slice(edges, [1, null]), lo = slice(edges, [null, -1]);
    using widths = sub(hi, lo), w64 = astype(widths, sumType(a.backend));
    using per = div(owned, w64);
    return [div(per, Number(sum(owned))), edges];
  }
  if (weights === undefined || weights.dtype === counts.dtype) return [counts, edges];
  using owned = counts;
  return [astype(owned, weights.dtype), edges];
}

/**
 * Options of {@link histogram2d}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.Histogram2dOptions = { bins: [4, 8], range: [[0, 1], [0, 2]] };
 * ```
 */
export interface Histogram2dOptions {
  /** Bins of both axes (a count or edges, default 10), or `[x, y]`, one for each. */
  readonly bins?: HistogramBins | readonly [HistogramBins, HistogramBins];
  /** `[[xmin, xmax], [ymin, ymax]]` of uniform bins (default the samples' own). */
  readonly range?: readonly [readonly [number, number], readonly [number, number]];
  /** Give the density (count over total and bin area) instead of counts. Default false. */
  readonly density?: boolean;
  /** A weight per sample. Default: none (each counts 1). */
  readonly weights?: GPUArray;
}

/**
 * The two-dimensional histogram of the samples `(x[i], y[i])` (NumPy's `histogram2d`):
 * `[hist, xedges, yedges]`, `hist` float64 of shape `[xbins, ybins]`, the edges float64. The bins of
 * each axis follow {@link histogram}'s rule.
 *
 * @throws {RangeError} when `x` and `y` differ in length, and as {@link histogram}.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([0.1, 0.4, 0.9]), y = ga.asarray([0.2, 0.8, 0.9]);
 * const [h, xe, ye] = ga.histogram2d(x, y, { bins: 2, range: [[0, 1], [0, 1]] });
 * console.log(h.get()); // Float64Array [1, 1, 0, 1]
 * ```
 */
export function histogram2d(
  x: GPUArray,
  y: GPUArray,
  options?: Histogram2dOptions,
): [GPUArray<"float64">, GPUArray, GPUArray];
/** `histogram2d(x, y, bins, range)`, NumPy's positions, then the other options. */
export function histogram2d(
  x: GPUArray,
  y: GPUArray,
  bins: Histogram2dOptions["bins"],
  range?: Histogram2dOptions["range"] | Omit<Histogram2dOptions, "bins" | "range">,
  options?: Omit<Histogram2dOptions, "bins" | "range">,
): [GPUArray<"float64">, GPUArray, GPUArray];
export function histogram2d(
  x: GPUArray,
  y: GPUArray,
  ...args: unknown[]
): [GPUArray<"float64">, GPUArray, GPUArray] {
  const what = "histogram2d";
  checkSamples(x, "take the histogram2d of");
  checkSamples(y, "take the histogram2d of");
  const options = optionsOf<Histogram2dOptions>(
    what,
    args,
    [
      {
        name: "bins",
        takes: (v) => typeof v === "number" || v instanceof GPUArray || Array.isArray(v),
        what: "the bins",
      },
      {
        name: "range",
        takes: (v) => Array.isArray(v) && v.length === 2,
        what: "the range ([[xmin, xmax], [ymin, ymax]])",
      },
    ],
    ["bins", "range", "density", "weights"],
    "{ bins: 10 }",
  );
  if (x.ndim !== 1 || y.ndim !== 1 || x.size !== y.size) {
    throw new RangeError(
      `Cannot ${what} x of shape ${showShape(x.shape)} and y of shape ${
        showShape(y.shape)
      }: give two 1-D arrays of one length`,
    );
  }
  const weights = checkWeights(options.weights, x.shape, what);
  const b = options.bins ?? 10;
  const pair = Array.isArray(b) && b.length === 2
    ? (b as unknown as readonly [HistogramBins, HistogramBins])
    : [b as HistogramBins, b as HistogramBins];
  const r = options.range;
  const axes = [x, y].map((s, k) =>
    axisEdges(s, pair[k]!, r?.[k], (a, range) => (narrowRange(a, range) ? a.dtype : "float64"), what)
  );
  using counts = binCounts(
    axes.map((e, k) => ({ x: [x, y][k]!, edges: e.compared, bins: e.bins })),
    weights,
    what,
  );
  for (const e of axes) if (e.compared !== e.edges) e.compared.free();
  const hist = astype(counts, "float64");
  if (options.density !== true) return [hist, axes[0]!.edges, axes[1]!.edges];
  using owned = hist;
  using wx = widthsOf(axes[0]!.edges), wy = widthsOf(axes[1]!.edges);
  using col = wx.reshape(-1, 1), area = mul(col, wy);
  using per = div(owned, area);
  return [div(per, sum(owned)) as GPUArray<"float64">, axes[0]!.edges, axes[1]!.edges];
}

function widthsOf(e: GPUArray): GPUArray {
  using hi = slice(e, [1, null]), lo = slice(e, [null, -1]);
  using w = sub(hi, lo);
  return astype(w, "float64");
}

/**
 * Options of {@link digitize}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.DigitizeOptions = { right: true };
 * ```
 */
export interface DigitizeOptions {
  /** Whether a bin includes its right edge instead of its left (default false). */
  readonly right?: boolean;
}

/**
 * The index of the bin each element of `x` falls in (NumPy's `digitize`): for increasing `bins`,
 * `i` such that `bins[i - 1] <= x < bins[i]` (`<` and `<=` exchanged with `right`), 0 below the first
 * edge and `bins.length` above the last; decreasing `bins` count from the other end. int64, of `x`'s
 * shape; NaN goes past every edge.
 *
 * @throws {RangeError} when `bins` is not 1-D or neither increases nor decreases.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i = ga.digitize(ga.asarray([0.2, 6.4, 3.0, 1.6]), ga.asarray([0, 1, 2.5, 4, 10]));
 * console.log(i.get()); // BigInt64Array [1n, 4n, 3n, 2n]
 * ```
 */
export function digitize(
  x: GPUArray,
  bins: GPUArray,
  right?: boolean | DigitizeOptions,
): GPUArray<"int64"> {
  checkReal(x, "digitize");
  checkReal(bins, "digitize with bins");
  const options = optionsOf<DigitizeOptions>(
    "digitize",
    [right],
    [{ name: "right", takes: (v) => typeof v === "boolean", what: "right (a boolean)" }],
    ["right"],
    "{ right: true }",
  );
  if (bins.ndim !== 1) {
    throw new RangeError(`Cannot digitize with bins of shape ${showShape(bins.shape)}: give a 1-D array`);
  }
  const side = options.right === true ? "left" : "right";
  if (bins.size < 2) return searchsorted(bins, x, { side });
  using hi = slice(bins, [1, null]), lo = slice(bins, [null, -1]);
  using up = ge(hi, lo), down = le(hi, lo);
  if (all(up)) return searchsorted(bins, x, { side });
  if (!all(down)) {
    throw new RangeError("Cannot digitize with these bins: they must increase or decrease monotonically");
  }
  using reversed = flip(bins);
  using from = searchsorted(reversed, x, { side });
  return sub(bins.size, from) as GPUArray<"int64">;
}
