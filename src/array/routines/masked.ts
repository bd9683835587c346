/**
 * NumPy's writes and reads through masks and flat positions: `flatnonzero`, `extract`, `place`,
 * `putmask`, `copyto` (with `where`), `fillDiagonal` and `trimZeros`. Each is a composite of `nonzero`, `take`,
 * `put`, `where` and `assign`.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { assign, linearFill } from "../ops/assign.ts";
import { where } from "../ops/ufunc.ts";
import { broadcastTo, ravel, reshape, slice } from "../ops/views.ts";
import { max, min } from "../api/reductions.ts";
import { put, take } from "../ops/indexing.ts";
import { remainder } from "../api/elementwise.ts";
import { nonzero } from "./compact.ts";

/**
 * The flat (C-order) positions of the non-zero elements of `a` (NumPy's `flatnonzero`), int64.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.flatnonzero(ga.asarray([[0, 2], [3, 0]])).get()); // [1n, 2n]
 * ```
 */
export function flatnonzero(a: GPUArray): GPUArray<"int64"> {
  arrayArg(a, "flatnonzero");
  using flat = ravel(a);
  return nonzero(flat)[0]!;
}

/** `value`, checked to be an array or a number, for `what`. */
function valueArg(value: unknown, what: string): void {
  if (!(value instanceof GPUArray) && typeof value !== "number" && typeof value !== "bigint") {
    throw new TypeError(`Cannot ${what} ${describe(value)}: give an array, a number or a bigint`);
  }
}

/** `mask`, checked to have as many elements as `a`. */
function sameSize(mask: GPUArray, a: GPUArray, what: string): void {
  arrayArg(mask, what);
  arrayArg(a, what);
  if (mask.size !== a.size) {
    throw new RangeError(
      `Cannot ${what} with a mask of shape ${showShape(mask.shape)} and an array of shape ${
        showShape(a.shape)
      }: give them as many elements`,
    );
  }
}

/**
 * The elements of `a` where `condition` is non-zero, flattened (NumPy's `extract`), in C order.
 *
 * @throws {RangeError} where `condition` and `a` differ in size.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.arange(6, "float32").reshape([2, 3]);
 * console.log(ga.extract(x.gt(2), x).get()); // Float32Array [3, 4, 5]
 * ```
 */
export function extract<D extends DType>(
  condition: GPUArray,
  a: GPUArray<D>,
): GPUArray<D> {
  sameSize(condition, a, "extract");
  using positions = flatnonzero(condition);
  using flat = ravel(a);
  return take(flat, positions);
}

/**
 * Writes `values` into `a` where `mask` is true, in place (NumPy's `place`): the masked positions in
 * C order take `values` in order, repeated when fewer.
 *
 * @throws {RangeError} where the mask and `a` differ in size, or `values` is empty while the mask
 * selects something.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.arange(6, "float32");
 * ga.place(x, x.gt(2), ga.asarray([40, 50])); // [0, 1, 2, 40, 50, 40]
 * ```
 */
export function place<A extends GPUArray>(a: A, mask: GPUArray, values: GPUArray | number | bigint): A {
  sameSize(mask, a, "place");
  valueArg(values, "place");
  using positions = flatnonzero(mask);
  if (values instanceof GPUArray && values.size === 0 && positions.size > 0) {
    throw new RangeError("Cannot place from no values into a mask that selects elements: give at least one");
  }
  return put(a, positions, values);
}

/**
 * Writes `values` into `a` where `mask` is true, in place (NumPy's `putmask`): element i (in C order)
 * takes `values`' element i, `values` repeated over `a` when smaller; the mask has `a`'s shape.
 *
 * @throws {RangeError} where the mask's shape is not `a`'s, or `values` is empty.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.arange(5, "float32");
 * ga.putmask(x, x.gt(2), ga.asarray([10, 20])); // [0, 1, 2, 20, 10]
 * ```
 */
export function putmask<A extends GPUArray>(a: A, mask: GPUArray, values: GPUArray | number | bigint): A {
  sameSize(mask, a, "putmask");
  valueArg(values, "putmask");
  using m = reshape(mask, a.shape);
  if (!(values instanceof GPUArray)) {
    using chosen = where(m, values, a);
    return assign(a, chosen);
  }
  if (values.size === 0) throw new RangeError("Cannot putmask from no values: give at least one");
  // values[i % size] for each flat position i of a.
  using positions = linearFill(new GPUArray(a.backend, a.shape, "int64"), 0, 1);
  using wrapped = remainder(positions, values.size);
  using flat = ravel(values);
  using repeated = take(flat, wrapped);
  using chosen = where(m, repeated, a);
  return assign(a, chosen);
}

