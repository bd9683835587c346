/**
 * GPU arrays: `GPUArray` with elementwise math, reductions, matrix products and random numbers, on
 * CUDA where a driver and device exist and on OpenCL (a GPU, or PoCL on the CPU) elsewhere. The same
 * script runs on both.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.backend(), ga.backendDevice());
 * const a = ga.random.normal([1000, 1000], { seed: 1 });
 * const c = ga.matmul(a, a);
 * const x = new Float32Array([1, 2, 3]), z = new Float32Array([4, 5, 6]);
 * const y = ga.toGpu(x).mul(2).add(ga.toGpu(z));
 * console.log(y.sum(), c.shape);
 * ```
 *
 * @module
 */

import { registerBackend } from "./backend.ts";
import { CudaBackend } from "./cuda_backend.ts";
import { OpenCLBackend } from "./opencl_backend.ts";

registerBackend("cuda", (device) => new CudaBackend(device));
registerBackend("opencl", () => new OpenCLBackend());

export { backend, backendDevice, type BackendName, useBackend, type UseBackendOptions } from "./backend.ts";
export { type DTypeOfArray, empty, emptyLike, GPUArray, type Shape, toGpu } from "./gpuarray.ts";
export { arange, full, ones, zeros } from "./creation.ts";
export { type BinaryOp, type Operand, type OpOptions, type ReduceOp, type UnaryOp, where } from "./ops.ts";
export * from "./functions.ts";
export { CublasError, matmul } from "./matmul.ts";
export * as random from "./random.ts";
export { resultType } from "./dtypes.ts";
export { type DType, dtypeOf, DTYPES, isDType } from "../kernel/dtype.ts";
export { ElementwiseKernel, ReductionKernel, type ReductionOptions } from "./kernels.ts";
export type {
  Backend,
  BackendBuffer,
  BackendKernel,
  BoundLaunch,
  LaunchShape,
  MiscountedLaunch,
  RefusedLaunch,
} from "./backend.ts";
export type { DTypeInfo, HostArrayOf, TypedArray } from "../kernel/dtype.ts";
export type { Dialect } from "../kernel/ctypes.ts";
