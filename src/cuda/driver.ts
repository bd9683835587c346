/**
 * Driver start-up: `cuInit` once per process, and the versions of the driver.
 *
 * @module
 */

import { type CUDA_SYMBOLS, libcuda } from "../../ffi/cuda.ts";
import { checkCuda } from "./errors.ts";

/** The driver's symbols, initialised. Every CUDA object reaches the driver through this. */
type CudaDriver = Deno.StaticForeignLibraryInterface<typeof CUDA_SYMBOLS>;

let loaded: CudaDriver | undefined;
let failure: unknown;

/** The initialised driver (loading it and calling `cuInit(0)` on first use): for cudeno's own objects. */
export function driver(): CudaDriver {
  if (loaded !== undefined) return loaded;
  if (failure !== undefined) throw failure;
  try {
    const lib = libcuda.get();
    checkCuda(lib.cuInit(0), "cuInit");
    loaded = lib;
    return lib;
  } catch (e) {
    failure = e;
    throw e;
  }
}

/**
 * Loads the CUDA driver and calls `cuInit(0)`; later calls return at once (a failure is remembered
 * and thrown again). Every other function does this on first use, so calling it yourself is optional.
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
export function init(): void {
  driver();
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
    return driver().cuDeviceGetCount(out) === 0 && out[0]! > 0;
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
    checkCuda(driver().cuDeviceGetCount(out), "cuDeviceGetCount");
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
  checkCuda(driver().cuDriverGetVersion(out), "cuDriverGetVersion");
  return [Math.floor(out[0]! / 1000), Math.floor((out[0]! % 1000) / 10)];
}
