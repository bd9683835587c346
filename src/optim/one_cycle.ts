/**
 * The one-cycle learning-rate policy (PyTorch's `OneCycleLR`, after Smith and Topin's
 * "Super-Convergence"): up from `maxLr / divFactor` to `maxLr`, then down to a far smaller rate, with the
 * momentum (or Adam's β1) cycled the other way.
 *
 * @module
 */

import { checkNumber, type Optimizer } from "./optimizer.ts";
import { checkCount, LRScheduler } from "./lr_scheduler.ts";
import { checkOptions } from "../kernel/options.ts";

/** {@link OneCycleLR}'s options (PyTorch's, in camelCase). */
export interface OneCycleLROptions {
  /** The steps of the cycle; or give `epochs` and `stepsPerEpoch`. Default: `epochs × stepsPerEpoch`. */
  readonly totalSteps?: number;
  /** Epochs, with `stepsPerEpoch`, when `totalSteps` is not given. Default: none. */
  readonly epochs?: number;
  /** Steps per epoch, with `epochs`, when `totalSteps` is not given. Default: none. */
  readonly stepsPerEpoch?: number;
  /** The part of the cycle spent raising the rate. Default 0.3. */
  readonly pctStart?: number;
  /** How each phase goes from its start to its end: `"cos"` (default) or `"linear"`. */
  readonly annealStrategy?: "cos" | "linear";
  /** Cycle the momentum (SGD's and RMSprop's `momentum`, Adam's β1) against the rate. Default true. */
  readonly cycleMomentum?: boolean;
  /** The momentum at the peak rate. Default 0.85. */
  readonly baseMomentum?: number;
  /** The momentum at the start and the end. Default 0.95. */
  readonly maxMomentum?: number;
  /** The initial rate is `maxLr / divFactor`. Default 25. */
  readonly divFactor?: number;
  /** The final rate is the initial one divided by this. Default 1e4. */
  readonly finalDivFactor?: number;
  /** Three phases: up, down to the initial rate (symmetric), then down to the final rate. Default false. */
  readonly threePhase?: boolean;
}

const KNOWN = [
  "totalSteps",
  "epochs",
  "stepsPerEpoch",
  "pctStart",
  "annealStrategy",
  "cycleMomentum",
  "baseMomentum",
  "maxMomentum",
  "divFactor",
  "finalDivFactor",
  "threePhase",
];

type Point = "initial" | "max" | "min";
type Phase = {
  end: number;
  from: Point;
  to: Point;
  momentumFrom: "max" | "base";
  momentumTo: "max" | "base";
};

/** An optimizer with a momentum to cycle: SGD's and RMSprop's, or Adam's betas. */
type WithMomentum = Optimizer & { momentum?: number; betas?: [number, number] };

/**
 * The 1cycle policy (PyTorch's `OneCycleLR`), stepped once per batch: the rate rises from `maxLr /
 * divFactor` to `maxLr` over `pctStart` of the steps, then falls to the initial rate over
 * `finalDivFactor`, along a cosine (or linearly); the momentum goes from `maxMomentum` to
 * `baseMomentum` and back. Stepping past `totalSteps` is an error, as in PyTorch.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.SGD([ga.zeros([4])], { lr: 0.1, momentum: 0.9 });
 * const schedule = new optim.OneCycleLR(opt, 0.1, { totalSteps: 1000 });
 * console.log(opt.lr, opt.momentum); // 0.004 0.95
 * ```
 */
export class OneCycleLR extends LRScheduler {
  /** The steps of the cycle. */
  readonly totalSteps: number;
  /** The peak learning rate. */
  readonly maxLr: number;
  /** The final learning rate. */
  readonly minLr: number;
  /** The momentum at the peak rate. */
  readonly baseMomentum: number;
  /** The momentum at the start and the end. */
  readonly maxMomentum: number;
  /** Whether the momentum is cycled. */
  readonly cycleMomentum: boolean;
  /** How each phase goes from start to end. */
  readonly annealStrategy: "cos" | "linear";
  readonly #phases: readonly Phase[];

