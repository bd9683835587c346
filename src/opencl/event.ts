/**
 * OpenCL events: waited for synchronously, awaited without blocking Deno's event loop, and read for
 * profiling times.
 *
 * @module
 */

import { libopencl, libopenclWait } from "../../ffi/opencl.ts";
import { checkCL, OpenCLError } from "./errors.ts";
import { infoU32, infoU64 } from "./info.ts";
import type { CommandQueue } from "./queue.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";

const CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11d3;
const PROFILING = { queued: 0x1280, submit: 0x1281, start: 0x1282, end: 0x1283 } as const;

const events = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseEvent(handle));

/** The one-event list a synchronous wait passes, shared: an event made per launch allocates no array. */
const waitList = new BigUint64Array(1);

/** When a profiled command was queued, submitted, started and ended, in device nanoseconds. */
export interface EventProfile {
  /** When the host queued it. */
  readonly queued: bigint;
  /** When it was submitted to the device. */
  readonly submit: bigint;
  /** When it started running. */
  readonly start: bigint;
  /** When it ended. */
  readonly end: bigint;
}

/**
 * The completion of one queued command (PyOpenCL's `cl.Event`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx, { profiling: true });
 * const buf = new cl.Buffer(ctx, 1024);
 * const ev = cl.enqueueFillBuffer(queue, buf, new Uint8Array([0]));
 * await ev.completed();
 * console.log(ev.profile.end - ev.profile.start, "ns");
 * ```
 */
export class Event {
  /** The queue the command was queued on. */
  readonly queue: CommandQueue;
  readonly #handle: Deno.PointerObject;
  readonly #sequence: number;
  /** The event's own one-event list for an async wait (made on the first), kept alive by the event. */
  #list: BigUint64Array | undefined;
  #released = false;

  /** Wraps an event returned by an enqueue call; cudeno's enqueue functions make these. */
  constructor(handle: Deno.PointerObject, queue: CommandQueue, sequence: number) {
    this.#handle = handle;
    this.queue = queue;
    this.#sequence = sequence;
    events.register(this, handle, this);
  }

  /**
   * **UNSAFE**: the raw `cl_event`.
   *
   * @throws {TypeError} when the event was released.
   */
  get unsafeHandle(): Deno.PointerObject {
    this.#checkLive();
    return this.#handle;
  }

  #checkLive(): void {
    if (this.#released) throw new TypeError("Cannot use an OpenCL Event that was released");
  }

  /** Blocks until the command has finished (`clWaitForEvents`). */
  wait(): this {
    this.#checkLive();
    waitList[0] = Deno.UnsafePointer.value(this.#handle);
    checkCL(libopencl.get().clWaitForEvents(1, waitList), "clWaitForEvents");
    this.queue.completedThrough(this.#sequence);
    return this;
  }

  /** Resolves once the command has finished; the wait runs on a worker thread, so the event loop keeps running. */
  async completed(): Promise<void> {
    this.#checkLive();
    // Not the shared list: the wait runs on another thread while other waits may start.
    this.#list ??= new BigUint64Array([Deno.UnsafePointer.value(this.#handle)]);
    checkCL(await libopenclWait.get().clWaitForEvents(1, this.#list), "clWaitForEvents");
    this.queue.completedThrough(this.#sequence);
  }

  /** `"complete"`, `"running"`, `"submitted"` or `"queued"`. */
  get status(): "complete" | "running" | "submitted" | "queued" {
    const s = infoU32(
      libopencl.get().clGetEventInfo,
      this.unsafeHandle,
      CL_EVENT_COMMAND_EXECUTION_STATUS,
      "clGetEventInfo",
    );
    if (s === 0) return "complete";
    if (s === 1) return "running";
    if (s === 2) return "submitted";
    if (s === 3) return "queued";
    throw new OpenCLError(s | 0, "the queued command", ": it terminated abnormally");
  }

  /**
   * Device timestamps of the command, in nanoseconds; the queue must have been made with
   * `{ profiling: true }` and the command must have finished.
   */
  get profile(): EventProfile {
    const query = libopencl.get().clGetEventProfilingInfo;
    const read = (p: number) => infoU64(query, this.unsafeHandle, p, "clGetEventProfilingInfo");
    return {
      queued: read(PROFILING.queued),
      submit: read(PROFILING.submit),
      start: read(PROFILING.start),
      end: read(PROFILING.end),
    };
  }

  /** Releases the event. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    events.unregister(this);
    quietly(() => libopencl.get().clReleaseEvent(this.#handle));
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}
