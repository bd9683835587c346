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
export { currentStream, useStream, withStream } from "./stream.ts";
export type { Backend, BackendBuffer, BackendKernel, BackendName, KernelSource } from "./backend.ts";
export type { LaunchConfig } from "../kernel/dims.ts";
export { empty, emptyLike, GPUArray } from "./gpuarray.ts";
export type { ArrayMethods, HostValue, SumValue } from "./methods.ts";
export type { ItemValue, NestedList } from "./display.ts";
export type { Layout, Shape } from "./layout.ts";
export type { SliceSpec } from "./slicing.ts";
export {
  arange,
  asarray,
  type DTypeOfArray,
  full,
  fullLike,
  type NestedArray,
  ones,
  onesLike,
  toGpu,
  zeros,
  zerosLike,
} from "./creation.ts";
export { eye, identity, tri, tril, triu } from "./matrices.ts";
export { linspace, type LinspaceOptions, meshgrid, type MeshgridOptions } from "./grids.ts";
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
export { load, loadAsync, save, saveAsync } from "./io.ts";
export { arraySplit, concatenate, split, stack } from "./join.ts";
export { pad, type PadOptions, type PadSpec, repeat, tile } from "./repeat.ts";
export { NpyError } from "../kernel/npy.ts";
export { clip, type Operand, type OpOptions, where } from "./ufunc.ts";
export type { BinaryOp, UnaryOp } from "./ufunc_defs.ts";
export * from "./ufuncs_binary.ts";
export * from "./ufuncs_unary.ts";
export { norm } from "./functions.ts";
export * from "./reductions.ts";
export { logSoftmax, softmax, type SoftmaxOptions } from "./softmax.ts";
export { fuse, type Fused, type FuseOptions } from "./fuse.ts";
export { CublasError } from "./cublas.ts";
export { matmul } from "./matmul.ts";
export { dot, inner, outer, trace, type TraceOptions, vdot } from "./linalg.ts";
export { einsum, tensordot } from "./einsum.ts";
export { cumprod, cumsum, diff, type DiffOptions, type ScanOptions } from "./scan.ts";
export { type Indices, put, take } from "./indexing.ts";
export { argwhere, compress, mask, nonzero } from "./compact.ts";
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
