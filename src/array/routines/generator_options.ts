/**
 * The options of `random.Generator`'s methods (NumPy's parameter names) and the checks every method
 * makes of them: a missing parameter or one of the wrong type is a TypeError, a value outside its
 * distribution's domain a RangeError, each naming the parameter and saying what to pass.
 *
 * @module
 */

import { GPUArray } from "../core/gpuarray.ts";
import { checkOptions } from "../../kernel/options.ts";
import type { FloatType } from "../exec/philox_source.ts";

/** The dtypes `integers` draws: the integer dtypes and bool. */
export type IntegerDType =
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "bool";

/** The dtype of a continuous draw: `"float32"` (default, as `random.uniform`) or `"float64"` (NumPy's). */
export interface FloatOptions<D extends FloatType = "float32"> {
  /** `"float32"` (default) or `"float64"`. */
  readonly dtype?: D;
}

/** Options of `Generator.uniform`. */
export interface BoundsOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The lower bound, included. Default 0. */
  readonly low?: number;
  /** The upper bound, excluded (up to rounding), not below `low`. Default 1. */
  readonly high?: number;
}

/** Options of `Generator.normal`, `laplace` and `logistic`. */
export interface LocScaleOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The centre (the mean of normal numbers). Default 0. */
  readonly loc?: number;
  /** The spread (the standard deviation of normal numbers), not negative. Default 1. */
  readonly scale?: number;
}

/** Options of `Generator.exponential`. */
export interface ScaleOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The scale `1/λ` (the mean), not negative. Default 1. */
  readonly scale?: number;
}

/** Options of `Generator.lognormal`: the normal distribution whose exponential is drawn. */
export interface LognormalOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The mean of the underlying normal distribution. Default 0. */
  readonly mean?: number;
  /** The standard deviation of the underlying normal distribution, not negative. Default 1. */
  readonly sigma?: number;
}

/** Options of `Generator.weibull`. */
export interface WeibullOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The shape, not negative (required). */
  readonly a: number;
}

/** Options of `Generator.gamma`. */
export interface GammaOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The shape `k`, not negative (required). */
  readonly shape: number;
  /** The scale `θ`, not negative. Default 1. */
  readonly scale?: number;
}

/** Options of `Generator.beta`. */
export interface BetaOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** Alpha, positive (required). */
  readonly a: number;
  /** Beta, positive (required). */
  readonly b: number;
}

/** Options of `Generator.chisquare`. */
export interface ChisquareOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The degrees of freedom, positive (required). */
  readonly df: number;
}

/** Options of `Generator.dirichlet`. */
export interface DirichletOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The concentrations, each positive (required): the draws have this many components. */
  readonly alpha: readonly number[];
}

/** Options of `Generator.multivariateNormal`. */
export interface MultivariateNormalOptions<D extends FloatType = "float32"> extends FloatOptions<D> {
  /** The mean, of length `k` (required). */
  readonly mean: readonly number[] | GPUArray;
  /** The `k × k` covariance, symmetric and positive semi-definite (required). */
  readonly cov: readonly (readonly number[])[] | GPUArray;
}

/** Options of `Generator.poisson`. */
export interface PoissonOptions {
  /** The expected count λ, from 0 to 9.2e18. Default 1. */
  readonly lam?: number;
}

/** Options of `Generator.binomial`. */
export interface BinomialOptions {
  /** The number of trials, an integer from 0 to 2^53 (required). */
  readonly n: number;
  /** The probability of success of each, from 0 to 1 (required). */
  readonly p: number;
}

/** Options of `Generator.geometric`. */
export interface GeometricOptions {
  /** The probability of success of each trial, above 0 and at most 1 (required). */
  readonly p: number;
}

/** Options of `Generator.multinomial`. */
export interface MultinomialOptions {
  /** The number of trials, an integer from 0 to 2^53 (required). */
  readonly n: number;
  /** The probabilities of the `k` outcomes, each from 0 to 1, the first `k − 1` summing to at most 1 (required). */
  readonly pvals: readonly number[] | GPUArray;
}

/** Options of `Generator.integers`. */
export interface IntegersOptions<D extends IntegerDType = "int64"> {
  /** The lowest value, included. Default 0; with no `high`, the values are `[0, low)` (NumPy's rule). */
  readonly low?: number | bigint;
  /** The bound above: excluded, or included with `endpoint: true`. Default: none (then `low` is the bound above and 0 the one below). */
  readonly high?: number | bigint;
  /** Whether `high` may be drawn. Default false. */
  readonly endpoint?: boolean;
  /** An integer dtype or bool. Default `"int64"` (NumPy's). */
  readonly dtype?: D;
}

