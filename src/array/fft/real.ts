/**
 * The transforms of `ga.fft` between real signals and the half spectra that determine theirs
 * (NumPy's `rfft`, `irfft`, `rfft2`, `irfft2`, `rfftn`, `irfftn`), and of Hermitian signals
 * (`hfft`, `ihfft`): a real signal of length `n` has a spectrum with `X[n - k] = conj(X[k])`, so only
 * its first `n / 2 + 1` values (rounded down, plus one) are computed, stored and read back.
 *
 * @module
 */

import { isTracked } from "../grad/tape.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { conj } from "../api/elementwise.ts";
import {
  complexFor,
  type FftComplexDType,
  type FftnOptions,
  type FftNorm,
  type FftOptions,
  type FftRealDType,
  options1d,
  optionsNd,
  scaleOf,
  swapDirection,
} from "./options.ts";
import { c2cAlong, extentOf, normalised, transformAxis } from "./transform.ts";

/** Throws where transform `what` is given complex input, which it does not take. */
function checkReal(a: GPUArray, what: string, instead: string): void {
  if (DTYPES[a.dtype].kind === "complex") {
    throw new TypeError(
      `Cannot ${what} a ${a.dtype} array of shape ${
        showShape(a.shape)
      }: ${what} takes real input; ${instead}`,
    );
  }
}

/** The length of a real output along `axis` of `a`: `n` where given, else `2 · (extent - 1)`, which must be positive. */
function realLength(a: GPUArray, axis: number, n: number | undefined, what: string, name: string): number {
  if (n !== undefined) return n;
  const extent = extentOf(a, axis, what), length = 2 * (extent - 1);
  if (length < 1) {
    throw new RangeError(
      `Cannot ${what} along axis ${axis} of an array of shape ${
        showShape(a.shape)
      }: the default ${name}, 2·(${extent} - 1) = 0, is not positive; give ${name} (the length of the real output)`,
    );
  }
  return length;
}

/** `rfft` of checked options, scaled under `norm`. */
function forwardReal(
  a: GPUArray,
  axis: number,
  n: number | undefined,
  norm: FftNorm,
  what: string,
): GPUArray {
  const length = n ?? extentOf(a, axis, what);
  const y = transformAxis(a, axis, { kind: "r2c", inverse: false, n: length, dtype: complexFor(a.dtype) });
  return normalised(y, scaleOf(norm, length, false));
}

/** `irfft` of checked options, scaled under `norm`. */
function inverseReal(
  a: GPUArray,
  axis: number,
  n: number | undefined,
  norm: FftNorm,
  what: string,
): GPUArray {
  const length = realLength(a, axis, n, what, "n");
  const y = transformAxis(a, axis, { kind: "c2r", inverse: true, n: length, dtype: complexFor(a.dtype) });
  return normalised(y, scaleOf(norm, length, true));
}

/**
 * The n-D transform `what` of real input: `rfft` along the last of the axes, then complex transforms
 * along the others.
 */
function forwardRealNd(what: string, a: unknown, options: unknown, axes2d: boolean): GPUArray {
  const o = optionsNd(what, a, options, axes2d);
  checkReal(o.a, what, `for complex input use ${what.replace("rfft", "fft")}`);
  if (o.axes.length === 0) throw new RangeError(`Cannot ${what} over no axes: give at least one`);
  const lengths = o.axes.map((axis, i) => o.s?.[i] ?? extentOf(o.a, axis, what));
  const last = o.axes.length - 1, dtype = complexFor(o.a.dtype);
  const half = transformAxis(o.a, o.axes[last]!, { kind: "r2c", inverse: false, n: lengths[last]!, dtype });
  const y = c2cAlong(half, o.axes.slice(0, last), lengths.slice(0, last), false, dtype);
  if (y !== half) half.free();
  return normalised(y, scaleOf(o.norm, lengths.reduce((p, n) => p * n, 1), false));
}

/**
 * The n-D transform `what` back to real output: complex inverse transforms along all but the last of
 * the axes, then `irfft` along the last.
 */
