/**
 * Batch normalisation (PyTorch's `batch_norm`): per-channel statistics of the batch while training,
 * kept as running averages for evaluation. The running statistics are updated in place, from values
 * taken out of the differentiation (`ga.stopGradient`), so a call inside `ga.grad` both differentiates
 * through the batch statistics and moves the running ones.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { forReduction } from "./autocast.ts";
import { isTracked } from "../array/grad/tape.ts";
import {
  expectShape,
  floatArg,
  optionalFloat,
  options,
  perChannel,
  positiveArg,
  showShape,
  unitArg,
} from "./_check.ts";

/** Options of {@link batchNorm}. */
export interface BatchNormOptions {
  /** The per-channel scale, `[C]`. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** The per-channel shift, `[C]`. Default none (0). */
  readonly bias?: ga.GPUArray | null;
  /** Use the batch's statistics (and update the running ones) rather than the running ones. Default false. */
  readonly training?: boolean;
  /** The weight of the batch in the running averages: `running = (1 - momentum)·running + momentum·batch`. Default 0.1. */
  readonly momentum?: number;
  /** Added to the variance. Default 1e-5. */
  readonly eps?: number;
}

/** Checks a running statistic: a float `[C]` array that no differentiation tracks (it is written in place). */
function runningArg(x: unknown, c: number, name: string): ga.GPUArray | undefined {
  const r = optionalFloat(x, "batchNorm", name);
  if (r === undefined) return undefined;
  expectShape(r, [c], "batchNorm", name);
  if (isTracked(r)) {
    throw new TypeError(
      `Cannot batchNorm: ${name} is being differentiated, but it is updated in place; keep the running statistics out of the arguments ga.grad differentiates (a Module keeps them as buffers)`,
    );
  }
  return r;
}

/**
 * Batch normalisation of an `[N, C, ...]` input (PyTorch's `batch_norm`): each channel standardised,
 * `(x - mean) / sqrt(var + eps)`, then scaled by `weight` and shifted by `bias`. While `training`, the
 * mean and (biased) variance are the batch's, over every axis but the channels, and `runningMean` and
 * `runningVar` (if given) move towards the batch's mean and unbiased variance by `momentum`, in place;
 * otherwise the running statistics are used (and must be given).
 *
 * @throws {TypeError} when not training without running statistics, or a running statistic is being
 *   differentiated.
 * @throws {RangeError} naming the shapes when the statistics, `weight` or `bias` are not `[C]`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([8, 3, 4, 4], { seed: 1 });
 * const mean = ga.zeros([3]), variance = ga.ones([3]);
 * const y = nn.batchNorm(x, mean, variance, { training: true, momentum: 0.1 }); // moves mean, variance
 * const z = nn.batchNorm(x, mean, variance); // evaluation: the running statistics
 * ```
 */
export function batchNorm(
  input: ga.GPUArray,
  runningMean: ga.GPUArray | null | undefined,
  runningVar: ga.GPUArray | null | undefined,
  opts?: BatchNormOptions,
): ga.GPUArray {
  const what = "batchNorm";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, "{ training: true, momentum: 0.1 }", [
    "weight",
    "bias",
    "training",
    "momentum",
    "eps",
  ]);
  if (x.ndim < 2) {
    throw new RangeError(`Cannot batchNorm an input of shape ${showShape(x.shape)}: it must be [N, C, ...]`);
  }
  const c = x.shape[1]!;
  const rm = runningArg(runningMean, c, "runningMean"), rv = runningArg(runningVar, c, "runningVar");
  const w = optionalFloat(o.weight, what, "weight"), b = optionalFloat(o.bias, what, "bias");
  if (w !== undefined) expectShape(w, [c], what, "weight");
  if (b !== undefined) expectShape(b, [c], what, "bias");
  const eps = positiveArg(o.eps ?? 1e-5, what, "eps");
  const momentum = unitArg(o.momentum ?? 0.1, what, "momentum");
  const training = o.training ?? false;
  const axes = x.shape.map((_, i) => i).filter((i) => i !== 1);
  let y: ga.GPUArray;
  if (training) {
    const count = x.size / c;
    if (count <= 1) {
      throw new RangeError(
        `Cannot batchNorm in training an input of shape ${
          showShape(x.shape)
        }: it needs more than one value per channel`,
      );
    }
    const mean = x.mean(axes, { keepdims: true });
    const centred = x.sub(mean);
    const variance = centred.mul(centred).mean(axes, { keepdims: true });
    y = centred.div(variance.add(eps).sqrt());
    if (rm !== undefined) {
      ga.assign(rm, rm.mul(1 - momentum).add(ga.stopGradient(mean).reshape([c]).mul(momentum)));
    }
    if (rv !== undefined) {
      const unbiased = ga.stopGradient(variance).reshape([c]).mul(count / (count - 1));
      ga.assign(rv, rv.mul(1 - momentum).add(unbiased.mul(momentum)));
    }
  } else {
    if (rm === undefined || rv === undefined) {
      throw new TypeError(
        "Cannot batchNorm in evaluation without runningMean and runningVar: pass them, or { training: true } to use the batch's statistics",
      );
    }
    y = x.sub(perChannel(rm, x.ndim)).div(perChannel(rv, x.ndim).add(eps).sqrt());
  }
  if (w !== undefined) y = y.mul(perChannel(w, x.ndim));
  return b === undefined ? y : y.add(perChannel(b, x.ndim));
}
