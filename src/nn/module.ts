/**
 * The `Module` base of layers and models (PyTorch's `nn.Module`): a module's parameters are its
 * array-valued properties, its submodules its module-valued ones (and lists of modules), and its
 * buffers (running statistics) the arrays it registers with `registerBuffer`. From these it gives the
 * parameters as a tree for `ga.grad` (`parameters()`), PyTorch's dotted names (`namedParameters()`),
 * the state dict (`stateDict()` / `loadStateDict()`) with PyTorch's names and layouts, and
 * `train()`/`eval()`. {@link functionalCall} runs a module's `forward` with a parameter tree in place
 * of its own, which is how a module is differentiated.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { showShape } from "./_check.ts";

/** Parameters as a tree: a module's parameters by property name, its submodules' as subtrees. */
export interface ParameterTree {
  /** A parameter, a submodule's tree, or a list of trees (a list of submodules). */
  readonly [name: string]: ga.GPUArray | ParameterTree | readonly ParameterTree[];
}

/** The state dict: every parameter and buffer by its PyTorch name (`"0.weight"`, `"bn.running_mean"`). */
export type StateDict = Record<string, ga.GPUArray>;

/** Options of {@link Module.loadStateDict}. */
export interface LoadStateDictOptions {
  /** Refuse a state dict that lacks some of the module's keys or has others. Default true. */
  readonly strict?: boolean;
}

/** What {@link Module.loadStateDict} did not match (both empty after a strict load). */
export interface LoadStateDictResult {
  /** The module's keys the state dict did not have. */
  readonly missingKeys: string[];
  /** The state dict's keys the module does not have. */
  readonly unexpectedKeys: string[];
}

/** The property names each module registered as buffers. */
const BUFFERS = new WeakMap<object, Set<string>>();

/** A property's name in the state dict: camelCase written as PyTorch's snake_case (`runningMean` → `running_mean`). */
export function stateName(property: string): string {
  return property.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A module's own parameters, buffers and submodules, by property name, in property order. */
function ownEntries(m: Module<never[], unknown>): {
  params: [string, ga.GPUArray][];
  buffers: [string, ga.GPUArray][];
  children: [string, Module<never[], unknown> | Module<never[], unknown>[]][];
} {
  const buffers = BUFFERS.get(m);
  const out = {
    params: [] as [string, ga.GPUArray][],
    buffers: [] as [string, ga.GPUArray][],
    children: [] as [string, Module<never[], unknown> | Module<never[], unknown>[]][],
  };
  const props = m as unknown as Record<string, unknown>;
  for (const key of Object.keys(m)) {
    const v = props[key];
    if (v instanceof ga.GPUArray) (buffers?.has(key) ? out.buffers : out.params).push([key, v]);
    else if (v instanceof Module) out.children.push([key, v]);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => x instanceof Module)) {
      out.children.push([key, v]);
    }
  }
  return out;
}

/** Each submodule with its dotted PyTorch name below `prefix`. */
function childList(
  m: Module<never[], unknown>,
  prefix: string,
): [string, Module<never[], unknown>][] {
  return ownEntries(m).children.flatMap(([key, c]) =>
    Array.isArray(c)
      ? c.map((x, i) => [`${prefix}${stateName(key)}.${i}`, x] as [string, Module<never[], unknown>])
      : [[`${prefix}${stateName(key)}`, c] as [string, Module<never[], unknown>]]
  );
}

/**
 * The base of layers and models (PyTorch's `nn.Module`). A subclass sets its parameters (arrays) and
 * submodules (modules, or lists of them) as properties and defines `forward`; arrays that are state
 * but not parameters (running statistics) are registered with {@link Module.registerBuffer}.
 * `I` are `forward`'s arguments and `O` its result.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * class MLP extends nn.Module {
 *   fc1 = new nn.Linear(4, 8);
 *   fc2 = new nn.Linear(8, 2);
 *   forward(x: ga.GPUArray): ga.GPUArray {
 *     return this.fc2.forward(nn.relu(this.fc1.forward(x)));
 *   }
 * }
 * const model = new MLP();
 * console.log(Object.keys(model.stateDict())); // fc1.weight, fc1.bias, fc2.weight, fc2.bias
 * const y = model.forward(ga.ones([3, 4])); // [3, 2]
 * ```
 */
