/**
 * Whole-array reductions as functions, NumPy style: `sum(a)`, `max(a)`, `norm(a)`.
 *
 * @module
 */

import type { GPUArray } from "./gpuarray.ts";
import { dot as dotOf, reduce } from "./reduce.ts";
import type { DType } from "../kernel/dtype.ts";
import type { HostValue, SumValue } from "./methods.ts";

/**
 * The sum of all elements as a host number.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.sum(ga.arange(101))); // 5050 (a bigint for integer arrays)
 * ```
 */
export function sum<D extends DType>(a: GPUArray<D>): SumValue<D> {
  return reduce("sum", a) as SumValue<D>;
}
/**
 * The mean of all elements.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.mean(ga.arange(5))); // 2
 * ```
 */
export function mean(a: GPUArray): number {
  return Number(reduce("sum", a)) / a.size;
}
/**
 * The smallest element.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.min(ga.arange(5))); // 0
 * ```
 */
export function min<D extends DType>(a: GPUArray<D>): HostValue<D> {
  return reduce("min", a) as HostValue<D>;
}
/**
 * The largest element.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.max(ga.arange(5))); // 4
 * ```
 */
export function max<D extends DType>(a: GPUArray<D>): HostValue<D> {
  return reduce("max", a) as HostValue<D>;
}
/**
 * The Euclidean norm.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.norm(ga.toGpu(new Float32Array([3, 4])))); // 5
 * ```
 */
export function norm(a: GPUArray): number {
  return Math.sqrt(dotOf(a, a));
}
