/**
 * Copies between host typed arrays and buffers and between buffers (PyOpenCL's `enqueue_copy`), and
 * buffer fills.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL } from "./errors.ts";
import { checkFirstUse } from "./out_of_memory.ts";
import { Event } from "./event.ts";
import type { CommandQueue } from "./queue.ts";
import { type BufferLike, isBufferLike, toBuffer } from "./buffer.ts";

/** Options for {@link enqueueCopy}. */
export interface CopyOptions {
  /** For host transfers, wait until the copy is done. Default true, as in PyOpenCL. */
  readonly isBlocking?: boolean;
  /** Bytes to copy. Default: all of the host array, or the smaller buffer. */
  readonly byteCount?: number;
  /** Byte offset into the source buffer. Default 0. */
  readonly srcOffset?: number;
  /** Byte offset into the destination buffer. Default 0. */
  readonly dstOffset?: number;
  /** Events the copy must wait for. Default: none. */
  readonly waitFor?: readonly Event[];
}

function waitList(events: readonly Event[] | undefined): [number, BigUint64Array | null] {
  if (events === undefined || events.length === 0) return [0, null];
  return [events.length, new BigUint64Array(events.map((e) => Deno.UnsafePointer.value(e.unsafeHandle)))];
}

function checkRange(offset: number, bytes: number, size: number, what: string): void {
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(bytes) || bytes < 0) {
    throw new RangeError(
      `Cannot copy: ${what} offset ${offset} and byte count ${bytes} must be non-negative integers`,
    );
  }
  if (offset + bytes > size) {
    throw new RangeError(
      `Cannot copy ${bytes} bytes at offset ${offset}: the ${what} buffer holds ${size} bytes`,
    );
  }
}

function finishEvent(
  queue: CommandQueue,
  out: BigUint64Array,
  sequence: number,
  keep: unknown,
  blocking: boolean,
): Event {
  const event = new Event(Deno.UnsafePointer.create(out[0]!)!, queue, sequence);
  if (blocking) queue.completedThrough(sequence);
  else if (keep !== undefined) queue.hold(sequence, keep);
  return event;
}

/**
 * Copies host → buffer (`enqueueCopy(queue, buf, array)`), buffer → host (`enqueueCopy(queue, array,
 * buf)`) or buffer → buffer. Host copies block by default; a non-blocking one keeps its host array
 * alive until the queue is done with it.
 *
 * @throws {RangeError} when the bytes do not fit the buffer.
 * @throws {TypeError} when neither side is a buffer, or a buffer was freed.
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx);
 * const x = new Float32Array([1, 2, 3, 4]);
 * const buf = new cl.Buffer(ctx, x.byteLength);
 * cl.enqueueCopy(queue, buf, x);
 * const back = new Float32Array(4);
 * cl.enqueueCopy(queue, back, buf);
 * ```
 */
