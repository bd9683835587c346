/**
 * `GPUArray`: an n-dimensional strided array in device memory (CuPy's `ndarray`, PyCUDA's
 * `GPUArray`). An array is a buffer, a dtype and a {@link Layout} (shape, strides, offset); views share
 * the buffer, which goes back to the device when the last array using it is freed or collected.
 *
 * @module
 */

import { type Backend, type BackendBuffer, type DeviceArray, LAUNCH_ARGUMENT } from "../../device/backend.ts";
import { activeBackend } from "../../device/active.ts";
import { type DType, DTYPES, type HostArrayOf, isDType } from "../../kernel/dtype.ts";
import { devicePointer, type DeviceSpan } from "../../cuda/memory.ts";
import { type Buffer as CLBuffer, clBuffer } from "../../opencl/buffer.ts";
import {
  checkShape,
  contiguousStrides,
  isContiguous,
  type Layout,
  type Shape,
  showShape,
  sizeOf,
} from "./layout.ts";
import { dtypeArg, type DTypeOptions } from "./axis_args.ts";
import type { ArrayMethods } from "./methods.ts";

/** The memory arrays share: it goes back to the device when the last array holding it lets go. */
class Storage {
  readonly buffer: BackendBuffer;
  #holders = 0;

  constructor(buffer: BackendBuffer) {
    this.buffer = buffer;
  }

  hold(): void {
    this.#holders++;
  }

