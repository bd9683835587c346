/**
 * CUDA events: markers in a stream, for ordering and for timing device work.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { libcudaWait } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";
import { requireContext } from "./context.ts";
import { Owned, ownership } from "./owned.ts";
import type { Stream } from "./stream.ts";

const events = ownership<Deno.PointerObject>((handle) => driver().cuEventDestroy_v2(handle));

/** Options for a new {@link Event}. */
export interface EventOptions {
  /** Record timestamps, so {@link Event.elapsedTime} works. Default true (PyCUDA disables it with `DISABLE_TIMING`). */
  readonly timing?: boolean;
}

/**
 * A marker in a stream (PyCUDA's `driver.Event`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const start = new cuda.Event().record();
 * // ... launches ...
 * const end = new cuda.Event().record();
 * end.synchronize();
 * console.log(`${start.elapsedTime(end)} ms`);
 * ```
 */
export class Event {
  readonly #held: Owned<Deno.PointerObject>;
  #destroyed = false;

  /** Creates an event in the current context. */
  constructor(options: EventOptions = {}) {
    const ctx = requireContext("cuEventCreate");
    const out = new BigUint64Array(1);
    checkCuda(driver().cuEventCreate(out, options.timing === false ? 2 : 0), "cuEventCreate");
    this.#held = new Owned(Deno.UnsafePointer.create(out[0]!)!, ctx);
    events.registry.register(this, this.#held, this);
  }

  /**
   * **UNSAFE**: the raw `CUevent`.
   *
   * @throws {TypeError} when the event was destroyed or its context reset.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed || this.#held.stale) {
      throw new TypeError(
        `Cannot use an Event that ${
          this.#destroyed ? "was destroyed" : "belonged to a context that was reset"
        }: create a new one`,
      );
    }
    return this.#held.handle;
  }

  /** Records the event at the current end of `stream` (default: the legacy default stream). */
  record(stream?: Stream): this {
    checkCuda(
      driver().cuEventRecord(this.unsafeHandle, stream === undefined ? null : stream.unsafeHandle),
      "cuEventRecord",
    );
    return this;
  }

  /** Blocks until the work before the recorded point has finished. */
  synchronize(): this {
    checkCuda(driver().cuEventSynchronize(this.unsafeHandle), "cuEventSynchronize");
    return this;
  }

  /** Resolves once the work before the recorded point has finished, without blocking the event loop. */
  async completed(): Promise<void> {
    checkCuda(await libcudaWait.get().cuEventSynchronize(this.unsafeHandle), "cuEventSynchronize");
  }

  /** Whether the recorded work has finished, without waiting (PyCUDA's `query()`). */
  isDone(): boolean {
    const code = driver().cuEventQuery(this.unsafeHandle);
    if (code === 600) return false;
    checkCuda(code, "cuEventQuery");
    return true;
  }

  /** Milliseconds from this event to `end`, both recorded and complete (PyCUDA's `time_till`). */
  elapsedTime(end: Event): number {
    const lib = driver();
    const out = new Float32Array(1);
    const v2 = lib.cuEventElapsedTime_v2;
    if (v2 !== null) checkCuda(v2(out, this.unsafeHandle, end.unsafeHandle), "cuEventElapsedTime_v2");
    else checkCuda(lib.cuEventElapsedTime!(out, this.unsafeHandle, end.unsafeHandle), "cuEventElapsedTime");
    return out[0]!;
  }

  /** Milliseconds from `start` to this event (PyCUDA's `time_since`). */
  timeSince(start: Event): number {
    return start.elapsedTime(this);
  }

  /** Destroys the event. Idempotent; never throws. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    events.registry.unregister(this);
    events.release(this.#held);
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
