/**
 * Reading an array's elements to the host: `get()` and `getAsync()`, into a new typed array or one
 * the caller reuses.
 *
 * @module
 */

import { type DType, DTYPES, type HostArrayOf } from "../../kernel/dtype.ts";
import type { GPUArray } from "./gpuarray.ts";
import { showShape } from "./layout.ts";

/** The error for `get(i)`: get() copies the whole array and takes no index. */
function wholeOnly(a: GPUArray, call: string, given: unknown): never {
  throw new TypeError(
    `Cannot ${call}(${String(given)}) an array of shape ${
      showShape(a.shape)
    }: ${call}() copies the whole array and takes no index; for one element use a.item(i), for part of it a.slice(...).${call}()`,
  );
}

/** `out` checked for `a.call()` (a typed array of the dtype's kind and {@link size} elements), or a new one. */
function hostTarget<D extends DType>(
  a: GPUArray<D>,
  out: HostArrayOf[D] | undefined,
  call: string,
): HostArrayOf[D] {
  const expected = DTYPES[a.dtype].array;
  const length = a.size * DTYPES[a.dtype].parts;
  if (out === undefined) return new expected(length) as HostArrayOf[D];
  if (typeof out === "number" || typeof out === "bigint") wholeOnly(a, call, out);
  if (!(out instanceof expected)) {
    const given = (out as { constructor?: { name?: string } } | null)?.constructor?.name ?? String(out);
    throw new TypeError(
      `Cannot ${call}() a ${a.dtype} array into a ${given}: pass a ${expected.name} of ${length} elements`,
    );
  }
  if (out.length !== length) {
    throw new RangeError(
      `Cannot ${call}() an array of shape ${
        showShape(a.shape)
      } (${a.size} elements) into a ${expected.name} of ${out.length}: pass one of ${length} elements${
        length === a.size ? "" : " (real and imaginary parts interleaved)"
      }`,
    );
  }
  return out;
}

/** Checks to run before the elements of a buffer (an array or any view of it) are read, by buffer. */
const beforeRead = new WeakMap<object, () => void>();

/**
 * Runs `check` before `a`'s elements (or a view's) are first read to the host (`get`, `item`, `Number`,
 * printing): how a result whose inputs are validated on the device (a loss's class targets) reports a
 * bad input, in the user's terms, without making the computation wait for the device. `check` throws
 * for a bad input (every read then throws again), else it is dropped.
 */
export function checkBeforeRead(a: GPUArray, check: () => void): void {
  beforeRead.set(a.buffer, check);
}

function runCheck(a: GPUArray): void {
  const check = beforeRead.get(a.buffer);
  if (check === undefined) return;
  check();
  beforeRead.delete(a.buffer);
}

/** The elements of `a`, in C order, copied into `out` (checked) or a new typed array: `a.get(out)`. */
export function readHost<D extends DType>(a: GPUArray<D>, out?: HostArrayOf[D]): HostArrayOf[D] {
  runCheck(a);
  out = hostTarget(a, out, "get");
  a.backend.checkHostRead("get()");
  if (a.size === 0) return out;
  if (a.isContiguous) {
    a.backend.read(out, a.buffer, a.offset * a.itemsize);
  } else {
    using flat = a.copy();
    a.backend.read(out, flat.buffer, 0);
  }
  return out;
}

/** As {@link readHost}, without blocking Deno's event loop while the device finishes: `a.getAsync(out)`. */
export async function readHostAsync<D extends DType>(
  a: GPUArray<D>,
  out?: HostArrayOf[D],
): Promise<HostArrayOf[D]> {
  runCheck(a);
  out = hostTarget(a, out, "getAsync");
  a.backend.checkHostRead("getAsync()");
  if (a.size === 0) return out;
  if (a.isContiguous) {
    await a.backend.readAsync(out, a.buffer, a.offset * a.itemsize);
  } else {
    using flat = a.copy();
    await a.backend.readAsync(out, flat.buffer, 0);
  }
  return out;
}
