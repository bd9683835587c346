/**
 * The launches behind `random.Generator`: each draws an array from one kernel of
 * `exec/distribution_source.ts`, reserving the Philox counters it reads from the generator's state, so
 * the next draw reads others. The parameters arrive checked.
 *
 * @module
 */

import { activeBackend } from "../../device/active.ts";
import type { Backend } from "../../device/backend.ts";
import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, persistent } from "../core/gpuarray.ts";
import type { Shape } from "../core/layout.ts";
import type { FloatType } from "../exec/philox_source.ts";
import {
  CONTINUOUS,
  continuousPerThread,
  continuousSource,
  DISCRETE,
  discreteSource,
  GAMMA,
  gammaSource,
  integersSource,
  multinomialSource,
} from "../exec/distribution_source.ts";
import { toGpu } from "./creation.ts";
import { counterWord, onReplay } from "../../device/compiling.ts";
import { writeValues } from "../exec/loop.ts";
import { fill } from "../ops/assign.ts";

/** A generator's key and the first Philox counter no draw has read yet. */
export interface PhiloxState {
  /** The key: two 32-bit words, low first. */
  readonly key: bigint;
  /** The next free counter (mod 2^64). */
  offset: bigint;
  /**
   * Made for one call from a seed given there (`random.uniform(shape, { seed })`): every call draws the
   * same numbers, so a compiled step replays its counters as they were; a generator's stream (a
   * `Generator`, `nn`'s, a `Dropout` layer's) moves on at each replay, as at each eager call.
   */
  readonly once?: boolean;
}

const BLOCK = 256;
const MASK64 = (1n << 64n) - 1n;

/** Reserves `count` counters of `state`, returning the first. */
function take(state: PhiloxState, count: number): bigint {
  const base = state.offset;
  state.offset = (base + BigInt(count)) & MASK64;
  return base;
}

const zeroShifts = new WeakMap<Backend, GPUArray>();

/**
 * Reserves `count` counters of `state` for a draw on `backend`: the kernel's arguments after its count
 * (`distribution_source.ts`), the counter base, the array and index of its shift, and the key's two
 * words. Eagerly the base is the first counter and the shift a zero word; in a step being compiled
 * the base is 0 and the shift a word of the step's own, which the draw's hook writes before each
 * replay (taking the counters then, so each replay draws new numbers as each eager call would).
 */
function reserve(
  state: PhiloxState,
  count: number,
  backend: Backend,
): [bigint, GPUArray, number, number, number] {
  const key: [number, number] = [Number(state.key & 0xffffffffn), Number((state.key >> 32n) & 0xffffffffn)];
  const word = counterWord() as [GPUArray, number] | undefined;
  if (word !== undefined) {
    const [words, at] = word;
    const fixed = state.once ? take(state, count) : undefined;
    onReplay(() => writeValues(words, at, [fixed ?? take(state, count)]));
    return [0n, words, at, ...key];
  }
  let zero = zeroShifts.get(backend);
  if (zero === undefined || zero.freed) {
    zero = persistent(() => fill(new GPUArray(backend, [1], "uint64"), 0));
    zeroShifts.set(backend, zero);
  }
  return [take(state, count), zero, 0, ...key];
}

function grid(threads: number): { grid: [number, number]; block: [number, number] } {
  return { grid: [Math.ceil(threads / BLOCK), 1], block: [BLOCK, 1] };
}

/** Throws unless the device computes in float64, which the discrete samplers need. */
function needFloat64(backend: Backend, what: string): void {
  if (!backend.supports("float64")) {
    throw new TypeError(
      `Cannot draw ${what} numbers on ${backend.device}: the sampler computes in float64, which this device lacks`,
    );
  }
}

/** The names of the continuous kernel's distributions. */
export type ContinuousName = keyof typeof CONTINUOUS;

/** An array of `shape` from the continuous kernel: distribution `name` with parameters `p0`, `p1`. */
export function drawContinuous(
  state: PhiloxState,
  shape: Shape,
  dtype: FloatType,
  name: ContinuousName,
  p0: number,
  p1: number,
): GPUArray {
  const backend = activeBackend();
  const out = new GPUArray(backend, shape, dtype);
  if (out.size === 0) return out;
  const threads = Math.ceil(out.size / continuousPerThread(dtype));
  const counters = reserve(state, threads, backend);
  const kernel = backend.kernel(
    `generator:continuous:${dtype}`,
    () => continuousSource(backend.dialect, dtype),
  );
  kernel.launch(grid(threads), [
    out.buffer,
    out.size,
    ...counters,
    p0,
    p1,
    CONTINUOUS[name],
  ]);
  return out;
}

