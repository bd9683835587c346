/**
 * GPU arrays over the CUDA core: device allocations from the stream-ordered pool, NVRTC-compiled
 * kernels launched through `fn(...)`, and cuBLASLt (cuBLAS behind it) for matrix products; all of it on the current
 * stream (`ga.withStream()`, `stream.ts`), else the legacy default stream.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import { captureOn, capturesInProgress, refuseWhileCapturing } from "../cuda/capturing.ts";
import {
  type Backend,
  type BackendBuffer,
  type BackendKernel,
  type Blas,
  type KernelSource,
  type Recorded,
  WORKER_BOUND,
} from "./backend.ts";
import type { Dim3, LaunchConfig } from "../kernel/dims.ts";
import type { DType } from "../kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { currentStream, withStream } from "./stream.ts";
import { asRecording, refuseHostRead, refuseInCompile } from "./compiling.ts";
import { cublasLtOf, prepareLtStream } from "./cublaslt.ts";
import { cusolverOf } from "./cusolver.ts";
import type { Solver } from "./solver.ts";
import type { Dnn } from "./dnn.ts";
import { cudnnOf } from "./cudnn.ts";
import type { Fft } from "./fft.ts";
import { cufftOf } from "./cufft.ts";

/** The fix for array work on the legacy default stream while a capture is in progress. */
const RECORD_IT =
  "run array work inside ga.withStream(stream, fn) with the capturing stream to record it, or before or after the capture";

/**
 * A kernel compiled for one context. It recompiles (from the disk cache) when the context was reset
 * since, so a holder never launches a function of an unloaded module.
 */
class CudaKernel implements BackendKernel {
  readonly #source: KernelSource;
  readonly #backend: CudaBackend;
  #fn: cuda.KernelFunction;
  #generation: number;
  /** The config of a launch on the current stream, reused by every such launch. */
  readonly #onStream: { grid?: Dim3; block: Dim3; shared?: number; stream?: cuda.Stream } = { block: 1 };

  constructor(source: KernelSource, backend: CudaBackend) {
    this.#source = source;
    this.#backend = backend;
    this.#generation = backend.context.generation;
    this.#fn = new cuda.SourceModule(source.source).getFunction(source.name);
  }

  /** Queues the kernel on `shape.stream` where given (a JIT launch's), else on the current stream. */
  launch(shape: LaunchConfig, args: readonly unknown[]): void {
    const backend = this.#backend, context = backend.context;
    const stream = shape.stream === undefined ? backend.streamFor("launch a kernel") : undefined;
    context.setCurrent();
    if (this.#generation !== context.generation) {
      this.#fn = new cuda.SourceModule(this.#source.source).getFunction(this.#source.name);
      this.#generation = context.generation;
    }
    let config = shape;
    if (stream !== undefined) {
      const onStream = this.#onStream;
      onStream.grid = shape.grid;
      onStream.block = shape.block;
      onStream.shared = shape.shared;
      onStream.stream = stream;
      config = onStream;
    }
    // fn(...) takes up to 16 arguments as formal parameters (fixed_arity.ts); a call with them spread
    // from a list would make V8 copy them into a new list first (80 ns of a 13-argument launch), so
    // those arities call it directly (a 2-D strided loop over two arrays passes 13).
    const fn = this.#fn, a = args;
    // deno-fmt-ignore
    switch (a.length) {
      case 0: return fn(config);
      case 1: return fn(a[0], config);
      case 2: return fn(a[0], a[1], config);
      case 3: return fn(a[0], a[1], a[2], config);
      case 4: return fn(a[0], a[1], a[2], a[3], config);
      case 5: return fn(a[0], a[1], a[2], a[3], a[4], config);
      case 6: return fn(a[0], a[1], a[2], a[3], a[4], a[5], config);
      case 7: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], config);
      case 8: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], config);
      case 9: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], config);
      case 10: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], config);
      case 11: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], config);
      case 12: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], config);
      case 13: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], config);
      case 14: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], config);
      case 15: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], config);
      case 16: return fn(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], config);
      default: return fn(...a, config);
    }
  }
}

