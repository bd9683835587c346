/**
 * Which backend new arrays go to: the one picked with {@link useBackend}, else `CUDENO_BACKEND`, else
 * CUDA where a driver and device exist, else OpenCL.
 *
 * @module
 */

import type { Backend, BackendName } from "./backend.ts";
import { CudaBackend } from "./cuda.ts";
import { OpenCLBackend } from "./opencl.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import { Buffer as CLBuffer } from "../opencl/buffer.ts";
import { checkOptions } from "../kernel/options.ts";

let active: Backend | undefined;
const made = new Map<string, Backend>();

function make(name: BackendName, device?: number): Backend {
  const key = `${name}:${device ?? "default"}`;
  let backend = made.get(key);
  if (backend === undefined) {
    backend = name === "cuda" ? new CudaBackend(device) : new OpenCLBackend();
    made.set(key, backend);
  }
  return backend;
}

/**
 * Whether `value` is device memory of any backend (a CUDA `DeviceAllocation`, an OpenCL `Buffer`).
 *
 * @example
 * ```ts
 * import { isDeviceBuffer } from "./active.ts";
 * console.log(isDeviceBuffer(new Float32Array(4))); // false
 * ```
 */
export function isDeviceBuffer(value: unknown): boolean {
  return value instanceof DeviceAllocation || value instanceof CLBuffer;
}

/**
 * The backend new arrays are made on, choosing one on first call.
 *
 * @throws {Error} listing why each backend failed when neither works.
 */
export function activeBackend(): Backend {
  if (active !== undefined) return active;
  const requested = tryGetEnv("CUDENO_BACKEND");
  if (requested !== undefined) {
    if (requested !== "cuda" && requested !== "opencl") {
      throw new RangeError(`Cannot use CUDENO_BACKEND="${requested}": set it to "cuda" or "opencl"`);
    }
    active = make(requested);
    return active;
  }
  const failures: string[] = [];
  for (const name of ["cuda", "opencl"] as const) {
    try {
      active = make(name);
      return active;
    } catch (e) {
      failures.push(`${name}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
    }
  }
  throw new Error(`Cannot make GPU arrays: no backend works here.\n  ${failures.join("\n  ")}`);
}

/**
 * The name of the backend new arrays use (`"cuda"` or `"opencl"`), choosing one on first call.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.backend(), ga.backendDevice());
 * ```
 */
export function backend(): BackendName {
  return activeBackend().name;
}

/**
 * The device new arrays live on, as `cuda:0 NVIDIA H200` or `opencl:0:0 <name>`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.backendDevice());
 * ```
 */
export function backendDevice(): string {
  return activeBackend().device;
}

/**
 * Options of {@link useBackend}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.UseBackendOptions = { device: 0 };
 * ```
 */
export interface UseBackendOptions {
  /** For CUDA, the device ordinal new arrays go to (default `CUDENO_DEVICE`, else 0). */
  readonly device?: number;
}

/**
 * Picks the backend (and, for CUDA, the device) for arrays made from now on.
 *
 * @throws {Error} when that backend cannot start here (no driver, no device).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.useBackend("opencl");
 * ```
 */
export function useBackend(name: BackendName, options: UseBackendOptions = {}): void {
  if (name !== "cuda" && name !== "opencl") {
    throw new RangeError(`Cannot use backend "${name}": choose "cuda" or "opencl"`);
  }
  checkOptions(options, `use backend "${name}"`, "{ device: 1 }", ["device"]);
  if (options.device !== undefined && name !== "cuda") {
    throw new TypeError("Cannot pick an OpenCL device here: set CUDENO_OPENCL_DEVICE=P:D instead");
  }
  active = make(name, options.device);
}
