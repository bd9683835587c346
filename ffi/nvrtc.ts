/**
 * NVRTC, NVIDIA's runtime compiler for CUDA C++ (`libnvrtc.so.13` or `.12`): the symbols cudeno binds
 * and where to find the library. `nvrtcProgram` handles are `"pointer"`; every result is an
 * `nvrtcResult` (`"i32"`).
 *
 * @module
 */

import { cudaToolkitDirs, type HostOS, LazyLibrary, type LibrarySpec, pythonWheelDirs } from "./load.ts";

/** The NVRTC functions cudeno calls. */
export const NVRTC_SYMBOLS = {
  nvrtcVersion: { parameters: ["buffer", "buffer"], result: "i32" }, // int *major, int *minor
  nvrtcGetNumSupportedArchs: { parameters: ["buffer"], result: "i32" }, // int *numArchs
  nvrtcGetSupportedArchs: { parameters: ["buffer"], result: "i32" }, // int *supportedArchs
  nvrtcGetErrorString: { parameters: ["i32"], result: "pointer" }, // nvrtcResult → const char *
  nvrtcCreateProgram: {
    // nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
    // const char * const *headers, const char * const *includeNames
    parameters: ["buffer", "buffer", "buffer", "i32", "buffer", "buffer"],
    result: "i32",
  },
  nvrtcDestroyProgram: { parameters: ["buffer"], result: "i32" }, // nvrtcProgram *prog
  nvrtcCompileProgram: { parameters: ["pointer", "i32", "buffer"], result: "i32" }, // prog, int numOptions, const char * const *options
  nvrtcGetProgramLogSize: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, size_t *logSizeRet
  nvrtcGetProgramLog: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, char *log
  nvrtcGetPTXSize: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, size_t *ptxSizeRet
  nvrtcGetPTX: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, char *ptx
  nvrtcGetCUBINSize: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, size_t *cubinSizeRet
  nvrtcGetCUBIN: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, char *cubin
  nvrtcAddNameExpression: { parameters: ["pointer", "buffer"], result: "i32" }, // prog, const char *name_expression
  nvrtcGetLoweredName: { parameters: ["pointer", "buffer", "buffer"], result: "i32" }, // prog, const char *name_expression, const char **lowered_name
} as const satisfies Deno.ForeignLibraryInterface;

/** `nvrtcCompileProgram` bound `nonblocking`: it needs no CUDA context and can take hundreds of ms. */
export const NVRTC_COMPILE_SYMBOLS = {
  nvrtcCompileProgram: { parameters: ["pointer", "i32", "buffer"], result: "i32", nonblocking: true }, // prog, int numOptions, const char * const *options
} as const satisfies Deno.ForeignLibraryInterface;

/**
 * Where to find NVRTC on `os`: `libnvrtc.so.13`/`.12` (Linux), `nvrtc64_130_0.dll`/`nvrtc64_120_0.dll`
 * (Windows), in the toolkit's folders and NVIDIA's Python wheels.
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { nvrtcSpec } from "./nvrtc.ts";
 * console.log(candidatePaths(nvrtcSpec({}, "windows"))[0]); // "nvrtc64_130_0.dll"
 * ```
 */
export function nvrtcSpec<S extends Deno.ForeignLibraryInterface>(
  symbols: S,
  os: HostOS = Deno.build.os,
): LibrarySpec<S> {
  const windows = os === "windows";
  const sonames = windows ? ["nvrtc64_130_0.dll", "nvrtc64_120_0.dll"] : ["libnvrtc.so.13", "libnvrtc.so.12"];
  return {
    what: `NVRTC (${sonames.join(" or ")})`,
    env: "CUDENO_LIBNVRTC",
    sonames,
    dirs: [
      ...cudaToolkitDirs(os),
      ...pythonWheelDirs({
        linux: ["cu13/lib", "cuda_nvrtc/lib"],
        windows: ["cu13\\bin\\x86_64", "cuda_nvrtc\\bin"],
      }, os),
      ...(windows ? [] : ["/usr/lib/x86_64-linux-gnu"]),
    ],
    os,
    preload: [windows ? "nvrtc-builtins64_" : "libnvrtc-builtins.so."],
    reject: (path) => (path.includes("/stubs/") ? "a link-time stub, not the compiler" : undefined),
    hint: "install the CUDA toolkit's NVRTC (apt: cuda-nvrtc-13-0; pip: nvidia-cuda-nvrtc) or set CUDA_HOME",
    symbols,
  };
}

/** NVRTC, opened on first use. */
export const libnvrtc: LazyLibrary<typeof NVRTC_SYMBOLS> = new LazyLibrary(() => nvrtcSpec(NVRTC_SYMBOLS));

/** NVRTC's compile entry point bound nonblocking, opened from the same file as {@link libnvrtc}. */
export const libnvrtcCompile: LazyLibrary<typeof NVRTC_COMPILE_SYMBOLS> = new LazyLibrary(() => ({
  ...nvrtcSpec(NVRTC_COMPILE_SYMBOLS),
  sonames: [libnvrtc.load().path],
  dirs: [],
}));
