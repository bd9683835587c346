/**
 * The methods of `GPUArray` that take an axis (or NumPy's other positional arguments) after the array:
 * the reductions, scans, sorting, softmax, the views along axes, indexing along an axis, `norm`,
 * `trace`, and `matmul`. Each is the module's function with the array first (`a.sum(0)` is
 * `ga.sum(a, 0)`, `a.flip({ axis: 0 })` is `ga.flip(a, { axis: 0 })`), taking its arguments in the
 * same forms; `a.sort()` is the exception, NumPy's in-place sort.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import type { FloatResult, ResultType } from "./dtypes.ts";
import type { AfterAxis, AxesOptions, AxisArg, AxisOptions } from "./axis_args.ts";
import type { HostValue, SumValue } from "./methods.ts";
import type { OpOptions } from "../ops/ufunc.ts";
import * as views from "../ops/views.ts";
import * as reductions from "../ops/reductions.ts";
import type { ArgOptions, MeanType, Reduced, ReduceOptions, SumType, VarOptions } from "../ops/reductions.ts";
import { logSoftmax, softmax, type SoftmaxOptions } from "../ops/softmax.ts";
import * as linalg from "../ops/linalg.ts";
import { matmul } from "../ops/matmul.ts";
import { norm, type NormOptions } from "../ops/norm.ts";
import { cumprod, cumsum, diff, type DiffOptions, type ScanOptions } from "../ops/scan.ts";
import { type Indices, take } from "../ops/indexing.ts";
import { compress } from "../routines/compact.ts";
import { repeat } from "../routines/repeat.ts";
import { argpartition, partitionInPlace, type PartitionOptions } from "../routines/partition.ts";
import {
  argsort,
  sortInPlace,
  type SortOptions,
  topk,
  type TopkOptions,
  type TopkResult,
} from "../ops/sorting.ts";

/**
 * The methods of {@link GPUArray} that take an axis: each is the module's function with the array
 * first, and takes the axis by position (`a.sum(0)`, `a.sum([0, 1])`, `a.sum(0, { keepdims: true })`)
 * or in the options (`a.sum({ axis: 0 })`). Over every axis, a reduction gives a host value.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 5], [7, 2]]);
 * console.log(x.sum(), x.sum(0).get(), x.argmax(1).get()); // 15 [8, 7] [1n, 0n]
 * const c = x.cumsum(1).flip(0).matmul(x.T); // methods chain as the functions nest
 * ```
 */
