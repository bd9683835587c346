/**
 * Kernels written as TypeScript functions, translated to CUDA C and OpenCL C, with a simulator that
 * runs them in plain JavaScript on host typed arrays (like Numba's `@cuda.jit` and its simulator).
 *
 * The body of a kernel is read from its source with acorn and checked against a subset of
 * JavaScript: numbers and typed arrays, with i32, u32, f32 and f64 semantics that the simulator and
 * the GPU share. Anything outside the subset is a {@link JitError} with its line and column, at the
 * time `jit()` is called. See `src/jit/README.md` for the subset and the typing rules.
 *
 * @example
 * ```ts
 * import { blockDim, blockIdx, jit, threadIdx } from "@cudeno/cudeno/jit";
 *
 * const add = jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
 *   const idx = threadIdx.x + blockIdx.x * blockDim.x;
 *   if (idx < n) c[idx] = a[idx] + b[idx];
 * }, { name: "add" });
 *
 * console.log(add.source("cuda")); // extern "C" __global__ void add(float *a, ...
 * console.log(add.source("opencl")); // __kernel void add(__global float *a, ...
 *
 * const n = 1000;
 * const a = new Float32Array(n).fill(1), b = new Float32Array(n).fill(2), c = new Float32Array(n);
 * add.simulate({ grid: [4], block: [256] }, a, b, c, n);
 * console.log(c[999]); // 3
 * ```
 *
 * @module
 */

export { device, jit } from "./kernel.ts";
export type { DeviceFunction, FunctionOptions, JitKernel, JitOptions, Signature } from "./kernel.ts";
export {
  atomicAdd,
  atomicCAS,
  atomicExch,
  atomicMax,
  atomicMin,
  atomicSub,
  blockDim,
  blockIdx,
  f32,
  f64,
  grid,
  gridDim,
  i32,
  shared,
  syncthreads,
  threadIdx,
  u32,
} from "./intrinsics.ts";
export type { Dim3, JitArg, JitArrayLike, JitParam, Shared, SharedArrayOf } from "./intrinsics.ts";
export { JitError, JitSimulationError } from "./errors.ts";
export type { SourcePosition } from "./errors.ts";
export type { JitParamInfo } from "./gpu.ts";
export type { LaunchConfig } from "../kernel/dims.ts";
export type { Dialect } from "../kernel/ctypes.ts";
export type { ArrayType, ElementType, HostArray, JitType, ReturnType, ScalarType } from "./types.ts";
export type { DType } from "../kernel/dtype.ts";
