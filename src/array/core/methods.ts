/**
 * The methods of `GPUArray` beyond its memory and layout: each is one of the module's functions with
 * the array first (`a.add(b)` is `add(a, b)`). Declared here, and defined on the prototype from the
 * function tables, so the two cannot drift apart.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import type { RealOf, ResultType } from "./dtypes.ts";
import * as parts from "../ops/complex_parts.ts";
import type { Shape } from "./layout.ts";
import type { SliceSpec } from "./slicing.ts";
import type { Operand, OpOptions } from "../ops/ufunc.ts";
import { BINARY } from "../ops/binary_ops.ts";
import { UNARY } from "../ops/unary_ops.ts";
import { callOp, clip } from "../ops/ufunc.ts";
import type { ElementwiseMethods } from "../api/elementwise_methods.ts";
import type { ReductionMethods } from "../api/reduction_methods.ts";
import * as views from "../ops/views.ts";
import { assign, astype, fill } from "../ops/assign.ts";
import { installDisplay, type ItemValue, type NestedList } from "./display.ts";
import * as linalg from "../ops/linalg.ts";
import { type Indices, put } from "../ops/indexing.ts";
import { mask, nonzero } from "../routines/compact.ts";
import { type AxisMethods, installAxisMethods, installReductionMethods } from "./axis_methods.ts";

/**
 * A host value of an array of `D`: a bigint for 64-bit integers, a pair `[re, im]` for complex
 * numbers, else a number.
 *
 * @example
 * ```ts
 * import type { HostValue } from "@cudeno/cudeno/array";
 * const v: HostValue<"int64"> = 5n;
 * ```
 */
export type HostValue<D extends DType> = D extends "int64" | "uint64" ? bigint
  : D extends "complex64" | "complex128" ? [number, number]
  : number;

/**
 * What a whole-array sum of `D` gives on the host: a number for floats, a pair `[re, im]` for complex
 * numbers, an exact bigint for integers and bools (they sum in 64 bits).
 *
 * @example
 * ```ts
 * import type { SumValue } from "@cudeno/cudeno/array";
 * const v: SumValue<"int32"> = 10n;
 * ```
 */
export type SumValue<D extends DType> = D extends "float16" | "bfloat16" | "float32" | "float64" ? number
  : D extends "complex64" | "complex128" ? [number, number]
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
export interface ArrayMethods<D extends DType>
  extends ElementwiseMethods<D>, ReductionMethods<D>, AxisMethods<D> {
  /** {@link views.reshape}: another shape of the same size (a view where the strides allow). */
  reshape(...shape: number[] | [Shape]): GPUArray<D>;
  /** {@link views.transpose}: the axes permuted (reversed when none are given), a view. */
  transpose(...axes: number[] | [readonly number[]]): GPUArray<D>;
  /** The transpose (axes reversed), a view. */
  readonly T: GPUArray<D>;
  /** {@link parts.real}: the real parts of a complex array, a view that writes through (a real array itself). */
  readonly real: GPUArray<RealOf<D>>;
  /** {@link parts.imag}: the imaginary parts of a complex array, a view (zeros for a real array). */
  readonly imag: GPUArray<RealOf<D>>;
  /** {@link views.swapaxes}: two axes exchanged, a view. */
  swapaxes(axis1: number, axis2: number): GPUArray<D>;
  /** {@link views.moveaxis}: axes moved to new positions, a view. */
  moveaxis(source: number | readonly number[], destination: number | readonly number[]): GPUArray<D>;
  /** {@link views.broadcastTo}: broadcast to a shape, a view. */
  broadcastTo(shape: Shape): GPUArray<D>;
  /** {@link views.ravel}: one axis in C order, a view when contiguous. */
  ravel(order?: "C"): GPUArray<D>;
  /** The elements as one axis in C order, always a copy (NumPy's `flatten`). */
  flatten(order?: "C"): GPUArray<D>;
  /** {@link views.slice}: basic indexing, a view: `a.slice([1, 3], [null, null, 2])` or `a.slice("1:3, ::2")`. */
  slice(...specs: (SliceSpec | string)[]): GPUArray<D>;
  /** A C-contiguous copy. */
  copy(order?: "C"): GPUArray<D>;
  /** A copy converted to `dtype` (floats to integers truncate). */
  astype<T extends DType>(dtype: T): GPUArray<T>;
  /** Sets every element to `value` (converted as NumPy does: floats into integers truncate); writes through a view. */
  fill(value: number | bigint | boolean): this;
  /** Writes `value` (an array that broadcasts to this shape, or a scalar) into the elements, converting; writes through a view. */
  assign(value: Operand | boolean): this;

  /** {@link clip}: limited to `[min, max]`. */
  clip(min: Operand | null, max: Operand | null, options?: OpOptions): GPUArray;

  /** {@link linalg.dot}: NumPy's `dot` (a host number for two 1-D arrays, else the matrix product or its N-D form). */
  dot<E extends DType>(other: GPUArray<E>): GPUArray<ResultType<D, E>> | number;
  /** {@link put}: writes values at flat indices, in place. */
  put(indices: Indices, values: GPUArray | number | bigint | readonly number[]): this;
  /** {@link mask}: the elements where a bool array of the leading dimensions is true (NumPy's `a[m]`). */
  mask(m: GPUArray): GPUArray<D>;
  /** {@link nonzero}: the indices of the non-zero elements, an int64 array per dimension. */
  nonzero(): GPUArray<"int64">[];
  /**
   * {@link item}: one element as a host value (a number, a bigint for 64-bit integers, a boolean for
   * bools): the only one, or the one at a flat index, or at one index per axis.
   */
  item(...index: number[]): ItemValue<D>;
  /** The elements as nested JS arrays (bigints for 64-bit integers, booleans for bools). */
  tolist(): NestedList<ItemValue<D>>;
  /** NumPy's text form, `array([[1., 2.],\n       [3., 4.]], dtype=float32)`, as `console.log` shows it. */
  toString(): string;
  /**
   * The array as a JS value, so that `Number(a)`, `+a` and `a < 2` work for an array of one element
   * (0-d or not, as NumPy's `float(a)`): its element, a bigint for int64 and uint64 (so `Number(a)`
   * works but `+a` is JS's TypeError for bigints; compare with `a > 2n`), a boolean for bools. As a
   * string (`` `${a}` ``, `String(a)`) a 0-d array is its element's text, as NumPy's `str()`, and any
   * other its text form ({@link toString}).
   *
   * @throws {TypeError} for an array of other than one element used as a number.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const total = ga.asarray([1, 2, 3]).sum(0); // a 0-d array
   * console.log(Number(total) + 1, `total ${total}`); // 7 "total 6"
   * ```
   */
  [Symbol.toPrimitive](hint: string): number | bigint | boolean | string;
  /**
   * The arrays along the first axis, each a view (NumPy's `for row in a`): rows of a matrix, elements
   * (as 0-d arrays) of a vector.
   *
   * @throws {TypeError} for a 0-d array, which has no axis to iterate.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * for (const row of ga.asarray([[1, 2], [3, 4]])) console.log(row.get()); // [1, 2], then [3, 4]
   * ```
   */
  [Symbol.iterator](): IterableIterator<GPUArray<D>>;
  /**
   * What `JSON.stringify` writes for the array: its elements as nested lists ({@link tolist}), with
   * 64-bit integers as numbers where they are safe integers and as decimal strings where they are not
   * (JSON has no bigint); NaN and infinities become `null`, as JSON.stringify writes them.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * console.log(JSON.stringify({ x: ga.asarray([[1, 2], [3, 4]]) })); // {"x":[[1,2],[3,4]]}
   * ```
   */
  toJSON(): unknown;
}

