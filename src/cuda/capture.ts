/**
 * `cuda.capture(stream, fn)`: records what `fn` queues on `stream` into a graph, and ends the capture
 * on every path, an exception included, so the stream is usable whatever `fn` did.
 *
 * @module
 */

import { type CaptureOptions, Stream } from "./stream.ts";
import type { Graph } from "./graph.ts";

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = typeof value === "object" ? value.constructor?.name ?? "object" : typeof value;
  return `${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}`;
}

/** Ends a capture that is being given up, dropping what it recorded; the error being thrown says why. */
function abandon(stream: Stream): void {
  try {
    stream.endCapture().free();
  } catch {
    // the capture was invalidated (that is usually what is being thrown); it has ended all the same
  }
}

/**
 * Runs `fn` with `stream` capturing, and returns what it queued there as a {@link Graph} to
 * instantiate and launch (CuPy's `stream.begin_capture()`/`end_capture()`, PyTorch's
 * `torch.cuda.graph`). Launches and async copies inside must name `stream` (`{ stream }`); work on
 * the legacy default stream, synchronous copies, allocations and synchronizing are errors while
 * capturing (see {@link CaptureOptions.mode}). `fn` may be async: the capture then ends once its
 * promise settles. If `fn` throws, the capture is ended, its graph dropped, and the error rethrown.
 *
 * @throws {TypeError} for something other than a `cuda.Stream` (the legacy default stream cannot be
 * captured) or a function.
 * @throws {CudaError} `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED` when `fn` caught an error that broke
 * the capture and returned normally.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule("__global__ void inc(float *x) { x[threadIdx.x] += 1; }");
 * const inc = mod.getFunction("inc");
 * const x = cuda.memAlloc(32 * 4);
 * cuda.memsetD32(x, 0, 32);
 * using stream = new cuda.Stream();
 * using graph = cuda.capture(stream, () => {
 *   for (let t = 0; t < 100; t++) inc(x, { block: 32, stream });
 * });
 * using exec = graph.instantiate();
 * for (let i = 0; i < 10; i++) exec.launch(stream);
 * await stream.completed(); // every x[i] is 1000
 * ```
 */
export function capture(stream: Stream, fn: () => Promise<unknown>, options?: CaptureOptions): Promise<Graph>;
/**
 * Runs `fn` with `stream` capturing and returns the graph it recorded (the synchronous form of the
 * overload above, which says more).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * using stream = new cuda.Stream();
 * using graph = cuda.capture(stream, () => {});
 * console.log(graph.nodeCount); // 0
 * ```
 */
export function capture(stream: Stream, fn: () => unknown, options?: CaptureOptions): Graph;
export function capture(
  stream: Stream,
  fn: () => unknown,
  options: CaptureOptions = {},
): Graph | Promise<Graph> {
  if (!(stream instanceof Stream)) {
    throw new TypeError(
      `Cannot capture ${
        describe(stream)
      }: pass a cuda.Stream (the legacy default stream cannot be captured; create one with new cuda.Stream())`,
    );
  }
  if (typeof fn !== "function") {
    throw new TypeError(
      `Cannot capture with ${describe(fn)}: pass a function that queues work on the stream`,
    );
  }
  stream.beginCapture(options);
  let result: unknown;
  try {
    result = fn();
  } catch (e) {
    abandon(stream);
    throw e;
  }
  if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function") {
    return Promise.resolve(result).then(
      () => stream.endCapture(),
      (e) => {
        abandon(stream);
        throw e;
      },
    );
  }
  return stream.endCapture();
}
