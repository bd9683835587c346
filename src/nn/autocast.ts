/**
 * Mixed precision (PyTorch's `torch.autocast`): inside `nn.autocast(dtype, fn)`, the products of `nn`
 * (`linear`, the convolutions, attention's two products) run in `dtype` (bfloat16 or float16) on
 * operands cast to it, while the normalisations, softmax and the losses compute in float32 from
 * operands cast up. Parameters stay as they are (float32 "master" weights): the casts are array
 * operations whose gradient is the cast back, so each parameter's gradient comes in its own dtype.
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { activeBackend } from "../device/active.ts";

/** The lower precisions autocast runs products in. */
export type AutocastDType = "bfloat16" | "float16";

let current: AutocastDType | undefined;

/**
 * Runs `fn` with `nn`'s products in `dtype` and its reductions in float32 (PyTorch's
 * `with torch.autocast("cuda", dtype=torch.bfloat16):`), then restores the previous setting, also when
 * `fn` throws. `fn` is synchronous: the setting belongs to the call, not to work that resumes later.
 * Float16 gradients can underflow: train with {@link GradScaler} then.
 *
 * @throws {TypeError} for a dtype other than bfloat16 or float16, one the default backend cannot
 *   compute in (PoCL has neither), or an `fn` that returns a promise.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const layer = new nn.Linear(64, 64), x = ga.random.normal([8, 64], { seed: 1 });
 * if (ga.zeros(1).backend.supports("bfloat16")) {
 *   const y = nn.autocast("bfloat16", () => layer.forward(x)); // a bfloat16 product of float32 weights
 * }
 * ```
 */
export function autocast<T>(dtype: AutocastDType, fn: () => T): T {
  if (dtype !== "bfloat16" && dtype !== "float16") {
    throw new TypeError(`Cannot autocast to ${String(dtype)}: use "bfloat16" or "float16"`);
  }
  const backend = activeBackend();
  if (!backend.supports(dtype)) {
    throw new TypeError(
      `Cannot autocast to ${dtype} on ${backend.device}: the device does not compute in ${dtype}; train in float32 there`,
    );
  }
  const saved = current;
  current = dtype;
  try {
    const result = fn();
    if (result instanceof Promise) {
      throw new TypeError(
        "Cannot autocast an async function: the setting would leak into other work while it waits; autocast the synchronous part (the forward pass and the loss)",
      );
    }
    return result;
  } finally {
    current = saved;
  }
}

/** The dtype products run in now (inside {@link autocast}), or undefined. */
export function autocastDType(): AutocastDType | undefined {
  return current;
}

/** `x` as a product's operand: in the autocast dtype where autocast runs and `x` is a wider float. */
export function forProduct(x: ga.GPUArray): ga.GPUArray;
/** `x` as a product's operand, where given. */
export function forProduct(x: ga.GPUArray | undefined): ga.GPUArray | undefined;
export function forProduct(x: ga.GPUArray | undefined): ga.GPUArray | undefined {
  if (current === undefined || x === undefined || x.dtype === current) return x;
  return x.dtype === "float32" || x.dtype === "float64" ? x.astype(current) : x;
}

/** `x` for a reduction (a norm, softmax, a loss): in float32 where it is a narrower float and autocast runs. */
export function forReduction(x: ga.GPUArray): ga.GPUArray {
  if (current === undefined) return x;
  return x.dtype === "bfloat16" || x.dtype === "float16" ? x.astype("float32") : x;
}
