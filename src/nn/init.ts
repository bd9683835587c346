/**
 * Where `nn`'s random numbers come from: one counter-based Philox4x32-10 stream (the generator of
 * `ga.random`), keyed by PyTorch's default seed until {@link manualSeed} sets another. Layer
 * initialisations and dropout masks without a seed of their own take the next counters of this stream,
 * so a script that builds the same model after the same `manualSeed` gets the same weights, on CUDA
 * and on OpenCL.
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { drawContinuous, type PhiloxState } from "../array/routines/distributions.ts";
import { seedOf } from "../array/routines/seed.ts";

/** PyTorch's default seed (`default_rng_seed_val`), so that runs are repeatable without `manualSeed`. */
const DEFAULT_SEED = 67280421310721n;

let stream: PhiloxState = { key: DEFAULT_SEED, offset: 0n };

/**
 * Keys `nn`'s random stream with `seed` (PyTorch's `torch.manual_seed`) and starts it at its first
 * counter: the initialisations of the layers made after it and the dropout masks drawn without a seed
 * of their own repeat from here.
 *
 * @throws {RangeError} for a seed outside 0..2^64 − 1.
 * @example
 * ```ts
 * import * as nn from "@cudeno/cudeno/nn";
 * nn.manualSeed(0);
 * const a = new nn.Linear(3, 2);
 * nn.manualSeed(0);
 * const b = new nn.Linear(3, 2); // the same weights as a
 * ```
 */
export function manualSeed(seed: number | bigint): void {
  stream = { key: seedOf(seed, "nn"), offset: 0n };
}

/** The stream of `seed` (from its first counter), or `nn`'s own stream where `seed` is undefined. */
export function streamOf(seed: number | bigint | undefined, what: string): PhiloxState {
  return seed === undefined ? stream : { key: seedOf(seed, what), offset: 0n };
}

/** Float32 or float64 numbers of the stream (wider dtypes are drawn in float32 and converted). */
function draw(
  state: PhiloxState,
  shape: readonly number[],
  dtype: ga.FloatDType,
  kind: "uniform" | "normal",
  p0: number,
  p1: number,
): ga.GPUArray {
  const drawn = dtype === "float64" ? "float64" : "float32";
  const x = drawContinuous(state, shape, drawn, kind, p0, p1);
  return drawn === dtype ? x : x.astype(dtype);
}

/** Uniform numbers in [-bound, bound): PyTorch's `uniform_(-bound, bound)`. */
export function uniformInit(
  state: PhiloxState,
  shape: readonly number[],
  bound: number,
  dtype: ga.FloatDType,
): ga.GPUArray {
  return draw(state, shape, dtype, "uniform", -bound, 2 * bound);
}

/** Standard normal numbers: PyTorch's `normal_()`. */
export function normalInit(state: PhiloxState, shape: readonly number[], dtype: ga.FloatDType): ga.GPUArray {
  return draw(state, shape, dtype, "normal", 0, 1);
}

/**
 * The bound of PyTorch's default initialisation of a linear or convolution weight,
 * `kaiming_uniform_(w, a=√5)`: gain `√(2 / (1 + a²))`, bound `gain·√(3 / fanIn)`, which is `1/√fanIn`
 * (and the bias's bound, `1/√fanIn`, is the same).
 */
export function defaultBound(fanIn: number): number {
  return fanIn > 0 ? 1 / Math.sqrt(fanIn) : 0;
}
