/**
 * The PyCUDA-shaped core: devices, contexts, memory, streams, events, NVRTC-compiled modules and
 * launches, over the CUDA driver API through Deno FFI. Nothing is loaded until first use.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const a = Float32Array.from({ length: 16 }, () => Math.random());
 * const aGpu = cuda.memAlloc(a.byteLength);
 * cuda.memcpyHtoD(aGpu, a);
 * const mod = new cuda.SourceModule(`__global__ void twice(float *a) { a[threadIdx.x] *= 2; }`);
 * mod.getFunction("twice")(aGpu, { block: 16 });
 * cuda.memcpyDtoH(a, aGpu);
 * ```
 *
 * @module
 */

export { driverVersion, init, isAvailable, unavailableReason } from "./driver.ts";
export { checkCuda, CudaError } from "./errors.ts";
export { Device, DEVICE_ATTRIBUTES, type DeviceAttributeName } from "./device.ts";
export { Context, primaryContext, resetDevice, synchronize, useDevice } from "./context.ts";
export {
  DeviceAllocation,
  devicePointer,
  type DevicePointerLike,
  type DeviceSpan,
  type DeviceTarget,
  memAlloc,
  memcpyDtoD,
  memcpyDtoDAsync,
  memcpyDtoH,
  memcpyDtoHAsync,
  memcpyHtoD,
  memcpyHtoDAsync,
  memGetInfo,
} from "./memory.ts";
export { memcpyPeer, memcpyPeerAsync, type PeerCopyOptions } from "./peer.ts";
export { memsetD16, memsetD32, memsetD8 } from "./memset.ts";
export { memAllocAsync, memPoolUsage, setMemPoolReleaseThreshold } from "./pool.ts";
export { type MemoryShortage, OutOfMemoryError } from "./out_of_memory.ts";
export { PagelockedArray, pagelockedEmpty } from "./pinned.ts";
export { type CaptureOptions, type CaptureStatus, Stream, type StreamOptions } from "./stream.ts";
export { capture } from "./capture.ts";
export type { CaptureMode } from "./capturing.ts";
export { Graph, type MemsetNodeOptions } from "./graph.ts";
export { GraphExec } from "./graph_exec.ts";
export {
  type CopyEnd,
  GraphNode,
  type KernelNodeConfig,
  type MemsetElementSize,
  type NodeKind,
  type NodeOptions,
} from "./graph_node.ts";
export { Event, type EventOptions } from "./event.ts";
export {
  clearMemoryCache,
  compile,
  compileAsync,
  type CompiledCode,
  CompileError,
  type CompileOptions,
  defaultArch,
  NvrtcError,
  nvrtcSupportedArchs,
  nvrtcVersion,
} from "./compiler.ts";
export { type DeviceGlobal, Module, SourceModule } from "./module.ts";
export type { FunctionAttributes, KernelFunction } from "./function.ts";
export type { LaunchConfig, StreamLike } from "../kernel/dims.ts";
export { HostArgument, In, InOut, Out } from "./inout.ts";
export { LibraryNotFoundError } from "../../ffi/load.ts";
export { parseKernels, parseParameterList } from "../kernel/signature.ts";
export type { KernelParam, KernelSignature } from "../kernel/signature.ts";
export { ArgumentBlock } from "../kernel/args.ts";
export { CompileCache } from "../kernel/cache.ts";
export type { Dim3 } from "../kernel/dims.ts";
export type { ArgumentSlot, SlotKind } from "../kernel/args.ts";
export type { CacheSource } from "../kernel/cache.ts";
export type { DimLimits } from "../kernel/dims.ts";
export type { Direction, StagedArgument } from "./inout.ts";
export type { AddressSpace, CType, Dialect, VectorType } from "../kernel/ctypes.ts";
export type { LoadAttempt } from "../../ffi/load.ts";
export type { DType, HostArrayOf } from "../kernel/dtype.ts";
