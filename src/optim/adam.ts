/**
 * Adam and AdamW, by PyTorch's `torch.optim.Adam` and `torch.optim.AdamW` formulas and defaults,
 * with AMSGrad as an option; one kernel updates a parameter's value and both moments per element.
 *
 * @module
 */

import type { Tree } from "../array/grad/api.ts";
import type { ForeachUpdate } from "./_foreach.ts";
import { checkFlag, checkNumber, Optimizer, readOptions, type StepEntry } from "./optimizer.ts";

/** {@link Adam}'s and {@link AdamW}'s hyperparameters (PyTorch's, in camelCase). */
export interface AdamOptions {
  /** The learning rate. Default 1e-3. */
  readonly lr?: number;
  /** The decay rates of the first and second moment estimates. Default [0.9, 0.999]. */
  readonly betas?: readonly [number, number];
  /** Added to the denominator for numerical stability. Default 1e-8. */
  readonly eps?: number;
  /**
   * Weight decay: `weightDecay * param` added to the gradient (an L2 penalty), or with
   * `decoupledWeightDecay` the parameter multiplied by `1 - lr * weightDecay` before the step. Default 0
   * (1e-2 for AdamW).
   */
  readonly weightDecay?: number;
  /** The AMSGrad variant: divide by the largest second moment seen. Default false. */
  readonly amsgrad?: boolean;
  /** Maximize the objective instead of minimizing it. Default false. */
  readonly maximize?: boolean;
  /** Decouple the weight decay from the gradient, as AdamW does. Default false (true for AdamW). */
  readonly decoupledWeightDecay?: boolean;
}

const KNOWN = ["lr", "betas", "eps", "weightDecay", "amsgrad", "maximize", "decoupledWeightDecay"];

function adamUpdate(decoupled: boolean, decay: boolean, amsgrad: boolean, maximize: boolean) {
  const slots = [
    { name: "param", written: true },
    { name: "grad", written: false },
    { name: "expAvg", written: true },
    { name: "expAvgSq", written: true },
  ];
  if (amsgrad) slots.push({ name: "maxExpAvgSq", written: true });
  return {
    key: `adam:${[decoupled, decay, amsgrad, maximize].map(Number).join("")}`,
    name: decoupled ? "cudeno_adamw" : "cudeno_adam",
    slots,
    scalars: ["weightDecay", "decayFactor", "beta1Weight", "beta2", "eps", "stepSize", "bias2Sqrt"],
    body: (e) => {
      const s = (name: string) => e.scalar(name);
      const lines = [`${e.type} p = ${e.read("param")};`, `${e.type} g = ${e.read("grad")};`];
      if (maximize) lines.push("g = -g;");
      if (decay) lines.push(decoupled ? `p = p * ${s("decayFactor")};` : `g = g + ${s("weightDecay")} * p;`);
      // exp_avg.lerp_(grad, 1 - beta1), as ATen's lerp computes it.
      const w = s("beta1Weight");
      lines.push(
        `const ${e.type} m0 = ${e.read("expAvg")};`,
        `const ${e.type} m = ${w} < 0.5f ? m0 + ${w} * (g - m0) : g - (g - m0) * (1 - ${w});`,
        `const ${e.type} v = ${e.read("expAvgSq")} * ${s("beta2")} + (1 - ${s("beta2")}) * (g * g);`,
        e.write("expAvg", "m"),
        e.write("expAvgSq", "v"),
      );
      let top = "v";
      if (amsgrad) {
        // torch.maximum: NaN wins.
        lines.push(
          `const ${e.type} h0 = ${e.read("maxExpAvgSq")};`,
          `const ${e.type} h = (h0 > v || h0 != h0) ? h0 : v;`,
          e.write("maxExpAvgSq", "h"),
        );
        top = "h";
      }
      lines.push(
        `const ${e.type} denom = ${e.fn("sqrt")}(${top}) / ${s("bias2Sqrt")} + ${s("eps")};`,
        e.write("param", `p + (-${s("stepSize")}) * (m / denom)`),
      );
      return lines.join("\n");
    },
  } satisfies ForeachUpdate;
}

/**
 * Adam (PyTorch's `torch.optim.Adam`): with `g` the gradient plus `weightDecay * p`, `m = lerp(m, g,
 * 1 - β1)`, `v = β2 v + (1 - β2) g²`, and `p -= lr / (1 - β1^t) · m / (√v / √(1 - β2^t) + eps)` (with
 * the largest `v` so far under AMSGrad). Every parameter is updated in one launch per few dozen.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const params = { w: ga.zeros([3]), b: ga.zeros([]) };
 * const x = ga.random.normal([64, 3], { seed: 1 }), y = ga.matmul(x, ga.asarray([1, -2, 3])).add(0.5);
 * const loss = (p: typeof params) => ga.mean(ga.square(ga.matmul(x, p.w).add(p.b).sub(y)));
 * const opt = new optim.Adam(params, { lr: 0.05 });
 * for (let i = 0; i < 300; i++) opt.step(ga.grad(loss)(params));
 * console.log(params.w.get(), params.b.get()); // near [1, -2, 3] and 0.5
 * ```
 */
