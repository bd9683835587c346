/**
 * Learning-rate schedules with PyTorch's names and semantics (`torch.optim.lr_scheduler`): each
 * constructor takes a first step (setting the optimizer's `lr` for step 0), and `step()`, called after
 * each `optimizer.step()`, moves to the next value. The rates follow PyTorch's chainable (recursive)
 * forms, so chaining and `SequentialLR` give PyTorch's sequences.
 *
 * @module
 */

import { checkNumber, Optimizer } from "./optimizer.ts";

/** A scheduler's progress, as {@link LRScheduler.stateDict} returns it. */
export interface SchedulerStateDict {
  /** The index of the last step taken (0 after the constructor). */
  readonly lastEpoch: number;
  /** The steps taken, the constructor's included. */
  readonly stepCount: number;
  /** The learning rate the last step set, as a list of one (per parameter group, as PyTorch's). */
  readonly lastLr: readonly number[];
  /** The states of the schedulers a {@link SequentialLR} runs. */
  readonly schedulers?: readonly SchedulerStateDict[];
}

/** Checks that `value` is an integer ≥ `least`. */
export function checkCount(what: string, name: string, value: unknown, least: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < least) {
    throw new RangeError(
      `Cannot make ${what} with ${name} ${String(value)}: ${name} must be an integer ≥ ${least}`,
    );
  }
  return value;
}

/**
 * The base of the schedules (PyTorch's `LRScheduler`): it drives an optimizer's `lr` from its
 * initial value (`optimizer.initialLr`, set by the first scheduler attached).
 */
export abstract class LRScheduler {
  /** The optimizer whose learning rate this sets. */
  readonly optimizer: Optimizer;
  /** The initial learning rate, as a list of one (PyTorch's `base_lrs`). */
  readonly baseLrs: readonly number[];
  /** The index of the last step taken (0 after the constructor). */
  lastEpoch: number = -1;
  /** The steps taken, the constructor's included (PyTorch's `_step_count`). */
  protected stepCount: number = 0;
  /** Whether the constructor's first step is being taken. */
  protected isInitial: boolean = false;
  #lastLr: number[] = [];

  /**
   * Attaches the schedule to `optimizer` (for a subclass's constructor, which then takes the first step).
   *
   * @param optimizer The optimizer whose learning rate to set.
   * @param what The schedule's name in messages.
   */
  protected constructor(optimizer: Optimizer, what: string) {
    if (!(optimizer instanceof Optimizer)) {
      throw new TypeError(
        `Cannot make ${what} for ${String(optimizer)}: pass an optimizer (new optim.SGD(...), ...)`,
      );
    }
    this.optimizer = optimizer;
    optimizer.initialLr ??= optimizer.lr;
    this.baseLrs = [optimizer.initialLr];
    this.#lastLr = [optimizer.lr];
  }

  /** The base learning rate. */
  protected get baseLr(): number {
    return this.baseLrs[0]!;
  }

  /** The learning rate at step {@link lastEpoch}, from the optimizer's current one (the chainable form). */
  protected abstract getLr(): number;

  /** The learning rate at step {@link lastEpoch} from the base rate alone, where the schedule has one. */
  protected closedFormLr(): number | undefined {
    return undefined;
  }

  /** Takes the constructor's step (PyTorch's `_initial_step`). */
  initialStep(): void {
    this.stepCount = 0;
    this.isInitial = true;
    try {
      this.step();
    } finally {
      this.isInitial = false;
    }
  }

  /** Moves to the next step and sets the optimizer's learning rate. */
  step(): void {
    this.stepCount++;
    this.updateLr();
  }

  /**
   * Sets the learning rate for the next step, or for step `epoch` from the closed form where the
   * schedule has one (how {@link SequentialLR} starts a schedule at a milestone).
   */
  updateLr(epoch?: number): void {
    let lr: number;
    if (epoch === undefined) {
      this.lastEpoch++;
      lr = this.getLr();
    } else {
      this.lastEpoch = epoch;
      lr = this.closedFormLr() ?? this.getLr();
    }
    this.optimizer.lr = lr;
    this.#lastLr = [lr];
  }

