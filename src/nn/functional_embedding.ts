/**
 * Lookup tables (PyTorch's `embedding`): rows of a weight matrix picked by integer ids.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { floatArg, indexArg, options, showShape } from "./_check.ts";

/** Options of {@link embedding}. */
export interface EmbeddingOptions {
  /** The id whose row gets no gradient (a padding token); negative counts from the end. Default none. */
  readonly paddingIdx?: number | null;
}

/**
 * The rows of `weight` (`[numEmbeddings, dim]`) at the integer ids of `input`: a `[...input.shape,
 * dim]` array (PyTorch's `embedding`, a `ga.take` along axis 0). With `paddingIdx`, that row is read
 * as it is but receives no gradient.
 *
 * @throws {TypeError} for ids that are not integers.
 * @throws {RangeError} for an id out of range (naming it), a `weight` that is not 2-D, or a
 *   `paddingIdx` out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const table = ga.random.normal([10, 4], { seed: 1 });
 * const tokens = ga.asarray([[1, 2], [3, 0]], "int64");
 * const vectors = nn.embedding(tokens, table); // shape [2, 2, 4]
 * ```
 */
export function embedding(input: ga.GPUArray, weight: ga.GPUArray, opts?: EmbeddingOptions): ga.GPUArray {
  const ids = indexArg(input, "embedding", "input");
  const w = floatArg(weight, "embedding", "weight");
  const o = options(opts, "embedding", "{ paddingIdx: 0 }", ["paddingIdx"]);
  if (w.ndim !== 2) {
    throw new RangeError(
      `Cannot embedding: weight has shape ${showShape(w.shape)}; it must be [numEmbeddings, embeddingDim]`,
    );
  }
  const rows = w.shape[0]!;
  const out = ga.take(w, ids, 0);
  const pad = o.paddingIdx ?? null;
  if (pad === null) return out;
  if (!Number.isInteger(pad) || pad < -rows || pad >= rows) {
    throw new RangeError(
      `Cannot embedding with paddingIdx ${pad}: it must be an integer from ${-rows} to ${rows - 1}`,
    );
  }
  const at = ids.eq(pad < 0 ? pad + rows : pad).expandDims(-1);
  return ga.where(at, ga.stopGradient(out), out);
}
