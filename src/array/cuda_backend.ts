/**
 * GPU arrays over the CUDA core: device allocations, NVRTC-compiled kernels launched through
 * `fn(...)` on the legacy default stream, and cuBLAS for matrix products.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import type { Backend, BackendBuffer, BackendKernel, KernelSource } from "./backend.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import type { DType } from "../kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";

/**
 * A kernel compiled for one context. It recompiles (from the disk cache) when the context was reset
 * since, so a holder never launches a function of an unloaded module.
 */
class CudaKernel implements BackendKernel {
  readonly #source: KernelSource;
  readonly #context: cuda.Context;
  #fn: cuda.KernelFunction;
  #generation: number;

  constructor(source: KernelSource, context: cuda.Context) {
    this.#source = source;
    this.#context = context;
    this.#generation = context.generation;
    this.#fn = new cuda.SourceModule(source.source).getFunction(source.name);
  }

  launch(config: LaunchConfig, args: readonly unknown[]): void {
    const context = this.#context;
    context.setCurrent();
    if (this.#generation !== context.generation) {
      this.#fn = new cuda.SourceModule(this.#source.source).getFunction(this.#source.name);
      this.#generation = context.generation;
    }
    // fn(...) takes the arguments as formal parameters; a call with them spread from a list would
    // make V8 copy them once more, so the common arities call it directly.
    const fn = this.#fn, a = args;
    switch (a.length) {
      case 0:
        return fn(config);
      case 1:
        return fn(a[0], config);
      case 2:
        return fn(a[0], a[1], config);
      case 3:
        return fn(a[0], a[1], a[2], config);
      case 4:
        return fn(a[0], a[1], a[2], a[3], config);
      case 5:
        return fn(a[0], a[1], a[2], a[3], a[4], config);
      case 6:
        return fn(a[0], a[1], a[2], a[3], a[4], a[5], config);
      default:
        return fn(...a, config);
    }
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
  #stream: cuda.Stream | undefined;

  /** Starts on device `ordinal` (default `CUDENO_DEVICE`, else 0), making its primary context current. */
  constructor(ordinal?: number) {
    if (!cuda.isAvailable()) throw new Error(cuda.unavailableReason() ?? "CUDA is not available");
    this.context = cuda.useDevice(ordinal ?? Number(tryGetEnv("CUDENO_DEVICE") ?? "0"));
    this.device = `cuda:${this.context.device.ordinal} ${this.context.device.name}`;
    // Arrays come and go with every operation: keep freed memory in the pool for the next ones.
    cuda.setMemPoolReleaseThreshold(this.context.device, 2n ** 64n - 1n);
  }

  supports(_dtype: DType): boolean {
    return true;
  }

  alloc(bytes: number): BackendBuffer {
    this.context.setCurrent();
    return cuda.memAllocAsync(Math.max(1, bytes));
  }

  write(dst: BackendBuffer, src: ArrayBufferView, byteOffset: number): void {
    this.context.setCurrent();
    cuda.memcpyHtoD((dst as cuda.DeviceAllocation).ptr + BigInt(byteOffset), src);
  }

  read(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): void {
    this.context.setCurrent();
    cuda.memcpyDtoH(dst, (src as cuda.DeviceAllocation).ptr + BigInt(byteOffset));
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): Promise<void> {
    // A copy into pageable memory would block the thread; stage through pinned memory on a stream
    // that, being a blocking stream, waits for the kernels queued on the default stream.
    this.context.setCurrent();
    this.#stream ??= new cuda.Stream();
    using staging = cuda.pagelockedEmpty(dst.byteLength, "uint8");
    cuda.memcpyDtoHAsync(
      staging.array,
      (src as cuda.DeviceAllocation).ptr + BigInt(byteOffset),
      this.#stream,
    );
    await this.#stream.completed();
    new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(staging.array);
  }

  copy(dst: BackendBuffer, dstOffset: number, src: BackendBuffer, srcOffset: number, bytes: number): void {
    this.context.setCurrent();
    cuda.memcpyDtoDAsync(
      (dst as cuda.DeviceAllocation).ptr + BigInt(dstOffset),
      (src as cuda.DeviceAllocation).ptr + BigInt(srcOffset),
      bytes,
    );
  }

  kernel(key: string, make: () => KernelSource): BackendKernel {
    let k = this.#kernels.get(key);
    if (k === undefined) {
      this.context.setCurrent();
      k = new CudaKernel(make(), this.context);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.context.synchronize();
  }
}
