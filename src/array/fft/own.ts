/**
 * The array module's own FFT ({@link Fft}), run where a backend has no vendor FFT (OpenCL, or CUDA
 * without cuFFT): lengths whose prime factors are 2, 3, 5 and 7 as Stockham autosort passes, one
 * launch per pass covering the whole batch; every other length by Bluestein's algorithm, a convolution
 * with a chirp taken through power-of-two transforms of at least `2n - 1` points.
 *
 * @module
 */

import type { Backend, BackendBuffer, KernelSource } from "../../device/backend.ts";
import type { Fft, FftJob, FftLayout } from "../../device/fft.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import type { ComplexDType } from "../core/dtypes.ts";
import {
  chirpFilterSource,
  chirpInSource,
  chirpOutSource,
  FFT_BLOCK,
  type LoadMode,
  passSource,
  pointwiseSource,
  type StoreMode,
} from "./own_source.ts";

/** The longest transform the own kernels take (their indices within a transform are 32-bit). */
export const MAX_OWN_LENGTH = 2 ** 29;

/**
 * The radices of the Stockham passes of a transform of length `n` (8s first, so the fewest passes),
 * `[1]` for a length of 1; undefined where `n` has a prime factor other than 2, 3, 5 and 7.
 *
 * @example
 * ```ts
 * import { radices } from "./own.ts";
 * console.log(radices(96), radices(11)); // [3, 8, 4] undefined
 * ```
 */
export function radices(n: number): number[] | undefined {
  const out: number[] = [];
  let rest = n;
  for (const r of [7, 5, 3]) {
    for (; rest % r === 0; rest /= r) out.push(r);
  }
  for (const r of [8, 4, 2]) {
    for (; rest % r === 0; rest /= r) out.push(r);
  }
  if (rest !== 1) return undefined;
  return out.length === 0 ? [1] : out;
}

/** A batch of transforms as the kernels see one: a job's, or one of Bluestein's inner ones. */
interface Transform {
  readonly dtype: ComplexDType;
  readonly n: number;
  readonly batch: number;
  /** -1 for the forward transform, 1 for the inverse. */
  readonly sgn: number;
  readonly input: FftLayout;
  readonly load: LoadMode;
  readonly output: FftLayout;
  readonly store: StoreMode;
}

/** How each kind of job reads, writes and turns. */
const KINDS: Readonly<Record<FftJob["kind"], { load: LoadMode; store: StoreMode }>> = {
  c2c: { load: "complex", store: "complex" },
  r2c: { load: "real", store: "half" },
  c2r: { load: "hermitian", store: "real" },
};

/** Queues kernel `key` (made by `make`) with a thread per `total`. */
function launch(
  backend: Backend,
  key: string,
  make: () => KernelSource,
  total: number,
  args: readonly unknown[],
): void {
  backend.kernel(`fft:${key}`, make).launch({ grid: Math.ceil(total / FFT_BLOCK), block: FFT_BLOCK }, args);
}

/** Device memory for the length of one call, each buffer given back once the work using it is queued. */
class Scratch implements Disposable {
  readonly #backend: Backend;
  readonly #buffers: BackendBuffer[] = [];

  constructor(backend: Backend) {
    this.#backend = backend;
  }

  /** A buffer of `elements` of complex `dtype`. */
  take(elements: number, dtype: ComplexDType): BackendBuffer {
    const buffer = this.#backend.alloc(elements * DTYPES[dtype].size);
    this.#buffers.push(buffer);
    return buffer;
  }

