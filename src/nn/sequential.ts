/**
 * A chain of layers (PyTorch's `nn.Sequential`).
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { Module } from "./module.ts";

/** A module from one array to one array, as `Sequential` chains them. */
export type Layer = Module<[ga.GPUArray], ga.GPUArray>;

/**
 * Modules applied one after another (PyTorch's `nn.Sequential`): the output of each is the input of
 * the next. They are its properties `0`, `1`, ..., so their parameters are named `0.weight`,
 * `1.bias`, ... in the state dict, as PyTorch names them.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const mlp = new nn.Sequential(new nn.Linear(784, 128), new nn.ReLU(), new nn.Linear(128, 10));
 * const logits = mlp.forward(ga.zeros([32, 784])); // [32, 10]
 * console.log(mlp.length, Object.keys(mlp.stateDict())); // 3, 0.weight, 0.bias, 2.weight, 2.bias
 * ```
 */
export class Sequential extends Module {
  /** The modules by position. */
  readonly [index: number]: Layer;
  /** How many modules. */
  readonly length: number;

  /**
   * A chain of `layers`, applied in order.
   *
   * @throws {TypeError} for an argument that is not a Module.
   */
  constructor(...layers: Layer[]) {
    super();
    layers.forEach((layer, i) => {
      if (!(layer instanceof Module)) {
        throw new TypeError(`Cannot make a Sequential: argument ${i} is not a Module`);
      }
      (this as unknown as Record<number, Layer>)[i] = layer;
    });
    this.length = layers.length;
  }

  /** Each module's `forward`, in order, on the previous one's output. */
  forward(input: ga.GPUArray): ga.GPUArray {
    let x = input;
    for (let i = 0; i < this.length; i++) x = this[i]!.forward(x);
    return x;
  }
}
