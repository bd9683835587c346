/**
 * The unary elementwise functions (NumPy's ufuncs of one operand) as functions of the module; each is
 * also a method of `GPUArray` (`ga.exp(a)` is `a.exp()`). Float functions of integer arrays give float32
 * for bool and 8/16-bit integers and float64 for 32/64-bit ones.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import type { FloatResult } from "../core/dtypes.ts";
import { type OpOptions, unary } from "./ufunc.ts";

/**
 * `-a`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.neg(ga.ones(3));
 * ```
 */
export function neg<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("neg", a, options) as GPUArray<A>;
}

/**
 * `|a|`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.abs(ga.asarray([-2, 1]));
 * ```
 */
export function abs<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("abs", a, options) as GPUArray<A>;
}

/**
 * `e ** a`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.exp(ga.zeros(3));
 * ```
 */
export function exp<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("exp", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The natural logarithm, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.log(ga.ones(3));
 * ```
 */
export function log<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("log", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The square root, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sqrt(ga.arange(4));
 * ```
 */
export function sqrt<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("sqrt", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The sine (radians), elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sin(ga.arange(4));
 * ```
 */
export function sin<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("sin", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The cosine (radians), elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.cos(ga.arange(4));
 * ```
 */
export function cos<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("cos", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The tangent (radians), elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.tan(ga.arange(4));
 * ```
 */
export function tan<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("tan", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The hyperbolic tangent, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.tanh(ga.arange(4));
 * ```
 */
export function tanh<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("tanh", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The inverse sine, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.arcsin(ga.asarray([0, 1]));
 * ```
 */
export function arcsin<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("arcsin", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The inverse cosine, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.arccos(ga.asarray([0, 1]));
 * ```
 */
export function arccos<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("arccos", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The inverse tangent, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.arctan(ga.asarray([0, 1]));
 * ```
 */
export function arctan<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("arctan", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The hyperbolic sine, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sinh(ga.arange(3));
 * ```
 */
export function sinh<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("sinh", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The hyperbolic cosine, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.cosh(ga.arange(3));
 * ```
 */
export function cosh<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("cosh", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * `log(1 + a)`, accurate for small `a`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.log1p(ga.asarray([1e-8]));
 * ```
 */
export function log1p<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("log1p", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * `exp(a) - 1`, accurate for small `a`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.expm1(ga.asarray([1e-8]));
 * ```
 */
export function expm1<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("expm1", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The base-2 logarithm, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.log2(ga.asarray([1, 8]));
 * ```
 */
export function log2<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("log2", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * The base-10 logarithm, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.log10(ga.asarray([1, 100]));
 * ```
 */
export function log10<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<FloatResult<A>> {
  return unary("log10", a, options) as GPUArray<FloatResult<A>>;
}

/**
 * Rounded down, elementwise (integers unchanged).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.floor(ga.asarray([-1.5, 1.5]));
 * ```
 */
export function floor<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("floor", a, options) as GPUArray<A>;
}

/**
 * Rounded up, elementwise (integers unchanged).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.ceil(ga.asarray([-1.5, 1.5]));
 * ```
 */
export function ceil<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("ceil", a, options) as GPUArray<A>;
}

/**
 * Rounded toward zero, elementwise (integers unchanged).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.trunc(ga.asarray([-1.5, 1.5]));
 * ```
 */
export function trunc<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("trunc", a, options) as GPUArray<A>;
}

/**
 * Rounded to the nearest integer, halves to even (NumPy's `round`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.round(ga.asarray([0.5, 1.5, 2.5])) // [0, 2, 2];
 * ```
 */
export function round<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("round", a, options) as GPUArray<A>;
}

/**
 * -1, 0 or 1 by the sign of each element (NaN stays NaN).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.sign(ga.asarray([-3, 0, 2]));
 * ```
 */
export function sign<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("sign", a, options) as GPUArray<A>;
}

/**
 * Whether each element is NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.isnan(ga.asarray([NaN, 1]));
 * ```
 */
export function isnan<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<"bool"> {
  return unary("isnan", a, options) as GPUArray<"bool">;
}

/**
 * Whether each element is +infinity or -infinity.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.isinf(ga.asarray([Infinity, 1]));
 * ```
 */
export function isinf<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<"bool"> {
  return unary("isinf", a, options) as GPUArray<"bool">;
}

/**
 * Whether each element is neither infinite nor NaN.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.isfinite(ga.asarray([Infinity, 1]));
 * ```
 */
export function isfinite<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<"bool"> {
  return unary("isfinite", a, options) as GPUArray<"bool">;
}

/**
 * `a * a`, elementwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.square(ga.arange(4));
 * ```
 */
export function square<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray {
  return unary("square", a, options) as GPUArray;
}

/**
 * `1 / a`, elementwise (integer division for integer arrays).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.reciprocal(ga.asarray([2, 4]));
 * ```
 */
export function reciprocal<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray {
  return unary("reciprocal", a, options) as GPUArray;
}

/**
 * Whether each element is zero.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.logicalNot(ga.arange(3));
 * ```
 */
export function logicalNot<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<"bool"> {
  return unary("logicalNot", a, options) as GPUArray<"bool">;
}

/**
 * Bitwise not of integers (`~a`), logical not of bools.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const r = ga.invert(ga.asarray([0, 1], "int32")) // [-1, -2];
 * ```
 */
export function invert<A extends DType>(a: GPUArray<A>, options?: OpOptions): GPUArray<A> {
  return unary("invert", a, options) as GPUArray<A>;
}
