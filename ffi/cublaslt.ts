/**
 * cuBLASLt (`libcublasLt.so.13` or `.12`): the symbols cudeno binds for matrix products with an
 * algorithm chosen once per shape and an epilogue (bias, ReLU, GELU), the constants they take, and
 * where to find the library.
 *
 * Types: the handle and the descriptors (`cublasLtHandle_t`, `cublasLtMatmulDesc_t`,
 * `cublasLtMatrixLayout_t`, `cublasLtMatmulPreference_t`) and `cudaStream_t` are `"pointer"`; device
 * pointers are `"u64"` (bigint); `uint64_t` extents and `size_t` sizes are `"u64"`/`"usize"`, `int64_t`
 * leading dimensions `"i64"`; attribute values, `alpha`, `beta`, the algorithm and the heuristic's
 * results are `"buffer"`s; every result is a `cublasStatus_t` (`"i32"`, cuBLAS's own codes).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** The cuBLASLt functions cudeno calls. */
export const CUBLASLT_SYMBOLS = {
  cublasLtCreate: { parameters: ["buffer"], result: "i32" }, // cublasLtHandle_t *lightHandle
  cublasLtDestroy: { parameters: ["pointer"], result: "i32" }, // cublasLtHandle_t lightHandle
  cublasLtMatmulDescCreate: {
    parameters: [
      "buffer", // cublasLtMatmulDesc_t *matmulDesc
      "i32", // cublasComputeType_t computeType
      "i32", // cudaDataType_t scaleType
    ],
    result: "i32",
  },
  cublasLtMatmulDescDestroy: { parameters: ["pointer"], result: "i32" }, // cublasLtMatmulDesc_t matmulDesc
  cublasLtMatmulDescSetAttribute: {
    parameters: [
      "pointer", // cublasLtMatmulDesc_t matmulDesc
      "i32", // cublasLtMatmulDescAttributes_t attr
      "buffer", // const void *buf
      "usize", // size_t sizeInBytes
    ],
    result: "i32",
  },
  cublasLtMatrixLayoutCreate: {
    parameters: [
      "buffer", // cublasLtMatrixLayout_t *matLayout
      "i32", // cudaDataType type
      "u64", // uint64_t rows
      "u64", // uint64_t cols
      "i64", // int64_t ld
    ],
    result: "i32",
  },
  cublasLtMatrixLayoutDestroy: { parameters: ["pointer"], result: "i32" }, // cublasLtMatrixLayout_t matLayout
  cublasLtMatrixLayoutSetAttribute: {
    parameters: [
      "pointer", // cublasLtMatrixLayout_t matLayout
      "i32", // cublasLtMatrixLayoutAttribute_t attr
      "buffer", // const void *buf
      "usize", // size_t sizeInBytes
    ],
    result: "i32",
  },
  cublasLtMatmulPreferenceCreate: { parameters: ["buffer"], result: "i32" }, // cublasLtMatmulPreference_t *pref
  cublasLtMatmulPreferenceDestroy: { parameters: ["pointer"], result: "i32" }, // cublasLtMatmulPreference_t pref
  cublasLtMatmulPreferenceSetAttribute: {
    parameters: [
      "pointer", // cublasLtMatmulPreference_t pref
      "i32", // cublasLtMatmulPreferenceAttributes_t attr
      "buffer", // const void *buf
      "usize", // size_t sizeInBytes
    ],
    result: "i32",
  },
  cublasLtMatmulAlgoGetHeuristic: {
    parameters: [
      "pointer", // cublasLtHandle_t lightHandle
      "pointer", // cublasLtMatmulDesc_t operationDesc
      "pointer", // cublasLtMatrixLayout_t Adesc
      "pointer", // cublasLtMatrixLayout_t Bdesc
      "pointer", // cublasLtMatrixLayout_t Cdesc
      "pointer", // cublasLtMatrixLayout_t Ddesc
      "pointer", // cublasLtMatmulPreference_t preference
      "i32", // int requestedAlgoCount
      "buffer", // cublasLtMatmulHeuristicResult_t heuristicResultsArray[]
      "buffer", // int *returnAlgoCount
    ],
    result: "i32",
  },
  cublasLtMatmul: {
    parameters: [
      "pointer", // cublasLtHandle_t lightHandle
      "pointer", // cublasLtMatmulDesc_t computeDesc
      "buffer", // const void *alpha (host pointer mode)
      "u64", // const void *A
      "pointer", // cublasLtMatrixLayout_t Adesc
      "u64", // const void *B
      "pointer", // cublasLtMatrixLayout_t Bdesc
      "buffer", // const void *beta (host pointer mode)
      "u64", // const void *C
      "pointer", // cublasLtMatrixLayout_t Cdesc
      "u64", // void *D
      "pointer", // cublasLtMatrixLayout_t Ddesc
      "buffer", // const cublasLtMatmulAlgo_t *algo
      "u64", // void *workspace (a device address)
      "usize", // size_t workspaceSizeInBytes
      "pointer", // cudaStream_t stream
    ],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** `cublasLtMatmulDescAttributes_t`: `cublasOperation_t` of A (`int32_t`). */
export const CUBLASLT_MATMUL_DESC_TRANSA = 3;
/** `cublasLtMatmulDescAttributes_t`: `cublasOperation_t` of B (`int32_t`). */
export const CUBLASLT_MATMUL_DESC_TRANSB = 4;
/** `cublasLtMatmulDescAttributes_t`: the `cublasLtEpilogue_t` (`uint32_t`). */
export const CUBLASLT_MATMUL_DESC_EPILOGUE = 7;
/** `cublasLtMatmulDescAttributes_t`: the bias vector's device address (`const void *`). */
export const CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8;

/** `cublasLtMatrixLayoutAttribute_t`: how many products of the batch (`int32_t`). */
export const CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5;
/** `cublasLtMatrixLayoutAttribute_t`: elements between one matrix of the batch and the next (`int64_t`). */
export const CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6;

/** `cublasLtMatmulPreferenceAttributes_t`: the largest workspace an algorithm may use (`uint64_t`). */
export const CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1;
/** `cublasLtMatmulPreferenceAttributes_t`: the alignment of A's address, in bytes (`uint32_t`). */
export const CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5;
/** `cublasLtMatmulPreferenceAttributes_t`: the alignment of B's address, in bytes (`uint32_t`). */
export const CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6;
/** `cublasLtMatmulPreferenceAttributes_t`: the alignment of C's address, in bytes (`uint32_t`). */
export const CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7;
/** `cublasLtMatmulPreferenceAttributes_t`: the alignment of D's address, in bytes (`uint32_t`). */
export const CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8;

/** `cublasLtEpilogue_t`: scale only. */
export const CUBLASLT_EPILOGUE_DEFAULT = 1;
/** `cublasLtEpilogue_t`: `max(x, 0)`. */
export const CUBLASLT_EPILOGUE_RELU = 2;
/** `cublasLtEpilogue_t`: add the bias vector (one value per row of D). */
export const CUBLASLT_EPILOGUE_BIAS = 4;
/** `cublasLtEpilogue_t`: add the bias, then `max(x, 0)`. */
export const CUBLASLT_EPILOGUE_RELU_BIAS = 6;
/** `cublasLtEpilogue_t`: GELU (the tanh approximation). */
export const CUBLASLT_EPILOGUE_GELU = 32;
/** `cublasLtEpilogue_t`: add the bias, then GELU. */
export const CUBLASLT_EPILOGUE_GELU_BIAS = 36;

/** Bytes of a `cublasLtMatmulHeuristicResult_t`: the algorithm (64), `workspaceSize`, `state`, `wavesCount`, `reserved[4]`. */
export const HEURISTIC_RESULT_BYTES = 96;
/** Bytes of a `cublasLtMatmulAlgo_t` (`uint64_t data[8]`), the first field of a heuristic result. */
export const ALGO_BYTES = 64;
/** Offset of `state` (`cublasStatus_t`) in a heuristic result. */
export const HEURISTIC_STATE_OFFSET = 72;

/**
 * Where to find cuBLASLt on `os`: `libcublasLt.so.13`/`.12` (Linux), `cublasLt64_13.dll`/`cublasLt64_12.dll`
 * (Windows), in the folders cuBLAS is looked for in.
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { cublasLtSpec } from "./cublaslt.ts";
 * console.log(candidatePaths(cublasLtSpec("linux"))[0]); // "libcublasLt.so.13"
 * ```
 */
export function cublasLtSpec(os: HostOS = Deno.build.os): LibrarySpec<typeof CUBLASLT_SYMBOLS> {
  const windows = os === "windows";
  const sonames = windows
    ? ["cublasLt64_13.dll", "cublasLt64_12.dll"]
    : ["libcublasLt.so.13", "libcublasLt.so.12"];
  return {
    what: `cuBLASLt (${sonames.join(" or ")})`,
    env: "CUDENO_LIBCUBLASLT",
    sonames,
    dirs: [
      ...cudaToolkitDirs(os),
      ...pythonWheelDirs(
        { linux: ["cu13/lib", "cublas/lib"], windows: ["cu13\\bin\\x86_64", "cublas\\bin"] },
        os,
      ),
      ...(windows ? [] : ["/usr/lib/x86_64-linux-gnu"]),
    ],
    os,
    reject: (path) => (path.includes("/stubs/") ? "a link-time stub, not cuBLASLt" : undefined),
    hint: "install the CUDA toolkit's cuBLAS (apt: libcublas-13-0; pip: nvidia-cublas) or set CUDA_HOME",
    symbols: CUBLASLT_SYMBOLS,
  };
}

/** cuBLASLt, opened on first use. */
export const libcublasLt: LazyLibrary<typeof CUBLASLT_SYMBOLS> = new LazyLibrary(() => cublasLtSpec());
