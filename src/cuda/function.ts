/**
 * Kernel launches: `fn(a, b, n, { grid, block, shared, stream })`. The argument block is built once
 * per function from the kernel's declared signature; each launch writes its values in place and calls
 * `cuLaunchKernel` with no allocation and no string work.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { CudaError, noteLaunch } from "./errors.ts";
import { ArgumentBlock } from "../kernel/args.ts";
import { checkLimits, type DimLimits, type LaunchConfig, readDim3 } from "../kernel/dims.ts";
import { type ArgumentsFinish, fixedArity } from "../kernel/fixed_arity.ts";
import { withProperties } from "../kernel/callable.ts";
import type { KernelParam } from "../kernel/signature.ts";
import { DeviceAllocation, resolveDevice } from "./memory.ts";
import { HostArgument } from "./inout.ts";
import type { Stream } from "./stream.ts";
import type { Context } from "./context.ts";
import { dtypeOf } from "../kernel/dtype.ts";
import { capturesInProgress, noteCapturedLaunch } from "./capturing.ts";

/** Per-kernel figures the driver reports (`cuFuncGetAttribute`). */
export interface FunctionAttributes {
  /** Most threads a block of this kernel may have. */
  readonly maxThreadsPerBlock: number;
  /** Static shared memory per block, bytes. */
  readonly sharedBytes: number;
  /** Constant memory, bytes. */
  readonly constBytes: number;
  /** Local memory per thread, bytes (spills show up here). */
  readonly localBytes: number;
  /** Registers per thread. */
  readonly numRegs: number;
  /** PTX version the kernel was compiled for (`90` for 9.0). */
  readonly ptxVersion: number;
  /** Binary architecture (`90` for sm_90). */
  readonly binaryVersion: number;
}

/**
 * A kernel ready to launch (PyCUDA's `Function`): call it with the kernel's arguments and then a
 * {@link LaunchConfig}.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule("__global__ void fill(float *x, float v, int n) { int i = threadIdx.x; if (i < n) x[i] = v; }");
 * const fill = mod.getFunction("fill");
 * const x = cuda.memAlloc(256 * 4);
 * fill(x, 1.5, 256, { block: 256 });
 * ```
 */
export interface KernelFunction {
  /** Launches the kernel: its arguments in order, then the launch configuration. */
  (...argsThenConfig: unknown[]): void;
  /** The kernel's name as declared. */
  readonly kernelName: string;
  /** The declared parameters, in order. */
  readonly params: readonly KernelParam[];
  /** The driver's figures for the kernel (registers, shared memory, …). */
  readonly attributes: FunctionAttributes;
  /** Lets launches use up to `bytes` of dynamic shared memory (above the default 48 KiB). */
  setMaxDynamicSharedMemory(bytes: number): void;
  /** **UNSAFE**: the raw `CUfunction`. */
  readonly unsafeHandle: Deno.PointerObject;
}

/**
 * The key of a function's module, `fn[functionOwner]`: a graph's kernel node keeps it, to check before
 * each replay that the module is still loaded.
 */
export const functionOwner: unique symbol = Symbol("cudeno.functionOwner");

/** What a function needs from its module: whether it is still loaded, and its context. */
export interface FunctionOwner {
  /** Throws when the module was unloaded or its context reset. */
  checkLoaded(what: string): void;
  /** The module's context. */
  readonly context: Context;
}

const FUNC_ATTRIBUTES = {
  maxThreadsPerBlock: 0,
  sharedBytes: 1,
  constBytes: 2,
  localBytes: 3,
  numRegs: 4,
  ptxVersion: 5,
  binaryVersion: 6,
} as const;
const MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

/** Out-parameters of the per-function queries, shared: each call's result is read at once. */
const attributeOut = new Int32Array(1);
const paramOffset = new BigUint64Array(1);
const paramSize = new BigUint64Array(1);

function readAttributes(handle: Deno.PointerObject): FunctionAttributes {
  const lib = driver();
  const out = attributeOut;
  const entries = Object.entries(FUNC_ATTRIBUTES).map(([name, id]) => {
    const code = lib.cuFuncGetAttribute(out, id, handle);
    if (code !== 0) throw new CudaError(code, "cuFuncGetAttribute");
    return [name, out[0]!];
  });
  return Object.freeze(Object.fromEntries(entries)) as unknown as FunctionAttributes;
}

/** Checks the parsed signature against the compiled kernel's parameter layout, where the driver reports it. */
function checkParamLayout(handle: Deno.PointerObject, name: string, block: ArgumentBlock): void {
  const query = driver().cuFuncGetParamInfo;
  if (query === null) return;
  const offset = paramOffset, size = paramSize;
  let count = 0;
  while (query(handle, BigInt(count), offset, size) === 0) {
    const slot = block.slots[count];
    if (slot !== undefined && Number(size[0]!) !== slot.size) {
      throw new TypeError(
        `Cannot prepare ${name}(): parameter ${
          count + 1
        } (${slot.param.name}) is ${slot.size} bytes as parsed from the source ("${slot.param.text}") but ${
          size[0]
        } bytes in the compiled kernel; check its type`,
      );
    }
    count++;
  }
  if (count !== block.slots.length) {
    throw new TypeError(
      `Cannot prepare ${name}(): the source declares ${block.slots.length} parameters but the compiled kernel has ${count}; pass the signature to getFunction() explicitly`,
    );
  }
}

