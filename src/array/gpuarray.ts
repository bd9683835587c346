/**
 * `GPUArray`: an n-dimensional, C-contiguous array in device memory (PyCUDA's `gpuarray.GPUArray`,
 * CuPy's `ndarray`), on whichever backend is active.
 *
 * @module
 */

import { activeBackend, type Backend, type BackendBuffer } from "./backend.ts";
import { type DType, dtypeOf, DTYPES, type HostArrayOf, isDType } from "../kernel/dtype.ts";
import { devicePointer, type DeviceSpan } from "../cuda/memory.ts";
import { type Buffer as CLBuffer, clBuffer } from "../opencl/buffer.ts";
import * as ops from "./ops.ts";
import type { Operand, OpOptions } from "./ops.ts";

/** A shape: a number for 1-D, or the extent of each dimension. */
export type Shape = number | readonly number[];

/** The memory a view made by `reshape` shares with its array: a token no caller outside can make. */
class Shared {
  readonly buffer: BackendBuffer;
  constructor(buffer: BackendBuffer) {
    this.buffer = buffer;
  }
}

/** Set by GPUArray's static block: see {@link unsafeBufferOf}. */
let bufferOfArray: (array: GPUArray) => BackendBuffer;

/** Normalises and checks a shape; returns it and its element count. */
export function checkShape(shape: Shape): { dims: number[]; size: number } {
  const dims = typeof shape === "number" ? [shape] : [...shape];
  for (const d of dims) {
    if (!Number.isSafeInteger(d) || d < 0) {
      throw new RangeError(
        `Cannot use shape [${dims.join(", ")}]: every extent must be a non-negative integer`,
      );
    }
  }
  return { dims, size: dims.reduce((a, b) => a * b, 1) };
}

