/**
 * Layers without parameters that a PyTorch user puts in a `Sequential` beside the ones with:
 * `nn.MaxPool2d`, `nn.AvgPool2d`, `nn.AdaptiveAvgPool2d`, `nn.Flatten`, `nn.SiLU`, `nn.Sigmoid`,
 * `nn.Tanh` and `nn.Identity`, each its function as a module.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import {
  adaptiveAvgPool2d,
  avgPool2d,
  type AvgPool2dOptions,
  maxPool2d,
  type MaxPool2dOptions,
} from "./functional_pool.ts";
import { sigmoid, silu } from "./functional_activation.ts";
import { showShape } from "./_check.ts";
import { Module } from "./module.ts";

/**
 * `maxPool2d` as a layer (PyTorch's `nn.MaxPool2d`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.MaxPool2d(2).forward(ga.zeros([1, 3, 8, 8])); // [1, 3, 4, 4]
 * ```
 */
export class MaxPool2d extends Module {
  /** The window, and the options handed to `maxPool2d` (stride defaults to the window). */
  constructor(readonly kernelSize: number | readonly number[], readonly options?: MaxPool2dOptions) {
    super();
  }

  /** `maxPool2d(input, kernelSize, options)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return maxPool2d(input, this.kernelSize, this.options);
  }
}

/**
 * `avgPool2d` as a layer (PyTorch's `nn.AvgPool2d`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.AvgPool2d(2).forward(ga.ones([1, 3, 8, 8])); // [1, 3, 4, 4] of ones
 * ```
 */
export class AvgPool2d extends Module {
  /** The window, and the options handed to `avgPool2d` (stride defaults to the window). */
  constructor(readonly kernelSize: number | readonly number[], readonly options?: AvgPool2dOptions) {
    super();
  }

  /** `avgPool2d(input, kernelSize, options)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return avgPool2d(input, this.kernelSize, this.options);
  }
}

/**
 * `adaptiveAvgPool2d` as a layer (PyTorch's `nn.AdaptiveAvgPool2d`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.AdaptiveAvgPool2d(1).forward(ga.ones([2, 8, 5, 7])); // [2, 8, 1, 1]
 * ```
 */
export class AdaptiveAvgPool2d extends Module {
  /** The output's extents (one number for both). */
  constructor(readonly outputSize: number | readonly number[]) {
    super();
  }

  /** `adaptiveAvgPool2d(input, outputSize)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return adaptiveAvgPool2d(input, this.outputSize);
  }
}

/**
 * Axes `startDim` to `endDim` made one (PyTorch's `nn.Flatten`, by default every axis after the first):
 * what goes between the convolutions and the linear layers of a classifier.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.Flatten().forward(ga.zeros([4, 3, 2, 2])); // [4, 12]
 * ```
 */
export class Flatten extends Module {
  /**
   * Flattens axes `startDim` (default 1) to `endDim` (default -1, the last) of each input.
   *
   * @throws {RangeError} for dimensions that are not integers.
   */
  constructor(readonly startDim: number = 1, readonly endDim: number = -1) {
    super();
    if (!Number.isInteger(startDim) || !Number.isInteger(endDim)) {
      throw new RangeError(`Cannot make a Flatten layer of dims ${startDim} to ${endDim}: pass integers`);
    }
  }

  /**
   * `input` with the axes from `startDim` to `endDim` made one (a view where the strides allow).
   *
   * @throws {RangeError} naming the shape and the dims when they are out of its range or reversed.
   */
  forward(input: ga.GPUArray): ga.GPUArray {
    const n = Math.max(input.ndim, 1);
    const [a, b] = [this.startDim, this.endDim].map((d) => (d < 0 ? d + n : d)) as [number, number];
    if (a < 0 || b >= n || a > b) {
      throw new RangeError(
        `Cannot flatten dims ${this.startDim} to ${this.endDim} of an input of shape ${
          showShape(input.shape)
        }: they must lie in -${n}..${n - 1}, the start not after the end`,
      );
    }
    const s = input.shape;
    return input.reshape([...s.slice(0, a), s.slice(a, b + 1).reduce((p, d) => p * d, 1), ...s.slice(b + 1)]);
  }
}

/**
 * `silu` as a layer (PyTorch's `nn.SiLU`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.SiLU().forward(ga.asarray([-1, 0, 2]));
 * ```
 */
export class SiLU extends Module {
  /** `silu(input)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return silu(input);
  }
}

/**
 * `sigmoid` as a layer (PyTorch's `nn.Sigmoid`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.Sigmoid().forward(ga.asarray([-1, 0, 2]));
 * ```
 */
export class Sigmoid extends Module {
  /** `sigmoid(input)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return sigmoid(input);
  }
}

/**
 * `tanh` as a layer (PyTorch's `nn.Tanh`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.Tanh().forward(ga.asarray([-1, 0, 2]));
 * ```
 */
export class Tanh extends Module {
  /** `ga.tanh(input)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return ga.tanh(input);
  }
}

/**
 * The input as it is (PyTorch's `nn.Identity`): a placeholder layer.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.ones([2]);
 * console.log(new nn.Identity().forward(x) === x); // true
 * ```
 */
export class Identity extends Module {
  /** `input` itself. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return input;
  }
}
