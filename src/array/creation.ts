/**
 * Arrays made on the device: `zeros`, `ones`, `full`, `arange`.
 *
 * @module
 */

import { activeBackend } from "./backend.ts";
import { GPUArray, type Shape } from "./gpuarray.ts";
import { arangeInto, fill } from "./ops.ts";
import type { DType } from "../kernel/dtype.ts";

/**
 * An array of `value` everywhere (NumPy's `full`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const sevens = ga.full([2, 3], 7, "int32");
 * ```
 */
export function full<D extends DType = "float32">(
  shape: Shape,
  value: number | bigint,
  dtype?: D,
): GPUArray<D> {
  const out = new GPUArray(activeBackend(), shape, (dtype ?? "float32") as D);
  fill(out, value);
  return out;
}

/**
 * An array of zeros (PyCUDA's `gpuarray.zeros`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.zeros([1000, 1000]);
 * ```
 */
export function zeros<D extends DType = "float32">(shape: Shape, dtype?: D): GPUArray<D> {
  return full(shape, 0, dtype);
}

/**
 * An array of ones.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const o = ga.ones(16, "float64");
 * ```
 */
export function ones<D extends DType = "float32">(shape: Shape, dtype?: D): GPUArray<D> {
  return full(shape, 1, dtype);
}

/**
 * Evenly spaced values `start, start + step, ...` below `stop` (NumPy's `arange`); `arange(n)`
 * counts from 0.
 *
 * @throws {RangeError} for a zero step.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.arange(5).get()); // Float32Array [0, 1, 2, 3, 4]
 * console.log(ga.arange(1, 2, 0.25, "float64").get()); // Float64Array [1, 1.25, 1.5, 1.75]
 * ```
 */
export function arange<D extends DType = "float32">(
  start: number,
  stop?: number,
  step = 1,
  dtype?: D,
): GPUArray<D> {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0 || !Number.isFinite(step)) {
    throw new RangeError(`Cannot arange() with step ${step}: give a non-zero finite step`);
  }
  const n = Math.max(0, Math.ceil((to - from) / step));
  const out = new GPUArray(activeBackend(), n, (dtype ?? "float32") as D);
  arangeInto(out, from, step);
  return out;
}
