/**
 * Optimizers and learning-rate schedules with PyTorch's names, formulas and defaults (`torch.optim`),
 * in camelCase: {@link SGD}, {@link Adam}, {@link AdamW}, {@link RMSprop}, {@link clipGradNorm}, and
 * {@link StepLR}, {@link LinearLR}, {@link CosineAnnealingLR}, {@link SequentialLR}, {@link LambdaLR},
 * {@link OneCycleLR}. An optimizer takes a parameter tree (an array, or plain objects and lists of
 * arrays) and, at each `step(grads)`, the gradient tree `ga.grad` returns for it; it updates the
 * parameter arrays in place, in a few multi-tensor kernel launches (one per few dozen parameters),
 * not one per parameter and term.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const x = ga.random.normal([256, 4], { seed: 1 });
 * const y = ga.matmul(x, ga.asarray([1, -2, 0.5, 3])).add(1);
 * const params = { w: ga.zeros([4]), b: ga.zeros([]) };
 * const loss = (p: typeof params) => ga.mean(ga.square(ga.matmul(x, p.w).add(p.b).sub(y)));
 * const opt = new optim.Adam(params, { lr: 0.05 });
 * const schedule = new optim.CosineAnnealingLR(opt, 500);
 * for (let i = 0; i < 500; i++) {
 *   const [value, grads] = ga.valueAndGrad(loss)(params);
 *   optim.clipGradNorm(grads, 10);
 *   opt.step(grads);
 *   schedule.step();
 * }
 * console.log(params.w.get(), params.b.get()); // near [1, -2, 0.5, 3] and 1
 * ```
 *
 * @module
 */

export {
  type Hyperparameter,
  Optimizer,
  type OptimizerStateDict,
  type ParameterState,
  type StepEntry,
} from "./optimizer.ts";
export { SGD, type SGDOptions } from "./sgd.ts";
export { Adam, type AdamOptions, AdamW } from "./adam.ts";
export { RMSprop, type RMSpropOptions } from "./rmsprop.ts";
export { clipGradNorm, type ClipGradNormOptions } from "./clip_grad.ts";
export {
  CosineAnnealingLR,
  LambdaLR,
  LinearLR,
  type LinearLROptions,
  LRScheduler,
  type SchedulerStateDict,
  SequentialLR,
  StepLR,
} from "./lr_scheduler.ts";
export { OneCycleLR, type OneCycleLROptions } from "./one_cycle.ts";
export { GradScaler, type GradScalerOptions } from "./grad_scaler.ts";
