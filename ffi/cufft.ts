/**
 * cuFFT (`libcufft.so.12` of CUDA 13, `.11` of CUDA 12): the symbols cudeno binds for batched 1-D
 * transforms with a caller-provided work area, the constants they take, and where to find the library.
 *
 * Types: a `cufftHandle` is an `int` (`"i32"`), made through an `int *` out-parameter (`"buffer"`);
 * `cudaStream_t` is `"pointer"`; device pointers are `"u64"` (bigint); `long long` extents and
 * strides are `"i64"` (bigint), and the `long long *` arrays of extents a `"buffer"` of a
 * `BigInt64Array`; `size_t *` out-parameters are `"buffer"`; every result is a `cufftResult` (`"i32"`).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** A typed complex-to-complex execution: `cufftExecC2C`, `cufftExecZ2Z`. */
const EXEC_C2C = {
  parameters: [
    "i32", // cufftHandle plan
    "u64", // cufftComplex *idata (cufftDoubleComplex * for Z2Z)
    "u64", // cufftComplex *odata
    "i32", // int direction (CUFFT_FORWARD or CUFFT_INVERSE)
  ],
  result: "i32",
} as const;

/** A typed real/complex execution: `cufftExecR2C`, `cufftExecC2R`, `cufftExecD2Z`, `cufftExecZ2D`. */
const EXEC_REAL = {
  parameters: [
    "i32", // cufftHandle plan
    "u64", // the input (cufftReal * for R2C, cufftComplex * for C2R; the double types for D2Z, Z2D)
    "u64", // the output
  ],
  result: "i32",
} as const;

/** The cuFFT functions cudeno calls. */
export const CUFFT_SYMBOLS = {
  cufftGetVersion: { parameters: ["buffer"], result: "i32" }, // int *version
  cufftCreate: { parameters: ["buffer"], result: "i32" }, // cufftHandle *handle
  cufftDestroy: { parameters: ["i32"], result: "i32" }, // cufftHandle plan
  cufftSetAutoAllocation: { parameters: ["i32", "i32"], result: "i32" }, // cufftHandle plan, int autoAllocate
  cufftSetWorkArea: { parameters: ["i32", "u64"], result: "i32" }, // cufftHandle plan, void *workArea
  cufftSetStream: { parameters: ["i32", "pointer"], result: "i32" }, // cufftHandle plan, cudaStream_t stream
  cufftMakePlanMany64: {
    parameters: [
      "i32", // cufftHandle plan
      "i32", // int rank
      "buffer", // long long int *n
      "buffer", // long long int *inembed
      "i64", // long long int istride
      "i64", // long long int idist
      "buffer", // long long int *onembed
      "i64", // long long int ostride
      "i64", // long long int odist
      "i32", // cufftType type
      "i64", // long long int batch
      "buffer", // size_t *workSize
    ],
    result: "i32",
  },
  cufftExecC2C: EXEC_C2C,
  cufftExecZ2Z: EXEC_C2C,
  cufftExecR2C: EXEC_REAL,
  cufftExecD2Z: EXEC_REAL,
  cufftExecC2R: EXEC_REAL,
  cufftExecZ2D: EXEC_REAL,
} as const satisfies Deno.ForeignLibraryInterface;

/** `cufftType`: single-precision real to complex, complex to real, complex to complex. */
export const CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29;
/** `cufftType`: double-precision real to complex, complex to real, complex to complex. */
export const CUFFT_D2Z = 0x6a, CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69;
/** The `direction` of `cufftExecC2C`/`Z2Z`: `e^(-2πi jk/n)`, or `e^(+2πi jk/n)` (unnormalised). */
export const CUFFT_FORWARD = -1, CUFFT_INVERSE = 1;

/**
 * Where to find cuFFT on `os`: `libcufft.so.12`/`.11`/`libcufft.so` (Linux), `cufft64_12.dll`/`_11.dll`
 * (Windows), in the CUDA toolkit's folders and the `nvidia-cufft` wheels.
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { cufftSpec } from "./cufft.ts";
 * console.log(candidatePaths(cufftSpec("linux"))[0]); // "libcufft.so.12"
 * ```
 */
export function cufftSpec(os: HostOS = Deno.build.os): LibrarySpec<typeof CUFFT_SYMBOLS> {
  const windows = os === "windows";
  const sonames = windows
    ? ["cufft64_12.dll", "cufft64_11.dll"]
    : ["libcufft.so.12", "libcufft.so.11", "libcufft.so"];
  return {
    what: `cuFFT (${sonames.join(" or ")})`,
    env: "CUDENO_LIBCUFFT",
    sonames,
    dirs: [
      ...cudaToolkitDirs(os),
      ...pythonWheelDirs(
        { linux: ["cu13/lib", "cufft/lib"], windows: ["cu13\\bin\\x86_64", "cufft\\bin"] },
        os,
      ),
      ...(windows ? [] : ["/usr/lib/x86_64-linux-gnu"]),
    ],
    os,
    reject: (path) => (path.includes("/stubs/") ? "a link-time stub, not cuFFT" : undefined),
    hint: "install the CUDA toolkit's cuFFT (apt: libcufft-13-0; pip: nvidia-cufft) or set CUDA_HOME",
    symbols: CUFFT_SYMBOLS,
  };
}

/** cuFFT, opened on first use. */
export const libcufft: LazyLibrary<typeof CUFFT_SYMBOLS> = new LazyLibrary(() => cufftSpec());
