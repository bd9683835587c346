/**
 * `ga.fft`: NumPy's `numpy.fft` on GPU arrays — the discrete Fourier transform and its inverse along
 * one axis (`fft`, `ifft`), over two or more (`fft2`, `fftn` and their inverses), of real signals
 * (`rfft`, `irfft`, `rfft2`, `irfft2`, `rfftn`, `irfftn`) and of Hermitian ones (`hfft`, `ihfft`), with
 * NumPy's lengths (`n`, `s`: cut or padded with zeros), axes and normalisations (`norm`), and the
 * helpers that place a spectrum's frequencies (`fftfreq`, `rfftfreq`, `fftshift`, `ifftshift`). Any
 * length works, primes too. float32 and the half floats transform in complex64, every other dtype in
 * complex128; results are new C-contiguous arrays. Every transform is differentiable (`ga.grad`, with
 * PyTorch's convention for complex gradients).
 *
 * On CUDA the transforms run on cuFFT (a plan per shape, kept for the next call); on OpenCL, and on
 * CUDA where cuFFT does not load, on the module's own kernels: Stockham passes of radix 2, 3, 4, 5, 7
 * and 8 for lengths made of those factors, Bluestein's algorithm for the others, a whole batch of
 * transforms in one launch per pass.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const t = ga.arange(64, "float64").mul(2 * Math.PI * 5 / 64);
 * const spectrum = ga.fft.rfft(ga.sin(t)); // a peak at frequency 5
 * const magnitude = ga.abs(spectrum);
 * const x = ga.fft.irfft(spectrum, { n: 64 }); // ≈ sin(t) again
 * const frequencies = ga.fft.rfftfreq(64, 1 / 64);
 * ```
 *
 * @module
 */

export { fft, fft2, fftn, ifft, ifft2, ifftn } from "./complex.ts";
export { hfft, ihfft, irfft, irfft2, irfftn, rfft, rfft2, rfftn } from "./real.ts";
export { fftfreq, fftshift, ifftshift, rfftfreq, type ShiftOptions } from "./frequencies.ts";
export type { FftComplexDType, FftnOptions, FftNorm, FftOptions, FftRealDType } from "./options.ts";
export { CufftError } from "../../device/cufft.ts";
