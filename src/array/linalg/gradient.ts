/**
 * What the linear-algebra functions share for their gradients. A decomposition runs on kernels and
 * vendor libraries that no tape sees, so where a differentiation tracks its input it runs with no tape
 * recording (`differentiated` of `grad/tape.ts`) and reports each of its results with a rule of its own. A result's
 * rule is the vector-Jacobian product with the other results' gradients zero; the backward pass adds
 * the rules' parts, which is the product with all of them, since it is linear in them. The rules are
 * array code (matmul, solve, triangles), so they record in turn for a gradient of a gradient.
 *
 * The rules are PyTorch's (`FunctionsManual.cpp`: the SVD's, the QR's after Liao et al. 2019, the
 * Cholesky's after Murray 2016), through conjugate transposes for complex matrices; the complex SVD's
 * phase term and the complex QR's Hermitian K are written out where they differ.
 *
 * @module
 */

import { GPUArray } from "../core/gpuarray.ts";
import { fill } from "../ops/assign.ts";
import { diagonal, expandDims, swapaxes } from "../ops/views.ts";
import type { Vjp } from "../grad/tape.ts";

/** The matrices of `x` transposed (a view). */
export function mT(x: GPUArray): GPUArray {
  return swapaxes(x, -1, -2);
}

/** The identity of order `n`, in `like`'s dtype on its backend. */
export function eyeLike(like: GPUArray, n: number): GPUArray {
  const eye = fill(new GPUArray(like.backend, [n, n], like.dtype), 0);
  using d = diagonal(eye, 0, -2, -1);
  fill(d, 1);
  return eye;
}

/** The diagonal matrices whose diagonals are the last axis of `v`. */
export function diagEmbed(v: GPUArray): GPUArray {
  return eyeLike(v, v.shape[v.ndim - 1]!).mul(expandDims(v, -2));
}

/** The refusal of a result whose gradient is not defined, as a rule: it throws when a gradient reaches it. */
export function undefinedGradient(message: string): Vjp {
  return () => {
    throw new TypeError(message);
  };
}
