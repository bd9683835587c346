/**
 * Importing this module makes a CUDA context current, like `import pycuda.autoinit`: the primary
 * context of device `CUDENO_DEVICE` (default 0). It exports that `device` and `context`.
 *
 * @example
 * ```ts
 * import "@cudeno/cudeno/autoinit";
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const buf = cuda.memAlloc(1024);
 * ```
 *
 * @module
 */

import { tryGetEnv } from "../../ffi/load.ts";
import { type Context, useDevice } from "./context.ts";
import type { Device } from "./device.ts";

function chosenOrdinal(): number {
  const text = tryGetEnv("CUDENO_DEVICE") ?? "0";
  const ordinal = Number(text);
  if (!Number.isInteger(ordinal) || ordinal < 0) {
    throw new RangeError(
      `Cannot pick CUDA device "${text}" from CUDENO_DEVICE: give a device ordinal such as 0`,
    );
  }
  return ordinal;
}

/** The context made current on import. */
export const context: Context = useDevice(chosenOrdinal());

/** The device of {@link context}. */
export const device: Device = context.device;
