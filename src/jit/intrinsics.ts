/**
 * The names a kernel body uses for GPU features: thread and block indices, `grid()`, shared arrays,
 * `syncthreads()`, atomics and casts. The JIT recognises them by name in the kernel's source; these
 * exports exist so that kernel bodies type-check and so that a kernel function called directly as
 * JavaScript runs as the single thread 0 of a 1×1×1 grid. The simulator does not read these values: it
 * gives every simulated thread its own indices.
 *
 * @module
 */

import { ELEMENTS, type ElementType } from "./types.ts";

/**
 * Anything a kernel can index: a typed array, a kernel's array parameter, a shared array. The atomics
 * take one.
 *
 * @example
 * ```ts
 * import type { JitArrayLike } from "@cudeno/cudeno/jit";
 * const bins: JitArrayLike = new Uint32Array(256);
 * ```
 */
export interface JitArrayLike {
  /** An element. */
  [index: number]: number;
  /** The element count. */
  readonly length: number;
}

/**
 * The TypeScript type of every kernel and device-function parameter. Parameter types come from the
 * signature object at run time, and TypeScript cannot map an object's keys to a parameter list in
 * order, so each parameter is typed as both a number and an array: `n + 1` and `a[i] = x` both
 * type-check, and the JIT reports the one that does not match the signature. A local copied from a
 * parameter infers this type too; annotate it to assign numbers to it: `let i: number = n`.
 *
 * @example
 * ```ts
 * import { jit, type JitParam } from "@cudeno/cudeno/jit";
 * const body = (a: JitParam, n: JitParam) => {
 *   for (let i: number = n - 1; i >= 0; i--) a[i] = i;
 * };
 * const k = jit({ a: "f32[]", n: "i32" }, body);
 * ```
 */
export type JitParam = number & JitArrayLike;

/**
 * What a device function accepts in TypeScript: a number or an array.
 *
 * @example
 * ```ts
 * import { device, type JitArg } from "@cudeno/cudeno/jit";
 * const first = device({ a: "f32[]" }, "f32", (a) => a[0]);
 * const arg: JitArg = new Float32Array([4]);
 * console.log(first(arg)); // 4
 * ```
 */
export type JitArg = number | JitArrayLike;

/**
 * An x, y, z triple of thread or block indices or counts.
 *
 * @example
 * ```ts
 * import { type Dim3, threadIdx } from "@cudeno/cudeno/jit";
 * const t: Dim3 = threadIdx;
 * ```
 */
export interface Dim3 {
  /** The x component. */
  readonly x: number;
  /** The y component. */
  readonly y: number;
  /** The z component. */
  readonly z: number;
}

/**
 * The thread's index in its block (CUDA's `threadIdx`, OpenCL's `get_local_id`). An i32 in kernels.
 *
 * @example
 * ```ts
 * import { jit, threadIdx } from "@cudeno/cudeno/jit";
 * const k = jit({ out: "i32[]" }, (out) => {
 *   out[threadIdx.x] = threadIdx.x;
 * });
 * ```
 */
export const threadIdx: Dim3 = Object.freeze({ x: 0, y: 0, z: 0 });

/**
 * The block's index in the grid (CUDA's `blockIdx`, OpenCL's `get_group_id`). An i32 in kernels.
 *
 * @example
 * ```ts
 * import { blockIdx, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ out: "i32[]" }, (out) => {
 *   out[blockIdx.x] = blockIdx.y;
 * });
 * ```
 */
export const blockIdx: Dim3 = Object.freeze({ x: 0, y: 0, z: 0 });

/**
 * The threads per block (CUDA's `blockDim`, OpenCL's `get_local_size`). An i32 in kernels.
 *
 * @example
 * ```ts
 * import { blockDim, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ out: "i32[]" }, (out) => {
 *   out[0] = blockDim.x * blockDim.y;
 * });
 * ```
 */
export const blockDim: Dim3 = Object.freeze({ x: 1, y: 1, z: 1 });

/**
 * The blocks in the grid (CUDA's `gridDim`, OpenCL's `get_num_groups`). An i32 in kernels.
 *
 * @example
 * ```ts
 * import { gridDim, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ out: "i32[]" }, (out) => {
 *   out[0] = gridDim.x;
 * });
 * ```
 */
