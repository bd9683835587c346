/**
 * OpenCL through the ICD loader (`libOpenCL.so.1`): the symbols cudeno binds and where to find the
 * loader. Object handles (`cl_platform_id`, `cl_context`, `cl_mem`, `cl_kernel`, `cl_event`, …) are
 * `"pointer"`; `size_t` is `"usize"` and bitfields such as `cl_device_type` or `cl_mem_flags` are
 * `"u64"`, both passed as bigint. Entry points deprecated since OpenCL 2.0, or only in 1.2+, are
 * `optional`, so a loader of any version opens.
 *
 * @module
 */

import { type HostOS, LazyLibrary, type LibrarySpec, windowsSystemDir } from "./load.ts";

/** The OpenCL functions cudeno calls synchronously. */
export const OPENCL_SYMBOLS = {
  clGetPlatformIDs: { parameters: ["u32", "buffer", "buffer"], result: "i32" }, // cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms
  clGetPlatformInfo: { parameters: ["pointer", "u32", "usize", "buffer", "buffer"], result: "i32" }, // cl_platform_id, cl_platform_info, size_t, void *value, size_t *size_ret
  clGetDeviceIDs: { parameters: ["pointer", "u64", "u32", "buffer", "buffer"], result: "i32" }, // cl_platform_id, cl_device_type, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices
  clGetDeviceInfo: { parameters: ["pointer", "u32", "usize", "buffer", "buffer"], result: "i32" }, // cl_device_id, cl_device_info, size_t, void *value, size_t *size_ret

  clCreateContext: {
    parameters: ["buffer", "u32", "buffer", "pointer", "pointer", "buffer"],
    result: "pointer",
  }, // const cl_context_properties *, cl_uint num_devices, const cl_device_id *, void (*pfn_notify)(...), void *user_data, cl_int *errcode_ret
  clReleaseContext: { parameters: ["pointer"], result: "i32" }, // cl_context

  clCreateCommandQueueWithProperties: {
    parameters: ["pointer", "pointer", "buffer", "buffer"],
    result: "pointer",
    optional: true,
  }, // cl_context, cl_device_id, const cl_queue_properties *, cl_int *errcode_ret (2.0+)
  clCreateCommandQueue: {
    parameters: ["pointer", "pointer", "u64", "buffer"],
    result: "pointer",
    optional: true,
  }, // cl_context, cl_device_id, cl_command_queue_properties, cl_int *errcode_ret (deprecated in 2.0)
  clReleaseCommandQueue: { parameters: ["pointer"], result: "i32" }, // cl_command_queue
  clFlush: { parameters: ["pointer"], result: "i32" }, // cl_command_queue
  clFinish: { parameters: ["pointer"], result: "i32" }, // cl_command_queue

  clCreateBuffer: { parameters: ["pointer", "u64", "usize", "buffer", "buffer"], result: "pointer" }, // cl_context, cl_mem_flags, size_t size, void *host_ptr, cl_int *errcode_ret
  clReleaseMemObject: { parameters: ["pointer"], result: "i32" }, // cl_mem
  clEnqueueWriteBuffer: {
    parameters: ["pointer", "pointer", "u32", "usize", "usize", "buffer", "u32", "buffer", "buffer"],
    result: "i32",
  }, // queue, cl_mem, cl_bool blocking, size_t offset, size_t size, const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event
  clEnqueueReadBuffer: {
    parameters: ["pointer", "pointer", "u32", "usize", "usize", "buffer", "u32", "buffer", "buffer"],
    result: "i32",
  }, // queue, cl_mem, cl_bool blocking, size_t offset, size_t size, void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event
  clEnqueueCopyBuffer: {
    parameters: ["pointer", "pointer", "pointer", "usize", "usize", "usize", "u32", "buffer", "buffer"],
    result: "i32",
  }, // queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event
  clEnqueueFillBuffer: {
    parameters: ["pointer", "pointer", "buffer", "usize", "usize", "usize", "u32", "buffer", "buffer"],
    result: "i32",
    optional: true,
  }, // queue, cl_mem, const void *pattern, size_t pattern_size, size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event (1.2+)

  clCreateProgramWithSource: {
    parameters: ["pointer", "u32", "buffer", "buffer", "buffer"],
    result: "pointer",
  }, // cl_context, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret
  clBuildProgram: { parameters: ["pointer", "u32", "buffer", "buffer", "pointer", "pointer"], result: "i32" }, // cl_program, cl_uint num_devices, const cl_device_id *, const char *options, void (*pfn_notify)(...), void *user_data
  clGetProgramBuildInfo: {
    parameters: ["pointer", "pointer", "u32", "usize", "buffer", "buffer"],
    result: "i32",
  }, // cl_program, cl_device_id, cl_program_build_info, size_t, void *value, size_t *size_ret
  clReleaseProgram: { parameters: ["pointer"], result: "i32" }, // cl_program

  clCreateKernel: { parameters: ["pointer", "buffer", "buffer"], result: "pointer" }, // cl_program, const char *kernel_name, cl_int *errcode_ret
  clReleaseKernel: { parameters: ["pointer"], result: "i32" }, // cl_kernel
  clCloneKernel: { parameters: ["pointer", "buffer"], result: "pointer", optional: true }, // cl_kernel source_kernel, cl_int *errcode_ret (2.1+)
  clSetKernelArg: { parameters: ["pointer", "u32", "usize", "pointer"], result: "i32" }, // cl_kernel, cl_uint arg_index, size_t arg_size, const void *arg_value
  clGetKernelInfo: { parameters: ["pointer", "u32", "usize", "buffer", "buffer"], result: "i32" }, // cl_kernel, cl_kernel_info, size_t, void *value, size_t *size_ret
  clGetKernelWorkGroupInfo: {
    parameters: ["pointer", "pointer", "u32", "usize", "buffer", "buffer"],
    result: "i32",
  }, // cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *value, size_t *size_ret
  clEnqueueNDRangeKernel: {
    parameters: ["pointer", "pointer", "u32", "pointer", "buffer", "buffer", "u32", "buffer", "buffer"],
    result: "i32",
  }, // queue, cl_kernel, cl_uint work_dim, const size_t *global_offset, const size_t *global_size, const size_t *local_size, cl_uint num_events, const cl_event *wait_list, cl_event *event

  clWaitForEvents: { parameters: ["u32", "buffer"], result: "i32" }, // cl_uint num_events, const cl_event *event_list
  clGetEventInfo: { parameters: ["pointer", "u32", "usize", "buffer", "buffer"], result: "i32" }, // cl_event, cl_event_info, size_t, void *value, size_t *size_ret
  clGetEventProfilingInfo: { parameters: ["pointer", "u32", "usize", "buffer", "buffer"], result: "i32" }, // cl_event, cl_profiling_info, size_t, void *value, size_t *size_ret
  clReleaseEvent: { parameters: ["pointer"], result: "i32" }, // cl_event

  clGetExtensionFunctionAddressForPlatform: {
    parameters: ["pointer", "buffer"],
    result: "pointer",
    optional: true,
  }, // cl_platform_id, const char *funcname (1.2+)
} as const satisfies Deno.ForeignLibraryInterface;

