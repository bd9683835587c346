/**
 * CUDA streams: ordered queues of device work, waited for synchronously or awaited without blocking
 * Deno's event loop.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { libcudaWait } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";
import { requireContext } from "./context.ts";
import { Owned, ownership } from "./owned.ts";
import type { Event } from "./event.ts";

const streams = ownership<Deno.PointerObject>((handle) => driver().cuStreamDestroy_v2(handle));

/** Options for a new {@link Stream}. */
export interface StreamOptions {
  /** Let the stream run concurrently with the legacy default stream (`CU_STREAM_NON_BLOCKING`). Default false. */
  readonly nonBlocking?: boolean;
}

/**
 * A queue of device work (PyCUDA's `driver.Stream`). Pass it to `*Async` copies and as a launch's
 * `stream`; `await stream.completed()` waits without blocking the event loop.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using stream = new cuda.Stream();
 * // ... queue copies and launches on it ...
 * await stream.completed();
 * ```
 */
export class Stream {
  readonly #held: Owned<Deno.PointerObject>;
  #pending: unknown[] = [];
  #destroyed = false;

  /** Creates a stream in the current context. */
  constructor(options: StreamOptions = {}) {
    const ctx = requireContext("cuStreamCreate");
    const out = new BigUint64Array(1);
    checkCuda(driver().cuStreamCreate(out, options.nonBlocking ? 1 : 0), "cuStreamCreate");
    this.#held = new Owned(Deno.UnsafePointer.create(out[0]!)!, ctx);
    streams.registry.register(this, this.#held, this);
  }

  /**
   * **UNSAFE**: the raw `CUstream`.
   *
   * @throws {TypeError} when the stream was destroyed or its context reset.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed || this.#held.stale) {
      throw new TypeError(
        `Cannot use a Stream that ${
          this.#destroyed ? "was destroyed" : "belonged to a context that was reset"
        }: create a new one`,
      );
    }
    return this.#held.handle;
  }

  /** Whether `destroy()` was called (or the stream's context was reset since). */
  get destroyed(): boolean {
    return this.#destroyed || this.#held.stale;
  }

  /** Keeps `value` (a host array an asynchronous copy reads or writes) alive until the stream is done. */
  hold(value: unknown): void {
    this.#pending.push(value);
  }

  /** Blocks until all work queued on the stream has finished (PyCUDA's `synchronize()`). */
  synchronize(): void {
    checkCuda(driver().cuStreamSynchronize(this.unsafeHandle), "cuStreamSynchronize");
    this.#pending.length = 0;
  }

  /**
   * Resolves once all work queued so far has finished, without blocking Deno's event loop (the wait
   * runs on a worker thread).
   */
  async completed(): Promise<void> {
    const handle = this.unsafeHandle;
    const count = this.#pending.length;
    checkCuda(await libcudaWait.get().cuStreamSynchronize(handle), "cuStreamSynchronize");
    this.#pending.splice(0, count);
  }

  /** Whether all queued work has finished (`cuStreamQuery`), without waiting. */
  isDone(): boolean {
    const code = driver().cuStreamQuery(this.unsafeHandle);
    if (code === 600) return false;
    checkCuda(code, "cuStreamQuery");
    this.#pending.length = 0;
    return true;
  }

  /** Makes later work on this stream wait until `event` has completed. */
  waitFor(event: Event): void {
    checkCuda(driver().cuStreamWaitEvent(this.unsafeHandle, event.unsafeHandle, 0), "cuStreamWaitEvent");
  }

  /** Destroys the stream once its work is done. Idempotent; never throws. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    streams.registry.unregister(this);
    streams.release(this.#held);
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