export interface AxisMethods<D extends DType> {
  /** {@link reductions.sum}: the sum (a host value without axis; integers exact as bigints). */
  sum<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.sum} along axes given by position: an array. */
  sum(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<SumType<D>>;
  /** {@link reductions.prod}: the product. */
  prod<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.prod} along axes given by position. */
  prod(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<SumType<D>>;
  /** {@link reductions.mean}: the arithmetic mean. */
  mean<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.mean} along axes given by position. */
  mean(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<MeanType<D>>;
  /** {@link reductions.min}: the smallest element, NaN propagating. */
  min<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.min} along axes given by position. */
  min(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<D>;
  /** {@link reductions.max}: the largest element, NaN propagating. */
  max<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.max} along axes given by position. */
  max(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<D>;
  /** {@link reductions.ptp}: `max - min`. */
  ptp<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.ptp} along axes given by position. */
  ptp(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<D>;
  /** {@link reductions.argmin}: the index of the smallest element. */
  argmin<O extends ArgOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.argmin} along an axis given by position. */
  argmin(axis: number, options?: AfterAxis<ReduceOptions>): GPUArray<"int64">;
  /** {@link reductions.argmax}: the index of the largest element. */
  argmax<O extends ArgOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.argmax} along an axis given by position. */
  argmax(axis: number, options?: AfterAxis<ReduceOptions>): GPUArray<"int64">;
  /** {@link reductions.any}: whether any element is non-zero. */
  any<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, boolean, "bool">;
  /** {@link reductions.any} along axes given by position. */
  any(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<"bool">;
  /** {@link reductions.all}: whether every element is non-zero. */
  all<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, boolean, "bool">;
  /** {@link reductions.all} along axes given by position. */
  all(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<"bool">;
  /** The variance (`ga.var`), divided by `n - ddof`. */
  var<O extends VarOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** The variance (`ga.var`) along axes given by position (`a.var(0, { ddof: 1 })`). */
  var(axis: AxisArg, options?: AfterAxis<VarOptions>): GPUArray<MeanType<D>>;
  /** {@link reductions.std}: the standard deviation. */
  std<O extends VarOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.std} along axes given by position (`a.std(0, { ddof: 1 })`). */
  std(axis: AxisArg, options?: AfterAxis<VarOptions>): GPUArray<MeanType<D>>;
  /** {@link reductions.countNonzero}: how many elements are non-zero. */
  countNonzero<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.countNonzero} along axes given by position. */
  countNonzero(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<"int64">;
  /** {@link reductions.nansum}: the sum, NaNs counted as zero. */
  nansum<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.nansum} along axes given by position. */
  nansum(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<SumType<D>>;
  /** {@link reductions.nanmean}: the mean of the elements that are not NaN. */
  nanmean<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.nanmean} along axes given by position. */
  nanmean(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<MeanType<D>>;
  /** {@link reductions.nanmin}: the smallest element that is not NaN. */
  nanmin<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.nanmin} along axes given by position. */
  nanmin(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<D>;
  /** {@link reductions.nanmax}: the largest element that is not NaN. */
  nanmax<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.nanmax} along axes given by position. */
  nanmax(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<D>;
  /** {@link reductions.logsumexp}: `log(sum(exp(this)))`, computed stably. */
  logsumexp<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.logsumexp} along axes given by position. */
  logsumexp(axis: AxisArg, options?: AfterAxis<ReduceOptions>): GPUArray<MeanType<D>>;

  /** {@link softmax}: `exp` normalised to sum to 1 along an axis (default the last; `a.softmax(0)`). */
  softmax(axis?: number | SoftmaxOptions, options?: AfterAxis<SoftmaxOptions>): GPUArray<FloatResult<D>>;
  /** {@link logSoftmax}: the logarithm of the softmax along an axis, computed stably. */
  logSoftmax(axis?: number | SoftmaxOptions, options?: AfterAxis<SoftmaxOptions>): GPUArray<FloatResult<D>>;
  /** {@link cumsum}: the cumulative sum along an axis (`a.cumsum(1)`; of the flattened array without one). */
  cumsum(axis?: number | ScanOptions, options?: AfterAxis<ScanOptions>): GPUArray<SumType<D>>;
  /** {@link cumprod}: the cumulative product along an axis (of the flattened array without one). */
  cumprod(axis?: number | ScanOptions, options?: AfterAxis<ScanOptions>): GPUArray<SumType<D>>;
  /** {@link diff}: the `n`-th differences along an axis: `a.diff()`, `a.diff(n, axis)`, `a.diff({ n, axis })`. */
  diff(n?: number | DiffOptions, axis?: number): GPUArray<D>;

  /** {@link views.squeeze}: without axes of extent 1 (all, or those given: `a.squeeze(0)`), a view. */
  squeeze(axis?: AxisArg | AxesOptions): GPUArray<D>;
  /** {@link views.expandDims}: with new axes of extent 1 (`a.expandDims(0)`), a view. */
  expandDims(axis: AxisArg | AxesOptions): GPUArray<D>;
  /** {@link views.flip}: reversed along axes (all, or those given: `a.flip(0)`), a view. */
  flip(axis?: AxisArg | AxesOptions): GPUArray<D>;
  /** {@link views.diagonal}: a diagonal as the last axis (`a.diagonal(offset, axis1, axis2)` or options), a view. */
  diagonal(
    offset?: number | views.DiagonalOptions,
    axis1?: number | Omit<views.DiagonalOptions, "offset">,
    axis2?: number | Omit<views.DiagonalOptions, "offset" | "axis1">,
  ): GPUArray<D>;
  /** {@link linalg.trace}: the sum along a diagonal (a host value for 2-D arrays), as `diagonal` takes its arguments. */
  trace(
    offset?: number | linalg.TraceOptions,
    axis1?: number | Omit<linalg.TraceOptions, "offset">,
    axis2?: number | Omit<linalg.TraceOptions, "offset" | "axis1">,
  ): SumValue<D> | GPUArray;

  /** {@link take}: the elements at integer indices along an axis (`a.take(idx, 0)`; of the flattened array without one). */
  take(indices: Indices, axis?: number | AxisOptions): GPUArray<D>;
  /** {@link compress}: the slices along an axis where a 1-D condition is non-zero (`a.compress(c, 0)`). */
  compress(condition: GPUArray | readonly (boolean | number)[], axis?: number | AxisOptions): GPUArray<D>;
  /** {@link repeat}: each element repeated, along an axis (`a.repeat(2, 0)`) or over the flattened array. */
  repeat(repeats: number | readonly number[], axis?: number | AxisOptions): GPUArray<D>;

  /** {@link norm}: the Euclidean norm, a host number; along axes (`a.norm({ axis: 1 })`, `a.norm(null, 1)`) an array. */
  norm<O extends NormOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link norm} along axes given by NumPy's positions, after `ord` (null): `a.norm(null, 1, true)`. */
  norm(
    ord: null | undefined,
    axis: AxisArg,
    keepdims?: boolean | Omit<NormOptions, "axis">,
  ): GPUArray<MeanType<D>>;

  /** {@link matmul}: the matrix product `this @ other` (NumPy's rules for 1-D and batched operands). */
  matmul<E extends DType>(other: GPUArray<E>, options?: OpOptions): GPUArray<ResultType<D, E>>;

  /**
   * Sorts the elements **in place** along an axis (default the last; `a.sort(0)`, `a.sort({ axis: 0 })`),
   * as NumPy's `ndarray.sort`, and returns nothing: unlike the other methods, it is not `ga.sort`,
   * which returns a sorted copy.
   */
  sort(axis?: number | { readonly axis?: number }): void;
  /** {@link argsort}: the indices that sort along an axis (stable, int64; `a.argsort(0)`, `a.argsort(null)`). */
  argsort(axis?: number | null | SortOptions, options?: AfterAxis<SortOptions>): GPUArray<"int64">;
  /** {@link argpartition}: the indices that partition along an axis around `kth` (`a.argpartition(2, 0)`). */
  argpartition(kth: number | readonly number[], axis?: number | null | PartitionOptions): GPUArray<"int64">;
  /** NumPy's in-place `ndarray.partition`: partitions along an axis around `kth` (default -1), returning nothing. */
  partition(kth: number | readonly number[], axis?: number | PartitionOptions): void;
  /** {@link topk}: the `k` largest (or smallest) elements along an axis and their indices (`a.topk(2, 0)`). */
  topk(
    k: number,
    axis?: number | TopkOptions,
    largest?: boolean | AfterAxis<TopkOptions>,
    options?: Omit<TopkOptions, "axis" | "largest">,
  ): TopkResult<D>;
}

