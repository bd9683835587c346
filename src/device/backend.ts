/**
 * The small interface GPU arrays are built on, implemented once over the CUDA core
 * (`cuda_backend.ts`) and once over the OpenCL core (`opencl_backend.ts`).
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import type { DType } from "../kernel/dtype.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import type { Gemm, GemmEpilogue } from "./gemm.ts";
import type { Solver } from "./solver.ts";
import type { Dnn } from "./dnn.ts";
import type { Fft } from "./fft.ts";

/**
 * Device memory of a backend.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const buffer: ga.BackendBuffer = ga.zeros(4).buffer;
 * console.log(buffer.size, buffer.freed);
 * ```
 */
export interface BackendBuffer {
  /** Bytes. */
  readonly size: number;
  /** Whether it was freed. */
  readonly freed: boolean;
  /** Returns it. Idempotent. */
  free(): void;
}

/**
 * The key of the property through which an array of a backend hands a kernel launch its memory
 * ({@link DeviceArray}), so that launches take arrays without knowing their class.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import { LAUNCH_ARGUMENT } from "./backend.ts";
 * console.log(ga.zeros(4)[LAUNCH_ARGUMENT] === ga.zeros(4).buffer); // false: two arrays
 * ```
 */
export const LAUNCH_ARGUMENT: unique symbol = Symbol("cudeno.launchArgument");

/**
 * An array on a backend, as a kernel launch sees it (`GPUArray` is one).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import type { DeviceArray } from "./backend.ts";
 * const a: DeviceArray = ga.zeros(4);
 * console.log(a.dtype, a.backend.device);
 * ```
 */
export interface DeviceArray {
  /** The backend its memory is on. */
  readonly backend: Backend;
  /** Its element type. */
  readonly dtype: DType;
  /**
   * What a launch passes for it: its buffer where its elements start at the buffer's start and lie
   * contiguously, else the array itself (the core resolves such a view to its first element, or
   * says why not).
   */
  readonly [LAUNCH_ARGUMENT]: unknown;
}

/**
 * Whether `value` is an array a launch can take ({@link DeviceArray}).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import { isDeviceArray } from "./backend.ts";
 * console.log(isDeviceArray(ga.zeros(4)), isDeviceArray(new Float32Array(4))); // true false
 * ```
 */
export function isDeviceArray(value: unknown): value is DeviceArray {
  return typeof value === "object" && value !== null && LAUNCH_ARGUMENT in value;
}

/**
 * A vendor BLAS of a backend (cuBLAS on CUDA): matrix products of its dtypes.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const blas: ga.Backend["blas"] = ga.zeros(1).backend.blas;
 * console.log(blas?.dtypes.includes("float32"));
 * ```
 */
export interface Blas {
  /** The dtypes its {@link gemm} multiplies. */
  readonly dtypes: readonly DType[];
  /**
   * Runs `g` (of one of {@link dtypes}) on the current stream. Its operands must be ones `blasLayout`
   * (`gemm.ts`) accepts, with C row-major.
   */
  gemm(g: Gemm): void;
  /**
   * Runs `g` with `epilogue` applied to each element before it is stored, on the current stream, and
   * says whether it did: false (nothing queued) where the library has no such product for it, and the
   * caller applies the epilogue itself. `g.c` must be row-major and not transposed from the product
   * asked for (the bias runs along its columns).
   */
  gemmEpilogue?(g: Gemm, epilogue: GemmEpilogue): boolean;
}

/**
 * A compiled kernel of a backend.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros(256);
 * const b = x.backend;
 * const fill = b.kernel("doc-fill", () => ({
 *   name: "fill",
 *   source: b.dialect === "cuda"
 *     ? 'extern "C" __global__ void fill(float *x) { x[threadIdx.x] = 1; }'
 *     : "__kernel void fill(__global float *x) { x[get_global_id(0)] = 1; }",
 * }));
 * fill.launch({ grid: 1, block: 256 }, [x.buffer]);
 * ```
 */
export interface BackendKernel {
  /**
   * Queues the kernel: `config.grid` blocks of `config.block` threads (work-groups of work-items on
   * OpenCL); pointers are {@link BackendBuffer}s, scalars numbers or bigints, in parameter order.
   */
  launch(config: LaunchConfig, args: readonly unknown[]): void;
}

/**
 * A kernel's source and the name of its entry point.
 *
 * @example
 * ```ts
 * import type { KernelSource } from "@cudeno/cudeno/array";
 * const k: KernelSource = { name: "noop", source: "__kernel void noop() {}" };
 * ```
 */
export interface KernelSource {
  /** CUDA C or OpenCL C. */
  readonly source: string;
  /** The kernel's name in it. */
  readonly name: string;
}