/** Options of `Generator.choice`. */
export interface ChoiceOptions {
  /** Whether a value may be drawn more than once. Default true. */
  readonly replace?: boolean;
  /** The probability of each entry of `a` (default: all equal), summing to 1. */
  readonly p?: readonly number[] | GPUArray;
  /** The axis of `a` to choose along. Default 0. */
  readonly axis?: number;
}

/** Options of `Generator.permutation` and `Generator.shuffle`. */
export interface AxisOption {
  /** The axis to permute along. Default 0. */
  readonly axis?: number;
}

/** Checks `options` of a draw of `what`, whose keys may be `known` (plus `dtype` where `float`). */
export function checkDraw(options: unknown, what: string, example: string, known: readonly string[]): void {
  checkOptions(options, `draw ${what} numbers`, example, known);
}

/** The float dtype of a draw of `what` (default float32). */
export function floatOf(dtype: unknown, what: string): FloatType {
  if (dtype === undefined) return "float32";
  if (dtype !== "float32" && dtype !== "float64") {
    throw new TypeError(
      `Cannot draw ${what} numbers of dtype "${String(dtype)}": use "float32" or "float64" (then astype())`,
    );
  }
  return dtype;
}

/** The rules a parameter may have to follow, with what the messages ask for. */
const RULES = {
  finite: [(x: number) => Number.isFinite(x), "a finite number"],
  nonNegative: [(x: number) => Number.isFinite(x) && x >= 0, "a finite number of 0 or more"],
  positive: [(x: number) => Number.isFinite(x) && x > 0, "a finite number above 0"],
  probability: [(x: number) => x >= 0 && x <= 1, "a probability from 0 to 1"],
  success: [(x: number) => x > 0 && x <= 1, "a probability above 0 and at most 1"],
  // NumPy's POISSON_LAM_MAX: int64's maximum less ten of its square roots.
  lam: [(x: number) => x >= 0 && x <= 9.223372006484771e18, "a number from 0 to 9.2e18"],
  trials: [(x: number) => Number.isInteger(x) && x >= 0 && x <= 2 ** 53, "an integer from 0 to 2^53"],
} as const;

/** A parameter of a distribution: its name, its rule and its default (none where it is required). */
type Param = readonly [name: string, rule: keyof typeof RULES, fallback?: number];

/**
 * The parameters of the continuous kernel's transforms of uniform and normal numbers, as its `p0` and
 * `p1` (0 where there is none).
 */
export const TRANSFORMS: Readonly<
  Record<
    "normal" | "lognormal" | "exponential" | "laplace" | "logistic" | "weibull",
    readonly [Param | undefined, Param]
  >
> = {
  normal: [["loc", "finite", 0], ["scale", "nonNegative", 1]],
  laplace: [["loc", "finite", 0], ["scale", "nonNegative", 1]],
  logistic: [["loc", "finite", 0], ["scale", "nonNegative", 1]],
  lognormal: [["mean", "finite", 0], ["sigma", "nonNegative", 1]],
  exponential: [undefined, ["scale", "nonNegative", 1]],
  weibull: [undefined, ["a", "nonNegative"]],
};

/**
 * The number `value` of parameter `name` of a draw of `what`, or `fallback` where it is undefined;
 * without a fallback the parameter is required.
 *
 * @throws {TypeError} for a missing required parameter or one that is not a number.
 * @throws {RangeError} for a value that breaks `rule`.
 */
export function param(
  what: string,
  name: string,
  value: unknown,
  rule: keyof typeof RULES,
  fallback?: number,
): number {
  const x = value ?? fallback;
  if (x === undefined) {
    throw new TypeError(
      `Cannot draw ${what} numbers without ${name}: pass it in the options, as { ${name}: 1 }`,
    );
  }
  if (typeof x !== "number") {
    throw new TypeError(`Cannot draw ${what} numbers with ${name} = ${String(x)}: pass a number`);
  }
  const [test, want] = RULES[rule];
  if (!test(x)) throw new RangeError(`Cannot draw ${what} numbers with ${name} = ${x}: pass ${want}`);
  return x;
}

/**
 * The dtype, the lower bound and the width (both rounded to the dtype) of `Generator.uniform`.
 *
 * @throws {RangeError} for bounds that are not finite, `high` below `low`, or a width that overflows.
 */
