/**
 * Gradients, with JAX's names: `grad`, `valueAndGrad`, `vjp`, `jvp`, `customVjp` and `stopGradient`.
 * A differentiated function runs eagerly while a {@link Tape} records the operations on its arguments;
 * the backward pass (`backward.ts`) then runs each operation's rule, written in array operations. Every
 * array the call made and does not return is freed when it returns (as TensorFlow.js's `tidy` does),
 * so a training loop's memory stays flat without the garbage collector.
 *
 * @module
 */

import { collectArrays, GPUArray, viewOf } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { fill } from "../ops/assign.ts";
import { sum } from "../api/reductions.ts";
import { backward } from "./backward.ts";
import { differentiable, isTracked, nested, record, recording, Tape, unrecorded } from "./tape.ts";

/** Arguments and results may be trees: arrays, plain objects and lists of them, other values as constants. */
export type Tree = GPUArray | number | bigint | boolean | string | null | undefined | readonly Tree[] | {
  readonly [key: string]: Tree;
};

/** Which arguments to differentiate with respect to: one position, or a list of them. */
export interface GradOptions<N extends number | readonly number[] = number | readonly number[]> {
  /** The argument (default 0) or arguments whose gradients to return. */
  readonly argnums?: N;
}

/** `valueAndGrad`'s options: `hasAux` when the function returns `[value, aux]`. */
export interface ValueAndGradOptions<N extends number | readonly number[] = number | readonly number[]>
  extends GradOptions<N> {
  /** The function returns `[value, aux]`: the gradient is of `value`, `aux` comes back as it is. Default false. */
  readonly hasAux?: boolean;
}

/** The gradients for `argnums` `N` of arguments `A`: one tree, or a list of them. */
export type GradsOf<A extends readonly unknown[], N> = N extends number ? A[N]
  : { -readonly [K in keyof N]: N[K] extends number ? A[N[K]] : never };

const isPlain = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && (Object.getPrototypeOf(x) === Object.prototype ||
    Object.getPrototypeOf(x) === null);

/** `tree` with each array leaf replaced by `fn(leaf)`, other leaves by `other(leaf)`, in a fixed order. */
function mapTree(tree: unknown, fn: (leaf: GPUArray) => unknown, other: (x: unknown) => unknown): unknown {
  if (tree instanceof GPUArray) return fn(tree);
  if (Array.isArray(tree)) return tree.map((t) => mapTree(t, fn, other));
  if (isPlain(tree)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(tree)) out[k] = mapTree(tree[k], fn, other);
    return out;
  }
  return other(tree);
}

/** Adds the array leaves of `tree` to `into`. */
function leaves(tree: unknown, into: Set<GPUArray>): Set<GPUArray> {
  mapTree(tree, (x) => into.add(x), () => undefined);
  return into;
}

/**
 * Runs `work` collecting the arrays it makes; afterwards frees those not among `kept(result)`'s
 * leaves. Inside another differentiation they go to the enclosing call instead, whose backward pass may
 * still read them.
 */
function tidy<T>(work: () => T, kept: (result: T) => unknown): T {
  const made: GPUArray[] = [];
  const outer = collectArrays(made);
  let result: T;
  try {
    result = work();
  } catch (e) {
    collectArrays(outer);
    if (nested() && outer !== undefined) outer.push(...made);
    else for (const a of made) a.free();
    throw e;
  } finally {
    collectArrays(outer);
  }
  if (nested() && outer !== undefined) {
    outer.push(...made);
    return result;
  }
  const keep = leaves(kept(result), new Set());
  for (const a of made) {
    if (!keep.has(a)) a.free();
    else outer?.push(a);
  }
  return result;
}

function argnumsOf(what: string, argnums: unknown, count: number): { list: number[]; one: boolean } {
  const given = argnums ?? 0;
  const list = typeof given === "number" ? [given] : Array.isArray(given) ? [...given] : undefined;
  if (list === undefined || list.some((n) => !Number.isInteger(n) || n < 0 || n >= count)) {
    throw new RangeError(
      `Cannot ${what} with argnums ${JSON.stringify(argnums)}: give an argument's position (0 to ${
        count - 1
      }) or a list of them; the function was called with ${count} argument(s)`,
    );
  }
  return { list, one: typeof given === "number" };
}