  /**
   * Sets the optimizer's rate (and momentum) for step 0.
   *
   * @param maxLr The peak learning rate.
   * @throws {RangeError} without `totalSteps` or `epochs` and `stepsPerEpoch`, for `pctStart` outside
   *   [0, 1], or when cycling the momentum of an optimizer that has none.
   */
  constructor(optimizer: Optimizer, maxLr: number, options?: OneCycleLROptions) {
    const what = "OneCycleLR";
    checkOptions(options, `make ${what}`, "{ totalSteps: 1000 }", KNOWN);
    const o = options ?? {};
    checkNumber(what, "maxLr", maxLr, (v) => v >= 0 && Number.isFinite(v), "a finite number ≥ 0");
    const divFactor = checkNumber(what, "divFactor", o.divFactor ?? 25, (v) => v > 0, "> 0");
    const finalDivFactor = checkNumber(what, "finalDivFactor", o.finalDivFactor ?? 1e4, (v) => v > 0, "> 0");
    // Set before the base class reads it (PyTorch's group["initial_lr"]).
    if (optimizer && typeof optimizer === "object") optimizer.initialLr = maxLr / divFactor;
    super(optimizer, what);
    let total: number;
    if (o.totalSteps !== undefined) total = checkCount(what, "totalSteps", o.totalSteps, 1);
    else if (o.epochs !== undefined && o.stepsPerEpoch !== undefined) {
      total = checkCount(what, "epochs", o.epochs, 1) * checkCount(what, "stepsPerEpoch", o.stepsPerEpoch, 1);
    } else {
      throw new RangeError(
        `Cannot make ${what} without its length: pass { totalSteps } or { epochs, stepsPerEpoch }`,
      );
    }
    this.totalSteps = total;
    const pct = checkNumber(what, "pctStart", o.pctStart ?? 0.3, (v) => v >= 0 && v <= 1, "in [0, 1]");
    const strategy = o.annealStrategy ?? "cos";
    if (strategy !== "cos" && strategy !== "linear") {
      throw new RangeError(
        `Cannot make ${what} with annealStrategy ${String(strategy)}: use "cos" or "linear"`,
      );
    }
    this.annealStrategy = strategy;
    this.#phases = o.threePhase === true
      ? [
        { end: pct * total - 1, from: "initial", to: "max", momentumFrom: "max", momentumTo: "base" },
        { end: 2 * pct * total - 2, from: "max", to: "initial", momentumFrom: "base", momentumTo: "max" },
        { end: total - 1, from: "initial", to: "min", momentumFrom: "max", momentumTo: "max" },
      ]
      : [
        { end: pct * total - 1, from: "initial", to: "max", momentumFrom: "max", momentumTo: "base" },
        { end: total - 1, from: "max", to: "min", momentumFrom: "base", momentumTo: "max" },
      ];
    this.maxLr = maxLr;
    this.minLr = this.baseLr / finalDivFactor;
    this.cycleMomentum = o.cycleMomentum ?? true;
    this.baseMomentum = checkNumber(
      what,
      "baseMomentum",
      o.baseMomentum ?? 0.85,
      Number.isFinite,
      "a finite number",
    );
    this.maxMomentum = checkNumber(
      what,
      "maxMomentum",
      o.maxMomentum ?? 0.95,
      Number.isFinite,
      "a finite number",
    );
    if (this.cycleMomentum) {
      const m = optimizer as WithMomentum;
      if (m.betas === undefined && m.momentum === undefined) {
        throw new RangeError(
          `Cannot make ${what} with cycleMomentum for an optimizer with no momentum or betas: pass { cycleMomentum: false }`,
        );
      }
      this.#setMomentum(this.maxMomentum);
    }
    this.initialStep();
  }

  #setMomentum(value: number): void {
    const m = this.optimizer as WithMomentum;
    if (m.betas !== undefined) m.betas = [value, m.betas[1]];
    else m.momentum = value;
  }

  #anneal(start: number, end: number, pct: number): number {
    return this.annealStrategy === "cos"
      ? end + (start - end) / 2 * (Math.cos(Math.PI * pct) + 1)
      : (end - start) * pct + start;
  }

  /** The rate (and momentum) of the phase this step is in. */
  protected getLr(): number {
    const step = this.lastEpoch;
    if (step > this.totalSteps) {
      throw new RangeError(
        `Cannot step OneCycleLR ${step} times: its totalSteps is ${this.totalSteps} (make it with more steps)`,
      );
    }
    const rate = { initial: this.baseLr, max: this.maxLr, min: this.minLr };
    const phases = this.#phases;
    let i = 0, start = 0;
    while (i < phases.length - 1 && step > phases[i]!.end) start = phases[i++]!.end;
    const phase = phases[i]!, pct = (step - start) / (phase.end - start);
    if (this.cycleMomentum) {
      const momentum = { max: this.maxMomentum, base: this.baseMomentum };
      this.#setMomentum(this.#anneal(momentum[phase.momentumFrom], momentum[phase.momentumTo], pct));
    }
    return this.#anneal(rate[phase.from], rate[phase.to], pct);
  }
}
