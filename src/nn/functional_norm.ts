/**
 * Normalisations over each sample's features (PyTorch's `layer_norm`, `rms_norm`, `group_norm`):
 * statistics of the input itself, no running state. Each is array operations (means along axes,
 * elementwise work), so it differentiates with `ga.grad`.
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { forReduction } from "./autocast.ts";
import {
  expectShape,
  floatArg,
  optionalFloat,
  options,
  perChannel,
  positiveArg,
  showShape,
} from "./_check.ts";

/** Options of {@link layerNorm}. */
export interface LayerNormOptions {
  /** The scale, of shape `normalizedShape`. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** The shift, of shape `normalizedShape`. Default none (0). */
  readonly bias?: ga.GPUArray | null;
  /** Added to the variance before the square root. Default 1e-5. */
  readonly eps?: number;
}

/** Options of {@link rmsNorm}. */
export interface RmsNormOptions {
  /** The scale, of shape `normalizedShape`. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** Added to the mean square. Default: the machine epsilon of the input's dtype, as PyTorch's. */
  readonly eps?: number;
}

/** Options of {@link groupNorm}. */
export interface GroupNormOptions {
  /** The per-channel scale, of shape `[C]`. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** The per-channel shift, of shape `[C]`. Default none (0). */
  readonly bias?: ga.GPUArray | null;
  /** Added to the variance. Default 1e-5. */
  readonly eps?: number;
}

/** The machine epsilon of each float dtype (`torch.finfo(dtype).eps`). */
const EPSILON: Record<ga.FloatDType, number> = {
  float16: 2 ** -10,
  bfloat16: 2 ** -7,
  float32: 2 ** -23,
  float64: 2 ** -52,
};

/** The trailing axes `normalizedShape` names in `x`, after checking that `x` ends with it. */
function trailingAxes(x: ga.GPUArray, normalizedShape: number | readonly number[], what: string): number[] {
  const shape = typeof normalizedShape === "number" ? [normalizedShape] : normalizedShape;
  if (!Array.isArray(shape) || shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 1)) {
    throw new RangeError(
      `Cannot ${what} with normalizedShape ${
        JSON.stringify(normalizedShape)
      }: give the trailing extents to normalise over, such as 64 or [8, 8]`,
    );
  }
  const k = shape.length, lead = x.ndim - k;
  if (lead < 0 || shape.some((d, i) => x.shape[lead + i] !== d)) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} over normalizedShape ${
        showShape(shape)
      }: the input's last ${k} extent(s) must be ${showShape(shape)}`,
    );
  }
  return shape.map((_, i) => lead + i);
}

/** `(x - mean) / sqrt(var + eps)` over `axes` (the biased variance, as every normalisation uses). */
export function standardize(x: ga.GPUArray, axes: readonly number[], eps: number): ga.GPUArray {
  const centred = x.sub(x.mean([...axes], { keepdims: true }));
  const variance = centred.mul(centred).mean([...axes], { keepdims: true });
  return centred.div(variance.add(eps).sqrt());
}

/**
 * Layer normalisation (PyTorch's `layer_norm`): each sample standardised over its trailing
 * `normalizedShape` extents, `(x - mean) / sqrt(var + eps)`, then scaled by `weight` and shifted by
 * `bias` (both of shape `normalizedShape`).
 *
 * @throws {RangeError} naming the shapes when the input does not end with `normalizedShape` or
 *   `weight`/`bias` are not of that shape.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([2, 5, 8], { seed: 1 });
 * const y = nn.layerNorm(x, [8], { weight: ga.ones([8]), bias: ga.zeros([8]) });
 * ```
 */
export function layerNorm(
  input: ga.GPUArray,
  normalizedShape: number | readonly number[],
  opts?: LayerNormOptions,
): ga.GPUArray {
  const what = "layerNorm";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, "{ weight, bias, eps: 1e-5 }", ["weight", "bias", "eps"]);
  const axes = trailingAxes(x, normalizedShape, what);
  const shape = axes.map((a) => x.shape[a]!);
  const w = optionalFloat(o.weight, what, "weight"), b = optionalFloat(o.bias, what, "bias");
  if (w !== undefined) expectShape(w, shape, what, "weight");
  if (b !== undefined) expectShape(b, shape, what, "bias");
  let y = standardize(x, axes, positiveArg(o.eps ?? 1e-5, what, "eps"));
  if (w !== undefined) y = y.mul(w);
  return b === undefined ? y : y.add(b);
}

/**
 * Root-mean-square normalisation (PyTorch's `rms_norm`): `x / sqrt(mean(x²) + eps)` over the trailing
 * `normalizedShape` extents, times `weight`.
 *
 * @throws {RangeError} naming the shapes when the input does not end with `normalizedShape` or
 *   `weight` is not of that shape.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([4, 16], { seed: 1 });
 * const y = nn.rmsNorm(x, 16, { weight: ga.ones([16]), eps: 1e-6 });
 * ```
 */
export function rmsNorm(
  input: ga.GPUArray,
  normalizedShape: number | readonly number[],
  opts?: RmsNormOptions,
): ga.GPUArray {
  const what = "rmsNorm";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, "{ weight, eps: 1e-6 }", ["weight", "eps"]);
  const axes = trailingAxes(x, normalizedShape, what);
  const w = optionalFloat(o.weight, what, "weight");
  if (w !== undefined) expectShape(w, axes.map((a) => x.shape[a]!), what, "weight");
  const eps = positiveArg(o.eps ?? EPSILON[x.dtype as ga.FloatDType], what, "eps");
  const y = x.div(x.mul(x).mean(axes, { keepdims: true }).add(eps).sqrt());
  return w === undefined ? y : y.mul(w);
}

/**
 * Group normalisation (PyTorch's `group_norm`): the `C` channels of an `[N, C, ...]` input split into
 * `numGroups` groups, each sample's group standardised over its channels and positions, then a
 * per-channel `weight` and `bias` (`[C]`).
 *
 * @throws {RangeError} when `C` is not a multiple of `numGroups`, or `weight`/`bias` are not `[C]`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([2, 6, 4, 4], { seed: 1 });
 * const y = nn.groupNorm(x, 3, { weight: ga.ones([6]), bias: ga.zeros([6]) });
 * ```
 */
export function groupNorm(input: ga.GPUArray, numGroups: number, opts?: GroupNormOptions): ga.GPUArray {
  const what = "groupNorm";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, "{ weight, bias, eps: 1e-5 }", ["weight", "bias", "eps"]);
  if (x.ndim < 2) {
    throw new RangeError(`Cannot groupNorm an input of shape ${showShape(x.shape)}: it must be [N, C, ...]`);
  }
  const [n, c] = x.shape as [number, number];
  if (!Number.isInteger(numGroups) || numGroups < 1 || c % numGroups !== 0) {
    throw new RangeError(
      `Cannot groupNorm an input of ${c} channels (shape ${
        showShape(x.shape)
      }) into numGroups ${numGroups}: the channels must split evenly into the groups`,
    );
  }
  const w = optionalFloat(o.weight, what, "weight"), b = optionalFloat(o.bias, what, "bias");
  if (w !== undefined) expectShape(w, [c], what, "weight");
  if (b !== undefined) expectShape(b, [c], what, "bias");
  const grouped = x.reshape([n, numGroups, -1]);
  let y = standardize(grouped, [2], positiveArg(o.eps ?? 1e-5, what, "eps")).reshape([...x.shape]);
  if (w !== undefined) y = y.mul(perChannel(w, x.ndim));
  return b === undefined ? y : y.add(perChannel(b, x.ndim));
}
