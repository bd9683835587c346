/**
 * NumPy's modern random API on the counter-based Philox4x32-10 of `random.uniform`: a `Generator`
 * (`random.defaultRng(seed)`) holds a 64-bit key and the next free counter; each draw reserves the
 * counters it reads and moves past them, so consecutive draws differ and a seed gives the same
 * numbers on CUDA and on OpenCL, however the work is split. A fresh generator's `random` and
 * `standardNormal` are `random.uniform` and `random.normal` of its seed. `spawn(n)` gives children
 * whose keys are the parent's mixed with their number (SplitMix64), independent streams.
 *
 * Continuous draws are float32 by default (as `random.uniform`; NumPy's are float64): pass
 * `{ dtype: "float64" }`. Counts (`integers`, `poisson`, `binomial`, `geometric`, `multinomial`) are
 * int64, as NumPy's.
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import type { Shape } from "../core/layout.ts";
import { AXIS, optionsOf } from "../core/axis_args.ts";
import type { FloatType } from "../exec/philox_source.ts";
import { drawContinuous, drawDiscrete, drawGamma, drawIntegers, type PhiloxState } from "./distributions.ts";
import {
  type AxisOption,
  type BetaOptions,
  type BinomialOptions,
  checkDraw,
  type ChisquareOptions,
  type ChoiceOptions,
  type DirichletOptions,
  floatOf,
  type FloatOptions,
  type GammaOptions,
  type GeometricOptions,
  integerBounds,
  type IntegerDType,
  type IntegersOptions,
  type LocScaleOptions,
  type LognormalOptions,
  type MultinomialOptions,
  type MultivariateNormalOptions,
  param,
  type PoissonOptions,
  type ScaleOptions,
  TRANSFORMS,
  uniformBounds,
  type WeibullOptions,
} from "./generator_options.ts";
import type { BoundsOptions } from "./generator_options.ts";
import * as sampling from "./sampling.ts";
import { seedOf, spawnKey } from "./seed.ts";

/** Set while {@link seededOnce} makes a generator. */
let once = false;

/**
 * A generator for one call of a module function given `{ seed }` (`random.integers(shape, { seed })`):
 * every call draws that seed's numbers, so a compiled step replays its counters as they were.
 */
export function seededOnce(seed: number | bigint | undefined): Generator {
  once = seed !== undefined;
  try {
    return new Generator(seed);
  } finally {
    once = false;
  }
}

/**
 * A source of random arrays (NumPy's `numpy.random.Generator`), made by {@link defaultRng}. Every
 * method takes the result's shape first and its parameters, by NumPy's names, in an options object.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rng = ga.random.defaultRng(42);
 * const x = rng.normal([1000], { loc: 5, scale: 2 });
 * const k = rng.integers([10], { low: 1, high: 7 }); // dice
 * const [a, b] = rng.spawn(2);
 * console.log(x.mean(), k.get(), a.random(3).get(), b.random(3).get());
 * ```
 */
export class Generator {
  readonly #state: PhiloxState;
  #spawned = 0;

  /**
   * A generator keyed by `seed` (an integer from 0 to 2^64 − 1; default: fresh random bits), at its
   * first counter. `random.defaultRng(seed)` is the usual way to make one.
   *
   * @throws {RangeError} for a seed outside 0..2^64 − 1.
   */
  constructor(seed?: number | bigint) {
    this.#state = { key: seedOf(seed, "random"), offset: 0n, once };
  }

