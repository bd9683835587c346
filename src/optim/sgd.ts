/**
 * Stochastic gradient descent with momentum, dampening, Nesterov momentum and weight decay, by
 * PyTorch's `torch.optim.SGD` formulas and defaults.
 *
 * @module
 */

import type { Tree } from "../array/grad/api.ts";
import type { ForeachUpdate } from "./_foreach.ts";
import { checkFlag, checkNumber, Optimizer, readOptions, type StepEntry } from "./optimizer.ts";

/** {@link SGD}'s hyperparameters (PyTorch's, in camelCase). */
export interface SGDOptions {
  /** The learning rate. Default 1e-3. */
  readonly lr?: number;
  /** The momentum factor. Default 0 (none). */
  readonly momentum?: number;
  /** Dampening of the momentum. Default 0. */
  readonly dampening?: number;
  /** L2 penalty added to the gradient (`grad + weightDecay * param`). Default 0. */
  readonly weightDecay?: number;
  /** Nesterov momentum (needs a momentum and no dampening). Default false. */
  readonly nesterov?: boolean;
  /** Maximize the objective instead of minimizing it. Default false. */
  readonly maximize?: boolean;
}

const KNOWN = ["lr", "momentum", "dampening", "weightDecay", "nesterov", "maximize"];

function sgdUpdate(momentum: boolean, first: boolean, nesterov: boolean, decay: boolean, maximize: boolean) {
  const slots = [{ name: "param", written: true }, { name: "grad", written: false }];
  if (momentum) slots.push({ name: "buf", written: true });
  return {
    key: `sgd:${[momentum, first, nesterov, decay, maximize].map(Number).join("")}`,
    name: "cudeno_sgd",
    slots,
    scalars: ["lr", "weightDecay", "momentum", "dampening"],
    body: (e) => {
      const lines = [`const ${e.type} p = ${e.read("param")};`, `${e.type} g = ${e.read("grad")};`];
      if (maximize) lines.push("g = -g;");
      if (decay) lines.push(`g = g + ${e.scalar("weightDecay")} * p;`);
      if (momentum) {
        lines.push(
          first
            ? `const ${e.type} b = g;`
            : `const ${e.type} b = ${e.read("buf")} * ${e.scalar("momentum")} + (1 - ${
              e.scalar("dampening")
            }) * g;`,
          e.write("buf", "b"),
          nesterov ? `g = g + ${e.scalar("momentum")} * b;` : "g = b;",
        );
      }
      lines.push(e.write("param", `p + (-${e.scalar("lr")}) * g`));
      return lines.join("\n");
    },
  } satisfies ForeachUpdate;
}

/**
 * Stochastic gradient descent (PyTorch's `torch.optim.SGD`): with `g` the gradient (plus
 * `weightDecay * p`), the momentum buffer is `g` at the first step and `momentum * buf + (1 -
 * dampening) * g` after; the step is `p -= lr * g`, with `g` the buffer, or `g + momentum * buf` for
 * Nesterov momentum. Every parameter is updated in one kernel launch per few dozen parameters.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const params = { w: ga.ones([3]), b: ga.zeros([]) };
 * const opt = new optim.SGD(params, { lr: 0.1, momentum: 0.9, nesterov: true });
 * const loss = (p: typeof params) => ga.sum(ga.square(p.w.add(p.b)));
 * for (let i = 0; i < 10; i++) opt.step(ga.grad(loss)(params));
 * console.log(params.w.get()); // the same arrays, updated
 * ```
 */
export class SGD extends Optimizer {
  /** The momentum factor (0: none). */
  momentum: number;
  /** Dampening of the momentum. */
  dampening: number;
  /** L2 penalty added to the gradient. */
  weightDecay: number;
  /** Nesterov momentum. */
  nesterov: boolean;
  /** Maximize instead of minimize. */
  maximize: boolean;

  /**
   * Makes the optimizer of the arrays of `params`.
   *
   * @param params The parameter tree (an array, or plain objects and lists of arrays).
   * @throws {RangeError} for a negative learning rate, momentum or weight decay, or Nesterov momentum
   *   without momentum or with dampening.
   */
  constructor(params: Tree, options?: SGDOptions) {
    const o = readOptions(options, "SGD", KNOWN);
    super(params, (o.lr ?? 1e-3) as number, "SGD");
    const finite = (v: number) => v >= 0 && Number.isFinite(v);
    this.momentum = checkNumber("SGD", "momentum", o.momentum ?? 0, finite, "a finite number ≥ 0");
    this.dampening = checkNumber("SGD", "dampening", o.dampening ?? 0, Number.isFinite, "a finite number");
    this.weightDecay = checkNumber("SGD", "weightDecay", o.weightDecay ?? 0, finite, "a finite number ≥ 0");
    this.nesterov = checkFlag("SGD", "nesterov", o.nesterov ?? false);
    this.maximize = checkFlag("SGD", "maximize", o.maximize ?? false);
    if (this.nesterov && (this.momentum <= 0 || this.dampening !== 0)) {
      throw new RangeError(
        `Cannot make SGD with nesterov and momentum ${this.momentum}, dampening ${this.dampening}: Nesterov momentum needs a momentum > 0 and dampening 0`,
      );
    }
  }

  /** The hyperparameters' names. */
  protected get hyperparameterNames(): readonly string[] {
    return ["lr", ...KNOWN.slice(1)];
  }

  /** Runs PyTorch's SGD step on every entry. */
  protected update(entries: readonly StepEntry[]): void {
    const values = () => [this.lr, this.weightDecay, this.momentum, this.dampening];
    const decay = this.weightDecay !== 0;
    if (this.momentum === 0) {
      const update = sgdUpdate(false, false, false, decay, this.maximize);
      this.foreachStep(update, entries.map((e) => [e.param, e.grad]), values);
      return;
    }
    // A parameter's first step with momentum sets its buffer to the gradient (PyTorch clones it).
    const fresh = entries.filter((e) => e.state.momentumBuffer === undefined);
    const held = entries.filter((e) => e.state.momentumBuffer !== undefined);
    for (const e of fresh) e.state.momentumBuffer = this.buffer(e.param, false);
    for (const [first, group] of [[true, fresh], [false, held]] as const) {
      if (group.length === 0) continue;
      const update = sgdUpdate(true, first, this.nesterov, decay, this.maximize);
      this.foreachStep(
        update,
        group.map((e) => [e.param, e.grad, e.state.momentumBuffer as typeof e.param]),
        values,
      );
    }
  }
}