export function uniformBounds(options: BoundsOptions<FloatType> | undefined): {
  dtype: FloatType;
  low: number;
  range: number;
} {
  checkDraw(options, "uniform", "{ low: -1, high: 1 }", ["low", "high", "dtype"]);
  const dtype = floatOf(options?.dtype, "uniform");
  const low = param("uniform", "low", options?.low, "finite", 0);
  const high = param("uniform", "high", options?.high, "finite", 1);
  if (high < low) {
    throw new RangeError(`Cannot draw uniform numbers with high = ${high}: pass high ≥ low (${low})`);
  }
  const round = dtype === "float32" ? Math.fround : (x: number) => x;
  const range = round(round(high) - round(low));
  if (!Number.isFinite(range)) {
    throw new RangeError(`Cannot draw uniform numbers in [${low}, ${high}): the width overflows ${dtype}`);
  }
  return { dtype, low: round(low), range };
}

/** A parameter's list of numbers (a JS list or a 1-D array, read back), in float64. */
export function hostList(what: string, name: string, value: unknown): Float64Array {
  if (value === undefined) {
    throw new TypeError(
      `Cannot draw ${what} numbers without ${name}: pass it in the options as a list of numbers`,
    );
  }
  if (value instanceof GPUArray) {
    if (value.ndim !== 1) {
      throw new RangeError(
        `Cannot draw ${what} numbers with ${name} of shape (${value.shape.join(", ")}): pass a 1-D array`,
      );
    }
    return Float64Array.from(value.get() as ArrayLike<number | bigint>, Number);
  }
  if (!Array.isArray(value) || !value.every((x) => typeof x === "number")) {
    throw new TypeError(
      `Cannot draw ${what} numbers with ${name} = ${String(value)}: pass a list of numbers`,
    );
  }
  return Float64Array.from(value);
}

const INTEGER_DTYPES: readonly IntegerDType[] = [
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "bool",
];

/** The smallest and largest value of an integer dtype (or bool). */
function rangeOf(dtype: IntegerDType): [bigint, bigint] {
  if (dtype === "bool") return [0n, 1n];
  const bits = BigInt(Number(dtype.replace(/\D/g, "")));
  return dtype.startsWith("u") ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
}

function integerParam(name: string, value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "number") {
    throw new RangeError(
      `Cannot draw integer numbers with ${name} = ${value}: pass a safe integer, or a bigint`,
    );
  }
  throw new TypeError(
    `Cannot draw integer numbers with ${name} = ${String(value)}: pass an integer or a bigint`,
  );
}

/**
 * The lowest value (as the kernel's int64 argument) and the span (largest less lowest) of
 * `integers`' draws, by NumPy's rules: without `high`, `[0, low)`; `high` excluded unless `endpoint`.
 *
 * @throws {TypeError} for a dtype that is not an integer one, bounds that are not integers, or no bounds.
 * @throws {RangeError} for an empty range or bounds outside the dtype's.
 */
export function integerBounds(
  dtype: unknown,
  low: unknown,
  high: unknown,
  endpoint: unknown,
): { low: bigint; span: bigint } {
  if (!INTEGER_DTYPES.includes(dtype as IntegerDType)) {
    throw new TypeError(
      `Cannot draw integer numbers of dtype "${String(dtype)}": use an integer dtype (${
        INTEGER_DTYPES.join(", ")
      })`,
    );
  }
  if (endpoint !== undefined && typeof endpoint !== "boolean") {
    throw new TypeError(`Cannot draw integer numbers with endpoint = ${String(endpoint)}: pass a boolean`);
  }
  if (high === undefined) {
    if (low === undefined) {
      throw new TypeError(
        "Cannot draw integer numbers without high: pass it in the options, as { high: 10 }",
      );
    }
    [low, high] = [0, low];
  }
  const lo = integerParam("low", low ?? 0), hi = integerParam("high", high);
  const top = endpoint === true ? hi : hi - 1n;
  if (top < lo) {
    throw new RangeError(
      `Cannot draw integer numbers with low = ${lo} and high = ${hi}: pass high ${endpoint ? "≥" : ">"} low`,
    );
  }
  const [min, max] = rangeOf(dtype as IntegerDType);
  if (lo < min) {
    throw new RangeError(`Cannot draw ${dtype} numbers with low = ${lo}: it is below ${dtype}'s ${min}`);
  }
  if (top > max) {
    throw new RangeError(
      `Cannot draw ${dtype} numbers with high = ${hi}${
        endpoint ? "" : " (excluded)"
      }: ${dtype} holds at most ${max}`,
    );
  }
  return { low: BigInt.asIntN(64, lo), span: top - lo };
}
