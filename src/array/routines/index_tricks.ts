/**
 * Arrays of positions, NumPy style: `indices` (the index along each axis of every position of a grid)
 * and `triuIndices` / `trilIndices` (the positions of a triangle, through `tri` and `nonzero`).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { DTYPE, numberSlot, optionsOf } from "../core/axis_args.ts";
import { assign } from "../ops/assign.ts";
import { reshape, slice } from "../ops/views.ts";
import { arange } from "./creation.ts";
import { tri } from "./matrices.ts";
import { nonzero } from "./compact.ts";

/**
 * Options of {@link indices}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.IndicesOptions = { dtype: "int32", sparse: true };
 * ```
 */
export interface IndicesOptions {
  /** The dtype of the indices (default int64). */
  readonly dtype?: DType;
  /** Give one array per axis, of extent 1 along the others, instead of one array of them all. Default false. */
  readonly sparse?: boolean;
}

/**
 * The index along each axis of every position of a grid of shape `dimensions` (NumPy's `indices`):
 * an array of shape `[dimensions.length, ...dimensions]` whose `i`-th row holds the index along axis
 * `i`; with `sparse`, one array per axis that broadcasts to the grid.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.indices([2, 3]).get()); // BigInt64Array [0n, 0n, 0n, 1n, 1n, 1n, 0n, 1n, 2n, 0n, 1n, 2n]
 * const [r, c] = ga.indices([2, 3], { sparse: true }); // shapes [2, 1] and [1, 3]
 * ```
 */
export function indices(
  dimensions: readonly number[],
  options?: IndicesOptions & { sparse?: false },
): GPUArray;
/** `indices(dimensions, dtype)`: the dtype by position, then the options. */
export function indices(
  dimensions: readonly number[],
  dtype: DType,
  options?: Omit<IndicesOptions, "dtype"> & { sparse?: false },
): GPUArray;
/** `indices` with `sparse: true`: one array per axis. */
export function indices(
  dimensions: readonly number[],
  options: IndicesOptions & { sparse: true },
): GPUArray[];
export function indices(dimensions: readonly number[], ...args: unknown[]): GPUArray | GPUArray[] {
  const options = optionsOf<IndicesOptions>(
    "indices",
    args,
    [DTYPE],
    ["dtype", "sparse"],
    '{ dtype: "int32" }',
  );
  if (!Array.isArray(dimensions) || dimensions.some((d) => !Number.isInteger(d) || d < 0)) {
    const shown = typeof dimensions === "object" && dimensions !== null && !Array.isArray(dimensions)
      ? "an object"
      : JSON.stringify(dimensions) ?? String(dimensions);
    throw new RangeError(
      `Cannot make indices of dimensions ${shown}: give a list of extents (integers, 0 or more)`,
    );
  }
  const dtype = options.dtype ?? "int64";
  const rows = dimensions.map((n, i) => {
    using r = arange(n, dtype);
    return reshape(r, dimensions.map((_, k) => (k === i ? n : 1)));
  });
  if (options.sparse === true) return rows;
  const out = new GPUArray(activeBackend(), [dimensions.length, ...dimensions], dtype);
  rows.forEach((r, i) => {
    using row = slice(out, i);
    assign(row, r);
    r.free();
  });
  return out;
}

/**
 * Options of {@link triuIndices} and {@link trilIndices}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.TriangleOptions = { k: 1, m: 5 };
 * ```
 */
export interface TriangleOptions {
  /** The diagonal (default 0, the main one; above it positive, below negative). Also by position. */
  readonly k?: number;
  /** The number of columns (default `n`). Also by position, after `k`. */
  readonly m?: number;
}

function triangleIndices(
  n: number,
  args: readonly unknown[],
  upper: boolean,
): [GPUArray<"int64">, GPUArray<"int64">] {
  const what = upper ? "triuIndices" : "trilIndices";
  const { k = 0, m } = optionsOf<TriangleOptions>(
    what,
    args,
    [numberSlot("k"), numberSlot("m")],
    ["k", "m"],
    "{ k: 1 }",
  );
  if (!Number.isInteger(k)) throw new TypeError(`Cannot ${what} with k ${k}: give an integer`);
  using mask = tri(n, m ?? n, upper ? k - 1 : k, "bool");
  using keep = upper ? mask.logicalNot() : mask.copy();
  const [r, c] = nonzero(keep);
  return [r!, c!];
}

/**
 * The row and column indices of the upper triangle of an `n × m` matrix (NumPy's `triu_indices`): the
 * elements on and above diagonal `k` (0 the main one), in C order, two int64 arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.triuIndices(3);
 * console.log(rows.get(), cols.get()); // [0n, 0n, 0n, 1n, 1n, 2n] [0n, 1n, 2n, 1n, 2n, 2n]
 * ```
 */
export function triuIndices(
  n: number,
  k?: number | TriangleOptions,
  m?: number | TriangleOptions,
): [GPUArray<"int64">, GPUArray<"int64">] {
  return triangleIndices(n, [k, m], true);
}

/**
 * The row and column indices of the lower triangle of an `n × m` matrix (NumPy's `tril_indices`): the
 * elements on and below diagonal `k`, in C order, two int64 arrays.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.trilIndices(3, -1); // [1n, 2n, 2n] [0n, 0n, 1n]
 * ```
 */
export function trilIndices(
  n: number,
  k?: number | TriangleOptions,
  m?: number | TriangleOptions,
): [GPUArray<"int64">, GPUArray<"int64">] {
  return triangleIndices(n, [k, m], false);
}
