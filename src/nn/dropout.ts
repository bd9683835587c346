/**
 * The dropout layer (PyTorch's `nn.Dropout`).
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import type { PhiloxState } from "../array/routines/distributions.ts";
import { options, unitArg } from "./_check.ts";
import { dropoutWith } from "./functional_dropout.ts";
import { streamOf } from "./init.ts";
import { Module } from "./module.ts";

/** Options of {@link Dropout}. */
export interface DropoutLayerOptions {
  /** Draw the masks from this seed's stream (from its first counter, moving on each call) instead of `nn`'s. Default: `nn`'s stream. */
  readonly seed?: number | bigint;
}

/**
 * Dropout while training (PyTorch's `nn.Dropout`): each call zeroes elements with probability `p` and
 * scales the rest by `1 / (1 - p)`, drawing its mask from the next counters of its stream (its `seed`'s,
 * or `nn`'s); in evaluation mode it returns its input.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const drop = new nn.Dropout(0.1, { seed: 1 });
 * const a = drop.forward(ga.ones([4, 4])), b = drop.forward(ga.ones([4, 4])); // different masks
 * const c = drop.eval().forward(ga.ones([4, 4])); // the input
 * ```
 */
export class Dropout extends Module {
  /** The probability of zeroing an element. */
  readonly p: number;
  readonly #stream: PhiloxState;

  /**
   * A dropout layer of probability `p` (default 0.5).
   *
   * @throws {RangeError} for a `p` outside [0, 1].
   */
  constructor(p = 0.5, opts?: DropoutLayerOptions) {
    super();
    const o = options(opts, "make a Dropout layer", "{ seed: 1 }", ["seed"]);
    this.p = unitArg(p, "make a Dropout layer", "p");
    this.#stream = streamOf(o.seed, "Dropout");
  }

  /** `dropout(input, { p, training })` with this layer's stream. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return dropoutWith(input, this.p, this.training, this.#stream);
  }
}
