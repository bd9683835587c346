/**
 * The methods of `GPUArray` beyond its memory and layout: each is one of the module's functions with
 * the array first (`a.add(b)` is `add(a, b)`). Declared here, and defined on the prototype from the
 * function tables, so the two cannot drift apart.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import type { BoolAsInt8, DivisionResult, FloatResult, OperandResult } from "./dtypes.ts";
import type { Shape } from "./layout.ts";
import type { SliceSpec } from "./slicing.ts";
import type { Operand, OpOptions } from "./ufunc.ts";
import { BINARY, type BinaryOp, UNARY, type UnaryOp } from "./ufunc_defs.ts";
import { binary, clip, unary } from "./ufunc.ts";
import * as views from "./views.ts";
import { assign, astype, fill } from "./assign.ts";
import { dot, reduce } from "./reduce.ts";
import { argsort, sortInPlace, type SortOptions } from "./sorting.ts";

/**
 * A host value of an array of `D`: a bigint for 64-bit integers, else a number.
 *
 * @example
 * ```ts
 * import type { HostValue } from "@cudeno/cudeno/array";
 * const v: HostValue<"int64"> = 5n;
 * ```
 */
export type HostValue<D extends DType> = D extends "int64" | "uint64" ? bigint : number;

/**
 * What a whole-array sum of `D` gives on the host: a number for floats, an exact bigint for integers
 * and bools (they sum in 64 bits).
 *
 * @example
 * ```ts
 * import type { SumValue } from "@cudeno/cudeno/array";
 * const v: SumValue<"int32"> = 10n;
 * ```
 */
export type SumValue<D extends DType> = D extends "float16" | "bfloat16" | "float32" | "float64" ? number
  : bigint;

/**
 * The methods every {@link GPUArray} has. Each is also a function of the module taking the array
 * first, documented there.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2], [3, 4]]);
 * const y = x.T.mul(2).add(x).sqrt(); // a view, then elementwise functions
 * console.log(y.shape, x.slice([], 0).get()); // [2, 2] Float32Array [1, 3]
 * ```
 */
export interface ArrayMethods<D extends DType> {
  /** {@link views.reshape}: another shape of the same size (a view where the strides allow). */
  reshape(...shape: number[] | [Shape]): GPUArray<D>;
  /** {@link views.transpose}: the axes permuted (reversed when none are given), a view. */
  transpose(...axes: number[] | [readonly number[]]): GPUArray<D>;
  /** The transpose (axes reversed), a view. */
  readonly T: GPUArray<D>;
  /** {@link views.swapaxes}: two axes exchanged, a view. */
  swapaxes(axis1: number, axis2: number): GPUArray<D>;
  /** {@link views.moveaxis}: axes moved to new positions, a view. */
  moveaxis(source: number | readonly number[], destination: number | readonly number[]): GPUArray<D>;
  /** {@link views.squeeze}: without axes of extent 1, a view. */
  squeeze(axis?: number | readonly number[]): GPUArray<D>;
  /** {@link views.expandDims}: with new axes of extent 1, a view. */
  expandDims(axis: number | readonly number[]): GPUArray<D>;
  /** {@link views.broadcastTo}: broadcast to a shape, a view. */
  broadcastTo(shape: Shape): GPUArray<D>;
  /** {@link views.ravel}: one axis, a view when contiguous. */
  ravel(): GPUArray<D>;
  /** The elements as one axis, always a copy (NumPy's `flatten`). */
  flatten(): GPUArray<D>;
  /** {@link views.flip}: reversed along axes, a view. */
  flip(axis?: number | readonly number[]): GPUArray<D>;
  /** {@link views.slice}: basic indexing, a view: `a.slice([1, 3], [null, null, 2])` or `a.slice("1:3, ::2")`. */
  slice(...specs: (SliceSpec | string)[]): GPUArray<D>;
  /** {@link views.diagonal}: a diagonal as the last axis, a view. */
  diagonal(options?: views.DiagonalOptions): GPUArray<D>;
  /** A C-contiguous copy. */
  copy(): GPUArray<D>;
  /** A copy converted to `dtype` (floats to integers truncate). */
  astype<T extends DType>(dtype: T): GPUArray<T>;
  /** Sets every element to `value` (converted as NumPy does: floats into integers truncate); writes through a view. */
  fill(value: number | bigint | boolean): this;
  /** Writes `value` (an array that broadcasts to this shape, or a scalar) into the elements, converting; writes through a view. */
  assign(value: Operand | boolean): this;