/** The arguments with each array leaf of those in `argnums` replaced by a tracked stand-in of its own. */
function track(tape: Tape, args: readonly unknown[], argnums: readonly number[]): {
  wrapped: unknown[];
  stand: Map<number, GPUArray[]>;
} {
  const stand = new Map<number, GPUArray[]>();
  const wrapped = args.map((a, i) => {
    if (!argnums.includes(i)) return a;
    const list: GPUArray[] = [];
    stand.set(i, list);
    return mapTree(a, (leaf) => {
      const v = viewOf(leaf, leaf);
      record("an argument", [leaf], v, (g) => [g]);
      if (differentiable(leaf.dtype)) tape.tracked.add(v);
      list.push(v);
      return v;
    }, (x) => x);
  });
  return { wrapped, stand };
}

/** The gradient trees of `argnums`: each leaf's gradient (contiguous), or zeros where none reached it. */
function gradTrees(
  args: readonly unknown[],
  argnums: readonly number[],
  stand: Map<number, GPUArray[]>,
  grads: Map<GPUArray, GPUArray> | undefined,
): unknown[] {
  return argnums.map((i) => {
    let k = 0;
    return mapTree(args[i], (leaf) => {
      const g = grads?.get(stand.get(i)![k++]!);
      if (g === undefined) return fill(new GPUArray(leaf.backend, leaf.shape, leaf.dtype), 0);
      return g.isContiguous && g.base === undefined ? g : g.copy();
    }, () => null);
  });
}

/** The seed of a backward pass from `out`: ones of its shape and dtype. */
function ones(out: GPUArray): GPUArray {
  return fill(new GPUArray(out.backend, out.shape, out.dtype), 1);
}

function scalarResult(what: string, value: unknown): GPUArray | undefined {
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return undefined;
  if (!(value instanceof GPUArray)) {
    throw new TypeError(
      `Cannot ${what}: the function returned ${
        value === null ? "null" : Array.isArray(value) ? "a list" : typeof value
      }; it must return one array of one element (a loss)${
        what === "grad" ? ", or use ga.valueAndGrad(f, { hasAux: true }) to return more" : ""
      }`,
    );
  }
  if (value.size !== 1) {
    throw new TypeError(
      `Cannot ${what} a function whose result has shape ${
        showShape(value.shape)
      }: ${what} needs one element (reduce it, e.g. with ga.sum or ga.mean), or use ga.vjp(f, ...args) for the gradient of each element weighted by a cotangent`,
    );
  }
  if (value.dtype === "complex64" || value.dtype === "complex128") {
    throw new TypeError(
      `Cannot ${what} a function whose result is ${value.dtype}: a loss must be real; take ga.abs(z), ga.real(z) or z.mul(z.conj()).real first (or use ga.vjp with a complex cotangent)`,
    );
  }
  return value;
}

function valueAndGrads(
  what: string,
  f: (...args: never[]) => unknown,
  args: readonly unknown[],
  options: ValueAndGradOptions | undefined,
): [unknown, unknown] {
  const { list, one } = argnumsOf(what, options?.argnums, args.length);
  return tidy(() => {
    const tape = new Tape();
    const { wrapped, stand } = track(tape, args, list);
    const result = recording(tape, () => (f as (...a: unknown[]) => unknown)(...wrapped));
    let value = result;
    if (options?.hasAux === true) {
      if (!Array.isArray(result) || result.length !== 2) {
        throw new TypeError(`Cannot ${what} with hasAux: the function must return [value, aux]`);
      }
      value = result[0];
    }
    const out = scalarResult(what, value);
    const grads = out !== undefined && tape.tracked.has(out) && differentiable(out.dtype)
      ? backward(tape, out, ones(out))
      : undefined;
    const trees = gradTrees(args, list, stand, grads);
    return [result, one ? trees[0] : trees] as [unknown, unknown];
  }, (r) => r);
}

