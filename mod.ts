/**
 * cudeno: GPU computing from Deno in pure TypeScript. CUDA (driver API, NVRTC, cuBLAS, NCCL) and
 * OpenCL through `Deno.dlopen`, with no compiled addon. Importing this module opens no library;
 * each namespace loads what it needs on first use.
 *
 * - `cuda`: the PyCUDA-shaped core (devices, memory, `SourceModule`, launches, streams, events)
 * - `opencl`: the PyOpenCL-shaped core (platforms, contexts, queues, buffers, programs, kernels)
 * - `array`: GPU arrays with elementwise math, reductions, `matmul` and random numbers, on either
 * - `jit`: kernels written as TypeScript functions, compiled to CUDA C or OpenCL C
 * - `nccl`: collectives across GPUs
 * - `nn`: neural-network layers and losses (PyTorch's `torch.nn`), safetensors checkpoints
 * - `optim`: optimizers and learning-rate schedules (PyTorch's `torch.optim`)
 *
 * @example
 * ```ts
 * import { array as ga } from "@cudeno/cudeno";
 * const x = ga.toGpu(new Float32Array([1, 2, 3]));
 * console.log(ga.backend(), x.mul(2).sum()); // 12
 * ```
 *
 * @module
 */

export * as cuda from "./src/cuda/mod.ts";
export * as opencl from "./src/opencl/mod.ts";
export * as array from "./src/array/mod.ts";
export * as jit from "./src/jit/mod.ts";
export * as nccl from "./src/cuda/nccl/mod.ts";
export * as nn from "./src/nn/mod.ts";
export * as optim from "./src/optim/mod.ts";
