/**
 * What a backend's vendor FFT (cuFFT on CUDA) does for `ga.fft`: batches of unnormalised 1-D discrete
 * Fourier transforms between buffers, complex to complex, real to complex (the first `n / 2 + 1`
 * outputs of each, the rest being their conjugates) and back, with cuFFT's advanced data layout. The
 * array module's own kernels (`src/array/fft/`) take the same jobs where a backend has none.
 *
 * @module
 */

import type { BackendBuffer } from "./backend.ts";

/**
 * Where the transforms of a batch lie in a buffer: element `k` of transform `b` is element
 * `offset + b * dist + k * stride` of the buffer, counted in elements of that side's dtype (complex
 * elements for a complex side, real ones for a real side).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros([8, 16], "complex64"); // 8 transforms of 16 along the last axis
 * const rows: ga.FftLayout = { buffer: x.buffer, offset: 0, stride: 1, dist: 16 };
 * const columns: ga.FftLayout = { buffer: x.buffer, offset: 0, stride: 16, dist: 1 }; // 16 of 8
 * ```
 */
export interface FftLayout {
  /** The device memory. */
  readonly buffer: BackendBuffer;
  /** Elements before the first transform's first element. */
  readonly offset: number;
  /** Elements from one element of a transform to the next (at least 1). */
  readonly stride: number;
  /** Elements from one transform to the next (at least 1). */
  readonly dist: number;
}

/**
 * One batch of transforms of length `n`. `"c2c"` reads and writes `n` complex values a transform;
 * `"r2c"` reads `n` reals and writes the `n / 2 + 1` (rounded down, plus one) complex values that
 * determine the rest; `"c2r"` reads those and writes the `n` reals of the inverse transform (the
 * imaginary parts of the first value, and of the middle one where `n` is even, are ignored). Nothing is
 * scaled: the forward transform is `X[k] = Σ x[j] e^(-2πi jk/n)`, the inverse has `+` and no `1/n`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros([4, 32], "complex64"), y = ga.emptyLike(x);
 * const job: ga.FftJob = {
 *   kind: "c2c", dtype: "complex64", n: 32, batch: 4, inverse: false,
 *   input: { buffer: x.buffer, offset: 0, stride: 1, dist: 32 },
 *   output: { buffer: y.buffer, offset: 0, stride: 1, dist: 32 },
 * };
 * ```
 */
export interface FftJob {
  /** Complex to complex, real to complex (forward), or complex to real (inverse). */
  readonly kind: "c2c" | "r2c" | "c2r";
  /** The dtype of the complex side; the real side is float32 for complex64 and float64 for complex128. */
  readonly dtype: "complex64" | "complex128";
  /** The length of each transform (at least 1). */
  readonly n: number;
  /** The number of transforms (at least 1). */
  readonly batch: number;
  /** For `"c2c"`: the inverse transform (`e^(+2πi jk/n)`) instead of the forward one. */
  readonly inverse: boolean;
  /** Where the transforms' inputs are. They are only read, and do not overlap the output. */
  readonly input: FftLayout;
  /** Where their outputs go. */
  readonly output: FftLayout;
}

/**
 * A vendor FFT of a backend (cuFFT on CUDA): batches of 1-D transforms queued on the current stream.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const fft: ga.Fft | undefined = ga.zeros(1).backend.fft; // cuFFT on CUDA, undefined on OpenCL
 * console.log(fft?.name);
 * ```
 */
export interface Fft {
  /** What it is, for messages: `cuFFT 12.0.0`. */
  readonly name: string;
  /** Queues `job`. */
  execute(job: FftJob): void;
}
