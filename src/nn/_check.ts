/**
 * The checks and small helpers the `nn` functions share: arguments that must be arrays of a float
 * dtype, shapes, integer tuples (`kernelSize: 3` or `[3, 5]`), options objects, and the reductions
 * of a loss. Messages name the function, the parameter and what to pass instead.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { checkOptions } from "../kernel/options.ts";

/** `[2, 3]` for messages. */
export function showShape(shape: readonly number[]): string {
  return `[${shape.join(", ")}]`;
}

/** Throws a TypeError unless `x` is a GPUArray; `what` names the call, `name` the parameter. */
export function arrayArg(x: unknown, what: string, name: string): ga.GPUArray {
  if (!(x instanceof ga.GPUArray)) {
    const kind = x === null ? "null" : Array.isArray(x) ? "a list" : typeof x;
    throw new TypeError(`Cannot ${what}: ${name} must be a GPUArray, not ${kind} (make one with ga.asarray)`);
  }
  return x;
}

/** {@link arrayArg} of a float dtype. */
export function floatArg(x: unknown, what: string, name: string): ga.GPUArray {
  const a = arrayArg(x, what, name);
  if (ga.DTYPES[a.dtype].kind !== "float") {
    throw new TypeError(
      `Cannot ${what}: ${name} has dtype ${a.dtype}; it must be a float array (convert it with .astype("float32"))`,
    );
  }
  return a;
}

/** {@link arrayArg} of an integer dtype (class indices, token ids). */
export function indexArg(x: unknown, what: string, name: string): ga.GPUArray {
  const a = arrayArg(x, what, name);
  const kind = ga.DTYPES[a.dtype].kind;
  if (kind !== "int" && kind !== "uint") {
    throw new TypeError(
      `Cannot ${what}: ${name} has dtype ${a.dtype}; it must hold integer indices (convert it with .astype("int64"))`,
    );
  }
  return a;
}

/** An optional float array argument (`weight`, `bias`): undefined for undefined or null. */
export function optionalFloat(x: unknown, what: string, name: string): ga.GPUArray | undefined {
  return x === undefined || x === null ? undefined : floatArg(x, what, name);
}

/** Throws a RangeError unless `a`'s shape is `shape`. */
export function expectShape(a: ga.GPUArray, shape: readonly number[], what: string, name: string): void {
  if (a.ndim !== shape.length || a.shape.some((d, i) => d !== shape[i])) {
    throw new RangeError(
      `Cannot ${what}: ${name} has shape ${showShape(a.shape)}; it must have shape ${showShape(shape)}`,
    );
  }
}

/** Throws a TypeError for keys of `options` not in `known` (see `checkOptions`). */
export function options<T extends object>(
  given: T | undefined,
  what: string,
  example: string,
  known: readonly string[],
): Partial<T> {
  checkOptions(given, what, example, known);
  return given ?? {};
}

/**
 * `value` as `n` integers (one number is repeated, as PyTorch's `_pair`), each at least `min`.
 *
 * @throws {RangeError} naming the parameter for a wrong length or a value out of range.
 */
export function tupleArg(value: unknown, n: number, what: string, name: string, min: number): number[] {
  const list = typeof value === "number" ? Array.from({ length: n }, () => value) : value;
  if (!Array.isArray(list) || list.length !== n || list.some((v) => !Number.isInteger(v) || v < min)) {
    throw new RangeError(
      `Cannot ${what} with ${name} ${
        JSON.stringify(value)
      }: give an integer of ${min} or more, or ${n} of them`,
    );
  }
  return list as number[];
}

/** A float in [lo, hi] (`p`, `momentum`, `labelSmoothing`). */
export function unitArg(value: unknown, what: string, name: string, lo = 0, hi = 1): number {
  if (typeof value !== "number" || !(value >= lo && value <= hi)) {
    throw new RangeError(`Cannot ${what} with ${name} ${String(value)}: pass a number from ${lo} to ${hi}`);
  }
  return value;
}

/** A finite positive number (`eps`, `beta`). */
export function positiveArg(value: unknown, what: string, name: string): number {
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`Cannot ${what} with ${name} ${String(value)}: pass a finite number above 0`);
  }
  return value;
}

/** The axes `0..ndim-1`. */
export function allAxes(x: ga.GPUArray): number[] {
  return x.shape.map((_, i) => i);
}

/** The sum of every element as a 0-d array (on the device, inside a differentiation or not). */
export function total(x: ga.GPUArray): ga.GPUArray {
  return ga.sum(x, allAxes(x));
}

/** How a loss reduces its elements: PyTorch's `reduction`. */
export type Reduction = "mean" | "sum" | "none";

/** Checks `reduction` and returns it (default "mean"). */
export function reductionArg(value: unknown, what: string): Reduction {
  const r = value ?? "mean";
  if (r !== "mean" && r !== "sum" && r !== "none") {
    throw new TypeError(
      `Cannot ${what} with reduction ${JSON.stringify(value)}: use "mean", "sum" or "none"`,
    );
  }
  return r;
}

/** `loss` reduced: its mean or sum as a 0-d array, or itself for "none". */
export function reduce(loss: ga.GPUArray, reduction: Reduction): ga.GPUArray {
  if (reduction === "none") return loss;
  const s = total(loss);
  return reduction === "sum" ? s : s.div(loss.size);
}

/** `x` reshaped so that it broadcasts along axis 1 of an array of `ndim` dimensions (a per-channel vector). */
export function perChannel(x: ga.GPUArray, ndim: number): ga.GPUArray {
  return x.reshape([1, x.size, ...Array.from({ length: Math.max(0, ndim - 2) }, () => 1)]);
}

/** A layer's size argument: a positive integer. */
export function featuresArg(value: unknown, what: string, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new RangeError(`Cannot ${what} with ${name} ${String(value)}: pass a positive integer`);
  }
  return value;
}

/** A layer's parameter dtype: a float dtype, "float32" by default. */
export function dtypeArg(value: unknown, what: string): ga.FloatDType {
  const d = value ?? "float32";
  if (d !== "float32" && d !== "float64" && d !== "float16" && d !== "bfloat16") {
    throw new TypeError(
      `Cannot ${what} with dtype ${JSON.stringify(value)}: use "float32", "float64", "float16" or "bfloat16"`,
    );
  }
  return d;
}