  /** Steps back once: how {@link SequentialLR} undoes the constructors' steps of the schedules it runs. */
  undo(): void {
    this.lastEpoch--;
  }

  /**
   * The learning rate the last step set, as a list of one (PyTorch's `get_last_lr()`, one per
   * parameter group).
   */
  getLastLr(): number[] {
    return [...this.#lastLr];
  }

  /** The progress, to resume with {@link loadStateDict}. */
  stateDict(): SchedulerStateDict {
    return { lastEpoch: this.lastEpoch, stepCount: this.stepCount, lastLr: this.getLastLr() };
  }

  /** Resumes from a {@link stateDict} of the same schedule. */
  loadStateDict(dict: SchedulerStateDict): void {
    if (
      typeof dict?.lastEpoch !== "number" || typeof dict.stepCount !== "number" || !Array.isArray(dict.lastLr)
    ) {
      throw new TypeError("Cannot load a scheduler's state: pass what stateDict() returns");
    }
    this.lastEpoch = dict.lastEpoch;
    this.stepCount = dict.stepCount;
    this.#lastLr = [...dict.lastLr];
  }
}

/**
 * The initial learning rate times `lrLambda(step)` (PyTorch's `LambdaLR`): a warm-up, or any schedule
 * written as a function.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.AdamW([ga.zeros([4])], { lr: 1e-3 });
 * const warmup = new optim.LambdaLR(opt, (step) => Math.min(1, (step + 1) / 100));
 * console.log(opt.lr); // 1e-5
 * ```
 */
export class LambdaLR extends LRScheduler {
  /** The factor of each step. */
  readonly lrLambda: (step: number) => number;

  /**
   * Sets the optimizer's rate for step 0.
   *
   * @param lrLambda The factor of the initial learning rate at each step.
   */
  constructor(optimizer: Optimizer, lrLambda: (step: number) => number) {
    super(optimizer, "LambdaLR");
    if (typeof lrLambda !== "function") {
      throw new TypeError(
        `Cannot make LambdaLR with lrLambda ${String(lrLambda)}: pass a function of the step`,
      );
    }
    this.lrLambda = lrLambda;
    this.initialStep();
  }

  /** The base rate times the factor. */
  protected getLr(): number {
    return this.baseLr * this.lrLambda(this.lastEpoch);
  }
}

/**
 * Multiplies the learning rate by `gamma` every `stepSize` steps (PyTorch's `StepLR`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.SGD([ga.zeros([4])], { lr: 0.1 });
 * const schedule = new optim.StepLR(opt, 30, { gamma: 0.1 }); // 0.1 for 30 steps, then 0.01, ...
 * ```
 */
export class StepLR extends LRScheduler {
  /** Steps between decays. */
  readonly stepSize: number;
  /** The factor of each decay. */
  readonly gamma: number;

  /**
   * Sets the optimizer's rate for step 0.
   *
   * @param stepSize Steps between decays.
   * @param options `gamma`, the factor of each decay (default 0.1).
   */
  constructor(optimizer: Optimizer, stepSize: number, options?: { readonly gamma?: number }) {
    super(optimizer, "StepLR");
    this.stepSize = checkCount("StepLR", "stepSize", stepSize, 1);
    this.gamma = checkNumber("StepLR", "gamma", options?.gamma ?? 0.1, Number.isFinite, "a finite number");
    this.initialStep();
  }

  /** The rate, times gamma at each multiple of the step size. */
  protected getLr(): number {
    const lr = this.optimizer.lr;
    return this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0 ? lr : lr * this.gamma;
  }

