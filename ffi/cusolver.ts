/**
 * cuSOLVER's dense API (`libcusolver.so.12` of CUDA 13, `.11` of CUDA 12): the symbols cudeno binds
 * for factorizations and decompositions, the constants they take, and where to find the library.
 *
 * Types: `cusolverDnHandle_t`, `cusolverDnParams_t` and `cudaStream_t` are `"pointer"`; device
 * pointers are `"u64"` (bigint); `int64_t` extents are `"i64"` (bigint); `size_t` workspace sizes
 * `"usize"` (bigint); out-parameters on the host (`size_t *`, `int *`) and host workspaces are
 * `"buffer"`; every result is a `cusolverStatus_t` (`"i32"`). The 64-bit generic functions
 * (`cusolverDnX*`) take the element type as a `cudaDataType` (`CUDA_R_32F`, `CUDA_R_64F` of
 * `cublas.ts`, and `CUDA_C_32F`, `CUDA_C_64F` for complex64 and complex128); `orgqr` has only the
 * typed legacy form (`cusolverDnSorgqr`, `cusolverDnDorgqr`, and `cusolverDnCungqr`, `cusolverDnZungqr`
 * for complex matrices, whose Q is unitary).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** The `_bufferSize` query of a typed `orgqr`. */
const ORGQR_BUFFER_SIZE = {
  parameters: [
    "pointer", // cusolverDnHandle_t handle
    "i32", // int m
    "i32", // int n
    "i32", // int k
    "u64", // const float *A (double *, cuComplex *, cuDoubleComplex * for D, C, Z)
    "i32", // int lda
    "u64", // const float *tau (the element type of A)
    "buffer", // int *lwork (elements)
  ],
  result: "i32",
} as const;

/** A typed `orgqr`. */
const ORGQR = {
  parameters: [
    "pointer", // cusolverDnHandle_t handle
    "i32", // int m
    "i32", // int n
    "i32", // int k
    "u64", // float *A (double *, cuComplex *, cuDoubleComplex * for D, C, Z)
    "i32", // int lda
    "u64", // const float *tau (the element type of A)
    "u64", // float *work (the element type of A)
    "i32", // int lwork
    "u64", // int *devInfo
  ],
  result: "i32",
} as const;

