/**
 * Activation functions (PyTorch's `torch.nn.functional` names in camelCase): `relu`, `gelu`, `silu`,
 * `sigmoid`, `softplus`. Each is a composition of array operations, so it runs on every backend and
 * differentiates with `ga.grad`; each is written so that neither its value nor its gradient overflows
 * for large inputs.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { floatArg, options, positiveArg } from "./_check.ts";

/**
 * `max(x, 0)` elementwise (PyTorch's `relu`); its gradient is 1 where `x > 0`, else 0 (0 at 0, as
 * PyTorch's).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = nn.relu(ga.asarray([-1, 0, 2])); // [0, 0, 2]
 * ```
 */
export function relu(input: ga.GPUArray): ga.GPUArray {
  const x = floatArg(input, "relu", "input");
  return ga.where(x.gt(0), x, 0);
}

/** Options of {@link gelu}. */
export interface GeluOptions {
  /** `"none"` (default): the exact `x·Φ(x)` through `erf`; `"tanh"`: the tanh approximation. */
  readonly approximate?: "none" | "tanh";
}

/**
 * The Gaussian error linear unit (PyTorch's `gelu`): `x·Φ(x) = x/2·(1 + erf(x/√2))`, or with
 * `{ approximate: "tanh" }` `x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
 *
 * @throws {TypeError} for an `approximate` other than "none" and "tanh".
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.linspace(-3, 3, 7);
 * const exact = nn.gelu(x), fast = nn.gelu(x, { approximate: "tanh" });
 * ```
 */
export function gelu(input: ga.GPUArray, opts?: GeluOptions): ga.GPUArray {
  const x = floatArg(input, "gelu", "input");
  const o = options(opts, "gelu", '{ approximate: "tanh" }', ["approximate"]);
  const approximate = o.approximate ?? "none";
  if (approximate === "none") return x.mul(0.5).mul(x.mul(Math.SQRT1_2).erf().add(1));
  if (approximate === "tanh") {
    const inner = x.add(x.mul(x).mul(x).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
    return x.mul(0.5).mul(inner.tanh().add(1));
  }
  throw new TypeError(`Cannot gelu with approximate ${JSON.stringify(approximate)}: use "none" or "tanh"`);
}

/**
 * The logistic function `1 / (1 + exp(-x))` (PyTorch's `sigmoid`), computed as
 * `exp(-logaddexp(0, -x))`, so that neither it nor its gradient overflows and tiny values keep their
 * relative precision.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const p = nn.sigmoid(ga.asarray([-100, 0, 100])); // [0, 0.5, 1]
 * ```
 */
export function sigmoid(input: ga.GPUArray): ga.GPUArray {
  const x = floatArg(input, "sigmoid", "input");
  return ga.logaddexp(x.neg(), 0).neg().exp();
}

/**
 * The sigmoid linear unit, or swish (PyTorch's `silu`): `x·sigmoid(x)`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = nn.silu(ga.asarray([-1, 0, 1]));
 * ```
 */
export function silu(input: ga.GPUArray): ga.GPUArray {
  const x = floatArg(input, "silu", "input");
  return x.mul(sigmoid(x));
}

/** Options of {@link softplus}. */
export interface SoftplusOptions {
  /** The sharpness: `log(1 + exp(beta·x)) / beta`. Default 1. */
  readonly beta?: number;
  /** Where `beta·x` exceeds it, the result is `x` itself (PyTorch's linear region). Default 20. */
  readonly threshold?: number;
}

/**
 * `log(1 + exp(beta·x)) / beta` elementwise (PyTorch's `softplus`), and `x` itself where
 * `beta·x > threshold`; computed as `logaddexp(0, beta·x) / beta`, which does not overflow.
 *
 * @throws {RangeError} for a `beta` that is not a finite number above 0, or a `threshold` that is not a number.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const y = nn.softplus(ga.asarray([-5, 0, 5]), { beta: 2, threshold: 20 });
 * ```
 */
export function softplus(input: ga.GPUArray, opts?: SoftplusOptions): ga.GPUArray {
  const x = floatArg(input, "softplus", "input");
  const o = options(opts, "softplus", "{ beta: 2, threshold: 20 }", ["beta", "threshold"]);
  const beta = positiveArg(o.beta ?? 1, "softplus", "beta");
  const threshold = o.threshold ?? 20;
  if (typeof threshold !== "number" || Number.isNaN(threshold)) {
    throw new RangeError(`Cannot softplus with threshold ${String(threshold)}: pass a number`);
  }
  const bx = beta === 1 ? x : x.mul(beta);
  const smooth = ga.logaddexp(bx, 0);
  const y = beta === 1 ? smooth : smooth.div(beta);
  return ga.where(bx.gt(threshold), x, y);
}