/** The CUDA implementation of {@link Backend}. */
export class CudaBackend implements Backend {
  readonly name = "cuda" as const;
  /** Makes posting this backend, or an array on it, to another Worker an error ({@link WORKER_BOUND}). */
  readonly worker: typeof WORKER_BOUND = WORKER_BOUND;
  readonly dialect = "cuda" as const;
  readonly device: string;
  /** cuBLASLt, with cuBLAS behind it, on this backend's context. */
  readonly blas: Blas = cublasLtOf(this);
  /** cuSOLVER on this backend's context. */
  readonly solver: Solver = cusolverOf(this);
  #dnn: Dnn | undefined | null = null;
  #fft: Fft | undefined | null = null;
  /** The context arrays live in. */
  readonly context: cuda.Context;
  readonly #kernels = new Map<string, CudaKernel>();
  #stream: cuda.Stream | undefined;

  /** Starts on device `ordinal` (default `CUDENO_DEVICE`, else 0), making its primary context current. */
  constructor(ordinal?: number) {
    if (!cuda.isAvailable()) throw new Error(cuda.unavailableReason() ?? "CUDA is not available");
    this.context = cuda.useDevice(ordinal ?? Number(tryGetEnv("CUDENO_DEVICE") ?? "0"));
    this.device = `cuda:${this.context.device.ordinal} ${this.context.device.name}`;
    // Arrays come and go with every operation: keep freed memory in the pool for the next ones.
    cuda.setMemPoolReleaseThreshold(this.context.device, 2n ** 64n - 1n);
  }

  /** cuDNN on this backend's context, looked for on first use; undefined where it does not load. */
  get dnn(): Dnn | undefined {
    if (this.#dnn === null) this.#dnn = cudnnOf(this);
    return this.#dnn;
  }

  /** cuFFT on this backend's context, looked for on first use; undefined where it does not load. */
  get fft(): Fft | undefined {
    if (this.#fft === null) this.#fft = cufftOf(this);
    return this.#fft;
  }

  supports(_dtype: DType): boolean {
    return true;
  }

  owns(value: unknown): boolean {
    return value instanceof cuda.DeviceAllocation;
  }

  /**
   * The stream work on this backend queues on now: the current stream (`ga.withStream()`), else
   * undefined for the legacy default stream. `action` names the work for errors.
   *
   * @throws {TypeError} for a current stream of another device, and (in a capture's mode
   * `"global"` or `"threadLocal"`) for work on the legacy default stream while a capture is in
   * progress, which would break the capture; `fix` says what to do instead.
   */
  streamFor(action: string, fix = RECORD_IT): cuda.Stream | undefined {
    const stream = currentStream();
    if (stream === undefined) {
      if (capturesInProgress !== 0) refuseWhileCapturing(`${action} on the legacy default stream`, fix);
      return undefined;
    }
    if (stream.destroyed) {
      throw new TypeError(
        `Cannot ${action}: the current stream was destroyed (or its context reset); make a live stream current with ga.withStream() or ga.useStream()`,
      );
    }
    if (stream.context !== this.context) {
      throw new TypeError(
        `Cannot ${action} on ${this.device} while a stream of cuda:${stream.context.device.ordinal} is current: make a stream of this device current with ga.withStream(), or leave it`,
      );
    }
    return stream;
  }

  /**
   * {@link streamFor} for what waits for the device, refused while the stream is capturing, with
   * `why` after the capture's name.
   */
  #waitable(
    action: string,
    why = "a capture records work without running it, so there is no result yet; launch the graph, then read",
  ): cuda.Stream | undefined {
    const stream = this.streamFor(action, "read before or after the capture");
    const capture = stream === undefined || capturesInProgress === 0 ? undefined : captureOn(stream);
    if (capture !== undefined) {
      throw new TypeError(
        `Cannot ${action} while the current stream is capturing (capture ${capture.id}): ${why}`,
      );
    }
    return stream;
  }

  alloc(bytes: number): BackendBuffer {
    const stream = this.streamFor("allocate an array");
    this.context.setCurrent();
    return cuda.memAllocAsync(Math.max(1, bytes), stream);
  }

  write(dst: BackendBuffer, src: ArrayBufferView, byteOffset: number): void {
    const stream = this.streamFor("copy host data into an array");
    const capture = stream === undefined || capturesInProgress === 0 ? undefined : captureOn(stream);
    if (capture !== undefined) {
      throw new TypeError(
        `Cannot copy host data into an array while the current stream is capturing (capture ${capture.id}): a graph cannot copy from pageable host memory; copy it before the capture begins`,
      );
    }
    this.context.setCurrent();
    const ptr = (dst as cuda.DeviceAllocation).ptr + BigInt(byteOffset);
    if (stream === undefined) cuda.memcpyHtoD(ptr, src);
    else cuda.memcpyHtoDAsync(ptr, src, stream); // from pageable memory: staged before it returns
  }

  checkHostRead(call: string, reads?: string): void {
    refuseHostRead(call, reads);
    if (reads === undefined) this.#waitable(`return the result of ${call} to the host`);
    else {
      this.#waitable(
        `run ${call}`,
        `it reads ${reads} on the host, which a capture cannot give (it records work without running it); run ${call} before or after the capture`,
      );
    }
  }