/**
 * `cl_khr_command_buffer`'s functions, which the loader does not export: each platform hands out its
 * own through `clGetExtensionFunctionAddressForPlatform` (see {@link extensionFunctions}). Only the
 * calls whose signatures are the same in every version of the extension (0.9.0 to 1.0) are bound.
 */
export const CL_COMMAND_BUFFER_FUNCTIONS = {
  clCreateCommandBufferKHR: { parameters: ["u32", "buffer", "buffer", "buffer"], result: "pointer" }, // cl_uint num_queues, const cl_command_queue *queues, const cl_command_buffer_properties_khr *properties, cl_int *errcode_ret
  clFinalizeCommandBufferKHR: { parameters: ["pointer"], result: "i32" }, // cl_command_buffer_khr
  clReleaseCommandBufferKHR: { parameters: ["pointer"], result: "i32" }, // cl_command_buffer_khr
  clCommandNDRangeKernelKHR: {
    // cl_command_buffer_khr, cl_command_queue (NULL: the buffer's own), const cl_command_properties_khr *properties,
    // cl_kernel, cl_uint work_dim, const size_t *global_work_offset, const size_t *global_work_size,
    // const size_t *local_work_size, cl_uint num_sync_points_in_wait_list, const cl_sync_point_khr *sync_point_wait_list,
    // cl_sync_point_khr *sync_point, cl_mutable_command_khr *mutable_handle
    parameters: [
      "pointer",
      "pointer",
      "buffer",
      "pointer",
      "u32",
      "buffer",
      "buffer",
      "buffer",
      "u32",
      "buffer",
      "buffer",
      "buffer",
    ],
    result: "i32",
  },
  clEnqueueCommandBufferKHR: {
    // cl_uint num_queues (0: the buffer's own), cl_command_queue *queues, cl_command_buffer_khr,
    // cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event
    parameters: ["u32", "buffer", "pointer", "u32", "buffer", "buffer"],
    result: "i32",
  },
} as const satisfies Deno.ForeignLibraryInterface;

