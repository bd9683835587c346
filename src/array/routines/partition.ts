/**
 * `partition` and `argpartition`, NumPy style: a full sort along the axis (the radix sort), which
 * keeps a partition's promise for every `kth` at once.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxis } from "../core/layout.ts";
import { AXIS_OR_NULL, optionsOf } from "../core/axis_args.ts";
import { argsort, checkReal, sort, sortInPlace } from "../ops/sorting.ts";

/**
 * Options of {@link partition} and {@link argpartition}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.PartitionOptions = { axis: 0 };
 * ```
 */
export interface PartitionOptions {
  /** The axis (default -1, the last; null: the flattened array). Also by position. */
  readonly axis?: number | null;
}

function axisOfPartition(args: readonly unknown[], what: string): number | null {
  const o = optionsOf<PartitionOptions>(what, args, [AXIS_OR_NULL], ["axis"], "{ axis: 0 }");
  return o.axis === undefined ? -1 : o.axis;
}

function checkKth(a: GPUArray, kth: number | readonly number[], axis: number | null, what: string): void {
  if (typeof kth !== "number" && !(Array.isArray(kth) && kth.every((k) => typeof k === "number"))) {
    const shown = typeof kth === "object" && kth !== null && !Array.isArray(kth) ? "an object" : String(kth);
    throw new TypeError(`Cannot ${what} with kth ${shown}: give an index (a number) or a list of them`);
  }
  const n = axis === null ? a.size : a.shape[normalizeAxis(axis, a.ndim, what)]!;
  for (const k of typeof kth === "number" ? [kth] : kth) {
    if (!Number.isInteger(k) || k < -n || k >= n) {
      throw new RangeError(
        `Cannot ${what} with kth ${k}: it is out of range for ${n} elements (use ${-n} to ${n - 1})`,
      );
    }
  }
}

/**
 * `a` partitioned along `axis` (default -1; null: flattened) around each index of `kth` (NumPy's
 * `partition`): the element at `kth` is the one a sort would put there, those before it are no
 * larger, those after no smaller. Here the whole row is sorted, which keeps that promise for every
 * `kth` at once. NaN goes last.
 *
 * @throws {RangeError} for a `kth` out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const p = ga.partition(ga.asarray([3, 4, 2, 1]), 2);
 * console.log(p.item(2)); // 3
 * ```
 */
export function partition<D extends DType>(
  a: GPUArray<D>,
  kth: number | readonly number[],
  axis?: number | null | PartitionOptions,
): GPUArray<D> {
  checkReal(a, "partition");
  axis = axisOfPartition([axis], "partition");
  checkKth(a, kth, axis, "partition");
  return sort(a, axis);
}

/**
 * The indices that partition `a` along `axis` around `kth` (NumPy's `argpartition`), int64: the
 * indices of a stable sort, which keep {@link partition}'s promise for every `kth`.
 *
 * @throws {RangeError} for a `kth` out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i = ga.argpartition(ga.asarray([3, 4, 2, 1]), 1);
 * console.log(i.item(1)); // 2n
 * ```
 */
export function argpartition(
  a: GPUArray,
  kth: number | readonly number[],
  axis?: number | null | PartitionOptions,
): GPUArray<"int64"> {
  checkReal(a, "argpartition");
  axis = axisOfPartition([axis], "argpartition");
  checkKth(a, kth, axis, "argpartition");
  return argsort(a, axis) as GPUArray<"int64">;
}

/**
 * NumPy's in-place `ndarray.partition(kth, axis=-1)`, the method `a.partition(kth)`: sorts `a` along
 * the axis in place, which partitions it around every `kth`.
 *
 * @throws {RangeError} for a `kth` out of range.
 * @throws {TypeError} for axis null (the flattened array cannot be partitioned in place).
 */
export function partitionInPlace(
  a: GPUArray,
  kth: number | readonly number[],
  args: readonly unknown[],
): void {
  checkReal(a, "partition");
  const axis = axisOfPartition(args, "partition");
  if (axis === null) {
    throw new TypeError("Cannot partition an array in place with axis null: use ga.partition(a, kth, null)");
  }
  checkKth(a, kth, axis, "partition");
  sortInPlace(a, [axis]);
}