  read(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): void {
    const stream = this.#waitable("read an array to the host");
    this.context.setCurrent();
    const ptr = (src as cuda.DeviceAllocation).ptr + BigInt(byteOffset);
    if (stream === undefined) cuda.memcpyDtoH(dst, ptr);
    else {
      cuda.memcpyDtoHAsync(dst, ptr, stream);
      stream.synchronize();
    }
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): Promise<void> {
    // A copy into pageable memory would block the thread; stage through pinned memory on the current
    // stream, else on a stream that, being a blocking stream, waits for the work of the default one.
    const current = this.#waitable("read an array to the host");
    this.context.setCurrent();
    const stream = current ?? (this.#stream ??= new cuda.Stream());
    using staging = cuda.pagelockedEmpty(dst.byteLength, "uint8");
    cuda.memcpyDtoHAsync(staging.array, (src as cuda.DeviceAllocation).ptr + BigInt(byteOffset), stream);
    await stream.completed();
    new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(staging.array);
  }

  copy(dst: BackendBuffer, dstOffset: number, src: BackendBuffer, srcOffset: number, bytes: number): void {
    const stream = this.streamFor("copy between arrays");
    this.context.setCurrent();
    cuda.memcpyDtoDAsync(
      (dst as cuda.DeviceAllocation).ptr + BigInt(dstOffset),
      (src as cuda.DeviceAllocation).ptr + BigInt(srcOffset),
      bytes,
      stream,
    );
  }

  kernel(key: string, make: () => KernelSource): BackendKernel {
    let k = this.#kernels.get(key);
    if (k === undefined) {
      // Loading a module while a stream captures may break the capture.
      if (capturesInProgress !== 0) {
        refuseInCompile(
          "compile a kernel for its first launch",
          "its first calls ran eagerly and compiled the kernels of what they did, and this call does other work",
          "make the step do the same work at every call (a branch on its arguments' values cannot be compiled)",
        );
        refuseWhileCapturing(
          "compile a kernel for its first launch",
          "run the same work once before the capture begins, so that its kernels are compiled",
        );
      }
      this.context.setCurrent();
      k = new CudaKernel(make(), this);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.context.synchronize();
  }

  record(fn: () => void): Recorded {
    this.context.setCurrent();
    // Non-blocking, so that another Worker's launches on the legacy default stream neither wait on the
    // capture nor invalidate it (they would with a blocking stream: CUDA_ERROR_STREAM_CAPTURE_IMPLICIT).
    const stream = new cuda.Stream({ nonBlocking: true });
    prepareLtStream(this, stream);
    let exec: cuda.GraphExec;
    try {
      using graph = asRecording(() => cuda.capture(stream, () => withStream(stream, fn)));
      exec = graph.instantiate();
    } catch (e) {
      stream.destroy();
      throw e;
    }
    return {
      run: () => {
        const on = this.streamFor("replay a compiled step");
        this.context.setCurrent();
        exec.launch(on);
      },
      free: () => {
        exec.free();
        stream.destroy();
      },
    };
  }
}
