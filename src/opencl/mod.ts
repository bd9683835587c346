/**
 * The PyOpenCL-shaped core: platforms, devices, contexts, queues, buffers, programs, kernels and
 * events over any OpenCL driver through Deno FFI (PoCL on CPUs, NVIDIA's on GPUs). Nothing is
 * loaded until first use.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx, { profiling: true });
 * const prg = new cl.Program(ctx, `__kernel void saxpy(float a, __global const float *x, __global float *y, int n) {
 *   int i = get_global_id(0); if (i < n) y[i] = a * x[i] + y[i]; }`).build(["-cl-fast-relaxed-math"]);
 * const n = 1024, x = new Float32Array(n).fill(1), y = new Float32Array(n).fill(2);
 * const xBuf = new cl.Buffer(ctx, x.byteLength), yBuf = new cl.Buffer(ctx, y.byteLength);
 * cl.enqueueCopy(queue, xBuf, x);
 * cl.enqueueCopy(queue, yBuf, y);
 * await prg.getKernel("saxpy")(queue, [n], null, 2.0, xBuf, yBuf, n).completed();
 * cl.enqueueCopy(queue, y, yBuf);
 * ```
 *
 * @module
 */

export { checkCL, OpenCLError, openclErrorName } from "./errors.ts";
export { OutOfMemoryError } from "./out_of_memory.ts";
export { Device, DEVICE_TYPES, type DeviceType, getPlatforms, Platform } from "./platform.ts";
export { chooseDevice, Context, createSomeContext } from "./context.ts";
export { CommandQueue, finish, type QueueOptions, type QueueRecorder } from "./queue.ts";
export { capture, CommandBuffer } from "./command_buffer.ts";
export {
  Buffer,
  type BufferAccess,
  type BufferLike,
  type BufferOptions,
  clBuffer,
  isBufferLike,
} from "./buffer.ts";
export { type CopyOptions, enqueueCopy, enqueueFillBuffer } from "./copy.ts";
export { Event, type EventProfile } from "./event.ts";
export { Program, type ProgramOptions } from "./program.ts";
export type { Kernel, KernelWorkGroupInfo } from "./kernel.ts";
export { LocalMemory } from "../kernel/args.ts";
export { LibraryNotFoundError } from "../../ffi/load.ts";
export type { Dim3 } from "../kernel/dims.ts";
