/**
 * GPU arrays over the OpenCL core: buffers of one context, programs built once per kernel, and one
 * in-order queue.
 *
 * @module
 */

import * as cl from "../opencl/mod.ts";
import {
  type Backend,
  type BackendBuffer,
  type BackendKernel,
  type KernelSource,
  WORKER_BOUND,
} from "./backend.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import type { DType } from "../kernel/dtype.ts";
import { currentStream } from "./stream.ts";

/**
 * Refuses OpenCL array work while a CUDA stream is current (`ga.withStream()`, `ga.useStream()`):
 * it could not go to that stream, nor be captured with it.
 */
function refuseCudaStream(device: string, action: string): void {
  if (currentStream() !== undefined) {
    throw new TypeError(
      `Cannot ${action} on ${device} while a CUDA stream is current (ga.withStream() or ga.useStream()): OpenCL arrays use their backend's own queue; run this work outside ga.withStream(), or after ga.useStream(undefined)`,
    );
  }
}

class OpenCLKernel implements BackendKernel {
  readonly #kernel: cl.Kernel;
  readonly #queue: cl.CommandQueue;
  readonly #device: string;
  /** The call's values, queue, sizes and arguments, reused by every launch. */
  readonly #call: unknown[] = [];

  constructor(kernel: cl.Kernel, queue: cl.CommandQueue, device: string) {
    this.#kernel = kernel;
    this.#queue = queue;
    this.#device = device;
  }

  /** Queues the kernel: work-items are blocks × threads per block, per dimension. */
  launch(shape: LaunchConfig, args: readonly unknown[]): void {
    if (shape.stream !== undefined) {
      throw new TypeError(
        `Cannot launch a kernel on ${this.#device} with a CUDA stream: OpenCL arrays use their backend's own queue; leave out stream`,
      );
    }
    refuseCudaStream(this.#device, "launch a kernel");
    const call = this.#call, n = args.length;
    const grid = typeof shape.grid === "number" ? [shape.grid] : shape.grid ?? [1];
    const block = typeof shape.block === "number" ? [shape.block] : shape.block;
    const dims = Math.max(grid.length, block.length);
    call.length = n + 3;
    call[0] = this.#queue;
    call[1] = Array.from({ length: dims }, (_, i) => (grid[i] ?? 1) * (block[i] ?? 1));
    call[2] = Array.from({ length: dims }, (_, i) => block[i] ?? 1);
    for (let i = 0; i < n; i++) call[i + 3] = args[i];
    try {
      Reflect.apply(this.#kernel.launch, this.#kernel, call);
    } finally {
      call.fill(undefined); // hold no argument past the launch, so dropped arrays stay collectable
    }
  }
}

/** The OpenCL implementation of {@link Backend}. */
export class OpenCLBackend implements Backend {
  readonly name = "opencl" as const;
  /** Makes posting this backend, or an array on it, to another Worker an error ({@link WORKER_BOUND}). */
  readonly worker: typeof WORKER_BOUND = WORKER_BOUND;
  readonly dialect = "opencl" as const;
  readonly device: string;
  /** The context arrays live in. */
  readonly context: cl.Context;
  /** The queue all array work goes to. */
  readonly queue: cl.CommandQueue;
  readonly #kernels = new Map<string, OpenCLKernel>();
  readonly #fp64: boolean;
  readonly #fp16: boolean;

  /** Starts on `createSomeContext()`'s device. */
  constructor() {
    this.context = cl.createSomeContext();
    this.queue = new cl.CommandQueue(this.context);
    const d = this.context.device;
    this.device = `opencl:${d.platform.index}:${d.index} ${d.name}`;
    this.#fp64 = d.supportsFloat64;
    this.#fp16 = d.supportsFloat16;
  }

  owns(value: unknown): boolean {
    return value instanceof cl.Buffer;
  }

  supports(dtype: DType): boolean {
    if (dtype === "float64" || dtype === "complex128") return this.#fp64;
    if (dtype === "float16") return this.#fp16;
    return dtype !== "bfloat16";
  }

  alloc(bytes: number): BackendBuffer {
    refuseCudaStream(this.device, "allocate an array");
    return new cl.Buffer(this.context, Math.max(1, bytes));
  }

  write(dst: BackendBuffer, src: ArrayBufferView, byteOffset: number): void {
    refuseCudaStream(this.device, "copy host data into an array");
    if (src.byteLength > 0) {
      cl.enqueueCopy(this.queue, dst as cl.Buffer, src, { dstOffset: byteOffset }).release();
    }
  }

  checkHostRead(call: string, reads?: string): void {
    refuseCudaStream(
      this.device,
      reads === undefined ? `return the result of ${call} to the host` : `run ${call}`,
    );
  }

  read(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): void {
    refuseCudaStream(this.device, "read an array to the host");
    if (dst.byteLength > 0) {
      cl.enqueueCopy(this.queue, dst, src as cl.Buffer, { srcOffset: byteOffset }).release();
    }
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): Promise<void> {
    refuseCudaStream(this.device, "read an array to the host");
    if (dst.byteLength === 0) return;
    using ev = cl.enqueueCopy(this.queue, dst, src as cl.Buffer, {
      isBlocking: false,
      srcOffset: byteOffset,
    });
    await ev.completed();
  }

  copy(dst: BackendBuffer, dstOffset: number, src: BackendBuffer, srcOffset: number, bytes: number): void {
    refuseCudaStream(this.device, "copy between arrays");
    if (bytes > 0) {
      cl.enqueueCopy(this.queue, dst as cl.Buffer, src as cl.Buffer, {
        byteCount: bytes,
        dstOffset,
        srcOffset,
      })
        .release();
    }
  }

  kernel(key: string, make: () => KernelSource): BackendKernel {
    let k = this.#kernels.get(key);
    if (k === undefined) {
      const { source, name } = make();
      // NumPy's results need IEEE division and square roots; some drivers (NVIDIA's) default to faster ones.
      const program = new cl.Program(this.context, source).build(["-cl-fp32-correctly-rounded-divide-sqrt"]);
      k = new OpenCLKernel(program.getKernel(name), this.queue, this.device);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.queue.finish();
  }
}
