/**
 * The base of every optimizer: a parameter tree whose arrays it updates in place, a gradient tree of the
 * same shape at each {@link Optimizer.step}, state per parameter, and PyTorch's `state_dict` as
 * {@link Optimizer.stateDict}.
 *
 * @module
 */

import { GPUArray, persistent } from "../array/core/gpuarray.ts";
import { showShape } from "../array/core/layout.ts";
import { copyInto, copyOf, writeValues } from "../array/exec/loop.ts";
import { fill } from "../array/ops/assign.ts";
import type { Tree } from "../array/grad/api.ts";
import { checkOptions } from "../kernel/options.ts";
import { gradientLeaves, type Leaf, parameterLeaves } from "./_params.ts";
import { foreach, type ForeachUpdate } from "./_foreach.ts";
import { onReplay, refuseInCompile } from "../device/compiling.ts";

/** A hyperparameter's value: a number, a flag, or a pair (Adam's `betas`). */
export type Hyperparameter = number | boolean | readonly [number, number];

/** One parameter's state: step counts and buffers (`expAvg`, `momentumBuffer`, ...), by PyTorch's names in camelCase. */
export type ParameterState = Record<string, GPUArray | number>;

/**
 * An optimizer's state as PyTorch's `state_dict()` has it: the state of each parameter by its index
 * in the tree's order, and one parameter group with the hyperparameters and the indices.
 */
export interface OptimizerStateDict {
  /** Each parameter's state (absent before its first step), by index. */
  readonly state: Readonly<Record<number, ParameterState>>;
  /** The one parameter group: the hyperparameters and `params`, the parameters' indices. */
  readonly paramGroups: readonly Readonly<Record<string, Hyperparameter | readonly number[] | undefined>>[];
}

/** A parameter with a gradient at this step. */
export interface StepEntry {
  /** The parameter's index in the tree's order. */
  readonly index: number;
  /** The parameter, C-contiguous (a copy of a strided parameter, written back after the update). */
  readonly param: GPUArray;
  /** Its gradient, C-contiguous. */
  readonly grad: GPUArray;
  /** Its state (the subclass fills it on the first step). */
  readonly state: ParameterState;
}

/** Throws a RangeError unless `value` is a number in the range `test` accepts. */
export function checkNumber(
  what: string,
  name: string,
  value: unknown,
  test: (v: number) => boolean,
  range: string,
): number {
  if (typeof value !== "number" || !test(value)) {
    throw new RangeError(`Cannot make ${what} with ${name} ${String(value)}: ${name} must be ${range}`);
  }
  return value;
}

/** Throws a TypeError unless `value` is a boolean. */
export function checkFlag(what: string, name: string, value: unknown): boolean {
  if (typeof value !== "boolean") {
    throw new TypeError(`Cannot make ${what} with ${name} ${String(value)}: pass true or false`);
  }
  return value;
}

/** Checks `options`' keys; returns them as a record (empty for undefined). */
export function readOptions<O extends object>(
  options: O | undefined,
  what: string,
  known: readonly string[],
): Partial<Record<string, unknown>> {
  checkOptions(options, `make ${what}`, "{ lr: 1e-3 }", known);
  return (options ?? {}) as Partial<Record<string, unknown>>;
}

/**
 * Updates the arrays of a parameter tree from gradient trees of the same shape (PyTorch's
 * `torch.optim.Optimizer` with one parameter group). The arrays are updated in place, so a model
 * holding them sees the new values; gradients are values (there is no `zeroGrad`).
 */
export abstract class Optimizer {
  /** The learning rate; a scheduler sets it at each of its steps. */
  lr: number;
  /**
   * The learning rate the first scheduler attached found (PyTorch's `initial_lr`); schedulers start
   * from it. Undefined until a scheduler is attached.
   */
  initialLr: number | undefined;
  readonly #tree: unknown;
  readonly #leaves: readonly Leaf[];
  readonly #state = new Map<number, ParameterState>();
  readonly #name: string;
  /** The device arrays the scalars of each {@link foreachStep} of a step are written to, in order. */
  readonly #values: GPUArray[] = [];
  #slot = 0;

