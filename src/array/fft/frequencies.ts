/**
 * The helpers of `ga.fft` that place a spectrum's values: the frequency of each (NumPy's `fftfreq`,
 * `rfftfreq`) and the shifts that move the zero frequency to the middle and back (`fftshift`,
 * `ifftshift`).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, type GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { normalizeAxes } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { toGpu } from "../routines/creation.ts";
import { roll } from "../routines/shapes.ts";
import { copy } from "../ops/views.ts";

/**
 * The options of {@link fftshift} and {@link ifftshift}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.fft.ShiftOptions = { axes: 1 };
 * const s = ga.fft.fftshift(ga.arange(6).reshape(2, 3), options);
 * ```
 */
export interface ShiftOptions {
  /** The axis (a number; negative counts from the end) or axes (a list) to shift. Default: every axis. */
  readonly axes?: number | readonly number[];
}

/** `n` and `d` of {@link fftfreq} and {@link rfftfreq}, checked. */
function checkSpacing(what: string, n: unknown, d: unknown): void {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) {
    const error = typeof n === "number" ? RangeError : TypeError;
    throw new error(`Cannot ${what} with n ${describe(n)}: n must be a positive integer (the window length)`);
  }
  if (typeof d !== "number" || !Number.isFinite(d) || d === 0) {
    const error = typeof d === "number" ? RangeError : TypeError;
    throw new error(`Cannot ${what} with d ${describe(d)}: d must be a finite, nonzero sample spacing`);
  }
}

/**
 * The frequency of each value of an `n`-point spectrum (NumPy's `numpy.fft.fftfreq`), in cycles per
 * unit of the sample spacing `d`: `[0, 1, …, ⌈n/2⌉ - 1, -⌊n/2⌋, …, -1] / (d·n)`, float64.
 *
 * @param n The window length.
 * @param d The sample spacing (the inverse of the sampling rate). Default 1.
 * @throws {RangeError} for an `n` that is not a positive integer, or a `d` of 0 or not finite.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.fft.fftfreq(5, 0.1).get()); // Float64Array [0, 2, 4, -4, -2]
 * ```
 */
export function fftfreq(n: number, d = 1): GPUArray<"float64"> {
  checkSpacing("fftfreq", n, d);
  const scale = 1 / (n * d), positive = Math.floor((n - 1) / 2) + 1;
  return toGpu(Float64Array.from({ length: n }, (_, i) => (i < positive ? i : i - n) * scale));
}

/**
 * The frequency of each value of {@link rfft}'s half spectrum of an `n`-point signal (NumPy's
 * `numpy.fft.rfftfreq`): `[0, 1, …, ⌊n/2⌋] / (d·n)`, float64.
 *
 * @param n The window length.
 * @param d The sample spacing (the inverse of the sampling rate). Default 1.
 * @throws {RangeError} for an `n` that is not a positive integer, or a `d` of 0 or not finite.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.fft.rfftfreq(5, 0.1).get()); // Float64Array [0, 2, 4]
 * ```
 */
export function rfftfreq(n: number, d = 1): GPUArray<"float64"> {
  checkSpacing("rfftfreq", n, d);
  const scale = 1 / (n * d);
  return toGpu(Float64Array.from({ length: Math.floor(n / 2) + 1 }, (_, i) => i * scale));
}

/** `x` rolled along the options' axes by `sign · ⌊extent / 2⌋` each. */
function shift<D extends DType>(what: string, x: GPUArray<D>, options: unknown, sign: 1 | -1): GPUArray<D> {
  arrayArg(x, what);
  const o = optionsOf<ShiftOptions>(what, [options], [], ["axes"], "{ axes: [0, 1] }");
  const axes = normalizeAxes(o.axes, x.ndim, what);
  if (axes.length === 0) return copy(x);
  return roll(x, axes.map((axis) => sign * Math.floor(x.shape[axis]! / 2)), axes);
}

/**
 * A spectrum with its zero frequency moved to the middle (NumPy's `numpy.fft.fftshift`): each axis
 * rolled by half its extent (rounded down). A new C-contiguous array.
 *
 * @param x The spectrum (any dtype).
 * @param options `{ axes }`: the axes to shift (default: all).
 * @throws {RangeError} for an axis out of range or given twice.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.fft.fftshift(ga.fft.fftfreq(5)).get()); // [-0.4, -0.2, 0, 0.2, 0.4]
 * ```
 */
export function fftshift<D extends DType>(x: GPUArray<D>, options?: ShiftOptions): GPUArray<D> {
  return shift("fftshift", x, options, 1);
}

/**
 * The inverse of {@link fftshift} (NumPy's `numpy.fft.ifftshift`): the zero frequency moved from the
 * middle back to the start; the two differ for odd extents. A new C-contiguous array.
 *
 * @param x The shifted spectrum (any dtype).
 * @param options `{ axes }`: the axes to shift back (default: all).
 * @throws {RangeError} for an axis out of range or given twice.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const f = ga.fft.fftfreq(5);
 * console.log(ga.fft.ifftshift(ga.fft.fftshift(f)).get()); // f's values again
 * ```
 */
export function ifftshift<D extends DType>(x: GPUArray<D>, options?: ShiftOptions): GPUArray<D> {
  return shift("ifftshift", x, options, -1);
}
