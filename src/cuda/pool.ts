/**
 * The device's stream-ordered memory pool (`cuMemAllocAsync`): `memAllocAsync`, and how much unused
 * memory the pool keeps (`setMemPoolReleaseThreshold`).
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import { allocateOrExplain, poolBytes } from "./out_of_memory.ts";
import { requireContext } from "./context.ts";
import type { Stream } from "./stream.ts";
import type { Device } from "./device.ts";
import { captureOn, capturesInProgress, refuseWhileCapturing } from "./capturing.ts";
import { ALLOCATE_ON_STREAM, DeviceAllocation, toSize } from "./memory.ts";

/** The 64-bit out-parameter of every call here, shared: each reads it at once (a typed array costs more to make than the call). */
const out64 = new BigUint64Array(1);
/** memAllocAsync's out-parameter (the pool's figures are read into others when it fails). */
const allocation = new BigUint64Array(1);

/**
 * Device memory from the device's stream-ordered pool (`cuMemAllocAsync`, CUDA 11.2+): usable by work
 * queued on `stream` (default: the legacy default stream) after this call, and returned to the pool
 * on that stream by `free()`. Taking memory from the pool and giving it back costs no device
 * synchronization, unlike `memAlloc`/`free` (PyTorch's and CuPy's caching allocators exist for the
 * same reason). Where the pool has no room, its unused memory is returned to the device and the
 * allocation tried once more. On a stream that is capturing, the allocation is recorded into the
 * graph (a memory node: the memory exists once the graph has been launched, at the same address at
 * every launch); off the capturing stream, it is refused while a capture is in progress.
 *
 * @throws {TypeError} while a capture is in progress, for an allocation not on the capturing stream.
 * @throws {OutOfMemoryError} (a `CudaError`, `CUDA_ERROR_OUT_OF_MEMORY`) when the device is out of
 * memory even so, naming the size asked for, the memory free and what the pool holds.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using scratch = cuda.memAllocAsync(1 << 20);
 * cuda.memsetD8(scratch, 0, 1 << 20);
 * ```
 */
export function memAllocAsync(bytes: number | bigint, stream?: Stream): DeviceAllocation {
  const size = toSize(bytes, "allocate");
  if (size === 0) {
    throw new RangeError("Cannot allocate 0 bytes: memAllocAsync() needs a size of at least 1 byte");
  }
  // Into a capture, an allocation on the capturing stream becomes a memory node of its graph.
  if (capturesInProgress !== 0 && captureOn(stream) === undefined) {
    refuseWhileCapturing("allocate device memory off the capturing stream", ALLOCATE_ON_STREAM);
  }
  const ctx = requireContext("cuMemAllocAsync");
  const lib = driver();
  const handle = stream?.unsafeHandle ?? null;
  // The pool may hold freed memory that another size could not reuse: where the device has no room,
  // that is given back and the allocation tried again.
  const address = allocation;
  allocateOrExplain("cuMemAllocAsync", size, ctx, () => lib.cuMemAllocAsync(address, BigInt(size), handle));
  return new DeviceAllocation(address[0]!, size, ctx, { stream });
}

/** `CU_MEMPOOL_ATTR_RELEASE_THRESHOLD` (cuda.h's `CUmemPool_attribute`). */
const RELEASE_THRESHOLD = 4;

/**
 * How much unused memory the device's stream-ordered pool keeps for reuse instead of returning it
 * to the device at each synchronization (`CU_MEMPOOL_ATTR_RELEASE_THRESHOLD`; the driver's default is
 * 0). The array module keeps everything (`2n ** 64n - 1n`), as PyTorch's caching allocator does.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * cuda.setMemPoolReleaseThreshold(new cuda.Device(0), 1n << 30n);
 * ```
 */
export function setMemPoolReleaseThreshold(device: Device, bytes: bigint): void {
  const lib = driver();
  checkCuda(lib.cuDeviceGetDefaultMemPool(out64, device.unsafeHandle), "cuDeviceGetDefaultMemPool");
  const value = new BigUint64Array([BigInt.asUintN(64, bytes)]);
  checkCuda(
    lib.cuMemPoolSetAttribute(Deno.UnsafePointer.create(out64[0]!), RELEASE_THRESHOLD, value),
    "cuMemPoolSetAttribute",
  );
}

/**
 * The memory of `device`'s stream-ordered pool, in bytes: `used` by live allocations (arrays among
 * them), and `reserved` from the device, which holds freed memory for the next allocations (PyTorch's
 * `torch.cuda.memory_allocated()` and `memory_reserved()`, CuPy's pool `used_bytes()` and
 * `total_bytes()`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const { used, reserved } = cuda.memPoolUsage(new cuda.Device(0));
 * console.log(used <= reserved);
 * ```
 */
export function memPoolUsage(device: Device): { used: bigint; reserved: bigint } {
  return poolBytes(device);
}