function defineOn(p: object, name: string, value: (this: GPUArray, ...args: never[]) => unknown): void {
  Object.defineProperty(p, name, { value, writable: true, configurable: true });
}

/**
 * Defines the methods that fused functions trace — the elementwise functions, `clip`, `astype` and
 * the reductions — on prototype `p` (`GPUArray`'s, and the stand-in's that `ga.fuse()` traces with).
 */
export function installTraceable(p: object): void {
  for (const op of Object.values(BINARY)) {
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      defineOn(p, name, function (this: GPUArray, other: unknown, options?: OpOptions) {
        return callOp(op, [this, other], options, name);
      });
    }
  }
  for (const op of Object.values(UNARY)) {
    for (const name of [op.name, ...(op.aliases ?? [])]) {
      defineOn(p, name, function (this: GPUArray, options?: OpOptions) {
        return callOp(op, [this], options, name);
      });
    }
  }
  defineOn(p, "astype", function (this: GPUArray, dtype: DType) {
    return astype(this, dtype);
  });
  defineOn(
    p,
    "clip",
    function (this: GPUArray, min: Operand | null, max: Operand | null, options?: OpOptions) {
      return clip(this, min, max, options);
    },
  );
  installReductionMethods(p);
}

/** Defines the {@link ArrayMethods} on `cls`'s prototype. */
export function installMethods(cls: { prototype: object }): void {
  const p = cls.prototype;
  installTraceable(p);
  installAxisMethods(p);
  const define = (name: string, value: (this: GPUArray, ...args: never[]) => unknown) =>
    defineOn(p, name, value);
  const shape = (
    args: readonly unknown[],
  ) => (args.length === 1 && typeof args[0] !== "number" ? args[0] : args);
  define("reshape", function (this: GPUArray, ...s: number[]) {
    return views.reshape(this, ...s);
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
  Object.defineProperty(p, "real", {
    get(this: GPUArray) {
      return parts.real(this);
    },
    configurable: true,
  });
  Object.defineProperty(p, "imag", {
    get(this: GPUArray) {
      return parts.imag(this);
    },
    configurable: true,
  });
  define("swapaxes", function (this: GPUArray, a: number, b: number) {
    return views.swapaxes(this, a, b);
  });
  define("moveaxis", function (this: GPUArray, s: number, d: number) {
    return views.moveaxis(this, s, d);
  });
  define("broadcastTo", function (this: GPUArray, s: Shape) {
    return views.broadcastTo(this, s);
  });
  define("ravel", function (this: GPUArray, order?: "C") {
    return views.ravel(this, order);
  });
  define("flatten", function (this: GPUArray, order?: "C") {
    views.checkOrder(order, "flatten", "for column-major order, flatten the transpose: a.T.flatten()");
    return views.reshape(views.copy(this), [-1]);
  });
  define("slice", function (this: GPUArray, ...specs: SliceSpec[]) {
    return views.slice(this, ...specs);
  });
  define("copy", function (this: GPUArray, order?: "C") {
    return views.copy(this, order);
  });
  define("fill", function (this: GPUArray, value: number) {
    return fill(this, value);
  });
  define("assign", function (this: GPUArray, value: Operand) {
    return assign(this, value);
  });
  define("put", function (this: GPUArray, indices: Indices, values: GPUArray | number) {
    return put(this, indices, values);
  });
  define("mask", function (this: GPUArray, m: GPUArray) {
    return mask(this, m);
  });
  define("nonzero", function (this: GPUArray) {
    return nonzero(this);
  });
  define("dot", function (this: GPUArray, other: GPUArray) {
    return linalg.dot(this, other);
  });
  installDisplay(p);
}
