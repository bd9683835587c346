/**
 * cuDNN 9 (`libcudnn.so.9`, the shim that opens `libcudnn_cnn`, `libcudnn_ops` and the engine libraries
 * beside it): the symbols cudeno binds for convolutions through cuDNN's legacy convolution API (still
 * shipped in 9.x), the constants they take, and where to find the library.
 *
 * Types: `cudnnHandle_t`, the descriptors and `cudaStream_t` are `"pointer"`; device pointers are
 * `"u64"` (bigint); out-parameters (`cudnnHandle_t *`, `int *`, `size_t *`, the algorithm perf arrays)
 * and `alpha`/`beta` (a `Float32Array(1)` for float, half and bfloat16 data, a `Float64Array(1)` for
 * double) are `"buffer"`; `size_t` is `"usize"`; every result is a `cudnnStatus_t` (`"i32"`) except
 * `cudnnGetVersion` (`size_t`) and `cudnnGetErrorString` (`const char *`).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** `cudnnGetConvolution*WorkspaceSize`. */
const WORKSPACE_SIZE = {
  parameters: [
    "pointer", // cudnnHandle_t handle
    "pointer", // the first tensor or filter descriptor (as the call's algorithm query)
    "pointer", // the second
    "pointer", // const cudnnConvolutionDescriptor_t convDesc
    "pointer", // the output's descriptor
    "i32", // the algorithm (cudnnConvolution{Fwd,BwdData,BwdFilter}Algo_t)
    "buffer", // size_t *sizeInBytes
  ],
  result: "i32",
} as const;

/** `cudnnConvolutionForward`, `cudnnConvolutionBackwardData`, `cudnnConvolutionBackwardFilter`. */
const CONVOLVE = {
  parameters: [
    "pointer", // cudnnHandle_t handle
    "buffer", // const void *alpha
    "pointer", // first operand's descriptor (x; w for BackwardData)
    "u64", // const void *first operand
    "pointer", // second operand's descriptor (w; dy for the backward calls)
    "u64", // const void *second operand
    "pointer", // const cudnnConvolutionDescriptor_t convDesc
    "i32", // the algorithm
    "u64", // void *workSpace
    "usize", // size_t workSpaceSizeInBytes
    "buffer", // const void *beta
    "pointer", // the result's descriptor (y; dx; dw)
    "u64", // void *result
  ],
  result: "i32",
} as const;

/** `cudnnGetConvolution{Forward,BackwardData,BackwardFilter}Algorithm_v7`: the heuristics' ranked algorithms. */
const ALGORITHMS = {
  parameters: [
    "pointer", // cudnnHandle_t handle
    "pointer", // first descriptor (x: xDesc; BackwardData: wDesc)
    "pointer", // second descriptor (wDesc; dyDesc)
    "pointer", // const cudnnConvolutionDescriptor_t convDesc
    "pointer", // the result's descriptor (yDesc; dxDesc; dwDesc)
    "i32", // const int requestedAlgoCount
    "buffer", // int *returnedAlgoCount
    "buffer", // cudnnConvolution*AlgoPerf_t *perfResults (PERF_BYTES each)
  ],
  result: "i32",
} as const;

