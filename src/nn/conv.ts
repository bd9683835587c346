/**
 * The 2-D convolution layer (PyTorch's `nn.Conv2d`).
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { dtypeArg, featuresArg, options, tupleArg } from "./_check.ts";
import { conv2d, type ConvOptions } from "./functional_conv.ts";
import { defaultBound, streamOf, uniformInit } from "./init.ts";
import { Module } from "./module.ts";

/** Options of {@link Conv2d}: the convolution's geometry and the parameters' making. */
export interface Conv2dOptions extends ConvOptions {
  /** Whether the layer adds a bias. Default true. */
  readonly bias?: boolean;
  /** The parameters' dtype. Default "float32". */
  readonly dtype?: ga.FloatDType;
  /** Draw the initial parameters from this seed's stream instead of `nn`'s (see `manualSeed`). Default: `nn`'s stream. */
  readonly seed?: number | bigint;
}

/**
 * A 2-D convolution of NCHW images (PyTorch's `nn.Conv2d`): `weight` is `[outChannels, inChannels /
 * groups, kH, kW]` and `bias` `[outChannels]`, initialised as PyTorch's, uniform in `±1/√fanIn` with
 * `fanIn = inChannels / groups · kH · kW`; `stride`, `padding` (numbers, "valid", "same"), `dilation`
 * and `groups` as {@link conv2d}'s.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const conv = new nn.Conv2d(3, 16, 3, { padding: 1, seed: 1 });
 * const y = conv.forward(ga.zeros([8, 3, 32, 32])); // [8, 16, 32, 32]
 * ```
 */
export class Conv2d extends Module {
  /** The input's channels. */
  readonly inChannels: number;
  /** The output's channels. */
  readonly outChannels: number;
  /** `[kH, kW]`. */
  readonly kernelSize: readonly [number, number];
  /** The geometry handed to {@link conv2d}. */
  readonly options: ConvOptions;
  /** `[outChannels, inChannels / groups, kH, kW]`. */
  weight: ga.GPUArray;
  /** `[outChannels]`, or null without a bias. */
  bias: ga.GPUArray | null;

  /**
   * A layer from `inChannels` to `outChannels` with a `kernelSize` kernel (one number or `[kH, kW]`).
   *
   * @throws {RangeError} for sizes that are not positive integers, or channels that `groups` does not divide.
   */
  constructor(
    inChannels: number,
    outChannels: number,
    kernelSize: number | readonly [number, number],
    opts?: Conv2dOptions,
  ) {
    super();
    const what = "make a Conv2d layer";
    const o = options(opts, what, '{ stride: 1, padding: "same", seed: 1 }', [
      "stride",
      "padding",
      "dilation",
      "groups",
      "bias",
      "dtype",
      "seed",
    ]);
    this.inChannels = featuresArg(inChannels, what, "inChannels");
    this.outChannels = featuresArg(outChannels, what, "outChannels");
    const [kh, kw] = tupleArg(kernelSize, 2, what, "kernelSize", 1) as [number, number];
    this.kernelSize = [kh, kw];
    const groups = o.groups ?? 1;
    if (!Number.isInteger(groups) || groups < 1 || inChannels % groups !== 0 || outChannels % groups !== 0) {
      throw new RangeError(
        `Cannot ${what} with groups ${groups}: inChannels ${inChannels} and outChannels ${outChannels} must both be multiples of it`,
      );
    }
    this.options = { stride: o.stride, padding: o.padding, dilation: o.dilation, groups };
    const dt = dtypeArg(o.dtype, what);
    const state = streamOf(o.seed, "Conv2d");
    const bound = defaultBound((inChannels / groups) * kh * kw);
    this.weight = uniformInit(state, [outChannels, inChannels / groups, kh, kw], bound, dt);
    this.bias = o.bias === false ? null : uniformInit(state, [outChannels], bound, dt);
  }

  /** `conv2d(input, weight, bias, options)`: `[N, inChannels, H, W]` to `[N, outChannels, H', W']`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return conv2d(input, this.weight, this.bias, this.options);
  }
}
