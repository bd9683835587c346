/**
 * Device memory and copies: `memAlloc`, `memcpyHtoD`/`DtoH`/`DtoD` (and their `Async` forms on a
 * stream), `memGetInfo`. The stream-ordered pool is in `pool.ts`, page-locked host memory in `pinned.ts`,
 * `memset*` in `memset.ts`, and copies between devices in `peer.ts`.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { Owned, ownership } from "./owned.ts";
import { checkCuda } from "./errors.ts";
import { allocateOrExplain } from "./out_of_memory.ts";
import { type Context, requireContext } from "./context.ts";
import type { Stream } from "./stream.ts";
import { quietly } from "../kernel/cleanup.ts";
import { formatBytes } from "../kernel/bytes.ts";
import { holdForDefaultStream } from "./holds.ts";
import {
  type CapturedMemory,
  captureOn,
  capturesInProgress,
  refuseWhileCapturing,
  releaseWhenNotCapturing,
} from "./capturing.ts";

/**
 * Objects that stand for device memory (GPU arrays, views) expose it under this key: a function
 * returning the device address and the bytes available from it.
 */
export const devicePointer: unique symbol = Symbol.for("cudeno.cuda.devicePointer");

/** Where some device memory is: its address, the bytes available from it, and (when known) its context. */
export interface DeviceSpan {
  /** The device address. */
  readonly ptr: bigint;
  /** Bytes available from {@link ptr}. */
  readonly size: number;
  /** The context the memory belongs to, where known (peer copies need it). */
  readonly context?: Context;
}

/** Anything with a device address under {@link devicePointer}. */
export interface DevicePointerLike {
  /** The device address and the bytes available from it. */
  [devicePointer](): DeviceSpan;
}

/** What copies and launches accept as device memory: an allocation, a raw address, or a {@link DevicePointerLike}. */
export type DeviceTarget = DeviceAllocation | DevicePointerLike | bigint;

const allocations = ownership<bigint>((ptr) => driver().cuMemFree_v2(ptr));
/** Memory of the stream-ordered pool goes back to it in the order of the stream it was taken on. */
const pooled = ownership<bigint>((ptr) => driver().cuMemFreeAsync(ptr, null));
/**
 * Memory a stream capture took is a memory node of the capture's graph: it exists only once that
 * graph has been launched, so it is given back only from then on.
 */
const captured = ownership<{ ptr: bigint; memory: CapturedMemory }>(({ ptr, memory }) =>
  memory.launched ? driver().cuMemFreeAsync(ptr, null) : 0
);

/** memAlloc's out-parameter, shared: each call reads it at once (a typed array costs more to make than the call). */
const addressOut = new BigUint64Array(1);

/**
 * Memory on the device (PyCUDA's `DeviceAllocation`). Free it with `free()`, a `using` declaration,
 * or let the garbage collector return it.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using buf = cuda.memAlloc(1024);
 * console.log(buf.ptr, buf.size);
 * ```
 */
export class DeviceAllocation {
  /** Bytes allocated. */
  readonly size: number;
  readonly #ptr: bigint;
  readonly #held: Owned<bigint>;
  readonly #stream: Stream | undefined;
  readonly #pooled: boolean;
  /** Where a capture took the memory (a memory node of its graph): that capture's memory state. */
  readonly #captured: CapturedMemory | undefined;
  #freed = false;