/** The callable functions of an extension table, as {@link extensionFunctions} binds them. */
export type ExtensionFunctions<S extends Deno.ForeignLibraryInterface> = {
  readonly [K in keyof S]: S[K] extends Deno.ForeignFunction ? Deno.UnsafeFnPointer<S[K]> : never;
};

/**
 * Binds the functions of `table` from the addresses `lookup` gives for their exact names (a
 * platform's `clGetExtensionFunctionAddressForPlatform`); undefined when any of them is missing.
 */
export function extensionFunctions<S extends Deno.ForeignLibraryInterface>(
  lookup: (name: string) => Deno.PointerValue,
  table: S,
): ExtensionFunctions<S> | undefined {
  const bound: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(table)) {
    const address = lookup(name);
    if (address === null) return undefined;
    const fn = definition as Deno.ForeignFunction;
    bound[name] = new Deno.UnsafeFnPointer(address as Deno.PointerObject<typeof fn>, fn);
  }
  return bound as ExtensionFunctions<S>;
}

/** `clWaitForEvents` bound `nonblocking`, so awaiting an event leaves Deno's event loop free. */
export const OPENCL_WAIT_SYMBOLS = {
  clWaitForEvents: { parameters: ["u32", "buffer"], result: "i32", nonblocking: true }, // cl_uint num_events, const cl_event *event_list
} as const satisfies Deno.ForeignLibraryInterface;

/** macOS's OpenCL, a system framework (in the dyld cache: it opens by this path though no such file exists). */
const MACOS_OPENCL = "/System/Library/Frameworks/OpenCL.framework/OpenCL";

/**
 * Where to find OpenCL on `os`: the ICD loader `libOpenCL.so.1` (Linux), `OpenCL.dll` in System32
 * (Windows), the OpenCL framework (macOS).
 *
 * @example
 * ```ts
 * import { candidatePaths } from "./load.ts";
 * import { openclSpec } from "./opencl.ts";
 * console.log(candidatePaths(openclSpec({}, "darwin"))); // ["/System/Library/Frameworks/OpenCL.framework/OpenCL"]
 * ```
 */
export function openclSpec<S extends Deno.ForeignLibraryInterface>(
  symbols: S,
  os: HostOS = Deno.build.os,
): LibrarySpec<S> {
  const sonames = os === "windows" ? ["OpenCL.dll"] : os === "darwin" ? [MACOS_OPENCL] : ["libOpenCL.so.1"];
  return {
    what: os === "darwin" ? "macOS's OpenCL framework" : `the OpenCL ICD loader (${sonames[0]})`,
    env: "CUDENO_LIBOPENCL",
    sonames,
    dirs: os === "windows" ? [windowsSystemDir()] : os === "darwin" ? [] : [
      "/usr/lib/x86_64-linux-gnu",
      "/usr/lib/aarch64-linux-gnu",
      "/usr/lib64",
      "/usr/local/cuda/lib64",
      "/opt/rocm/lib",
    ],
    os,
    hint: os === "windows"
      ? "install your GPU vendor's driver, which brings OpenCL.dll"
      : os === "darwin"
      ? "use a macOS version that still ships OpenCL"
      : "install an OpenCL loader and a platform (Debian/Ubuntu: `sudo apt-get install ocl-icd-libopencl1 pocl-opencl-icd`)",
    symbols,
  };
}

/** The OpenCL loader, opened on first use. */
export const libopencl: LazyLibrary<typeof OPENCL_SYMBOLS> = new LazyLibrary(() =>
  openclSpec(OPENCL_SYMBOLS)
);

/** The OpenCL loader's waiting function bound nonblocking, opened from the same file as {@link libopencl}. */
export const libopenclWait: LazyLibrary<typeof OPENCL_WAIT_SYMBOLS> = new LazyLibrary(() => ({
  ...openclSpec(OPENCL_WAIT_SYMBOLS),
  sonames: [libopencl.load().path],
  dirs: [],
}));
