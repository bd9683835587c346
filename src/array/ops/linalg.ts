/**
 * NumPy's products beyond `matmul`: `dot`, `vdot`, `inner`, `outer` and `trace`, each lowered to
 * `matmul` (through `contract` for more than two dimensions), a whole-array reduction, an elementwise
 * multiply or a view.
 *
 * @module
 */

import { isTracked } from "../grad/tape.ts";
import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import type { ResultType } from "../core/dtypes.ts";
import { callOp, type OpOptions } from "./ufunc.ts";
import { BINARY } from "./binary_ops.ts";
import { diagonal, type DiagonalOptions, diagonalOptions, expandDims, ravel } from "./views.ts";
import { matmul } from "./matmul.ts";
import { contract } from "./einsum.ts";
import { flatDot } from "./norm.ts";
import { sum } from "../api/reductions.ts";
import type { SumValue } from "../core/methods.ts";

/**
 * The sum of the elementwise product as a host number; inside a differentiated function, for a tracked
 * operand, a 0-d array (so the gradient flows).
 */
function flatProduct(a: GPUArray, b: GPUArray): number {
  if (!isTracked(a) && !isTracked(b)) return flatDot(a, b);
  return sum(callOp(BINARY.mul, [ravel(a), ravel(b)], undefined, "dot")) as unknown as number;
}

function checkPair(a: unknown, b: unknown, what: string): void {
  if (!(a instanceof GPUArray) || !(b instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} a non-array: pass two GPUArrays`);
  }
  if ([a.dtype, b.dtype].some((d) => d === "complex64" || d === "complex128")) {
    throw new TypeError(`Cannot ${what} complex arrays yet: use ga.matmul, which takes them`);
  }
}

function shapes(a: GPUArray, b: GPUArray, what: string): string {
  return `Cannot ${what} arrays of shapes ${showShape(a.shape)} and ${showShape(b.shape)}`;
}

/**
 * NumPy's `dot`: for two 1-D arrays their inner product as a host number (as {@link vdot}); for 2-D
 * arrays the matrix product ({@link matmul}); with a 1-D operand, the matrix-vector product; for more
 * dimensions the sum over the last axis of `a` and the second-to-last of `b` (the result has `a`'s
 * other axes, then `b`'s); with a 0-d operand, the elementwise product.
 *
 * @throws {RangeError} naming both shapes when the summed axes differ in length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.dot(ga.ones(4), ga.arange(4))); // 6
 * const m = ga.dot(ga.asarray([[1, 2], [3, 4]]), ga.asarray([[5, 6], [7, 8]]));
 * console.log((m as ga.GPUArray).get()); // Float32Array [19, 22, 43, 50]
 * ```
 */
export function dot<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
): GPUArray<ResultType<A, B>> | number {
  checkPair(a, b, "dot");
  if (a.ndim === 0 || b.ndim === 0) {
    return callOp(BINARY.mul, [a, b], undefined, "mul") as GPUArray<ResultType<A, B>>;
  }
  const j = b.ndim === 1 ? 0 : b.ndim - 2;
  if (a.shape[a.ndim - 1] !== b.shape[j]) {
    throw new RangeError(
      `${shapes(a, b, "dot")}: the first's last axis (${a.shape[a.ndim - 1]}) and the second's ${
        b.ndim === 1 ? "only" : "second-to-last"
      } axis (${b.shape[j]}) differ`,
    );
  }
  if (a.ndim === 1 && b.ndim === 1) return flatProduct(a, b);
  if (a.ndim <= 2 && b.ndim <= 2 || a.ndim === 1 || b.ndim === 1) return matmul(a, b);
  return contract(a, b, [], [[a.ndim - 1, j]]) as GPUArray<ResultType<A, B>>;
}

/**
 * The dot product of two arrays of the same size, flattened in C order, as a host number (NumPy's
 * `vdot`).
 *
 * @throws {RangeError} when the sizes differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.vdot(ga.ones([2, 2]), ga.arange(4).reshape(2, 2))); // 6
 * ```
 */
export function vdot(a: GPUArray, b: GPUArray): number {
  checkPair(a, b, "vdot");
  if (a.size !== b.size) {
    throw new RangeError(`${shapes(a, b, "vdot")}: the sizes (${a.size} and ${b.size}) differ`);
  }
  return flatProduct(a, b);
}

/**
 * NumPy's `inner`: the sum of products over the last axes of `a` and `b` (a host number for two 1-D
 * arrays; otherwise an array with `a`'s other axes, then `b`'s); with a 0-d operand, the elementwise
 * product.
 *
 * @throws {RangeError} naming both shapes when the last axes differ in length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const g = ga.inner(ga.ones([3, 4]), ga.ones([5, 4])); // [3, 5], each 4: a·bᵀ, b read transposed
 * ```
 */
export function inner<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
): GPUArray<ResultType<A, B>> | number {
  checkPair(a, b, "inner");
  if (a.ndim === 0 || b.ndim === 0) {
    return callOp(BINARY.mul, [a, b], undefined, "mul") as GPUArray<ResultType<A, B>>;
  }
  if (a.shape[a.ndim - 1] !== b.shape[b.ndim - 1]) {
    throw new RangeError(
      `${shapes(a, b, "inner")}: their last axes (${a.shape[a.ndim - 1]} and ${b.shape[b.ndim - 1]}) differ`,
    );
  }
  if (a.ndim === 1 && b.ndim === 1) return flatProduct(a, b);
  return contract(a, b, [], [[a.ndim - 1, b.ndim - 1]]) as GPUArray<ResultType<A, B>>;
}

