/**
 * Dynamic loss scaling (PyTorch's `torch.amp.GradScaler`) for float16 training: the loss is multiplied
 * by a large scale before differentiation, so that small gradients do not underflow float16; the
 * gradients are divided by it before the optimizer's step, which is skipped when any of them is
 * infinite or NaN (the scale was too large); the scale halves after such a step and doubles after
 * `growthInterval` good ones in a row.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import type { Tree } from "../array/grad/api.ts";
import { checkOptions } from "../kernel/options.ts";
import type { Optimizer } from "./optimizer.ts";
import { arrayLeaves } from "./_params.ts";

/** Options of {@link GradScaler}, PyTorch's in camelCase. */
export interface GradScalerOptions {
  /** The first scale. Default 2¹⁶. */
  readonly initScale?: number;
  /** What the scale is multiplied by after `growthInterval` steps without an overflow. Default 2. */
  readonly growthFactor?: number;
  /** What the scale is multiplied by after a step with an overflow. Default 0.5. */
  readonly backoffFactor?: number;
  /** Steps without an overflow before the scale grows. Default 2000. */
  readonly growthInterval?: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (typeof v !== "number" || !(v > 0) || !Number.isFinite(v)) {
    throw new RangeError(`Cannot make a GradScaler with ${name} ${String(v)}: pass a finite number > 0`);
  }
  return v;
}

/**
 * A loss scale that adapts to overflows. Per step: differentiate `scaler.scale(loss)` instead of the
 * loss, call `scaler.step(optimizer, grads)` instead of `optimizer.step(grads)`, then `scaler.update()`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const params = { w: ga.ones([4]) }, x = ga.random.normal([4], { seed: 1 });
 * const opt = new optim.SGD(params, { lr: 0.1 });
 * const scaler = new optim.GradScaler();
 * const [, grads] = ga.valueAndGrad((p: typeof params) => scaler.scale(ga.sum(p.w.mul(x), 0)))(params);
 * scaler.step(opt, grads); // grads divided by the scale, then opt.step (skipped on inf or NaN)
 * scaler.update();
 * ```
 */
export class GradScaler {
  #scale: number;
  readonly #growth: number;
  readonly #backoff: number;
  readonly #interval: number;
  #goodSteps = 0;
  /** Whether this step's gradients overflowed: undefined until they are unscaled. */
  #overflow: boolean | undefined;

  /**
   * A scaler with PyTorch's defaults.
   *
   * @throws {RangeError} for a factor, scale or interval that is not a positive finite number (an
   *   integer for the interval), a growth factor of at most 1 or a backoff factor of at least 1.
   */
  constructor(options?: GradScalerOptions) {
    checkOptions(options, "make a GradScaler", "{ initScale: 65536 }", [
      "initScale",
      "growthFactor",
      "backoffFactor",
      "growthInterval",
    ]);
    this.#scale = positive(options?.initScale, 2 ** 16, "initScale");
    this.#growth = positive(options?.growthFactor, 2, "growthFactor");
    this.#backoff = positive(options?.backoffFactor, 0.5, "backoffFactor");
    this.#interval = positive(options?.growthInterval, 2000, "growthInterval");
    if (this.#growth <= 1 || this.#backoff >= 1 || !Number.isInteger(this.#interval)) {
      throw new RangeError(
        `Cannot make a GradScaler with growthFactor ${this.#growth}, backoffFactor ${this.#backoff} and growthInterval ${this.#interval}: the growth must be > 1, the backoff < 1, the interval an integer`,
      );
    }
  }

  /** The scale the next {@link scale} multiplies by. */
  getScale(): number {
    return this.#scale;
  }

  /** `loss` times the scale: differentiate this instead of the loss. */
  scale(loss: ga.GPUArray): ga.GPUArray {
    return loss.mul(this.#scale);
  }

  /**
   * Divides the gradients by the scale, in place, and notes whether any element is infinite or NaN
   * (one read of the device). {@link step} calls it where it was not called; call it first to clip
   * the true gradients (`optim.clipGradNorm`).
   *
   * @throws {TypeError} when called twice in one step (the gradients would be divided twice).
   */
  unscale(grads: Tree): void {
    if (this.#overflow !== undefined) {
      throw new TypeError(
        "Cannot unscale the gradients twice in one step: call scaler.update() after each step",
      );
    }
    const list = arrayLeaves(grads);
    let finite: ga.GPUArray | undefined;
    for (const g of list) {
      g.mul(1 / this.#scale, { out: g });
      const ok = ga.all(ga.isfinite(g).reshape([-1]), 0); // along an axis: a 0-d array, not a host read
      finite = finite === undefined ? ok : finite.logicalAnd(ok);
    }
    this.#overflow = finite !== undefined && !(finite.item() as boolean);
  }

  /**
   * Unscales `grads` (where {@link unscale} was not called this step) and runs `optimizer.step(grads)`
   * unless they overflowed. Returns whether the optimizer stepped.
   */
  step(optimizer: Optimizer, grads: Tree): boolean {
    if (this.#overflow === undefined) this.unscale(grads);
    if (this.#overflow) return false;
    optimizer.step(grads);
    return true;
  }

  /** Adjusts the scale after a step: down by the backoff after an overflow, up after enough good steps. */
  update(): void {
    if (this.#overflow === undefined) {
      throw new TypeError(
        "Cannot update a GradScaler before a step: call scaler.step(optimizer, grads) first",
      );
    }
    if (this.#overflow) {
      this.#scale *= this.#backoff;
      this.#goodSteps = 0;
    } else if (++this.#goodSteps === this.#interval) {
      this.#scale *= this.#growth;
      this.#goodSteps = 0;
    }
    this.#overflow = undefined;
  }
}