/** The reductions that are also methods, each the function of that name with the array first. */
const REDUCTION_METHODS = [
  "sum",
  "prod",
  "mean",
  "min",
  "max",
  "ptp",
  "argmin",
  "argmax",
  "any",
  "all",
  "var",
  "std",
  "countNonzero",
  "nansum",
  "nanmean",
  "nanmin",
  "nanmax",
  "logsumexp",
] as const;

/** The other methods that are their function with the array first, arguments passed as they come. */
const ARRAY_FIRST: Readonly<Record<string, (a: GPUArray, ...args: never[]) => unknown>> = {
  softmax,
  logSoftmax,
  cumsum,
  cumprod,
  diff,
  squeeze: views.squeeze,
  expandDims: views.expandDims,
  flip: views.flip,
  diagonal: views.diagonal,
  trace: linalg.trace,
  take,
  repeat,
  norm,
  matmul,
  argsort,
  argpartition,
  topk,
};

function defineOn(p: object, name: string, value: (this: GPUArray, ...args: never[]) => unknown): void {
  Object.defineProperty(p, name, { value, writable: true, configurable: true });
}

/**
 * Defines the reductions as methods on prototype `p` (`GPUArray`'s, and the stand-in's that
 * `ga.fuse()` traces with), passing their arguments on as they come.
 */
export function installReductionMethods(p: object): void {
  const reducing = reductions as unknown as Record<string, (a: GPUArray, ...args: unknown[]) => unknown>;
  for (const name of REDUCTION_METHODS) {
    const f = reducing[name]!;
    defineOn(p, name, function (this: GPUArray, ...args: unknown[]) {
      return f(this, ...args);
    });
  }
}

/** Defines the {@link AxisMethods} other than the reductions on `p`, `GPUArray`'s prototype. */
export function installAxisMethods(p: object): void {
  for (const [name, f] of Object.entries(ARRAY_FIRST)) {
    const g = f as (a: GPUArray, ...args: unknown[]) => unknown;
    defineOn(p, name, function (this: GPUArray, ...args: unknown[]) {
      return g(this, ...args);
    });
  }
  defineOn(
    p,
    "compress",
    function (this: GPUArray, condition: GPUArray, axis?: number | AxisOptions) {
      return compress(condition, this, axis);
    },
  );
  defineOn(p, "sort", function (this: GPUArray, ...args: unknown[]) {
    sortInPlace(this, args);
  });
  defineOn(p, "partition", function (this: GPUArray, kth: number | readonly number[], ...args: unknown[]) {
    partitionInPlace(this, kth, args);
  });
}
