/**
 * GPU arrays over the OpenCL core: buffers of one context, programs built once per source, and one
 * in-order queue.
 *
 * @module
 */

import * as cl from "../opencl/mod.ts";
import type {
  Backend,
  BackendBuffer,
  BackendKernel,
  BoundLaunch,
  LaunchShape,
  MiscountedLaunch,
  RefusedLaunch,
} from "./backend.ts";
import { GPUArray } from "./gpuarray.ts";
import type { DType } from "../kernel/dtype.ts";
import { fixedArity } from "../kernel/fixed_arity.ts";

class OpenCLKernel implements BackendKernel {
  readonly #kernel: cl.Kernel;
  readonly #queue: cl.CommandQueue;
  readonly #backend: OpenCLBackend;
  /** The call's values, queue, sizes and arguments, reused by every launch (passed with `Reflect.apply`). */
  readonly #call: unknown[];

  constructor(kernel: cl.Kernel, backend: OpenCLBackend) {
    this.#kernel = kernel;
    this.#queue = backend.queue;
    this.#backend = backend;
    this.#call = Array.from({ length: kernel.params.length + 3 }, () => undefined);
  }

  launch(shape: LaunchShape, args: readonly unknown[]): void {
    this.#launchFrom(shape, args, args.length);
  }

  bind(
    arrays: readonly (DType | undefined)[],
    refused: RefusedLaunch,
    miscount: MiscountedLaunch,
  ): BoundLaunch {
    const n = arrays.length, backend = this.#backend;
    // The arguments land in one reused list (then the shape), which the launch maps in place.
    return fixedArity(n, n + 1, (values, given) => {
      if (given !== n + 1) return miscount(given);
      // Every array is checked before any is mapped, so a refused launch gets its values as given.
      for (let i = 0; i < n; i++) {
        const dtype = arrays[i], value = values[i];
        if (dtype === undefined || value instanceof cl.Buffer) continue;
        if (!(value instanceof GPUArray) || value.backend !== backend || value.dtype !== dtype) {
          return refused(i, values[n] as LaunchShape, ...values.slice(0, n));
        }
      }
      for (let i = 0; i < n; i++) {
        const value = values[i];
        if (arrays[i] !== undefined && value instanceof GPUArray) values[i] = value.buffer;
      }
      this.#launchFrom(values[n] as LaunchShape, values, n);
    }, { firstLast: true }) as BoundLaunch;
  }

  /** Queues with the first `n` of `args`: work-items are blocks × threads per block, per dimension. */
  #launchFrom(shape: LaunchShape, args: readonly unknown[], n: number): void {
    const call = this.#call;
    const grid = shape.grid, block = shape.block;
    call[0] = this.#queue;
    if (typeof grid === "number" && typeof block === "number") {
      call[1] = grid * block;
      call[2] = block;
    } else {
      const g = typeof grid === "number" ? [grid] : grid;
      const b = typeof block === "number" ? [block] : block;
      const dims = Math.max(g.length, b.length);
      call[1] = Array.from({ length: dims }, (_, i) => (g[i] ?? 1) * (b[i] ?? 1));
      call[2] = Array.from({ length: dims }, (_, i) => b[i] ?? 1);
    }
    if (call.length !== n + 3) call.length = n + 3; // a wrong count, which the kernel reports
    for (let i = 0; i < n; i++) call[i + 3] = args[i];
    try {
      Reflect.apply(this.#kernel.launch, this.#kernel, call);
    } finally {
      // Hold no argument past the launch, so dropped arrays stay collectable.
      for (let i = 0; i < call.length; i++) call[i] = undefined;
    }
  }
}

/** The OpenCL implementation of {@link Backend}. */
export class OpenCLBackend implements Backend {
  readonly name = "opencl" as const;
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

  supports(dtype: DType): boolean {
    if (dtype === "float64") return this.#fp64;
    if (dtype === "float16") return this.#fp16;
    return dtype !== "bfloat16";
  }

  alloc(bytes: number): BackendBuffer {
    return new cl.Buffer(this.context, Math.max(1, bytes));
  }

  write(dst: BackendBuffer, src: ArrayBufferView): void {
    if (src.byteLength > 0) cl.enqueueCopy(this.queue, dst as cl.Buffer, src).release();
  }

  read(dst: ArrayBufferView, src: BackendBuffer): void {
    if (dst.byteLength > 0) cl.enqueueCopy(this.queue, dst, src as cl.Buffer).release();
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer): Promise<void> {
    if (dst.byteLength === 0) return;
    using ev = cl.enqueueCopy(this.queue, dst, src as cl.Buffer, { isBlocking: false });
    await ev.completed();
  }

  copy(dst: BackendBuffer, src: BackendBuffer, bytes: number): void {
    if (bytes > 0) {
      cl.enqueueCopy(this.queue, dst as cl.Buffer, src as cl.Buffer, { byteCount: bytes }).release();
    }
  }

  kernel(source: string, name: string): BackendKernel {
    const key = `${name}\u0000${source}`;
    let k = this.#kernels.get(key);
    if (k === undefined) {
      // NumPy's results need IEEE division and square roots; some drivers (NVIDIA's) default to faster ones.
      const program = new cl.Program(this.context, source).build(["-cl-fp32-correctly-rounded-divide-sqrt"]);
      k = new OpenCLKernel(program.getKernel(name), this);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.queue.finish();
  }
}
