/**
 * CUDA events: markers in a stream, for ordering and for timing device work.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";
import { libcudaWait } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import type { Stream } from "./stream.ts";

interface Held {
  readonly handle: Deno.PointerObject;
  readonly ctx: Context;
  readonly generation: number;
}

function destroyHeld(held: Held): void {
  if (held.ctx.released || held.ctx.generation !== held.generation) return;
  held.ctx.run(() => driver().cuEventDestroy_v2(held.handle));
}

const events = safeRegistry<Held>(destroyHeld);

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
  readonly #held: Held;
  #destroyed = false;

  /** Creates an event in the current context. */
  constructor(options: EventOptions = {}) {
    const ctx = requireContext("cuEventCreate");
    const out = new BigUint64Array(1);
    checkCuda(driver().cuEventCreate(out, options.timing === false ? 2 : 0), "cuEventCreate");
    this.#held = { handle: Deno.UnsafePointer.create(out[0]!)!, ctx, generation: ctx.generation };
    events.register(this, this.#held, this);
  }

  /**
   * **UNSAFE**: the raw `CUevent`.
   *
   * @throws {TypeError} when the event was destroyed or its context reset.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed || this.#held.ctx.generation !== this.#held.generation) {
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
    events.unregister(this);
    quietly(() => destroyHeld(this.#held));
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
