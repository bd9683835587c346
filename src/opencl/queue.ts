/**
 * OpenCL command queues (in order), with the host arrays that queued copies use kept alive until
 * the queue has finished with them.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL } from "./errors.ts";
import type { Context } from "./context.ts";
import type { Device } from "./platform.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";

const CL_QUEUE_PROPERTIES = 0x1093n;
const CL_QUEUE_PROFILING_ENABLE = 2n;

const queues = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseCommandQueue(handle));

/**
 * Queues with commands still reading or writing host arrays. When the process exits (normally or by an
 * uncaught error) they are finished first: a copy left running into a typed array whose memory the
 * runtime is tearing down crashed the process.
 */
const holding = new Set<CommandQueue>();
let finishesAtExit = false;

function finishHoldingQueues(): void {
  for (const q of holding) quietly(() => libopencl.get().clFinish(q.unsafeHandle));
  holding.clear();
}

/**
 * What records a queue's kernel launches instead of queueing them, while `cl.capture()` runs (a
 * command buffer).
 */
export interface QueueRecorder {
  /**
   * Records a launch of `kernel` with the arguments set on it now: `work` dimensions of `globalSize`
   * work-items, in groups of `localSize` (null: the driver chooses). The recording keeps `holder`
   * (what keeps the kernel from being released) and `args` (the values given) alive.
   */
  recordKernel(
    kernel: Deno.PointerObject,
    holder: object,
    name: string,
    work: number,
    globalSize: BigUint64Array,
    localSize: BigUint64Array | null,
    args: readonly unknown[],
  ): void;
}

/** Options for a {@link CommandQueue}. */
export interface QueueOptions {
  /** The device to queue work for. Default: the context's first device. */
  readonly device?: Device;
  /** Record start and end times of every command (`Event.profile`). Default false. */
  readonly profiling?: boolean;
}

/**
 * An in-order queue of commands for one device (PyOpenCL's `cl.CommandQueue`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * using queue = new cl.CommandQueue(ctx, { profiling: true });
 * queue.finish();
 * ```
 */
export class CommandQueue {
  /** The context. */
  readonly context: Context;
  /** The device commands run on. */
  readonly device: Device;
  /** Whether commands are profiled. */
  readonly profiling: boolean;
  readonly #handle: Deno.PointerObject;
  #released = false;
  #sequence = 0;
  #held: { sequence: number; value: unknown }[] = [];
  #recorder: QueueRecorder | undefined;

  /** Creates a queue on `options.device` (default: the context's first device). */
  constructor(context: Context, options: QueueOptions = {}) {
    const lib = libopencl.get();
    this.context = context;
    this.device = options.device ?? context.device;
    this.profiling = options.profiling === true;
    const err = new Int32Array(1);
    let handle: Deno.PointerValue;
    if (lib.clCreateCommandQueueWithProperties !== null) {
      const props = new BigUint64Array([
        CL_QUEUE_PROPERTIES,
        this.profiling ? CL_QUEUE_PROFILING_ENABLE : 0n,
        0n,
      ]);
      handle = lib.clCreateCommandQueueWithProperties(
        context.unsafeHandle,
        this.device.unsafeHandle,
        props,
        err,
      );
      checkCL(err[0]!, "clCreateCommandQueueWithProperties");
    } else {
      const props = this.profiling ? CL_QUEUE_PROFILING_ENABLE : 0n;
      handle = lib.clCreateCommandQueue!(context.unsafeHandle, this.device.unsafeHandle, props, err);
      checkCL(err[0]!, "clCreateCommandQueue");
    }
    this.#handle = handle!;
    queues.register(this, this.#handle, this);
  }

  /**
   * **UNSAFE**: the raw `cl_command_queue`.
   *
   * @throws {TypeError} when the queue was released.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#released) throw new TypeError("Cannot use a CommandQueue that was released: create a new one");
    return this.#handle;
  }

  /** What records this queue's kernel launches now (`cl.capture()` is running), if anything. */
  get recorder(): QueueRecorder | undefined {
    return this.#recorder;
  }

  /**
   * Makes `recorder` record this queue's kernel launches from now on, or (undefined) stops that.
   *
   * @throws {TypeError} when another recording is in progress on the queue.
   */
  record(recorder: QueueRecorder | undefined): void {
    if (recorder !== undefined && this.#recorder !== undefined) {
      throw new TypeError(
        "Cannot capture a queue that is being captured already: end that capture first",
      );
    }
    this.#recorder = recorder;
  }

  #refuseWhileRecording(action: string): void {
    if (this.#recorder !== undefined) {
      throw new TypeError(
        `Cannot ${action} while cl.capture() records this queue: only kernel launches are recorded; ${
          action.startsWith("finish")
            ? "launch the command buffer, then finish the queue"
            : "do it before or after the capture"
        }`,
      );
    }
  }

  /**
   * Numbers the next command, so the values it uses can be released once it is done.
   *
   * @throws {TypeError} while `cl.capture()` records the queue: copies and fills would run at once.
   */
  nextSequence(): number {
    this.#refuseWhileRecording("queue a copy or fill");
    return ++this.#sequence;
  }

  /** Keeps `value` (a host array a queued command reads or writes) alive until command `sequence` is done. */
  hold(sequence: number, value: unknown): void {
    this.#held.push({ sequence, value });
    holding.add(this);
    if (!finishesAtExit) {
      finishesAtExit = true;
      // "unload" comes on a normal exit; an uncaught error or rejection ends the process without it.
      for (const type of ["unload", "error", "unhandledrejection"]) {
        globalThis.addEventListener(type, finishHoldingQueues);
      }
    }
  }

  /** Drops the holds of commands up to `sequence` (the queue is in order, so all earlier ones are done too). */
  completedThrough(sequence: number): void {
    if (this.#held.length === 0) return;
    this.#held = this.#held.filter((h) => h.sequence > sequence);
    if (this.#held.length === 0) holding.delete(this);
  }

  /** Blocks until every queued command has finished (`clFinish`). */
  finish(): void {
    this.#refuseWhileRecording("finish the queue");
    checkCL(libopencl.get().clFinish(this.unsafeHandle), "clFinish");
    this.#held.length = 0;
    holding.delete(this);
  }

  /** Sends queued commands to the device without waiting (`clFlush`). */
  flush(): void {
    checkCL(libopencl.get().clFlush(this.unsafeHandle), "clFlush");
  }

  /** Releases the queue after finishing its work. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    quietly(() => this.finish());
    this.#released = true;
    queues.unregister(this);
    quietly(() => libopencl.get().clReleaseCommandQueue(this.#handle));
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * Blocks until every command queued on `queue` has finished (PyOpenCL's `queue.finish()`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const queue = new cl.CommandQueue(cl.createSomeContext());
 * cl.finish(queue);
 * ```
 */
export function finish(queue: CommandQueue): void {
  queue.finish();
}
