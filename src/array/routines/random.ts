/**
 * Random arrays from a counter-based generator, Philox4x32-10 (Salmon et al., SC 2011, with
 * Random123's constants), so that a seed gives the same numbers on CUDA and on OpenCL, whatever the
 * device and however the work is split.
 *
 * The key is the seed's two 32-bit words (low, high). Counter block `b`, the counter
 * `(b mod 2^32, b / 2^32, 0, 0)`, gives four 32-bit words `w0..w3`:
 *
 * - float32 elements `4b..4b+3` take one word each, as `u = (w >> 8)·2^-24` in [0, 1);
 * - float64 elements `2b` and `2b+1` take two words each, `(w0, w1)` and `(w2, w3)`, as
 *   `u = ((w0 >> 5)·2^26 + (w1 >> 6))·2^-53` in [0, 1).
 *
 * `uniform` returns `low + u·(high − low)`, rounded in the array's precision without fused
 * multiply-adds: the same bits on every backend. `normal` uses Box–Muller on each pair of words (a
 * float32 pair per two elements, a float64 pair per counter block): `u1` uses `(w >> 8) + 1` (or the
 * 53-bit value plus one) so that it lies in (0, 1] and the logarithm never sees 0, then
 * `r = sqrt(−2 ln u1)` and the two elements are `mean + std·r·cos(2πu2)` and `mean + std·r·sin(2πu2)`.
 * Math libraries differ in their last bits, so normal numbers agree across backends to within a few
 * units in the last place rather than exactly.
 *
 * `defaultRng(seed)` gives a `Generator` (NumPy's modern API, `generator.ts`) drawing from the same
 * counters, with NumPy's distributions; `integers`, `permutation` and `choice` draw from one of their own.
 *
 * @module
 */

import type { Shape } from "../core/layout.ts";
import { checkOptions } from "../../kernel/options.ts";
import { seedOf } from "./seed.ts";
import { drawContinuous } from "./distributions.ts";
import type { GPUArray } from "../core/gpuarray.ts";

/** Options of {@link uniform}. */
export interface UniformOptions<D extends "float32" | "float64" = "float32"> {
  /**
   * The generator's key: an integer from 0 to 2^64 − 1 (a number or a bigint). Default: a seed drawn
   * from `crypto.getRandomValues`, different on every call.
   */
  readonly seed?: number | bigint;
  /** `"float32"` (default) or `"float64"`. */
  readonly dtype?: D;
  /** The lower bound, included. Default 0. */
  readonly low?: number;
  /** The upper bound, excluded (up to rounding). Default 1. */
  readonly high?: number;
}

/** Options of {@link normal}. */
export interface NormalOptions<D extends "float32" | "float64" = "float32"> {
  /**
   * The generator's key: an integer from 0 to 2^64 − 1 (a number or a bigint). Default: a seed drawn
   * from `crypto.getRandomValues`, different on every call.
   */
  readonly seed?: number | bigint;
  /** `"float32"` (default) or `"float64"`. */
  readonly dtype?: D;
  /** The mean. Default 0. */
  readonly mean?: number;
  /** The standard deviation, not negative. Default 1. */
  readonly std?: number;
}

type FloatType = "float32" | "float64";

function floatType(dtype: unknown, what: string): FloatType {
  if (dtype === undefined) return "float32";
  if (dtype !== "float32" && dtype !== "float64") {
    throw new TypeError(
      `Cannot draw ${what} numbers of dtype "${String(dtype)}": use "float32" or "float64" (then astype())`,
    );
  }
  return dtype;
}

function finite(value: number | undefined, fallback: number, what: string, name: string): number {
  const x = value ?? fallback;
  if (typeof x !== "number" || !Number.isFinite(x)) {
    throw new RangeError(`Cannot draw ${what} numbers with ${name} = ${String(x)}: pass a finite number`);
  }
  return x;
}

