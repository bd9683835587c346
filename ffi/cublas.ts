/**
 * cuBLAS (`libcublas.so.13` or `.12`): the symbols cudeno binds for matrix products, the constants
 * they take, and where to find the library.
 *
 * Types: `cublasHandle_t` and `cudaStream_t` are `"pointer"`; device pointers are `"u64"` (bigint);
 * batch strides (`long long`) are `"i64"`; `alpha` and `beta` are `"buffer"` (a `Float32Array(1)` or
 * `Float64Array(1)`: the handle stays in host pointer mode); every result is a `cublasStatus_t` (`"i32"`).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** The cuBLAS functions cudeno calls. */
export const CUBLAS_SYMBOLS = {
  cublasCreate_v2: { parameters: ["buffer"], result: "i32" }, // cublasHandle_t *handle
  cublasDestroy_v2: { parameters: ["pointer"], result: "i32" }, // cublasHandle_t handle
  cublasGetVersion_v2: { parameters: ["pointer", "buffer"], result: "i32" }, // cublasHandle_t handle, int *version
  cublasSetStream_v2: { parameters: ["pointer", "pointer"], result: "i32" }, // cublasHandle_t handle, cudaStream_t streamId
  cublasGetStatusString: { parameters: ["i32"], result: "pointer" }, // cublasStatus_t status → const char *
  cublasSetMathMode: { parameters: ["pointer", "i32"], result: "i32" }, // cublasHandle_t handle, cublasMath_t mode
  cublasSetWorkspace_v2: {
    parameters: [
      "pointer", // cublasHandle_t handle
      "u64", // void *workspace (a device address)
      "usize", // size_t workspaceSizeInBytes
    ],
    result: "i32",
  },
  cublasSgemm_v2: {
    parameters: [
      "pointer", // cublasHandle_t handle
      "i32", // cublasOperation_t transa
      "i32", // cublasOperation_t transb
      "i32", // int m
      "i32", // int n
      "i32", // int k
      "buffer", // const float *alpha
      "u64", // const float *A
      "i32", // int lda
      "u64", // const float *B
      "i32", // int ldb
      "buffer", // const float *beta
      "u64", // float *C
      "i32", // int ldc
    ],
    result: "i32",
  },
  cublasDgemm_v2: {
    parameters: [
      "pointer", // cublasHandle_t handle
      "i32", // cublasOperation_t transa
      "i32", // cublasOperation_t transb
      "i32", // int m
      "i32", // int n
      "i32", // int k
      "buffer", // const double *alpha
      "u64", // const double *A
      "i32", // int lda
      "u64", // const double *B
      "i32", // int ldb
      "buffer", // const double *beta
      "u64", // double *C
      "i32", // int ldc
    ],
    result: "i32",
  },
  cublasGemmEx: {
    parameters: [
      "pointer", // cublasHandle_t handle
      "i32", // cublasOperation_t transa
      "i32", // cublasOperation_t transb
      "i32", // int m
      "i32", // int n
      "i32", // int k
      "buffer", // const void *alpha
      "u64", // const void *A
      "i32", // cudaDataType Atype
      "i32", // int lda
      "u64", // const void *B
      "i32", // cudaDataType Btype
      "i32", // int ldb
      "buffer", // const void *beta
      "u64", // void *C
      "i32", // cudaDataType Ctype
      "i32", // int ldc
      "i32", // cublasComputeType_t computeType
      "i32", // cublasGemmAlgo_t algo
    ],
    result: "i32",
  },
  cublasGemmStridedBatchedEx: {
    parameters: [
      "pointer", // cublasHandle_t handle
      "i32", // cublasOperation_t transa
      "i32", // cublasOperation_t transb
      "i32", // int m
      "i32", // int n
      "i32", // int k
      "buffer", // const void *alpha
      "u64", // const void *A
      "i32", // cudaDataType Atype
      "i32", // int lda
      "i64", // long long int strideA
      "u64", // const void *B
      "i32", // cudaDataType Btype
      "i32", // int ldb
      "i64", // long long int strideB
      "buffer", // const void *beta
      "u64", // void *C
      "i32", // cudaDataType Ctype
      "i32", // int ldc
      "i64", // long long int strideC
      "i32", // int batchCount
      "i32", // cublasComputeType_t computeType
      "i32", // cublasGemmAlgo_t algo
    ],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** `cudaDataType` values (library_types.h). */
export const CUDA_R_32F = 0;
/** `cudaDataType` of double. */
export const CUDA_R_64F = 1;
/** `cudaDataType` of `__half`. */
export const CUDA_R_16F = 2;
/** `cudaDataType` of `__nv_bfloat16`. */
export const CUDA_R_16BF = 14;
/** `cudaDataType` CUDA_C_32F: complex64 (cuComplex). */
export const CUDA_C_32F = 4;
/** `cudaDataType` CUDA_C_64F: complex128 (cuDoubleComplex). */
export const CUDA_C_64F = 5;
/** `cublasComputeType_t`: accumulate in float, no reduced-precision shortcuts. */
export const CUBLAS_COMPUTE_32F = 68;
/** `cublasComputeType_t`: accumulate in double. */
export const CUBLAS_COMPUTE_64F = 70;
/** `cublasGemmAlgo_t`: let cuBLAS choose. */
export const CUBLAS_GEMM_DEFAULT = -1;
/** `cublasOperation_t`: the matrix as it is, not transposed. */
export const CUBLAS_OP_N = 0;
/** `cublasOperation_t`: the matrix transposed. */
export const CUBLAS_OP_T = 1;
/** `cublasMath_t`: the default math mode (no TF32 tensor-core shortcuts for float). */
export const CUBLAS_DEFAULT_MATH = 0;

/**
 * Where to find cuBLAS on `os`: `libcublas.so.13`/`.12` (Linux), `cublas64_13.dll`/`cublas64_12.dll`
 * (Windows), with cuBLASLt opened first from the same folder.
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { cublasSpec } from "./cublas.ts";
 * console.log(candidatePaths(cublasSpec("windows"))[0]); // "cublas64_13.dll"
 * ```
 */
export function cublasSpec(os: HostOS = Deno.build.os): LibrarySpec<typeof CUBLAS_SYMBOLS> {
  const windows = os === "windows";
  const sonames = windows ? ["cublas64_13.dll", "cublas64_12.dll"] : ["libcublas.so.13", "libcublas.so.12"];
  return {
    what: `cuBLAS (${sonames.join(" or ")})`,
    env: "CUDENO_LIBCUBLAS",
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
    preload: [windows ? "cublasLt64_" : "libcublasLt.so."],
    reject: (path) => (path.includes("/stubs/") ? "a link-time stub, not cuBLAS" : undefined),
    hint: "install the CUDA toolkit's cuBLAS (apt: libcublas-13-0; pip: nvidia-cublas) or set CUDA_HOME",
    symbols: CUBLAS_SYMBOLS,
  };
}

/** cuBLAS, opened on first use. */
export const libcublas: LazyLibrary<typeof CUBLAS_SYMBOLS> = new LazyLibrary(() => cublasSpec());