/**
 * Copies `src` into `dst` (NumPy's `copyto`), broadcasting, and converting as `assign` does; with
 * `{ where }`, only where that bool array (broadcasting too) is true.
 *
 * @throws {RangeError} where the shapes do not broadcast to `dst`'s.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const dst = ga.zeros([2, 3]);
 * ga.copyto(dst, ga.asarray([1, 2, 3]), { where: ga.asarray([true, false, true]) }); // rows [1, 0, 3]
 * ```
 */
export function copyto<A extends GPUArray>(
  dst: A,
  src: GPUArray | number | bigint,
  options?: { readonly where?: GPUArray },
): A {
  arrayArg(dst, "copyto");
  valueArg(src, "copyto");
  const mask = options?.where;
  if (mask === undefined) return assign(dst, src);
  arrayArg(mask, "copyto");
  using wide = broadcastTo(mask, dst.shape);
  using chosen = where(wide, src, dst);
  return assign(dst, chosen);
}

/**
 * Writes `value` on the main diagonal of `a`, in place (NumPy's `fill_diagonal`): the elements whose
 * indices are all equal. `a` is 2-D, or of more dimensions all of one extent; a tall 2-D `a` starts
 * the diagonal again below the square with `{ wrap: true }`, as NumPy's does.
 *
 * @throws {RangeError} for fewer than 2 dimensions, or more with extents that differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.fillDiagonal(ga.zeros([3, 3]), 5); // 5 on the diagonal
 * ```
 */
export function fillDiagonal<A extends GPUArray>(
  a: A,
  value: GPUArray | number | bigint,
  options?: { readonly wrap?: boolean },
): A {
  arrayArg(a, "fillDiagonal");
  valueArg(value, "fillDiagonal");
  if (a.ndim < 2 || (a.ndim > 2 && a.shape.some((d) => d !== a.shape[0]))) {
    throw new RangeError(
      `Cannot fillDiagonal an array of shape ${showShape(a.shape)}: give 2 dimensions, or more of one extent`,
    );
  }
  // NumPy's stride through the flat array: 1 + the sum of the products of the leading extents.
  let step = 1, product = 1;
  for (const d of a.shape.slice(0, -1)) {
    product *= d;
    step += product;
  }
  if (a.ndim === 2) step = a.shape[1]! + 1;
  const end = a.ndim === 2 && options?.wrap !== true ? Math.min(a.size, a.shape[1]! * a.shape[1]!) : a.size;
  const count = Math.ceil(end / step);
  if (count === 0) return a;
  using positions = linearFill(new GPUArray(a.backend, [count], "int64"), 0, step);
  return put(a, positions, value);
}

/**
 * The 1-D `a` without its leading and trailing zeros (NumPy's `trim_zeros`; `trim` "f" the leading
 * only, "b" the trailing only), a view; where every element is zero, an empty view.
 *
 * @throws {RangeError} for an array that is not 1-D.
 * @throws {TypeError} for a `trim` other than "fb", "f" or "b".
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.trimZeros(ga.asarray([0, 0, 1, 2, 0])).get()); // Float32Array [1, 2]
 * ```
 */
export function trimZeros<D extends DType>(a: GPUArray<D>, trim: "fb" | "f" | "b" = "fb"): GPUArray<D> {
  arrayArg(a, "trimZeros");
  if (a.ndim !== 1) {
    throw new RangeError(`Cannot trimZeros an array of shape ${showShape(a.shape)}: give a 1-D array`);
  }
  if (trim !== "fb" && trim !== "f" && trim !== "b") {
    throw new TypeError(`Cannot trimZeros with trim ${describe(trim)}: give "fb", "f" or "b"`);
  }
  a.backend.checkHostRead("trimZeros()", "where the first and last non-zero elements are");
  using positions = flatnonzero(a);
  if (positions.size === 0) return slice(a, [0, 0]);
  const first = trim.includes("f") ? Number(min(positions)) : 0;
  const last = trim.includes("b") ? Number(max(positions)) + 1 : a.size;
  return slice(a, [first, last]);
}
