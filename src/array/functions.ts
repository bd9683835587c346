/**
 * The elementwise operations and reductions as functions, NumPy style: `add(a, b)`, `exp(a)`,
 * `sum(a)`.
 *
 * @module
 */

import type { GPUArray } from "./gpuarray.ts";
import { binary, dot as dotOf, type Operand, type OpOptions, reduce, unary } from "./ops.ts";

/**
 * `a + b`, elementwise; either may be a scalar.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.add(ga.ones(4), 1);
 * ```
 */
export function add(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("add", a, b, options);
}
/**
 * `a - b`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.sub(10, ga.arange(4));
 * ```
 */
export function sub(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("sub", a, b, options);
}
/**
 * `a * b`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.mul(ga.arange(4), 2);
 * ```
 */
export function mul(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("mul", a, b, options);
}
/**
 * `a / b`, elementwise true division (integer arrays give float64).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.div(ga.arange(4), 2);
 * ```
 */
export function div(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("div", a, b, options);
}
/**
 * `a ** b`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const squares = ga.pow(ga.arange(4), 2);
 * ```
 */
export function pow(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("pow", a, b, options);
}
/**
 * The larger of `a` and `b`, elementwise (NaN wins).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const relu = ga.maximum(ga.arange(-2, 2), 0);
 * ```
 */
export function maximum(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("maximum", a, b, options);
}
/**
 * The smaller of `a` and `b`, elementwise (NaN wins).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const capped = ga.minimum(ga.arange(4), 2);
 * ```
 */
export function minimum(a: Operand, b: Operand, options?: OpOptions): GPUArray {
  return binary("minimum", a, b, options);
}

/**
 * `-a`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.neg(ga.ones(3));
 * ```
 */
export function neg(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("neg", a, options);
}
/**
 * `|a|`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const m = ga.abs(ga.arange(-2, 2));
 * ```
 */
export function abs(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("abs", a, options);
}
/**
 * `e ** a`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const e = ga.exp(ga.zeros(3));
 * ```
 */
export function exp(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("exp", a, options);
}
/**
 * The natural logarithm.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const l = ga.log(ga.ones(3));
 * ```
 */
export function log(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("log", a, options);
}
/**
 * The square root.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sqrt(ga.arange(4));
 * ```
 */
export function sqrt(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("sqrt", a, options);
}
/**
 * The sine (radians).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const s = ga.sin(ga.arange(4));
 * ```
 */
export function sin(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("sin", a, options);
}
/**
 * The cosine (radians).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.cos(ga.arange(4));
 * ```
 */
export function cos(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("cos", a, options);
}
/**
 * The tangent (radians).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.tan(ga.arange(4));
 * ```
 */
export function tan(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("tan", a, options);
}
/**
 * The hyperbolic tangent.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.tanh(ga.arange(-2, 2));
 * ```
 */
export function tanh(a: GPUArray, options?: OpOptions): GPUArray {
  return unary("tanh", a, options);
}

/**
 * The sum of all elements as a host number.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.sum(ga.arange(101))); // 5050
 * ```
 */
export function sum(a: GPUArray): number {
  return reduce("sum", a);
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
  return reduce("sum", a) / a.size;
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
export function min(a: GPUArray): number {
  return reduce("min", a);
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
export function max(a: GPUArray): number {
  return reduce("max", a);
}
/**
 * The dot product of two arrays of the same size.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.dot(ga.ones(4), ga.arange(4))); // 6
 * ```
 */
export function dot(a: GPUArray, b: GPUArray): number {
  return dotOf(a, b);
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