export abstract class Module<I extends unknown[] = [ga.GPUArray], O = ga.GPUArray> {
  /** Whether the module is in training mode (dropout drops, batch norm uses the batch's statistics). */
  training = true;

  /** The module's computation, from its parameters and buffers. */
  abstract forward(...input: I): O;

  /**
   * Marks the property `name` as a buffer: state saved in the state dict (under its snake_case name)
   * but not a parameter, so not in `parameters()` and never differentiated. Returns `value`, which
   * the caller assigns to the property.
   */
  protected registerBuffer<T extends ga.GPUArray | null>(name: string, value: T): T {
    let set = BUFFERS.get(this);
    if (set === undefined) BUFFERS.set(this, set = new Set());
    set.add(name);
    return value;
  }

  /**
   * The parameters as a tree (plain objects by property name, lists for lists of modules): what to
   * hand to `ga.grad` and to {@link functionalCall}, and the shape of the gradients that come back.
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const model = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 2));
   * const p = model.parameters(); // { "0": { weight, bias }, "1": {}, "2": { weight, bias } }
   * ```
   */
  parameters(): ParameterTree {
    const { params, children } = ownEntries(this as unknown as Module<never[], unknown>);
    const tree: Record<string, ga.GPUArray | ParameterTree | ParameterTree[]> = {};
    for (const [key, v] of params) tree[key] = v;
    for (const [key, c] of children) {
      tree[key] = Array.isArray(c) ? c.map((x) => x.parameters()) : c.parameters();
    }
    return tree;
  }

  /**
   * Every parameter with its PyTorch name (`"fc1.weight"`, `"0.bias"`), submodules after the module's own.
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const model = new nn.Sequential(new nn.Linear(4, 8), new nn.Linear(8, 2));
   * const total = model.namedParameters().reduce((n, [, p]) => n + p.size, 0); // 58
   * ```
   */
  namedParameters(): [string, ga.GPUArray][] {
    return this.namedModules().flatMap(([prefix, m]) =>
      ownEntries(m).params.map(([key, v]) => [`${prefix === "" ? "" : `${prefix}.`}${stateName(key)}`, v])
    ) as [string, ga.GPUArray][];
  }

  /**
   * Every buffer with its PyTorch name (`"bn.running_mean"`).
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const names = new nn.BatchNorm2d(3).namedBuffers().map(([name]) => name);
   * // running_mean, running_var, num_batches_tracked
   * ```
   */
  namedBuffers(): [string, ga.GPUArray][] {
    return this.namedModules().flatMap(([prefix, m]) =>
      ownEntries(m).buffers.map(([key, v]) => [`${prefix === "" ? "" : `${prefix}.`}${stateName(key)}`, v])
    ) as [string, ga.GPUArray][];
  }

  /**
   * This module and every submodule, depth first, with their dotted names (this one's is `""`).
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const names = new nn.Sequential(new nn.Linear(2, 2), new nn.ReLU()).namedModules().map(([n]) => n);
   * // "", "0", "1"
   * ```
   */
  namedModules(): [string, Module<never[], unknown>][] {
    const out: [string, Module<never[], unknown>][] = [];
    const walk = (m: Module<never[], unknown>, name: string) => {
      out.push([name, m]);
      for (const [n, c] of childList(m, name === "" ? "" : `${name}.`)) walk(c, n);
    };
    walk(this as unknown as Module<never[], unknown>, "");
    return out;
  }

