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
import { GPUArray } from "../core/gpuarray.ts";
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
import { refuseInCompile } from "../../device/compiling.ts";

/** A generator's key and the first Philox counter no draw has read yet. */
export interface PhiloxState {
  /** The key: two 32-bit words, low first. */
  readonly key: bigint;
  /** The next free counter (mod 2^64). */
  offset: bigint;
}

const BLOCK = 256;
const MASK64 = (1n << 64n) - 1n;

/** Reserves `count` counters of `state`, returning the first. */
function reserve(state: PhiloxState, count: number): bigint {
  refuseInCompile(
    "draw random numbers",
    "a compiled step replays the counters it drew at its trace, so every call would draw the same numbers",
    "draw them outside the step and pass them in as an argument",
  );
  const base = state.offset;
  state.offset = (base + BigInt(count)) & MASK64;
  return base;
}

function keyWords(state: PhiloxState): [number, number] {
  return [Number(state.key & 0xffffffffn), Number((state.key >> 32n) & 0xffffffffn)];
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
  const base = reserve(state, threads);
  const kernel = backend.kernel(
    `generator:continuous:${dtype}`,
    () => continuousSource(backend.dialect, dtype),
  );
  kernel.launch(grid(threads), [out.buffer, out.size, base, ...keyWords(state), p0, p1, CONTINUOUS[name]]);
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
  const base = reserve(state, out.size);
  const kernel = backend.kernel(
    `generator:integers:${dtype}:${wide ? "wide" : "narrow"}`,
    () => integersSource(backend.dialect, dtype, wide),
  );
  kernel.launch(grid(threads), [out.buffer, out.size, base, ...keyWords(state), low, span]);
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
  const base = reserve(state, out.size);
  const values = toGpu(dtype === "float32" ? Float32Array.from(params) : Float64Array.from(params));
  try {
    const kernel = backend.kernel(`generator:gamma:${dtype}`, () => gammaSource(backend.dialect, dtype));
    kernel.launch(grid(out.size), [
      out.buffer,
      out.size,
      base,
      ...keyWords(state),
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
  const base = reserve(state, out.size);
  const kernel = backend.kernel("generator:discrete", () => discreteSource(backend.dialect));
  kernel.launch(grid(out.size), [out.buffer, out.size, base, ...keyWords(state), p0, p1, DISCRETE[name]]);
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
  const base = reserve(state, rows);
  const probabilities = toGpu(pvals);
  try {
    const kernel = backend.kernel("generator:multinomial", () => multinomialSource(backend.dialect));
    kernel.launch(grid(rows), [
      out.buffer,
      rows,
      base,
      ...keyWords(state),
      probabilities.buffer,
      pvals.length,
      n,
    ]);
  } finally {
    probabilities.free();
  }
  return out;
}
