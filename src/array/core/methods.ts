/**
 * The methods of `GPUArray` beyond its memory and layout: each is one of the module's functions with
 * the array first (`a.add(b)` is `add(a, b)`). Declared here, and defined on the prototype from the
 * function tables, so the two cannot drift apart.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import type { FloatResult, ResultType } from "./dtypes.ts";
import type { Shape } from "./layout.ts";
import type { SliceSpec } from "./slicing.ts";
import type { Operand, OpOptions } from "../ops/ufunc.ts";
import { BINARY } from "../ops/binary_ops.ts";
import { UNARY } from "../ops/unary_ops.ts";
import { callOp, clip } from "../ops/ufunc.ts";
import type { ElementwiseMethods } from "../api/elementwise_methods.ts";
import * as views from "../ops/views.ts";
import { assign, astype, fill } from "../ops/assign.ts";
import { norm } from "../ops/norm.ts";
import * as reductions from "../ops/reductions.ts";
import type { ArgOptions, MeanType, Reduced, ReduceOptions, SumType, VarOptions } from "../ops/reductions.ts";
import { logSoftmax, softmax, type SoftmaxOptions } from "../ops/softmax.ts";
import { installDisplay, type ItemValue, type NestedList } from "./display.ts";
import { repeat } from "../routines/repeat.ts";
import * as linalg from "../ops/linalg.ts";
import { cumprod, cumsum, diff, type DiffOptions, type ScanOptions } from "../ops/scan.ts";
import { type Indices, put, take } from "../ops/indexing.ts";
import { compress, mask, nonzero } from "../routines/compact.ts";
import { argsort, sortInPlace, type SortOptions } from "../ops/sorting.ts";

/**
 * A host value of an array of `D`: a bigint for 64-bit integers, else a number.
 *
 * @example
 * ```ts
 * import type { HostValue } from "@cudeno/cudeno/array";
 * const v: HostValue<"int64"> = 5n;
 * ```
 */
export type HostValue<D extends DType> = D extends "int64" | "uint64" ? bigint : number;

/**
 * What a whole-array sum of `D` gives on the host: a number for floats, an exact bigint for integers
 * and bools (they sum in 64 bits).
 *
 * @example
 * ```ts
 * import type { SumValue } from "@cudeno/cudeno/array";
 * const v: SumValue<"int32"> = 10n;
 * ```
 */
export type SumValue<D extends DType> = D extends "float16" | "bfloat16" | "float32" | "float64" ? number
  : bigint;

/**
 * The methods every {@link GPUArray} has. Each is also a function of the module taking the array
 * first, documented there.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2], [3, 4]]);
 * const y = x.T.mul(2).add(x).sqrt(); // a view, then elementwise functions
 * console.log(y.shape, x.slice([], 0).get()); // [2, 2] Float32Array [1, 3]
 * ```
 */