  /**
   * Sets training mode (`true`, the default) or evaluation mode on this module and every submodule;
   * returns this module.
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const model = new nn.Sequential(new nn.Linear(4, 4), new nn.Dropout(0.5)).train();
   * ```
   */
  train(mode = true): this {
    for (const [, m] of this.namedModules()) m.training = mode;
    return this;
  }

  /**
   * Evaluation mode (`train(false)`): dropout passes its input through, batch norm uses its running
   * statistics. Returns this module.
   *
   * @example
   * ```ts
   * import * as ga from "@cudeno/cudeno/array";
   * import * as nn from "@cudeno/cudeno/nn";
   * const model = new nn.Sequential(new nn.Linear(4, 4), new nn.Dropout(0.5)).eval();
   * const y = model.forward(ga.ones([2, 4])); // no dropout
   * ```
   */
  eval(): this {
    return this.train(false);
  }

  /**
   * The parameters and buffers by PyTorch name, each module's parameters then its buffers, then its
   * submodules': the keys and layouts a PyTorch module of the same structure has (`Linear.weight` is
   * `[out, in]`). The values are the module's own arrays, not copies.
   *
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const state = new nn.Sequential(new nn.Linear(4, 8), new nn.BatchNorm2d(8)).stateDict();
   * // "0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked"
   * ```
   */
  stateDict(): StateDict {
    const state: StateDict = {};
    for (const [prefix, m] of this.namedModules()) {
      const { params, buffers } = ownEntries(m);
      for (const [key, v] of [...params, ...buffers]) {
        state[`${prefix === "" ? "" : `${prefix}.`}${stateName(key)}`] = v;
      }
    }
    return state;
  }

  /**
   * Copies the arrays of `state` (a state dict, or a Map of one) into the module's parameters and
   * buffers of the same names, in place (converted to their dtypes). Every shape is checked before
   * anything is written. With `strict` (the default), missing or unexpected keys are refused.
   *
   * @throws {TypeError} naming the missing and unexpected keys (strict), or a value that is not an array.
   * @throws {RangeError} naming the key and both shapes when a shape differs.
   * @example
   * ```ts
   * import * as nn from "@cudeno/cudeno/nn";
   * const a = new nn.Linear(3, 2, { seed: 1 }), b = new nn.Linear(3, 2, { seed: 2 });
   * b.loadStateDict(a.stateDict()); // b now computes what a does
   * ```
   */
  loadStateDict(
    state: StateDict | ReadonlyMap<string, ga.GPUArray>,
    options?: LoadStateDictOptions,
  ): LoadStateDictResult {
    const given = state instanceof Map ? state : new Map(Object.entries(state as StateDict));
    const own = this.stateDict();
    const name = this.constructor.name;
    const missingKeys = Object.keys(own).filter((k) => !given.has(k));
    const unexpectedKeys = [...given.keys()].filter((k) => !(k in own));
    if ((options?.strict ?? true) && (missingKeys.length > 0 || unexpectedKeys.length > 0)) {
      const parts = [
        missingKeys.length > 0 ? `missing key(s) ${missingKeys.join(", ")}` : "",
        unexpectedKeys.length > 0 ? `unexpected key(s) ${unexpectedKeys.join(", ")}` : "",
      ].filter((p) => p !== "");
      throw new TypeError(
        `Cannot loadStateDict into ${name}: ${
          parts.join("; ")
        } (pass { strict: false } to load the keys that match)`,
      );
    }
    const pairs: [ga.GPUArray, ga.GPUArray][] = [];
    for (const [key, target] of Object.entries(own)) {
      const value = given.get(key);
      if (value === undefined) continue;
      if (!(value instanceof ga.GPUArray)) {
        throw new TypeError(`Cannot loadStateDict into ${name}: ${key} is ${typeof value}, not a GPUArray`);
      }
      if (value.ndim !== target.ndim || value.shape.some((d, i) => d !== target.shape[i])) {
        throw new RangeError(
          `Cannot loadStateDict into ${name}: ${key} has shape ${
            showShape(value.shape)
          } in the state dict and ${showShape(target.shape)} in the module`,
        );
      }
      pairs.push([target, value]);
    }
    for (const [target, value] of pairs) ga.assign(target, value);
    return {
      missingKeys: options?.strict === false ? missingKeys : [],
      unexpectedKeys: options?.strict === false ? unexpectedKeys : [],
    };
  }
}

