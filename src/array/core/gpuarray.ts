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
  reshapeStrides,
  reshapeTarget,
  type Shape,
  showShape,
  sizeOf,
} from "./layout.ts";
import { dtypeArg, type DTypeOptions } from "./axis_args.ts";
import type { ArrayMethods } from "./methods.ts";
import { describe } from "./describe.ts";
import { readHost, readHostAsync } from "./host_read.ts";

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

/** The list new arrays are added to while a differentiation runs (see {@link collectArrays}). */
let collected: GPUArray[] | undefined;

/**
 * Adds every array made from now on to `list` (undefined: to none), returning the list it replaces:
 * `grad` frees what its function made and did not return, when it returns.
 */
export function collectArrays(list: GPUArray[] | undefined): GPUArray[] | undefined {
  const before = collected;
  collected = list;
  return before;
}

/** Runs `make` with no differentiation collecting the arrays it makes: they outlive the call (state, flags). */
export function persistent<T>(make: () => T): T {
  const outer = collectArrays(undefined);
  try {
    return make();
  } finally {
    collectArrays(outer);
  }
}

/** The error for assigning a member that only the array sets. */
function cannotAssign(member: string, instead: string): never {
  throw new TypeError(`Cannot assign an array's ${member}: ${instead}`);
}

/** Set by GPUArray's static block: see {@link viewOf}. */
let makeView: (array: GPUArray, layout: Layout, dtype: DType) => GPUArray;
/** Set by GPUArray's static block: see {@link sharesMemory}. */
let storageOf: (array: GPUArray) => Storage;

