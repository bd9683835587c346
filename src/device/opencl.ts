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
  type Recorded,
  WORKER_BOUND,
} from "./backend.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import type { DType } from "../kernel/dtype.ts";
import { currentStream } from "./stream.ts";
import { asRecording, refuseHostRead } from "./compiling.ts";

/**
 * Memory taken while a recording is in progress: the recording's own. `free()` from an array that
 * used it hands it back to the recording, which gives it to a later allocation of the same size in
 * the same recording (the replay runs the commands in the same order, so the uses never overlap) and
 * keeps it until the recording is freed.
 */
class RecordedBuffer extends cl.Buffer {
  readonly #owner: Recording;
  constructor(context: cl.Context, size: number, owner: Recording) {
    super(context, size);
    this.#owner = owner;
  }
  override free(): void {
    if (recording === this.#owner) this.#owner.spare.push(this);
  }
  /** Gives the memory back to the device. */
  release(): void {
    super.free();
  }
}

/** A recording in progress: its commands, and the memory it took. */
class Recording {
  readonly commands: (() => void)[] = [];
  readonly taken: RecordedBuffer[] = [];
  readonly spare: RecordedBuffer[] = [];
  constructor(readonly backend: OpenCLBackend) {}

  alloc(context: cl.Context, bytes: number): RecordedBuffer {
    const i = this.spare.findIndex((b) => b.size === bytes);
    if (i >= 0) return this.spare.splice(i, 1)[0]!;
    const buffer = new RecordedBuffer(context, bytes, this);
    this.taken.push(buffer);
    return buffer;
  }
}

/** The recording in progress in this Worker, if any. */
let recording: Recording | undefined;

/** The recording `backend`'s work goes to, if one is in progress. */
function recordingOf(backend: OpenCLBackend): Recording | undefined {
  return recording?.backend === backend ? recording : undefined;
}

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
  readonly #backend: OpenCLBackend;
  readonly #device: string;
  /** The call's values, queue, sizes and arguments, reused by every launch. */
  readonly #call: unknown[] = [];

  constructor(kernel: cl.Kernel, backend: OpenCLBackend) {
    this.#kernel = kernel;
    this.#queue = backend.queue;
    this.#backend = backend;
    this.#device = backend.device;
  }

  /** Queues the kernel: work-items are blocks × threads per block, per dimension. */
  launch(shape: LaunchConfig, args: readonly unknown[]): void {
    if (shape.stream !== undefined) {
      throw new TypeError(
        `Cannot launch a kernel on ${this.#device} with a CUDA stream: OpenCL arrays use their backend's own queue; leave out stream`,
      );
    }
    refuseCudaStream(this.#device, "launch a kernel");
    const into = recording === undefined ? undefined : recordingOf(this.#backend);
    if (into !== undefined) {
      const config = { grid: shape.grid, block: shape.block }, values = args.slice();
      into.commands.push(() => this.launch(config, values));
      return;
    }
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
    const into = recordingOf(this);
    if (into !== undefined) return into.alloc(this.context, Math.max(1, bytes));
    return new cl.Buffer(this.context, Math.max(1, bytes));
  }

  write(dst: BackendBuffer, src: ArrayBufferView, byteOffset: number): void {
    refuseCudaStream(this.device, "copy host data into an array");
    const into = recordingOf(this);
    if (into !== undefined) {
      // The data as it is now, written again at every replay.
      const bytes = new Uint8Array(src.buffer, src.byteOffset, src.byteLength).slice();
      into.commands.push(() => this.write(dst, bytes, byteOffset));
      return;
    }
    if (src.byteLength > 0) {
      cl.enqueueCopy(this.queue, dst as cl.Buffer, src, { dstOffset: byteOffset }).release();
    }
  }

  checkHostRead(call: string, reads?: string): void {
    refuseHostRead(call, reads);
    refuseCudaStream(
      this.device,
      reads === undefined ? `return the result of ${call} to the host` : `run ${call}`,
    );
  }

  read(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): void {
    refuseHostRead("a read of an array");
    refuseCudaStream(this.device, "read an array to the host");
    if (dst.byteLength > 0) {
      cl.enqueueCopy(this.queue, dst, src as cl.Buffer, { srcOffset: byteOffset }).release();
    }
  }

  async readAsync(dst: ArrayBufferView, src: BackendBuffer, byteOffset: number): Promise<void> {
    refuseHostRead("a read of an array");
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
    const into = recordingOf(this);
    if (into !== undefined) {
      into.commands.push(() => this.copy(dst, dstOffset, src, srcOffset, bytes));
      return;
    }
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
      k = new OpenCLKernel(program.getKernel(name), this);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    if (recordingOf(this) === undefined) this.queue.finish();
  }

  record(fn: () => void): Recorded {
    if (recording !== undefined) {
      throw new TypeError(
        "Cannot record device work inside another recording: record the outer function only",
      );
    }
    const into = new Recording(this);
    recording = into;
    let done = false;
    try {
      asRecording(fn);
      done = true;
    } finally {
      recording = undefined;
      if (!done) { for (const b of into.taken) b.release(); }
    }
    const commands = into.commands;
    let freed = false;
    return {
      run: () => {
        if (freed) throw new TypeError("Cannot run a recording that was freed: record the work again");
        for (const command of commands) command();
      },
      free: () => {
        if (freed) return;
        freed = true;
        commands.length = 0;
        for (const b of into.taken) b.release();
      },
    };
  }
}