  /** The base rate times gamma to the number of decays. */
  protected override closedFormLr(): number {
    return this.baseLr * this.gamma ** Math.floor(this.lastEpoch / this.stepSize);
  }
}

/** {@link LinearLR}'s options (PyTorch's, in camelCase). */
export interface LinearLROptions {
  /** The factor of the initial learning rate at step 0, in (0, 1]. Default 1/3. */
  readonly startFactor?: number;
  /** The factor at step `totalIters` and after, in [0, 1]. Default 1. */
  readonly endFactor?: number;
  /** The steps the factor takes to go from start to end. Default 5. */
  readonly totalIters?: number;
}

/**
 * Changes the learning rate's factor linearly from `startFactor` to `endFactor` over `totalIters`
 * steps (PyTorch's `LinearLR`): a linear warm-up, before a {@link CosineAnnealingLR} in a
 * {@link SequentialLR}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.AdamW([ga.zeros([4])], { lr: 1e-3 });
 * const warmup = new optim.LinearLR(opt, { startFactor: 0.01, totalIters: 100 });
 * ```
 */
export class LinearLR extends LRScheduler {
  /** The factor at step 0. */
  readonly startFactor: number;
  /** The factor from step `totalIters` on. */
  readonly endFactor: number;
  /** The steps of the change. */
  readonly totalIters: number;

  /** Sets the optimizer's rate for step 0: the initial rate times `startFactor`. */
  constructor(optimizer: Optimizer, options?: LinearLROptions) {
    super(optimizer, "LinearLR");
    this.startFactor = checkNumber(
      "LinearLR",
      "startFactor",
      options?.startFactor ?? 1 / 3,
      (v) => v > 0 && v <= 1,
      "in (0, 1]",
    );
    this.endFactor = checkNumber(
      "LinearLR",
      "endFactor",
      options?.endFactor ?? 1,
      (v) => v >= 0 && v <= 1,
      "in [0, 1]",
    );
    this.totalIters = checkCount("LinearLR", "totalIters", options?.totalIters ?? 5, 1);
    this.initialStep();
  }

  /** The rate times the ratio of this step's factor to the last one's. */
  protected getLr(): number {
    const lr = this.optimizer.lr, { startFactor: s, endFactor: e, totalIters: n } = this;
    if (this.lastEpoch === 0) return lr * s;
    if (this.isInitial || this.lastEpoch > n) return lr;
    return lr * (1 + (e - s) / (n * s + (this.lastEpoch - 1) * (e - s)));
  }

  /** The base rate times this step's factor. */
  protected override closedFormLr(): number {
    const { startFactor: s, endFactor: e, totalIters: n } = this;
    return this.baseLr * (s + (e - s) * Math.min(n, this.lastEpoch) / n);
  }
}

/**
 * Cosine annealing from the initial learning rate to `etaMin` over `tMax` steps (PyTorch's
 * `CosineAnnealingLR`, without restarts): `etaMin + (base - etaMin)(1 + cos(π t / tMax)) / 2`, by
 * PyTorch's recursive form.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.AdamW([ga.zeros([4])], { lr: 1e-3 });
 * const warmup = new optim.LinearLR(opt, { startFactor: 0.01, totalIters: 100 });
 * const cosine = new optim.CosineAnnealingLR(opt, 900, { etaMin: 1e-5 });
 * const schedule = new optim.SequentialLR(opt, [warmup, cosine], [100]);
 * for (let i = 0; i < 1000; i++) schedule.step(); // after each opt.step(grads)
 * ```
 */
export class CosineAnnealingLR extends LRScheduler {
  /** The steps of the half cosine. */
  readonly tMax: number;
  /** The least learning rate. */
  readonly etaMin: number;

  /**
   * Sets the optimizer's rate for step 0 (the initial rate).
   *
   * @param tMax The steps from the initial rate to `etaMin`.
   * @param options `etaMin`, the least learning rate (default 0).
   */
  constructor(optimizer: Optimizer, tMax: number, options?: { readonly etaMin?: number }) {
    super(optimizer, "CosineAnnealingLR");
    this.tMax = checkCount("CosineAnnealingLR", "tMax", tMax, 1);
    this.etaMin = checkNumber(
      "CosineAnnealingLR",
      "etaMin",
      options?.etaMin ?? 0,
      Number.isFinite,
      "a finite number",
    );
    this.initialStep();
  }

  /** PyTorch's recursive step of the cosine. */
  protected getLr(): number {
    const lr = this.optimizer.lr, t = this.lastEpoch, n = this.tMax, min = this.etaMin, base = this.baseLr;
    if (this.isInitial) return lr;
    if (this.stepCount === 1 && t > 0) return min + (base - min) * (1 + Math.cos(t * Math.PI / n)) / 2;
    if ((t - 1 - n) % (2 * n) === 0) return lr + (base - min) * (1 - Math.cos(Math.PI / n)) / 2;
    return (1 + Math.cos(Math.PI * t / n)) / (1 + Math.cos(Math.PI * (t - 1) / n)) * (lr - min) + min;
  }

