/**
 * RMSprop, by PyTorch's `torch.optim.RMSprop` formulas and defaults: centered or not, with momentum
 * or without.
 *
 * @module
 */

import type { Tree } from "../array/grad/api.ts";
import type { ForeachUpdate } from "./_foreach.ts";
import { checkFlag, checkNumber, Optimizer, readOptions, type StepEntry } from "./optimizer.ts";

/** {@link RMSprop}'s hyperparameters (PyTorch's, in camelCase). */
export interface RMSpropOptions {
  /** The learning rate. Default 1e-2. */
  readonly lr?: number;
  /** The smoothing constant of the squared-gradient average. Default 0.99. */
  readonly alpha?: number;
  /** Added to the denominator for numerical stability. Default 1e-8. */
  readonly eps?: number;
  /** L2 penalty added to the gradient. Default 0. */
  readonly weightDecay?: number;
  /** The momentum factor. Default 0 (none). */
  readonly momentum?: number;
  /** Centered RMSprop: divide by an estimate of the gradient's variance. Default false. */
  readonly centered?: boolean;
  /** Maximize the objective instead of minimizing it. Default false. */
  readonly maximize?: boolean;
}

const KNOWN = ["lr", "alpha", "eps", "weightDecay", "momentum", "centered", "maximize"];

function rmspropUpdate(centered: boolean, momentum: boolean, decay: boolean, maximize: boolean) {
  const slots = [
    { name: "param", written: true },
    { name: "grad", written: false },
    { name: "squareAvg", written: true },
  ];
  if (centered) slots.push({ name: "gradAvg", written: true });
  if (momentum) slots.push({ name: "buf", written: true });
  return {
    key: `rmsprop:${[centered, momentum, decay, maximize].map(Number).join("")}`,
    name: "cudeno_rmsprop",
    slots,
    scalars: ["lr", "alpha", "alphaWeight", "eps", "weightDecay", "momentum"],
    body: (e) => {
      const s = (name: string) => e.scalar(name);
      const lines = [`const ${e.type} p = ${e.read("param")};`, `${e.type} g = ${e.read("grad")};`];
      if (maximize) lines.push("g = -g;");
      if (decay) lines.push(`g = g + ${s("weightDecay")} * p;`);
      lines.push(
        `const ${e.type} sq = ${e.read("squareAvg")} * ${s("alpha")} + ${s("alphaWeight")} * (g * g);`,
        e.write("squareAvg", "sq"),
      );
      if (centered) {
        // grad_avg.lerp_(grad, 1 - alpha), as ATen's lerp computes it.
        const w = s("alphaWeight");
        lines.push(
          `const ${e.type} a0 = ${e.read("gradAvg")};`,
          `const ${e.type} a = ${w} < 0.5f ? a0 + ${w} * (g - a0) : g - (g - a0) * (1 - ${w});`,
          e.write("gradAvg", "a"),
          `const ${e.type} avg = ${e.fn("sqrt")}(sq + (-1) * (a * a)) + ${s("eps")};`,
        );
      } else {
        lines.push(`const ${e.type} avg = ${e.fn("sqrt")}(sq) + ${s("eps")};`);
      }
      if (momentum) {
        lines.push(
          `const ${e.type} b = ${e.read("buf")} * ${s("momentum")} + g / avg;`,
          e.write("buf", "b"),
          e.write("param", `p + (-${s("lr")}) * b`),
        );
      } else {
        lines.push(e.write("param", `p + (-${s("lr")}) * (g / avg)`));
      }
      return lines.join("\n");
    },
  } satisfies ForeachUpdate;
}

/**
 * RMSprop (PyTorch's `torch.optim.RMSprop`): with `g` the gradient plus `weightDecay * p`,
 * `sq = α sq + (1 - α) g²`, the denominator `√sq + eps` (centered: `√(sq - ḡ²) + eps` with `ḡ =
 * lerp(ḡ, g, 1 - α)`), and `p -= lr · g / denominator`, or through a momentum buffer `b = momentum · b
 * + g / denominator`, `p -= lr · b`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const params = { w: ga.ones([8]) };
 * const opt = new optim.RMSprop(params, { lr: 0.01, momentum: 0.9, centered: true });
 * opt.step(ga.grad((p: typeof params) => ga.sum(ga.square(p.w)))(params));
 * ```
 */
export class RMSprop extends Optimizer {
  /** The smoothing constant. */
  alpha: number;
  /** Added to the denominator. */
  eps: number;
  /** L2 penalty added to the gradient. */
  weightDecay: number;
  /** The momentum factor (0: none). */
  momentum: number;
  /** Centered RMSprop. */
  centered: boolean;
  /** Maximize instead of minimize. */
  maximize: boolean;

  /**
   * Makes the optimizer of the arrays of `params`.
   *
   * @param params The parameter tree (an array, or plain objects and lists of arrays).
   * @throws {RangeError} for a negative learning rate, alpha, eps, weight decay or momentum.
   */
  constructor(params: Tree, options?: RMSpropOptions) {
    const o = readOptions(options, "RMSprop", KNOWN);
    super(params, (o.lr ?? 1e-2) as number, "RMSprop");
    const finite = (v: number) => v >= 0 && Number.isFinite(v);
    const range = "a finite number ≥ 0";
    this.alpha = checkNumber("RMSprop", "alpha", o.alpha ?? 0.99, finite, range);
    this.eps = checkNumber("RMSprop", "eps", o.eps ?? 1e-8, finite, range);
    this.weightDecay = checkNumber("RMSprop", "weightDecay", o.weightDecay ?? 0, finite, range);
    this.momentum = checkNumber("RMSprop", "momentum", o.momentum ?? 0, finite, range);
    this.centered = checkFlag("RMSprop", "centered", o.centered ?? false);
    this.maximize = checkFlag("RMSprop", "maximize", o.maximize ?? false);
  }

  /** The hyperparameters' names. */
  protected get hyperparameterNames(): readonly string[] {
    return KNOWN;
  }

  /** Runs PyTorch's RMSprop step on every entry. */
  protected update(entries: readonly StepEntry[]): void {
    const momentum = this.momentum > 0;
    for (const e of entries) {
      const s = e.state;
      if (s.step === undefined) {
        s.step = 0;
        s.squareAvg = this.buffer(e.param);
      }
      if (momentum) s.momentumBuffer ??= this.buffer(e.param);
      if (this.centered) s.gradAvg ??= this.buffer(e.param);
    }
    const update = rmspropUpdate(this.centered, momentum, this.weightDecay !== 0, this.maximize);
    this.foreachStep(
      update,
      entries.map((e) => {
        const s = e.state as Record<string, typeof e.param>;
        return [
          e.param,
          e.grad,
          s.squareAvg!,
          ...(this.centered ? [s.gradAvg!] : []),
          ...(momentum ? [s.momentumBuffer!] : []),
        ];
      }),
      () => {
        for (const e of entries) e.state.step = (e.state.step as number) + 1;
        return [this.lr, this.alpha, 1 - this.alpha, this.eps, this.weightDecay, this.momentum];
      },
    );
  }
}