function inverseRealNd(what: string, a: unknown, options: unknown, axes2d: boolean): GPUArray {
  const o = optionsNd(what, a, options, axes2d);
  if (o.axes.length === 0) throw new RangeError(`Cannot ${what} over no axes: give at least one`);
  const last = o.axes.length - 1, dtype = complexFor(o.a.dtype);
  const lengths = o.axes.map((axis, i) =>
    i === last
      ? realLength(o.a, axis, o.s?.[i], what, "last length of s")
      : o.s?.[i] ?? extentOf(o.a, axis, what)
  );
  const full = c2cAlong(o.a, o.axes.slice(0, last), lengths.slice(0, last), true, dtype);
  const y = transformAxis(full, o.axes[last]!, { kind: "c2r", inverse: true, n: lengths[last]!, dtype });
  if (full !== o.a) full.free();
  return normalised(y, scaleOf(o.norm, lengths.reduce((p, n) => p * n, 1), true));
}

/**
 * The discrete Fourier transform of real input along one axis, only its first `n / 2 + 1` values
 * (rounded down, plus one: the rest are their conjugates), as NumPy's `numpy.fft.rfft`. A new
 * C-contiguous complex array.
 *
 * @param a Real input (float32 and the half floats give complex64, the other real dtypes complex128).
 * @param options `{ n, axis, norm }`: the length of the real input (cut or padded with zeros; default:
 *   the axis's extent), the axis (default -1) and the normalisation (default "backward": none).
 * @throws {TypeError} for complex input (use {@link fft}), a `norm` other than "backward", "ortho" and
 *   "forward", or an unknown option.
 * @throws {RangeError} for an axis out of range, an `n` that is not a positive integer, or an empty
 *   axis with no `n`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.rfft(ga.asarray([1, 2, 3, 4]));
 * console.log(y.shape, y.get()); // [3] Float32Array [10, 0, -2, 2, -2, 0]
 * ```
 */
export function rfft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftComplexDType<D>> {
  const o = options1d("rfft", a, options);
  checkReal(o.a, "rfft", "for complex input use fft");
  return forwardReal(o.a, o.axis, o.n, o.norm, "rfft") as GPUArray<FftComplexDType<D>>;
}

/**
 * The inverse of {@link rfft} (NumPy's `numpy.fft.irfft`): the `n` real values whose spectrum's first
 * `n / 2 + 1` values are the input's (cut or padded with zeros to that many), the rest being their
 * conjugates. The imaginary parts of the first value, and of the middle one for even `n`, are
 * ignored. Give `n` to get an odd length back: the default is `2 · (extent - 1)`.
 *
 * @param a The half spectrum (real input is taken as complex).
 * @param options `{ n, axis, norm }`: the length of the real output (default `2 · (extent - 1)`), the
 *   axis (default -1) and the normalisation (default "backward": divided by `n`).
 * @throws {RangeError} for an axis out of range, or an `n` that is not a positive integer (or a
 *   default of 0, from an axis of extent 1).
 * @throws {TypeError} for a `norm` other than "backward", "ortho" and "forward", or an unknown option.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([1, 2, 3, 4, 5]);
 * const back = ga.fft.irfft(ga.fft.rfft(x), { n: 5 }); // ≈ [1, 2, 3, 4, 5], float32
 * ```
 */
export function irfft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftRealDType<D>> {
  const o = options1d("irfft", a, options);
  return inverseReal(o.a, o.axis, o.n, o.norm, "irfft") as GPUArray<FftRealDType<D>>;
}

/**
 * {@link rfftn} over the last two axes unless `axes` says otherwise (NumPy's `numpy.fft.rfft2`).
 *
 * @param a Real input, at least 2-D for the default axes.
 * @param options `{ s, axes, norm }`: the lengths (default: the axes' extents), the axes (default
 *   `[-2, -1]`) and the normalisation (default "backward").
 * @throws {TypeError} for complex input (use {@link fft2}).
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, or `s` and
 *   `axes` of different lengths.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.rfft2(ga.ones([4, 6])); // shape [4, 4]: 24 at [0, 0]
 * ```
 */
export function rfft2<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return forwardRealNd("rfft2", a, options, true) as GPUArray<FftComplexDType<D>>;
}

/**
 * {@link irfftn} over the last two axes unless `axes` says otherwise (NumPy's `numpy.fft.irfft2`).
 *
 * @param a The half spectrum, at least 2-D for the default axes.
 * @param options `{ s, axes, norm }`: the lengths of the real output (default: the axes' extents, the
 *   last `2 · (extent - 1)`), the axes (default `[-2, -1]`) and the normalisation (default
 *   "backward").
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, or `s` and
 *   `axes` of different lengths.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.fft.irfft2(ga.fft.rfft2(ga.ones([4, 6])), { s: [4, 6] }); // ≈ ones
 * ```
 */
