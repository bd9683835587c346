/**
 * Reading the CUDA device's free memory in a test while other processes, and other Workers of this
 * one (a parallel test run), allocate and free on the same device: their memory comes and goes, while
 * memory this process leaked stays.
 */
import * as cuda from "../src/cuda/mod.ts";

/**
 * `read()` (a difference of free-memory readings) once it is `ok`, reading again every 50 ms for
 * about a second while it is not; the last reading if it never is. A leak keeps every reading off;
 * another process's allocation only some of them.
 *
 * @example
 * ```ts
 * import * as cuda from "../src/cuda/mod.ts";
 * import { settled } from "./_device_memory.ts";
 * const before = cuda.memGetInfo().free;
 * const held = await settled(() => before - cuda.memGetInfo().free, (d) => d < 2n ** 20n);
 * ```
 */
export async function settled(read: () => bigint, ok: (value: bigint) => boolean): Promise<bigint> {
  let value = read();
  for (let i = 0; i < 20 && !ok(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = read();
  }
  return value;
}

/** The device's free memory now, in bytes (the current context's device). */
export function freeMemory(): bigint {
  return cuda.memGetInfo().free;
}