  /**
   * `n` new generators with keys of their own, derived from this one's key and how many it spawned
   * before (NumPy's `spawn`): reproducible from the seed, independent of each other and of this one.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const workers = ga.random.defaultRng(7).spawn(4);
   * const parts = workers.map((g) => g.normal([256]));
   * ```
   */
  spawn(n: number): Generator[] {
    if (!Number.isSafeInteger(n) || n < 0) {
      throw new RangeError(`Cannot spawn ${n} generators: pass an integer of 0 or more`);
    }
    return Array.from({ length: n }, () => new Generator(spawnKey(this.#state.key, ++this.#spawned)));
  }

  /** A draw of the continuous kernel's `name`, its parameters named and checked as {@link TRANSFORMS} says. */
  #transform(name: keyof typeof TRANSFORMS, shape: Shape, options: object | undefined): GPUArray {
    const [first, second] = TRANSFORMS[name];
    const given = (options ?? {}) as Record<string, unknown>;
    const names = [first, second].filter((p) => p !== undefined).map((p) => p[0]);
    checkDraw(options, name, `{ ${names.map((n) => `${n}: 2`).join(", ")} }`, [...names, "dtype"]);
    const value = (p: typeof first) => p === undefined ? 0 : param(name, p[0], given[p[0]], p[1], p[2]);
    const dtype = floatOf(given.dtype, name);
    return drawContinuous(this.#state, shape, dtype, name, value(first), value(second));
  }

  /**
   * Uniform numbers in [0, 1) (NumPy's `random`): the 24 (float32) or 53 (float64) high bits of
   * Philox's words.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const u = ga.random.defaultRng(1).random([2, 3], { dtype: "float64" });
   * ```
   */
  random<D extends FloatType = "float32">(shape: Shape, options?: FloatOptions<D>): GPUArray<D> {
    checkDraw(options, "random", '{ dtype: "float64" }', ["dtype"]);
    return drawContinuous(this.#state, shape, floatOf(options?.dtype, "random"), "uniform", 0, 1) as GPUArray<
      D
    >;
  }

  /**
   * Uniform numbers in [`low`, `high`) (NumPy's `uniform`), as `low + u·(high − low)` rounded in the
   * dtype.
   *
   * @throws {RangeError} for bounds that are not finite, or `high` below `low`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const angles = ga.random.defaultRng(1).uniform([100], { low: -Math.PI, high: Math.PI });
   * ```
   */
  uniform<D extends FloatType = "float32">(shape: Shape, options?: BoundsOptions<D>): GPUArray<D> {
    const { dtype, low, range } = uniformBounds(options);
    return drawContinuous(this.#state, shape, dtype, "uniform", low, range) as GPUArray<D>;
  }

  /**
   * Standard normal numbers (NumPy's `standard_normal`), by Box–Muller.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const z = ga.random.defaultRng(1).standardNormal([4, 4]);
   * ```
   */
  standardNormal<D extends FloatType = "float32">(shape: Shape, options?: FloatOptions<D>): GPUArray<D> {
    checkDraw(options, "standardNormal", '{ dtype: "float64" }', ["dtype"]);
    const dtype = floatOf(options?.dtype, "standardNormal");
    return drawContinuous(this.#state, shape, dtype, "normal", 0, 1) as GPUArray<D>;
  }

  /**
   * Normal numbers of mean `loc` and standard deviation `scale` (NumPy's `normal`).
   *
   * @throws {RangeError} for a `loc` that is not finite or a negative `scale`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const heights = ga.random.defaultRng(1).normal([1000], { loc: 170, scale: 8 });
   * ```
   */
  normal<D extends FloatType = "float32">(shape: Shape, options?: LocScaleOptions<D>): GPUArray<D> {
    return this.#transform("normal", shape, options) as GPUArray<D>;
  }

  /**
   * Log-normal numbers: `exp` of normal numbers of mean `mean` and standard deviation `sigma`.
   *
   * @throws {RangeError} for a `mean` that is not finite or a negative `sigma`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const incomes = ga.random.defaultRng(1).lognormal([1000], { mean: 10, sigma: 0.5 });
   * ```
   */
  lognormal<D extends FloatType = "float32">(shape: Shape, options?: LognormalOptions<D>): GPUArray<D> {
    return this.#transform("lognormal", shape, options) as GPUArray<D>;
  }

  /**
   * Exponential numbers of mean `scale` (NumPy's `exponential`), by inversion.
   *
   * @throws {RangeError} for a negative `scale`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const waits = ga.random.defaultRng(1).exponential([100], { scale: 3 });
   * ```
   */
  exponential<D extends FloatType = "float32">(shape: Shape, options?: ScaleOptions<D>): GPUArray<D> {
    return this.#transform("exponential", shape, options) as GPUArray<D>;
  }

  /**
   * Laplace (double exponential) numbers centred at `loc` with scale `scale`.
   *
   * @throws {RangeError} for a `loc` that is not finite or a negative `scale`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const noise = ga.random.defaultRng(1).laplace([100], { scale: 0.1 });
   * ```
   */
  laplace<D extends FloatType = "float32">(shape: Shape, options?: LocScaleOptions<D>): GPUArray<D> {
    return this.#transform("laplace", shape, options) as GPUArray<D>;
  }

  /**
   * Logistic numbers centred at `loc` with scale `scale`.
   *
   * @throws {RangeError} for a `loc` that is not finite or a negative `scale`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const x = ga.random.defaultRng(1).logistic([100], { loc: 1, scale: 0.5 });
   * ```
   */
  logistic<D extends FloatType = "float32">(shape: Shape, options?: LocScaleOptions<D>): GPUArray<D> {
    return this.#transform("logistic", shape, options) as GPUArray<D>;
  }

  /**
   * Weibull numbers of shape `a` and scale 1 (NumPy's `weibull`): `(−ln U)^(1/a)`; 0 where `a` is 0.
   *
   * @throws {TypeError} without `a`.
   * @throws {RangeError} for a negative `a`.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const lifetimes = ga.random.defaultRng(1).weibull([100], { a: 1.5 });
   * ```
   */
  weibull<D extends FloatType = "float32">(shape: Shape, options: WeibullOptions<D>): GPUArray<D> {
    return this.#transform("weibull", shape, options) as GPUArray<D>;
  }

  /**
   * Gamma numbers of shape `shape` and scale `scale` (Marsaglia and Tsang's method).
   *
   * @throws {TypeError} without the shape parameter.
   * @throws {RangeError} for a negative shape or scale.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const g = ga.random.defaultRng(1).gamma([1000], { shape: 2, scale: 3 }); // mean 6
   * ```
   */
  gamma<D extends FloatType = "float32">(shape: Shape, options: GammaOptions<D>): GPUArray<D> {
    checkDraw(options, "gamma", "{ shape: 2, scale: 1 }", ["shape", "scale", "dtype"]);
    const dtype = floatOf(options?.dtype, "gamma");
    const k = param("gamma", "shape", options?.shape, "nonNegative");
    const scale = param("gamma", "scale", options?.scale, "nonNegative", 1);
    return drawGamma(this.#state, shape, dtype, "gamma", [k], scale) as GPUArray<D>;
  }

  /**
   * Beta numbers of parameters `a` and `b`, in [0, 1].
   *
   * @throws {TypeError} without `a` or `b`.
   * @throws {RangeError} for an `a` or `b` that is not positive.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const rates = ga.random.defaultRng(1).beta([100], { a: 2, b: 5 });
   * ```
   */
  beta<D extends FloatType = "float32">(shape: Shape, options: BetaOptions<D>): GPUArray<D> {
    checkDraw(options, "beta", "{ a: 2, b: 5 }", ["a", "b", "dtype"]);
    const dtype = floatOf(options?.dtype, "beta");
    const a = param("beta", "a", options?.a, "positive");
    const b = param("beta", "b", options?.b, "positive");
    return drawGamma(this.#state, shape, dtype, "beta", [a, b], 1) as GPUArray<D>;
  }

  /**
   * Chi-square numbers of `df` degrees of freedom: gamma numbers of shape `df/2` and scale 2.
   *
   * @throws {TypeError} without `df`.
   * @throws {RangeError} for a `df` that is not positive.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const q = ga.random.defaultRng(1).chisquare([100], { df: 3 });
   * ```
   */
  chisquare<D extends FloatType = "float32">(shape: Shape, options: ChisquareOptions<D>): GPUArray<D> {
    checkDraw(options, "chisquare", "{ df: 3 }", ["df", "dtype"]);
    const dtype = floatOf(options?.dtype, "chisquare");
    const df = param("chisquare", "df", options?.df, "positive");
    return drawGamma(this.#state, shape, dtype, "gamma", [df / 2], 2) as GPUArray<D>;
  }

  /**
   * Points of the simplex (shape `[...shape, k]`) from the Dirichlet distribution of concentrations
   * `alpha`: each row sums to 1.
   *
   * @throws {TypeError} without `alpha`.
   * @throws {RangeError} for an empty `alpha` or one holding a number that is not positive.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const mixtures = ga.random.defaultRng(1).dirichlet([5], { alpha: [1, 2, 3] }); // (5, 3)
   * ```
   */
  dirichlet<D extends FloatType = "float32">(shape: Shape, options: DirichletOptions<D>): GPUArray<D> {
    checkDraw(options, "dirichlet", "{ alpha: [1, 1, 1] }", ["alpha", "dtype"]);
    const dtype = floatOf(options?.dtype, "dirichlet");
    return sampling.dirichlet(this.#state, shape, dtype, options?.alpha) as GPUArray<D>;
  }

  /**
   * Multivariate normal numbers (shape `[...shape, k]`) of mean `mean` (length `k`) and covariance
   * `cov` (`k × k`, symmetric positive semi-definite): standard normal rows times the transposed
   * Cholesky factor of `cov` (computed on the host in float64), plus `mean`.
   *
   * @throws {RangeError} for shapes that do not agree, a covariance that is not symmetric or not
   * positive semi-definite.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const xy = ga.random.defaultRng(1).multivariateNormal([1000], { mean: [0, 0], cov: [[1, 0.8], [0.8, 1]] });
   * ```
   */
  multivariateNormal<D extends FloatType = "float32">(
    shape: Shape,
    options: MultivariateNormalOptions<D>,
  ): GPUArray<D> {
    checkDraw(options, "multivariateNormal", "{ mean: [0, 0], cov: [[1, 0], [0, 1]] }", [
      "mean",
      "cov",
      "dtype",
    ]);
    const dtype = floatOf(options?.dtype, "multivariateNormal");
    return sampling.multivariateNormal(this.#state, shape, dtype, options?.mean, options?.cov) as GPUArray<D>;
  }

  /**
   * Poisson counts of mean `lam` (int64): the multiplication method below 10, Hörmann's PTRS above.
   *
   * @throws {RangeError} for a negative `lam` or one above 9.2e18.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const arrivals = ga.random.defaultRng(1).poisson([100], { lam: 4 });
   * ```
   */
  poisson(shape: Shape, options?: PoissonOptions): GPUArray<"int64"> {
    checkDraw(options, "poisson", "{ lam: 4 }", ["lam"]);
    const lam = param("poisson", "lam", options?.lam, "lam", 1);
    return drawDiscrete(this.#state, shape, "poisson", lam, 0);
  }

  /**
   * Binomial counts of `n` trials of probability `p` (int64): inversion where `n·min(p, 1 − p)` is
   * below 10, Hörmann's BTRS above.
   *
   * @throws {TypeError} without `n` or `p`.
   * @throws {RangeError} for an `n` that is not an integer from 0 to 2^53, or a `p` outside [0, 1].
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const heads = ga.random.defaultRng(1).binomial([100], { n: 10, p: 0.5 });
   * ```
   */
  binomial(shape: Shape, options: BinomialOptions): GPUArray<"int64"> {
    checkDraw(options, "binomial", "{ n: 10, p: 0.5 }", ["n", "p"]);
    const n = param("binomial", "n", options?.n, "trials");
    const p = param("binomial", "p", options?.p, "probability");
    return drawDiscrete(this.#state, shape, "binomial", n, p);
  }

  /**
   * Geometric counts (int64): the number of trials of probability `p` up to and including the first
   * success, so at least 1.
   *
   * @throws {TypeError} without `p`.
   * @throws {RangeError} for a `p` that is not above 0 and at most 1.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const tries = ga.random.defaultRng(1).geometric([100], { p: 0.25 });
   * ```
   */
  geometric(shape: Shape, options: GeometricOptions): GPUArray<"int64"> {
    checkDraw(options, "geometric", "{ p: 0.25 }", ["p"]);
    const p = param("geometric", "p", options?.p, "success");
    return drawDiscrete(this.#state, shape, "geometric", p, 0);
  }

  /**
   * Multinomial counts (int64, shape `[...shape, k]`): each row the numbers of `n` trials falling on
   * each of the `k` outcomes of probabilities `pvals` (the last takes what the others leave).
   *
   * @throws {TypeError} without `n` or `pvals`.
   * @throws {RangeError} for an `n` that is not an integer from 0 to 2^53, or `pvals` outside [0, 1]
   * or whose first `k − 1` sum past 1.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const rolls = ga.random.defaultRng(1).multinomial([3], { n: 20, pvals: [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6] });
   * ```
   */
  multinomial(shape: Shape, options: MultinomialOptions): GPUArray<"int64"> {
    checkDraw(options, "multinomial", "{ n: 10, pvals: [0.2, 0.8] }", ["n", "pvals"]);
    return sampling.multinomial(this.#state, shape, options?.n, options?.pvals);
  }

  /**
   * Integers uniform in [`low`, `high`) (or [`low`, `high`] with `endpoint: true`; NumPy's `integers`),
   * of an integer dtype or bool (default int64), with no bias: Lemire's multiply-and-reject.
   *
   * @throws {TypeError} without `high` (or `low`), for bounds that are not integers (numbers or
   * bigints), or a dtype that is not an integer one.
   * @throws {RangeError} for an empty range or bounds outside the dtype's.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const rng = ga.random.defaultRng(1);
   * const dice = rng.integers([10], { low: 1, high: 6, endpoint: true });
   * const bytes = rng.integers([16], { high: 256, dtype: "uint8" });
   * ```
   */
  integers<D extends IntegerDType = "int64">(shape: Shape, options: IntegersOptions<D>): GPUArray<D> {
    checkDraw(options, "integer", "{ low: 0, high: 10 }", ["low", "high", "endpoint", "dtype"]);
    const dtype = options?.dtype ?? "int64";
    const { low, span } = integerBounds(dtype, options?.low, options?.high, options?.endpoint);
    return drawIntegers(this.#state, shape, dtype, low, span) as GPUArray<D>;
  }

  /**
   * Entries of `a` (or integers below `a`, a count) of shape `shape`, along `axis` of `a` (NumPy's
   * `choice`): with replacement by default, with probabilities `p` if given.
   *
   * @throws {RangeError} for more values than `a` has without replacement, `p` of another length,
   * outside [0, 1] or not summing to 1, or too few non-zero entries of `p` without replacement.
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const rng = ga.random.defaultRng(1);
   * const draws = rng.choice(5, [10], { p: [0.1, 0, 0.3, 0.6, 0] });
   * const hand = rng.choice(ga.arange(52), [5], { replace: false });
   * ```
   */
  choice(a: number | GPUArray, shape: Shape, options?: ChoiceOptions): GPUArray {
    return sampling.choice(this.#state, a, shape, options);
  }

  /**
   * A random permutation of `0..x-1` (int64) for a count `x`, or of `x`'s entries along `axis`
   * (default 0) in a new array.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const rng = ga.random.defaultRng(1);
   * const order = rng.permutation(10);
   * const rows = rng.permutation(ga.arange(12).reshape(4, 3)); // its rows, reordered
   * ```
   */
  permutation(x: number | GPUArray, axis?: number | AxisOption): GPUArray {
    return sampling.permutation(
      this.#state,
      x,
      optionsOf("permute", [axis], [AXIS], ["axis"], "{ axis: 1 }"),
    );
  }

  /**
   * Permutes `x` in place along `axis` (default 0), as NumPy's `shuffle`.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * const deck = ga.arange(52);
   * ga.random.defaultRng(1).shuffle(deck);
   * ```
   */
  shuffle(x: GPUArray, axis?: number | AxisOption): void {
    sampling.shuffle(this.#state, x, optionsOf("shuffle", [axis], [AXIS], ["axis"], "{ axis: 1 }"));
  }
}

/**
 * A {@link Generator} keyed by `seed` (NumPy's `default_rng`): an integer from 0 to 2^64 − 1, or
 * fresh random bits without one; a Generator is returned as it is.
 *
 * @throws {RangeError} for a seed outside 0..2^64 − 1.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rng = ga.random.defaultRng(12345);
 * const x = rng.standardNormal([3, 3]);
 * ```
 */
export function defaultRng(seed?: number | bigint | Generator): Generator {
  return seed instanceof Generator ? seed : new Generator(seed);
}
