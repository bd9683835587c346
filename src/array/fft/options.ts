/**
 * The options of `ga.fft`'s transforms, NumPy's parameters as objects (`{ n, axis, norm }` for the
 * 1-D transforms, `{ s, axes, norm }` for the n-D ones), their checks and what they resolve to: the
 * axes as non-negative indices, each transform's length, and the scale a normalisation gives.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, type GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import type { RealOf } from "../core/dtypes.ts";

/**
 * How a transform is scaled, as NumPy's `norm`: `"backward"` (the default) leaves the forward
 * transform unscaled and divides the inverse by `n`; `"ortho"` divides both by `√n`; `"forward"`
 * divides the forward transform by `n` and leaves the inverse unscaled.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const norm: ga.fft.FftNorm = "ortho";
 * const y = ga.fft.fft(ga.ones([8], "complex64"), { norm }); // [√8, 0, …]
 * ```
 */
export type FftNorm = "backward" | "ortho" | "forward";

/**
 * The options of the 1-D transforms (`fft`, `ifft`, `rfft`, `irfft`, `hfft`, `ihfft`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.fft.FftOptions = { n: 16, axis: 0, norm: "ortho" };
 * const y = ga.fft.fft(ga.ones([10, 3], "complex64"), options); // shape [16, 3]
 * ```
 */
export interface FftOptions {
  /**
   * The length of the transform (for `irfft` and `hfft`, of the real output): the input is cut to it
   * along the axis, or padded with zeros. Default: the axis's extent (for `irfft` and `hfft`,
   * `2 · (extent - 1)`).
   */
  readonly n?: number;
  /** The axis to transform (negative counts from the end). Default: -1, the last. */
  readonly axis?: number;
  /** The normalisation. Default: `"backward"`. */
  readonly norm?: FftNorm;
}

/**
 * The options of the n-D transforms (`fft2`, `fftn` and their inverses and real forms).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.fft.FftnOptions = { s: [8, 8], axes: [0, 1] };
 * const y = ga.fft.fftn(ga.ones([5, 6, 2], "complex64"), options); // shape [8, 8, 2]
 * ```
 */
export interface FftnOptions {
  /**
   * The length of the transform along each of `axes` (for `irfftn`, the last is the real output's):
   * the input is cut or padded with zeros to it. Default: the axes' extents (for `irfftn`, the last
   * `2 · (extent - 1)`).
   */
  readonly s?: readonly number[];
  /**
   * The axes to transform, in order (negative counts from the end). Default: the last `s.length`
   * where `s` is given, else every axis (`fft2` and its kin: `[-2, -1]`).
   */
  readonly axes?: readonly number[];
  /** The normalisation. Default: `"backward"`. */
  readonly norm?: FftNorm;
}

/**
 * The complex dtype a transform of an array of dtype `D` gives, as NumPy's: complex64 for float32,
 * complex64 and the half floats, complex128 for every other dtype (float64, integers, bool).
 *
 * @example
 * ```ts
 * import type * as ga from "@cudeno/cudeno/array";
 * const d: ga.fft.FftComplexDType<"int16"> = "complex128";
 * ```
 */
export type FftComplexDType<D extends DType> = D extends "float32" | "float16" | "bfloat16" | "complex64"
  ? "complex64"
  : "complex128";

/**
 * The real dtype the transforms back to real values (`irfft`, `hfft`) give for input of dtype `D`:
 * the parts of {@link FftComplexDType}.
 *
 * @example
 * ```ts
 * import type * as ga from "@cudeno/cudeno/array";
 * const d: ga.fft.FftRealDType<"complex64"> = "float32";
 * ```
 */
export type FftRealDType<D extends DType> = RealOf<FftComplexDType<D>>;

/** The complex dtype of a transform of `dtype` ({@link FftComplexDType}). */
export function complexFor(dtype: DType): "complex64" | "complex128" {
  return dtype === "float32" || dtype === "float16" || dtype === "bfloat16" || dtype === "complex64"
    ? "complex64"
    : "complex128";
}

/** A 1-D transform's array and options, checked: the axis (non-negative), the length where given, the normalisation. */
export interface Resolved1d {
  readonly a: GPUArray;
  readonly axis: number;
  readonly n: number | undefined;
  readonly norm: FftNorm;
}