export interface ArrayMethods<D extends DType> extends ElementwiseMethods<D> {
  /** {@link views.reshape}: another shape of the same size (a view where the strides allow). */
  reshape(...shape: number[] | [Shape]): GPUArray<D>;
  /** {@link views.transpose}: the axes permuted (reversed when none are given), a view. */
  transpose(...axes: number[] | [readonly number[]]): GPUArray<D>;
  /** The transpose (axes reversed), a view. */
  readonly T: GPUArray<D>;
  /** {@link views.swapaxes}: two axes exchanged, a view. */
  swapaxes(axis1: number, axis2: number): GPUArray<D>;
  /** {@link views.moveaxis}: axes moved to new positions, a view. */
  moveaxis(source: number | readonly number[], destination: number | readonly number[]): GPUArray<D>;
  /** {@link views.squeeze}: without axes of extent 1, a view. */
  squeeze(axis?: number | readonly number[]): GPUArray<D>;
  /** {@link views.expandDims}: with new axes of extent 1, a view. */
  expandDims(axis: number | readonly number[]): GPUArray<D>;
  /** {@link views.broadcastTo}: broadcast to a shape, a view. */
  broadcastTo(shape: Shape): GPUArray<D>;
  /** {@link views.ravel}: one axis in C order, a view when contiguous. */
  ravel(order?: "C"): GPUArray<D>;
  /** The elements as one axis in C order, always a copy (NumPy's `flatten`). */
  flatten(order?: "C"): GPUArray<D>;
  /** {@link views.flip}: reversed along axes, a view. */
  flip(axis?: number | readonly number[]): GPUArray<D>;
  /** {@link views.slice}: basic indexing, a view: `a.slice([1, 3], [null, null, 2])` or `a.slice("1:3, ::2")`. */
  slice(...specs: (SliceSpec | string)[]): GPUArray<D>;
  /** {@link views.diagonal}: a diagonal as the last axis, a view. */
  diagonal(options?: views.DiagonalOptions): GPUArray<D>;
  /** A C-contiguous copy. */
  copy(order?: "C"): GPUArray<D>;
  /** A copy converted to `dtype` (floats to integers truncate). */
  astype<T extends DType>(dtype: T): GPUArray<T>;
  /** Sets every element to `value` (converted as NumPy does: floats into integers truncate); writes through a view. */
  fill(value: number | bigint | boolean): this;
  /** Writes `value` (an array that broadcasts to this shape, or a scalar) into the elements, converting; writes through a view. */
  assign(value: Operand | boolean): this;

  /** {@link clip}: limited to `[min, max]`. */
  clip(min: Operand | null, max: Operand | null, options?: OpOptions): GPUArray;

  /** {@link reductions.sum}: the sum (a host value without axis; integers exact as bigints). */
  sum<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.prod}: the product. */
  prod<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.mean}: the arithmetic mean. */
  mean<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.min}: the smallest element, NaN propagating. */
  min<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.max}: the largest element, NaN propagating. */
  max<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.ptp}: `max - min`. */
  ptp<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.argmin}: the index of the smallest element. */
  argmin<O extends ArgOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.argmax}: the index of the largest element. */
  argmax<O extends ArgOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.any}: whether any element is non-zero. */
  any<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, boolean, "bool">;
  /** {@link reductions.all}: whether every element is non-zero. */
  all<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, boolean, "bool">;
  /** The variance (`ga.var`), divided by `n - ddof`. */
  var<O extends VarOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.std}: the standard deviation. */
  std<O extends VarOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.countNonzero}: how many elements are non-zero. */
  countNonzero<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, "int64">;
  /** {@link reductions.nansum}: the sum, NaNs counted as zero. */
  nansum<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, SumValue<D>, SumType<D>>;
  /** {@link reductions.nanmean}: the mean of the elements that are not NaN. */
  nanmean<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link reductions.nanmin}: the smallest element that is not NaN. */
  nanmin<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.nanmax}: the largest element that is not NaN. */
  nanmax<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, HostValue<D>, D>;
  /** {@link reductions.logsumexp}: `log(sum(exp(this)))`, computed stably. */
  logsumexp<O extends ReduceOptions = Record<never, never>>(options?: O): Reduced<O, number, MeanType<D>>;
  /** {@link softmax}: `exp` normalised to sum to 1 along an axis (default the last). */
  softmax(options?: SoftmaxOptions): GPUArray<FloatResult<D>>;
  /** {@link logSoftmax}: the logarithm of the softmax along an axis, computed stably. */
  logSoftmax(options?: SoftmaxOptions): GPUArray<FloatResult<D>>;
  /** {@link linalg.dot}: NumPy's `dot` (a host number for two 1-D arrays, else the matrix product or its N-D form). */
  dot<E extends DType>(other: GPUArray<E>): GPUArray<ResultType<D, E>> | number;
  /** {@link linalg.trace}: the sum along a diagonal (a host value for 2-D arrays). */
  trace(options?: linalg.TraceOptions): SumValue<D> | GPUArray;
  /** {@link cumsum}: the cumulative sum along an axis (of the flattened array without one). */
  cumsum(options?: ScanOptions): GPUArray<SumType<D>>;
  /** {@link cumprod}: the cumulative product along an axis (of the flattened array without one). */
  cumprod(options?: ScanOptions): GPUArray<SumType<D>>;
  /** {@link diff}: the `n`-th differences along an axis. */
  diff(options?: DiffOptions): GPUArray<D>;
  /** {@link take}: the elements at integer indices along an axis (of the flattened array without one). */
  take(indices: Indices, axis?: number): GPUArray<D>;
  /** {@link put}: writes values at flat indices, in place. */
  put(indices: Indices, values: GPUArray | number | bigint | readonly number[]): this;
  /** {@link compress}: the slices along an axis where a 1-D condition is non-zero. */
  compress(condition: GPUArray | readonly (boolean | number)[], axis?: number): GPUArray<D>;
  /** {@link mask}: the elements where a bool array of the leading dimensions is true (NumPy's `a[m]`). */
  mask(m: GPUArray): GPUArray<D>;
  /** {@link nonzero}: the indices of the non-zero elements, an int64 array per dimension. */
  nonzero(): GPUArray<"int64">[];

  /** The Euclidean norm. */
  norm(): number;

  /** {@link repeat}: each element repeated, along `axis` or over the flattened array. */
  repeat(repeats: number | readonly number[], axis?: number): GPUArray<D>;
  /**
   * {@link item}: one element as a host value (a number, a bigint for 64-bit integers, a boolean for
   * bools): the only one, or the one at a flat index, or at one index per axis.
   */
  item(...index: number[]): ItemValue<D>;
  /** The elements as nested JS arrays (bigints for 64-bit integers, booleans for bools). */
  tolist(): NestedList<ItemValue<D>>;
  /** NumPy's text form, `array([[1., 2.],\n       [3., 4.]], dtype=float32)`, as `console.log` shows it. */
  toString(): string;
  /** Sorts the elements in place along an axis (default the last), as NumPy's `ndarray.sort`; returns nothing (`ga.sort` returns a sorted copy). */
  sort(options?: { readonly axis?: number }): void;
  /** {@link argsort}: the indices that sort along an axis (stable, int64). */
  argsort(options?: SortOptions): GPUArray<"int64">;
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

