/**
 * The complex transforms of `ga.fft`, NumPy's `fft`, `ifft`, `fft2`, `ifft2`, `fftn` and `ifftn`: real
 * input is taken as complex (float32 and the half floats as complex64, other real dtypes as complex128).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { astype } from "../ops/assign.ts";
import {
  complexFor,
  type FftComplexDType,
  type FftnOptions,
  type FftOptions,
  options1d,
  optionsNd,
  scaleOf,
} from "./options.ts";
import { c2cAlong, extentOf, normalised, transformAxis } from "./transform.ts";

/** The 1-D complex transform `what` of `a` along the options' axis. */
function c2c(what: string, a: unknown, options: unknown, inverse: boolean): GPUArray {
  const o = options1d(what, a, options);
  const n = o.n ?? extentOf(o.a, o.axis, what);
  const y = transformAxis(o.a, o.axis, { kind: "c2c", inverse, n, dtype: complexFor(o.a.dtype) });
  return normalised(y, scaleOf(o.norm, n, inverse));
}

/**
 * The n-D complex transform `what` of `a`: a 1-D transform along each of the axes, the last first (as
 * NumPy), the whole normalisation applied once at the end.
 */
function c2cNd(what: string, a: unknown, options: unknown, inverse: boolean, axes2d: boolean): GPUArray {
  const o = optionsNd(what, a, options, axes2d);
  const dtype = complexFor(o.a.dtype);
  if (o.axes.length === 0) return astype(o.a, dtype);
  const lengths = o.axes.map((axis, i) => o.s?.[i] ?? extentOf(o.a, axis, what));
  const y = c2cAlong(o.a, o.axes, lengths, inverse, dtype);
  return normalised(y, scaleOf(o.norm, lengths.reduce((p, n) => p * n, 1), inverse));
}

/**
 * The discrete Fourier transform along one axis (NumPy's `numpy.fft.fft`):
 * `y[k] = Σ x[j]·e^(-2πi·jk/n)`, the input cut or padded with zeros to `n` along the axis. Any length
 * (primes too); real input becomes complex. A new C-contiguous array.
 *
 * @param a The input (any dtype; float32 and the half floats give complex64, the rest complex128).
 * @param options `{ n, axis, norm }`: the length (default: the axis's extent), the axis (default -1)
 *   and the normalisation (default "backward": none).
 * @throws {RangeError} for an axis out of range, an `n` that is not a positive integer, or an empty
 *   axis with no `n`.
 * @throws {TypeError} for a `norm` other than "backward", "ortho" and "forward", or an unknown option.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.fft(ga.asarray([1, 2, 3, 4]));
 * console.log(y.get()); // Float32Array [10, 0, -2, 2, -2, 0, -2, -2]: 10, -2+2j, -2, -2-2j
 * ```
 */
export function fft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftComplexDType<D>> {
  return c2c("fft", a, options, false) as GPUArray<FftComplexDType<D>>;
}

/**
 * The inverse discrete Fourier transform along one axis (NumPy's `numpy.fft.ifft`):
 * `x[j] = (1/n)·Σ y[k]·e^(2πi·jk/n)` under the default norm, so `ifft(fft(x))` is `x`.
 *
 * @param a The input (any dtype; float32 and the half floats give complex64, the rest complex128).
 * @param options `{ n, axis, norm }`: the length (default: the axis's extent), the axis (default -1)
 *   and the normalisation (default "backward": divided by `n`).
 * @throws {RangeError} for an axis out of range, an `n` that is not a positive integer, or an empty
 *   axis with no `n`.
 * @throws {TypeError} for a `norm` other than "backward", "ortho" and "forward", or an unknown option.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.fft.ifft(ga.fft.fft(ga.asarray([1, 2, 3])));
 * console.log(x.get()); // ≈ [1, 0, 2, 0, 3, 0]
 * ```
 */
export function ifft<D extends DType>(a: GPUArray<D>, options?: FftOptions): GPUArray<FftComplexDType<D>> {
  return c2c("ifft", a, options, true) as GPUArray<FftComplexDType<D>>;
}

/**
 * The 2-D discrete Fourier transform (NumPy's `numpy.fft.fft2`): {@link fftn} over the last two axes
 * unless `axes` says otherwise.
 *
 * @param a The input, at least 2-D for the default axes.
 * @param options `{ s, axes, norm }`: the lengths (default: the axes' extents), the axes (default
 *   `[-2, -1]`) and the normalisation (default "backward").
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, `s` and
 *   `axes` of different lengths, or an empty axis with no length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.fft2(ga.ones([4, 4])); // 16 at [0, 0], 0 elsewhere
 * ```
 */
export function fft2<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return c2cNd("fft2", a, options, false, true) as GPUArray<FftComplexDType<D>>;
}

/**
 * The inverse 2-D discrete Fourier transform (NumPy's `numpy.fft.ifft2`): {@link ifftn} over the last
 * two axes unless `axes` says otherwise.
 *
 * @param a The input, at least 2-D for the default axes.
 * @param options `{ s, axes, norm }`: the lengths (default: the axes' extents), the axes (default
 *   `[-2, -1]`) and the normalisation (default "backward": divided by the product of the lengths).
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, `s` and
 *   `axes` of different lengths, or an empty axis with no length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.fft.ifft2(ga.fft.fft2(ga.ones([3, 5]))); // ≈ ones
 * ```
 */
export function ifft2<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return c2cNd("ifft2", a, options, true, true) as GPUArray<FftComplexDType<D>>;
}

/**
 * The n-D discrete Fourier transform (NumPy's `numpy.fft.fftn`): a 1-D transform along each of the
 * axes (every axis by default), each cut or padded to its length in `s`.
 *
 * @param a The input (any dtype; float32 and the half floats give complex64, the rest complex128).
 * @param options `{ s, axes, norm }`: the lengths (default: the axes' extents), the axes (default: the
 *   last `s.length` where `s` is given, else all) and the normalisation (default "backward").
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, `s` and
 *   `axes` of different lengths, or an empty axis with no length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.fft.fftn(ga.ones([2, 3, 4]), { axes: [1, 2] }); // 12 at [:, 0, 0]
 * ```
 */
export function fftn<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return c2cNd("fftn", a, options, false, false) as GPUArray<FftComplexDType<D>>;
}

/**
 * The inverse n-D discrete Fourier transform (NumPy's `numpy.fft.ifftn`), so `ifftn(fftn(x))` is `x`.
 *
 * @param a The input (any dtype; float32 and the half floats give complex64, the rest complex128).
 * @param options `{ s, axes, norm }`: the lengths (default: the axes' extents), the axes (default: the
 *   last `s.length` where `s` is given, else all) and the normalisation (default "backward": divided by
 *   the product of the lengths).
 * @throws {RangeError} for an axis out of range, a length that is not a positive integer, `s` and
 *   `axes` of different lengths, or an empty axis with no length.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.fft.ifftn(ga.fft.fftn(ga.ones([2, 3, 4]))); // ≈ ones
 * ```
 */
export function ifftn<D extends DType>(a: GPUArray<D>, options?: FftnOptions): GPUArray<FftComplexDType<D>> {
  return c2cNd("ifftn", a, options, true, false) as GPUArray<FftComplexDType<D>>;
}