export const gridDim: Dim3 = Object.freeze({ x: 1, y: 1, z: 1 });

/**
 * The thread's absolute index in the grid: `grid(1)` is `threadIdx.x + blockIdx.x * blockDim.x`, and
 * `const [x, y] = grid(2)` (or `grid(3)`) gives one index per axis.
 *
 * @example
 * ```ts
 * import { grid, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ out: "f32[]", width: "i32" }, (out, width) => {
 *   const [x, y] = grid(2);
 *   out[y * width + x] = x + y;
 * });
 * ```
 */
export function grid(ndim: 1): number;
/** The x and y indices. */
export function grid(ndim: 2): [number, number];
/** The x, y and z indices. */
export function grid(ndim: 3): [number, number, number];
export function grid(ndim: 1 | 2 | 3): number | number[] {
  const axes = [
    threadIdx.x + blockIdx.x * blockDim.x,
    threadIdx.y + blockIdx.y * blockDim.y,
    threadIdx.z + blockIdx.z * blockDim.z,
  ];
  return ndim === 1 ? axes[0] : axes.slice(0, ndim);
}

/**
 * Waits until every thread of the block gets here, and makes their shared-memory writes visible to
 * one another (CUDA's `__syncthreads()`, OpenCL's `barrier()`). Only in a kernel body, as a statement;
 * every thread of a block must reach the same `syncthreads()`.
 *
 * @example
 * ```ts
 * import { jit, shared, syncthreads, threadIdx } from "@cudeno/cudeno/jit";
 * const reverse = jit({ a: "f32[]" }, (a) => {
 *   const tile = shared.array("f32", 64);
 *   tile[threadIdx.x] = a[threadIdx.x];
 *   syncthreads();
 *   a[threadIdx.x] = tile[63 - threadIdx.x];
 * });
 * ```
 */
export function syncthreads(): void {}

/**
 * The host typed array that holds each element type: the TypeScript type of a shared array.
 *
 * @example
 * ```ts
 * import type { SharedArrayOf } from "@cudeno/cudeno/jit";
 * const tile: SharedArrayOf["f32"] = new Float32Array(256);
 * ```
 */
export interface SharedArrayOf {
  /** f32 elements. */
  f32: Float32Array;
  /** f64 elements. */
  f64: Float64Array;
  /** i32 elements. */
  i32: Int32Array;
  /** u32 elements. */
  u32: Uint32Array;
  /** i8 elements. */
  i8: Int8Array;
  /** u8 elements. */
  u8: Uint8Array;
  /** i16 elements. */
  i16: Int16Array;
  /** u16 elements. */
  u16: Uint16Array;
}

/**
 * Declares block-shared memory: the type of {@link shared}.
 *
 * @example
 * ```ts
 * import { type Shared, shared } from "@cudeno/cudeno/jit";
 * const memory: Shared = shared;
 * ```
 */
export interface Shared {
  /**
   * A shared array of `length` elements, one per block, that every thread of the block sees. Only as
   * the initializer of a `const` in a kernel body; `length` must be a compile-time constant.
   */
  array<E extends ElementType>(type: E, length: number): SharedArrayOf[E];
}

/**
 * Block-shared memory (CUDA's `__shared__`, OpenCL's `__local`).
 *
 * @example
 * ```ts
 * import { jit, shared } from "@cudeno/cudeno/jit";
 * const k = jit({ a: "f32[]" }, (a) => {
 *   const tile = shared.array("f32", 256);
 *   tile[0] = a[0];
 * });
 * ```
 */
export const shared: Shared = Object.freeze({
  array<E extends ElementType>(type: E, length: number): SharedArrayOf[E] {
    return new ELEMENTS[type].array(length) as SharedArrayOf[E];
  },
});

/**
 * Adds `value` to `array[index]` atomically and returns the old element. On i32[], u32[] and f32[]
 * arrays, parameters or shared.
 *
 * @example
 * ```ts
 * import { atomicAdd, grid, jit } from "@cudeno/cudeno/jit";
 * const count = jit({ hits: "u32[]" }, (hits) => {
 *   atomicAdd(hits, grid(1) % 4, 1);
 * });
 * ```
 */