  /**
   * Use {@link memAlloc} or {@link memAllocAsync}. `pool`: the memory is from the stream-ordered pool,
   * returned on `pool.stream` (the legacy default stream where undefined).
   */
  constructor(ptr: bigint, size: number, ctx: Context, pool?: { stream?: Stream }) {
    this.#ptr = ptr;
    this.size = size;
    this.#held = new Owned(ptr, ctx);
    this.#pooled = pool !== undefined;
    this.#stream = pool?.stream;
    this.#captured = capturesInProgress === 0 ? undefined : captureOn(pool?.stream)?.memory;
    if (this.#captured !== undefined) {
      captured.registry.register(this, new Owned({ ptr, memory: this.#captured }, ctx), this);
    } else {
      (this.#pooled ? pooled : allocations).registry.register(this, this.#held, this);
    }
  }

  /**
   * The device address.
   *
   * @throws {TypeError} when the allocation was freed or its context was reset.
   */
  get ptr(): bigint {
    if (this.#freed || this.#held.stale) this.#throwGone();
    return this.#ptr;
  }

  /** The context the memory belongs to. */
  get context(): Context {
    return this.#held.ctx;
  }

  /** Whether `free()` was called (or the context was reset since). */
  get freed(): boolean {
    return this.#freed || this.#held.stale || this.#held.ctx.released;
  }

  #throwGone(): never {
    const why = this.#freed ? "was freed" : "belonged to a context that was reset";
    throw new TypeError(
      `Cannot use a DeviceAllocation of ${formatBytes(this.size)}: it ${why}; allocate a new one`,
    );
  }

  /**
   * Returns the memory to the driver (memory of the stream-ordered pool: to the pool, once the work
   * queued on its stream before is done). While a capture is in progress the memory is given back
   * once it has ended, except memory the capture took itself: that is given back in its graph (a
   * free node). Memory a capture took whose graph never ran was never really taken, and is not given
   * back. Idempotent; never throws.
   */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    const memory = this.#captured, stream = this.#stream;
    if (memory !== undefined) {
      captured.registry.unregister(this);
      if (captureOn(stream)?.memory === memory) this.#freeOn(stream); // in the graph: a free node
      else if (memory.launched) releaseWhenNotCapturing(() => this.#freeOn(stream));
    } else if (!this.#pooled) {
      allocations.registry.unregister(this);
      allocations.release(this.#held);
    } else {
      pooled.registry.unregister(this);
      releaseWhenNotCapturing(() => this.#freeOn(stream));
    }
  }

  /** `cuMemFreeAsync` on `stream` (the legacy default stream once it is destroyed), unless the context is gone. */
  #freeOn(stream: Stream | undefined): void {
    const held = this.#held;
    if (held.ctx.released || held.stale) return;
    const handle = stream === undefined || stream.destroyed ? null : stream.unsafeHandle;
    quietly(() => held.ctx.run(() => driver().cuMemFreeAsync(this.#ptr, handle)));
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }

  /** The address, size and context, so an allocation can stand wherever device memory is expected. */
  [devicePointer](): DeviceSpan {
    return { ptr: this.ptr, size: this.size, context: this.#held.ctx };
  }

  /** `DeviceAllocation(0x7f..., 1.00 KiB)`. */
  toString(): string {
    return `DeviceAllocation(0x${this.#ptr.toString(16)}, ${formatBytes(this.size)}${
      this.#freed ? ", freed" : ""
    })`;
  }
}

/**
 * Reads a device target into its address and, where known, its size in bytes.
 *
 * @throws {TypeError} for anything that is not device memory.
 */
export function resolveDevice(
  target: unknown,
  what: string,
): { ptr: bigint; size: number | undefined; context?: Context } {
  if (target instanceof DeviceAllocation) {
    return { ptr: target.ptr, size: target.size, context: target.context };
  }
  if (typeof target === "bigint") return { ptr: target, size: undefined };
  if (target !== null && typeof target === "object" && devicePointer in target) {
    return (target as DevicePointerLike)[devicePointer]();
  }
  throw new TypeError(
    `Cannot use ${describeValue(target)} as ${what}: pass a DeviceAllocation, a GPUArray or a bigint address`,
  );
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  const kind = typeof v === "object" ? v.constructor?.name ?? "object" : typeof v;
  return `${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}`;
}

/** A byte count as a safe non-negative integer, or a RangeError naming `what`. */
export function toSize(bytes: number | bigint, what: string): number {
  const n = typeof bytes === "bigint" ? Number(bytes) : bytes;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`Cannot ${what} ${bytes} bytes: give a non-negative integer byte count`);
  }
  return n;
}

/**
 * Free and total device memory of the current context's device, in bytes (PyCUDA's `mem_get_info`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const { free, total } = cuda.memGetInfo();
 * ```
 */
export function memGetInfo(): { free: bigint; total: bigint } {
  requireContext("cuMemGetInfo_v2");
  const free = new BigUint64Array(1);
  const total = new BigUint64Array(1);
  checkCuda(driver().cuMemGetInfo_v2(free, total), "cuMemGetInfo_v2");
  return { free: free[0]!, total: total[0]! };
}

/**
 * Allocates `bytes` of device memory in the current context (PyCUDA's `mem_alloc`).
 *
 * Where the device has no room, the stream-ordered pool's unused memory (what `memAllocAsync` and
 * arrays freed) is given back to the device and the allocation tried once more.
 *
 * @throws {RangeError} for a size that is not a positive integer.
 * @throws {OutOfMemoryError} (a `CudaError`, `CUDA_ERROR_OUT_OF_MEMORY`) naming the size asked
 * for, the memory free and what the pool holds.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const a = new Float32Array(1024);
 * const aGpu = cuda.memAlloc(a.byteLength);
 * cuda.memcpyHtoD(aGpu, a);
 * ```
 */
export function memAlloc(bytes: number | bigint): DeviceAllocation {
  const size = toSize(bytes, "allocate");
  if (size === 0) throw new RangeError("Cannot allocate 0 bytes: memAlloc() needs a size of at least 1 byte");
  refuseWhileCapturing("allocate device memory", ALLOCATE_FIRST);
  const ctx = requireContext("cuMemAlloc_v2");
  const out = addressOut, lib = driver();
  allocateOrExplain("cuMemAlloc_v2", size, ctx, () => lib.cuMemAlloc_v2(out, BigInt(size)));
  return new DeviceAllocation(out[0]!, size, ctx);
}

/** The fix for an allocation refused during a capture. */
export const ALLOCATE_FIRST = 'allocate before the capture begins, or capture with { mode: "relaxed" }';
/** The fix for a stream-ordered allocation refused during a capture. */
export const ALLOCATE_ON_STREAM =
  "allocate with memAllocAsync(bytes, stream) on the capturing stream, or before the capture begins";

/** The fix for a synchronous copy during a capture: `async` names the form that queues on a stream. */
export function copyOnStream(async: string): string {
  return `queue ${async} on the capturing stream, or copy before or after the capture`;
}

export function checkFits(bytes: number, target: { size: number | undefined }, what: string): void {
  if (target.size !== undefined && bytes > target.size) {
    throw new RangeError(
      `Cannot ${what}: ${bytes} bytes do not fit in a device allocation of ${target.size} bytes`,
    );
  }
}

export function streamHandle(stream: Stream | undefined): Deno.PointerValue {
  return stream === undefined ? null : stream.unsafeHandle;
}

/**
 * Copies all of `src` from the host to the device (PyCUDA's `memcpy_htod`).
 *
 * @throws {RangeError} when `src` is larger than the allocation.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const dst = cuda.memAlloc(16);
 * cuda.memcpyHtoD(dst, new Float32Array([1, 2, 3, 4]));
 * ```
 */
export function memcpyHtoD(dst: DeviceTarget, src: ArrayBufferView): void {
  refuseWhileCapturing("copy with memcpyHtoD()", copyOnStream("memcpyHtoDAsync(dst, src, stream)"));
  if (dst instanceof DeviceAllocation && src.byteLength <= dst.size && src.byteLength > 0) {
    checkCuda(driver().cuMemcpyHtoD_v2(dst.ptr, src, BigInt(src.byteLength)), "cuMemcpyHtoD_v2");
    return;
  }
  const d = resolveDevice(dst, "the destination of memcpyHtoD()");
  checkFits(src.byteLength, d, "memcpyHtoD()");
  if (src.byteLength === 0) return;
  checkCuda(driver().cuMemcpyHtoD_v2(d.ptr, src, BigInt(src.byteLength)), "cuMemcpyHtoD_v2");
}

/**
 * Copies `dst.byteLength` bytes from the device into `dst` (PyCUDA's `memcpy_dtoh`).
 *
 * @throws {RangeError} when `dst` is larger than the allocation.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const src = cuda.memAlloc(16);
 * const out = new Float32Array(4);
 * cuda.memcpyDtoH(out, src);
 * ```
 */
export function memcpyDtoH(dst: ArrayBufferView, src: DeviceTarget): void {
  refuseWhileCapturing("copy with memcpyDtoH()", copyOnStream("memcpyDtoHAsync(dst, src, stream)"));
  if (src instanceof DeviceAllocation && dst.byteLength <= src.size && dst.byteLength > 0) {
    checkCuda(driver().cuMemcpyDtoH_v2(dst, src.ptr, BigInt(dst.byteLength)), "cuMemcpyDtoH_v2");
    return;
  }
  const s = resolveDevice(src, "the source of memcpyDtoH()");
  checkFits(dst.byteLength, s, "memcpyDtoH()");
  if (dst.byteLength === 0) return;
  checkCuda(driver().cuMemcpyDtoH_v2(dst, s.ptr, BigInt(dst.byteLength)), "cuMemcpyDtoH_v2");
}

/**
 * Copies `bytes` (default: all of the smaller side) from one device buffer to another.
 *
 * @throws {RangeError} when `bytes` exceeds either allocation.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const a = cuda.memAlloc(64), b = cuda.memAlloc(64);
 * cuda.memcpyDtoD(b, a);
 * ```
 */
export function memcpyDtoD(dst: DeviceTarget, src: DeviceTarget, bytes?: number): void {
  refuseWhileCapturing("copy with memcpyDtoD()", copyOnStream("memcpyDtoDAsync(dst, src, bytes, stream)"));
  const n = copyBytes(dst, src, bytes, "memcpyDtoD()");
  if (n.bytes === 0) return;
  checkCuda(driver().cuMemcpyDtoD_v2(n.dst, n.src, BigInt(n.bytes)), "cuMemcpyDtoD_v2");
}

export function copyBytes(
  dst: DeviceTarget,
  src: DeviceTarget,
  bytes: number | undefined,
  what: string,
): { dst: bigint; src: bigint; bytes: number } {
  const d = resolveDevice(dst, `the destination of ${what}`);
  const s = resolveDevice(src, `the source of ${what}`);
  const known = [d.size, s.size].filter((x) => x !== undefined);
  const n = bytes ?? (known.length > 0 ? Math.min(...known) : undefined);
  if (n === undefined) throw new TypeError(`Cannot ${what} between raw addresses: give the byte count`);
  toSize(n, "copy");
  checkFits(n, d, what);
  checkFits(n, s, what);
  return { dst: d.ptr, src: s.ptr, bytes: n };
}

/**
 * Queues a host-to-device copy on `stream` (PyCUDA's `memcpy_htod_async`). `src` is kept alive until
 * the stream has finished with it; for a truly asynchronous copy, `src` must be page-locked
 * (see {@link pagelockedEmpty}), otherwise the driver copies synchronously.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const stream = new cuda.Stream();
 * const host = cuda.pagelockedEmpty(1024, "float32");
 * const dev = cuda.memAlloc(host.array.byteLength);
 * cuda.memcpyHtoDAsync(dev, host.array, stream);
 * await stream.completed();
 * ```
 */
export function memcpyHtoDAsync(dst: DeviceTarget, src: ArrayBufferView, stream?: Stream): void {
  const d = resolveDevice(dst, "the destination of memcpyHtoDAsync()");
  checkFits(src.byteLength, d, "memcpyHtoDAsync()");
  if (src.byteLength === 0) return;
  checkCuda(
    driver().cuMemcpyHtoDAsync_v2(d.ptr, src, BigInt(src.byteLength), streamHandle(stream)),
    "cuMemcpyHtoDAsync_v2",
  );
  keepAlive(stream, src);
}

/**
 * Queues a device-to-host copy into `dst` on `stream` (PyCUDA's `memcpy_dtoh_async`). Read `dst` only
 * after the stream completes; it is kept alive until then.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const stream = new cuda.Stream();
 * const dev = cuda.memAlloc(4096);
 * const host = cuda.pagelockedEmpty(1024, "float32");
 * cuda.memcpyDtoHAsync(host.array, dev, stream);
 * await stream.completed();
 * ```
 */
export function memcpyDtoHAsync(dst: ArrayBufferView, src: DeviceTarget, stream?: Stream): void {
  const s = resolveDevice(src, "the source of memcpyDtoHAsync()");
  checkFits(dst.byteLength, s, "memcpyDtoHAsync()");
  if (dst.byteLength === 0) return;
  checkCuda(
    driver().cuMemcpyDtoHAsync_v2(dst, s.ptr, BigInt(dst.byteLength), streamHandle(stream)),
    "cuMemcpyDtoHAsync_v2",
  );
  keepAlive(stream, dst);
}

/**
 * Queues a device-to-device copy on `stream`.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const a = cuda.memAlloc(64), b = cuda.memAlloc(64);
 * cuda.memcpyDtoDAsync(b, a, 64);
 * ```
 */
export function memcpyDtoDAsync(dst: DeviceTarget, src: DeviceTarget, bytes?: number, stream?: Stream): void {
  const n = copyBytes(dst, src, bytes, "memcpyDtoDAsync()");
  if (n.bytes === 0) return;
  checkCuda(
    driver().cuMemcpyDtoDAsync_v2(n.dst, n.src, BigInt(n.bytes), streamHandle(stream)),
    "cuMemcpyDtoDAsync_v2",
  );
}

function keepAlive(stream: Stream | undefined, value: unknown): void {
  if (stream === undefined) holdForDefaultStream(value);
  else stream.hold(value);
}
