/**
 * NumPy's shape-normalizing joins, made of views and `concatenate`: `atleast1d`, `atleast2d`,
 * `atleast3d` and `hstack`, `vstack`, `dstack`, `columnStack`, `block`; and the splits that undo them,
 * `hsplit`, `vsplit`, `dsplit` (views, through `split`). Gradients flow through them as through the
 * views and the join.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, type GPUArray } from "../core/gpuarray.ts";
import { reshape } from "../ops/views.ts";
import { checkList, concatenate, split } from "./join.ts";
import { showShape } from "../core/layout.ts";

/** `a` itself where it has `rank` dimensions or more, else a view of it with axes of 1 where NumPy puts them. */
function atLeast<D extends DType>(a: GPUArray<D>, rank: 1 | 2 | 3, what: string): GPUArray<D> {
  arrayArg(a, what);
  if (a.ndim >= rank) return a;
  const [x = 1, y = 1] = a.shape;
  const shape = rank === 1 ? [1] : rank === 2 ? [1, a.size] : a.ndim === 2 ? [x, y, 1] : [1, a.size, 1];
  return reshape(a, shape);
}

/** `concatenate` of `views` (of `arrays`) along `axis`, the views that are not the arrays freed after. */
function joined(views: readonly GPUArray[], arrays: readonly GPUArray[], axis: number): GPUArray {
  try {
    return concatenate(views, axis);
  } finally {
    views.forEach((v, i) => v !== arrays[i] && v.free());
  }
}

/**
 * `a` with at least one dimension (NumPy's `atleast_1d`): a 0-d array as shape `[1]`, others as they
 * are (the same array).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.atleast1d(ga.asarray(3)).shape); // [1]
 * ```
 */
export function atleast1d<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  return atLeast(a, 1, "atleast1d");
}

/**
 * `a` with at least two dimensions (NumPy's `atleast_2d`): 0-d as `[1, 1]`, a vector of n as the row
 * `[1, n]` (a view), others as they are.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.atleast2d(ga.arange(3)).shape); // [1, 3]
 * ```
 */
export function atleast2d<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  return atLeast(a, 2, "atleast2d");
}

/**
 * `a` with at least three dimensions (NumPy's `atleast_3d`): 0-d as `[1, 1, 1]`, a vector of n as
 * `[1, n, 1]`, an m × n matrix as `[m, n, 1]` (views), others as they are.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.atleast3d(ga.ones([2, 3])).shape); // [2, 3, 1]
 * ```
 */
export function atleast3d<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  return atLeast(a, 3, "atleast3d");
}

/**
 * The arrays joined horizontally (NumPy's `hstack`): vectors end to end, arrays of more dimensions
 * along their second axis (columns).
 *
 * @throws {RangeError} when the other axes' extents differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const wide = ga.hstack([ga.ones([2, 1]), ga.zeros([2, 3])]); // shape [2, 4]
 * ```
 */
export function hstack(arrays: readonly GPUArray[]): GPUArray {
  const list = checkList(arrays, "hstack"), views = list.map((a) => atLeast(a, 1, "hstack"));
  return joined(views, list, views[0]!.ndim === 1 ? 0 : 1);
}

/**
 * The arrays joined vertically (NumPy's `vstack`): vectors as rows, arrays of more
 * dimensions along their first axis.
 *
 * @throws {RangeError} when the other axes' extents differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rows = ga.vstack([ga.arange(3), ga.ones(3)]); // shape [2, 3]
 * ```
 */
export function vstack(arrays: readonly GPUArray[]): GPUArray {
  const list = checkList(arrays, "vstack");
  return joined(list.map((a) => atLeast(a, 2, "vstack")), list, 0);
}

/**
 * The arrays joined along the third axis (NumPy's `dstack`): vectors and matrices first given that axis
 * as {@link atleast3d} does.
 *
 * @throws {RangeError} when the other axes' extents differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const planes = ga.dstack([ga.ones([2, 2]), ga.zeros([2, 2])]); // shape [2, 2, 2]
 * ```
 */
export function dstack(arrays: readonly GPUArray[]): GPUArray {
  const list = checkList(arrays, "dstack");
  return joined(list.map((a) => atLeast(a, 3, "dstack")), list, 2);
}

/**
 * Vectors as the columns of a matrix, matrices joined along their columns (NumPy's `column_stack`).
 *
 * @throws {RangeError} when the arrays' lengths (rows) differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const xy = ga.columnStack([ga.arange(4), ga.ones(4)]); // shape [4, 2]
 * ```
 */
export function columnStack(arrays: readonly GPUArray[]): GPUArray {
  const list = checkList(arrays, "columnStack");
  return joined(list.map((a) => (a.ndim < 2 ? reshape(a, [a.size, 1]) : a)), list, 1);
}

