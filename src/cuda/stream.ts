/**
 * CUDA streams: ordered queues of device work, waited for synchronously or awaited without blocking
 * Deno's event loop.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { libcudaWait } from "../../ffi/cuda.ts";
import { checkCuda, CudaError } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import { Owned, ownership } from "./owned.ts";
import type { Event } from "./event.ts";
import { adoptGraph, type Graph } from "./graph.ts";
import { captureBegan, captureEnded, type CaptureMode, captureOn, type CaptureRecord } from "./capturing.ts";

const streams = ownership<Deno.PointerObject>((handle) => driver().cuStreamDestroy_v2(handle));

/** `CUstreamCaptureMode` values. */
const CAPTURE_MODES: Record<CaptureMode, number> = { global: 0, threadLocal: 1, relaxed: 2 };
/** Whether a stream is capturing: not, yes, or yes but an error has invalidated the capture. */
export type CaptureStatus = "none" | "active" | "invalidated";

/** `CUstreamCaptureStatus` values, in order. */
const CAPTURE_STATUS: readonly CaptureStatus[] = ["none", "active", "invalidated"];

/** Options for {@link Stream.beginCapture} and `cuda.capture()`. */
export interface CaptureOptions {
  /**
   * Which calls are refused while the capture runs, and where (see {@link CaptureMode}). Default
   * `"threadLocal"`: allocations, synchronous copies and synchronizing in the capturing thread are
   * refused, with an error naming the capture; other Workers go on.
   */
  readonly mode?: CaptureMode;
}