function checkHostDtype(arg: HostArgument, param: KernelParam, kernel: string): void {
  if (param.dtype !== undefined && dtypeOf(arg.array) !== param.dtype && param.dtype !== "bool") {
    throw new TypeError(
      `Cannot pass a ${arg.array.constructor.name} to ${kernel}() parameter ${
        param.index + 1
      } (${param.text} ${param.name}): it points to ${param.dtype}`,
    );
  }
}

/** The error for a launch config that is not an object with a block. */
function badConfig(name: string, config: unknown): TypeError {
  const what = config === null
    ? "null"
    : typeof config === "object"
    ? "an object without block"
    : typeof config;
  return new TypeError(
    `Cannot launch ${name}(): its launch config must be an object such as { block: 256, grid: 1 }, not ${what}`,
  );
}

/** Builds the callable for one kernel. */
export function makeKernelFunction(
  handle: Deno.PointerObject,
  name: string,
  params: readonly KernelParam[],
  owner: FunctionOwner,
  limits: DimLimits,
  deviceName: string,
  maxShared: number,
): KernelFunction {
  const lib = driver();
  const staged: Parameters<HostArgument["stage"]>[0] = [];
  const block = new ArgumentBlock(name, params, (value, param, kernel) => {
    // The common cases first, with no allocation and no string work.
    if (value instanceof DeviceAllocation) return value.ptr;
    if (typeof value === "bigint") return value;
    if (value instanceof HostArgument) {
      checkHostDtype(value, param, kernel);
      return value.stage(staged);
    }
    return resolveDevice(value, `${kernel}() parameter ${param.index + 1} (${param.text} ${param.name})`).ptr;
  });
  checkParamLayout(handle, name, block);
  const dims = new Uint32Array(6);
  const count = params.length;
  let dynamicLimit = maxShared;
  let lastGrid = -1, lastBlock = -1;
  // The launch once the block holds this launch's arguments.
  const launchWritten = (config: unknown): void => {
    let shared: number, stream: Deno.PointerValue, c: LaunchConfig;
    try {
      if (typeof config !== "object" || config === null || !("block" in config)) {
        throw badConfig(name, config);
      }
      c = config as LaunchConfig;
      owner.checkLoaded(name);
      const grid = c.grid, blk = c.block;
      // A launch with the same grid and block numbers as the last one skips re-validating them.
      if (typeof grid !== "number" || typeof blk !== "number" || grid !== lastGrid || blk !== lastBlock) {
        readDim3(grid, dims, 0, "grid", name);
        readDim3(blk, dims, 3, "block", name);
        checkLimits(dims, limits, deviceName, name);
        lastGrid = typeof grid === "number" ? grid : -1;
        lastBlock = typeof blk === "number" ? blk : -1;
      }
      shared = c.shared ?? 0;
      if (shared !== 0 && (!Number.isInteger(shared) || shared < 0 || shared > dynamicLimit)) {
        throw new RangeError(
          `Cannot launch ${name}(): shared = ${shared} bytes must be an integer from 0 to ${dynamicLimit} (raise the limit with setMaxDynamicSharedMemory())`,
        );
      }
      stream = c.stream === undefined ? null : c.stream.unsafeHandle;
    } catch (e) {
      // Host arrays staged for this launch are not needed: free their device copies now.
      if (staged.length > 0) HostArgument.complete(staged, undefined, false);
      throw e;
    }
    noteLaunch(name);
    const code = lib.cuLaunchKernel(
      handle,
      dims[0]!,
      dims[1]!,
      dims[2]!,
      dims[3]!,
      dims[4]!,
      dims[5]!,
      shared,
      stream,
      block.addresses,
      null,
    );
    if (staged.length > 0) HostArgument.complete(staged, c.stream as Stream | undefined, code === 0);
    if (code !== 0) throw new CudaError(code, "cuLaunchKernel", ` (kernel ${name})`);
  };
  const launch: ArgumentsFinish<void> = (values, given) => {
    if (given !== count + 1) {
      throw new TypeError(
        `Cannot launch ${name}(): it takes ${count} argument${count === 1 ? "" : "s"} (${
          params.map((p) => p.name).join(", ")
        }) and then a launch config such as { block: 256, grid: 1 }; got ${given} value${
          given === 1 ? "" : "s"
        }`,
      );
    }
    try {
      for (let i = 0; i < count; i++) block.write(i, values[i]);
    } catch (e) {
      if (staged.length > 0) HostArgument.complete(staged, undefined, false);
      throw e;
    }
    launchWritten(values[count]);
    // Into a capture, the graph keeps the module and the arguments alive (see capturing.ts).
    if (capturesInProgress !== 0) {
      noteCapturedLaunch((values[count] as LaunchConfig).stream, owner, name, values, count);
    }
  };
  const call = fixedArity(count, count + 1, launch);
  const attributes = readAttributes(handle);
  return withProperties(call, {
    kernelName: name,
    params: Object.freeze([...params]),
    attributes,
    unsafeHandle: handle,
    [functionOwner]: owner,
    setMaxDynamicSharedMemory(bytes: number) {
      const code = lib.cuFuncSetAttribute(handle, MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
      if (code !== 0) throw new CudaError(code, "cuFuncSetAttribute", ` (kernel ${name}, ${bytes} bytes)`);
      dynamicLimit = bytes;
    },
  }) as KernelFunction;
}
