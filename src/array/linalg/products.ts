/**
 * `matrixPower` and `multiDot` (NumPy's `numpy.linalg.matrix_power` and `multi_dot`): chains of
 * `matmul`, by repeated squaring, and in the cheapest order of a chain of products.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { assign } from "../ops/assign.ts";
import { matmul } from "../ops/matmul.ts";
import { broadcastTo, expandDims, reshape } from "../ops/views.ts";
import { arrayLike } from "./lapack.ts";
import { checkArray, matrixShape } from "./operands.ts";
import { identities, inv, type LuType } from "./solve.ts";

/**
 * `a` raised to the integer power `n` by matrix products (NumPy's `matrix_power`), for a square
 * matrix or each of a batch: the identity (in `a`'s dtype) for 0, `a`'s inverse raised to `-n` for a
 * negative `n` (float32 or float64, as {@link inv}). Repeated squaring: about 2·log2(n) products.
 * Integer matrices stay integer for `n ≥ 0` (their products wrap, as NumPy's do).
 *
 * @throws {TypeError} for an `n` that is not an integer.
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @throws {LinAlgError} for a negative `n` and a singular matrix.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const f = ga.linalg.matrixPower(ga.asarray([[1, 1], [1, 0]], "int64"), 10); // [[89, 55], [55, 34]]
 * ```
 */
export function matrixPower<D extends DType>(a: GPUArray<D>, n: number): GPUArray<D | LuType<D>> {
  checkArray(a, "matrixPower");
  if (!Number.isInteger(n)) {
    throw new TypeError(`Cannot matrixPower with n = ${String(n)}: the exponent must be an integer`);
  }
  const { batch, m } = matrixShape(a, "matrixPower", true);
  if (n === 0) {
    const out = arrayLike(a, a.shape, a.dtype);
    const kind = a.dtype === "float32" ? "float32" : "float64";
    using eye = identities(a, [], m, kind);
    using wide = broadcastTo(eye, [...batch, m, m]);
    return assign(out, wide);
  }
  const base = n < 0 ? inv(a) : a;
  let result: GPUArray | undefined;
  let square: GPUArray = base;
  try {
    for (let e = Math.abs(n); e > 0; e = Math.floor(e / 2)) {
      if (e % 2 === 1) {
        const next: GPUArray = result === undefined ? square.copy() : matmul(result, square);
        result?.free();
        result = next;
      }
      if (e > 1) {
        const next = matmul(square, square);
        if (square !== a) square.free();
        square = next;
      }
    }
  } finally {
    if (square !== a && square !== result) square.free();
  }
  return result as GPUArray<D | LuType<D>>;
}

/** The order of a chain's products of least cost (NumPy's `_multi_dot_matrix_chain_order`): `split[i][j]`. */
function chainOrder(dims: readonly number[]): number[][] {
  const n = dims.length - 1;
  const cost = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const split = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let length = 1; length < n; length++) {
    for (let i = 0; i + length < n; i++) {
      const j = i + length;
      cost[i]![j] = Infinity;
      for (let k = i; k < j; k++) {
        const c = cost[i]![k]! + cost[k + 1]![j]! + dims[i]! * dims[k + 1]! * dims[j + 1]!;
        if (c < cost[i]![j]!) {
          cost[i]![j] = c;
          split[i]![j] = k;
        }
      }
    }
  }
  return split;
}

function multiply(arrays: readonly GPUArray[], split: number[][], i: number, j: number): GPUArray {
  if (i === j) return arrays[i]!;
  const k = split[i]![j]!;
  const left = multiply(arrays, split, i, k), right = multiply(arrays, split, k + 1, j);
  try {
    return matmul(left, right);
  } finally {
    if (left !== arrays[i]) left.free();
    if (right !== arrays[j]) right.free();
  }
}

/**
 * The product of a chain of matrices in the order that takes the fewest multiplications (NumPy's
 * `multi_dot`): the first may be a vector (a row), the last a vector (a column), the others must be
 * matrices. The result is a matrix, a vector where one end is a vector, and a host number where both are.
 *
 * @throws {RangeError} for fewer than two arrays, arrays of other dimensions, or extents that do not chain.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.ones([1000, 10]), b = ga.ones([10, 1000]), c = ga.ones([1000, 5]);
 * const abc = ga.linalg.multiDot([a, b, c]); // a·(b·c): 10⁵ multiplications instead of 10⁷
 * ```
 */
export function multiDot(arrays: readonly GPUArray[]): GPUArray | number {
  if (!Array.isArray(arrays) || arrays.length < 2 || !arrays.every((x) => x instanceof GPUArray)) {
    throw new RangeError("Cannot multiDot: give a list of at least two GPUArrays");
  }
  const last = arrays.length - 1;
  const rowFirst = arrays[0]!.ndim === 1, columnLast = arrays[last]!.ndim === 1;
  const chain = arrays.map((x, i) => {
    if (x.ndim === 2 || (x.ndim === 1 && (i === 0 || i === last))) {
      return x.ndim === 2 ? x : expandDims(x, i === 0 ? 0 : 1);
    }
    throw new RangeError(
      `Cannot multiDot an array of shape ${showShape(x.shape)} at position ${i}: ${
        i === 0 || i === last
          ? "the ends must be vectors or matrices"
          : "the arrays between the ends must be matrices"
      }`,
    );
  });
  try {
    const dims = [
      chain[0]!.shape[0]!,
      ...chain.map((x, i) => {
        const next = chain[i + 1];
        if (next !== undefined && x.shape[1] !== next.shape[0]) {
          throw new RangeError(
            `Cannot multiDot arrays of shapes ${showShape(arrays[i]!.shape)} and ${
              showShape(arrays[i + 1]!.shape)
            } (positions ${i} and ${i + 1}): ${x.shape[1]} columns do not meet ${next.shape[0]} rows`,
          );
        }
        return x.shape[1]!;
      }),
    ];
    const product = multiply(chain, chainOrder(dims), 0, last);
    if (!rowFirst && !columnLast) return product;
    try {
      if (rowFirst && columnLast) return product.item() as number;
      using flat = reshape(product, [product.size]);
      return flat.copy();
    } finally {
      product.free();
    }
  } finally {
    chain.forEach((x, i) => {
      if (x !== arrays[i]) x.free();
    });
  }
}
