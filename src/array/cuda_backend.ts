/**
 * GPU arrays over the CUDA core: device allocations, NVRTC-compiled kernels on the legacy default
 * stream, and cuBLAS for matrix products.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import type { Backend, BackendBuffer, BackendKernel, LaunchShape } from "./backend.ts";
import type { DType } from "../kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";

class CudaKernel implements BackendKernel {
  readonly #fn: cuda.KernelFunction;
  readonly #context: cuda.Context;
  constructor(fn: cuda.KernelFunction, context: cuda.Context) {
    this.#fn = fn;
    this.#context = context;
  }
  launch(shape: LaunchShape, args: readonly unknown[]): void {
    this.#context.setCurrent();
    this.#fn(...args, shape);
  }
}

/** The CUDA implementation of {@link Backend}. */
export class CudaBackend implements Backend {
  readonly name = "cuda" as const;
  readonly dialect = "cuda" as const;
  readonly device: string;
  /** The context arrays live in. */
  readonly context: cuda.Context;
  readonly #kernels = new Map<string, CudaKernel>();
  #generation: number;
  #stream: cuda.Stream | undefined;

  /** Starts on device `ordinal` (default `CUDENO_DEVICE`, else 0), making its primary context current. */
  constructor(ordinal?: number) {
    if (!cuda.isAvailable()) throw new Error(cuda.unavailableReason() ?? "CUDA is not available");
    this.context = cuda.useDevice(ordinal ?? Number(tryGetEnv("CUDENO_DEVICE") ?? "0"));
    this.device = `cuda:${this.context.device.ordinal} ${this.context.device.name}`;
    this.#generation = this.context.generation;
  }

  supports(_dtype: DType): boolean {
    return true;
  }

  alloc(bytes: number): BackendBuffer {
    this.context.setCurrent();
    return cuda.memAlloc(Math.max(1, bytes));
  }

  write(dst: BackendBuffer, src: ArrayBufferView): void {
    this.context.setCurrent();
    cuda.memcpyHtoD(dst as cuda.DeviceAllocation, src);
  }

  read(dst: ArrayBufferView, src: BackendBuffer): void {
    this.context.setCurrent();
    cuda.memcpyDtoH(dst, src as cuda.DeviceAllocation);
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer): Promise<void> {
    // A copy into pageable memory would block the thread; stage through pinned memory on a stream
    // that, being a blocking stream, waits for the kernels queued on the default stream.
    this.context.setCurrent();
    this.#stream ??= new cuda.Stream();
    using staging = cuda.pagelockedEmpty(dst.byteLength, "uint8");
    cuda.memcpyDtoHAsync(staging.array, src as cuda.DeviceAllocation, this.#stream);
    await this.#stream.completed();
    new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(staging.array);
  }

  copy(dst: BackendBuffer, src: BackendBuffer, bytes: number): void {
    this.context.setCurrent();
    cuda.memcpyDtoDAsync(dst as cuda.DeviceAllocation, src as cuda.DeviceAllocation, bytes);
  }

  kernel(source: string, name: string): BackendKernel {
    if (this.#generation !== this.context.generation) {
      // The context was reset after a fault: its modules are gone, so compile (from the cache) anew.
      this.#kernels.clear();
      this.#generation = this.context.generation;
    }
    const key = `${name}\u0000${source}`;
    let k = this.#kernels.get(key);
    if (k === undefined) {
      this.context.setCurrent();
      k = new CudaKernel(new cuda.SourceModule(source).getFunction(name), this.context);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.context.synchronize();
  }
}
