/**
 * The affine map of a fully connected layer (PyTorch's `linear`).
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { matmulEpilogue } from "../array/ops/matmul_epilogue.ts";
import { floatArg, optionalFloat, showShape } from "./_check.ts";
import { forProduct } from "./autocast.ts";

/**
 * `input · weightᵀ + bias` (PyTorch's `linear`): `input` is `[..., in]`, `weight` `[out, in]` (PyTorch's
 * layout), `bias` `[out]` or absent; the result is `[..., out]`. One matrix product (cuBLAS on CUDA).
 *
 * @throws {RangeError} naming the shapes when `input`'s last extent is not `weight`'s second, or `bias`
 *   is not `[out]`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.ones([8, 3]), w = ga.ones([4, 3]), b = ga.zeros([4]);
 * const y = nn.linear(x, w, b); // shape [8, 4], every element 3
 * ```
 */
export function linear(input: ga.GPUArray, weight: ga.GPUArray, bias?: ga.GPUArray | null): ga.GPUArray {
  const x = forProduct(floatArg(input, "linear", "input"));
  const w = forProduct(floatArg(weight, "linear", "weight"));
  const b = forProduct(optionalFloat(bias, "linear", "bias"));
  if (w.ndim !== 2) {
    throw new RangeError(`Cannot linear: weight has shape ${showShape(w.shape)}; it must be [out, in]`);
  }
  const [out, inner] = w.shape as [number, number];
  if (x.ndim === 0 || x.shape[x.ndim - 1] !== inner) {
    throw new RangeError(
      `Cannot linear an input of shape ${showShape(x.shape)} with weight of shape ${
        showShape(w.shape)
      }: the input's last extent must be ${inner} (weight is [out, in])`,
    );
  }
  if (b !== undefined && (b.ndim !== 1 || b.shape[0] !== out)) {
    throw new RangeError(
      `Cannot linear: bias has shape ${showShape(b.shape)}; it must be [${out}] (weight's first extent)`,
    );
  }
  // With a bias, one product whose epilogue adds it (cuBLASLt on CUDA), as PyTorch's addmm.
  return b === undefined ? ga.matmul(x, w.T) : matmulEpilogue(x, w.T, { epilogue: "bias", bias: b });
}