/**
 * The gradient of `f`, a function returning one element (a loss), with respect to argument 0 or those
 * in `argnums`: a function of the same arguments returning the gradient in the argument's tree shape
 * (or a list of them for a list of `argnums`). Arguments may be arrays or trees of them (plain objects
 * and lists); a leaf that is not an array gets `null`. Integer and bool arguments get zeros, as every
 * argument the result does not depend on. Whole-array reductions of a tracked array (`ga.sum(x)`) give
 * 0-d arrays inside `f`, so the loss stays on the device. Arrays `f` makes and does not return are freed
 * when the call returns.
 *
 * @throws {TypeError} when `f`'s result is not one element (naming `vjp` for the general case), or
 *   passes through an operation without a gradient rule.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([1, 2, 3]);
 * const dx = ga.grad((x: ga.GPUArray) => ga.sum(x.mul(x).mul(x)))(x); // 3x²: [3, 12, 27]
 * const d2 = ga.grad((x: ga.GPUArray) => ga.sum(ga.grad((y: ga.GPUArray) => ga.sum(y.mul(y).mul(y)))(x)))(x); // 6x
 * ```
 */
export function grad<A extends unknown[], const N extends number | readonly number[] = 0>(
  f: (...args: A) => unknown,
  options?: GradOptions<N>,
): (...args: A) => GradsOf<A, N> {
  return (...args: A) => valueAndGrads("grad", f, args, options)[1] as GradsOf<A, N>;
}

/**
 * `f`'s value and its gradient (see {@link grad}): `[value, grads]`, or with `hasAux` `[[value, aux],
 * grads]` for a function returning `[value, aux]`. The value is the 0-d array `f` returned (`Number(v)`
 * or `v.item()` reads it).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const loss = (w: ga.GPUArray, x: ga.GPUArray, y: ga.GPUArray) => ga.mean(ga.square(ga.matmul(x, w).sub(y)));
 * const x = ga.random.normal([8, 3], { seed: 1 }), y = ga.zeros([8]);
 * const [value, dw] = ga.valueAndGrad(loss)(ga.ones([3]), x, y);
 * ```
 */
export function valueAndGrad<A extends unknown[], const N extends number | readonly number[] = 0>(
  f: (...args: A) => unknown,
  options?: ValueAndGradOptions<N>,
): (...args: A) => [GPUArray, GradsOf<A, N>] {
  return (...args: A) => valueAndGrads("valueAndGrad", f, args, options) as [GPUArray, GradsOf<A, N>];
}

/** The pullback `vjp` returns: call it with a cotangent of the output's shape; `free()` its recording. */
export interface Pullback {
  /** The gradients of `⟨cotangent, f(...primals)⟩` with respect to each primal (a list, in tree shapes). */
  (cotangent: GPUArray): unknown[];
  /** Frees the arrays the forward pass made (except its output). Idempotent; the pullback cannot run after. */
  free(): void;
}

/**
 * `f`'s output at `primals` and its pullback: a function from a cotangent (an array of the output's
 * shape) to the gradient of `sum(cotangent * f(...primals))` with respect to every primal. The pullback
 * may be called more than once; `pullback.free()` frees the recording (the garbage collector does too).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [y, pullback] = ga.vjp((x: ga.GPUArray) => ga.sin(x), ga.asarray([0, 1]));
 * const [dx] = pullback(ga.ones([2])); // cos(x)
 * pullback.free();
 * ```
 */
export function vjp<A extends unknown[]>(f: (...args: A) => GPUArray, ...primals: A): [GPUArray, Pullback] {
  if (typeof f !== "function") {
    throw new TypeError(`Cannot vjp ${describe(f)}: pass the function first, then its arguments: vjp(f, x)`);
  }
  const argnums = primals.map((_, i) => i);
  const tape = new Tape();
  const made: GPUArray[] = [];
  const outer = collectArrays(made);
  let out: unknown, stand: Map<number, GPUArray[]>;
  try {
    const tracked = track(tape, primals, argnums);
    stand = tracked.stand;
    out = recording(tape, () => f(...(tracked.wrapped as A)));
  } catch (e) {
    for (const a of made) a.free();
    throw e;
  } finally {
    collectArrays(outer);
  }
  if (!(out instanceof GPUArray)) {
    for (const a of made) a.free();
    throw new TypeError(`Cannot vjp: the function must return one array, not ${typeof out}`);
  }
  const result = out;
  outer?.push(...made);
  let freed = false;
  const pullback = ((cotangent: GPUArray) => {
    if (freed) throw new TypeError("Cannot call a pullback after its free()");
    if (!(cotangent instanceof GPUArray) || cotangent.shape.join() !== result.shape.join()) {
      throw new RangeError(
        `Cannot pull back a cotangent of ${
          cotangent instanceof GPUArray ? `shape ${showShape(cotangent.shape)}` : typeof cotangent
        }: it must be an array of the output's shape ${showShape(result.shape)}`,
      );
    }
    return tidy(() => {
      const grads = tape.tracked.has(result) ? backward(tape, result, cotangent) : undefined;
      return gradTrees(primals, argnums, stand, grads);
    }, (r) => r);
  }) as Pullback;
  pullback.free = () => {
    if (freed) return;
    freed = true;
    for (const a of made) if (a !== result) a.free();
  };
  return [result, pullback];
}