/** An array of `shape` and integer (or bool) `dtype` uniform over `low .. low + span`, both included. */
export function drawIntegers(
  state: PhiloxState,
  shape: Shape,
  dtype: DType,
  low: bigint,
  span: bigint,
): GPUArray {
  const backend = activeBackend();
  const out = new GPUArray(backend, shape, dtype);
  if (out.size === 0) return out;
  const wide = span >= 1n << 32n;
  const threads = Math.ceil(out.size / (wide ? 2 : 4));
  const counters = reserve(state, out.size, backend);
  const kernel = backend.kernel(
    `generator:integers:${dtype}:${wide ? "wide" : "narrow"}`,
    () => integersSource(backend.dialect, dtype, wide, BLOCK),
  );
  kernel.launch(grid(threads), [out.buffer, out.size, ...counters, low, span]);
  return out;
}

/** The names of the gamma kernel's modes. */
export type GammaName = keyof typeof GAMMA;

/**
 * An array of `shape` from the gamma kernel: gamma numbers of shape `params[e mod k]` times `scale`,
 * their logarithms (`logGamma`), or beta numbers of parameters `params[0]`, `params[1]`.
 */
export function drawGamma(
  state: PhiloxState,
  shape: Shape,
  dtype: FloatType,
  name: GammaName,
  params: readonly number[],
  scale: number,
): GPUArray {
  const backend = activeBackend();
  const out = new GPUArray(backend, shape, dtype);
  if (out.size === 0) return out;
  const counters = reserve(state, out.size, backend);
  const values = toGpu(dtype === "float32" ? Float32Array.from(params) : Float64Array.from(params));
  try {
    const kernel = backend.kernel(`generator:gamma:${dtype}`, () => gammaSource(backend.dialect, dtype));
    kernel.launch(grid(out.size), [
      out.buffer,
      out.size,
      ...counters,
      values.buffer,
      params.length,
      scale,
      GAMMA[name],
    ]);
  } finally {
    values.free();
  }
  return out;
}

/** The names of the discrete kernel's distributions. */
export type DiscreteName = keyof typeof DISCRETE;

/** An int64 array of `shape` of Poisson (`p0` = λ), binomial (`p0` = n, `p1` = p) or geometric (`p0` = p) numbers. */
export function drawDiscrete(
  state: PhiloxState,
  shape: Shape,
  name: DiscreteName,
  p0: number,
  p1: number,
): GPUArray<"int64"> {
  const backend = activeBackend();
  const out = new GPUArray(backend, shape, "int64");
  needFloat64(backend, name);
  if (out.size === 0) return out;
  const counters = reserve(state, out.size, backend);
  const kernel = backend.kernel("generator:discrete", () => discreteSource(backend.dialect));
  kernel.launch(grid(out.size), [
    out.buffer,
    out.size,
    ...counters,
    p0,
    p1,
    DISCRETE[name],
  ]);
  return out;
}

/** An int64 array of `[...shape, pvals.length]`: each row the counts of `n` trials over `pvals`. */
export function drawMultinomial(
  state: PhiloxState,
  shape: readonly number[],
  n: number,
  pvals: Float64Array,
): GPUArray<"int64"> {
  const backend = activeBackend();
  needFloat64(backend, "multinomial");
  const out = new GPUArray(backend, [...shape, pvals.length], "int64");
  if (out.size === 0) return out;
  const rows = out.size / pvals.length;
  const counters = reserve(state, rows, backend);
  const probabilities = toGpu(pvals);
  try {
    const kernel = backend.kernel("generator:multinomial", () => multinomialSource(backend.dialect));
    kernel.launch(grid(rows), [
      out.buffer,
      rows,
      ...counters,
      probabilities.buffer,
      pvals.length,
      n,
    ]);
  } finally {
    probabilities.free();
  }
  return out;
}
