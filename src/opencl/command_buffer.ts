/**
 * OpenCL command buffers (`cl_khr_command_buffer`): the kernel launches a function queues, recorded
 * once (`cl.capture(queue, fn)`, the shape of `cuda.capture()`) and replayed as one command. The
 * extension's functions come from the platform (`clGetExtensionFunctionAddressForPlatform`); where a
 * device lacks it, {@link CommandBuffer.isSupported} says so and capturing is a clear error.
 *
 * @module
 */

import {
  CL_COMMAND_BUFFER_FUNCTIONS,
  type ExtensionFunctions,
  extensionFunctions,
  libopencl,
} from "../../ffi/opencl.ts";
import { checkCL, OpenCLError } from "./errors.ts";
import { infoU64 } from "./info.ts";
import { CommandQueue, type QueueRecorder } from "./queue.ts";
import type { Device, Platform } from "./platform.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";

type Functions = ExtensionFunctions<typeof CL_COMMAND_BUFFER_FUNCTIONS>;

const EXTENSION = "cl_khr_command_buffer";
const CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR = 0x12a9;
/** Versions before 0.9.7 run a buffer again while it runs only with this capability, asked for by the flag. */
const CAPABILITY_SIMULTANEOUS_USE = 1n << 2n;
const CL_COMMAND_BUFFER_FLAGS_KHR = 0x1293n;
const CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR = 1n;
const CL_INVALID_OPERATION = -59;

const encoder = new TextEncoder();

/** Each platform's functions of the extension, looked up once (null: the platform lacks them). */
const byPlatform = new Map<bigint, Functions | null>();

function functionsOf(platform: Platform): Functions | undefined {
  const key = Deno.UnsafePointer.value(platform.unsafeHandle);
  let fns = byPlatform.get(key);
  if (fns === undefined) {
    const lookup = libopencl.get().clGetExtensionFunctionAddressForPlatform;
    fns = lookup === null ? null : extensionFunctions(
      (name) => lookup(platform.unsafeHandle, encoder.encode(name + "\0")),
      CL_COMMAND_BUFFER_FUNCTIONS,
    ) ?? null;
    byPlatform.set(key, fns);
  }
  return fns ?? undefined;
}

/** Why `device` cannot record command buffers, or undefined when it can. */
function unsupportedReason(device: Device): string | undefined {
  if (!device.extensions.includes(EXTENSION)) return `${device.name} does not support ${EXTENSION}`;
  if (functionsOf(device.platform) === undefined) {
    return `the ${device.platform.name} platform does not give out the functions of ${EXTENSION}`;
  }
  return undefined;
}

/** What a finalizer needs to release a command buffer dropped without release(), and its kernels. */
interface Held {
  readonly fns: Functions;
  readonly handle: Deno.PointerObject;
  /** The copies of kernels recorded (see `#recordKernel`). */
  readonly clones: Deno.PointerObject[];
}

function releaseHeld(h: Held): void {
  quietly(() => h.fns.clReleaseCommandBufferKHR.call(h.handle));
  const lib = libopencl.get();
  for (const k of h.clones.splice(0)) quietly(() => lib.clReleaseKernel(k));
}

const buffers = safeRegistry<Held>(releaseHeld);

/** Set by CommandBuffer's static block: see {@link capture}. */
let record: (queue: CommandQueue, fn: () => unknown) => CommandBuffer | Promise<CommandBuffer>;

/**
 * Kernel launches recorded from a queue by {@link capture}, replayed by {@link launch} as one
 * command on the same queue.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx);
 * const inc = new cl.Program(ctx, "__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }")
 *   .build().getKernel("inc");
 * const x = new cl.Buffer(ctx, 64 * 4);
 * cl.enqueueFillBuffer(queue, x, new Int32Array([0]));
 * if (cl.CommandBuffer.isSupported(queue.device)) {
 *   using steps = cl.capture(queue, () => {
 *     for (let t = 0; t < 100; t++) inc.launch(queue, [64], null, x);
 *   });
 *   for (let i = 0; i < 10; i++) steps.launch();
 *   queue.finish(); // every x[i] is 1000
 * }
 * ```
 */
