/**
 * Activation layers (PyTorch's `nn.ReLU`, `nn.GELU`): modules without parameters around the functions.
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { gelu, type GeluOptions, relu } from "./functional_activation.ts";
import { options } from "./_check.ts";
import { Module } from "./module.ts";

/**
 * `relu` as a layer (PyTorch's `nn.ReLU`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.ReLU().forward(ga.asarray([-1, 2])); // [0, 2]
 * ```
 */
export class ReLU extends Module {
  /** `relu(input)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return relu(input);
  }
}

/**
 * `gelu` as a layer (PyTorch's `nn.GELU`): exact, or `{ approximate: "tanh" }`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = new nn.GELU({ approximate: "tanh" }).forward(ga.asarray([-1, 2]));
 * ```
 */
export class GELU extends Module {
  /** The options handed to `gelu`. */
  readonly options: GeluOptions;

  /**
   * A GELU layer; `approximate` as {@link gelu}'s.
   *
   * @throws {TypeError} for an `approximate` other than "none" and "tanh".
   */
  constructor(opts?: GeluOptions) {
    super();
    const o = options(opts, "make a GELU layer", '{ approximate: "tanh" }', ["approximate"]);
    const approximate = o.approximate ?? "none";
    if (approximate !== "none" && approximate !== "tanh") {
      throw new TypeError(
        `Cannot make a GELU layer with approximate ${JSON.stringify(approximate)}: use "none" or "tanh"`,
      );
    }
    this.options = { approximate };
  }

  /** `gelu(input, options)`. */
  forward(input: ga.GPUArray): ga.GPUArray {
    return gelu(input, this.options);
  }
}
