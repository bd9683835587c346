/**
 * What `cudeno run` hands a backend, and what it gets back: the kernel, its bound arguments, the launch
 * and the repeat count; then the device used, where the compiled code came from and the kernel times.
 * Arrays are copied to the device, and back into the same host arrays after the last run.
 *
 * @module
 */

import { tryGetEnv } from "../../ffi/load.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import type { Dim3 } from "../kernel/dims.ts";
import type { KernelSignature } from "../kernel/signature.ts";
import type { BoundArg } from "./bind.ts";
import type { Launch } from "./geometry.ts";
import { UsageError } from "./usage_error.ts";

/**
 * A device picked with `--device`: `cuda:N`, or `opencl:P:D` (platform and device index).
 *
 * @example
 * ```ts
 * import type { DeviceChoice } from "./backend.ts";
 * const choice: DeviceChoice = { backend: "opencl", platform: 0, device: 0 };
 * console.log(choice.backend); // "opencl"
 * ```
 */
export type DeviceChoice =
  | { readonly backend: "cuda"; readonly ordinal: number }
  | { readonly backend: "opencl"; readonly platform: number; readonly device: number };

/**
 * One kernel run for a backend to carry out.
 *
 * @example
 * ```ts
 * import type { KernelJob } from "./backend.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const source = "__global__ void twice(float *x) { x[threadIdx.x] *= 2; }";
 * const [kernel] = parseKernels(source, "cuda");
 * const job: KernelJob = {
 *   file: "twice.cu", source, kernel, args: bindArgs(kernel, ["x=ones(32)"]).args,
 *   launch: { backend: "cuda", grid: [1], block: [32] }, repeat: 1,
 * };
 * ```
 */
export interface KernelJob {
  /** The kernel file's path, for messages. */
  readonly file: string;
  /** Its source. */
  readonly source: string;
  /** The kernel to run. */
  readonly kernel: KernelSignature;
  /** Its arguments, in parameter order; arrays are filled with the device's results afterwards. */
  readonly args: readonly BoundArg[];
  /** The launch sizes. */
  readonly launch: Launch;
  /** How many times to run it (inputs are copied in again before each run, so each sees the same data). */
  readonly repeat: number;
  /** The device asked for; without it, the backend's default. */
  readonly device?: DeviceChoice;
}

/**
 * Where the compiled kernel came from: NVRTC now (`"none"`), cudeno's compile cache (`"memory"` or
 * `"disk"`), or the OpenCL driver (`"driver"`, which may keep its own cache; cudeno cannot tell).
 *
 * @example
 * ```ts
 * import type { CompileSource } from "./backend.ts";
 * const source: CompileSource = "disk";
 * ```
 */
export type CompileSource = "none" | "memory" | "disk" | "driver";

/**
 * What a backend reports about a run.
 *
 * @example
 * ```ts
 * import type { JobResult } from "./backend.ts";
 * const result: JobResult = {
 *   device: { id: "cuda:0", name: "NVIDIA H200" },
 *   compile: "disk",
 *   timesMs: [0.02],
 *   buildLog: "",
 * };
 * ```
 */
export interface JobResult {
  /** The device's id (`cuda:0`, `opencl:0:0`) and name. */
  readonly device: { readonly id: string; readonly name: string };
  /** Where the compiled kernel came from. */
  readonly compile: CompileSource;
  /** Each run's kernel time in milliseconds, measured with device events. */
  readonly timesMs: readonly number[];
  /**
   * The compiler's log of the build that succeeded (its warnings, naming the kernel file), empty when
   * it has none or the kernel came from the compile cache.
   */
  readonly buildLog: string;
}

/**
 * Reads `--device`: `cuda:N` or `opencl:P:D`, which must match the kernel file's language.
 *
 * @throws {UsageError} If the text is neither form, or names the other backend.
 *
 * @example
 * ```ts
 * import { parseDevice } from "./backend.ts";
 * console.log(parseDevice("opencl:0:1", "opencl")); // { backend: "opencl", platform: 0, device: 1 }
 * ```
 */
export function parseDevice(text: string, dialect: Dialect): DeviceChoice {
  const cuda = /^cuda:(\d+)$/.exec(text);
  const opencl = /^opencl:(\d+):(\d+)$/.exec(text);
  if (cuda === null && opencl === null) {
    throw new UsageError(
      `Cannot use --device ${text}: give cuda:N (a CUDA device ordinal) or opencl:P:D (platform and device index); cudeno info lists them`,
    );
  }
  const choice: DeviceChoice = cuda !== null
    ? { backend: "cuda", ordinal: Number(cuda[1]) }
    : { backend: "opencl", platform: Number(opencl![1]), device: Number(opencl![2]) };
  if (choice.backend !== dialect) {
    const file = dialect === "cuda"
      ? "a CUDA (.cu) file runs on a CUDA device, cuda:N"
      : "an OpenCL (.cl) file runs on an OpenCL device, opencl:P:D";
    throw new UsageError(`Cannot use --device ${text}: ${file}`);
  }
  return choice;
}

/**
 * The CUDA device used when none is asked for: `CUDENO_DEVICE`, as for `@cudeno/cudeno/autoinit`, else 0.
 *
 * @throws {UsageError} If `CUDENO_DEVICE` is not a device ordinal.
 *
 * @example
 * ```ts
 * import { defaultCudaOrdinal } from "./backend.ts";
 * console.log(defaultCudaOrdinal()); // 0 unless CUDENO_DEVICE says otherwise
 * ```
 */
export function defaultCudaOrdinal(): number {
  const text = tryGetEnv("CUDENO_DEVICE") ?? "0";
  if (!/^\d+$/.test(text.trim())) {
    throw new UsageError(
      `Cannot use CUDENO_DEVICE=${text}: give a CUDA device ordinal such as 0, or unset it`,
    );
  }
  return Number(text);
}

/**
 * A list of 1 to 3 sizes as the launch functions take them.
 *
 * @example
 * ```ts
 * import { dim3 } from "./backend.ts";
 * console.log(dim3([16, 16])); // [16, 16]
 * ```
 */
export function dim3(sizes: readonly number[]): Dim3 {
  const [x, y, z] = sizes as [number, number?, number?];
  if (z !== undefined) return [x, y!, z];
  return y !== undefined ? [x, y] : [x];
}

/**
 * Runs `launch`, turning the launch functions' size checks (RangeError: a block too large for the
 * device, a global size that is not a multiple of the local size) into a UsageError.
 *
 * @example
 * ```ts
 * import { checkedLaunch } from "./backend.ts";
 * checkedLaunch(() => {}); // runs the launch
 * ```
 */
export function checkedLaunch<T>(launch: () => T): T {
  try {
    return launch();
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}