  [Symbol.dispose](): void {
    for (const buffer of this.#buffers) buffer.free();
  }
}

/** A contiguous batch of transforms of length `n` in `buffer`. */
const contiguous = (buffer: BackendBuffer, n: number): FftLayout => ({
  buffer,
  offset: 0,
  stride: 1,
  dist: n,
});

/**
 * `t` as Stockham passes of `factors`. The passes between the first and the last go back and forth
 * between `scratch` (allocated where not given: `batch · n` values) and the output where the output
 * holds complex values, else a second scratch buffer; the input is only read.
 */
function stockham(backend: Backend, t: Transform, factors: readonly number[], scratch?: BackendBuffer): void {
  const { dtype, n, batch } = t, count = factors.length, dialect = backend.dialect;
  using own = new Scratch(backend);
  const pool: FftLayout[] = [];
  if (count >= 2) pool.push(contiguous(scratch ?? own.take(batch * n, dtype), n));
  if (count >= 3) pool.push(t.store === "complex" ? t.output : contiguous(own.take(batch * n, dtype), n));
  let src = t.input, p = 1;
  factors.forEach((r, k) => {
    const last = k === count - 1;
    // The last pass writes the output, the one before pool[0], and so on back, alternating.
    const dst = last ? t.output : pool[(count - 2 - k) % 2]!;
    const load = k === 0 ? t.load : "complex", store = last ? t.store : "complex";
    const threads = (batch * n) / r;
    launch(
      backend,
      `pass:${dtype}:${r}:${load}:${store}`,
      () => passSource(dialect, dtype, r, load, store),
      threads,
      [
        src.buffer,
        src.offset,
        src.stride,
        src.dist,
        dst.buffer,
        dst.offset,
        dst.stride,
        dst.dist,
        n,
        p,
        threads,
        t.sgn,
      ],
    );
    src = dst;
    p *= r;
  });
}

/**
 * `t` by Bluestein's algorithm: with `jk = (j² + k² - (k - j)²) / 2`, the transform is the chirp
 * `c[k] = e^(sgn·πi·k²/n)` times the convolution of `x[j]·c[j]` with `conj(c)`, taken as a cyclic
 * convolution of `m >= 2n - 1` points (a power of two) through forward and inverse Stockham transforms.
 */
function bluestein(backend: Backend, t: Transform): void {
  const { dtype, n, batch } = t, dialect = backend.dialect;
  const m = 2 ** Math.ceil(Math.log2(2 * n - 1)), factors = radices(m)!;
  using own = new Scratch(backend);
  const a = own.take(batch * m, dtype), b = own.take(batch * m, dtype), scratch = own.take(batch * m, dtype);
  const filter = own.take(m, dtype), spectrum = own.take(m, dtype);
  const inner = (input: BackendBuffer, output: BackendBuffer, count: number, sgn: number): void =>
    stockham(
      backend,
      {
        dtype,
        n: m,
        batch: count,
        sgn,
        input: contiguous(input, m),
        load: "complex",
        output: contiguous(output, m),
        store: "complex",
      },
      factors,
      scratch,
    );
  const { input, output } = t;
  launch(backend, `chirp_in:${dtype}:${t.load}`, () => chirpInSource(dialect, dtype, t.load), batch * m, [
    input.buffer,
    input.offset,
    input.stride,
    input.dist,
    a,
    n,
    m,
    batch * m,
    t.sgn,
  ]);
  launch(backend, `chirp_filter:${dtype}`, () => chirpFilterSource(dialect, dtype), m, [
    filter,
    n,
    m,
    m,
    t.sgn,
  ]);
  inner(filter, spectrum, 1, -1);
  inner(a, b, batch, -1);
  launch(backend, `pointwise:${dtype}`, () => pointwiseSource(dialect, dtype), batch * m, [
    b,
    spectrum,
    m,
    batch * m,
  ]);
  inner(b, a, batch, 1);
  launch(backend, `chirp_out:${dtype}:${t.store}`, () => chirpOutSource(dialect, dtype, t.store), batch * n, [
    a,
    output.buffer,
    output.offset,
    output.stride,
    output.dist,
    n,
    m,
    batch * n,
    t.sgn,
  ]);
}

/**
 * The array module's own kernels as an {@link Fft} of `backend`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import { ownFft } from "./own.ts";
 * console.log(ownFft(ga.zeros(1).backend).name); // "cudeno's Stockham and Bluestein kernels"
 * ```
 */
export function ownFft(backend: Backend): Fft {
  return {
    name: "cudeno's Stockham and Bluestein kernels",
    execute(job) {
      if (job.n > MAX_OWN_LENGTH) {
        throw new RangeError(
          `Cannot take an FFT of length ${job.n} on ${backend.device}: its own kernels take lengths up to 2^29`,
        );
      }
      const t: Transform = {
        ...job,
        ...KINDS[job.kind],
        sgn: job.kind === "r2c" || (job.kind === "c2c" && !job.inverse) ? -1 : 1,
      };
      const factors = radices(job.n);
      if (factors === undefined) bluestein(backend, t);
      else stockham(backend, t, factors);
    },
  };
}
