/**
 * The current stream of array work: `ga.withStream(stream, fn)` and `ga.useStream(stream)` put every
 * array operation, copy, reduction, matrix product, random draw, allocation and JIT launch on a CUDA
 * stream of the caller's choosing (CuPy's `with stream:`, PyTorch's `torch.cuda.stream()`), so that
 * it runs beside other streams' work, or is recorded by `cuda.capture()`. Outside them, array work
 * goes to the legacy default stream.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { captureOn, capturesInProgress } from "../cuda/capturing.ts";
import { recordingInProgress } from "./compiling.ts";
import { Stream } from "../cuda/stream.ts";
import type { Backend } from "./backend.ts";

/** A `withStream()` call's stream; `useStream()` inside it changes the stream until the call returns. */
interface Scope {
  stream: Stream | undefined;
}

/** The innermost `withStream()` call running, followed across `await`s (so concurrent calls stay apart). */
const scopes = new AsyncLocalStorage<Scope>();
/** The stream outside any `withStream()` call, set by `useStream()`. */
let outside: Stream | undefined;
/** Whether `withStream()` was ever called: until then no launch asks the async context for its scope. */
let scoped = false;

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = typeof value === "object" ? value.constructor?.name ?? "object" : typeof value;
  return `${/^[aeiouAEIOU]/.test(kind) ? "an" : "a"} ${kind}`;
}

function checkStream(stream: unknown, action: string): Stream | undefined {
  if (stream === undefined) return undefined;
  if (!(stream instanceof Stream)) {
    throw new TypeError(
      `Cannot ${action} ${
        describe(stream)
      }: pass a cuda.Stream (new cuda.Stream()), or undefined for the legacy default stream`,
    );
  }
  if (stream.destroyed) {
    throw new TypeError(
      `Cannot ${action} a cuda.Stream that was destroyed or whose context was reset: create a new one`,
    );
  }
  return stream;
}

/**
 * The stream array work goes to now: the one of the innermost {@link withStream} call running, else
 * the one given to {@link useStream}; undefined for the legacy default stream.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.currentStream()); // undefined: the legacy default stream
 * ```
 */
export function currentStream(): Stream | undefined {
  if (!scoped) return outside;
  const scope = scopes.getStore();
  return scope === undefined ? outside : scope.stream;
}

/** Scratch memory kept between launches: it gives its device memory back when freed. */
export interface Scratch {
  free(): void;
}

/** How many streams keep scratch at once (a backend's default stream counts as one). */
const KEPT_STREAMS = 4;

/** The scratch kept for each stream (or backend, for its default stream), least recently used first. */
const kept = new Map<object, Map<string, Scratch>>();

/**
 * The scratch memory kept between launches (a sort's buffers, a scan's look-back state) for the
 * current stream, by role: one set per CUDA stream, so that work queued on two streams at once never
 * shares it, and one per backend for its default stream and on OpenCL. Scratch is kept for the four
 * most recently used streams: a fifth's first use gives the least recently used one's back (after the
 * work queued on it), so that streams made and dropped in a loop do not hold device memory until the
 * garbage collector runs. Undefined while the current stream is capturing or a backend records: scratch memory is then the
 * graph's own, taken and given back within it, since a replay must neither use buffers a later call
 * replaces nor depend on counts the host kept.
 */
export function keptScratch(backend: Backend): Map<string, Scratch> | undefined {
  if (recordingInProgress()) return undefined;
  let owner: object = backend;
  const stream = backend.dialect === "cuda" ? currentStream() : undefined;
  if (stream !== undefined) {
    if (capturesInProgress !== 0 && captureOn(stream) !== undefined) return undefined;
    owner = stream;
  }
  let scratch = kept.get(owner);
  if (scratch !== undefined) kept.delete(owner); // set again below: the most recently used
  else {
    scratch = new Map();
    for (const [old, held] of kept) {
      if (kept.size < KEPT_STREAMS) break;
      for (const s of held.values()) s.free();
      kept.delete(old);
    }
  }
  kept.set(owner, scratch);
  return scratch;
}

/**
 * Makes `stream` current (undefined: the legacy default stream): array work on its device goes there
 * from now on (PyTorch's `torch.cuda.set_stream()`). Inside a {@link withStream} call, only until that
 * call returns. Prefer `withStream`, which restores the previous stream on every path.
 *
 * @throws {TypeError} for something other than a live `cuda.Stream` or undefined.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const x = ga.arange(4);
 * const stream = new cuda.Stream();
 * ga.useStream(stream);
 * x.mul(2, { out: x }); // queued on `stream`
 * ga.useStream(undefined);
 * stream.synchronize();
 * ```
 */
export function useStream(stream: Stream | undefined): void {
  const checked = checkStream(stream, "make current");
  const scope = scopes.getStore();
  if (scope === undefined) outside = checked;
  else scope.stream = checked;
}

/**
 * Runs `fn` with `stream` current (undefined: the legacy default stream) and returns what it returns:
 * every array operation, copy, reduction, matrix product (`cublasSetStream`), random draw, allocation
 * (from the stream-ordered pool, on `stream`) and JIT launch without a `stream` of its own inside goes
 * to `stream`, so `cuda.capture(stream, () => ga.withStream(stream, fn))` records array work into a
 * graph. `fn` may be async: the stream stays current across its `await`s, and for it alone. The
 * previous stream is current again once `fn` returns or throws.
 *
 * Inside, array work must be on `stream`'s device: arrays of another CUDA device, and OpenCL arrays,
 * are refused with a `TypeError`. Host reads (`get()`, a whole-array `sum()`, `item()`) wait for
 * `stream`; while it is capturing they are refused (nothing has run yet), as are copies from host
 * memory. Memory goes back to the pool on the stream it was taken on: an array made outside and
 * dropped inside is ordered after the stream's work only where `stream` is a blocking stream (the
 * default). Random draws in a capture give the same numbers at every replay.
 *
 * @throws {TypeError} for something other than a live `cuda.Stream` or undefined, or a `fn` that is
 * not a function.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const x = ga.arange(1024);
 * using stream = new cuda.Stream();
 * const y = ga.withStream(stream, () => x.mul(2).add(1)); // both kernels on `stream`
 * using graph = cuda.capture(stream, () => ga.withStream(stream, () => x.add(1, { out: x })));
 * using exec = graph.instantiate();
 * exec.launch(stream);
 * console.log(ga.withStream(stream, () => y.get())); // waits for `stream`
 * ```
 */
export function withStream<T>(stream: Stream | undefined, fn: () => T): T {
  const checked = checkStream(stream, "run array work on");
  if (typeof fn !== "function") {
    throw new TypeError(`Cannot run ${describe(fn)} with a current stream: pass a function`);
  }
  scoped = true;
  return scopes.run({ stream: checked }, fn);
}