/**
 * Device work recorded once and queued again at each {@link run} (what `ga.compile` replays).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros(4);
 * const recorded: ga.Recorded = x.backend.record(() => {
 *   x.add(1, { out: x });
 * });
 * recorded.run();
 * recorded.run();
 * console.log(x.get()); // Float32Array [2, 2, 2, 2]
 * recorded.free();
 * ```
 */
export interface Recorded {
  /** Queues the recorded work on the current stream (CUDA) or the backend's queue (OpenCL). */
  run(): void;
  /** Gives back what the recording holds (the graph, the memory it took). Idempotent. */
  free(): void;
}

/**
 * The name of a backend.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const name: ga.BackendName = ga.backend();
 * ```
 */
export type BackendName = "cuda" | "opencl";

/**
 * What GPU arrays need from a device.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const b: ga.Backend = ga.zeros(1).backend;
 * console.log(b.name, b.dialect, b.device, b.supports("float64"));
 * ```
 */
export interface Backend {
  /** `"cuda"` or `"opencl"`. */
  readonly name: BackendName;
  /** The C dialect its kernels are written in. */
  readonly dialect: Dialect;
  /** The device, as `cuda:0 NVIDIA H200` or `opencl:0:0 pthread-...`. */
  readonly device: string;
  /** Matrix products on the vendor's BLAS (cuBLAS on CUDA); undefined where there is none. */
  readonly blas?: Blas;
  /** LAPACK's factorizations on the vendor's solver (cuSOLVER on CUDA); undefined where there is none (`ga.linalg` runs its own kernels there). */
  readonly solver?: Solver;
  /** Batched 1-D FFTs on the vendor's library (cuFFT on CUDA); undefined where there is none (`ga.fft` runs its own kernels there). */
  readonly fft?: Fft;
  /** Convolutions on the vendor's neural-network library (cuDNN on CUDA); undefined where there is none (`nn` runs its own kernels there). */
  readonly dnn?: Dnn;
  /** Whether `value` is device memory of this backend's kind (a buffer its launches take). */
  owns(value: unknown): boolean;
  /** Whether arrays of `dtype` can live and be computed on here. */
  supports(dtype: DType): boolean;
  /** Allocates `bytes` of device memory. */
  alloc(bytes: number): BackendBuffer;
  /** Copies host → device, to `byteOffset` bytes into `dst`. */
  write(dst: BackendBuffer, src: ArrayBufferView, byteOffset: number): void;
  /**
   * Throws, before anything is queued, where `call` (what returns a value to the host, as `get()` or
   * a whole-array `sum()`) cannot wait for the device now: on CUDA, while the current stream is
   * capturing. `reads` names what `call` reads on the host when that is not its result (the size of
   * `nonzero()`'s result, whether an index of `take()` is out of range).
   */
  checkHostRead(call: string, reads?: string): void;
  /** Copies device → host from `byteOffset` bytes into `src`, waiting for queued work. */
  read(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): void;
  /** Like {@link read}, without blocking Deno's event loop. */
  readAsync(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): Promise<void>;
  /** Copies `bytes` device → device, between the given byte offsets. */
  copy(dst: BackendBuffer, dstOffset: number, src: BackendBuffer, srcOffset: number, bytes: number): void;
  /**
   * The kernel known by `key`: compiled from `make()` the first time (through the core's memory and
   * disk caches), then the same kernel for every later call with that key.
   */
  kernel(key: string, make: () => KernelSource): BackendKernel;
  /** Waits for all queued work. */
  synchronize(): void;
  /**
   * Records the device work `fn` queues, without running it, to run at each {@link Recorded.run}: on
   * CUDA a graph captured on a stream of its own (memory taken inside is the graph's), on OpenCL the
   * list of commands (memory taken inside is the recording's, reused within it). Host reads inside are
   * refused. `fn` runs inside a `ga.compile` trace (`compiling.ts`).
   */
  record(fn: () => void): Recorded;
}

/**
 * The value of every backend's `worker` field. Structured cloning (`postMessage()`, `structuredClone()`)
 * copies an object's fields, and cannot copy a symbol: so posting a backend, or a GPUArray (which holds
 * its backend), to another Worker throws a `DataCloneError` with this text instead of arriving there as
 * a plain object with no device memory behind it. A Worker has its own backends (`workers` in the array
 * module's README).
 *
 * @example
 * ```ts
 * import { WORKER_BOUND } from "./backend.ts";
 * try {
 *   structuredClone({ worker: WORKER_BOUND });
 * } catch (e) {
 *   console.log((e as Error).message); // Symbol(a GPUArray stays in the Worker that made it: …) could not be cloned.
 * }
 * ```
 */
export const WORKER_BOUND: unique symbol = Symbol(
  "a GPUArray stays in the Worker that made it: post arr.get() (a typed array) and make an array of it there with ga.toGpu()",
);