/**
 * An array of numbers uniformly distributed in `[low, high)` (NumPy's `random.uniform`), from
 * Philox4x32-10 keyed by `seed`: the same seed gives the same bits on CUDA and on OpenCL.
 *
 * @throws {RangeError} for a seed outside 0..2^64 − 1, bounds that are not finite, or `high < low`.
 * @throws {TypeError} for a dtype other than float32 and float64.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const u = ga.random.uniform([1000, 1000], { seed: 1 });
 * const dice = ga.random.uniform(10, { seed: 7n, dtype: "float64", low: 1, high: 7 });
 * console.log(u.mean(), dice.get());
 * ```
 */
export function uniform<D extends "float32" | "float64" = "float32">(
  shape: Shape,
  options: UniformOptions<D> = {},
): GPUArray<D> {
  checkOptions(options, "draw uniform numbers", "{ seed: 1 }", ["seed", "dtype", "low", "high"]);
  const dtype = floatType(options.dtype, "uniform");
  const seed = seedOf(options.seed, "uniform");
  const low = finite(options.low, 0, "uniform", "low");
  const high = finite(options.high, 1, "uniform", "high");
  if (high < low) {
    throw new RangeError(`Cannot draw uniform numbers in [${low}, ${high}): high must not be below low`);
  }
  const round = dtype === "float32" ? Math.fround : (x: number) => x;
  const range = round(round(high) - round(low));
  if (!Number.isFinite(range)) {
    throw new RangeError(`Cannot draw uniform numbers in [${low}, ${high}): the width overflows ${dtype}`);
  }
  return drawContinuous(
    { key: seed, offset: 0n, once: options.seed !== undefined },
    shape,
    dtype,
    "uniform",
    round(low),
    range,
  ) as GPUArray<D>;
}

/**
 * An array of normally distributed numbers (NumPy's `random.normal`), by Box–Muller from
 * Philox4x32-10 keyed by `seed`. The same seed gives the same numbers on CUDA and on OpenCL to within
 * a few units in the last place (the backends' `log`, `sin` and `cos` differ in their last bits).
 *
 * @throws {RangeError} for a seed outside 0..2^64 − 1, a mean or std that is not finite, or `std < 0`.
 * @throws {TypeError} for a dtype other than float32 and float64.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.random.normal([1000, 1000], { seed: 1 });
 * const x = ga.random.normal(100, { seed: 2, dtype: "float64", mean: 10, std: 0.5 });
 * console.log(z.mean(), x.get());
 * ```
 */
export function normal<D extends "float32" | "float64" = "float32">(
  shape: Shape,
  options: NormalOptions<D> = {},
): GPUArray<D> {
  checkOptions(options, "draw normal numbers", "{ seed: 1 }", ["seed", "dtype", "mean", "std"]);
  const dtype = floatType(options.dtype, "normal");
  const seed = seedOf(options.seed, "normal");
  const mean = finite(options.mean, 0, "normal", "mean");
  const std = finite(options.std, 1, "normal", "std");
  if (std < 0) throw new RangeError(`Cannot draw normal numbers with std = ${std}: pass a std of 0 or more`);
  return drawContinuous(
    { key: seed, offset: 0n, once: options.seed !== undefined },
    shape,
    dtype,
    "normal",
    mean,
    std,
  ) as GPUArray<D>;
}

export { defaultRng, Generator } from "./generator.ts";
export { choice, integers, permutation, type SeedOption } from "./random_functions.ts";
export type {
  AxisOption,
  BetaOptions,
  BinomialOptions,
  BoundsOptions,
  ChisquareOptions,
  ChoiceOptions,
  DirichletOptions,
  FloatOptions,
  GammaOptions,
  GeometricOptions,
  IntegerDType,
  IntegersOptions,
  LocScaleOptions,
  LognormalOptions,
  MultinomialOptions,
  MultivariateNormalOptions,
  PoissonOptions,
  ScaleOptions,
  WeibullOptions,
} from "./generator_options.ts";
