/**
 * Page-locked ("pinned") host memory: `pagelockedEmpty` and `PagelockedArray`.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { Owned, ownership } from "./owned.ts";
import { checkCuda } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import { refuseWhileCapturing } from "./capturing.ts";
import { type DType, DTYPES, type HostArrayOf } from "../kernel/dtype.ts";
import { ALLOCATE_FIRST, toSize } from "./memory.ts";

const pinnedArrays = ownership<Deno.PointerObject>((ptr) => driver().cuMemFreeHost(ptr));

/**
 * Page-locked ("pinned") host memory viewed as a typed array: copies from and to it run at full
 * PCIe speed and can be truly asynchronous.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using pinned = cuda.pagelockedEmpty(1 << 20, "float32");
 * pinned.array.fill(1);
 * ```
 */
export class PagelockedArray<D extends DType = "float32"> {
  /** The element type. */
  readonly dtype: D;
  #array: HostArrayOf[D];
  readonly #held: Owned<Deno.PointerObject>;
  #freed = false;

  /** Use {@link pagelockedEmpty}. */
  constructor(ptr: Deno.PointerObject, length: number, dtype: D, ctx: Context) {
    this.dtype = dtype;
    const info = DTYPES[dtype];
    const buffer = Deno.UnsafePointerView.getArrayBuffer(ptr, Math.max(1, length * info.size));
    this.#array = new info.array(buffer, 0, length * info.parts) as HostArrayOf[D];
    this.#held = new Owned(ptr, ctx);
    // Tied to the memory itself, not to this wrapper: a stream holding the array for an async copy
    // keeps the pinned memory alive even after the wrapper is dropped.
    pinnedArrays.registry.register(buffer, this.#held, this);
  }

  /** The memory as a typed array (detached, length 0, once freed). */
  get array(): HostArrayOf[D] {
    return this.#array;
  }

  /** Returns the memory to the driver and detaches {@link array}, so no stale view can touch it. */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    pinnedArrays.registry.unregister(this);
    (this.#array.buffer as ArrayBuffer).transfer(0);
    pinnedArrays.release(this.#held);
  }

  /** Same as {@link free}. */
  [Symbol.dispose](): void {
    this.free();
  }
}

/**
 * Allocates `length` elements of page-locked host memory (PyCUDA's `pagelocked_empty`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const pinned = cuda.pagelockedEmpty(1024, "float64");
 * pinned.array[0] = Math.PI;
 * pinned.free();
 * ```
 */
export function pagelockedEmpty<D extends DType = "float32">(length: number, dtype?: D): PagelockedArray<D> {
  const type = (dtype ?? "float32") as D;
  if (!Object.hasOwn(DTYPES, type)) {
    throw new TypeError(`Cannot allocate pinned memory of dtype "${type}": unknown dtype`);
  }
  const bytes = toSize(length, "allocate") * DTYPES[type].size;
  refuseWhileCapturing("allocate pinned host memory", ALLOCATE_FIRST);
  const ctx = requireContext("cuMemAllocHost_v2");
  const out = new BigUint64Array(1);
  checkCuda(driver().cuMemAllocHost_v2(out, BigInt(Math.max(1, bytes))), "cuMemAllocHost_v2");
  return new PagelockedArray(Deno.UnsafePointer.create(out[0]!)!, length, type, ctx);
}