export class Adam extends Optimizer {
  /** The decay rates of the first and second moment estimates. */
  betas: [number, number];
  /** Added to the denominator. */
  eps: number;
  /** The weight decay (an L2 penalty, or decoupled with {@link decoupledWeightDecay}). */
  weightDecay: number;
  /** The AMSGrad variant. */
  amsgrad: boolean;
  /** Maximize instead of minimize. */
  maximize: boolean;
  /** Decoupled weight decay (AdamW's). */
  decoupledWeightDecay: boolean;

  /**
   * Makes the optimizer of the arrays of `params`.
   *
   * @param params The parameter tree (an array, or plain objects and lists of arrays).
   * @throws {RangeError} for a negative learning rate, eps or weight decay, or betas outside [0, 1).
   */
  constructor(params: Tree, options?: AdamOptions) {
    const name = new.target.name;
    const o = readOptions(options, name, KNOWN);
    super(params, (o.lr ?? 1e-3) as number, name);
    const decoupled = checkFlag(name, "decoupledWeightDecay", o.decoupledWeightDecay ?? false);
    this.decoupledWeightDecay = decoupled;
    const betas = o.betas ?? [0.9, 0.999];
    if (!Array.isArray(betas) || betas.length !== 2) {
      throw new TypeError(
        `Cannot make ${name} with betas ${String(betas)}: pass two numbers, [beta1, beta2]`,
      );
    }
    const unit = (v: number) => v >= 0 && v < 1;
    this.betas = [
      checkNumber(name, "betas[0]", betas[0], unit, "in [0, 1)"),
      checkNumber(name, "betas[1]", betas[1], unit, "in [0, 1)"),
    ];
    const finite = (v: number) => v >= 0 && Number.isFinite(v);
    this.eps = checkNumber(name, "eps", o.eps ?? 1e-8, finite, "a finite number ≥ 0");
    this.weightDecay = checkNumber(
      name,
      "weightDecay",
      o.weightDecay ?? 0,
      finite,
      "≥ 0",
    );
    this.amsgrad = checkFlag(name, "amsgrad", o.amsgrad ?? false);
    this.maximize = checkFlag(name, "maximize", o.maximize ?? false);
  }

  /** The hyperparameters' names. */
  protected get hyperparameterNames(): readonly string[] {
    return KNOWN;
  }

  /** Runs PyTorch's Adam (or AdamW) step on every entry, one launch group per step count. */
  protected update(entries: readonly StepEntry[]): void {
    const byStep = new Map<number, StepEntry[]>();
    for (const e of entries) {
      const s = e.state;
      if (s.step === undefined) {
        s.step = 0;
        s.expAvg = this.buffer(e.param);
        s.expAvgSq = this.buffer(e.param);
      }
      if (this.amsgrad) s.maxExpAvgSq ??= this.buffer(e.param);
      const list = byStep.get(s.step as number) ?? [];
      byStep.set(s.step as number, list);
      list.push(e);
    }
    const update = adamUpdate(this.decoupledWeightDecay, this.weightDecay !== 0, this.amsgrad, this.maximize);
    for (const list of byStep.values()) {
      const tensors = list.map((e) => {
        const s = e.state as Record<string, typeof e.param>;
        return [e.param, e.grad, s.expAvg!, s.expAvgSq!, ...(this.amsgrad ? [s.maxExpAvgSq!] : [])];
      });
      this.foreachStep(update, tensors, () => {
        for (const e of list) e.state.step = (e.state.step as number) + 1;
        const step = list[0]!.state.step as number, [beta1, beta2] = this.betas;
        const bias1 = 1 - beta1 ** step, bias2 = 1 - beta2 ** step;
        const values = [this.weightDecay, 1 - this.lr * this.weightDecay, 1 - beta1, beta2, this.eps];
        values.push(this.lr / bias1, Math.sqrt(bias2));
        return values;
      });
    }
  }
}

/**
 * AdamW (PyTorch's `torch.optim.AdamW`): Adam with decoupled weight decay, each step first
 * multiplying the parameter by `1 - lr * weightDecay` (default weight decay 1e-2); `Adam` with
 * `decoupledWeightDecay: true` and that default.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const params = [ga.ones([4, 4]), ga.zeros([4])];
 * const opt = new optim.AdamW(params, { lr: 1e-3, betas: [0.9, 0.95], weightDecay: 0.1 });
 * opt.step([ga.onesLike(params[0]!), ga.onesLike(params[1]!)]);
 * ```
 */
export class AdamW extends Adam {
  /**
   * Makes the optimizer of the arrays of `params`, with a weight decay of 1e-2 unless given.
   *
   * @param params The parameter tree (an array, or plain objects and lists of arrays).
   * @throws {RangeError} for a negative learning rate, eps or weight decay, or betas outside [0, 1).
   */
  constructor(params: Tree, options?: Omit<AdamOptions, "decoupledWeightDecay">) {
    const given = options === undefined ? {} : options;
    // Anything but an object is refused by Adam's options check, as given.
    const own = typeof given === "object" && given !== null && !Array.isArray(given)
      ? { ...given, weightDecay: given.weightDecay ?? 1e-2, decoupledWeightDecay: true }
      : given;
    super(params, own as AdamOptions);
  }
}