function defineOn(p: object, name: string, value: (this: GPUArray, ...args: never[]) => unknown): void {
  Object.defineProperty(p, name, { value, writable: true, configurable: true });
}

/**
 * Defines the methods that fused functions trace — the elementwise functions, `clip`, `astype` and
 * the reductions — on prototype `p` (`GPUArray`'s, and the stand-in's that `ga.fuse()` traces with).
 */
export function installTraceable(p: object): void {
  for (const op of Object.values(BINARY)) {
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      defineOn(p, name, function (this: GPUArray, other: unknown, options?: OpOptions) {
        return callOp(op, [this, other], options, name);
      });
    }
  }
  for (const op of Object.values(UNARY)) {
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      defineOn(p, name, function (this: GPUArray, options?: OpOptions) {
        return callOp(op, [this], options, name);
      });
    }
  }
  defineOn(p, "astype", function (this: GPUArray, dtype: DType) {
    return astype(this, dtype);
  });
  defineOn(
    p,
    "clip",
    function (this: GPUArray, min: Operand | null, max: Operand | null, options?: OpOptions) {
      return clip(this, min, max, options);
    },
  );
  const reducing: Record<string, (a: GPUArray, options?: never) => unknown> = { ...reductions };
  for (const name of REDUCTION_METHODS) {
    const f = reducing[name]!;
    defineOn(p, name, function (this: GPUArray, options?: never) {
      return f(this, options);
    });
  }
}