  /** The cosine of the step. */
  protected override closedFormLr(): number {
    return this.etaMin +
      (this.baseLr - this.etaMin) * (1 + Math.cos(Math.PI * this.lastEpoch / this.tMax)) / 2;
  }
}

/**
 * Runs schedules one after another, switching at the milestones (PyTorch's `SequentialLR`): each
 * schedule after the first starts from its step 0 at its milestone.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const opt = new optim.SGD([ga.zeros([4])], { lr: 0.1, momentum: 0.9 });
 * const schedule = new optim.SequentialLR(opt, [
 *   new optim.LinearLR(opt, { startFactor: 0.1, totalIters: 5 }),
 *   new optim.CosineAnnealingLR(opt, 95),
 * ], [5]);
 * ```
 */
export class SequentialLR extends LRScheduler {
  /** The schedules, in order. */
  readonly schedulers: readonly LRScheduler[];
  /** The steps at which each schedule after the first starts. */
  readonly milestones: readonly number[];

  /**
   * Restarts the schedules and takes the first one's step 0.
   *
   * @param schedulers The schedules, each made for `optimizer`.
   * @param milestones One step per schedule after the first, increasing.
   */
  constructor(optimizer: Optimizer, schedulers: readonly LRScheduler[], milestones: readonly number[]) {
    super(optimizer, "SequentialLR");
    if (!Array.isArray(schedulers) || schedulers.length === 0) {
      throw new TypeError("Cannot make SequentialLR without schedules: pass a list of one or more");
    }
    schedulers.forEach((s, i) => {
      if (!(s instanceof LRScheduler) || s.optimizer !== optimizer) {
        throw new TypeError(`Cannot make SequentialLR: schedule ${i} is not a schedule of this optimizer`);
      }
    });
    if (!Array.isArray(milestones) || milestones.length !== schedulers.length - 1) {
      throw new RangeError(
        `Cannot make SequentialLR with ${schedulers.length} schedules and ${
          Array.isArray(milestones) ? milestones.length : "no"
        } milestones: pass one milestone per schedule after the first`,
      );
    }
    this.schedulers = [...schedulers];
    this.milestones = [...milestones];
    this.lastEpoch = 0;
    optimizer.lr = this.baseLr;
    this.undo();
    this.schedulers[0]!.initialStep();
    this.stepCount = 1;
  }

  /** Not used: the running schedule computes the rate. */
  protected getLr(): number {
    return this.optimizer.lr;
  }

  /** Undoes the constructors' steps of every schedule inside. */
  override undo(): void {
    for (const s of this.schedulers) s.undo();
  }

  /** Steps the schedule of this step, starting it at its milestone. */
  override step(): void {
    this.lastEpoch++;
    this.stepCount++;
    let index = 0;
    while (index < this.milestones.length && this.milestones[index]! <= this.lastEpoch) index++;
    const scheduler = this.schedulers[index]!;
    if (index > 0 && this.milestones[index - 1] === this.lastEpoch) scheduler.updateLr(0);
    else scheduler.step();
  }

  /** The learning rate the running schedule set last. */
  override getLastLr(): number[] {
    return [this.optimizer.lr];
  }

  /** The progress, with every schedule's. */
  override stateDict(): SchedulerStateDict {
    return { ...super.stateDict(), schedulers: this.schedulers.map((s) => s.stateDict()) };
  }

  /** Resumes from a {@link stateDict} of the same schedules. */
  override loadStateDict(dict: SchedulerStateDict): void {
    super.loadStateDict(dict);
    if (!Array.isArray(dict.schedulers) || dict.schedulers.length !== this.schedulers.length) {
      throw new TypeError(
        `Cannot load SequentialLR's state: it needs the states of ${this.schedulers.length} schedules`,
      );
    }
    dict.schedulers.forEach((s, i) => this.schedulers[i]!.loadStateDict(s));
  }
}
