/**
 * The batch normalisation layer of images (PyTorch's `nn.BatchNorm2d`).
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { dtypeArg, featuresArg, options, positiveArg, showShape, unitArg } from "./_check.ts";
import { batchNorm } from "./functional_batch_norm.ts";
import { Module } from "./module.ts";

/** Options of {@link BatchNorm2d}. */
export interface BatchNorm2dOptions {
  /** Added to the variance. Default 1e-5. */
  readonly eps?: number;
  /** The weight of each batch in the running statistics; null for a cumulative average. Default 0.1. */
  readonly momentum?: number | null;
  /** Learn a per-channel `weight` (ones) and `bias` (zeros). Default true. */
  readonly affine?: boolean;
  /** Keep running statistics for evaluation; without them, evaluation uses the batch's too. Default true. */
  readonly trackRunningStats?: boolean;
  /** The parameters' and statistics' dtype. Default "float32". */
  readonly dtype?: ga.FloatDType;
}

/**
 * Batch normalisation of `[N, C, H, W]` images (PyTorch's `nn.BatchNorm2d`): in training, each channel
 * is standardised by the batch's statistics and the running statistics (buffers `runningMean`,
 * `runningVar`, `numBatchesTracked`; `running_mean`, ... in the state dict) move towards them; in
 * evaluation (`eval()`), the running statistics are used.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const bn = new nn.BatchNorm2d(16);
 * const y = bn.forward(ga.random.normal([8, 16, 4, 4], { seed: 1 })); // updates the running statistics
 * const z = bn.eval().forward(ga.zeros([1, 16, 4, 4]));
 * ```
 */
export class BatchNorm2d extends Module {
  /** The channels, C. */
  readonly numFeatures: number;
  /** Added to the variance. */
  readonly eps: number;
  /** The weight of each batch in the running statistics (null: a cumulative average). */
  readonly momentum: number | null;
  /** `[C]` scale, or null when not affine. */
  weight: ga.GPUArray | null;
  /** `[C]` shift, or null when not affine. */
  bias: ga.GPUArray | null;
  /** `[C]` running mean (a buffer), or null when not tracking. */
  readonly runningMean: ga.GPUArray | null;
  /** `[C]` running unbiased variance (a buffer), or null when not tracking. */
  readonly runningVar: ga.GPUArray | null;
  /** The 0-d int64 count of training batches seen (a buffer), or null when not tracking. */
  readonly numBatchesTracked: ga.GPUArray | null;

  /**
   * A layer for `numFeatures` channels.
   *
   * @throws {RangeError} for a `numFeatures` that is not a positive integer, or an eps or momentum out of range.
   */
  constructor(numFeatures: number, opts?: BatchNorm2dOptions) {
    super();
    const what = "make a BatchNorm2d layer";
    const o = options(opts, what, "{ momentum: 0.1 }", [
      "eps",
      "momentum",
      "affine",
      "trackRunningStats",
      "dtype",
    ]);
    const c = this.numFeatures = featuresArg(numFeatures, what, "numFeatures");
    this.eps = positiveArg(o.eps ?? 1e-5, what, "eps");
    this.momentum = o.momentum === null ? null : unitArg(o.momentum ?? 0.1, what, "momentum");
    const dtype = dtypeArg(o.dtype, what);
    const affine = o.affine ?? true, track = o.trackRunningStats ?? true;
    this.weight = affine ? ga.ones([c], dtype) : null;
    this.bias = affine ? ga.zeros([c], dtype) : null;
    this.runningMean = this.registerBuffer("runningMean", track ? ga.zeros([c], dtype) : null);
    this.runningVar = this.registerBuffer("runningVar", track ? ga.ones([c], dtype) : null);
    this.numBatchesTracked = this.registerBuffer("numBatchesTracked", track ? ga.zeros([], "int64") : null);
  }

  /** `batchNorm` of an `[N, C, H, W]` input with this layer's parameters, statistics and mode. */
  forward(input: ga.GPUArray): ga.GPUArray {
    if (!(input instanceof ga.GPUArray) || input.ndim !== 4) {
      throw new RangeError(
        `Cannot BatchNorm2d an input of shape ${
          input instanceof ga.GPUArray ? showShape(input.shape) : typeof input
        }: it must be [N, C, H, W] (4-D)`,
      );
    }
    let momentum = this.momentum ?? 0;
    const counted = this.numBatchesTracked;
    if (this.training && counted !== null) {
      ga.assign(counted, counted.add(1));
      if (this.momentum === null) momentum = 1 / Number(counted.item());
    }
    const batchStats = this.training || this.runningMean === null;
    return batchNorm(input, this.runningMean, this.runningVar, {
      weight: this.weight,
      bias: this.bias,
      training: batchStats,
      momentum,
      eps: this.eps,
    });
  }
}
