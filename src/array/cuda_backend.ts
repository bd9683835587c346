/**
 * GPU arrays over the CUDA core: device allocations, NVRTC-compiled kernels on the legacy default
 * stream, and cuBLAS for matrix products.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import { launchValues, type ListLaunchable, type WrittenLaunch, writtenLaunch } from "../cuda/function.ts";
import type {
  Backend,
  BackendBuffer,
  BackendKernel,
  BoundLaunch,
  LaunchShape,
  MiscountedLaunch,
  RefusedLaunch,
} from "./backend.ts";
import { GPUArray, unsafeBufferOf } from "./gpuarray.ts";
import { liveAddress } from "../cuda/memory.ts";
import type { DType } from "../kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { MAX_FIXED_ARGS } from "../kernel/fixed_arity.ts";

/** `name` from `source`, through the SourceModule caches, in the current context. */
function compileFunction(source: string, name: string): ListLaunchable {
  return new cuda.SourceModule(source).getFunction(name) as ListLaunchable;
}

/**
 * A kernel compiled for one context. It recompiles (from the disk cache) when the context was reset
 * since, so a holder never launches a function of an unloaded module.
 */
class CudaKernel implements BackendKernel {
  readonly #source: string;
  readonly #name: string;
  readonly #backend: CudaBackend;
  /** The function's launch from a list, and in two halves, read once per compile. */
  #launch: ListLaunchable[typeof launchValues];
  #written: WrittenLaunch;
  #generation: number;
  /** The call's values, arguments then the shape, reused by every launch. */
  readonly #call: unknown[];

  constructor(source: string, name: string, backend: CudaBackend) {
    this.#source = source;
    this.#name = name;
    this.#backend = backend;
    this.#generation = backend.context.generation;
    const fn = compileFunction(source, name);
    this.#launch = fn[launchValues];
    this.#written = fn[writtenLaunch];
    this.#call = Array.from({ length: fn.params.length + 1 }, () => undefined); // packed, not holey
  }

  launch(shape: LaunchShape, args: readonly unknown[]): void {
    const call = this.#call, n = args.length;
    for (let i = 0; i < n; i++) call[i] = args[i];
    call[n] = shape;
    try {
      this.#current();
      this.#launch(call, n + 1);
    } finally {
      // Hold no argument past the launch, so dropped arrays stay collectable.
      for (let i = 0; i < call.length; i++) call[i] = undefined;
    }
  }

  bind(
    arrays: readonly (DType | undefined)[],
    refused: RefusedLaunch,
    miscount: MiscountedLaunch,
  ): BoundLaunch {
    const n = arrays.length, expected = n + 1, backend = this.#backend, context = backend.context;
    // Held here rather than read through this kernel each launch; renewed when the context was reset.
    let generation = -1, block = this.#written.block, launch = this.#written.launch;
    // What the launch uses from other modules, held here too: each launch then reads one closure's
    // variables, not the module's imports (a launch comes right after a driver call that has pushed
    // most of these out of the processor's caches).
    const ArrayClass = GPUArray, Allocation = cuda.DeviceAllocation;
    const bufferOf = unsafeBufferOf, addressOf = liveAddress;
    const ready = (): void => {
      context.setCurrent();
      if (generation !== context.generation) {
        this.#current();
        block = this.#written.block;
        launch = this.#written.launch;
        generation = context.generation;
      }
    };
    // Writes argument `i` into the function's argument block, or says it is not this backend's. The
    // element types are known here, so no address goes through the core's resolving of whatever a
    // pointer may be.
    const put = (i: number, value: unknown): boolean => {
      const dtype = arrays[i];
      if (dtype === undefined) {
        block.write(i, value);
      } else if (value instanceof ArrayClass) {
        if (value.backend !== backend || value.dtype !== dtype) return false;
        // One check of the memory; when it is gone, the array's getter throws the array's own error.
        const address = addressOf(bufferOf(value) as cuda.DeviceAllocation);
        block.writePointer(i, address ?? (value.buffer as cuda.DeviceAllocation).ptr);
      } else if (value instanceof Allocation) {
        block.writePointer(i, value.ptr);
      } else {
        return false;
      }
      return true;
    };
    if (n > MAX_FIXED_ARGS) {
      return (shape, ...args) => {
        if (args.length !== n) return miscount(args.length + 1);
        ready();
        for (let i = 0; i < n; i++) if (!put(i, args[i])) return refused(i, shape, ...args);
        launch(shape, true); // this kernel holds the module; ready() checked its context
      };
    }
    // The arguments as formal parameters, so none is copied into a list. Written last to first, so
    // `at` ends at the first argument refused.
    // deno-fmt-ignore
    return function (shape: LaunchShape, a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown, a4?: unknown, a5?: unknown, a6?: unknown, a7?: unknown, a8?: unknown, a9?: unknown, a10?: unknown, a11?: unknown, a12?: unknown, a13?: unknown, a14?: unknown, a15?: unknown): void {
      if (arguments.length !== expected) return miscount(arguments.length);
      ready();
      let at = -1;
      switch (n) {
        case 16: if (!put(15, a15)) at = 15; // falls through
        case 15: if (!put(14, a14)) at = 14; // falls through
        case 14: if (!put(13, a13)) at = 13; // falls through
        case 13: if (!put(12, a12)) at = 12; // falls through
        case 12: if (!put(11, a11)) at = 11; // falls through
        case 11: if (!put(10, a10)) at = 10; // falls through
        case 10: if (!put(9, a9)) at = 9; // falls through
        case 9: if (!put(8, a8)) at = 8; // falls through
        case 8: if (!put(7, a7)) at = 7; // falls through
        case 7: if (!put(6, a6)) at = 6; // falls through
        case 6: if (!put(5, a5)) at = 5; // falls through
        case 5: if (!put(4, a4)) at = 4; // falls through
        case 4: if (!put(3, a3)) at = 3; // falls through
        case 3: if (!put(2, a2)) at = 2; // falls through
        case 2: if (!put(1, a1)) at = 1; // falls through
        case 1: if (!put(0, a0)) at = 0;
      }
      if (at >= 0) return refused(at, shape, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
      launch(shape, true); // this kernel holds the module; ready() checked its context
    } as BoundLaunch;
  }

  /** Makes the context current, and recompiles when it was reset since the last compile. */
  #current(): void {
    const context = this.#backend.context;
    context.setCurrent();
    if (this.#generation !== context.generation) {
      const fn = compileFunction(this.#source, this.#name);
      this.#launch = fn[launchValues];
      this.#written = fn[writtenLaunch];
      this.#generation = context.generation;
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
    const key = `${name}\u0000${source}`;
    let k = this.#kernels.get(key);
    if (k === undefined) {
      this.context.setCurrent();
      k = new CudaKernel(source, name, this);
      this.#kernels.set(key, k);
    }
    return k;
  }

  synchronize(): void {
    this.context.synchronize();
  }
}
