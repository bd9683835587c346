/**
 * One batch of 1-D transforms along one axis of an array, as every function of `ga.fft` is made of:
 * the array seen as a batch in the vendor's layout (`FftLayout`) where its strides allow, else copied
 * (converting its dtype, cutting or padding the axis, moving it last) into one that is; a new result
 * of the transformed extent; the backend's {@link Fft}, or the own kernels; the normalisation's scale.
 *
 * @module
 */

import type { Fft, FftJob, FftLayout } from "../../device/fft.ts";
import { type ComplexDType, realOf } from "../core/dtypes.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import type { SliceSpec } from "../core/slicing.ts";
import { fill } from "../ops/assign.ts";
import { moveaxis, slice } from "../ops/views.ts";
import { mul } from "../api/elementwise.ts";
import { concatenate } from "../routines/join.ts";
import { differentiated, isTracked, type Vjp } from "../grad/tape.ts";
import { ownFft } from "./own.ts";

/** One axis's transform: its kind and direction, its length, and the dtype of its complex side. */
export interface AxisTransform {
  /** Complex to complex, real to complex (the half spectrum), or complex (a half spectrum) to real. */
  readonly kind: FftJob["kind"];
  /** For `"c2c"`: the inverse transform. */
  readonly inverse: boolean;
  /** The transform's length (the real side's for `"r2c"` and `"c2r"`). */
  readonly n: number;
  /** The complex side's dtype; the real side's is its parts'. */
  readonly dtype: ComplexDType;
}

/** The elements of one transform's input and output along the axis. */
function extents(t: AxisTransform): [number, number] {
  const half = Math.floor(t.n / 2) + 1;
  return t.kind === "c2c" ? [t.n, t.n] : t.kind === "r2c" ? [t.n, half] : [half, t.n];
}

/**
 * `a`'s transforms along `axis` as one {@link FftLayout}: where its other axes (those of extent above
 * 1) merge into one with a positive stride, and its axis's stride is positive; else undefined.
 */
function layoutOf(a: GPUArray, axis: number): FftLayout | undefined {
  const others = a.shape.map((_, d) => d).filter((d) => d !== axis && a.shape[d]! > 1);
  for (let k = 1; k < others.length; k++) {
    const outer = others[k - 1]!, inner = others[k]!;
    if (a.strides[outer] !== a.strides[inner]! * a.shape[inner]!) return undefined;
  }
  const stride = a.shape[axis]! > 1 ? a.strides[axis]! : 1;
  const dist = others.length > 0 ? a.strides[others.at(-1)!]! : stride * a.shape[axis]!;
  if (stride < 1 || dist < 1) return undefined;
  return { buffer: a.buffer, offset: a.offset, stride, dist };
}

/** The specs that take elements `[0, end)` along `axis` of an array of `ndim` dimensions. */
function firstAlong(ndim: number, axis: number, end: number): SliceSpec[] {
  return Array.from({ length: ndim }, (_, d) => (d === axis ? [0, end] : []));
}

/**
 * `a` ready to be read along `axis` by a transform that takes `length` elements of `dtype` from each
 * row: `a` itself where it is of `dtype`, long enough and laid out as a batch; else a copy of its first
 * `length` elements along the axis (zeros after them where it is shorter), in `dtype`, the axis last.
 * Returns the array and the axis it lies along.
 */
function prepared(a: GPUArray, axis: number, length: number, dtype: ComplexDType | "float32" | "float64") {
  const extent = a.shape[axis]!;
  if (a.dtype === dtype && extent >= length && layoutOf(a, axis) !== undefined) return { x: a, axis };
  const last = a.ndim - 1, kept = Math.min(extent, length);
  const shape = [...a.shape.filter((_, d) => d !== axis), length];
  const x = new GPUArray(a.backend, shape, dtype);
  if (kept < length) fill(x, 0);
  using from = slice(a, ...firstAlong(a.ndim, axis, kept));
  using moved = moveaxis(from, axis, last);
  using into = slice(x, ...firstAlong(x.ndim, last, kept));
  into.assign(moved);
  return { x, axis: last };
}

/** The FFT of `a`'s backend: its vendor's, else the own kernels. */
function fftOf(a: GPUArray): Fft {
  return a.backend.fft ?? ownFft(a.backend);
}

/**
 * The transform `t` of `a` along `axis`, unnormalised: a new C-contiguous array of `a`'s
 * shape with the axis's extent the transform's output length (`n` or `n / 2 + 1`), of `t.dtype` or,
 * for `"c2r"`, its parts' dtype. The batch runs over `a`'s other axes in C order, in the input as in
 * the output, so the two may lie along different axes.
 */