export class CommandBuffer {
  /** The queue the launches were recorded from and run on. */
  readonly queue: CommandQueue;
  readonly #fns: Functions;
  readonly #held: Held;
  /** Whether the device runs the buffer again while it runs (else each launch waits for the last). */
  readonly #simultaneous: boolean;
  /** The kernels and arguments recorded, kept alive as long as the buffer. */
  readonly #keep: unknown[] = [];
  #commands = 0;
  #finalized = false;
  #released = false;
  /** Without simultaneous use: the event of the launch in flight, waited for by the next. */
  readonly #last = new BigUint64Array(1);

  static {
    record = (queue, fn) => {
      if (!(queue instanceof CommandQueue)) {
        throw new TypeError(`Cannot capture ${String(queue)}: pass a cl.CommandQueue`);
      }
      if (typeof fn !== "function") {
        throw new TypeError(
          `Cannot capture with a ${typeof fn}: pass a function that launches kernels on the queue`,
        );
      }
      if (queue.recorder !== undefined) {
        throw new TypeError("Cannot capture a queue that is being captured already: end that capture first");
      }
      const buffer = new CommandBuffer(queue);
      const recorder: QueueRecorder = {
        recordKernel: (kernel, holder, name, work, globalSize, localSize, args) =>
          buffer.#recordKernel(kernel, holder, name, work, globalSize, localSize, args),
      };
      queue.record(recorder);
      const abandon = (e: unknown): never => {
        queue.record(undefined);
        buffer.release();
        throw e;
      };
      const end = (): CommandBuffer => {
        queue.record(undefined);
        buffer.#finalize();
        return buffer;
      };
      let result: unknown;
      try {
        result = fn();
      } catch (e) {
        abandon(e);
      }
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function") {
        return Promise.resolve(result).then(end, abandon);
      }
      return end();
    };
  }

  /**
   * Whether `device` can record command buffers (`cl_khr_command_buffer`, and its platform gives out
   * the extension's functions).
   *
   * @example
   * ```ts
   * import * as cl from "@cudeno/cudeno/opencl";
   * console.log(cl.CommandBuffer.isSupported(cl.chooseDevice()));
   * ```
   */
  static isSupported(device: Device): boolean {
    return unsupportedReason(device) === undefined;
  }

  /** Use {@link capture}. */
  private constructor(queue: CommandQueue) {
    const device = queue.device;
    const why = unsupportedReason(device);
    if (why !== undefined) {
      throw new TypeError(
        `Cannot capture a queue of ${device.name}: ${why}; check cl.CommandBuffer.isSupported(device) and queue the kernels directly where it is false`,
      );
    }
    this.queue = queue;
    this.#fns = functionsOf(device.platform)!;
    const capabilities = infoU64(
      libopencl.get().clGetDeviceInfo,
      device.unsafeHandle,
      CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR,
      "clGetDeviceInfo",
    );
    this.#simultaneous = (capabilities & CAPABILITY_SIMULTANEOUS_USE) !== 0n;
    const properties = this.#simultaneous
      ? new BigUint64Array([CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0n])
      : null;
    const err = new Int32Array(1);
    const queues = new BigUint64Array([Deno.UnsafePointer.value(queue.unsafeHandle)]);
    const handle = this.#fns.clCreateCommandBufferKHR.call(1, queues, properties, err);
    checkCL(err[0]!, "clCreateCommandBufferKHR", ` (on ${device.name})`);
    this.#held = { fns: this.#fns, handle: handle!, clones: [] };
    buffers.register(this, this.#held, this);
  }

  /** How many kernel launches were recorded. */
  get commandCount(): number {
    return this.#commands;
  }

  #recordKernel(
    kernel: Deno.PointerObject,
    holder: object,
    name: string,
    work: number,
    globalSize: BigUint64Array,
    localSize: BigUint64Array | null,
    args: readonly unknown[],
  ): void {
    // A copy of the kernel per command, with the arguments as set now: the extension says a command
    // keeps the values its kernel had when recorded, but some drivers (PoCL 3.1) read them when the
    // buffer runs, so every command of one kernel would use the last values. A copy's cannot change.
    const lib = libopencl.get();
    const err = new Int32Array(1);
    const clone = lib.clCloneKernel?.(kernel, err) ?? null;
    if (clone !== null && err[0] === 0) this.#held.clones.push(clone);
    const code = this.#fns.clCommandNDRangeKernelKHR.call(
      this.#held.handle,
      null,
      null,
      clone !== null && err[0] === 0 ? clone : kernel,
      work,
      null,
      globalSize,
      localSize,
      0,
      null,
      null,
      null,
    );
    checkCL(code, "clCommandNDRangeKernelKHR", ` (kernel ${name})`);
    this.#keep.push(holder, ...args);
    this.#commands++;
  }

  #finalize(): void {
    checkCL(this.#fns.clFinalizeCommandBufferKHR.call(this.#held.handle), "clFinalizeCommandBufferKHR");
    this.#finalized = true;
  }

  /** Waits for the launch in flight, where the device cannot run the buffer twice at once. */
  #waitForLast(): void {
    if (this.#last[0] === 0n) return;
    const event = Deno.UnsafePointer.create(this.#last[0]!);
    this.#last[0] = 0n;
    const lib = libopencl.get();
    try {
      checkCL(
        lib.clWaitForEvents(1, new BigUint64Array([Deno.UnsafePointer.value(event)])),
        "clWaitForEvents",
      );
    } finally {
      lib.clReleaseEvent(event);
    }
  }

  /**
   * Queues one run of every recorded launch on the queue they were recorded from
   * (`clEnqueueCommandBufferKHR`). `queue`, when given, must be that queue.
   *
   * @throws {TypeError} when the buffer was released, or `queue` is another queue.
   * @example
   * ```ts
   * import * as cl from "@cudeno/cudeno/opencl";
   * const queue = new cl.CommandQueue(cl.createSomeContext());
   * if (cl.CommandBuffer.isSupported(queue.device)) {
   *   using nothing = cl.capture(queue, () => {});
   *   nothing.launch();
   *   queue.finish();
   * }
   * ```
   */
  launch(queue?: CommandQueue): void {
    if (this.#released) {
      throw new TypeError("Cannot launch a CommandBuffer that was released: capture it again");
    }
    if (queue !== undefined && queue !== this.queue) {
      throw new TypeError(
        "Cannot launch a CommandBuffer on another queue than the one it was captured from: launch it there",
      );
    }
    if (!this.#simultaneous) this.#waitForLast();
    const code = this.#fns.clEnqueueCommandBufferKHR.call(
      0,
      null,
      this.#held.handle,
      0,
      null,
      this.#simultaneous ? null : this.#last,
    );
    if (code !== 0) {
      throw new OpenCLError(
        code,
        "clEnqueueCommandBufferKHR",
        code === CL_INVALID_OPERATION && !this.#finalized ? ": the buffer was not finalized" : "",
      );
    }
  }

  /** Releases the command buffer. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    buffers.unregister(this);
    quietly(() => this.#waitForLast());
    releaseHeld(this.#held);
    this.#keep.length = 0;
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * Runs `fn` with `queue`'s kernel launches recorded into a {@link CommandBuffer} instead of queued,
 * and returns the buffer, finalized, to launch as often as needed (the OpenCL shape of
 * `cuda.capture()`). Launch with `kernel.launch(queue, ...)` inside (a launch returning an event,
 * a copy, a fill or `queue.finish()` is an error there: nothing recorded has run). `fn` may be async.
 * If `fn` throws, the recording is dropped and the error rethrown; the queue is usable either way.
 *
 * @throws {TypeError} when the queue's device lacks `cl_khr_command_buffer` (see
 * {@link CommandBuffer.isSupported}).
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx);
 * const k = new cl.Program(ctx, "__kernel void k(__global float *x) { x[0] += 1; }").build().getKernel("k");
 * const x = new cl.Buffer(ctx, 4);
 * if (cl.CommandBuffer.isSupported(queue.device)) {
 *   using twice = cl.capture(queue, () => {
 *     k.launch(queue, 1, null, x);
 *     k.launch(queue, 1, null, x);
 *   });
 *   twice.launch();
 *   queue.finish();
 * }
 * ```
 */
export function capture(queue: CommandQueue, fn: () => Promise<unknown>): Promise<CommandBuffer>;
/**
 * Records `fn`'s kernel launches on `queue` into a command buffer (the synchronous form of the
 * overload above, which says more).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const queue = new cl.CommandQueue(cl.createSomeContext());
 * if (cl.CommandBuffer.isSupported(queue.device)) cl.capture(queue, () => {}).release();
 * ```
 */
export function capture(queue: CommandQueue, fn: () => unknown): CommandBuffer;
export function capture(queue: CommandQueue, fn: () => unknown): CommandBuffer | Promise<CommandBuffer> {
  return record(queue, fn);
}