  /** `this + other`, elementwise, broadcasting. */
  add<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** `this - other`. */
  sub<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** `this * other`. */
  mul<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** `this / other`, true division (integers give float64). */
  div<O extends Operand>(other: O, options?: OpOptions): GPUArray<DivisionResult<OperandResult<D, O>>>;
  /** `this ** other`. */
  pow<O extends Operand>(other: O, options?: OpOptions): GPUArray<BoolAsInt8<OperandResult<D, O>>>;
  /** The larger of the two, NaN propagating. */
  maximum<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** The smaller of the two, NaN propagating. */
  minimum<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** The larger of the two, ignoring a NaN. */
  fmax<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** The smaller of the two, ignoring a NaN. */
  fmin<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** `atan2(this, other)`. */
  arctan2<O extends Operand>(other: O, options?: OpOptions): GPUArray;
  /** `sqrt(this² + other²)`. */
  hypot<O extends Operand>(other: O, options?: OpOptions): GPUArray;
  /** Floor division, Python's `//`. */
  floorDivide<O extends Operand>(other: O, options?: OpOptions): GPUArray<BoolAsInt8<OperandResult<D, O>>>;
  /** The remainder with the divisor's sign, Python's `%`. */
  mod<O extends Operand>(other: O, options?: OpOptions): GPUArray<BoolAsInt8<OperandResult<D, O>>>;
  /** `this == other` as bools. */
  eq(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** `this != other` as bools. */
  ne(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** `this < other` as bools. */
  lt(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** `this <= other` as bools. */
  le(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** `this > other` as bools. */
  gt(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** `this >= other` as bools. */
  ge(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** Both non-zero. */
  logicalAnd(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** Either non-zero. */
  logicalOr(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** Exactly one non-zero. */
  logicalXor(other: Operand, options?: OpOptions): GPUArray<"bool">;
  /** Bitwise and (integers, bools). */
  bitwiseAnd<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** Bitwise or. */
  bitwiseOr<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** Bitwise exclusive or. */
  bitwiseXor<O extends Operand>(other: O, options?: OpOptions): GPUArray<OperandResult<D, O>>;
  /** `this << other` (0 for shifts past the width). */
  leftShift<O extends Operand>(other: O, options?: OpOptions): GPUArray<BoolAsInt8<OperandResult<D, O>>>;
  /** `this >> other`, arithmetic for signed types. */
  rightShift<O extends Operand>(other: O, options?: OpOptions): GPUArray<BoolAsInt8<OperandResult<D, O>>>;
  /** {@link clip}: limited to `[min, max]`. */
  clip(min: Operand | null, max: Operand | null, options?: OpOptions): GPUArray;

  /** `-this`. */
  neg(options?: OpOptions): GPUArray<D>;
  /** `|this|`. */
  abs(options?: OpOptions): GPUArray<D>;
  /** `e ** this`. */
  exp(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The natural logarithm. */
  log(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The square root. */
  sqrt(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The sine. */
  sin(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The cosine. */
  cos(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The tangent. */
  tan(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The hyperbolic tangent. */
  tanh(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The inverse sine. */
  arcsin(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The inverse cosine. */
  arccos(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The inverse tangent. */
  arctan(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The hyperbolic sine. */
  sinh(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The hyperbolic cosine. */
  cosh(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** `log(1 + this)`, accurate near 0. */
  log1p(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** `exp(this) - 1`, accurate near 0. */
  expm1(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The base-2 logarithm. */
  log2(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** The base-10 logarithm. */
  log10(options?: OpOptions): GPUArray<FloatResult<D>>;
  /** Rounded down (integers unchanged). */
  floor(options?: OpOptions): GPUArray<D>;
  /** Rounded up. */
  ceil(options?: OpOptions): GPUArray<D>;
  /** Rounded toward zero. */
  trunc(options?: OpOptions): GPUArray<D>;
  /** Rounded to the nearest integer, halves to even. */
  round(options?: OpOptions): GPUArray<D>;
  /** -1, 0 or 1 (NaN stays NaN). */
  sign(options?: OpOptions): GPUArray<D>;
  /** Whether each element is NaN. */
  isnan(options?: OpOptions): GPUArray<"bool">;
  /** Whether each element is ±infinity. */
  isinf(options?: OpOptions): GPUArray<"bool">;
  /** Whether each element is finite. */
  isfinite(options?: OpOptions): GPUArray<"bool">;
  /** `this * this`. */
  square(options?: OpOptions): GPUArray<BoolAsInt8<D>>;
  /** `1 / this` (integer division for integers). */
  reciprocal(options?: OpOptions): GPUArray<BoolAsInt8<D>>;
  /** Whether each element is zero. */
  logicalNot(options?: OpOptions): GPUArray<"bool">;
  /** Bitwise not (logical not for bools). */
  invert(options?: OpOptions): GPUArray<D>;

  /** The sum of all elements, on the host: a number for floats, an exact bigint for integers (summed in 64 bits). */
  sum(): SumValue<D>;
  /** The mean of all elements. */
  mean(): number;
  /** The smallest element, on the host (a bigint for 64-bit integers). */
  min(): HostValue<D>;
  /** The largest element, on the host (a bigint for 64-bit integers). */
  max(): HostValue<D>;
  /** The dot product with `other` (same size). */
  dot(other: GPUArray): number;
  /** The Euclidean norm. */
  norm(): number;

  /** Sorts the elements in place along an axis (default the last), as NumPy's `ndarray.sort`; returns nothing (`ga.sort` returns a sorted copy). */
  sort(options?: { readonly axis?: number }): void;
  /** {@link argsort}: the indices that sort along an axis (stable, int64). */
  argsort(options?: SortOptions): GPUArray<"int64">;
}

/** Defines the {@link ArrayMethods} on `cls`'s prototype. */
export function installMethods(cls: { prototype: object }): void {
  const p = cls.prototype as Record<string, unknown>;
  const define = (name: string, value: (this: GPUArray, ...args: never[]) => unknown) =>
    Object.defineProperty(p, name, { value, writable: true, configurable: true });
  for (const op of Object.keys(BINARY) as BinaryOp[]) {
    define(op, function (this: GPUArray, other: unknown, options?: OpOptions) {
      return binary(op, this, other, options);
    });
  }
  for (const op of Object.keys(UNARY) as UnaryOp[]) {
    define(op, function (this: GPUArray, options?: OpOptions) {
      return unary(op, this, options);
    });
  }
  const shape = (
    args: readonly unknown[],
  ) => (args.length === 1 && typeof args[0] !== "number" ? args[0] : args);
  define("reshape", function (this: GPUArray, ...s: number[]) {
    return views.reshape(this, shape(s) as Shape);
  });
  define("transpose", function (this: GPUArray, ...axes: number[]) {
    return views.transpose(this, shape(axes) as number[]);
  });
  Object.defineProperty(p, "T", {
    get(this: GPUArray) {
      return views.transpose(this);
    },
    configurable: true,
  });
  define("swapaxes", function (this: GPUArray, a: number, b: number) {
    return views.swapaxes(this, a, b);
  });
  define("moveaxis", function (this: GPUArray, s: number, d: number) {
    return views.moveaxis(this, s, d);
  });
  define("squeeze", function (this: GPUArray, axis?: number) {
    return views.squeeze(this, axis);
  });
  define("expandDims", function (this: GPUArray, axis: number) {
    return views.expandDims(this, axis);
  });
  define("broadcastTo", function (this: GPUArray, s: Shape) {
    return views.broadcastTo(this, s);
  });
  define("ravel", function (this: GPUArray) {
    return views.ravel(this);
  });
  define("flatten", function (this: GPUArray) {
    return views.reshape(views.copy(this), [-1]);
  });
  define("flip", function (this: GPUArray, axis?: number) {
    return views.flip(this, axis);
  });
  define("slice", function (this: GPUArray, ...specs: SliceSpec[]) {
    return views.slice(this, ...specs);
  });
  define("diagonal", function (this: GPUArray, options?: views.DiagonalOptions) {
    return views.diagonal(this, options);
  });
  define("copy", function (this: GPUArray) {
    return views.copy(this);
  });
  define("astype", function (this: GPUArray, dtype: DType) {
    return astype(this, dtype);
  });
  define("fill", function (this: GPUArray, value: number) {
    return fill(this, value);
  });
  define("assign", function (this: GPUArray, value: Operand) {
    return assign(this, value);
  });
  define("clip", function (this: GPUArray, min: Operand | null, max: Operand | null, options?: OpOptions) {
    return clip(this, min, max, options);
  });
  define("sum", function (this: GPUArray) {
    return reduce("sum", this);
  });
  define("mean", function (this: GPUArray) {
    return Number(reduce("sum", this)) / this.size;
  });
  define("min", function (this: GPUArray) {
    return reduce("min", this);
  });
  define("max", function (this: GPUArray) {
    return reduce("max", this);
  });
  define("dot", function (this: GPUArray, other: GPUArray) {
    return dot(this, other);
  });
  define("norm", function (this: GPUArray) {
    return Math.sqrt(dot(this, this));
  });
  define("sort", function (this: GPUArray, options?: { axis?: number }) {
    sortInPlace(this, options);
  });
  define("argsort", function (this: GPUArray, options?: SortOptions) {
    return argsort(this, options);
  });
}