/** The cuDNN functions cudeno calls. */
export const CUDNN_SYMBOLS = {
  cudnnGetVersion: { parameters: [], result: "usize" }, // → size_t (90_14_00 for 9.14.0)
  cudnnGetErrorString: { parameters: ["i32"], result: "pointer" }, // cudnnStatus_t status → const char *
  cudnnCreate: { parameters: ["buffer"], result: "i32" }, // cudnnHandle_t *handle
  cudnnDestroy: { parameters: ["pointer"], result: "i32" }, // cudnnHandle_t handle
  cudnnSetStream: { parameters: ["pointer", "pointer"], result: "i32" }, // cudnnHandle_t handle, cudaStream_t streamId
  cudnnCreateTensorDescriptor: { parameters: ["buffer"], result: "i32" }, // cudnnTensorDescriptor_t *tensorDesc
  cudnnDestroyTensorDescriptor: { parameters: ["pointer"], result: "i32" }, // cudnnTensorDescriptor_t tensorDesc
  cudnnSetTensor4dDescriptor: {
    parameters: [
      "pointer", // cudnnTensorDescriptor_t tensorDesc
      "i32", // cudnnTensorFormat_t format
      "i32", // cudnnDataType_t dataType
      "i32", // int n
      "i32", // int c
      "i32", // int h
      "i32", // int w
    ],
    result: "i32",
  },
  cudnnCreateFilterDescriptor: { parameters: ["buffer"], result: "i32" }, // cudnnFilterDescriptor_t *filterDesc
  cudnnDestroyFilterDescriptor: { parameters: ["pointer"], result: "i32" }, // cudnnFilterDescriptor_t filterDesc
  cudnnSetFilter4dDescriptor: {
    parameters: [
      "pointer", // cudnnFilterDescriptor_t filterDesc
      "i32", // cudnnDataType_t dataType
      "i32", // cudnnTensorFormat_t format
      "i32", // int k (output channels)
      "i32", // int c (input channels per group)
      "i32", // int h
      "i32", // int w
    ],
    result: "i32",
  },
  cudnnCreateConvolutionDescriptor: { parameters: ["buffer"], result: "i32" }, // cudnnConvolutionDescriptor_t *convDesc
  cudnnDestroyConvolutionDescriptor: { parameters: ["pointer"], result: "i32" }, // cudnnConvolutionDescriptor_t convDesc
  cudnnSetConvolution2dDescriptor: {
    parameters: [
      "pointer", // cudnnConvolutionDescriptor_t convDesc
      "i32", // int pad_h
      "i32", // int pad_w
      "i32", // int u (vertical stride)
      "i32", // int v (horizontal stride)
      "i32", // int dilation_h
      "i32", // int dilation_w
      "i32", // cudnnConvolutionMode_t mode
      "i32", // cudnnDataType_t computeType
    ],
    result: "i32",
  },
  cudnnSetConvolutionGroupCount: { parameters: ["pointer", "i32"], result: "i32" }, // cudnnConvolutionDescriptor_t convDesc, int groupCount
  cudnnSetConvolutionMathType: { parameters: ["pointer", "i32"], result: "i32" }, // cudnnConvolutionDescriptor_t convDesc, cudnnMathType_t mathType
  cudnnGetConvolutionForwardAlgorithm_v7: ALGORITHMS,
  cudnnGetConvolutionBackwardDataAlgorithm_v7: ALGORITHMS,
  cudnnGetConvolutionBackwardFilterAlgorithm_v7: ALGORITHMS,
  cudnnGetConvolutionForwardWorkspaceSize: WORKSPACE_SIZE,
  cudnnGetConvolutionBackwardDataWorkspaceSize: WORKSPACE_SIZE,
  cudnnGetConvolutionBackwardFilterWorkspaceSize: WORKSPACE_SIZE,
  cudnnConvolutionForward: CONVOLVE,
  cudnnConvolutionBackwardData: CONVOLVE,
  cudnnConvolutionBackwardFilter: CONVOLVE,
} as const satisfies Deno.ForeignLibraryInterface;

/** `cudnnDataType_t`. */
export const CUDNN_DATA_FLOAT = 0, CUDNN_DATA_DOUBLE = 1, CUDNN_DATA_HALF = 2, CUDNN_DATA_BFLOAT16 = 9;
/** `cudnnTensorFormat_t`: NCHW. */
export const CUDNN_TENSOR_NCHW = 0;
/** `cudnnConvolutionMode_t`: cross-correlation (what deep-learning frameworks call convolution). */
export const CUDNN_CROSS_CORRELATION = 1;
/** `cudnnMathType_t`: tensor cores (TF32 for float) allowed, or FMA only. */
export const CUDNN_DEFAULT_MATH = 0, CUDNN_FMA_MATH = 3;
/**
 * Bytes of one `cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t`: `algo` (int, offset 0), `status`
 * (int, 4), `time` (float, 8), `memory` (size_t, 16), `determinism` (int, 24), `mathType` (int, 28),
 * `reserved[3]` (int, 32), padded to 48.
 */
export const PERF_BYTES = 48;

/**
 * Where to look for cuDNN 9 on `os`: `CUDENO_LIBCUDNN`, the dynamic linker's path (the distribution's
 * `libcudnn9-cuda-13`), the CUDA toolkit's folders, and the `nvidia-cudnn-cu13`/`-cu12` wheels, whose
 * sub-libraries are opened first from the same folder.
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { cudnnSpec } from "./cudnn.ts";
 * console.log(candidatePaths(cudnnSpec("linux"))[0]); // "libcudnn.so.9"
 * ```
 */
export function cudnnSpec(os: HostOS = Deno.build.os): LibrarySpec<typeof CUDNN_SYMBOLS> {
  const windows = os === "windows";
  const sonames = windows ? ["cudnn64_9.dll"] : ["libcudnn.so.9"];
  const parts = ["graph", "ops", "cnn", "heuristic", "engines_precompiled", "engines_runtime_compiled"];
  return {
    what: `cuDNN (${sonames[0]})`,
    env: "CUDENO_LIBCUDNN",
    sonames,
    dirs: [
      ...cudaToolkitDirs(os),
      ...pythonWheelDirs({ linux: ["cudnn/lib"], windows: ["cudnn\\bin"] }, os),
      ...(windows ? [] : ["/usr/lib/x86_64-linux-gnu", "/usr/local/cuda/lib64"]),
    ],
    os,
    preload: parts.map((p) => (windows ? `cudnn_${p}64_9` : `libcudnn_${p}.so.9`)),
    hint: "install cuDNN 9 (apt: libcudnn9-cuda-13; pip: nvidia-cudnn-cu13) or set CUDA_HOME",
    symbols: CUDNN_SYMBOLS,
  };
}

/** cuDNN, opened on first use. */
export const libcudnn: LazyLibrary<typeof CUDNN_SYMBOLS> = new LazyLibrary(() => cudnnSpec());
