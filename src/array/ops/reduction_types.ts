/**
 * The types of the reductions' arguments and results: their options, and what a reduction returns
 * for a dtype and for its options (a host value over every axis, an array along axes).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import type { FloatDType } from "../core/dtypes.ts";

/**
 * Options of reductions.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rowSums = ga.sum(ga.ones([2, 3]), { axis: 1, keepdims: true }); // shape [2, 1]
 * ```
 */
export interface ReduceOptions {
  /**
   * The axes to reduce: a number, a list (negative counts from the end), or absent for all of them.
   * Also given by position, before the other options: `ga.sum(a, 0, { keepdims: true })`.
   * Default: every axis.
   */
  readonly axis?: number | readonly number[];
  /** Keep the reduced axes, with extent 1, so the result broadcasts against the input. Default false. */
  readonly keepdims?: boolean;
  /** Write the result here (its shape and dtype; a view is fine) and return it. Default: a new array. */
  readonly out?: GPUArray;
}

/**
 * Options of `var` and `std`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sampleStd = ga.std(ga.arange(10), { ddof: 1 });
 * ```
 */
export interface VarOptions extends ReduceOptions {
  /** Delta degrees of freedom: the sum of squares is divided by `n - ddof`. Default 0. */
  readonly ddof?: number;
}

/**
 * Options of `argmin` and `argmax`: one axis, or none for the flat index.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const best = ga.argmax(ga.ones([4, 10]), { axis: 1 }); // int64, shape [4]
 * ```
 */
export interface ArgOptions {
  /** The axis to search along (also given by position: `ga.argmax(a, 1)`); absent: the index into the flattened array. Default: the flattened array. */
  readonly axis?: number;
  /** Keep the reduced axis with extent 1. Default false. */
  readonly keepdims?: boolean;
  /** Write the indices here (int64, the result's shape). Default: a new array. */
  readonly out?: GPUArray;
}

/**
 * What a reduction returns for options `O`: the host value `H` when they name no axis, `keepdims` or
 * `out` (NumPy's scalar), else a `GPUArray<R>` (as it is whenever the axis is given by position).
 *
 * @example
 * ```ts
 * import type { Reduced } from "@cudeno/cudeno/array";
 * const v: Reduced<{}, number, "float32"> = 1.5;
 * ```
 */
export type Reduced<O, H, R extends DType> = O extends
  { axis: number | readonly number[] } | { keepdims: true } | { out: GPUArray } ? GPUArray<R>
  : O extends { axis?: undefined; keepdims?: false; out?: undefined } ? H
  : H | GPUArray<R>;

/**
 * The dtype `sum` and `prod` give for `D`: floats keep theirs, unsigned integers give uint64, other
 * integers and bools int64 (NumPy's accumulation in 64 bits).
 *
 * @example
 * ```ts
 * import type { SumType } from "@cudeno/cudeno/array";
 * const d: SumType<"uint8"> = "uint64";
 * ```
 */
export type SumType<D extends DType> = D extends FloatDType ? D
  : D extends "uint8" | "uint16" | "uint32" | "uint64" ? "uint64"
  : "int64";

/**
 * The dtype `mean`, `var`, `std`, `nanmean` and `logsumexp` give for `D`: floats keep theirs, the rest
 * give float64.
 *
 * @example
 * ```ts
 * import type { MeanType } from "@cudeno/cudeno/array";
 * const d: MeanType<"int32"> = "float64";
 * ```
 */
export type MeanType<D extends DType> = D extends FloatDType ? D : "float64";