export function enqueueCopy(
  queue: CommandQueue,
  dst: BufferLike | ArrayBufferView,
  src: BufferLike | ArrayBufferView,
  options: CopyOptions = {},
): Event {
  const lib = libopencl.get();
  const [count, list] = waitList(options.waitFor);
  const out = new BigUint64Array(1);
  const blocking = options.isBlocking !== false;
  const sequence = queue.nextSequence();
  const host = (write: boolean, buffer: BufferLike, array: ArrayBufferView): Event => {
    const buf = toBuffer(buffer, write ? "the destination" : "the source");
    const bytes = options.byteCount ?? array.byteLength;
    const offset = (write ? options.dstOffset : options.srcOffset) ?? 0;
    checkRange(offset, bytes, buf.size, write ? "destination" : "source");
    if (bytes > array.byteLength) {
      throw new RangeError(
        `Cannot copy ${bytes} bytes ${write ? "from" : "into"} a host array of ${array.byteLength}`,
      );
    }
    const enqueue = write ? lib.clEnqueueWriteBuffer : lib.clEnqueueReadBuffer;
    const code = enqueue(
      queue.unsafeHandle,
      buf.unsafeHandle,
      blocking ? 1 : 0,
      BigInt(offset),
      BigInt(bytes),
      array,
      count,
      list,
      out,
    );
    const call = write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    checkFirstUse(code, call, () => buf.size, queue.device);
    checkCL(code, call);
    return finishEvent(queue, out, sequence, array, blocking);
  };
  if (isBufferLike(dst) && ArrayBuffer.isView(src)) return host(true, dst, src);
  if (ArrayBuffer.isView(dst) && isBufferLike(src)) return host(false, src, dst);
  if (isBufferLike(dst) && isBufferLike(src)) {
    const d = toBuffer(dst, "the destination");
    const s = toBuffer(src, "the source");
    const srcOffset = options.srcOffset ?? 0;
    const dstOffset = options.dstOffset ?? 0;
    const bytes = options.byteCount ?? Math.min(d.size - dstOffset, s.size - srcOffset);
    checkRange(srcOffset, bytes, s.size, "source");
    checkRange(dstOffset, bytes, d.size, "destination");
    const code = lib.clEnqueueCopyBuffer(
      queue.unsafeHandle,
      s.unsafeHandle,
      d.unsafeHandle,
      BigInt(srcOffset),
      BigInt(dstOffset),
      BigInt(bytes),
      count,
      list,
      out,
    );
    checkFirstUse(code, "clEnqueueCopyBuffer", () => d.size + s.size, queue.device);
    checkCL(code, "clEnqueueCopyBuffer");
    return finishEvent(queue, out, sequence, undefined, false);
  }
  throw new TypeError(
    "Cannot copy: enqueueCopy() needs a Buffer on at least one side and a typed array or Buffer on the other",
  );
}

/**
 * Fills `size` bytes (default: to the end) of `buffer` from `offset` (default 0) with a repeated `pattern` (1 to 128 bytes, a
 * power of two).
 *
 * @throws {RangeError} for a pattern size that is not a power of two, or a range outside the buffer.
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const queue = new cl.CommandQueue(ctx);
 * const buf = new cl.Buffer(ctx, 4096);
 * cl.enqueueFillBuffer(queue, buf, new Float32Array([1])).wait();
 * ```
 */
export function enqueueFillBuffer(
  queue: CommandQueue,
  buffer: BufferLike,
  pattern: ArrayBufferView,
  offset = 0,
  size?: number,
): Event {
  const buf = toBuffer(buffer, "the buffer to fill");
  const p = pattern.byteLength;
  if (p < 1 || p > 128 || (p & (p - 1)) !== 0) {
    throw new RangeError(`Cannot fill with a ${p}-byte pattern: it must be 1, 2, 4, ..., 128 bytes`);
  }
  const bytes = size ?? buf.size - offset;
  checkRange(offset, bytes, buf.size, "filled");
  if (offset % p !== 0 || bytes % p !== 0) {
    throw new RangeError(
      `Cannot fill ${bytes} bytes at offset ${offset}: both must be multiples of the ${p}-byte pattern`,
    );
  }
  const lib = libopencl.get();
  if (lib.clEnqueueFillBuffer === null) {
    throw new TypeError("Cannot fill a buffer: this OpenCL loader predates OpenCL 1.2");
  }
  const out = new BigUint64Array(1);
  const sequence = queue.nextSequence();
  const code = lib.clEnqueueFillBuffer(
    queue.unsafeHandle,
    buf.unsafeHandle,
    pattern,
    BigInt(p),
    BigInt(offset),
    BigInt(bytes),
    0,
    null,
    out,
  );
  checkFirstUse(code, "clEnqueueFillBuffer", () => buf.size, queue.device);
  checkCL(code, "clEnqueueFillBuffer");
  return finishEvent(queue, out, sequence, undefined, false);
}