  release(): void {
    if (--this.#holders === 0) this.buffer.free();
  }
}

/** What a view is made of: another array's storage and a layout over it. No caller outside can make one. */
class ViewOf {
  readonly storage: Storage;
  readonly base: GPUArray;
  readonly layout: Layout;
  constructor(storage: Storage, base: GPUArray, layout: Layout) {
    this.storage = storage;
    this.base = base;
    this.layout = layout;
  }
}

/** The error for `get(i)`: get() copies the whole array and takes no index. */
function wholeOnly(a: GPUArray, call: string, given: unknown): never {
  throw new TypeError(
    `Cannot ${call}(${String(given)}) an array of shape ${
      showShape(a.shape)
    }: ${call}() copies the whole array and takes no index; for one element use a.item(i), for part of it a.slice(...).${call}()`,
  );
}

/** Set by GPUArray's static block: see {@link viewOf}. */
let makeView: (array: GPUArray, layout: Layout) => GPUArray;
/** Set by GPUArray's static block: see {@link sharesMemory}. */
let storageOf: (array: GPUArray) => Storage;

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
 * An array in device memory. Elementwise operations, reductions and the other methods are listed in
 * {@link ArrayMethods}; each is also a function of the module (`a.add(b)` is `ga.add(a, b)`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]]);
 * const y = x.T.mul(2).add(1); // a transposed view, then two elementwise operations
 * console.log(y.shape, y.get()); // [3, 2] Float32Array [3, 9, 5, 11, 7, 13]
 * ```
 */
export class GPUArray<D extends DType = DType> implements DeviceArray {
  /** The backend the array lives on. */
  readonly backend: Backend;
  /** The element type. */
  readonly dtype: D;
  /** The extent of each dimension. */
  readonly shape: readonly number[];
  /** Elements between neighbours along each dimension (0 where broadcast, negative where flipped). */
  readonly strides: readonly number[];
  /** The element of the buffer where index (0, 0, …) is. */
  readonly offset: number;
  /** The number of elements. */
  readonly size: number;
  /** The array this one is a view of, or undefined when it owns its memory. */
  readonly base: GPUArray | undefined;
  readonly #storage: Storage;
  #released = false;

  static {
    makeView = (array, layout) =>
      new GPUArray(
        array.backend,
        layout.shape,
        array.dtype,
        new ViewOf(array.#live(), array.base ?? array, layout),
      );
    storageOf = (array) => array.#storage;
  }

  /**
   * A new C-contiguous array of `shape` (use {@link empty}, {@link toGpu} and the other constructors).
   *
   * @throws {RangeError} for a malformed shape.
   * @throws {TypeError} for a dtype the backend does not have.
   */
  constructor(backend: Backend, shape: Shape, dtype: D, view?: ViewOf) {
    checkDType(dtype, backend);
    const dims = checkShape(shape);
    this.backend = backend;
    this.dtype = dtype;
    this.shape = Object.freeze(dims);
    this.size = sizeOf(dims);
    if (view === undefined) {
      this.strides = Object.freeze(contiguousStrides(dims));
      this.offset = 0;
      this.base = undefined;
      this.#storage = new Storage(backend.alloc(this.size * DTYPES[dtype].size));
    } else {
      this.strides = Object.freeze([...view.layout.strides]);
      this.offset = view.layout.offset;
      this.base = view.base;
      this.#storage = view.storage;
    }
    this.#storage.hold();
  }

  /** Bytes the elements take (`size * itemsize`). */
  get nbytes(): number {
    return this.size * DTYPES[this.dtype].size;
  }

  /** Bytes per element. */
  get itemsize(): number {
    return DTYPES[this.dtype].size;
  }

  /** The number of dimensions. */
  get ndim(): number {
    return this.shape.length;
  }

  /** Whether the elements lie in C order with no gaps (so the array is one run of its buffer). */
  get isContiguous(): boolean {
    return isContiguous(this.shape, this.strides);
  }

  /**
   * The device buffer (a CUDA `DeviceAllocation` or an OpenCL `Buffer`) the elements are in, from
   * element {@link offset}.
   *
   * @throws {TypeError} when the array was freed.
   */
  get buffer(): BackendBuffer {
    return this.#live().buffer;
  }

  /**
   * What a kernel launch passes for the array: its buffer where the array owns its memory or is a
   * contiguous view from the buffer's start, else the array (the core resolves a view to its first
   * element, or says why not).
   */
  get [LAUNCH_ARGUMENT](): unknown {
    return this.base === undefined || (this.offset === 0 && this.isContiguous) ? this.buffer : this;
  }

  #live(): Storage {
    if (this.#released || this.#storage.buffer.freed) {
      throw new TypeError(`Cannot use a ${this.dtype} array of shape ${showShape(this.shape)}: it was freed`);
    }
    return this.#storage;
  }

  /** Whether this array was freed (or its memory, through another array, before views existed). */
  get freed(): boolean {
    return this.#released || this.#storage.buffer.freed;
  }

  /**
   * The device address of the first element and the bytes from there, so a contiguous array can be
   * passed to CUDA kernels and copies directly.
   *
   * @throws {TypeError} for an array that is not contiguous or not on CUDA.
   */
  [devicePointer](): DeviceSpan {
    const b = this.buffer as unknown as { [devicePointer]?: () => DeviceSpan };
    if (b[devicePointer] === undefined) {
      throw new TypeError(`Cannot pass an array on ${this.backend.device} to a CUDA kernel`);
    }
    this.#checkFlat("a CUDA kernel");
    const span = b[devicePointer]();
    const skip = this.offset * this.itemsize;
    return { ptr: span.ptr + BigInt(skip), size: span.size - skip, context: span.context };
  }

  /**
   * The OpenCL buffer, so an array that starts its buffer and is contiguous can be passed to OpenCL
   * kernels and copies directly.
   *
   * @throws {TypeError} for other views and arrays not on OpenCL.
   */
  [clBuffer](): CLBuffer {
    const b = this.buffer as unknown as { [clBuffer]?: () => CLBuffer };
    if (b[clBuffer] === undefined) {
      throw new TypeError(`Cannot pass an array on ${this.backend.device} to an OpenCL kernel`);
    }
    this.#checkFlat("an OpenCL kernel");
    if (this.offset !== 0) {
      throw new TypeError(
        `Cannot pass a view starting at element ${this.offset} of its buffer to an OpenCL kernel: pass a copy (a.copy())`,
      );
    }
    return b[clBuffer]();
  }

  #checkFlat(what: string): void {
    if (!this.isContiguous) {
      throw new TypeError(
        `Cannot pass a non-contiguous view of shape ${showShape(this.shape)} (strides ${
          showShape(this.strides)
        }) to ${what}, which indexes it as one run: pass ga.ascontiguousarray(a)`,
      );
    }
  }

  /**
   * Copies the elements to a new host typed array in C order, waiting for queued work (PyCUDA's
   * `get()`). It copies the whole array: for one element use `item(i)`, for part of it `slice()`.
   *
   * @throws {TypeError} when given an index (`unexpected`).
   */
  get(unexpected?: never): HostArrayOf[D] {
    if (unexpected !== undefined) wholeOnly(this, "get", unexpected);
    this.backend.checkHostRead("get()");
    const out = new DTYPES[this.dtype].array(this.size) as HostArrayOf[D];
    if (this.size === 0) return out;
    if (this.isContiguous) {
      this.backend.read(out, this.buffer, this.offset * this.itemsize);
    } else {
      using flat = this.copy();
      this.backend.read(out, flat.buffer, 0);
    }
    return out;
  }

  /** Like {@link get}, without blocking Deno's event loop while the device finishes. */
  async getAsync(unexpected?: never): Promise<HostArrayOf[D]> {
    if (unexpected !== undefined) wholeOnly(this, "getAsync", unexpected);
    this.backend.checkHostRead("getAsync()");
    const out = new DTYPES[this.dtype].array(this.size) as HostArrayOf[D];
    if (this.size === 0) return out;
    if (this.isContiguous) {
      await this.backend.readAsync(out, this.buffer, this.offset * this.itemsize);
    } else {
      using flat = this.copy();
      await this.backend.readAsync(out, flat.buffer, 0);
    }
    return out;
  }

  /**
   * Overwrites the elements, in C order, with `host`'s (same count and element type); writes through
   * a view.
   *
   * @throws {RangeError} when the counts differ.
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
        `Cannot set an array of shape ${showShape(this.shape)} (${this.size} elements) from ${
          host.byteLength / this.itemsize
        } elements`,
      );
    }
    if (this.size === 0) return this;
    if (this.isContiguous) {
      this.backend.write(this.buffer, host, this.offset * this.itemsize);
    } else {
      using flat = new GPUArray(this.backend, this.shape, this.dtype);
      flat.backend.write(flat.buffer, host, 0);
      this.assign(flat);
    }
    return this;
  }

  /**
   * Lets go of the memory: it returns to the device now unless a view or the array it was viewed
   * from still uses it, then when the last of them is freed (or collected). The array cannot be used
   * after. Idempotent.
   */
  free(): void {
    if (this.#released) return;
    this.#released = true;
    this.#storage.release();
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * The elementwise operations, reductions, views and the rest: declared in {@link ArrayMethods}, and
 * defined on the prototype from the same tables that define the module's functions.
 */
export interface GPUArray<D extends DType = DType> extends ArrayMethods<D> {}

/**
 * A view of `array` with another layout over its memory. The layout must stay inside the buffer;
 * the view holds the memory as long as it lives.
 */
export function viewOf<D extends DType>(array: GPUArray<D>, layout: Layout): GPUArray<D> {
  return makeView(array, layout) as GPUArray<D>;
}

/** Whether two arrays use the same memory. */
export function sharesMemory(a: GPUArray, b: GPUArray): boolean {
  return storageOf(a) === storageOf(b);
}

/**
 * An uninitialised array (NumPy's `empty`), float32 unless the dtype (by position or as `{ dtype }`)
 * says otherwise.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.empty([1000, 1000], "float32");
 * const b = ga.empty([4], { dtype: "int64" });
 * ```
 */
