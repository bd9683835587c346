/**
 * The module's draws from a generator of their own (`random.integers`, `random.permutation`,
 * `random.choice`): each takes a `seed` option beside the generator method's options, and is that
 * method of `random.defaultRng(seed)`.
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import type { Shape } from "../core/layout.ts";
import { checkOptions } from "../../kernel/options.ts";
import { type Generator, seededOnce } from "./generator.ts";
import type { AxisOption, ChoiceOptions, IntegerDType, IntegersOptions } from "./generator_options.ts";

/** The `seed` option of the module's functions. */
export interface SeedOption {
  /** The generator's key, an integer from 0 to 2^64 − 1. Default: fresh random bits. */
  readonly seed?: number | bigint;
}

function seeded<O extends object>(
  options: O & SeedOption | undefined,
  what: string,
  known: string[],
): { rng: Generator; rest: O } {
  checkOptions(options, what, "{ seed: 1 }", [...known, "seed"]);
  const { seed, ...rest } = options ?? ({} as O & SeedOption);
  return { rng: seededOnce(seed), rest: rest as O };
}

/**
 * Integers uniform in [`low`, `high`) of a new generator keyed by `seed` (NumPy's
 * `default_rng(seed).integers`); see {@link Generator.integers}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const labels = ga.random.integers([1000], { low: 0, high: 10, seed: 1 });
 * ```
 */
export function integers<D extends IntegerDType = "int64">(
  shape: Shape,
  options: IntegersOptions<D> & SeedOption,
): GPUArray<D> {
  const { rng, rest } = seeded(options, "draw integer numbers", ["low", "high", "endpoint", "dtype"]);
  return rng.integers(shape, rest);
}

/**
 * A random permutation of `0..x-1`, or of `x` along `axis`, from a new generator keyed by `seed`; see
 * {@link Generator.permutation}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const order = ga.random.permutation(100, { seed: 3 });
 * ```
 */
export function permutation(x: number | GPUArray, options?: AxisOption & SeedOption): GPUArray {
  const { rng, rest } = seeded(options, "permute", ["axis"]);
  return rng.permutation(x, rest);
}

/**
 * Entries of `a` (or integers below a count `a`) of shape `shape` from a new generator keyed by
 * `seed`; see {@link Generator.choice}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sample = ga.random.choice(ga.arange(100), [10], { replace: false, seed: 4 });
 * ```
 */
export function choice(a: number | GPUArray, shape: Shape, options?: ChoiceOptions & SeedOption): GPUArray {
  const { rng, rest } = seeded(options, "choose", ["replace", "p", "axis"]);
  return rng.choice(a, shape, rest);
}
