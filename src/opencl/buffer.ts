/**
 * OpenCL buffers: device memory of one context.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL } from "./errors.ts";
import {
  CL_INVALID_BUFFER_SIZE,
  CL_MEM_OBJECT_ALLOCATION_FAILURE,
  CL_OUT_OF_RESOURCES,
  OutOfMemoryError,
} from "./out_of_memory.ts";
import type { Context } from "./context.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";
import { formatBytes } from "../kernel/bytes.ts";

const ACCESS: Record<BufferAccess, bigint> = { read_write: 1n, write_only: 2n, read_only: 4n };
const CL_MEM_COPY_HOST_PTR = 32n;

const buffers = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseMemObject(handle));

/**
 * Objects that stand for an OpenCL buffer (GPU arrays on the OpenCL backend) return it under this key.
 */
export const clBuffer: unique symbol = Symbol.for("cudeno.opencl.buffer");

/** Anything that can stand where a {@link Buffer} is expected. */
export interface BufferLike {
  /** The buffer itself. */
  [clBuffer](): Buffer;
}

/** How kernels may use a buffer. */
export type BufferAccess = "read_write" | "write_only" | "read_only";

/** Options for a new {@link Buffer}. */
export interface BufferOptions {
  /** How kernels may use it. Default `"read_write"`. */
  readonly access?: BufferAccess;
  /** Initial contents, copied in at creation (`CL_MEM_COPY_HOST_PTR`); at most `size` bytes. Default: none (uninitialised). */
  readonly hostBuf?: ArrayBufferView;
}

/**
 * Device memory of an OpenCL context (PyOpenCL's `cl.Buffer`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * using buf = new cl.Buffer(ctx, 1024);
 * console.log(buf.size);
 * ```
 */
export class Buffer {
  /** The context the buffer belongs to. */
  readonly context: Context;
  /** Bytes. */
  readonly size: number;
  readonly #handle: Deno.PointerObject;
  readonly #value: bigint;
  #freed = false;

  /**
   * Allocates `size` bytes in `context`.
   *
   * @throws {RangeError} for a size that is not a positive integer, or a `hostBuf` larger than it.
   * @throws {OutOfMemoryError} (an `OpenCLError`) when the device cannot hold it: over the
   * device's per-buffer limit, or more than the driver can allocate; it names the size, the device's
   * global memory and its per-buffer limit.
   */
  constructor(context: Context, size: number, options: BufferOptions = {}) {
    if (!Number.isSafeInteger(size) || size <= 0) {
      throw new RangeError(
        `Cannot create an OpenCL buffer of ${size} bytes: give a positive integer byte count`,
      );
    }
    if (BigInt(size) > context.device.maxAllocation) {
      throw new OutOfMemoryError(CL_INVALID_BUFFER_SIZE, "clCreateBuffer", size, context.device);
    }
    const host = options.hostBuf;
    if (host !== undefined && host.byteLength > size) {
      throw new RangeError(
        `Cannot create a ${size}-byte buffer from ${host.byteLength} bytes of host data: make it larger`,
      );
    }
    let source = host;
    if (host !== undefined && host.byteLength < size) {
      const padded = new Uint8Array(size);
      padded.set(new Uint8Array(host.buffer, host.byteOffset, host.byteLength));
      source = padded;
    }
    const flags = ACCESS[options.access ?? "read_write"] | (source === undefined ? 0n : CL_MEM_COPY_HOST_PTR);
    const err = new Int32Array(1);
    const handle = libopencl.get().clCreateBuffer(
      context.unsafeHandle,
      flags,
      BigInt(size),
      source ?? null,
      err,
    );
    const code = err[0]!;
    if (
      code === CL_MEM_OBJECT_ALLOCATION_FAILURE || code === CL_OUT_OF_RESOURCES ||
      code === CL_INVALID_BUFFER_SIZE
    ) {
      throw new OutOfMemoryError(code, "clCreateBuffer", size, context.device);
    }
    checkCL(err[0]!, "clCreateBuffer");
    this.context = context;
    this.size = size;
    this.#handle = handle!;
    this.#value = Deno.UnsafePointer.value(handle);
    buffers.register(this, this.#handle, this);
  }

  /**
   * **UNSAFE**: the raw `cl_mem`.
   *
   * @throws {TypeError} when the buffer was freed.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#freed) this.#throwFreed();
    return this.#handle;
  }

  /** The `cl_mem` handle's value, as kernel arguments pass it. */
  get handleValue(): bigint {
    if (this.#freed) this.#throwFreed();
    return this.#value;
  }

  /** Whether {@link free} was called. */
  get freed(): boolean {
    return this.#freed;
  }

  #throwFreed(): never {
    throw new TypeError(
      `Cannot use an OpenCL Buffer of ${formatBytes(this.size)}: it was freed; create a new one`,
    );
  }

  /** Releases the memory. Idempotent; never throws. */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    buffers.unregister(this);
    quietly(() => libopencl.get().clReleaseMemObject(this.#handle));
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }

  /** The buffer itself, so a Buffer is also a {@link BufferLike}. */
  [clBuffer](): Buffer {
    return this;
  }
}

/** Whether `value` is a {@link Buffer} or stands for one. */
export function isBufferLike(value: unknown): value is BufferLike {
  return value instanceof Buffer || (typeof value === "object" && value !== null && clBuffer in value);
}

/**
 * The {@link Buffer} behind `value`.
 *
 * @throws {TypeError} naming `what` when `value` is not a buffer.
 */
export function toBuffer(value: unknown, what: string): Buffer {
  if (value instanceof Buffer) return value;
  if (isBufferLike(value)) return value[clBuffer]();
  const shown = value === null || typeof value !== "object"
    ? String(value)
    : `a ${value.constructor?.name ?? "object"}`;
  throw new TypeError(`Cannot use ${shown} as ${what}: pass an OpenCL Buffer or a GPUArray`);
}
