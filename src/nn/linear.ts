/**
 * The fully connected layer (PyTorch's `nn.Linear`).
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { dtypeArg, featuresArg, options } from "./_check.ts";
import { linear } from "./functional_linear.ts";
import { defaultBound, streamOf, uniformInit } from "./init.ts";
import { Module } from "./module.ts";

/** Options of {@link Linear}. */
export interface LinearOptions {
  /** Whether the layer adds a bias. Default true. */
  readonly bias?: boolean;
  /** The parameters' dtype. Default "float32". */
  readonly dtype?: ga.FloatDType;
  /** Draw the initial parameters from this seed's stream instead of `nn`'s (see `manualSeed`). Default: `nn`'s stream. */
  readonly seed?: number | bigint;
}

/**
 * `y = x·weightᵀ + bias` (PyTorch's `nn.Linear`): `weight` is `[outFeatures, inFeatures]` and `bias`
 * `[outFeatures]` (or null), both initialised as PyTorch's, uniform in `±1/√inFeatures`
 * (`kaiming_uniform_` with `a = √5` for the weight).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const fc = new nn.Linear(784, 128, { seed: 1 });
 * const y = fc.forward(ga.zeros([32, 784])); // [32, 128]
 * console.log(fc.weight.shape); // [128, 784]
 * ```
 */
export class Linear extends Module {
  /** The input's last extent. */
  readonly inFeatures: number;
  /** The output's last extent. */
  readonly outFeatures: number;
  /** `[outFeatures, inFeatures]`. */
  weight: ga.GPUArray;
  /** `[outFeatures]`, or null without a bias. */
  bias: ga.GPUArray | null;

  /**
   * A layer from `inFeatures` to `outFeatures` with freshly drawn parameters.
   *
   * @throws {RangeError} for feature counts that are not positive integers.
   */
  constructor(inFeatures: number, outFeatures: number, opts?: LinearOptions) {
    super();
    const what = "make a Linear layer";
    const o = options(opts, what, "{ bias: false, seed: 1 }", ["bias", "dtype", "seed"]);
    this.inFeatures = featuresArg(inFeatures, what, "inFeatures");
    this.outFeatures = featuresArg(outFeatures, what, "outFeatures");
    const dtype = dtypeArg(o.dtype, what);
    const state = streamOf(o.seed, "Linear");
    const bound = defaultBound(inFeatures);
    this.weight = uniformInit(state, [outFeatures, inFeatures], bound, dtype);
    this.bias = o.bias === false ? null : uniformInit(state, [outFeatures], bound, dtype);
  }

  /** `linear(input, weight, bias)`: `[..., inFeatures]` to `[..., outFeatures]`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return linear(input, this.weight, this.bias);
  }
}
