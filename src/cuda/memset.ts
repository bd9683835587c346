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
  if (stream === undefined) refuseWhileCapturing("set memory with memsetD8() and no stream", SET_ON_STREAM);
  const ptr = memsetArgs(dst, value, count, 8);
  if (stream === undefined) checkCuda(driver().cuMemsetD8_v2(ptr, value, BigInt(count)), "cuMemsetD8_v2");
  else checkCuda(driver().cuMemsetD8Async(ptr, value, BigInt(count), stream.unsafeHandle), "cuMemsetD8Async");
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
  if (stream === undefined) refuseWhileCapturing("set memory with memsetD16() and no stream", SET_ON_STREAM);
  const ptr = memsetArgs(dst, value, count, 16);
  if (stream === undefined) checkCuda(driver().cuMemsetD16_v2(ptr, value, BigInt(count)), "cuMemsetD16_v2");
  else {checkCuda(
      driver().cuMemsetD16Async(ptr, value, BigInt(count), stream.unsafeHandle),
      "cuMemsetD16Async",
    );}
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
  if (stream === undefined) refuseWhileCapturing("set memory with memsetD32() and no stream", SET_ON_STREAM);
  const ptr = memsetArgs(dst, value, count, 32);
  if (stream === undefined) checkCuda(driver().cuMemsetD32_v2(ptr, value, BigInt(count)), "cuMemsetD32_v2");
  else {checkCuda(
      driver().cuMemsetD32Async(ptr, value, BigInt(count), stream.unsafeHandle),
      "cuMemsetD32Async",
    );}
}