function captureMode(options: CaptureOptions): CaptureMode {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Cannot begin a capture with options ${
        String(options)
      }: pass an object such as { mode: "threadLocal" }`,
    );
  }
  const mode = options.mode ?? "threadLocal";
  if (!Object.hasOwn(CAPTURE_MODES, mode)) {
    throw new RangeError(
      `Cannot begin a capture in mode ${JSON.stringify(mode)}: use "global", "threadLocal" or "relaxed"`,
    );
  }
  return mode;
}

/** Options for a new {@link Stream}. */
export interface StreamOptions {
  /** Let the stream run concurrently with the legacy default stream (`CU_STREAM_NON_BLOCKING`). Default false. */
  readonly nonBlocking?: boolean;
}

/**
 * A queue of device work (PyCUDA's `driver.Stream`). Pass it to `*Async` copies and as a launch's
 * `stream`; `await stream.completed()` waits without blocking the event loop.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using stream = new cuda.Stream();
 * // ... queue copies and launches on it ...
 * await stream.completed();
 * ```
 */
export class Stream {
  readonly #held: Owned<Deno.PointerObject>;
  #pending: unknown[] = [];
  #destroyed = false;

  /** Creates a stream in the current context. */
  constructor(options: StreamOptions = {}) {
    const ctx = requireContext("cuStreamCreate");
    const out = new BigUint64Array(1);
    checkCuda(driver().cuStreamCreate(out, options.nonBlocking ? 1 : 0), "cuStreamCreate");
    this.#held = new Owned(Deno.UnsafePointer.create(out[0]!)!, ctx);
    streams.registry.register(this, this.#held, this);
  }

  /**
   * **UNSAFE**: the raw `CUstream`.
   *
   * @throws {TypeError} when the stream was destroyed or its context reset.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#destroyed || this.#held.stale) {
      throw new TypeError(
        `Cannot use a Stream that ${
          this.#destroyed ? "was destroyed" : "belonged to a context that was reset"
        }: create a new one`,
      );
    }
    return this.#held.handle;
  }

  /** The context the stream belongs to: work queued on it must be of that context's device. */
  get context(): Context {
    return this.#held.ctx;
  }

  /** Whether `destroy()` was called (or the stream's context was reset since). */
  get destroyed(): boolean {
    return this.#destroyed || this.#held.stale;
  }

  /**
   * Starts recording: until {@link endCapture}, work queued on this stream is recorded into a graph
   * instead of run (`cuStreamBeginCapture`). Prefer `cuda.capture(stream, fn)`, which ends the capture
   * on every path.
   *
   * @throws {TypeError} when the stream is capturing already.
   * @throws {RangeError} for an unknown mode.
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * using stream = new cuda.Stream();
   * stream.beginCapture();
   * // ... launches with { stream } ...
   * using graph = stream.endCapture();
   * ```
   */
  beginCapture(options: CaptureOptions = {}): void {
    const mode = captureMode(options);
    const handle = this.unsafeHandle;
    const running = captureOn(this);
    if (running !== undefined) {
      throw new TypeError(
        `Cannot begin a capture on a stream that is capturing already (capture ${running.id}): end it first with stream.endCapture()`,
      );
    }
    const lib = driver();
    checkCuda(lib.cuStreamBeginCapture_v2(handle, CAPTURE_MODES[mode]), "cuStreamBeginCapture_v2");
    const status = new Int32Array(1), id = new BigUint64Array(1);
    const code = lib.cuStreamGetCaptureInfo_v2(handle, status, id, null, null, null);
    captureBegan(this, mode, code === 0 ? id[0]! : 0n);
  }

  /**
   * Ends the capture begun with {@link beginCapture} and returns what was recorded, as a
   * {@link Graph} to instantiate. The stream is not capturing afterwards, whatever happens.
   *
   * @throws {TypeError} when no capture was begun on this stream.
   * @throws {CudaError} `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED` when a call not allowed while
   * capturing broke the capture (the stream is usable again).
   */
  endCapture(): Graph {
    if (captureOn(this) === undefined) {
      throw new TypeError(
        "Cannot end a capture on this stream: none was begun on it; call stream.beginCapture() first, or use cuda.capture(stream, fn)",
      );
    }
    if (this.#held.stale) {
      captureEnded(this);
      throw new TypeError(
        "Cannot end a capture on a stream whose context was reset: the capture went with the context; create a new stream",
      );
    }
    const out = new BigUint64Array(1);
    let code: number;
    let record: CaptureRecord | undefined;
    try {
      // The raw handle: a stream destroyed while capturing is destroyed once the capture has ended.
      code = driver().cuStreamEndCapture(this.#held.handle, out);
    } finally {
      record = captureEnded(this);
    }
    const graph = out[0] === 0n
      ? undefined
      : adoptGraph(Deno.UnsafePointer.create(out[0]!)!, this.#held.ctx, record);
    if (code !== 0) {
      graph?.free();
      throw new CudaError(
        code,
        "cuStreamEndCapture",
        code === 901
          ? ": a call made during the capture was not allowed while capturing; the stream is usable again"
          : "",
      );
    }
    if (graph === undefined) throw new CudaError(901, "cuStreamEndCapture", ": the driver returned no graph");
    return graph;
  }

  /**
   * Whether the stream is capturing (`cuStreamIsCapturing`): `"none"`, `"active"`, or `"invalidated"`
   * (a call not allowed while capturing broke the capture; end it to use the stream again).
   */
  get captureStatus(): CaptureStatus {
    const out = new Int32Array(1);
    checkCuda(driver().cuStreamIsCapturing(this.unsafeHandle, out), "cuStreamIsCapturing");
    return CAPTURE_STATUS[out[0]!] ?? "invalidated";
  }

  #refuseIfCapturing(action: string): void {
    const running = captureOn(this);
    if (running !== undefined) {
      throw new TypeError(
        `Cannot ${action} a stream while it is capturing (capture ${running.id}): nothing captured has run yet; end the capture and launch the graph first`,
      );
    }
  }

  /** Keeps `value` (a host array an asynchronous copy reads or writes) alive until the stream is done. */
  hold(value: unknown): void {
    this.#pending.push(value);
    // Work captured into a graph reads the value each time the graph runs: the graph keeps it too.
    captureOn(this)?.keep.add(value);
  }

  /** Blocks until all work queued on the stream has finished (PyCUDA's `synchronize()`). */
  synchronize(): void {
    this.#refuseIfCapturing("synchronize");
    checkCuda(driver().cuStreamSynchronize(this.unsafeHandle), "cuStreamSynchronize");
    this.#pending.length = 0;
  }

  /**
   * Resolves once all work queued so far has finished, without blocking Deno's event loop (the wait
   * runs on a worker thread).
   */
  async completed(): Promise<void> {
    this.#refuseIfCapturing("wait for");
    const handle = this.unsafeHandle;
    const count = this.#pending.length;
    checkCuda(await libcudaWait.get().cuStreamSynchronize(handle), "cuStreamSynchronize");
    this.#pending.splice(0, count);
  }

  /** Whether all queued work has finished (`cuStreamQuery`), without waiting. */
  isDone(): boolean {
    this.#refuseIfCapturing("query");
    const code = driver().cuStreamQuery(this.unsafeHandle);
    if (code === 600) return false;
    checkCuda(code, "cuStreamQuery");
    this.#pending.length = 0;
    return true;
  }

  /** Makes later work on this stream wait until `event` has completed. */
  waitFor(event: Event): void {
    checkCuda(driver().cuStreamWaitEvent(this.unsafeHandle, event.unsafeHandle, 0), "cuStreamWaitEvent");
  }

  /** Destroys the stream once its work is done. Idempotent; never throws. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    streams.registry.unregister(this);
    streams.release(this.#held);
  }

  /** Same as {@link destroy}. */
  [Symbol.dispose](): void {
    this.destroy();
  }
}
