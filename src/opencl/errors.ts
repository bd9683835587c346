/**
 * OpenCL errors: one check turns a `cl_int` status into an {@link OpenCLError} carrying the code, its
 * name and the call that failed.
 *
 * @module
 */

/** `cl_int` status names from cl.h. */
const NAMES: Record<number, string> = {
  [-1]: "CL_DEVICE_NOT_FOUND",
  [-2]: "CL_DEVICE_NOT_AVAILABLE",
  [-3]: "CL_COMPILER_NOT_AVAILABLE",
  [-4]: "CL_MEM_OBJECT_ALLOCATION_FAILURE",
  [-5]: "CL_OUT_OF_RESOURCES",
  [-6]: "CL_OUT_OF_HOST_MEMORY",
  [-7]: "CL_PROFILING_INFO_NOT_AVAILABLE",
  [-8]: "CL_MEM_COPY_OVERLAP",
  [-11]: "CL_BUILD_PROGRAM_FAILURE",
  [-12]: "CL_MAP_FAILURE",
  [-14]: "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
  [-15]: "CL_COMPILE_PROGRAM_FAILURE",
  [-17]: "CL_LINK_PROGRAM_FAILURE",
  [-19]: "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
  [-30]: "CL_INVALID_VALUE",
  [-31]: "CL_INVALID_DEVICE_TYPE",
  [-32]: "CL_INVALID_PLATFORM",
  [-33]: "CL_INVALID_DEVICE",
  [-34]: "CL_INVALID_CONTEXT",
  [-35]: "CL_INVALID_QUEUE_PROPERTIES",
  [-36]: "CL_INVALID_COMMAND_QUEUE",
  [-37]: "CL_INVALID_HOST_PTR",
  [-38]: "CL_INVALID_MEM_OBJECT",
  [-42]: "CL_INVALID_BINARY",
  [-43]: "CL_INVALID_BUILD_OPTIONS",
  [-44]: "CL_INVALID_PROGRAM",
  [-45]: "CL_INVALID_PROGRAM_EXECUTABLE",
  [-46]: "CL_INVALID_KERNEL_NAME",
  [-47]: "CL_INVALID_KERNEL_DEFINITION",
  [-48]: "CL_INVALID_KERNEL",
  [-49]: "CL_INVALID_ARG_INDEX",
  [-50]: "CL_INVALID_ARG_VALUE",
  [-51]: "CL_INVALID_ARG_SIZE",
  [-52]: "CL_INVALID_KERNEL_ARGS",
  [-53]: "CL_INVALID_WORK_DIMENSION",
  [-54]: "CL_INVALID_WORK_GROUP_SIZE",
  [-55]: "CL_INVALID_WORK_ITEM_SIZE",
  [-56]: "CL_INVALID_GLOBAL_OFFSET",
  [-57]: "CL_INVALID_EVENT_WAIT_LIST",
  [-58]: "CL_INVALID_EVENT",
  [-59]: "CL_INVALID_OPERATION",
  [-61]: "CL_INVALID_BUFFER_SIZE",
  [-63]: "CL_INVALID_GLOBAL_WORK_SIZE",
  [-64]: "CL_INVALID_PROPERTY",
  [-1001]: "CL_PLATFORM_NOT_FOUND_KHR",
  [-1138]: "CL_INVALID_COMMAND_BUFFER_KHR",
  [-1139]: "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR",
  [-1140]: "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR",
};

/** The name of a `cl_int` status (`CL_INVALID_VALUE`), or `cl_int <n>` when unknown. */
export function openclErrorName(code: number): string {
  return NAMES[code] ?? `cl_int ${code}`;
}

/**
 * An OpenCL call failed. For a failed build, {@link log} holds the compiler's log and {@link source}
 * the program's source.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * try {
 *   new cl.Program(ctx, "__kernel void broken( {}").build();
 * } catch (e) {
 *   if (e instanceof cl.OpenCLError) console.log(e.codeName, e.log);
 * }
 * ```
 */
export class OpenCLError extends Error {
  /** The `cl_int` status. */
  readonly code: number;
  /** Its name, `CL_BUILD_PROGRAM_FAILURE`. */
  readonly codeName: string;
  /** The OpenCL function that returned it. */
  readonly call: string;
  /** The build log, for build failures; empty otherwise. */
  readonly log: string;
  /** The program's source, for build failures (what the log's lines and columns count in); empty otherwise. */
  readonly source: string;

  /** Builds the error for `code` returned by `call`; `detail` is appended to the message. */
  constructor(code: number, call: string, detail = "", log = "", source = "") {
    const codeName = openclErrorName(code);
    super(`${call} failed: ${codeName} (${code})${detail}${log === "" ? "" : `\n${log.trimEnd()}`}`);
    this.name = "OpenCLError";
    this.code = code;
    this.codeName = codeName;
    this.call = call;
    this.log = log;
    this.source = source;
  }
}

/**
 * Throws an {@link OpenCLError} unless `code` is `CL_SUCCESS`.
 *
 * @example
 * ```ts
 * import { checkCL } from "@cudeno/cudeno/opencl";
 * checkCL(0, "clFinish"); // success: returns
 * ```
 */
export function checkCL(code: number, call: string, detail = ""): void {
  if (code !== 0) throw new OpenCLError(code, call, detail);
}
