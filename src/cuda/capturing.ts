/**
 * The stream captures in progress that cudeno began. Calls that would break a capture (allocating,
 * copying synchronously, synchronizing) ask here first and are refused with an error naming the
 * capture, before the driver sees them; releases asked for meanwhile (`free()`, the garbage
 * collector) wait until the last capture ends; launches on a capturing stream leave here the module
 * and memory the graph will use, so that the graph keeps them alive and can check the module is
 * still loaded before each replay.
 *
 * @module
 */

import { quietly } from "../kernel/cleanup.ts";

/**
 * How a capture treats calls that are unsafe while capturing (the driver's `CUstreamCaptureMode`).
 * `"threadLocal"` (the default; PyTorch's `capture_error_mode="thread_local"`) refuses allocations,
 * synchronous copies and synchronizing in the capturing thread (the Worker that began the capture, or
 * the main thread) while the capture runs, and leaves every other Worker alone. `"global"` (the
 * driver's and PyTorch's default) refuses the same calls in this thread, and makes the driver fail
 * them in every other thread of the process too, breaking the capture: other Workers, or the files
 * of `deno test --parallel`, fail. `"relaxed"` leaves them to the driver, which allows allocations.
 * In every mode, work on the legacy default stream (any thread's) cannot run while a blocking stream
 * captures (`CUDA_ERROR_STREAM_CAPTURE_IMPLICIT`): capture on a stream made with
 * `new cuda.Stream({ nonBlocking: true })` where other Workers use the default stream.
 */
export type CaptureMode = "global" | "threadLocal" | "relaxed";

/** A kernel a capture recorded: the module that must stay loaded, and the kernel's name for messages. */
export interface CapturedKernel {
  /** Throws when the module was unloaded or its context reset. */
  checkLoaded(what: string): void;
}

/** One capture in progress. */
export interface CaptureRecord {
  /** The capturing stream. */
  readonly stream: object;
  /** Its mode. */
  readonly mode: CaptureMode;
  /** The driver's id of the capture sequence, unique in the process. */
  readonly id: bigint;
  /** The modules of the kernels launched into it, each with a kernel's name. */
  readonly kernels: Map<CapturedKernel, string>;
  /** Objects its launches were given (device memory, arrays), kept alive as long as the graph. */
  readonly keep: Set<unknown>;
  /** Whether a graph made from it has run, which the memory it took (its memory nodes) waits for. */
  readonly memory: CapturedMemory;
}

/**
 * Device memory a capture took is a memory node of its graph: it exists once the graph has been
 * launched, not before (a capture given up never took any). Kept apart from the record, so that
 * what frees the memory holds nothing else of the capture.
 */
export interface CapturedMemory {
  /** Whether a graph made from the capture has been launched. */
  launched: boolean;
}

const active: CaptureRecord[] = [];
const deferred: (() => void)[] = [];

/** How many captures cudeno began are in progress (0 on every path that does not capture). */
export let capturesInProgress = 0;

/** Records a capture that began on `stream`. */
export function captureBegan(stream: object, mode: CaptureMode, id: bigint): void {
  active.push({ stream, mode, id, kernels: new Map(), keep: new Set(), memory: { launched: false } });
  capturesInProgress = active.length;
}

/** The capture in progress on `stream`, if cudeno began one. */
export function captureOn(stream: unknown): CaptureRecord | undefined {
  for (const c of active) if (c.stream === stream) return c;
  return undefined;
}

/**
 * Forgets the capture on `stream` (it has ended, successfully or not) and returns its record; once
 * none is left, runs the releases that waited.
 */
export function captureEnded(stream: object): CaptureRecord | undefined {
  const i = active.findIndex((c) => c.stream === stream);
  const record = i < 0 ? undefined : active.splice(i, 1)[0];
  capturesInProgress = active.length;
  if (active.length === 0) {
    for (const release of deferred.splice(0)) quietly(release);
  }
  return record;
}

/**
 * Throws, while a capture in mode `"global"` or `"threadLocal"` is in progress, the error for a call
 * the driver does not allow then: `Cannot <action> while capture <id> ... : <fix>`.
 *
 * @throws {TypeError} naming the capture and how to do without the call.
 */
export function refuseWhileCapturing(action: string, fix: string): void {
  if (capturesInProgress === 0) return;
  const strict = active.find((c) => c.mode !== "relaxed");
  if (strict === undefined) return;
  throw new TypeError(
    `Cannot ${action} while a stream is capturing (capture ${strict.id}, mode "${strict.mode}"): ${fix}`,
  );
}

/** Runs `release` once no capture is in progress: now if none is, else when the last one ends. */
export function releaseWhenNotCapturing(release: () => void): void {
  if (capturesInProgress === 0) release();
  else deferred.push(release);
}

/**
 * Notes a launch of a kernel of `module` with `args` on `stream`, if a capture is in progress on it:
 * the graph it ends in then keeps the module and the arguments alive, and checks the module before
 * each launch.
 */
export function noteCapturedLaunch(
  stream: unknown,
  module: CapturedKernel,
  name: string,
  args: readonly unknown[],
  count: number,
): void {
  const record = captureOn(stream);
  if (record === undefined) return;
  if (!record.kernels.has(module)) record.kernels.set(module, name);
  for (let i = 0; i < count; i++) {
    const a = args[i];
    if (typeof a === "object" && a !== null) record.keep.add(a);
  }
}