function checkDType(dtype: DType, backend: Backend): void {
  if (typeof (backend as Partial<Backend> | undefined)?.supports !== "function") {
    throw new TypeError(
      `Cannot make an array on ${
        describe(backend)
      }: the constructor's first argument is a backend; make arrays with ga.empty(shape, dtype), ga.zeros() or ga.asarray()`,
    );
  }
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot make an array of dtype ${describe(dtype)}: use one of ${Object.keys(DTYPES).join(", ")}`,
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
  /**
   * The backend the array lives on. An own read-only field (set in the constructor), so that posting
   * the array to a Worker clones it and meets the backend's `WORKER_BOUND`: a DataCloneError saying
   * what to post instead.
   */
  declare readonly backend: Backend;
  // The rest are getters over private fields, so that assigning `dtype`, `strides` and the others is a
  // TypeError (in strict mode, as modules are) instead of a corrupt array; only `shape` has a setter.
  readonly #dtype: D;
  #shape: readonly number[];
  #strides: readonly number[];
  readonly #offset: number;
  readonly #size: number;
  readonly #base: GPUArray | undefined;
  readonly #storage: Storage;
  #released = false;

  /** The element type. */
  get dtype(): D {
    return this.#dtype;
  }
  /** Refused: convert with `a.astype(dtype)`, which copies. */
  set dtype(_: never) {
    cannotAssign("dtype", "convert with a.astype(dtype), which copies");
  }
  /** The extent of each dimension. Assigning it reshapes the array in place: see the setter. */
  get shape(): readonly number[] {
    return this.#shape;
  }
  /**
   * Reshapes the array in place, as NumPy's `a.shape = ...` does (one extent may be -1): only where
   * the elements can be shown in the new shape without moving them (a view's strides allow it);
   * otherwise nothing changes and it throws, since only a copy could (use `a.reshape()`).
   *
   * @throws {RangeError} for a malformed shape or one of another size.
   * @throws {TypeError} where no strides fit, or for a freed array.
   */
  set shape(shape: Shape) {
    if (typeof shape !== "number" && !Array.isArray(shape)) {
      throw new TypeError(`Cannot set the shape to ${String(shape)}: give an array of extents, [3, 2]`);
    }
    this.#live();
    const dims = reshapeTarget(this.#shape, typeof shape === "number" ? [shape] : shape);
    const strides = reshapeStrides(this, dims);
    if (strides === undefined) {
      throw new TypeError(
        `Cannot set the shape of an array of shape ${showShape(this.#shape)} (strides ${
          showShape(this.#strides)
        }) to ${
          showShape(dims)
        } in place: its elements do not lie in that shape's order in memory; use a.reshape(${
          dims.join(", ")
        }), which copies them`,
      );
    }
    this.#shape = Object.freeze(dims);
    this.#strides = Object.freeze(strides);
  }
  /** Elements between neighbours along each dimension (0 where broadcast, negative where flipped). */
  get strides(): readonly number[] {
    return this.#strides;
  }
  /** Refused: strides follow from the layout; make a view instead. */
  set strides(_: never) {
    cannotAssign(
      "strides",
      "they follow from its layout; make a view instead (a.T, a.slice(...), a.reshape(...))",
    );
  }
  /** The element of the buffer where index (0, 0, …) is. */
  get offset(): number {
    return this.#offset;
  }
  /** The number of elements. */
  get size(): number {
    return this.#size;
  }
  /** The array this one is a view of, or undefined when it owns its memory. */
  get base(): GPUArray | undefined {
    return this.#base;
  }

  static {
    makeView = (array, layout, dtype) =>
      new GPUArray(
        array.backend,
        layout.shape,
        dtype,
        new ViewOf(array.#live(), array.base ?? array, layout),
      );
    storageOf = (array) => array.#storage;
    // A data property (not a getter), so that the runtime's messages name the class too: "Cannot set
    // property size of [object GPUArray] which has only a getter".
    Object.defineProperty(GPUArray.prototype, Symbol.toStringTag, { value: "GPUArray", configurable: true });
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
    Object.defineProperty(this, "backend", { value: backend, enumerable: true });
    this.#dtype = dtype;
    this.#shape = Object.freeze(dims);
    this.#size = sizeOf(dims);
    if (view === undefined) {
      this.#strides = Object.freeze(contiguousStrides(dims));
      this.#offset = 0;
      this.#base = undefined;
      this.#storage = new Storage(backend.alloc(this.#size * DTYPES[dtype].size));
    } else {
      this.#strides = Object.freeze([...view.layout.strides]);
      this.#offset = view.layout.offset;
      this.#base = view.base;
      this.#storage = view.storage;
    }
    this.#storage.hold();
    collected?.push(this);
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
  /** Refused: the memory is the array's; write into it with `a.set(host)` or `a.assign(b)`. */
  set buffer(_: never) {
    cannotAssign("buffer", "the memory is the array's; write into it with a.set(host) or a.assign(b)");
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
   * Copies the elements to the host in C order, waiting for queued work (PyCUDA's `get()`): into
   * `out` where given (PyCUDA's `get(ary)`: a typed array of the dtype's kind and the array's size,
   * which a loop can reuse instead of making a new one each time), else into a new typed array. It
   * copies the whole array: for one element use `item(i)`, for part of it `slice()`.
   *
   * @param out The host array to fill (`Float32Array` for float32, `Uint16Array` for bfloat16: see
   *   {@link HostArrayOf}), of {@link size} elements.
   * @returns `out`, or the new array.
   * @throws {TypeError} when given an index, or an `out` of another element type.
   * @throws {RangeError} when `out` has another number of elements.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const x = ga.arange(6, "float32");
   * const host = new Float32Array(6);
   * for (let step = 0; step < 3; step++) {
   *   x.add(step, { out: x });
   *   x.get(host); // the same buffer every time
   * }
   * console.log(host); // Float32Array [3, 4, 5, 6, 7, 8]
   * ```
   */
  get(out?: HostArrayOf[D]): HostArrayOf[D] {
    return readHost(this, out);
  }

  /** Like {@link get}, without blocking Deno's event loop while the device finishes. */
  getAsync(out?: HostArrayOf[D]): Promise<HostArrayOf[D]> {
    return readHostAsync(this, out);
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
        `Cannot set a ${this.dtype} array from ${describe(host)}: pass a ${expected.name}`,
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
    if (collected !== undefined) {
      // Inside a differentiated function the backward pass may still read it: freed when the call ends.
      collected.push(this);
      return;
    }
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
  return makeView(array, layout, array.dtype) as GPUArray<D>;
}

/**
 * A view of `array`'s memory as elements of another dtype, `layout` counted in that dtype's elements
 * (a complex array's real parts as float32: strides and offset doubled).
 */
export function viewAs<T extends DType>(array: GPUArray, layout: Layout, dtype: T): GPUArray<T> {
  return makeView(array, layout, dtype) as GPUArray<T>;
}

/**
 * `value`, checked to be an array: the argument `what` (a function's name) takes first.
 *
 * @throws {TypeError} naming what was given instead.
 */
export function arrayArg(value: unknown, what: string): GPUArray {
  if (!(value instanceof GPUArray)) throw new TypeError(`Cannot ${what} ${describe(value)}: pass a GPUArray`);
  return value;
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
  arrayArg(like, "emptyLike");
  return new GPUArray(like.backend, like.shape, dtypeArg("emptyLike", dtype) ?? like.dtype);
}
