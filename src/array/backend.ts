/**
 * The small interface GPU arrays are built on, implemented once over the CUDA core and once over the
 * OpenCL core, and the choice of which one new arrays use.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import type { DType } from "../kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";

/** Device memory of a backend. */
export interface BackendBuffer {
  /** Bytes. */
  readonly size: number;
  /** Whether it was freed. */
  readonly freed: boolean;
  /** Returns it. Idempotent. */
  free(): void;
}

/** A launch's shape in CUDA terms: blocks per grid and threads per block, in x and y (and z). */
export interface LaunchShape {
  /** Blocks (work-groups) per dimension, a number for 1-D. */
  readonly grid: number | readonly number[];
  /** Threads (work-items) per block per dimension, a number for 1-D. */
  readonly block: number | readonly number[];
}

/** A compiled kernel of a backend. */
export interface BackendKernel {
  /** Queues the kernel; pointers are {@link BackendBuffer}s or GPU arrays, scalars numbers or bigints. */
  launch(shape: LaunchShape, args: readonly unknown[]): void;
  /**
   * Makes a launch for a kernel whose parameter `i` is an array of `arrays[i]` (`undefined`: a
   * scalar), called as `boundLaunch(shape, ...args)`. Made once per kernel (the JIT makes one for each
   * of its kernels) and called per launch, it allocates nothing for kernels of up to 16 parameters.
   * Where an argument does not fit (see {@link BoundLaunch}), it launches nothing and calls `refused`
   * instead; where the values are not the shape and one per parameter, it calls `miscount`.
   */
  bind(
    arrays: readonly (DType | undefined)[],
    refused: RefusedLaunch,
    miscount: MiscountedLaunch,
  ): BoundLaunch;
}

/**
 * A launch made by {@link BackendKernel.bind}: the {@link LaunchShape}, then one argument per
 * parameter (any other count goes to its {@link MiscountedLaunch}), read during the call and not kept. An array argument must be a GPU array of its
 * parameter's element type on the kernel's backend, or one of that backend's buffers; where one is
 * not, nothing is launched and the bound launch calls its {@link RefusedLaunch} instead, which can
 * find the right backend or say what is wrong.
 */
export type BoundLaunch = (shape: LaunchShape, ...args: unknown[]) => void;

/**
 * What a {@link BoundLaunch} calls in place of launching: the index of the first argument that does
 * not fit, then the launch's own values: the shape and the arguments, maybe followed by unused
 * `undefined` slots (a launch that takes its arguments as formal parameters passes them all).
 */
export type RefusedLaunch = (index: number, shape: LaunchShape, ...args: unknown[]) => void;

/** What a {@link BoundLaunch} calls for a launch of `given` values that are not the shape and one per parameter: it throws. */
export type MiscountedLaunch = (given: number) => never;

/** The name of a backend. */
export type BackendName = "cuda" | "opencl";

/** What GPU arrays need from a device. */
export interface Backend {
  /** `"cuda"` or `"opencl"`. */
  readonly name: BackendName;
  /** The C dialect its kernels are written in. */
  readonly dialect: Dialect;
  /** The device, as `cuda:0 NVIDIA H200` or `opencl:0:0 pthread-...`. */
  readonly device: string;
  /** Whether arrays of `dtype` can live and be computed on here. */
  supports(dtype: DType): boolean;
  /** Allocates `bytes` of device memory. */
  alloc(bytes: number): BackendBuffer;
  /** Copies host → device at the buffer's start. */
  write(dst: BackendBuffer, src: ArrayBufferView): void;
  /** Copies device → host, waiting for queued work. */
  read(dst: ArrayBufferView, src: BackendBuffer): void;
  /** Copies device → host without blocking Deno's event loop. */
  readAsync(dst: ArrayBufferView, src: BackendBuffer): Promise<void>;
  /** Copies `bytes` device → device. */
  copy(dst: BackendBuffer, src: BackendBuffer, bytes: number): void;
  /** Compiles `source` (once per source: memory and disk caches) and returns its kernel `name`. */
  kernel(source: string, name: string): BackendKernel;
  /** Waits for all queued work. */
  synchronize(): void;
}

let active: Backend | undefined;
const factories = new Map<BackendName, (device: number | undefined) => Backend>();

/** Makes a backend constructible by name (the CUDA and OpenCL backends register themselves). */
export function registerBackend(name: BackendName, make: (device: number | undefined) => Backend): void {
  factories.set(name, make);
}

const made = new Map<string, Backend>();

function make(name: BackendName, device?: number): Backend {
  const key = `${name}:${device ?? "default"}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  const factory = factories.get(name);
  if (factory === undefined) throw new TypeError(`Cannot use backend "${name}": it is not registered`);
  const backend = factory(device);
  made.set(key, backend);
  return backend;
}

/**
 * The backend new arrays are made on: the one picked with {@link useBackend}, else `CUDENO_BACKEND`,
 * else CUDA where a driver and device exist, else OpenCL.
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

/** Options of {@link useBackend}. */
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
  if (options.device !== undefined && name !== "cuda") {
    throw new TypeError("Cannot pick an OpenCL device here: set CUDENO_OPENCL_DEVICE=P:D instead");
  }
  active = make(name, options.device);
}
