/**
 * Setting device memory to a repeated 8-, 16- or 32-bit value (PyCUDA's `memset_d8/d16/d32`), at once
 * or queued on a stream.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import type { Stream } from "./stream.ts";
import { refuseWhileCapturing } from "./capturing.ts";
import { checkFits, type DeviceTarget, resolveDevice, toSize } from "./memory.ts";

type MemsetWidth = 8 | 16 | 32;
const SET_ON_STREAM = "pass the capturing stream as the last argument, or set the memory before the capture";
const MEMSET_LIMIT: Record<MemsetWidth, number> = { 8: 0xff, 16: 0xffff, 32: 0xffffffff };

function memsetArgs(dst: DeviceTarget, value: number, count: number, width: MemsetWidth): bigint {
  const d = resolveDevice(dst, `the destination of memsetD${width}()`);
  if (!Number.isInteger(value) || value < 0 || value > MEMSET_LIMIT[width]) {
    throw new RangeError(
      `Cannot memsetD${width}() with ${value}: give an integer from 0 to ${MEMSET_LIMIT[width]}`,
    );
  }
  toSize(count, "set");
  checkFits(count * (width / 8), d, `memsetD${width}() ${count} elements`);
  return d.ptr;
}

/** The driver's calls for each width: at once, and queued on a stream. */
const CALLS = {
  8: ["cuMemsetD8_v2", "cuMemsetD8Async"],
  16: ["cuMemsetD16_v2", "cuMemsetD16Async"],
  32: ["cuMemsetD32_v2", "cuMemsetD32Async"],
} as const;

/** What memsetD8/D16/D32 share: the capture check, the argument checks and the driver call. */
function memset(width: MemsetWidth, dst: DeviceTarget, value: number, count: number, stream?: Stream): void {
  if (stream === undefined) {
    refuseWhileCapturing(`set memory with memsetD${width}() and no stream`, SET_ON_STREAM);
  }
  const ptr = memsetArgs(dst, value, count, width);
  const [now, queued] = CALLS[width];
  if (stream === undefined) checkCuda(driver()[now](ptr, value, BigInt(count)), now);
  else checkCuda(driver()[queued](ptr, value, BigInt(count), stream.unsafeHandle), queued);
}

/**
 * Sets `count` bytes to `value` (PyCUDA's `memset_d8`); with a stream, queues it there.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const buf = cuda.memAlloc(256);
 * cuda.memsetD8(buf, 0, 256);
 * ```
 */
export function memsetD8(dst: DeviceTarget, value: number, count: number, stream?: Stream): void {
  memset(8, dst, value, count, stream);
}

/**
 * Sets `count` 16-bit words to `value` (PyCUDA's `memset_d16`); with a stream, queues it there.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const buf = cuda.memAlloc(256);
 * cuda.memsetD16(buf, 0x3c00, 128); // 1.0 in float16
 * ```
 */
export function memsetD16(dst: DeviceTarget, value: number, count: number, stream?: Stream): void {
  memset(16, dst, value, count, stream);
}

/**
 * Sets `count` 32-bit words to `value` (PyCUDA's `memset_d32`); with a stream, queues it there.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const buf = cuda.memAlloc(256);
 * cuda.memsetD32(buf, 0x3f800000, 64); // 1.0f
 * ```
 */
export function memsetD32(dst: DeviceTarget, value: number, count: number, stream?: Stream): void {
  memset(32, dst, value, count, stream);
}
