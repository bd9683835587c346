/**
 * Parameter trees, as `ga.grad` takes and returns them: arrays, plain objects and lists of them; any
 * other value is a constant. An optimizer keeps its parameters' array leaves in the tree's order
 * (`ga.grad`'s order: an object's keys as `Object.keys` gives them, a list's items in turn) and reads
 * a gradient tree of the same shape at each step.
 *
 * @module
 */

import { GPUArray } from "../array/core/gpuarray.ts";
import { showShape } from "../array/core/layout.ts";

/** An array leaf of a parameter tree, with its path (`fc1.weight`, `layers.0.bias`; `(root)` alone). */
export interface Leaf {
  /** Where it is in the tree. */
  readonly path: string;
  /** The array. */
  readonly array: GPUArray;
}

const isPlain = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null &&
  (Object.getPrototypeOf(x) === Object.prototype || Object.getPrototypeOf(x) === null);

const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);
const shown = (path: string) => (path === "" ? "(root)" : path);

const FLOATS = ["float16", "bfloat16", "float32", "float64"];

/** The arrays of `tree` (an array, or plain objects and lists of them), in order. */
export function arrayLeaves(tree: unknown): GPUArray[] {
  const out: GPUArray[] = [];
  const walk = (node: unknown): void => {
    if (node instanceof GPUArray) out.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (isPlain(node)) { for (const key of Object.keys(node)) walk(node[key]); }
  };
  walk(tree);
  return out;
}

/**
 * The array leaves of `tree`, in order.
 *
 * @throws {TypeError} naming the path for a leaf that is not floating point or appears twice, or when
 *   the tree holds no array.
 */
export function parameterLeaves(tree: unknown, what: string): Leaf[] {
  const leaves: Leaf[] = [];
  const seen = new Map<GPUArray, string>();
  const walk = (node: unknown, path: string): void => {
    if (node instanceof GPUArray) {
      if (!FLOATS.includes(node.dtype)) {
        throw new TypeError(
          `Cannot make ${what}: parameter ${
            shown(path)
          } is ${node.dtype}; optimizers update floating-point arrays (astype("float32") it, or keep it out of the parameters)`,
        );
      }
      const before = seen.get(node);
      if (before !== undefined) {
        throw new TypeError(
          `Cannot make ${what}: the same array is parameter ${shown(before)} and ${
            shown(path)
          }; list each parameter once`,
        );
      }
      seen.set(node, path);
      leaves.push({ path: shown(path), array: node });
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, join(path, i)));
    } else if (isPlain(node)) {
      for (const key of Object.keys(node)) walk(node[key], join(path, key));
    }
  };
  walk(tree, "");
  if (leaves.length === 0) {
    throw new TypeError(
      `Cannot make ${what}: the parameters hold no array; pass an array, or a plain object or list of them (a tree, as ga.grad takes)`,
    );
  }
  return leaves;
}

/**
 * The gradient of each leaf of `params` from the tree `grads` of the same shape, in the leaves' order:
 * an array of the parameter's shape, or undefined where `grads` has null or undefined (the parameter is
 * left as it is, as PyTorch skips a parameter whose `grad` is None).
 *
 * @throws {TypeError} naming the path where the trees differ, or a gradient is not a floating-point
 *   array of the parameter's shape on its backend.
 */
export function gradientLeaves(params: unknown, grads: unknown, what: string): (GPUArray | undefined)[] {
  const out: (GPUArray | undefined)[] = [];
  const differ = (path: string, detail: string): never => {
    throw new TypeError(
      `Cannot ${what}: the gradients differ from the parameters at ${
        shown(path)
      }: ${detail}; pass the gradient tree of the parameters (what ga.grad(loss)(params, ...) returns)`,
    );
  };
  const walk = (p: unknown, g: unknown, path: string): void => {
    if (p instanceof GPUArray) {
      if (g === null || g === undefined) {
        out.push(undefined);
        return;
      }
      if (!(g instanceof GPUArray)) {
        return differ(path, `the parameter is an array, the gradient ${describe(g)}`);
      }
      if (g.shape.length !== p.shape.length || g.shape.some((d, i) => d !== p.shape[i])) {
        return differ(
          path,
          `the parameter has shape ${showShape(p.shape)}, the gradient ${showShape(g.shape)}`,
        );
      }
      if (!FLOATS.includes(g.dtype)) return differ(path, `the gradient is ${g.dtype}, not floating point`);
      if (g.backend !== p.backend) {
        return differ(path, `the parameter is on ${p.backend.device}, the gradient on ${g.backend.device}`);
      }
      out.push(g);
    } else if (Array.isArray(p)) {
      if (!Array.isArray(g) || g.length !== p.length) {
        return differ(path, `the parameters have a list of ${p.length}, the gradients ${describe(g)}`);
      }
      p.forEach((item, i) => walk(item, g[i], join(path, i)));
    } else if (isPlain(p)) {
      if (!isPlain(g)) return differ(path, `the parameters have an object, the gradients ${describe(g)}`);
      const keys = Object.keys(p), other = Object.keys(g).filter((k) => !(k in p));
      if (other.length > 0) return differ(join(path, other[0]!), "the parameters have no such entry");
      const missing = keys.find((k) => !(k in g) && hasArray(p[k]));
      if (missing !== undefined) {
        return differ(join(path, missing), "the gradients have no such entry (give null to skip it)");
      }
      for (const key of keys) walk(p[key], g[key], join(path, key));
    }
  };
  walk(params, grads, "");
  return out;
}

/** Whether `tree` holds an array. */
const hasArray = (tree: unknown): boolean => arrayLeaves(tree).length > 0;

function describe(x: unknown): string {
  if (x === null || x === undefined) return String(x);
  if (x instanceof GPUArray) return `an array of shape ${showShape(x.shape)}`;
  if (Array.isArray(x)) return `a list of ${x.length}`;
  return isPlain(x) ? "an object" : `a ${typeof x}`;
}
