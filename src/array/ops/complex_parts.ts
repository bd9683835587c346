/**
 * The real and imaginary parts of complex arrays as views (NumPy's `real`, `imag` and the `a.real`,
 * `a.imag` properties): a complex64 array's parts are float32 elements two apart in the same memory,
 * so writing through `a.real` changes `a`.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, type GPUArray, viewAs } from "../core/gpuarray.ts";
import { type RealOf, realOf } from "../core/dtypes.ts";
import { zerosLike } from "../routines/creation.ts";
import { record } from "../grad/tape.ts";

/** The view of part `which` (0 real, 1 imaginary) of complex `a`. */
function part<D extends DType>(a: GPUArray<D>, which: 0 | 1): GPUArray<RealOf<D>> {
  const layout = { shape: a.shape, strides: a.strides.map((s) => 2 * s), offset: 2 * a.offset + which };
  return viewAs(a, layout, realOf(a.dtype) as RealOf<D>);
}

const isComplex = (a: GPUArray) => a.dtype === "complex64" || a.dtype === "complex128";

/**
 * The real parts of a complex array, as a view that writes through (float32 for complex64, float64 for
 * complex128); a real array is returned as it is.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.complex(ga.asarray([1, 2]), ga.asarray([3, 4]));
 * console.log(ga.real(z).get()); // Float32Array [1, 2]
 * z.real.fill(0); // z is now [0+3j, 0+4j]
 * ```
 */
export function real<D extends DType>(a: GPUArray<D>): GPUArray<RealOf<D>> {
  arrayArg(a, "take the real part of");
  if (!isComplex(a)) return a as unknown as GPUArray<RealOf<D>>;
  const view = part(a, 0);
  record("real", [a], view, (g) => [g]);
  return view;
}

/**
 * The imaginary parts of a complex array, as a view that writes through; for a real array, a new
 * array of zeros of its shape and dtype (NumPy's, which is read-only there).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.complex(ga.asarray([1, 2]), ga.asarray([3, 4]));
 * console.log(ga.imag(z).get()); // Float32Array [3, 4]
 * ```
 */
export function imag<D extends DType>(a: GPUArray<D>): GPUArray<RealOf<D>> {
  arrayArg(a, "take the imaginary part of");
  if (!isComplex(a)) return zerosLike(a, { dtype: realOf(a.dtype) as RealOf<D> });
  const view = part(a, 1);
  // ∂L/∂re + i·∂L/∂im of a loss of the imaginary parts: i·ḡ.
  record("imag", [a], view, (g, c) => [c.ops.complex(0, g)]);
  return view;
}

/**
 * The variance (or, with `root`, the standard deviation) of complex numbers, NumPy's: the mean of
 * `|z - mean(z)|²`, which is the sum of the variances of the real and imaginary parts, each from
 * `variance` (the real reduction with the caller's axis, ddof and keepdims); real, in the parts' dtype.
 */
export function spreadOfParts(a: GPUArray, variance: (part: GPUArray) => unknown, root: boolean): unknown {
  using re = real(a), im = imag(a);
  const x = variance(re), y = variance(im);
  if (typeof x === "number") {
    const v = x + (y as number);
    return root ? Math.sqrt(v) : v;
  }
  using vx = x as GPUArray, vy = y as GPUArray;
  if (!root) return vx.add(vy);
  using v = vx.add(vy);
  return v.sqrt();
}
