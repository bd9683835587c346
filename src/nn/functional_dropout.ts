/**
 * Dropout (PyTorch's `dropout`) with a counter-based mask: element `i` of a call is kept where the
 * `i`-th float32 uniform number of Philox4x32-10 (keyed by a seed, from a given counter) is below
 * `1 - p`, so a seed and an offset give the same mask on CUDA and on OpenCL, whatever the dtype.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { drawContinuous, type PhiloxState } from "../array/routines/distributions.ts";
import { seedOf } from "../array/routines/seed.ts";
import { floatArg, options, unitArg } from "./_check.ts";
import { streamOf } from "./init.ts";

/** Options of {@link dropout}. */
export interface DropoutOptions {
  /** The probability of zeroing an element, from 0 to 1. Default 0.5. */
  readonly p?: number;
  /** Whether to drop (training); `false` returns the input as it is. Default true. */
  readonly training?: boolean;
  /** The Philox key of the mask (0 to 2^64 − 1). Default: `nn`'s stream (see `manualSeed`). */
  readonly seed?: number | bigint;
  /**
   * The first Philox counter with `seed`: each counter gives 4 numbers, so a call on `n` elements
   * uses `ceil(n / 4)` counters and the next call of a stream starts after them. Default 0.
   */
  readonly offset?: number | bigint;
  /** A `ga.random.Generator` to draw the mask from instead (its counter moves on). Default: `nn`'s stream (or `seed`). */
  readonly generator?: DropoutGenerator;
}

/**
 * What {@link DropoutOptions.generator} takes: a `ga.random.Generator` (`ga.random.defaultRng(seed)`), whose
 * `random` draws the mask's numbers.
 */
export interface DropoutGenerator {
  /** Uniform float32 numbers in [0, 1) of `shape`, moving the generator's counter on. */
  random(shape: readonly number[]): ga.GPUArray;
}

/** The stream a dropout call draws from: a generator, a seed and offset, or `nn`'s own. */
function maskSource(o: Partial<DropoutOptions>): PhiloxState | ga.random.Generator {
  // Only a real generator: its numbers are the counter-based ones the mask's rule is stated in.
  if (o.generator !== undefined) {
    if (!(o.generator instanceof ga.random.Generator)) {
      throw new TypeError(
        "Cannot dropout: generator must be a ga.random.Generator (ga.random.defaultRng(seed))",
      );
    }
    if (o.seed !== undefined || o.offset !== undefined) {
      throw new TypeError("Cannot dropout with both a generator and a seed or offset: pass one of them");
    }
    return o.generator;
  }
  if (o.seed === undefined) {
    if (o.offset !== undefined) {
      throw new TypeError("Cannot dropout with an offset but no seed: pass { seed, offset }");
    }
    return streamOf(undefined, "dropout");
  }
  const offset = o.offset ?? 0;
  const at = typeof offset === "number" && Number.isSafeInteger(offset) ? BigInt(offset) : offset;
  if (typeof at !== "bigint" || at < 0n || at >= 2n ** 64n) {
    throw new RangeError(`Cannot dropout with offset ${String(offset)}: pass an integer from 0 to 2^64 - 1`);
  }
  return { key: seedOf(o.seed, "dropout"), offset: at, once: true };
}

/** The float32 uniform numbers in [0, 1) of `shape` from `source` (moving its counter on). */
function uniformMask(source: PhiloxState | ga.random.Generator, shape: readonly number[]): ga.GPUArray {
  return source instanceof ga.random.Generator
    ? source.random([...shape])
    : drawContinuous(source, shape, "float32", "uniform", 0, 1);
}

/**
 * Zeroes each element of `input` with probability `p` and scales the rest by `1 / (1 - p)` (PyTorch's
 * `dropout`, "inverted" dropout), while `training`; otherwise returns `input`. The mask is drawn from a
 * counter-based generator: `{ seed, offset }` fixes it (the same on every backend and dtype), a
 * `generator` draws the next numbers of that generator, and without either it draws from `nn`'s stream.
 * `p` may also come second by position, as in PyTorch.
 *
 * @throws {RangeError} for a `p` outside [0, 1] or an offset out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.ones([4, 8]);
 * const y = nn.dropout(x, { p: 0.25, seed: 1 }); // zeros and 4/3s
 * const same = nn.dropout(x, 0.25, { seed: 1 }); // the same mask
 * const next = nn.dropout(x, 0.25, { seed: 1, offset: 8 }); // the next 32 numbers of that stream
 * ```
 */
export function dropout(input: ga.GPUArray, p?: number | DropoutOptions, opts?: DropoutOptions): ga.GPUArray {
  const x = floatArg(input, "dropout", "input");
  const example = "{ p: 0.1, seed: 1 }";
  const known = ["p", "training", "seed", "offset", "generator"];
  if (typeof p === "number" && typeof opts === "object" && opts !== null && "p" in opts) {
    throw new TypeError("Cannot dropout with p given twice: pass it by position or in the options");
  }
  const o = typeof p === "number"
    ? { ...options(opts, "dropout", example, known.slice(1)), p }
    : options(p, "dropout", example, known);
  return dropoutWith(x, unitArg(o.p ?? 0.5, "dropout", "p"), o.training !== false, maskSource(o));
}

/** {@link dropout} of a checked `input` and `p`, drawing the mask from `source` (moving its counter on). */
export function dropoutWith(
  x: ga.GPUArray,
  p: number,
  training: boolean,
  source: PhiloxState | ga.random.Generator,
): ga.GPUArray {
  if (!training || p === 0) return x;
  if (p === 1) return x.mul(0);
  const keep = uniformMask(source, x.shape).lt(1 - p);
  return ga.where(keep, x.mul(1 / (1 - p)), 0);
}
