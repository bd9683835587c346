/**
 * The lookup-table layer (PyTorch's `nn.Embedding`).
 *
 * @module
 */

import type * as ga from "../array/mod.ts";
import { dtypeArg, featuresArg, options } from "./_check.ts";
import { embedding } from "./functional_embedding.ts";
import { normalInit, streamOf } from "./init.ts";
import { Module } from "./module.ts";

/** Options of {@link Embedding}. */
export interface EmbeddingLayerOptions {
  /** The id whose row starts at zeros and gets no gradient. Default none. */
  readonly paddingIdx?: number | null;
  /** The table's dtype. Default "float32". */
  readonly dtype?: ga.FloatDType;
  /** Draw the initial table from this seed's stream instead of `nn`'s (see `manualSeed`). Default: `nn`'s stream. */
  readonly seed?: number | bigint;
}

/**
 * A table of `numEmbeddings` vectors of `embeddingDim` (PyTorch's `nn.Embedding`), initialised from
 * the standard normal distribution (the `paddingIdx` row, if any, at zeros); `forward(ids)` gives the
 * rows of integer ids.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const table = new nn.Embedding(100, 16, { paddingIdx: 0, seed: 1 });
 * const vectors = table.forward(ga.asarray([[5, 7, 0]], "int64")); // [1, 3, 16]
 * ```
 */
export class Embedding extends Module {
  /** The number of rows. */
  readonly numEmbeddings: number;
  /** The width of each row. */
  readonly embeddingDim: number;
  /** The padding id (as given, or null). */
  readonly paddingIdx: number | null;
  /** `[numEmbeddings, embeddingDim]`. */
  weight: ga.GPUArray;

  /**
   * A table of `numEmbeddings` rows of `embeddingDim`.
   *
   * @throws {RangeError} for sizes that are not positive integers or a `paddingIdx` out of range.
   */
  constructor(numEmbeddings: number, embeddingDim: number, opts?: EmbeddingLayerOptions) {
    super();
    const what = "make an Embedding layer";
    const o = options(opts, what, "{ paddingIdx: 0, seed: 1 }", ["paddingIdx", "dtype", "seed"]);
    this.numEmbeddings = featuresArg(numEmbeddings, what, "numEmbeddings");
    this.embeddingDim = featuresArg(embeddingDim, what, "embeddingDim");
    const pad = o.paddingIdx ?? null;
    if (pad !== null && (!Number.isInteger(pad) || pad < -numEmbeddings || pad >= numEmbeddings)) {
      throw new RangeError(
        `Cannot ${what} with paddingIdx ${pad}: it must be an integer from ${-numEmbeddings} to ${
          numEmbeddings - 1
        }`,
      );
    }
    this.paddingIdx = pad;
    this.weight = normalInit(
      streamOf(o.seed, "Embedding"),
      [numEmbeddings, embeddingDim],
      dtypeArg(o.dtype, what),
    );
    if (pad !== null) this.weight.slice(pad < 0 ? pad + numEmbeddings : pad).fill(0);
  }

  /** `embedding(ids, weight, { paddingIdx })`: `[...ids.shape, embeddingDim]`. */
  forward(ids: ga.GPUArray): ga.GPUArray {
    return embedding(ids, this.weight, { paddingIdx: this.paddingIdx });
  }
}
