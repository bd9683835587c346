/**
 * The CUDA driver API (`libcuda.so.1`): the symbols cudeno binds, under their exact exported names
 * (the `_v2` ABIs with 64-bit device pointers), and where to find the library.
 *
 * Types: handles (`CUcontext`, `CUmodule`, `CUfunction`, `CUstream`, `CUevent`) are `"pointer"`;
 * `CUdeviceptr` is `"u64"` and `size_t` is `"usize"`, both passed as bigint; out-parameters are
 * `"buffer"` (a typed array of one element).
 *
 * @module
 */

import { type HostOS, LazyLibrary, type LibrarySpec, windowsSystemDir } from "./load.ts";

/** The driver API functions cudeno calls synchronously. */
export const CUDA_SYMBOLS = {
  cuInit: { parameters: ["u32"], result: "i32" }, // unsigned int Flags
  cuDriverGetVersion: { parameters: ["buffer"], result: "i32" }, // int *driverVersion
  cuGetErrorName: { parameters: ["i32", "buffer"], result: "i32" }, // CUresult, const char **pStr
  cuGetErrorString: { parameters: ["i32", "buffer"], result: "i32" }, // CUresult, const char **pStr

  cuDeviceGetCount: { parameters: ["buffer"], result: "i32" }, // int *count
  cuDeviceGet: { parameters: ["buffer", "i32"], result: "i32" }, // CUdevice *device, int ordinal
  cuDeviceGetName: { parameters: ["buffer", "i32", "i32"], result: "i32" }, // char *name, int len, CUdevice
  cuDeviceGetAttribute: { parameters: ["buffer", "i32", "i32"], result: "i32" }, // int *pi, CUdevice_attribute, CUdevice
  cuDeviceTotalMem_v2: { parameters: ["buffer", "i32"], result: "i32" }, // size_t *bytes, CUdevice
  cuDeviceGetUuid_v2: { parameters: ["buffer", "i32"], result: "i32" }, // CUuuid *uuid, CUdevice
  cuDeviceGetPCIBusId: { parameters: ["buffer", "i32", "i32"], result: "i32" }, // char *pciBusId, int len, CUdevice
  cuDeviceCanAccessPeer: { parameters: ["buffer", "i32", "i32"], result: "i32" }, // int *canAccessPeer, CUdevice dev, CUdevice peerDev

  cuDevicePrimaryCtxRetain: { parameters: ["buffer", "i32"], result: "i32" }, // CUcontext *pctx, CUdevice
  cuDevicePrimaryCtxRelease_v2: { parameters: ["i32"], result: "i32" }, // CUdevice
  cuDevicePrimaryCtxReset_v2: { parameters: ["i32"], result: "i32" }, // CUdevice
  cuCtxSetCurrent: { parameters: ["pointer"], result: "i32" }, // CUcontext
  cuCtxGetCurrent: { parameters: ["buffer"], result: "i32" }, // CUcontext *pctx
  cuCtxSynchronize: { parameters: [], result: "i32" },
  cuCtxEnablePeerAccess: { parameters: ["pointer", "u32"], result: "i32" }, // CUcontext peerContext, unsigned int Flags
  cuCtxDisablePeerAccess: { parameters: ["pointer"], result: "i32" }, // CUcontext peerContext

  cuMemGetInfo_v2: { parameters: ["buffer", "buffer"], result: "i32" }, // size_t *free, size_t *total
  cuMemAlloc_v2: { parameters: ["buffer", "usize"], result: "i32" }, // CUdeviceptr *dptr, size_t bytesize
  cuMemFree_v2: { parameters: ["u64"], result: "i32" }, // CUdeviceptr dptr
  cuMemAllocAsync: { parameters: ["buffer", "usize", "pointer"], result: "i32" }, // CUdeviceptr *dptr, size_t bytesize, CUstream hStream
  cuMemFreeAsync: { parameters: ["u64", "pointer"], result: "i32" }, // CUdeviceptr dptr, CUstream hStream
  cuDeviceGetDefaultMemPool: { parameters: ["buffer", "i32"], result: "i32" }, // CUmemoryPool *pool_out, CUdevice dev
  cuMemPoolSetAttribute: { parameters: ["pointer", "i32", "buffer"], result: "i32" }, // CUmemoryPool pool, CUmemPool_attribute attr, void *value
  cuMemPoolGetAttribute: { parameters: ["pointer", "i32", "buffer"], result: "i32" }, // CUmemoryPool pool, CUmemPool_attribute attr, void *value
  cuMemPoolTrimTo: { parameters: ["pointer", "usize"], result: "i32" }, // CUmemoryPool pool, size_t minBytesToKeep
  cuMemAllocHost_v2: { parameters: ["buffer", "usize"], result: "i32" }, // void **pp, size_t bytesize
  cuMemFreeHost: { parameters: ["pointer"], result: "i32" }, // void *p
  cuMemcpyHtoD_v2: { parameters: ["u64", "buffer", "usize"], result: "i32" }, // CUdeviceptr dst, const void *src, size_t
  cuMemcpyDtoH_v2: { parameters: ["buffer", "u64", "usize"], result: "i32" }, // void *dst, CUdeviceptr src, size_t
  cuMemcpyDtoD_v2: { parameters: ["u64", "u64", "usize"], result: "i32" }, // CUdeviceptr dst, CUdeviceptr src, size_t
  cuMemcpyHtoDAsync_v2: { parameters: ["u64", "buffer", "usize", "pointer"], result: "i32" }, // dst, const void *src, size_t, CUstream
  cuMemcpyDtoHAsync_v2: { parameters: ["buffer", "u64", "usize", "pointer"], result: "i32" }, // void *dst, src, size_t, CUstream
  cuMemcpyDtoDAsync_v2: { parameters: ["u64", "u64", "usize", "pointer"], result: "i32" }, // dst, src, size_t, CUstream
  cuMemcpyPeer: { parameters: ["u64", "pointer", "u64", "pointer", "usize"], result: "i32" }, // dst, CUcontext dstCtx, src, CUcontext srcCtx, size_t
  cuMemcpyPeerAsync: { parameters: ["u64", "pointer", "u64", "pointer", "usize", "pointer"], result: "i32" }, // ..., CUstream
  cuMemsetD8_v2: { parameters: ["u64", "u8", "usize"], result: "i32" }, // CUdeviceptr, unsigned char uc, size_t N
  cuMemsetD16_v2: { parameters: ["u64", "u16", "usize"], result: "i32" }, // CUdeviceptr, unsigned short us, size_t N
  cuMemsetD32_v2: { parameters: ["u64", "u32", "usize"], result: "i32" }, // CUdeviceptr, unsigned int ui, size_t N
  cuMemsetD8Async: { parameters: ["u64", "u8", "usize", "pointer"], result: "i32" }, // ..., CUstream
  cuMemsetD16Async: { parameters: ["u64", "u16", "usize", "pointer"], result: "i32" }, // ..., CUstream
  cuMemsetD32Async: { parameters: ["u64", "u32", "usize", "pointer"], result: "i32" }, // ..., CUstream

  cuModuleLoadDataEx: { parameters: ["buffer", "buffer", "u32", "buffer", "buffer"], result: "i32" }, // CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options, void **optionValues
  cuModuleUnload: { parameters: ["pointer"], result: "i32" }, // CUmodule
  cuModuleGetFunction: { parameters: ["buffer", "pointer", "buffer"], result: "i32" }, // CUfunction *hfunc, CUmodule, const char *name
  cuModuleGetGlobal_v2: { parameters: ["buffer", "buffer", "pointer", "buffer"], result: "i32" }, // CUdeviceptr *dptr, size_t *bytes, CUmodule, const char *name
  cuFuncGetAttribute: { parameters: ["buffer", "i32", "pointer"], result: "i32" }, // int *pi, CUfunction_attribute, CUfunction
  cuFuncSetAttribute: { parameters: ["pointer", "i32", "i32"], result: "i32" }, // CUfunction, CUfunction_attribute, int value
  cuFuncGetParamInfo: { parameters: ["pointer", "usize", "buffer", "buffer"], result: "i32", optional: true }, // CUfunction, size_t paramIndex, size_t *paramOffset, size_t *paramSize (12.4+)
  cuLaunchKernel: {
    // CUfunction f, unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
    // unsigned sharedMemBytes, CUstream hStream, void **kernelParams, void **extra
    parameters: ["pointer", "u32", "u32", "u32", "u32", "u32", "u32", "u32", "pointer", "buffer", "pointer"],
    result: "i32",
  },

  cuStreamCreate: { parameters: ["buffer", "u32"], result: "i32" }, // CUstream *phStream, unsigned int Flags
  cuStreamDestroy_v2: { parameters: ["pointer"], result: "i32" }, // CUstream
  cuStreamSynchronize: { parameters: ["pointer"], result: "i32" }, // CUstream
  cuStreamQuery: { parameters: ["pointer"], result: "i32" }, // CUstream
  cuStreamWaitEvent: { parameters: ["pointer", "pointer", "u32"], result: "i32" }, // CUstream, CUevent, unsigned int Flags

  cuEventCreate: { parameters: ["buffer", "u32"], result: "i32" }, // CUevent *phEvent, unsigned int Flags
  cuEventDestroy_v2: { parameters: ["pointer"], result: "i32" }, // CUevent
  cuEventRecord: { parameters: ["pointer", "pointer"], result: "i32" }, // CUevent, CUstream
  cuEventQuery: { parameters: ["pointer"], result: "i32" }, // CUevent
  cuEventSynchronize: { parameters: ["pointer"], result: "i32" }, // CUevent
  cuEventElapsedTime_v2: { parameters: ["buffer", "pointer", "pointer"], result: "i32", optional: true }, // float *pMilliseconds, CUevent hStart, CUevent hEnd (12.8+)
  cuEventElapsedTime: { parameters: ["buffer", "pointer", "pointer"], result: "i32", optional: true }, // the same, older drivers

  // Stream capture. cuStreamGetCaptureInfo_v2 is what CUDA 12's headers call cuStreamGetCaptureInfo
  // (CUDA 13's headers moved the name to _v3, 12.3+; drivers keep exporting _v2 for CUDA 12 programs).
  cuStreamBeginCapture_v2: { parameters: ["pointer", "i32"], result: "i32" }, // CUstream hStream, CUstreamCaptureMode mode
  cuStreamEndCapture: { parameters: ["pointer", "buffer"], result: "i32" }, // CUstream hStream, CUgraph *phGraph
  cuStreamIsCapturing: { parameters: ["pointer", "buffer"], result: "i32" }, // CUstream hStream, CUstreamCaptureStatus *captureStatus
  cuStreamGetCaptureInfo_v2: {
    // CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out, CUgraph *graph_out,
    // const CUgraphNode **dependencies_out, size_t *numDependencies_out (all but the status may be NULL)
    parameters: ["pointer", "buffer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },

  // Graphs: building, instantiating, launching. Structs are passed by pointer as "buffer"s.
  cuGraphCreate: { parameters: ["buffer", "u32"], result: "i32" }, // CUgraph *phGraph, unsigned int flags
  cuGraphDestroy: { parameters: ["pointer"], result: "i32" }, // CUgraph hGraph
  cuGraphGetNodes: { parameters: ["pointer", "buffer", "buffer"], result: "i32" }, // CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes
  cuGraphAddKernelNode_v2: {
    // CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies,
    // const CUDA_KERNEL_NODE_PARAMS *nodeParams (the _v2 struct, 72 bytes)
    parameters: ["buffer", "pointer", "buffer", "usize", "buffer"],
    result: "i32",
  },
  cuGraphAddMemcpyNode: {
    // CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies,
    // const CUDA_MEMCPY3D *copyParams (200 bytes), CUcontext ctx
    parameters: ["buffer", "pointer", "buffer", "usize", "buffer", "pointer"],
    result: "i32",
  },
  cuGraphAddMemsetNode: {
    // CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t numDependencies,
    // const CUDA_MEMSET_NODE_PARAMS *memsetParams (40 bytes), CUcontext ctx
    parameters: ["buffer", "pointer", "buffer", "usize", "buffer", "pointer"],
    result: "i32",
  },
  cuGraphAddDependencies: { parameters: ["pointer", "buffer", "buffer", "usize"], result: "i32" }, // CUgraph hGraph, const CUgraphNode *from, const CUgraphNode *to, size_t numDependencies
  cuGraphInstantiateWithFlags: { parameters: ["buffer", "pointer", "u64"], result: "i32" }, // CUgraphExec *phGraphExec, CUgraph hGraph, unsigned long long flags
  cuGraphExecDestroy: { parameters: ["pointer"], result: "i32" }, // CUgraphExec hGraphExec
  cuGraphLaunch: { parameters: ["pointer", "pointer"], result: "i32" }, // CUgraphExec hGraphExec, CUstream hStream
  cuGraphUpload: { parameters: ["pointer", "pointer"], result: "i32" }, // CUgraphExec hGraphExec, CUstream hStream
  cuGraphExecUpdate_v2: { parameters: ["pointer", "pointer", "buffer"], result: "i32" }, // CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo (24 bytes)
  cuGraphExecKernelNodeSetParams_v2: { parameters: ["pointer", "pointer", "buffer"], result: "i32" }, // CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS *nodeParams
} as const satisfies Deno.ForeignLibraryInterface;

/**
 * The waits cudeno awaits without blocking Deno's event loop: the same exported functions, bound as
 * `nonblocking` so they run on a worker thread and return a Promise. They take a stream or event
 * handle and need no current context on that thread.
 */
export const CUDA_WAIT_SYMBOLS = {
  cuStreamSynchronize: { parameters: ["pointer"], result: "i32", nonblocking: true }, // CUstream (never NULL here)
  cuEventSynchronize: { parameters: ["pointer"], result: "i32", nonblocking: true }, // CUevent
} as const satisfies Deno.ForeignLibraryInterface;

const DRIVER_DIRS = [
  "/usr/lib/x86_64-linux-gnu",
  "/usr/lib/aarch64-linux-gnu",
  "/usr/lib64",
  "/usr/local/nvidia/lib64",
  "/usr/lib/wsl/lib",
];

/**
 * Where to find the CUDA driver on `os`: `libcuda.so.1` (Linux, WSL), `nvcuda.dll` in System32 (Windows).
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { driverSpec } from "./cuda.ts";
 * console.log(candidatePaths(driverSpec({}, "windows"))); // ["nvcuda.dll", "C:\\Windows\\System32\\nvcuda.dll"]
 * ```
 */
export function driverSpec<S extends Deno.ForeignLibraryInterface>(
  symbols: S,
  os: HostOS = Deno.build.os,
): LibrarySpec<S> {
  const windows = os === "windows";
  return {
    what: `the CUDA driver (${windows ? "nvcuda.dll" : "libcuda.so.1"})`,
    env: "CUDENO_LIBCUDA",
    sonames: windows ? ["nvcuda.dll"] : ["libcuda.so.1"],
    dirs: windows ? [windowsSystemDir()] : DRIVER_DIRS,
    os,
    reject: (path) =>
      path.includes("/stubs/")
        ? "a link-time stub, not the driver (cuInit would return CUDA_ERROR_STUB_LIBRARY)"
        : undefined,
    hint: "install NVIDIA's driver (the machine needs an NVIDIA GPU; `nvidia-smi` should list it)",
    symbols,
  };
}

/** The CUDA driver library, opened on first use. */
export const libcuda: LazyLibrary<typeof CUDA_SYMBOLS> = new LazyLibrary(() => driverSpec(CUDA_SYMBOLS));

/** The driver's waiting functions, opened on first use (the same library as {@link libcuda}). */
export const libcudaWait: LazyLibrary<typeof CUDA_WAIT_SYMBOLS> = new LazyLibrary(() => {
  const spec = driverSpec(CUDA_WAIT_SYMBOLS);
  // Open exactly the file the synchronous table came from.
  return { ...spec, sonames: [libcuda.load().path], dirs: [] };
});
