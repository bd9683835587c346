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

export { backend, backendDevice, useBackend, type UseBackendOptions } from "../device/active.ts";
export { currentStream, useStream, withStream } from "../device/stream.ts";
export type {
  Backend,
  BackendBuffer,
  BackendKernel,
  BackendName,
  Blas,
  DeviceArray,
  KernelSource,
  Recorded,
} from "../device/backend.ts";
export type { Epilogue, Gemm, GemmEpilogue, GemmOperand } from "../device/gemm.ts";
export { LAUNCH_ARGUMENT } from "../device/backend.ts";
export type { LaunchConfig } from "../kernel/dims.ts";
import { GPUArray } from "./core/gpuarray.ts";
import { installMethods } from "./core/methods.ts";
import { installRefusals } from "./fuse/fuse.ts";

// The methods are defined here, above every module they call, so that no module below imports this
// one back (gpuarray.ts only declares them).
installMethods(GPUArray);
installRefusals();

export { empty, emptyLike, GPUArray } from "./core/gpuarray.ts";
export type { ArrayMethods, HostValue, SumValue } from "./core/methods.ts";
export type { AxisMethods } from "./core/axis_methods.ts";
export type { AfterAxis, AxesOptions, AxisArg, AxisOptions, DTypeOptions } from "./core/axis_args.ts";
export type { ItemValue, NestedList } from "./core/display.ts";
export type { Layout, Shape } from "./core/layout.ts";
export type { SliceSpec } from "./core/slicing.ts";
export {
  arange,
  type ArangeDType,
  type ArangeOptions,
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
} from "./routines/creation.ts";
export { diag, diagflat, eye, type EyeOptions, identity, tri, tril, triu } from "./routines/matrices.ts";
export { linspace, type LinspaceOptions, meshgrid, type MeshgridOptions } from "./routines/grids.ts";
export { geomspace, logspace, type LogspaceOptions } from "./routines/spaces.ts";
export {
  iscomplex,
  iscomplexobj,
  isneginf,
  isposinf,
  isreal,
  isrealobj,
  nanToNum,
  type NanToNumOptions,
} from "./routines/finite.ts";
export { putAlongAxis, takeAlongAxis } from "./routines/along_axis.ts";
export {
  uniqueAll,
  type UniqueAllResult,
  uniqueCounts,
  type UniqueCountsResult,
  uniqueInverse,
  type UniqueInverseResult,
  uniqueValues,
} from "./routines/unique_api.ts";
export { copyto, extract, fillDiagonal, flatnonzero, place, putmask, trimZeros } from "./routines/masked.ts";
export { polyder, polyfit, polyint, polyval, vander } from "./routines/polynomial.ts";
export {
  broadcastArrays,
  broadcastShapes,
  type CumulativeOptions,
  cumulativeProd,
  cumulativeSum,
  matrixTranspose,
  matvec,
  permuteDims,
  vecdot,
  vecmat,
} from "./routines/array_api.ts";
export { choose, type ChooseOptions, type Piece, piecewise, select } from "./routines/select.ts";
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
} from "./ops/views.ts";
export { assign, astype, fill } from "./ops/assign.ts";
export { load, loadAsync, save, saveAsync } from "./routines/io.ts";
export { image, type ImageOptions, Picture } from "./routines/picture.ts";
export { plot, type PlotOptions } from "./routines/plot.ts";
export { type NpzArrays, savez, savezCompressed } from "./routines/npz.ts";
export { arraySplit, concatenate, type JoinOptions, split, stack } from "./routines/join.ts";
export {
  atleast1d,
  atleast2d,
  atleast3d,
  block,
  type Blocks,
  columnStack,
  dsplit,
  dstack,
  hsplit,
  hstack,
  vsplit,
  vstack,
} from "./routines/stacking.ts";
export { pad, type PadOptions, type PadSpec, repeat, resize, tile } from "./routines/repeat.ts";
export { NpyError } from "../kernel/npy.ts";
export { clip, type Operand, type OpOptions, where } from "./ops/ufunc.ts";
export { imag, real } from "./ops/complex_parts.ts";
export * from "./api/elementwise.ts";
export type { ElementwiseMethods } from "./api/elementwise_methods.ts";
export type { ReductionMethods } from "./api/reduction_methods.ts";
export { norm, type NormOptions } from "./ops/norm.ts";
export { allclose, type CloseOptions } from "./ops/allclose.ts";
export * from "./api/reductions.ts";
export { logSoftmax, softmax, type SoftmaxOptions } from "./ops/softmax.ts";
export { fuse, type Fused, type FuseOptions } from "./fuse/fuse.ts";
export { compile, type Compiled, type CompileOptions } from "./compile/compile.ts";
export {
  customVjp,
  grad,
  type GradOptions,
  type GradsOf,
  jvp,
  type Pullback,
  stopGradient,
  type Tree,
  valueAndGrad,
  type ValueAndGradOptions,
  vjp,
} from "./grad/api.ts";
export { CublasError } from "../device/cublas.ts";
export { matmul } from "./ops/matmul.ts";
export { dot, inner, outer, trace, type TraceOptions, vdot } from "./ops/linalg.ts";
export * as linalg from "./linalg/mod.ts";
export { CusolverError } from "../device/cusolver.ts";
export { CudnnError } from "../device/cudnn.ts";
export type { Solver, SolverJob, SolverJobs, SolverMatrices, SolverVectors } from "../device/solver.ts";
export type { Fft, FftJob, FftLayout } from "../device/fft.ts";
export type { ConvDescription, Dnn, DnnOperand } from "../device/dnn.ts";
export { einsum, tensordot } from "./ops/einsum.ts";
export { cumprod, cumsum, diff, type DiffOptions, type ScanOptions } from "./ops/scan.ts";
export { type Indices, put, take } from "./ops/indexing.ts";
export { argwhere, compress, mask, nonzero } from "./routines/compact.ts";
export { argsort, sort, type SortOptions, topk, type TopkOptions, type TopkResult } from "./ops/sorting.ts";
export { lexsort } from "./routines/lexsort.ts";
export {
  searchsorted,
  type SearchsortedOptions,
  unique,
  type UniqueOptions,
  type UniqueResult,
} from "./routines/search.ts";
export { median, type MedianOptions, nanmedian } from "./routines/median.ts";
export {
  nanpercentile,
  nanquantile,
  percentile,
  quantile,
  type QuantileMethod,
  type QuantileOptions,
  type QuantileResult,
  type QuantileValue,
} from "./routines/quantile.ts";
export {
  average,
  type AverageOptions,
  corrcoef,
  type CorrcoefOptions,
  cov,
  type CovOptions,
} from "./routines/statistics.ts";
export {
  nanargmax,
  nanargmin,
  nancumprod,
  nancumsum,
  nanprod,
  nanstd,
  nanvar,
} from "./routines/nanfunctions.ts";
export { bincount, type BincountOptions } from "./routines/binning.ts";
export {
  digitize,
  type DigitizeOptions,
  histogram,
  histogram2d,
  type Histogram2dOptions,
  type HistogramBins,
  type HistogramOptions,
} from "./routines/histogram.ts";
export { gradient, type GradientOptions, trapezoid, type TrapezoidOptions } from "./routines/calculus.ts";
export {
  convolve,
  type ConvolveMode,
  type ConvolveOptions,
  correlate,
  interp,
  type InterpOptions,
} from "./routines/signal.ts";
export {
  arrayEqual,
  type ArrayEqualOptions,
  arrayEquiv,
  intersect1d,
  type Intersect1dOptions,
  isin,
  type IsinOptions,
  setdiff1d,
  type SetOptions,
  setxor1d,
  union1d,
} from "./routines/sets.ts";
export {
  cross,
  type CrossOptions,
  fliplr,
  flipud,
  kron,
  roll,
  rot90,
  type Rot90Options,
} from "./routines/shapes.ts";
export {
  indices,
  type IndicesOptions,
  ravelMultiIndex,
  type TriangleOptions,
  trilIndices,
  triuIndices,
  unravelIndex,
} from "./routines/index_tricks.ts";
export { argpartition, partition, type PartitionOptions } from "./routines/partition.ts";
export * as random from "./routines/random.ts";
export * as fft from "./fft/mod.ts";
export type { PromotionTable } from "./core/promotion_table.ts";
export {
  type BinaryResult,
  type BoolAsInt8,
  type ComplexDType,
  type ComplexOf,
  complexOf,
  type DivisionResult,
  type FloatDType,
  type FloatResult,
  type OperandResult,
  type RealOf,
  realOf,
  type ResultType,
  resultType,
  type RuleResult,
} from "./core/dtypes.ts";
export { type DType, dtypeOf, DTYPES, isDType } from "../kernel/dtype.ts";
export { ElementwiseKernel, ReductionKernel, type ReductionOptions } from "./routines/kernels.ts";
export type { DTypeInfo, HostArrayOf, TypedArray } from "../kernel/dtype.ts";
export type { Dialect } from "../kernel/ctypes.ts";