/** Defines the {@link ArrayMethods} on `cls`'s prototype. */
export function installMethods(cls: { prototype: object }): void {
  const p = cls.prototype;
  installTraceable(p);
  const define = (name: string, value: (this: GPUArray, ...args: never[]) => unknown) =>
    defineOn(p, name, value);
  const shape = (
    args: readonly unknown[],
  ) => (args.length === 1 && typeof args[0] !== "number" ? args[0] : args);
  define("reshape", function (this: GPUArray, ...s: number[]) {
    return views.reshape(this, ...s);
  });
  define("transpose", function (this: GPUArray, ...axes: number[]) {
    return views.transpose(this, shape(axes) as number[]);
  });
  Object.defineProperty(p, "T", {
    get(this: GPUArray) {
      return views.transpose(this);
    },
    configurable: true,
  });
  define("swapaxes", function (this: GPUArray, a: number, b: number) {
    return views.swapaxes(this, a, b);
  });
  define("moveaxis", function (this: GPUArray, s: number, d: number) {
    return views.moveaxis(this, s, d);
  });
  define("squeeze", function (this: GPUArray, axis?: number) {
    return views.squeeze(this, axis);
  });
  define("expandDims", function (this: GPUArray, axis: number) {
    return views.expandDims(this, axis);
  });
  define("broadcastTo", function (this: GPUArray, s: Shape) {
    return views.broadcastTo(this, s);
  });
  define("ravel", function (this: GPUArray, order?: "C") {
    return views.ravel(this, order);
  });
  define("flatten", function (this: GPUArray, order?: "C") {
    views.checkOrder(order, "flatten", "for column-major order, flatten the transpose: a.T.flatten()");
    return views.reshape(views.copy(this), [-1]);
  });
  define("flip", function (this: GPUArray, axis?: number) {
    return views.flip(this, axis);
  });
  define("slice", function (this: GPUArray, ...specs: SliceSpec[]) {
    return views.slice(this, ...specs);
  });
  define("diagonal", function (this: GPUArray, options?: views.DiagonalOptions) {
    return views.diagonal(this, options);
  });
  define("copy", function (this: GPUArray, order?: "C") {
    return views.copy(this, order);
  });
  define("fill", function (this: GPUArray, value: number) {
    return fill(this, value);
  });
  define("assign", function (this: GPUArray, value: Operand) {
    return assign(this, value);
  });
  define("softmax", function (this: GPUArray, options?: SoftmaxOptions) {
    return softmax(this, options);
  });
  define("cumsum", function (this: GPUArray, options?: ScanOptions) {
    return cumsum(this, options);
  });
  define("cumprod", function (this: GPUArray, options?: ScanOptions) {
    return cumprod(this, options);
  });
  define("diff", function (this: GPUArray, options?: DiffOptions) {
    return diff(this, options);
  });
  define("take", function (this: GPUArray, indices: Indices, axis?: number) {
    return take(this, indices, axis);
  });
  define("put", function (this: GPUArray, indices: Indices, values: GPUArray | number) {
    return put(this, indices, values);
  });
  define("compress", function (this: GPUArray, condition: GPUArray, axis?: number) {
    return compress(condition, this, axis);
  });
  define("mask", function (this: GPUArray, m: GPUArray) {
    return mask(this, m);
  });
  define("nonzero", function (this: GPUArray) {
    return nonzero(this);
  });
  define("logSoftmax", function (this: GPUArray, options?: SoftmaxOptions) {
    return logSoftmax(this, options);
  });
  define("dot", function (this: GPUArray, other: GPUArray) {
    return linalg.dot(this, other);
  });
  define("trace", function (this: GPUArray, options?: linalg.TraceOptions) {
    return linalg.trace(this, options);
  });
  define("norm", function (this: GPUArray, ord?: never) {
    return norm(this, ord);
  });
  define("repeat", function (this: GPUArray, repeats: number | readonly number[], axis?: number) {
    return repeat(this, repeats, axis);
  });
  installDisplay(p);
  define("sort", function (this: GPUArray, options?: { axis?: number }) {
    sortInPlace(this, options);
  });
  define("argsort", function (this: GPUArray, options?: SortOptions) {
    return argsort(this, options);
  });
}
