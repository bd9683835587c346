/**
 * The methods of `GPUArray` that take an axis (or NumPy's other positional arguments) after the array:
 * the scans, sorting, softmax, the views along axes, indexing along an axis, `norm`, `trace`, and
 * `matmul`; and the installation of the reductions' methods (declared in `api/reduction_methods.ts`,
 * generated from the op table). Each is the module's function with the array first (`a.sum(0)` is
 * `ga.sum(a, 0)`, `a.flip({ axis: 0 })` is `ga.flip(a, { axis: 0 })`), taking its arguments in the
 * same forms; `a.sort()` is the exception, NumPy's in-place sort.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import type { FloatResult, ResultType } from "./dtypes.ts";
import type { AfterAxis, AxesOptions, AxisArg, AxisOptions } from "./axis_args.ts";
import type { SumValue } from "./methods.ts";
import type { OpOptions } from "../ops/ufunc.ts";
import * as views from "../ops/views.ts";
import { reduce } from "../ops/reductions.ts";
import type { MeanType, Reduced, SumType } from "../ops/reduction_types.ts";
import { type ReduceOp, REDUCTIONS } from "../ops/reduction_defs.ts";
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
 * The methods of {@link GPUArray} that take an axis, besides the reductions (`ReductionMethods`,
 * generated from the op table): each is the module's function with the array first, and takes the
 * axis by position (`a.cumsum(1)`, `a.flip(0)`) or in the options (`a.flip({ axis: 0 })`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 5], [7, 2]]);
 * const c = x.cumsum(1).flip(0).matmul(x.T); // methods chain as the functions nest
 * ```
 */
export interface AxisMethods<D extends DType> {
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
  for (const op of Object.keys(REDUCTIONS) as ReduceOp[]) {
    defineOn(p, op, function (this: GPUArray, ...args: unknown[]) {
      return reduce(op, this, args);
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
