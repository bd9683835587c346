/**
 * What the Workers of `_workers_main.ts` are sent and send back, and the input each computes on, made
 * the same way in the Worker and for the host reference.
 */
import type { BackendName } from "../../src/array/mod.ts";

/** Integers from -6 to 6 in a pattern that depends on `seed` (4096 + seed of them), as float32. */
export function workerInput(seed: number): Float32Array {
  return Float32Array.from({ length: 4096 + seed }, (_, i) => ((i * 7 + seed * 5) % 13) - 6);
}

/** What the parent sends. */
export interface WorkerJob {
  readonly backend: BackendName;
  readonly seed: number;
}

/** What a Worker posts back: its results, or the error it met. */
export type WorkerReply =
  | { readonly device: string; readonly squares: Float32Array; readonly total: number }
  | { readonly error: string };