export function transformAxis(a: GPUArray, axis: number, t: AxisTransform): GPUArray {
  if (isTracked(a)) {
    return differentiated(
      "fft",
      [a],
      () => transformAxis(a, axis, t),
      (y) => [[y, transformVjp(a, axis, t)]],
    );
  }
  const [inLength, outLength] = extents(t);
  const real = realOf(t.dtype) as "float32" | "float64";
  const outShape = a.shape.map((e, d) => (d === axis ? outLength : e));
  const result = new GPUArray(a.backend, outShape, t.kind === "c2r" ? real : t.dtype);
  const batch = a.shape.reduce((p, e, d) => (d === axis ? p : p * e), 1);
  if (batch === 0) return result;
  const source = prepared(a, axis, inLength, t.kind === "r2c" ? real : t.dtype);
  try {
    const direct = layoutOf(result, axis);
    // Where the result's other axes do not merge, write the batch with the axis last and move it back.
    using moved = direct === undefined
      ? new GPUArray(a.backend, [...outShape.filter((_, d) => d !== axis), outLength], result.dtype)
      : undefined;
    fftOf(a).execute({
      kind: t.kind,
      dtype: t.dtype,
      n: t.n,
      batch,
      inverse: t.inverse,
      input: layoutOf(source.x, source.axis)!,
      output: direct ?? layoutOf(moved!, moved!.ndim - 1)!,
    });
    if (moved !== undefined) {
      using back = moveaxis(moved, -1, axis);
      result.assign(back);
    }
  } finally {
    if (source.x !== a) source.x.free();
  }
  return result;
}

/**
 * Complex transforms of `x` along each of `axes` to the length in the same place of `lengths`, the
 * last axis first (as NumPy), unnormalised; `x` itself where `axes` is empty. The arrays between are
 * freed; `x` is not.
 */
export function c2cAlong(
  x: GPUArray,
  axes: readonly number[],
  lengths: readonly number[],
  inverse: boolean,
  dtype: ComplexDType,
): GPUArray {
  let y = x;
  for (let i = axes.length - 1; i >= 0; i--) {
    const next = transformAxis(y, axes[i]!, { kind: "c2c", inverse, n: lengths[i]!, dtype });
    if (y !== x) y.free();
    y = next;
  }
  return y;
}

/**
 * `x` multiplied by `scale` (a normalisation's): in place, or as a new array where a differentiation
 * tracks `x`.
 */
export function normalised<A extends GPUArray>(x: A, scale: number): A {
  if (scale === 1) return x;
  return (isTracked(x) ? mul(x, scale) : mul(x, scale, { out: x })) as unknown as A;
}

/**
 * The rule of transform `t` of `a` along `axis` (unnormalised; PyTorch's convention for complex
 * gradients): a complex transform's adjoint is the transform the other way; the half spectrum of real
 * input gives back the real part of the inverse transform of the gradient padded with zeros to `n`;
 * a real output gives back the half spectrum of its gradient, each value that stands for two of the
 * full spectrum doubled. The input's gradient is then cut or padded to `a`'s extent.
 */
function transformVjp(a: GPUArray, axis: number, t: AxisTransform): Vjp {
  return (g) => {
    let x: GPUArray;
    if (t.kind === "c2c") {
      x = transformAxis(g, axis, { ...t, inverse: !t.inverse });
    } else if (t.kind === "r2c") {
      x = transformAxis(resized(g, axis, t.n), axis, { kind: "c2c", inverse: true, n: t.n, dtype: t.dtype })
        .real;
    } else {
      const half = transformAxis(g, axis, { kind: "r2c", inverse: false, n: t.n, dtype: t.dtype });
      x = half.mul(doubled(half, axis, t.n));
    }
    return [resized(x, axis, a.shape[axis]!)];
  };
}

/** `x` cut or padded with zeros to `extent` along `axis`. */
function resized(x: GPUArray, axis: number, extent: number): GPUArray {
  const have = x.shape[axis]!;
  if (have === extent) return x;
  if (have > extent) return slice(x, ...firstAlong(x.ndim, axis, extent));
  const zeros = fill(
    new GPUArray(x.backend, x.shape.map((e, d) => (d === axis ? extent - have : e)), x.dtype),
    0,
  );
  return concatenate([x, zeros], axis);
}

/**
 * The weights, along `axis` of `half` (a half spectrum of a real signal of length `n`), of the values
 * that stand for two of the full spectrum: 2 but at 0 and, for even `n`, at `n / 2`.
 */
function doubled(half: GPUArray, axis: number, n: number): GPUArray {
  const h = half.shape[axis]!;
  const w = fill(new GPUArray(half.backend, [h], realOf(half.dtype)), 2);
  for (const at of n % 2 === 0 ? [0, h - 1] : [0]) {
    using one = slice(w, [at, at + 1]);
    fill(one, 1);
  }
  return w.reshape(half.shape.map((e, d) => (d === axis ? e : 1)));
}

/** `a`'s extent along `axis`, checked to be a length to transform, where `n` does not give one. */
export function extentOf(a: GPUArray, axis: number, what: string): number {
  const extent = a.shape[axis]!;
  if (extent === 0) {
    throw new RangeError(
      `Cannot ${what} along axis ${axis} of an array of shape ${
        showShape(a.shape)
      }: the axis is empty; give the length to pad it to with zeros (n, or s)`,
    );
  }
  return extent;
}