function checkDType(dtype: DType, backend: Backend): void {
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot make an array of dtype "${dtype}": use one of ${Object.keys(DTYPES).join(", ")}`,
    );
  }
  if (!backend.supports(dtype)) {
    throw new TypeError(
      `Cannot make a ${dtype} array on ${backend.device}: the device does not support ${dtype}`,
    );
  }
}

/**
 * An array in device memory.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.toGpu(new Float32Array([1, 2, 3, 4]), [2, 2]);
 * const y = x.mul(2).add(1);
 * console.log(y.shape, y.get()); // [2, 2] Float32Array [3, 5, 7, 9]
 * ```
 */
export class GPUArray<D extends DType = DType> {
  /** The extent of each dimension. */
  readonly shape: readonly number[];
  /** The element type. */
  readonly dtype: D;
  /** The number of elements. */
  readonly size: number;
  /** The backend the array lives on. */
  readonly backend: Backend;
  // The buffer itself, not a holder shared with views: a launch reads it with one less object.
  readonly #buffer: BackendBuffer;

  static {
    bufferOfArray = (array) => array.#buffer;
  }

  /** Use {@link empty}, {@link toGpu} and the other constructors. */
  constructor(backend: Backend, shape: Shape, dtype: D, shared?: Shared) {
    checkDType(dtype, backend);
    const { dims, size } = checkShape(shape);
    this.backend = backend;
    this.shape = Object.freeze(dims);
    this.dtype = dtype;
    this.size = size;
    this.#buffer = shared?.buffer ?? backend.alloc(size * DTYPES[dtype].size);
  }

  /** Bytes the elements occupy. */
  get nbytes(): number {
    return this.size * DTYPES[this.dtype].size;
  }

  /** The number of dimensions. */
  get ndim(): number {
    return this.shape.length;
  }

  /**
   * The device buffer (a CUDA `DeviceAllocation` or an OpenCL `Buffer`).
   *
   * @throws {TypeError} when the array was freed.
   */
  get buffer(): BackendBuffer {
    this.#checkLive();
    return this.#buffer;
  }

  #checkLive(): void {
    if (this.#buffer.freed) {
      throw new TypeError(
        `Cannot use a ${this.dtype} array of shape [${this.shape.join(", ")}]: it was freed`,
      );
    }
  }

  /** Whether the memory was freed (by this array or a view sharing it). */
  get freed(): boolean {
    return this.#buffer.freed;
  }

  /** The device address and size, so the array can be passed to CUDA kernels and copies directly. */
  [devicePointer](): DeviceSpan {
    const b = this.buffer as unknown as { [devicePointer]?: () => DeviceSpan };
    if (b[devicePointer] === undefined) {
      throw new TypeError(`Cannot pass an array on ${this.backend.device} to a CUDA kernel`);
    }
    return b[devicePointer]();
  }

  /** The OpenCL buffer, so the array can be passed to OpenCL kernels and copies directly. */
  [clBuffer](): CLBuffer {
    const b = this.buffer as unknown as { [clBuffer]?: () => CLBuffer };
    if (b[clBuffer] === undefined) {
      throw new TypeError(`Cannot pass an array on ${this.backend.device} to an OpenCL kernel`);
    }
    return b[clBuffer]();
  }

  /** Copies the array to a new host typed array, waiting for queued work (PyCUDA's `get()`). */
  get(): HostArrayOf[D] {
    const out = new DTYPES[this.dtype].array(this.size) as HostArrayOf[D];
    if (this.size > 0) this.backend.read(out, this.buffer);
    return out;
  }

  /** Like {@link get}, without blocking Deno's event loop while the device finishes. */
  async getAsync(): Promise<HostArrayOf[D]> {
    const out = new DTYPES[this.dtype].array(this.size) as HostArrayOf[D];
    if (this.size > 0) await this.backend.readAsync(out, this.buffer);
    return out;
  }

  /**
   * Overwrites the array with `host`'s elements (same count and element type).
   *
   * @throws {RangeError} when the sizes differ.
   * @throws {TypeError} when the element types differ.
   */
  set(host: ArrayBufferView): this {
    const expected = DTYPES[this.dtype].array;
    if (!(host instanceof expected)) {
      throw new TypeError(
        `Cannot set a ${this.dtype} array from a ${host.constructor.name}: pass a ${expected.name}`,
      );
    }
    if (host.byteLength !== this.nbytes) {
      throw new RangeError(
        `Cannot set an array of ${this.size} elements from ${host.byteLength / DTYPES[this.dtype].size}`,
      );
    }
    if (this.size > 0) this.backend.write(this.buffer, host);
    return this;
  }

  /**
   * A view with another shape of the same size, sharing the memory (`-1` infers one extent).
   *
   * @throws {RangeError} when the sizes differ.
   */
  reshape(...shape: number[] | [readonly number[]]): GPUArray<D> {
    const dims = (Array.isArray(shape[0]) ? [...shape[0]] : shape) as number[];
    const unknown = dims.indexOf(-1);
    if (unknown >= 0) {
      const known = dims.filter((_, i) => i !== unknown).reduce((a, b) => a * b, 1);
      dims[unknown] = known === 0 ? 0 : this.size / known;
    }
    const { size } = checkShape(dims);
    if (size !== this.size) {
      throw new RangeError(
        `Cannot reshape an array of shape [${this.shape.join(", ")}] to [${
          dims.join(", ")
        }]: the sizes differ`,
      );
    }
    this.#checkLive();
    return new GPUArray(this.backend, dims, this.dtype, new Shared(this.#buffer));
  }

  /** A copy converted to `dtype` (a copy even when the dtype is the same). */
  astype<T extends DType>(dtype: T): GPUArray<T> {
    return ops.cast(this, dtype);
  }

  /** An independent copy. */
  copy(): GPUArray<D> {
    const out = new GPUArray(this.backend, this.shape, this.dtype);
    if (this.size > 0) this.backend.copy(out.buffer, this.buffer, this.nbytes);
    return out;
  }

  /** `this + other`, elementwise (scalars broadcast). */
  add(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("add", this, other, options);
  }
  /** `this - other`, elementwise. */
  sub(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("sub", this, other, options);
  }
  /** `this * other`, elementwise. */
  mul(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("mul", this, other, options);
  }
  /** `this / other`, elementwise true division. */
  div(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("div", this, other, options);
  }
  /** `this ** other`, elementwise. */
  pow(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("pow", this, other, options);
  }
  /** The larger of `this` and `other`, elementwise (NaN wins). */
  maximum(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("maximum", this, other, options);
  }
  /** The smaller of `this` and `other`, elementwise (NaN wins). */
  minimum(other: Operand, options?: OpOptions): GPUArray {
    return ops.binary("minimum", this, other, options);
  }
  /** `this == other` as a bool array. */
  eq(other: Operand): GPUArray<"bool"> {
    return ops.binary("eq", this, other) as GPUArray<"bool">;
  }
  /** `this != other` as a bool array. */
  ne(other: Operand): GPUArray<"bool"> {
    return ops.binary("ne", this, other) as GPUArray<"bool">;
  }
  /** `this < other` as a bool array. */
  lt(other: Operand): GPUArray<"bool"> {
    return ops.binary("lt", this, other) as GPUArray<"bool">;
  }
  /** `this <= other` as a bool array. */
  le(other: Operand): GPUArray<"bool"> {
    return ops.binary("le", this, other) as GPUArray<"bool">;
  }
  /** `this > other` as a bool array. */
  gt(other: Operand): GPUArray<"bool"> {
    return ops.binary("gt", this, other) as GPUArray<"bool">;
  }
  /** `this >= other` as a bool array. */
  ge(other: Operand): GPUArray<"bool"> {
    return ops.binary("ge", this, other) as GPUArray<"bool">;
  }
  /** `-this`. */
  neg(options?: OpOptions): GPUArray {
    return ops.unary("neg", this, options);
  }
  /** `|this|`. */
  abs(options?: OpOptions): GPUArray {
    return ops.unary("abs", this, options);
  }

  /** The sum of all elements, as a host number (bigint for 64-bit integer arrays). */
  sum(): number {
    return ops.reduce("sum", this);
  }
  /** The mean of all elements. */
  mean(): number {
    return ops.reduce("sum", this) / this.size;
  }
  /** The smallest element. */
  min(): number {
    return ops.reduce("min", this);
  }
  /** The largest element. */
  max(): number {
    return ops.reduce("max", this);
  }
  /** The dot product with `other` (same size). */
  dot(other: GPUArray): number {
    return ops.dot(this, other);
  }
  /** The Euclidean norm. */
  norm(): number {
    return Math.sqrt(ops.dot(this, this));
  }

  /** Frees the device memory now (views sharing it are freed too). Idempotent. */
  free(): void {
    this.#buffer.free();
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }

  /** `GPUArray(float32, [2, 2], cuda:0 NVIDIA H200)`. */
  toString(): string {
    return `GPUArray(${this.dtype}, [${this.shape.join(", ")}], ${this.backend.device})`;
  }
}

/**
 * An array's buffer, unchecked: the launch paths read the device address through the buffer's own
 * check, and ask {@link GPUArray.buffer} for the array's error only when that fails. It is the class's
 * own accessor, so a caller that keeps it reaches the field with no module variable in between.
 */
export const unsafeBufferOf: (array: GPUArray) => BackendBuffer = bufferOfArray;

/**
 * An uninitialised array (PyCUDA's `gpuarray.empty`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.empty([1000, 1000], "float32");
 * ```
 */
export function empty<D extends DType = "float32">(shape: Shape, dtype?: D): GPUArray<D> {
  return new GPUArray(activeBackend(), shape, (dtype ?? "float32") as D);
}

/**
 * An uninitialised array with `like`'s shape and dtype (and backend).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.zeros([4]);
 * const b = ga.emptyLike(a);
 * ```
 */
export function emptyLike<D extends DType>(like: GPUArray<D>): GPUArray<D> {
  return new GPUArray(like.backend, like.shape, like.dtype);
}

/** The dtype a host typed array holds (Uint16Array reads as uint16, Uint8Array as uint8). */
export type DTypeOfArray<T> = T extends Float32Array ? "float32"
  : T extends Float64Array ? "float64"
  : T extends Float16Array ? "float16"
  : T extends Int8Array ? "int8"
  : T extends Uint8Array ? "uint8"
  : T extends Int16Array ? "int16"
  : T extends Uint16Array ? "uint16"
  : T extends Int32Array ? "int32"
  : T extends Uint32Array ? "uint32"
  : T extends BigInt64Array ? "int64"
  : T extends BigUint64Array ? "uint64"
  : DType;

/**
 * Copies a host typed array to the device (PyCUDA's `gpuarray.to_gpu`); `shape` defaults to 1-D.
 * The dtype follows the array (a Uint16Array is uint16; pass `"bfloat16"` to read it as bfloat16).
 *
 * @throws {RangeError} when `shape` does not match the array's length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.toGpu(Float32Array.from({ length: 6 }, (_, i) => i), [2, 3]);
 * ```
 */
export function toGpu<T extends ArrayBufferView & { length: number }, D extends DType = DTypeOfArray<T>>(
  host: T,
  shape?: Shape,
  dtype?: D,
): GPUArray<D> {
  const d = (dtype ?? dtypeOf(host)) as D;
  if (DTYPES[d].size * host.length !== host.byteLength) {
    throw new TypeError(`Cannot read a ${host.constructor.name} as ${d}: the element sizes differ`);
  }
  const { dims, size } = checkShape(shape ?? host.length);
  if (size !== host.length) {
    throw new RangeError(
      `Cannot put ${host.length} elements into shape [${dims.join(", ")}] (${size} elements)`,
    );
  }
  const out = new GPUArray(activeBackend(), dims, d);
  if (out.size > 0) out.backend.write(out.buffer, host);
  return out;
}
