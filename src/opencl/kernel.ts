/**
 * OpenCL kernel launches: `kernel(queue, globalSize, localSize, ...args)`, packing each argument by
 * the kernel's declared type (`int`, `uint`, `long`, `float`, `double`, `char`, `short`, vectors such as
 * `float4` from an array of their length, `__global` pointers, `__local` sizes). Arguments unchanged
 * since the last launch are not set again.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL, OpenCLError } from "./errors.ts";
import { checkFirstUse } from "./out_of_memory.ts";
import { type InfoQuery, infoU32, infoU64 } from "./info.ts";
import { Event } from "./event.ts";
import { CommandQueue } from "./queue.ts";
import { Buffer, clBuffer, isBufferLike, toBuffer } from "./buffer.ts";
import type { Program } from "./program.ts";
import type { Device } from "./platform.ts";
import { ArgumentBlock } from "../kernel/args.ts";
import type { Dim3 } from "../kernel/dims.ts";
import { readDim3 } from "../kernel/dims.ts";
import { fixedArity } from "../kernel/fixed_arity.ts";
import { withProperties } from "../kernel/callable.ts";
import type { KernelParam, KernelSignature } from "../kernel/signature.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";

const CL_KERNEL_NUM_ARGS = 0x1191;
const CL_KERNEL_WORK_GROUP_SIZE = 0x11b0;
const CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE = 0x11b3;
const CL_KERNEL_LOCAL_MEM_SIZE = 0x11b2;

const kernels = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseKernel(handle));

/** What the device says about running one kernel. */
export interface KernelWorkGroupInfo {
  /** Most work-items per work-group for this kernel. */
  readonly workGroupSize: number;
  /** Work-group sizes should be multiples of this (the warp or SIMD width). */
  readonly preferredMultiple: number;
  /** Local memory the kernel uses, bytes. */
  readonly localMemory: bigint;
}

/**
 * A built kernel (PyOpenCL's `cl.Kernel`), called as `kernel(queue, globalSize, localSize, ...args)`:
 * sizes as a number or 1–3 numbers (work-items, not groups), `localSize` null to let the driver choose.
 * It returns the launch's {@link Event}.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx);
 * const prg = new cl.Program(ctx, "__kernel void fill(__global float *x, float v) { x[get_global_id(0)] = v; }").build();
 * const buf = new cl.Buffer(ctx, 1024 * 4);
 * prg.getKernel("fill")(queue, [1024], null, buf, 1.5).wait();
 * ```
 */
export interface Kernel {
  /** Queues the kernel over `globalSize` work-items with the given arguments. */
  (queue: CommandQueue, globalSize: Dim3, localSize: Dim3 | null | undefined, ...args: unknown[]): Event;
  /** The kernel's name. */
  readonly kernelName: string;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
  /**
   * Queues the kernel like calling it, but asks the driver for no event (as C passing `NULL` does) and
   * returns nothing: the cheaper form for loops that wait with `queue.finish()`.
   */
  launch(queue: CommandQueue, globalSize: Dim3, localSize: Dim3 | null | undefined, ...args: unknown[]): void;
  /** The device's limits for this kernel. */
  workGroupInfo(device?: Device): KernelWorkGroupInfo;
  /** Releases the kernel (its program releases it too). Idempotent. */
  release(): void;
}

function dimCount(dim: Dim3): number {
  return typeof dim === "number" ? 1 : dim.length;
}