/** An n-D transform's array and options, checked: the axes (non-negative, in order), their lengths where given, the normalisation. */
export interface ResolvedNd {
  readonly a: GPUArray;
  readonly axes: readonly number[];
  readonly s: readonly number[] | undefined;
  readonly norm: FftNorm;
}

/** `a`'s axis `axis` as a non-negative index, for transform `what`. */
function axisOf(a: GPUArray, axis: unknown, what: string): number {
  const ndim = a.ndim;
  if (typeof axis !== "number" || !Number.isInteger(axis)) {
    throw new TypeError(`Cannot ${what} along axis ${describe(axis)}: axis must be an integer`);
  }
  if (axis < -ndim || axis >= ndim) {
    throw new RangeError(
      `Cannot ${what} along axis ${axis} of an array of shape ${showShape(a.shape)}: ${
        ndim === 0
          ? "a 0-d array has no axes; reshape it to 1-D first"
          : `use an axis from ${-ndim} to ${ndim - 1}`
      }`,
    );
  }
  return axis < 0 ? axis + ndim : axis;
}

/** `value`, a transform length named `name`, checked to be a positive integer. */
function lengthOf(value: unknown, name: string, what: string): number {
  if (typeof value !== "number") {
    throw new TypeError(`Cannot ${what} with ${name} ${describe(value)}: ${name} must be a positive integer`);
  }
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`Cannot ${what} with ${name} ${value}: ${name} must be a positive integer`);
  }
  return value;
}

function normOf(norm: unknown, what: string): FftNorm {
  if (norm === undefined || norm === null) return "backward";
  if (norm === "backward" || norm === "ortho" || norm === "forward") return norm;
  throw new TypeError(
    `Cannot ${what} with norm ${describe(norm)}: norm must be "backward", "ortho" or "forward"`,
  );
}

/** The array and checked options of 1-D transform `what`. */
export function options1d(what: string, a: unknown, options: unknown): Resolved1d {
  const x = arrayArg(a, what);
  const o = optionsOf<FftOptions>(what, [options], [], ["n", "axis", "norm"], "{ n: 64, axis: -1 }");
  return {
    a: x,
    axis: axisOf(x, o.axis ?? -1, what),
    n: o.n === undefined ? undefined : lengthOf(o.n, "n", what),
    norm: normOf(o.norm, what),
  };
}

/** A list of integers named `name`, or undefined where not given. */
function listOf(value: unknown, name: string, what: string): readonly number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    throw new TypeError(`Cannot ${what} with ${name} ${describe(value)}: ${name} must be a list of integers`);
  }
  return value;
}

/**
 * The array and checked options of n-D transform `what`; `axes2d`: the default axes are the last two
 * (`fft2` and its kin) instead of all.
 */
export function optionsNd(what: string, a: unknown, options: unknown, axes2d: boolean): ResolvedNd {
  const x = arrayArg(a, what);
  const o = optionsOf<FftnOptions>(
    what,
    [options],
    [],
    ["s", "axes", "norm"],
    "{ s: [64, 64], axes: [0, 1] }",
  );
  const s = listOf(o.s, "s", what)?.map((v, i) => lengthOf(v, `s[${i}]`, what));
  const given = listOf(o.axes, "axes", what);
  const axes = (given ??
    (s !== undefined ? s.map((_, i) => i - s.length) : axes2d ? [-2, -1] : x.shape.map((_, i) => i)))
    .map((axis) => axisOf(x, axis, what));
  if (s !== undefined && s.length !== axes.length) {
    throw new RangeError(
      `Cannot ${what} with s [${s.join(", ")}] and axes [${
        (given ?? axes).join(", ")
      }]: give one length per axis`,
    );
  }
  return { a: x, axes, s, norm: normOf(o.norm, what) };
}

/**
 * The scale of a transform over `count` points (the product of its lengths) under `norm`: 1, `1/√count`
 * or `1/count`, the last for the forward transform under `"forward"` and the inverse under `"backward"`.
 */
export function scaleOf(norm: FftNorm, count: number, inverse: boolean): number {
  if (norm === "ortho") return 1 / Math.sqrt(count);
  return (norm === "forward") !== inverse ? 1 / count : 1;
}

/** `norm` for the transform in the other direction (`hfft` is `irfft` of the conjugate, under the swapped norm). */
export function swapDirection(norm: FftNorm): FftNorm {
  return norm === "backward" ? "forward" : norm === "forward" ? "backward" : "ortho";
}