/** `split` along `axis` of an array of at least `rank` dimensions, as `what`. */
function splitAlong<D extends DType>(
  a: GPUArray<D>,
  sections: number | readonly number[],
  axis: number,
  rank: number,
  what: string,
): GPUArray<D>[] {
  arrayArg(a, what);
  if (a.ndim < rank) {
    throw new RangeError(
      `Cannot ${what} an array of shape ${showShape(a.shape)}: it needs at least ${rank} dimension${
        rank === 1 ? "" : "s"
      }`,
    );
  }
  return split(a, sections, axis);
}

/**
 * `a` cut along its columns (NumPy's `hsplit`: axis 1, or 0 for a 1-D array) into `sections` equal
 * views, or at the listed indices.
 *
 * @throws {RangeError} for a 0-d array, or sections that do not divide the axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [left, right] = ga.hsplit(ga.zeros([2, 4]), 2); // two [2, 2] views
 * ```
 */
export function hsplit<D extends DType>(a: GPUArray<D>, sections: number | readonly number[]): GPUArray<D>[] {
  arrayArg(a, "hsplit");
  return splitAlong(a, sections, a.ndim === 1 ? 0 : 1, 1, "hsplit");
}

/**
 * `a` cut along its rows (NumPy's `vsplit`: axis 0, of an array of 2 dimensions or more) into
 * `sections` equal views, or at the listed indices.
 *
 * @throws {RangeError} for fewer than 2 dimensions, or sections that do not divide the axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [top, rest] = ga.vsplit(ga.zeros([4, 3]), [1]); // [1, 3] and [3, 3]
 * ```
 */
export function vsplit<D extends DType>(a: GPUArray<D>, sections: number | readonly number[]): GPUArray<D>[] {
  return splitAlong(a, sections, 0, 2, "vsplit");
}

/**
 * `a` cut along its depth (NumPy's `dsplit`: axis 2, of an array of 3 dimensions or more) into
 * `sections` equal views, or at the listed indices.
 *
 * @throws {RangeError} for fewer than 3 dimensions, or sections that do not divide the axis.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const planes = ga.dsplit(ga.zeros([2, 2, 3]), 3); // three [2, 2, 1] views
 * ```
 */
export function dsplit<D extends DType>(a: GPUArray<D>, sections: number | readonly number[]): GPUArray<D>[] {
  return splitAlong(a, sections, 2, 3, "dsplit");
}

/** Arrays nested in lists, as {@link block} takes them: the innermost lists join along the last axis. */
export type Blocks = GPUArray | readonly Blocks[];

/**
 * An array assembled from nested lists of blocks (NumPy's `block`): the innermost lists join along
 * the last axis, the lists of those along the one before, and so on; blocks with fewer dimensions
 * than the result (or than the nesting is deep) get leading axes of 1. Every list at one depth must
 * be a list, and every block at the deepest level an array.
 *
 * @throws {RangeError} for an empty list, nesting of uneven depth, or blocks whose shapes do not fit.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.eye(2), z = ga.zeros([2, 2]);
 * const m = ga.block([[a, z], [z, a.mul(2)]]); // shape [4, 4]
 * ```
 */
export function block(arrays: Blocks): GPUArray {
  const depthOf = (x: Blocks, path: string): number => {
    if (!Array.isArray(x)) {
      arrayArg(x as GPUArray, "block");
      return 0;
    }
    if (x.length === 0) {
      throw new RangeError(`Cannot block with an empty list at ${path}: give at least one block`);
    }
    const depths = x.map((y, i) => depthOf(y, `${path}[${i}]`));
    if (depths.some((d) => d !== depths[0])) {
      throw new RangeError(
        `Cannot block lists nested to different depths at ${path} (${
          depths.join(", ")
        }): nest every list alike`,
      );
    }
    return depths[0]! + 1;
  };
  const depth = depthOf(arrays, "arrays");
  const leaves: GPUArray[] = [];
  const collect = (x: Blocks): void =>
    Array.isArray(x) ? x.forEach(collect) : void leaves.push(x as GPUArray);
  collect(arrays);
  const ndim = Math.max(depth, ...leaves.map((a) => a.ndim));
  const made: GPUArray[] = [];
  const assemble = (x: Blocks, level: number): GPUArray => {
    if (!Array.isArray(x)) {
      const a = x as GPUArray;
      if (a.ndim === ndim) return a;
      const view = reshape(a, [...new Array(ndim - a.ndim).fill(1), ...a.shape]);
      made.push(view);
      return view;
    }
    const joined = concatenate(x.map((y) => assemble(y, level + 1)), ndim - (depth - level));
    made.push(joined);
    return joined;
  };
  try {
    const out = assemble(arrays, 0);
    return depth === 0 ? out.copy() : out;
  } finally {
    const result = made.at(-1);
    for (const m of made) if (m !== result || depth === 0) m.free();
  }
}