/**
 * The outer product of `a` and `b`, both flattened: `out[i, j] = a[i] · b[j]` (NumPy's `outer`, an
 * elementwise multiply of broadcast views).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.outer(ga.arange(3, "float32"), ga.ones(2)).get()); // Float32Array [0, 0, 1, 1, 2, 2]
 * ```
 */
export function outer<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
  options: OpOptions = {},
): GPUArray<ResultType<A, B>> {
  checkPair(a, b, "outer");
  using ra = ravel(a), rb = ravel(b);
  using column = expandDims(ra, 1), row = expandDims(rb, 0);
  return callOp(BINARY.mul, [column, row], options, "mul") as GPUArray<ResultType<A, B>>;
}

/** Options of {@link trace}. */
export type TraceOptions = DiagonalOptions;

/**
 * The sum along a diagonal (NumPy's `trace`): of a 2-D array, a host value as {@link sum} gives
 * (an exact bigint for integers); of more dimensions, an array of the sums of the diagonals of the
 * planes of `axis1` and `axis2` (the other axes kept), in the sum's dtype. `offset`, `axis1` and
 * `axis2` are given by position, as NumPy's `trace(a, offset, axis1, axis2)`, or in the options.
 *
 * @throws {RangeError} for an array of fewer than 2 dimensions, or axes out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.trace(ga.asarray([[1, 2], [3, 4]]))); // 5
 * const sums = ga.trace(ga.ones([2, 3, 3]), { axis1: 1, axis2: 2 }) as ga.GPUArray; // 3-D: an array
 * console.log(sums.get()); // Float32Array [3, 3]
 * console.log(ga.trace(ga.asarray([[1, 2], [3, 4]]), 1)); // 2, the diagonal above; also { offset: 1 }
 * ```
 */
export function trace<D extends DType>(a: GPUArray<D>, options?: TraceOptions): SumValue<D> | GPUArray;
/** `trace(a, offset, axis1, axis2)`, NumPy's positions (options may follow the last one given). */
export function trace<D extends DType>(
  a: GPUArray<D>,
  offset: number,
  axis1?: number | Omit<TraceOptions, "offset">,
  axis2?: number | Omit<TraceOptions, "offset" | "axis1">,
): SumValue<D> | GPUArray;
export function trace(a: GPUArray, ...args: unknown[]): unknown {
  using d = diagonal(a, diagonalOptions("trace", args));
  return d.ndim === 1 ? sum(d) : sum(d, { axis: -1 });
}
