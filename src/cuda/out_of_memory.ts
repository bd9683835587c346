/**
 * Running out of device memory: before an allocation is given up, the device's stream-ordered pool
 * returns the memory it keeps for reuse to the device and the allocation is tried once more (CuPy's
 * `free_all_blocks()`, PyTorch's caching allocator on a failed `cudaMalloc`); if it still fails, an
 * {@link OutOfMemoryError} says how much was asked for, how much is free, and what the pool holds.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda, CudaError } from "./errors.ts";
import type { Context } from "./context.ts";
import type { Device } from "./device.ts";
import { capturesInProgress } from "./capturing.ts";
import { formatBytes } from "../kernel/bytes.ts";

const CUDA_ERROR_OUT_OF_MEMORY = 2;
/** `CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT` and `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` (cuda.h's `CUmemPool_attribute`). */
const RESERVED_MEM_CURRENT = 5, USED_MEM_CURRENT = 7;

/** Out-parameters, shared: each call reads them at once. */
const out64 = new BigUint64Array(1), out64b = new BigUint64Array(1);

/** What {@link OutOfMemoryError} reports, all in bytes. */
export interface MemoryShortage {
  /** Asked for. */
  readonly requested: bigint;
  /** Free on the device after the pool gave back what it could (`cuMemGetInfo`). */
  readonly free: bigint;
  /** The device's memory. */
  readonly total: bigint;
  /** Held by the device's stream-ordered pool (`CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT`). */
  readonly poolReserved: bigint;
  /** Of that, in live allocations (`CU_MEMPOOL_ATTR_USED_MEM_CURRENT`). */
  readonly poolUsed: bigint;
}

/**
 * A device allocation failed for want of memory, after the pool's unused memory was given back to the
 * device (`CUDA_ERROR_OUT_OF_MEMORY`; CuPy's and PyTorch's `OutOfMemoryError`). A {@link CudaError},
 * so `catch (e) { if (e instanceof cuda.CudaError) ... }` still catches it. The process can go on:
 * free something and allocate again.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * try {
 *   cuda.memAlloc(2n ** 44n);
 * } catch (e) {
 *   if (e instanceof cuda.OutOfMemoryError) console.log(e.requested, e.free, e.message); // …asked for 16 TiB…
 * }
 * ```
 */
export class OutOfMemoryError extends CudaError {
  /** Bytes asked for. */
  readonly requested: bigint;
  /** Bytes free on the device when the allocation was given up. */
  readonly free: bigint;
  /** The device's memory, bytes. */
  readonly total: bigint;
  /** Bytes the device's stream-ordered pool held then. */
  readonly poolReserved: bigint;
  /** Of {@link poolReserved}, bytes in live allocations (arrays among them). */
  readonly poolUsed: bigint;

  /** The error for `call` failing to allocate, with the figures of `shortage`. */
  constructor(call: string, shortage: MemoryShortage) {
    const { requested, free, total, poolReserved, poolUsed } = shortage;
    super(
      CUDA_ERROR_OUT_OF_MEMORY,
      call,
      `: asked for ${formatBytes(requested)} (${requested} bytes) with ${formatBytes(free)} free of ${
        formatBytes(total)
      }; the stream-ordered memory pool holds ${formatBytes(poolReserved)}, ${
        formatBytes(poolUsed)
      } of it in live allocations; free arrays and allocations no longer needed (free(), using) or allocate less`,
    );
    this.name = "OutOfMemoryError";
    this.requested = requested;
    this.free = free;
    this.total = total;
    this.poolReserved = poolReserved;
    this.poolUsed = poolUsed;
  }
}

/** `device`'s default stream-ordered memory pool. */
export function defaultMemPool(device: Device): Deno.PointerObject {
  checkCuda(driver().cuDeviceGetDefaultMemPool(out64, device.unsafeHandle), "cuDeviceGetDefaultMemPool");
  return Deno.UnsafePointer.create(out64[0]!)!;
}

/** The bytes `device`'s stream-ordered pool has in live allocations (`used`) and holds (`reserved`). */
export function poolBytes(device: Device): { used: bigint; reserved: bigint } {
  const lib = driver(), pool = defaultMemPool(device);
  checkCuda(lib.cuMemPoolGetAttribute(pool, USED_MEM_CURRENT, out64), "cuMemPoolGetAttribute");
  checkCuda(lib.cuMemPoolGetAttribute(pool, RESERVED_MEM_CURRENT, out64b), "cuMemPoolGetAttribute");
  return { used: out64[0]!, reserved: out64b[0]! };
}

/**
 * Gives the memory `ctx`'s device pool keeps for reuse back to the device: after waiting for the
 * context's work, so that memory freed on streams is back in the pool, then `cuMemPoolTrimTo(0)`.
 * Where the wait is refused because another thread's stream is capturing, trims what is free already.
 */
function releasePoolMemory(ctx: Context): void {
  const lib = driver();
  const code = lib.cuCtxSynchronize();
  if (code !== 0 && (code < 900 || code > 907)) checkCuda(code, "cuCtxSynchronize");
  checkCuda(lib.cuMemPoolTrimTo(defaultMemPool(ctx.device), 0n), "cuMemPoolTrimTo");
}

/**
 * Runs `allocate` (a driver allocation returning its `CUresult`); when the device is out of memory,
 * gives the pool's unused memory back and runs it once more (not while this thread captures: a
 * capture cannot wait for the device). Throws {@link OutOfMemoryError} when it still fails, a
 * {@link CudaError} for another failure.
 */
export function allocateOrExplain(call: string, bytes: number, ctx: Context, allocate: () => number): void {
  let code = allocate();
  if (code === CUDA_ERROR_OUT_OF_MEMORY && capturesInProgress === 0) {
    releasePoolMemory(ctx);
    code = allocate();
  }
  if (code === CUDA_ERROR_OUT_OF_MEMORY) {
    const total = out64b;
    checkCuda(driver().cuMemGetInfo_v2(out64, total), "cuMemGetInfo_v2");
    const free = out64[0]!, all = total[0]!;
    const pool = poolBytes(ctx.device);
    throw new OutOfMemoryError(call, {
      requested: BigInt(bytes),
      free,
      total: all,
      poolReserved: pool.reserved,
      poolUsed: pool.used,
    });
  }
  checkCuda(code, call);
}