/** The cuSOLVER functions cudeno calls. */
export const CUSOLVER_SYMBOLS = {
  cusolverDnCreate: { parameters: ["buffer"], result: "i32" }, // cusolverDnHandle_t *handle
  cusolverDnDestroy: { parameters: ["pointer"], result: "i32" }, // cusolverDnHandle_t handle
  cusolverDnSetStream: { parameters: ["pointer", "pointer"], result: "i32" }, // cusolverDnHandle_t handle, cudaStream_t streamId
  cusolverDnCreateParams: { parameters: ["buffer"], result: "i32" }, // cusolverDnParams_t *params
  cusolverDnDestroyParams: { parameters: ["pointer"], result: "i32" }, // cusolverDnParams_t params
  cusolverDnXgetrf_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXgetrf: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "u64", // int64_t *ipiv
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
  },
  cusolverDnXgetrs: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cublasOperation_t trans
      "i64", // int64_t n
      "i64", // int64_t nrhs
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "u64", // const int64_t *ipiv
      "i32", // cudaDataType dataTypeB
      "u64", // void *B
      "i64", // int64_t ldb
      "u64", // int *info
    ],
    result: "i32",
  },
  cusolverDnXpotrf_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXpotrf: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
  },
  cusolverDnXgeqrf_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeTau
      "u64", // const void *tau
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXgeqrf: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeTau
      "u64", // void *tau
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
  },
  cusolverDnSorgqr_bufferSize: ORGQR_BUFFER_SIZE,
  cusolverDnDorgqr_bufferSize: ORGQR_BUFFER_SIZE,
  cusolverDnSorgqr: ORGQR,
  cusolverDnDorgqr: ORGQR,
  cusolverDnCungqr_bufferSize: ORGQR_BUFFER_SIZE,
  cusolverDnZungqr_bufferSize: ORGQR_BUFFER_SIZE,
  cusolverDnCungqr: ORGQR,
  cusolverDnZungqr: ORGQR,
  cusolverDnXgesvd_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i8", // signed char jobu
      "i8", // signed char jobvt
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeS
      "u64", // const void *S
      "i32", // cudaDataType dataTypeU
      "u64", // const void *U
      "i64", // int64_t ldu
      "i32", // cudaDataType dataTypeVT
      "u64", // const void *VT
      "i64", // int64_t ldvt
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXgesvd: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i8", // signed char jobu
      "i8", // signed char jobvt
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeS
      "u64", // void *S
      "i32", // cudaDataType dataTypeU
      "u64", // void *U
      "i64", // int64_t ldu
      "i32", // cudaDataType dataTypeVT
      "u64", // void *VT
      "i64", // int64_t ldvt
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
  },
  cusolverDnXgesvdp_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // int econ
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeS
      "u64", // void *S
      "i32", // cudaDataType dataTypeU
      "u64", // void *U
      "i64", // int64_t ldu
      "i32", // cudaDataType dataTypeV
      "u64", // void *V
      "i64", // int64_t ldv
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXgesvdp: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // int econ
      "i64", // int64_t m
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeS
      "u64", // void *S
      "i32", // cudaDataType dataTypeU
      "u64", // void *U
      "i64", // int64_t ldu
      "i32", // cudaDataType dataTypeV
      "u64", // void *V
      "i64", // int64_t ldv
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *d_info
      "buffer", // double *h_err_sigma
    ],
    result: "i32",
  },
  cusolverDnXsyevd_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // const void *W
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
  },
  cusolverDnXsyevd: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // void *W
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
  },
  // cusolverDnXsyevBatched and Xgeev came with cuSOLVER 11.7 (CUDA 12.6): optional, so an older library
  // still loads.
  cusolverDnXsyevBatched_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // const void *W
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
      "i64", // int64_t batchSize
    ],
    result: "i32",
    optional: true,
  },
  cusolverDnXsyevBatched: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobz
      "i32", // cublasFillMode_t uplo
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // void *W
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
      "i64", // int64_t batchSize
    ],
    result: "i32",
    optional: true,
  },
  cusolverDnXgeev_bufferSize: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobvl
      "i32", // cusolverEigMode_t jobvr
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // const void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // const void *W
      "i32", // cudaDataType dataTypeVL
      "u64", // const void *VL
      "i64", // int64_t ldvl
      "i32", // cudaDataType dataTypeVR
      "u64", // const void *VR
      "i64", // int64_t ldvr
      "i32", // cudaDataType computeType
      "buffer", // size_t *workspaceInBytesOnDevice
      "buffer", // size_t *workspaceInBytesOnHost
    ],
    result: "i32",
    optional: true,
  },
  cusolverDnXgeev: {
    parameters: [
      "pointer", // cusolverDnHandle_t handle
      "pointer", // cusolverDnParams_t params
      "i32", // cusolverEigMode_t jobvl
      "i32", // cusolverEigMode_t jobvr
      "i64", // int64_t n
      "i32", // cudaDataType dataTypeA
      "u64", // void *A
      "i64", // int64_t lda
      "i32", // cudaDataType dataTypeW
      "u64", // void *W
      "i32", // cudaDataType dataTypeVL
      "u64", // void *VL
      "i64", // int64_t ldvl
      "i32", // cudaDataType dataTypeVR
      "u64", // void *VR
      "i64", // int64_t ldvr
      "i32", // cudaDataType computeType
      "u64", // void *bufferOnDevice
      "usize", // size_t workspaceInBytesOnDevice
      "buffer", // void *bufferOnHost
      "usize", // size_t workspaceInBytesOnHost
      "u64", // int *info
    ],
    result: "i32",
    optional: true,
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** `cublasFillMode_t`: the lower triangle. */
export const CUBLAS_FILL_MODE_LOWER = 0;
/** `cublasFillMode_t`: the upper triangle. */
export const CUBLAS_FILL_MODE_UPPER = 1;
/** `cusolverEigMode_t`: eigenvalues only. */
export const CUSOLVER_EIG_MODE_NOVECTOR = 0;
/** `cusolverEigMode_t`: eigenvalues and eigenvectors. */
export const CUSOLVER_EIG_MODE_VECTOR = 1;

/**
 * Where to find cuSOLVER on `os`: `libcusolver.so.12`/`.11` (Linux), `cusolver64_12.dll`/`_11.dll`
 * (Windows), with the libraries it links opened first from the same folder (nvJitLink, cuSPARSE,
 * cuBLASLt, cuBLAS: it finds them by soname, which a toolkit folder or a wheel outside the linker's
 * path would not satisfy).
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { cusolverSpec } from "./cusolver.ts";
 * console.log(candidatePaths(cusolverSpec("windows"))[0]); // "cusolver64_12.dll"
 * ```
 */
export function cusolverSpec(os: HostOS = Deno.build.os): LibrarySpec<typeof CUSOLVER_SYMBOLS> {
  const windows = os === "windows";
  const sonames = windows
    ? ["cusolver64_12.dll", "cusolver64_11.dll"]
    : ["libcusolver.so.12", "libcusolver.so.11"];
  return {
    what: `cuSOLVER (${sonames.join(" or ")})`,
    env: "CUDENO_LIBCUSOLVER",
    sonames,
    dirs: [
      ...cudaToolkitDirs(os),
      ...pythonWheelDirs(
        { linux: ["cu13/lib", "cusolver/lib"], windows: ["cu13\\bin\\x86_64", "cusolver\\bin"] },
        os,
      ),
      ...(windows ? [] : ["/usr/lib/x86_64-linux-gnu"]),
    ],
    os,
    preload: windows
      ? ["nvJitLink_", "cusparse64_", "cublasLt64_", "cublas64_"]
      : ["libnvJitLink.so.", "libcusparse.so.", "libcublasLt.so.", "libcublas.so."],
    reject: (path) => (path.includes("/stubs/") ? "a link-time stub, not cuSOLVER" : undefined),
    hint:
      "install the CUDA toolkit's cuSOLVER (apt: libcusolver-13-0; pip: nvidia-cusolver) or set CUDA_HOME",
    symbols: CUSOLVER_SYMBOLS,
  };
}

/** cuSOLVER, opened on first use. */
export const libcusolver: LazyLibrary<typeof CUSOLVER_SYMBOLS> = new LazyLibrary(() => cusolverSpec());
