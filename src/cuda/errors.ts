/**
 * CUDA driver errors: one check turns a `CUresult` into a {@link CudaError} carrying the code, its
 * name, the driver's text and the call that failed.
 *
 * @module
 */

import { libcuda } from "../../ffi/cuda.ts";

/** `CUresult` names and meanings from cuda.h, used when the driver cannot be asked (or for hints). */
const KNOWN: Record<number, readonly [string, string]> = {
  1: ["CUDA_ERROR_INVALID_VALUE", "invalid argument"],
  2: ["CUDA_ERROR_OUT_OF_MEMORY", "out of memory"],
  3: ["CUDA_ERROR_NOT_INITIALIZED", "initialization error"],
  4: ["CUDA_ERROR_DEINITIALIZED", "driver shutting down"],
  34: ["CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"],
  46: ["CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable"],
  100: ["CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"],
  101: ["CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"],
  200: ["CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"],
  201: ["CUDA_ERROR_INVALID_CONTEXT", "invalid device context"],
  209: ["CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"],
  218: ["CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"],
  222: ["CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain"],
  400: ["CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"],
  401: ["CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state"],
  500: ["CUDA_ERROR_NOT_FOUND", "named symbol not found"],
  600: ["CUDA_ERROR_NOT_READY", "device not ready"],
  700: ["CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"],
  701: ["CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"],
  702: ["CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated"],
  704: ["CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"],
  705: ["CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access has not been enabled"],
  710: ["CUDA_ERROR_ASSERT", "device-side assert triggered"],
  714: ["CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"],
  715: ["CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered"],
  716: ["CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"],
  719: ["CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"],
  900: ["CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "operation not permitted when stream is capturing"],
  901: ["CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "operation failed due to a previous error during capture"],
  903: ["CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "capture was not initiated in this stream"],
  904: ["CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "capturing stream has unjoined work"],
  906: [
    "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
    "operation would make the legacy stream depend on a capturing blocking stream",
  ],
  907: [
    "CUDA_ERROR_CAPTURED_EVENT",
    "operation not permitted on an event last recorded in a capturing stream",
  ],
  908: [
    "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD",
    "attempt to terminate a thread-local capture sequence from another thread",
  ],
  910: [
    "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE",
    "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update",
  ],
  999: ["CUDA_ERROR_UNKNOWN", "unknown error"],
};

/** Codes after which the context cannot be used again until the device is reset. */
const STICKY = new Set([700, 710, 714, 715, 716, 719]);

let lastKernel: string | undefined;

/** Remembers the kernel launched last, so that a fault reported later by another call can name it. */
export function noteLaunch(name: string): void {
  lastKernel = name;
}

function hint(code: number): string {
  if (STICKY.has(code)) {
    const culprit = lastKernel === undefined ? "" : ` (the last kernel launched was ${lastKernel})`;
    return `; a kernel faulted${culprit} and the CUDA context is lost: NVIDIA's driver fails every later CUDA call in this process (cuda.h: "the process must be terminated and relaunched"), so restart the process; cuda.resetDevice() recovers in place only where the driver allows it`;
  }
  switch (code) {
    case 201:
      return '; there is no current context: import "@cudeno/cudeno/autoinit" or call new cuda.Device(0).makeContext() first';
    case 34:
      return "; cudeno loaded the stub libcuda.so from a CUDA toolkit: set CUDENO_LIBCUDA to the real driver's libcuda.so.1";
    case 100:
      return "; `nvidia-smi` should list a GPU; check CUDA_VISIBLE_DEVICES";
    case 209:
      return "; the module was built for another GPU architecture: recompile for this device";
    case 222:
      return "; the PTX is newer than the driver: compile to a cubin for this device (SourceModule does this by default)";
    case 900:
    case 906:
      return "; a stream is capturing, and this call would run work outside it (on the legacy default stream, or synchronously): pass the capturing stream as { stream } to every launch and copy inside the capture, and allocate before it";
    case 901:
      return "; an earlier call in this capture was not allowed while capturing, so the capture was invalidated: end it (cuda.capture() does), fix that call and capture again";
    default:
      return "";
  }
}

function driverString(fn: "cuGetErrorName" | "cuGetErrorString", code: number): string | undefined {
  try {
    const out = new BigUint64Array(1);
    if (libcuda.get()[fn](code, out) !== 0 || out[0] === 0n) return undefined;
    return Deno.UnsafePointerView.getCString(Deno.UnsafePointer.create(out[0])!);
  } catch {
    return undefined;
  }
}

/**
 * A CUDA driver call failed.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * try {
 *   cuda.memAlloc(2 ** 50);
 * } catch (e) {
 *   if (e instanceof cuda.CudaError) console.log(e.code, e.codeName, e.call); // 2 CUDA_ERROR_OUT_OF_MEMORY cuMemAlloc_v2
 * }
 * ```
 */
export class CudaError extends Error {
  /** The `CUresult` value. */
  readonly code: number;
  /** Its name, `CUDA_ERROR_OUT_OF_MEMORY`. */
  readonly codeName: string;
  /** The driver's description, `out of memory`. */
  readonly description: string;
  /** The driver function that returned it, `cuMemAlloc_v2`. */
  readonly call: string;

  /**
   * Builds the error for `code` returned by `call`; `detail` is added after the standard text.
   * Names and descriptions come from the driver when it is loaded, else from cuda.h's table.
   */
  constructor(code: number, call: string, detail = "") {
    const codeName = driverString("cuGetErrorName", code) ?? KNOWN[code]?.[0] ?? `CUresult ${code}`;
    const description = driverString("cuGetErrorString", code) ?? KNOWN[code]?.[1] ??
      "unrecognised error code";
    super(`${call} failed: ${codeName} (${description})${detail}${hint(code)}`);
    this.name = "CudaError";
    this.code = code;
    this.codeName = codeName;
    this.description = description;
    this.call = call;
  }

  /** Whether the error leaves the context unusable until {@link resetDevice}-style recovery. */
  get contextLost(): boolean {
    return STICKY.has(this.code);
  }
}

/**
 * Throws a {@link CudaError} unless `code` is `CUDA_SUCCESS`.
 *
 * @example
 * ```ts
 * import { checkCuda } from "@cudeno/cudeno/cuda";
 * checkCuda(0, "cuInit"); // returns: success
 * ```
 */
export function checkCuda(code: number, call: string): void {
  if (code !== 0) throw new CudaError(code, call);
}

/** The name of a `CUresult` code (from the driver when loaded, else cuda.h's table). */
export function cudaErrorName(code: number): string {
  return driverString("cuGetErrorName", code) ?? KNOWN[code]?.[0] ?? `CUresult ${code}`;
}
