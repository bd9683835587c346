/**
 * The layer normalisation layer (PyTorch's `nn.LayerNorm`).
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { dtypeArg, options, positiveArg } from "./_check.ts";
import { layerNorm } from "./functional_norm.ts";
import { Module } from "./module.ts";

/** Options of {@link LayerNorm}. */
export interface LayerNormLayerOptions {
  /** Added to the variance. Default 1e-5. */
  readonly eps?: number;
  /** Learn a `weight` (ones) and a `bias` (zeros) of `normalizedShape`. Default true. */
  readonly elementwiseAffine?: boolean;
  /** With `elementwiseAffine`, whether to learn the bias too. Default true. */
  readonly bias?: boolean;
  /** The parameters' dtype. Default "float32". */
  readonly dtype?: ga.FloatDType;
}

/**
 * Layer normalisation over the trailing `normalizedShape` extents (PyTorch's `nn.LayerNorm`), with a
 * learnt `weight` (ones) and `bias` (zeros) of that shape.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const norm = new nn.LayerNorm(64);
 * const y = norm.forward(ga.random.normal([2, 10, 64], { seed: 1 }));
 * ```
 */
export class LayerNorm extends Module {
  /** The trailing extents normalised over. */
  readonly normalizedShape: readonly number[];
  /** Added to the variance. */
  readonly eps: number;
  /** The scale, of `normalizedShape`, or null. */
  weight: ga.GPUArray | null;
  /** The shift, of `normalizedShape`, or null. */
  bias: ga.GPUArray | null;

  /**
   * A layer normalising over `normalizedShape` (one extent or a list).
   *
   * @throws {RangeError} for a shape that is not positive integers, or an eps that is not above 0.
   */
  constructor(normalizedShape: number | readonly number[], opts?: LayerNormLayerOptions) {
    super();
    const what = "make a LayerNorm layer";
    const o = options(opts, what, "{ eps: 1e-6 }", ["eps", "elementwiseAffine", "bias", "dtype"]);
    const shape = typeof normalizedShape === "number" ? [normalizedShape] : [...normalizedShape];
    if (shape.length === 0 || shape.some((d) => !Number.isInteger(d) || d < 1)) {
      throw new RangeError(
        `Cannot ${what} with normalizedShape ${
          JSON.stringify(normalizedShape)
        }: give positive integer extents`,
      );
    }
    this.normalizedShape = shape;
    this.eps = positiveArg(o.eps ?? 1e-5, what, "eps");
    const dtype = dtypeArg(o.dtype, what);
    const affine = o.elementwiseAffine ?? true;
    this.weight = affine ? ga.ones(shape, dtype) : null;
    this.bias = affine && o.bias !== false ? ga.zeros(shape, dtype) : null;
  }

  /** `layerNorm(input, normalizedShape, { weight, bias, eps })`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return layerNorm(input, this.normalizedShape, { weight: this.weight, bias: this.bias, eps: this.eps });
  }
}