export function atomicAdd(array: JitArrayLike, index: number, value: number): number {
  const old = array[index];
  array[index] = old + value;
  return old;
}

/**
 * Subtracts `value` from `array[index]` atomically and returns the old element. On i32[], u32[] and
 * f32[] arrays.
 *
 * @example
 * ```ts
 * import { atomicSub, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ left: "i32[]" }, (left) => {
 *   atomicSub(left, 0, 1);
 * });
 * ```
 */
export function atomicSub(array: JitArrayLike, index: number, value: number): number {
  const old = array[index];
  array[index] = old - value;
  return old;
}

/**
 * Stores the larger of `array[index]` and `value` atomically and returns the old element. On i32[]
 * and u32[] arrays.
 *
 * @example
 * ```ts
 * import { atomicMax, grid, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ x: "i32[]", best: "i32[]" }, (x, best) => {
 *   atomicMax(best, 0, x[grid(1)]);
 * });
 * ```
 */
export function atomicMax(array: JitArrayLike, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.max(old, value);
  return old;
}

/**
 * Stores the smaller of `array[index]` and `value` atomically and returns the old element. On i32[]
 * and u32[] arrays.
 *
 * @example
 * ```ts
 * import { atomicMin, grid, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ x: "i32[]", least: "i32[]" }, (x, least) => {
 *   atomicMin(least, 0, x[grid(1)]);
 * });
 * ```
 */
export function atomicMin(array: JitArrayLike, index: number, value: number): number {
  const old = array[index];
  array[index] = Math.min(old, value);
  return old;
}

/**
 * Stores `value` in `array[index]` atomically and returns the old element. On i32[], u32[] and f32[]
 * arrays.
 *
 * @example
 * ```ts
 * import { atomicExch, grid, jit } from "@cudeno/cudeno/jit";
 * const k = jit({ last: "i32[]" }, (last) => {
 *   atomicExch(last, 0, grid(1));
 * });
 * ```
 */
export function atomicExch(array: JitArrayLike, index: number, value: number): number {
  const old = array[index];
  array[index] = value;
  return old;
}

/**
 * Stores `value` in `array[index]` atomically if the element equals `compare`, and returns the old
 * element either way. On i32[] and u32[] arrays.
 *
 * @example
 * ```ts
 * import { atomicCAS, grid, jit } from "@cudeno/cudeno/jit";
 * const claim = jit({ owner: "i32[]" }, (owner) => {
 *   atomicCAS(owner, 0, -1, grid(1));
 * });
 * ```
 */
export function atomicCAS(array: JitArrayLike, index: number, compare: number, value: number): number {
  const old = array[index];
  if (old === compare) array[index] = value;
  return old;
}

/**
 * Converts to i32 as JavaScript's `x | 0` does: truncates toward zero and wraps modulo 2^32.
 *
 * @example
 * ```ts
 * import { i32 } from "@cudeno/cudeno/jit";
 * console.log(i32(-2.7), i32(2 ** 31)); // -2 -2147483648
 * ```
 */
export function i32(x: number): number {
  return x | 0;
}

/**
 * Converts to u32 as JavaScript's `x >>> 0` does: truncates toward zero and wraps modulo 2^32.
 *
 * @example
 * ```ts
 * import { u32 } from "@cudeno/cudeno/jit";
 * console.log(u32(-1)); // 4294967295
 * ```
 */
export function u32(x: number): number {
  return x >>> 0;
}

/**
 * Converts to f32, rounding to the nearest single-precision value as `Math.fround` does.
 *
 * @example
 * ```ts
 * import { f32 } from "@cudeno/cudeno/jit";
 * console.log(f32(0.1)); // 0.10000000149011612
 * ```
 */
export function f32(x: number): number {
  return Math.fround(x);
}

/**
 * Converts to f64 (a JavaScript number already is one).
 *
 * @example
 * ```ts
 * import { f64 } from "@cudeno/cudeno/jit";
 * console.log(f64(3)); // 3
 * ```
 */
export function f64(x: number): number {
  return x;
}
