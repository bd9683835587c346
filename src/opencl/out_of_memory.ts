/**
 * Device memory an OpenCL device cannot give: a buffer over its per-buffer limit, or one the driver
 * fails to allocate (`CL_MEM_OBJECT_ALLOCATION_FAILURE`, `CL_OUT_OF_RESOURCES`), which some drivers
 * report at the buffer's first use rather than at `clCreateBuffer`.
 *
 * @module
 */

import { OpenCLError } from "./errors.ts";
import type { Device } from "./platform.ts";
import { formatBytes } from "../kernel/bytes.ts";

/** `CL_MEM_OBJECT_ALLOCATION_FAILURE`. */
export const CL_MEM_OBJECT_ALLOCATION_FAILURE = -4;
/** `CL_OUT_OF_RESOURCES`. */
export const CL_OUT_OF_RESOURCES = -5;
/** `CL_INVALID_BUFFER_SIZE`: over `CL_DEVICE_MAX_MEM_ALLOC_SIZE`. */
export const CL_INVALID_BUFFER_SIZE = -61;

/**
 * The device cannot hold the memory asked for: more than one buffer may have (`CL_INVALID_BUFFER_SIZE`,
 * checked before the driver is asked), or more than the driver could allocate. An {@link OpenCLError},
 * so existing catches still catch it; the context and queue stay usable.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * try {
 *   new cl.Buffer(ctx, 2 ** 50);
 * } catch (e) {
 *   if (e instanceof cl.OutOfMemoryError) console.log(e.requested, e.globalMemory, e.message); // …asked for 1 PiB…
 * }
 * ```
 */
export class OutOfMemoryError extends OpenCLError {
  /** Bytes asked for (for a failure at first use: the buffers that use needed). */
  readonly requested: bigint;
  /** The device's global memory, bytes (`CL_DEVICE_GLOBAL_MEM_SIZE`). */
  readonly globalMemory: bigint;
  /** The most one buffer may have on the device, bytes (`CL_DEVICE_MAX_MEM_ALLOC_SIZE`). */
  readonly maxAllocation: bigint;

  /** The error for `call` returning `code` when `requested` bytes were needed on `device`. */
  constructor(code: number, call: string, requested: number | bigint, device: Device) {
    const bytes = BigInt(requested), globalMemory = device.globalMemory, maxAllocation = device.maxAllocation;
    const over = bytes > maxAllocation;
    super(
      code,
      call,
      `: ${device.name} cannot hold ${formatBytes(bytes)} (${bytes} bytes): it has ${
        formatBytes(globalMemory)
      } of global memory and allows ${
        formatBytes(maxAllocation)
      } per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE); ${
        over
          ? "split the data into smaller buffers"
          : "release buffers and free arrays no longer needed (release(), free(), using), or use smaller ones"
      }`,
    );
    this.name = "OutOfMemoryError";
    this.requested = bytes;
    this.globalMemory = globalMemory;
    this.maxAllocation = maxAllocation;
  }
}

/**
 * Throws {@link OutOfMemoryError} when `code`, returned by `call` at a buffer's first use (a copy, a
 * fill, a launch), says the driver could not allocate the `bytes` that use needed.
 */
export function checkFirstUse(code: number, call: string, bytes: () => number, device: Device): void {
  if (code === CL_MEM_OBJECT_ALLOCATION_FAILURE) throw new OutOfMemoryError(code, call, bytes(), device);
}