/** Puts the arrays of `tree` into `m`'s parameters, recording how to put the old ones back. */
function swapIn(m: Module<never[], unknown>, tree: unknown, path: string, restore: (() => void)[]): void {
  if (typeof tree !== "object" || tree === null || Array.isArray(tree) || tree instanceof ga.GPUArray) {
    throw new TypeError(
      `Cannot functionalCall: the parameters of ${
        path === "" ? "the module" : path
      } must be a tree (an object), as module.parameters() gives`,
    );
  }
  const props = m as unknown as Record<string, unknown>;
  const buffers = BUFFERS.get(m);
  for (const [key, value] of Object.entries(tree)) {
    const at = `${path}${key}`;
    const current = props[key];
    if (current instanceof ga.GPUArray && !buffers?.has(key)) {
      if (!(value instanceof ga.GPUArray)) {
        throw new TypeError(
          `Cannot functionalCall: the parameter ${at} must be a GPUArray, not ${typeof value}`,
        );
      }
      if (value.ndim !== current.ndim || value.shape.some((d, i) => d !== current.shape[i])) {
        throw new RangeError(
          `Cannot functionalCall: the parameter ${at} has shape ${
            showShape(value.shape)
          }; the module's has shape ${showShape(current.shape)}`,
        );
      }
      props[key] = value;
      restore.push(() => props[key] = current);
    } else if (current instanceof Module) {
      swapIn(current, value, `${at}.`, restore);
    } else if (Array.isArray(current) && current.every((c) => c instanceof Module)) {
      if (!Array.isArray(value) || value.length !== current.length) {
        throw new TypeError(
          `Cannot functionalCall: ${at} must be a list of ${current.length} parameter trees`,
        );
      }
      current.forEach((c, i) => swapIn(c, value[i], `${at}.${i}.`, restore));
    } else {
      throw new TypeError(
        `Cannot functionalCall: the parameter tree has ${at}, but the module has no parameter or submodule of that name`,
      );
    }
  }
}

/**
 * Runs `module.forward(...args)` with the arrays of `params` (a tree shaped as `module.parameters()`,
 * or a part of one) in place of the module's own parameters, and puts its own back afterwards
 * (PyTorch's `torch.func.functional_call`). This is how a module is differentiated: `ga.grad` hands
 * the function tracked stand-ins of the tree, and the module computes with them. Buffers (running
 * statistics) stay the module's own and are updated as `forward` does.
 *
 * @throws {TypeError} for a tree key the module has no parameter or submodule for.
 * @throws {RangeError} naming the parameter and both shapes when a shape differs.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const model = new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 3));
 * const x = ga.random.normal([16, 4], { seed: 1 }), y = ga.asarray(Array(16).fill(1), "int64");
 * const loss = (p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
 *   nn.crossEntropy(nn.functionalCall(model, p, x), y);
 * const [value, grads] = ga.valueAndGrad(loss)(model.parameters(), x, y); // grads["0"].weight: [8, 4]
 * ```
 */
export function functionalCall<I extends unknown[], O>(
  module: Module<I, O>,
  params: ParameterTree,
  ...args: I
): O {
  if (!(module instanceof Module)) {
    throw new TypeError("Cannot functionalCall: the first argument must be a Module");
  }
  const restore: (() => void)[] = [];
  try {
    swapIn(module as unknown as Module<never[], unknown>, params, "", restore);
    return module.forward(...args);
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