/**
 * `f`'s output at `primals` and its directional derivative along `tangents` (one per primal, of its
 * shape): `[out, J·tangents]`, computed as the transpose of the pullback (two backward passes).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([0, 1, 2]);
 * const [y, t] = ga.jvp((x: ga.GPUArray) => x.mul(x), [x], [ga.ones([3])]); // t = 2x
 * ```
 */
export function jvp(
  f: (...args: GPUArray[]) => GPUArray,
  primals: readonly GPUArray[],
  tangents: readonly GPUArray[],
): [GPUArray, GPUArray] {
  if (!Array.isArray(primals) || !Array.isArray(tangents) || primals.length !== tangents.length) {
    throw new TypeError("Cannot jvp: give the primals and the tangents as two lists of equal length");
  }
  tangents.forEach((t, i) => {
    const p = primals[i]!;
    if (!(t instanceof GPUArray) || t.shape.join() !== p.shape.join()) {
      throw new RangeError(
        `Cannot jvp: tangent ${i} must be an array of primal ${i}'s shape ${showShape(p.shape)}`,
      );
    }
  });
  return tidy(() => {
    const [out, pullback] = vjp(f, ...primals);
    const tape = new Tape();
    const u = fill(
      new GPUArray(out.backend, out.shape, differentiable(out.dtype) ? out.dtype : "float32"),
      0,
    );
    tape.tracked.add(u);
    const s = recording(tape, () => {
      let total: GPUArray | undefined;
      pullback(u).forEach((g, i) => {
        if (!isTracked(g)) return;
        const term = sum((g as GPUArray).mul(tangents[i]!)) as unknown as GPUArray;
        total = total === undefined ? term : total.add(term);
      });
      return total;
    });
    const grads = s === undefined ? undefined : backward(tape, s, ones(s));
    const t = grads?.get(u) ?? fill(new GPUArray(u.backend, u.shape, u.dtype), 0);
    pullback.free();
    return [out, t.isContiguous && t.base === undefined ? t : t.copy()] as [GPUArray, GPUArray];
  }, (r) => r);
}

/**
 * `f` with a gradient rule of your own: `forward(...args)` returns `[out, residuals]` (run without
 * recording), and `backward(residuals, g)` the gradient of each argument from the output's gradient `g`
 * (undefined for none). The backward rule is array code, differentiable again where its operations are.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const clippedSquare = ga.customVjp(
 *   (x: ga.GPUArray) => x.mul(x),
 *   (x: ga.GPUArray) => [x.mul(x), x] as [ga.GPUArray, ga.GPUArray],
 *   (x: ga.GPUArray, g: ga.GPUArray) => [ga.clip(g.mul(x).mul(2), -1, 1)],
 * );
 * const dx = ga.grad((x: ga.GPUArray) => ga.sum(clippedSquare(x)))(ga.asarray([0.1, 3]));
 * ```
 */
export function customVjp<A extends GPUArray[], R>(
  f: (...args: A) => GPUArray,
  forward: (...args: A) => [GPUArray, R],
  backward: (residuals: R, g: GPUArray) => readonly (GPUArray | undefined)[],
): (...args: A) => GPUArray {
  return (...args: A) => {
    if (!args.some(isTracked)) return f(...args);
    const [out, residuals] = unrecorded(() => forward(...args));
    record("a customVjp function", args, out, (g) => backward(residuals, g));
    return out;
  };
}

/**
 * `x` as a constant: a view of the same memory through which no gradient flows.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const dx = ga.grad((x: ga.GPUArray) => ga.sum(x.mul(ga.stopGradient(x))))(ga.asarray([1, 2])); // x, not 2x
 * ```
 */
export function stopGradient<D extends GPUArray["dtype"]>(x: GPUArray<D>): GPUArray<D> {
  if (!(x instanceof GPUArray)) throw new TypeError(`Cannot stopGradient ${typeof x}: pass a GPUArray`);
  return viewOf(x, x);
}
