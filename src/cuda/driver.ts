/**
 * Driver start-up: `cuInit` once per process, and the versions of the driver.
 *
 * @module
 */

import { libcuda } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";

/** The driver's symbols, initialised. Every CUDA object reaches the driver through this. */
export type CudaDriver = ReturnType<typeof libcuda.get>;

let driver: CudaDriver | undefined;
let failure: unknown;

/**
 * Loads the CUDA driver and calls `cuInit(0)`; later calls return at once (a failure is remembered
 * and thrown again). Every other function calls it on first use, so calling it yourself is optional.
 *
 * @throws {LibraryNotFoundError} when libcuda.so.1 cannot be found (the error lists the paths tried).
 * @throws {CudaError} when the driver loads but cannot start (no device, a stub library).
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * cuda.init();
 * console.log(cuda.Device.count());
 * ```
 */
export function init(): CudaDriver {
  if (driver !== undefined) return driver;
  if (failure !== undefined) throw failure;
  try {
    const lib = libcuda.get();
    checkCuda(lib.cuInit(0), "cuInit");
    driver = lib;
    return lib;
  } catch (e) {
    failure = e;
    throw e;
  }
}

/**
 * Whether a CUDA driver and at least one device are present, without throwing.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * console.log(cuda.isAvailable() ? "CUDA" : "no CUDA here");
 * ```
 */
export function isAvailable(): boolean {
  try {
    const out = new Int32Array(1);
    return init().cuDeviceGetCount(out) === 0 && out[0]! > 0;
  } catch {
    return false;
  }
}

/**
 * Why CUDA is not usable here, as one sentence (with the paths tried), or undefined when it is.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const why = cuda.unavailableReason();
 * if (why !== undefined) console.log(why);
 * ```
 */
export function unavailableReason(): string | undefined {
  try {
    const out = new Int32Array(1);
    checkCuda(init().cuDeviceGetCount(out), "cuDeviceGetCount");
    return out[0]! > 0 ? undefined : "the CUDA driver reports no devices";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * The driver's CUDA version as `[major, minor]` (13000 → `[13, 0]`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const [major, minor] = cuda.driverVersion();
 * ```
 */
export function driverVersion(): [number, number] {
  const out = new Int32Array(1);
  checkCuda(init().cuDriverGetVersion(out), "cuDriverGetVersion");
  return [Math.floor(out[0]! / 1000), Math.floor((out[0]! % 1000) / 10)];
}
