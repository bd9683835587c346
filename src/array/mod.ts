/**
 * GPU arrays: `GPUArray`, a NumPy-style strided n-dimensional array with views, broadcasting,
 * elementwise functions, reductions, matrix products and random numbers, on CUDA where a driver and
 * device exist and on OpenCL (a GPU, or PoCL on the CPU) elsewhere. The same script runs on both.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.backend(), ga.backendDevice());
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]]);
 * const centred = x.sub(ga.asarray([1, 1, 1])); // (2, 3) - (3,): broadcasting
 * const every2nd = x.slice([], [null, null, 2]); // x[:, ::2], a view
 * every2nd.fill(0); // writes through into x
 * const c = ga.matmul(ga.random.normal([64, 64], { seed: 1 }), x.T.slice([0, 64]));
 * console.log(centred.get(), x.get(), c.shape);
 * ```
 *
 * @module
 */

export { backend, backendDevice, useBackend, type UseBackendOptions } from "./active.ts";
export type { Backend, BackendBuffer, BackendKernel, BackendName, KernelSource } from "./backend.ts";
export type { LaunchConfig } from "../kernel/dims.ts";
export { empty, emptyLike, GPUArray } from "./gpuarray.ts";
export type { ArrayMethods, HostValue, SumValue } from "./methods.ts";
export type { Layout, Shape } from "./layout.ts";
export type { SliceSpec } from "./slicing.ts";
export {
  arange,
  asarray,
  type DTypeOfArray,
  full,
  type NestedArray,
  ones,
  toGpu,
  zeros,
} from "./creation.ts";
export {
  ascontiguousarray,
  broadcastTo,
  copy,
  diagonal,
  type DiagonalOptions,
  expandDims,
  flip,
  moveaxis,
  ravel,
  reshape,
  slice,
  squeeze,
  swapaxes,
  transpose,
} from "./views.ts";
export { assign, astype, fill } from "./assign.ts";
export { clip, type Operand, type OpOptions, where } from "./ufunc.ts";
export type { BinaryOp, UnaryOp } from "./ufunc_defs.ts";
export * from "./ufuncs_binary.ts";
export * from "./ufuncs_unary.ts";
export * from "./functions.ts";
export { CublasError, matmul } from "./matmul.ts";
export { argsort, sort, type SortOptions, topk, type TopkOptions, type TopkResult } from "./sorting.ts";
export {
  searchsorted,
  type SearchsortedOptions,
  unique,
  type UniqueOptions,
  type UniqueResult,
} from "./search.ts";
export * as random from "./random.ts";
export {
  type BoolAsInt8,
  type DivisionResult,
  type FloatDType,
  type FloatResult,
  type OperandResult,
  type PromotionTable,
  type ResultType,
  resultType,
} from "./dtypes.ts";
export type { BinaryResult } from "./ufuncs_binary.ts";
export { type DType, dtypeOf, DTYPES, isDType } from "../kernel/dtype.ts";
export { ElementwiseKernel, ReductionKernel, type ReductionOptions } from "./kernels.ts";
export type { DTypeInfo, HostArrayOf, TypedArray } from "../kernel/dtype.ts";
export type { Dialect } from "../kernel/ctypes.ts";
