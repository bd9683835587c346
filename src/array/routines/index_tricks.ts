/**
 * Arrays of positions, NumPy style: `indices` (the index along each axis of every position of a grid),
 * `triuIndices` / `trilIndices` (the positions of a triangle, through `tri` and `nonzero`), and
 * `unravelIndex` / `ravelMultiIndex` (flat indices to coordinates and back, in int64 arithmetic).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { DTYPE, numberSlot, optionsOf } from "../core/axis_args.ts";
import { describe } from "../core/describe.ts";
import { showShape } from "../core/layout.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import { assign, astype } from "../ops/assign.ts";
import { clip } from "../ops/ufunc.ts";
import { floorDivide, remainder } from "../api/elementwise.ts";
import { any } from "../api/reductions.ts";
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

/** `a` as int64 after checking it holds integers. */
function integers(a: GPUArray, what: string): GPUArray<"int64"> {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot ${what} ${describe(a)}: pass a GPUArray`);
  const kind = DTYPES[a.dtype].kind;
  if (kind !== "int" && kind !== "uint") {
    throw new TypeError(`Cannot ${what} ${a.dtype} indices: give an integer array`);
  }
  return astype(a, "int64");
}

/** Throws `message` where any element of `outside` is true (a read back to the host). */
function refuseAny(outside: GPUArray, message: () => string): void {
  if (any(outside)) throw new RangeError(message());
}

/**
 * The coordinates in an array of shape `shape` of each flat (C-order) index of `indices` (NumPy's
 * `unravel_index`): one int64 array per axis, each of the indices' shape.
 *
 * @throws {RangeError} for an index outside 0 to the size - 1 (read back to the host).
 * @throws {TypeError} for indices that are not of an integer dtype.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.unravelIndex(ga.asarray([1, 5, 7], "int32"), [3, 4]);
 * console.log(rows.get(), cols.get()); // [0n, 1n, 1n] [1n, 1n, 3n]
 * ```
 */
export function unravelIndex(indices: GPUArray, shape: readonly number[]): GPUArray<"int64">[] {
  const dims = checkedShape(shape, "unravelIndex");
  using whole = integers(indices, "unravelIndex");
  const size = dims.reduce((p, d) => p * d, 1);
  indices.backend.checkHostRead("unravelIndex()", "whether every index is in range");
  {
    using low = whole.lt(0), high = whole.ge(size), outside = low.logicalOr(high);
    refuseAny(
      outside,
      () => `Cannot unravelIndex: an index is out of range for shape ${showShape(dims)} (0 to ${size - 1})`,
    );
  }
  const coords: GPUArray<"int64">[] = [];
  let rest: GPUArray<"int64"> = whole.copy();
  for (let axis = dims.length - 1; axis >= 0; axis--) {
    const d = Math.max(dims[axis]!, 1);
    coords.unshift(remainder(rest, d) as GPUArray<"int64">);
    const next = floorDivide(rest, d) as GPUArray<"int64">;
    rest.free();
    rest = next;
  }
  rest.free();
  return coords;
}

/**
 * The flat (C-order) index in an array of shape `shape` of each position whose coordinates are
 * `multiIndex` (one integer array per axis, broadcasting together; NumPy's `ravel_multi_index`): an
 * int64 array. `mode` says what a coordinate outside its axis does: `"raise"` (default) is an error,
 * `"wrap"` takes it modulo the extent, `"clip"` the nearest end.
 *
 * @throws {RangeError} for a coordinate out of range with mode "raise" (read back to the host), or as
 * many arrays as axes not given.
 * @throws {TypeError} for coordinates not of an integer dtype, or an unknown mode.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const flat = ga.ravelMultiIndex([ga.asarray([0, 1, 1], "int32"), ga.asarray([1, 1, 3], "int32")], [3, 4]);
 * console.log(flat.get()); // [1n, 5n, 7n]
 * ```
 */
export function ravelMultiIndex(
  multiIndex: readonly GPUArray[],
  shape: readonly number[],
  options?: { readonly mode?: "raise" | "wrap" | "clip" },
): GPUArray<"int64"> {
  const dims = checkedShape(shape, "ravelMultiIndex");
  if (!Array.isArray(multiIndex) || multiIndex.length !== dims.length || dims.length === 0) {
    throw new RangeError(
      `Cannot ravelMultiIndex ${describe(multiIndex)} into shape ${
        showShape(dims)
      }: give one coordinate array per axis (${dims.length})`,
    );
  }
  const mode = options?.mode ?? "raise";
  if (mode !== "raise" && mode !== "wrap" && mode !== "clip") {
    throw new TypeError(`Cannot ravelMultiIndex with mode ${describe(mode)}: give "raise", "wrap" or "clip"`);
  }
  const coords = multiIndex.map((c) => integers(c, "ravelMultiIndex"));
  let flat: GPUArray<"int64"> | undefined;
  try {
    if (mode === "raise") {
      coords[0]!.backend.checkHostRead("ravelMultiIndex()", "whether every coordinate is in range");
    }
    let stride = 1;
    for (let axis = dims.length - 1; axis >= 0; axis--) {
      const c = coords[axis]!, d = dims[axis]!;
      if (mode === "raise") {
        using low = c.lt(0), high = c.ge(d), outside = low.logicalOr(high);
        refuseAny(
          outside,
          () =>
            `Cannot ravelMultiIndex: a coordinate along axis ${axis} is out of range for extent ${d} (0 to ${
              d - 1
            }); pass { mode: "wrap" } or { mode: "clip" }`,
        );
      }
      const fitted = mode === "wrap" ? remainder(c, Math.max(d, 1)) : mode === "clip" ? clip(c, 0, d - 1) : c;
      const term = fitted.mul(stride) as GPUArray<"int64">;
      if (fitted !== c) fitted.free();
      if (flat === undefined) flat = term;
      else {
        const total = flat.add(term) as GPUArray<"int64">;
        flat.free();
        term.free();
        flat = total;
      }
      stride *= d;
    }
    return flat!;
  } catch (e) {
    flat?.free();
    throw e;
  } finally {
    for (const c of coords) c.free();
  }
}

/** `shape`, checked to be a list of non-negative integers. */
function checkedShape(shape: readonly number[], what: string): number[] {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new TypeError(`Cannot ${what} with shape ${describe(shape)}: give a list of non-negative integers`);
  }
  return [...shape];
}