export function irfft2<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftRealDType<D>> {
  return inverseRealNd("irfft2", a, options, true) as GPUArray<FftRealDType<D>>;
}

/**
 * The n-D discrete Fourier transform of real input (NumPy's `numpy.fft.rfftn`): {@link rfft} along the
 * last of the axes, then complex transforms along the others, so the last axis holds
 * `s.at(-1) / 2 + 1` values (rounded down, plus one).
 *
 * @param a Real input (float32 and the half floats give complex64, the other real dtypes complex128).
 * @param options `{ s, axes, norm }`: the lengths of the real input (default: the axes' extents), the
 *   axes (default: the last `s.length` where `s` is given, else all) and the normalisation (default
 *   "backward").
 * @throws {TypeError} for complex input (use {@link fftn}).
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, `s` and
 *   `axes` of different lengths, no axes, or an empty axis with no length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.rfftn(ga.ones([2, 3, 4])); // shape [2, 3, 3]: 24 at [0, 0, 0]
 * ```
 */
export function rfftn<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return forwardRealNd("rfftn", a, options, false) as GPUArray<FftComplexDType<D>>;
}

/**
 * The inverse of {@link rfftn} (NumPy's `numpy.fft.irfftn`): complex inverse transforms along all but
 * the last of the axes, then {@link irfft} along the last. Give `s` to get odd lengths back: the last
 * axis's default is `2 · (extent - 1)`.
 *
 * @param a The half spectrum (real input is taken as complex).
 * @param options `{ s, axes, norm }`: the lengths of the real output (default: the axes' extents, the
 *   last `2 · (extent - 1)`), the axes (default: the last `s.length` where `s` is given, else all) and
 *   the normalisation (default "backward": divided by the product of the lengths).
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer (or a
 *   default of 0), `s` and `axes` of different lengths, or no axes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.ones([2, 3, 5]);
 * const back = ga.fft.irfftn(ga.fft.rfftn(x), { s: [2, 3, 5] }); // ≈ ones
 * ```
 */
export function irfftn<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftRealDType<D>> {
  return inverseRealNd("irfftn", a, options, false) as GPUArray<FftRealDType<D>>;
}

/**
 * The discrete Fourier transform of a Hermitian signal (NumPy's `numpy.fft.hfft`): the input is the
 * first half of a signal whose second half is its conjugate, and the spectrum, real, has `n` values
 * (default `2 · (extent - 1)`). It is {@link irfft} of the conjugate under the opposite norm.
 *
 * @param a The first half of the signal (real input is taken as complex).
 * @param options `{ n, axis, norm }`: the length of the output (default `2 · (extent - 1)`), the axis
 *   (default -1) and the normalisation (default "backward": none).
 * @throws {RangeError} for an axis out of range, or an `n` that is not a positive integer (or a
 *   default of 0).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.fft.hfft(ga.asarray([1, 2, 3])).get()); // Float32Array [8, -2, 0, -2]
 * ```
 */
export function hfft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftRealDType<D>> {
  const o = options1d("hfft", a, options);
  using conjugate = conj(o.a);
  return inverseReal(conjugate, o.axis, o.n, swapDirection(o.norm), "hfft") as GPUArray<FftRealDType<D>>;
}

/**
 * The inverse of {@link hfft} (NumPy's `numpy.fft.ihfft`): the first `n / 2 + 1` values of the inverse
 * transform of real input, the conjugate of {@link rfft} under the opposite norm.
 *
 * @param a Real input (float32 and the half floats give complex64, the other real dtypes complex128).
 * @param options `{ n, axis, norm }`: the length of the input (cut or padded with zeros; default: the
 *   axis's extent), the axis (default -1) and the normalisation (default "backward": divided by `n`).
 * @throws {TypeError} for complex input.
 * @throws {RangeError} for an axis out of range, an `n` that is not a positive integer, or an empty
 *   axis with no `n`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.ihfft(ga.asarray([8, -2, 0, -2])); // [1, 2, 3] as complex64
 * ```
 */
export function ihfft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftComplexDType<D>> {
  const o = options1d("ihfft", a, options);
  checkReal(o.a, "ihfft", "take the real part first");
  const y = forwardReal(o.a, o.axis, o.n, swapDirection(o.norm), "ihfft");
  return (isTracked(y) ? conj(y) : conj(y, { out: y })) as GPUArray<FftComplexDType<D>>;
}
