/**
 * CUDA streams: ordered queues of device work, waited for synchronously or awaited without blocking
 * Deno's event loop.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";
import { libcudaWait } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import type { Event } from "./event.ts";

interface Held {
  readonly handle: Deno.PointerObject;
  readonly ctx: Context;
  readonly generation: number;
}

function destroyHeld(held: Held): void {
  if (held.ctx.released || held.ctx.generation !== held.generation) return;
  held.ctx.run(() => driver().cuStreamDestroy_v2(held.handle));
}

const streams = safeRegistry<Held>(destroyHeld);

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
  readonly #held: Held;
  #pending: unknown[] = [];
  #destroyed = false;

  /** Creates a stream in the current context. */
  constructor(options: StreamOptions = {}) {
    const ctx = requireContext("cuStreamCreate");
    const out = new BigUint64Array(1);
    checkCuda(driver().cuStreamCreate(out, options.nonBlocking ? 1 : 0), "cuStreamCreate");
    this.#held = { handle: Deno.UnsafePointer.create(out[0]!)!, ctx, generation: ctx.generation };
    streams.register(this, this.#held, this);
  }

  /**
   * **UNSAFE**: the raw `CUstream`.
   *
   * @throws {TypeError} when the stream was destroyed or its context reset.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed || this.#held.ctx.generation !== this.#held.generation) {
      throw new TypeError(
        `Cannot use a Stream that ${
          this.#destroyed ? "was destroyed" : "belonged to a context that was reset"
        }: create a new one`,
      );
    }
    return this.#held.handle;
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
    streams.unregister(this);
    quietly(() => destroyHeld(this.#held));
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
