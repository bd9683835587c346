/**
 * PyCUDA's `driver.In`, `driver.Out` and `driver.InOut`: host arrays passed straight to a launch,
 * copied to a temporary device buffer before it and back after it.
 *
 * @module
 */

import { type DeviceAllocation, memAlloc, memcpyDtoH, memcpyHtoD } from "./memory.ts";
import type { Stream } from "./stream.ts";
import { quietly } from "../kernel/cleanup.ts";

/** Which way a host argument's data goes. */
export type Direction = "in" | "out" | "inout";

/** A staged host argument: its array and the temporary device copy. */
export interface StagedArgument {
  /** The host argument. */
  readonly arg: HostArgument;
  /** Its temporary device copy. */
  readonly buffer: DeviceAllocation;
}

/**
 * A host typed array given to a launch (make one with {@link In}, {@link Out} or {@link InOut}).
 * The launch copies it in before (`in`, `inout`), waits for the kernel and copies it back after
 * (`out`, `inout`); the launch is then synchronous.
 */
export class HostArgument {
  /** The host array. */
  readonly array: ArrayBufferView;
  /** Which way the data goes. */
  readonly direction: Direction;

  /** Wraps `array`; see {@link In}, {@link Out}, {@link InOut}. */
  constructor(array: ArrayBufferView, direction: Direction) {
    if (!ArrayBuffer.isView(array)) {
      throw new TypeError(
        `Cannot wrap ${typeof array} as a kernel argument: In/Out/InOut take a typed array`,
      );
    }
    this.array = array;
    this.direction = direction;
  }

  /** Allocates the device copy (filling it for `in`/`inout`) and returns its address. */
  stage(staged: StagedArgument[]): bigint {
    const buffer = memAlloc(Math.max(1, this.array.byteLength));
    staged.push({ arg: this, buffer });
    if (this.direction !== "out") memcpyHtoD(buffer, this.array);
    return buffer.ptr;
  }

  /** After the launch: waits for it, copies `out`/`inout` arrays back (if it was queued) and frees the copies. */
  static complete(staged: StagedArgument[], stream: Stream | undefined, launched: boolean): void {
    try {
      if (launched) {
        stream?.synchronize();
        for (const s of staged) if (s.arg.direction !== "in") memcpyDtoH(s.arg.array, s.buffer);
      }
    } finally {
      for (const s of staged) quietly(() => s.buffer.free());
      staged.length = 0;
    }
  }
}

/**
 * Passes a host array to a launch as input: copied to the device before the kernel runs.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule("__global__ void twice(float *out, const float *a) { int i = threadIdx.x; out[i] = 2 * a[i]; }");
 * const a = new Float32Array([1, 2, 3, 4]), out = new Float32Array(4);
 * mod.getFunction("twice")(cuda.Out(out), cuda.In(a), { block: 4 });
 * ```
 */
export function In(array: ArrayBufferView): HostArgument {
  return new HostArgument(array, "in");
}

/**
 * Passes a host array to a launch as output: copied back from the device after the kernel has run.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const out = new Float32Array(4);
 * const arg = cuda.Out(out);
 * ```
 */
export function Out(array: ArrayBufferView): HostArgument {
  return new HostArgument(array, "out");
}

/**
 * Passes a host array to a launch both ways: copied in before and back after.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const data = new Float32Array([1, 2, 3]);
 * const arg = cuda.InOut(data);
 * ```
 */
export function InOut(array: ArrayBufferView): HostArgument {
  return new HostArgument(array, "inout");
}