/** Builds the callable kernel `sig.name` of a built program. */
export function makeKernel(program: Program, sig: KernelSignature): Kernel {
  const lib = libopencl.get();
  const err = new Int32Array(1);
  const handle = lib.clCreateKernel(program.unsafeHandle, new TextEncoder().encode(sig.name + "\0"), err)!;
  checkCL(err[0]!, "clCreateKernel", ` (kernel ${sig.name})`);
  const holder = {};
  kernels.register(holder, handle, holder);
  const declared = infoU32(lib.clGetKernelInfo, handle, CL_KERNEL_NUM_ARGS, "clGetKernelInfo");
  if (declared !== sig.params.length) {
    throw new TypeError(
      `Cannot prepare kernel ${sig.name}: the source declares ${sig.params.length} parameters but the built kernel has ${declared}`,
    );
  }
  const name = sig.name;
  const count = sig.params.length;
  const block = new ArgumentBlock(
    name,
    sig.params,
    (value, param, kernel) =>
      value instanceof Buffer && !value.freed
        ? value.handleValue
        : toBuffer(value, `${kernel}() parameter ${param.index + 1} (${param.text} ${param.name})`)
          .handleValue,
  );
  const pointers = block.slots.map((s) => Deno.UnsafePointer.create(block.address + BigInt(s.offset)));
  // What each argument was set to, so an unchanged one is not set again (a buffer: and its handle).
  const last: unknown[] = Array.from({ length: count }, () => undefined);
  const lastHandle: bigint[] = Array.from({ length: count }, () => 0n);
  const dims = new Uint32Array(6);
  const globalSize = new BigUint64Array(3);
  const localSize = new BigUint64Array(3);
  const eventOut = new BigUint64Array(1);
  const limits = new Map<Deno.PointerObject, { maxGroup: number; maxItems: number[] }>();
  let released = false;

  function setArg(index: number, value: unknown): void {
    if (released) throw new TypeError(`Cannot launch ${name}(): the kernel was released`);
    const slot = block.slots[index]!;
    if (value === last[index]) {
      // A number, or a LocalMemory (whose size never changes); a vector's array may have been changed.
      if (slot.kind === "local" || (slot.kind === "scalar" && typeof value !== "object")) return;
      if (value instanceof Buffer && !value.freed && value.handleValue === lastHandle[index]) return;
    }
    block.write(index, value);
    const code = slot.kind === "local"
      ? lib.clSetKernelArg(handle, index, block.view.getBigUint64(slot.offset, true), null)
      : lib.clSetKernelArg(handle, index, BigInt(slot.size), pointers[index]!);
    if (code !== 0) {
      last[index] = undefined;
      throw new OpenCLError(
        code,
        "clSetKernelArg",
        ` (${name}() parameter ${index + 1}, ${slot.param.text} ${slot.param.name})`,
      );
    }
    last[index] = value;
    if (slot.kind === "pointer") lastHandle[index] = block.view.getBigUint64(slot.offset, true);
  }

  /** The bytes of the buffers the kernel was last given (what a first launch needs allocated). */
  function bufferBytes(): number {
    let bytes = 0;
    for (const value of last) {
      if (value instanceof Buffer) bytes += value.size;
      else if (isBufferLike(value)) bytes += value[clBuffer]().size;
    }
    return bytes;
  }

  function deviceLimits(device: Device): { maxGroup: number; maxItems: number[] } {
    let l = limits.get(device.unsafeHandle);
    if (l === undefined) {
      l = { maxGroup: kernelInfo(device).workGroupSize, maxItems: device.maxWorkItemSizes };
      limits.set(device.unsafeHandle, l);
    }
    return l;
  }

  function kernelInfo(device: Device): KernelWorkGroupInfo {
    const query: InfoQuery = (_, param, size, value, sizeRet) =>
      lib.clGetKernelWorkGroupInfo(handle, device.unsafeHandle, param, size, value, sizeRet);
    return {
      workGroupSize: Number(infoU64(query, null, CL_KERNEL_WORK_GROUP_SIZE, "clGetKernelWorkGroupInfo")),
      preferredMultiple: Number(
        infoU64(query, null, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, "clGetKernelWorkGroupInfo"),
      ),
      localMemory: infoU64(query, null, CL_KERNEL_LOCAL_MEM_SIZE, "clGetKernelWorkGroupInfo"),
    };
  }

  function enqueue(q: CommandQueue, g: Dim3, l: Dim3 | null | undefined, out: BigUint64Array): Event;
  function enqueue(q: CommandQueue, g: Dim3, l: Dim3 | null | undefined, out: null): undefined;
  function enqueue(
    q: CommandQueue,
    g: Dim3,
    l: Dim3 | null | undefined,
    out: BigUint64Array | null,
  ): Event | undefined {
    if (released) throw new TypeError(`Cannot launch ${name}(): the kernel was released`);
    readDim3(g, dims, 0, "globalSize", name);
    const work = dimCount(g);
    globalSize[0] = BigInt(dims[0]!);
    globalSize[1] = BigInt(dims[1]!);
    globalSize[2] = BigInt(dims[2]!);
    let localArg: BigUint64Array | null = null;
    if (l !== null && l !== undefined) {
      if (dimCount(l) !== work) {
        throw new RangeError(
          `Cannot launch ${name}(): localSize has ${dimCount(l)} dimensions but globalSize has ${work}`,
        );
      }
      readDim3(l, dims, 3, "localSize", name);
      const lim = deviceLimits(q.device);
      const group = dims[3]! * dims[4]! * dims[5]!;
      if (group > lim.maxGroup) {
        throw new RangeError(
          `Cannot launch ${name}(): a work-group of ${group} items exceeds this kernel's limit of ${lim.maxGroup} on ${q.device.name}`,
        );
      }
      for (let a = 0; a < work; a++) {
        if (dims[3 + a]! > lim.maxItems[a]!) {
          throw new RangeError(
            `Cannot launch ${name}(): localSize[${a}] = ${dims[3 + a]} exceeds ${q.device.name}'s limit of ${
              lim.maxItems[a]
            }`,
          );
        }
        if (dims[a]! % dims[3 + a]! !== 0) {
          throw new RangeError(
            `Cannot launch ${name}(): globalSize[${a}] = ${dims[a]} is not a multiple of localSize[${a}] = ${
              dims[3 + a]
            }; round the global size up`,
          );
        }
      }
      localSize[0] = BigInt(dims[3]!);
      localSize[1] = BigInt(dims[4]!);
      localSize[2] = BigInt(dims[5]!);
      localArg = localSize;
    }
    const recorder = q.recorder;
    if (recorder !== undefined) {
      if (out !== null) {
        throw new TypeError(
          `Cannot return an Event for a launch of ${name}() that cl.capture() records: it runs when the command buffer is launched; call ${name}.launch() inside the capture`,
        );
      }
      recorder.recordKernel(handle, holder, name, work, globalSize, localArg, last);
      return undefined;
    }
    const sequence = q.nextSequence();
    const code = lib.clEnqueueNDRangeKernel(
      q.unsafeHandle,
      handle,
      work,
      null,
      globalSize,
      localArg,
      0,
      null,
      out,
    );
    checkFirstUse(code, "clEnqueueNDRangeKernel", bufferBytes, q.device);
    checkCL(code, "clEnqueueNDRangeKernel", ` (kernel ${name})`);
    return out === null ? undefined : new Event(Deno.UnsafePointer.create(out[0]!)!, q, sequence);
  }

  function takeArguments(values: readonly unknown[], given: number, form: string): CommandQueue {
    const queue = values[0];
    if (given !== count + 3 || !(queue instanceof CommandQueue)) {
      throw new TypeError(
        `Cannot launch ${name}(): call it as ${form}(queue, globalSize, localSize, ${
          sig.params.map((p) => p.name).join(", ")
        }); got ${given} values`,
      );
    }
    for (let i = 0; i < count; i++) setArg(i, values[i + 3]);
    return queue;
  }

  const call = fixedArity(count + 2, count + 3, (values, given) => {
    const queue = takeArguments(values, given, name);
    return enqueue(queue, values[1] as Dim3, values[2] as Dim3 | null | undefined, eventOut);
  });
  const launch = fixedArity(count + 2, count + 3, (values, given) => {
    const queue = takeArguments(values, given, `${name}.launch`);
    enqueue(queue, values[1] as Dim3, values[2] as Dim3 | null | undefined, null);
  });
  return withProperties(call, {
    kernelName: name,
    params: Object.freeze([...sig.params]),
    launch,
    workGroupInfo: (device: Device = program.context.device) => kernelInfo(device),
    release() {
      if (released) return;
      released = true;
      kernels.unregister(holder);
      quietly(() => lib.clReleaseKernel(handle));
    },
  }) as unknown as Kernel;
}