  /**
   * Takes the parameters' arrays (for a subclass's constructor).
   *
   * @param params The parameter tree: an array, or plain objects and lists of arrays.
   * @param lr The learning rate.
   * @param name The optimizer's name in messages.
   */
  protected constructor(params: Tree, lr: number, name: string) {
    this.#name = name;
    this.#leaves = parameterLeaves(params, name);
    this.#tree = params;
    this.lr = checkNumber(name, "lr", lr, (v) => v >= 0 && Number.isFinite(v), "a finite number ≥ 0");
    this.initialLr = undefined;
  }

  /** The parameters, in the tree's order. */
  get params(): readonly GPUArray[] {
    return this.#leaves.map((l) => l.array);
  }

  /** The hyperparameters' names, as {@link stateDict}'s group has them (the subclass's public fields). */
  protected abstract get hyperparameterNames(): readonly string[];

  /** Updates the parameters that have a gradient, in a few multi-tensor launches. */
  protected abstract update(entries: readonly StepEntry[]): void;

  /**
   * Updates every parameter from its gradient in `grads`, a tree of the parameters' shape (what
   * `ga.grad(loss)(params, ...)` returns); a parameter whose gradient is null or undefined is left as it
   * is, with its state.
   *
   * @throws {TypeError} naming the path where `grads` differs from the parameters.
   */
  step(grads: Tree): void {
    const list = gradientLeaves(this.#tree, grads, `step ${this.#name}`);
    this.#slot = 0;
    const entries: StepEntry[] = [], temporaries: GPUArray[] = [], strided: [GPUArray, GPUArray][] = [];
    persistent(() => {
      list.forEach((grad, index) => {
        if (grad === undefined) return;
        let param = this.#leaves[index]!.array;
        if (!param.isContiguous) {
          const copy = copyOf(param);
          strided.push([param, copy]);
          temporaries.push(copy);
          param = copy;
        }
        if (!grad.isContiguous) temporaries.push(grad = copyOf(grad));
        let state = this.#state.get(index);
        if (state === undefined) this.#state.set(index, state = {});
        entries.push({ index, param, grad, state });
      });
    });
    try {
      if (entries.length > 0) this.update(entries);
      for (const [param, copy] of strided) copyInto(param, copy, `step ${this.#name}`);
    } finally {
      for (const a of temporaries) a.free();
    }
  }

  /**
   * Runs `update` over `tensors` (as `foreach` takes them) with the scalars `hostStep()` returns, after
   * the host work it does (advancing step counts). The scalars reach the kernels through a small device
   * array of this optimizer's, written just before: in a step being compiled by `ga.compile`,
   * `hostStep` and that write run again before each replay, so the step counts advance and a learning
   * rate a scheduler sets is used, as in an eager step.
   *
   * @ignore
   */
  protected foreachStep(
    update: ForeachUpdate,
    tensors: readonly (readonly GPUArray[])[],
    hostStep: () => readonly number[],
  ): void {
    const parts = new Map<string, (readonly GPUArray[])[]>();
    for (const list of tensors) {
      const compute = list[0]!.dtype === "float64" ? "float64" : "float32";
      const key = `${list[0]!.backend.device}|${compute}`;
      const part = parts.get(key) ?? [];
      parts.set(key, part);
      part.push(list);
    }
    const held: [GPUArray, (readonly GPUArray[])[]][] = [];
    for (const part of parts.values()) {
      const first = part[0]![0]!, compute = first.dtype === "float64" ? "float64" : "float32";
      let values = this.#values[this.#slot];
      if (
        values === undefined || values.backend !== first.backend || values.dtype !== compute ||
        values.size !== update.scalars.length
      ) {
        refuseInCompile(
          `make ${this.#name}'s scalars for a new group of parameters`,
          "its first calls ran eagerly and made them for the parameters they updated, and this call updates others",
          "update the same parameters at every call",
        );
        values?.free();
        values = persistent(() => new GPUArray(first.backend, [update.scalars.length], compute));
        this.#values[this.#slot] = values;
      }
      this.#slot++;
      held.push([values, part]);
    }
    const write = () => {
      const scalars = hostStep();
      for (const [values] of held) writeValues(values, 0, scalars);
    };
    if (!onReplay(write)) write();
    for (const [values, part] of held) foreach(update, part, values);
  }

  /** A state buffer shaped as `param` (in its dtype), kept between steps: zero-filled, or left unset. */
  protected buffer(param: GPUArray, zeros = true): GPUArray {
    refuseInCompile(
      `make ${this.#name}'s state for a parameter`,
      "the first calls of a compiled step run eagerly and make the state of the parameters they update, and this call updates one they did not",
      "update the same parameters at every call",
    );
    return persistent(() => {
      const a = new GPUArray(param.backend, param.shape, param.dtype);
      return zeros ? fill(a, 0) : a;
    });
  }

  /**
   * The state (each parameter's step count and buffers, by index) and the hyperparameters, as
   * PyTorch's `state_dict()`: the buffers are the optimizer's own arrays, not copies.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * import * as optim from "@cudeno/cudeno/optim";
   * const w = ga.ones([3]);
   * const opt = new optim.Adam({ w }, { lr: 0.1 });
   * opt.step({ w: ga.full([3], 0.5) });
   * const saved = opt.stateDict(); // { state: { 0: { step: 1, expAvg, expAvgSq } }, paramGroups: [...] }
   * const again = new optim.Adam({ w }, { lr: 0.1 });
   * again.loadStateDict(saved);
   * ```
   */
  stateDict(): OptimizerStateDict {
    const state: Record<number, ParameterState> = {};
    for (const [index, s] of [...this.#state].sort((a, b) => a[0] - b[0])) {
      if (Object.keys(s).length > 0) state[index] = { ...s };
    }
    const group: Record<string, Hyperparameter | readonly number[] | undefined> = {};
    for (const name of this.hyperparameterNames) {
      group[name] = (this as unknown as Record<string, Hyperparameter>)[name];
    }
    if (this.initialLr !== undefined) group.initialLr = this.initialLr;
    group.params = this.#leaves.map((_, i) => i);
    return { state, paramGroups: [group] };
  }

  /**
   * Takes the hyperparameters and state of `dict` (from {@link stateDict} of an optimizer of the same
   * kind over parameters of the same shapes): the buffers are copied, in the parameters' dtypes.
   *
   * @throws {TypeError} when `dict` does not fit these parameters (naming the entry).
   */
  loadStateDict(dict: OptimizerStateDict): void {
    const what = `load ${this.#name}'s state`;
    const groups = dict?.paramGroups;
    if (!Array.isArray(groups) || groups.length !== 1 || typeof dict.state !== "object") {
      throw new TypeError(
        `Cannot ${what}: pass what stateDict() returns ({ state, paramGroups: [one group] })`,
      );
    }
    const group = groups[0]!;
    const indices = group.params as readonly number[] | undefined;
    if (!Array.isArray(indices) || indices.length !== this.#leaves.length) {
      throw new TypeError(
        `Cannot ${what}: it is for ${
          Array.isArray(indices) ? indices.length : "no"
        } parameters, this optimizer has ${this.#leaves.length}`,
      );
    }
    const fields = this as unknown as Record<string, Hyperparameter | undefined>;
    for (const name of this.hyperparameterNames) {
      const value = group[name], current = fields[name];
      if (typeof value !== typeof current || Array.isArray(value) !== Array.isArray(current)) {
        throw new TypeError(`Cannot ${what}: its ${name} is ${String(value)}, expected a ${typeof current}`);
      }
      fields[name] = Array.isArray(value) ? [...value] as [number, number] : value as Hyperparameter;
    }
    if (typeof group.initialLr === "number") this.initialLr = group.initialLr;
    const loaded = new Map<number, ParameterState>();
    for (const [key, s] of Object.entries(dict.state)) {
      const index = Number(key), leaf = this.#leaves[index];
      if (leaf === undefined) {
        throw new TypeError(`Cannot ${what}: it has state for parameter ${key}, which is not one`);
      }
      const copy: ParameterState = {};
      for (const [name, value] of Object.entries(s)) {
        if (typeof value === "number") {
          copy[name] = value;
          continue;
        }
        const p = leaf.array;
        if (!(value instanceof GPUArray) || value.shape.join() !== p.shape.join()) {
          throw new TypeError(
            `Cannot ${what}: its ${name} of parameter ${leaf.path} is ${
              value instanceof GPUArray ? `of shape ${showShape(value.shape)}` : String(value)
            }, the parameter has shape ${showShape(p.shape)}`,
          );
        }
        copy[name] = persistent(() => {
          const own = new GPUArray(p.backend, p.shape, p.dtype);
          copyInto(own, value, what);
          return own;
        });
      }
      loaded.set(index, copy);
    }
    for (const s of this.#state.values()) {
      for (const v of Object.values(s)) if (v instanceof GPUArray) v.free();
    }
    this.#state.clear();
    for (const [index, s] of loaded) this.#state.set(index, s);
  }
}