export function empty<D extends DType = "float32">(shape: Shape, options?: DTypeOptions<D>): GPUArray<D>;
/** `empty(shape, dtype)`: the dtype by position. */
export function empty<D extends DType>(shape: Shape, dtype: D): GPUArray<D>;
export function empty(shape: Shape, dtype?: unknown): GPUArray {
  return new GPUArray(activeBackend(), shape, dtypeArg("empty", dtype) ?? "float32");
}

/**
 * An uninitialised array with `like`'s shape, backend and dtype (or `dtype`, by position or as
 * `{ dtype }`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const b = ga.emptyLike(ga.zeros([4]));
 * const c = ga.emptyLike(b, { dtype: "int32" }); // also ga.emptyLike(b, "int32")
 * ```
 */
export function emptyLike<D extends DType, E extends DType = D>(
  like: GPUArray<D>,
  options?: DTypeOptions<E>,
): GPUArray<E>;
/** `emptyLike(like, dtype)`: the dtype by position. */
export function emptyLike<D extends DType, E extends DType>(like: GPUArray<D>, dtype: E): GPUArray<E>;
export function emptyLike(like: GPUArray, dtype?: unknown): GPUArray {
  return new GPUArray(like.backend, like.shape, dtypeArg("emptyLike", dtype) ?? like.dtype);
}
