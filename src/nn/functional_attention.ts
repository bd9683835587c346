/**
 * Scaled dot-product attention (PyTorch's `scaled_dot_product_attention`), written out as PyTorch
 * documents its reference: scores `q·kᵀ·scale`, a causal or given mask, softmax over the keys, dropout,
 * and the product with the values. A correct composite of array operations (it differentiates with
 * `ga.grad`); the fused kernel comes with compilation.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { forProduct, forReduction } from "./autocast.ts";
import { arrayArg, floatArg, options, showShape, unitArg } from "./_check.ts";
import { dropout } from "./functional_dropout.ts";

/** Options of {@link scaledDotProductAttention}. */
export interface AttentionOptions {
  /**
   * A mask broadcast to the scores' shape `[..., L, S]`: bool (true where a query may attend to a
   * key; false masks), or float (added to the scores, such as -Infinity). Default none.
   */
  readonly attnMask?: ga.GPUArray | null;
  /** Dropout on the attention weights (applied as `nn.dropout`). Default 0. */
  readonly dropoutP?: number;
  /** Mask every key after the query's position (the lower triangle of `[L, S]` attends). Default false. */
  readonly isCausal?: boolean;
  /** Multiplies the scores. Default `1/√E`, E the queries' last extent. */
  readonly scale?: number | null;
  /** The seed of the dropout mask (see `nn.dropout`). Default: `nn`'s stream. */
  readonly seed?: number | bigint;
}

/**
 * Attention of `query` `[..., L, E]` over `key` `[..., S, E]` and `value` `[..., S, Ev]` (PyTorch's
 * `scaled_dot_product_attention`): `softmax(q·kᵀ·scale + mask)·v`, `[..., L, Ev]`; the leading axes
 * broadcast. A row whose keys are all masked gives NaN, as PyTorch's reference does.
 *
 * @throws {RangeError} naming the shapes when the queries' and keys' last extents differ, keys and
 *   values have different lengths, or the mask does not broadcast to `[..., L, S]`.
 * @throws {TypeError} for `isCausal` together with an `attnMask`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const q = ga.random.normal([2, 4, 8, 16], { seed: 1 }); // batch, heads, tokens, width
 * const k = ga.random.normal([2, 4, 8, 16], { seed: 2 }), v = ga.random.normal([2, 4, 8, 16], { seed: 3 });
 * const y = nn.scaledDotProductAttention(q, k, v, { isCausal: true }); // [2, 4, 8, 16]
 * ```
 */
export function scaledDotProductAttention(
  query: ga.GPUArray,
  key: ga.GPUArray,
  value: ga.GPUArray,
  opts?: AttentionOptions,
): ga.GPUArray {
  const what = "scaledDotProductAttention";
  const q = forProduct(floatArg(query, what, "query")),
    k = forProduct(floatArg(key, what, "key")),
    v = forProduct(floatArg(value, what, "value"));
  const o = options(opts, what, "{ isCausal: true }", ["attnMask", "dropoutP", "isCausal", "scale", "seed"]);
  if (q.ndim < 2 || k.ndim < 2 || v.ndim < 2) {
    throw new RangeError(
      `Cannot ${what} of query ${showShape(q.shape)}, key ${showShape(k.shape)} and value ${
        showShape(v.shape)
      }: each must be [..., tokens, width]`,
    );
  }
  const [l, e] = q.shape.slice(-2) as [number, number];
  const [s, ek] = k.shape.slice(-2) as [number, number];
  if (ek !== e || v.shape[v.ndim - 2] !== s) {
    throw new RangeError(
      `Cannot ${what} of query ${showShape(q.shape)}, key ${showShape(k.shape)} and value ${
        showShape(v.shape)
      }: query and key must share their last extent, key and value their second to last`,
    );
  }
  const scale = o.scale ?? 1 / Math.sqrt(e);
  if (typeof scale !== "number" || !Number.isFinite(scale)) {
    throw new RangeError(`Cannot ${what} with scale ${String(scale)}: pass a finite number`);
  }
  let scores: ga.GPUArray = ga.matmul(q, k.swapaxes(-1, -2)).mul(scale);
  const mask = o.attnMask ?? null;
  if (o.isCausal === true) {
    if (mask !== null) {
      throw new TypeError(
        `Cannot ${what} with both isCausal and an attnMask: put the causal mask into attnMask`,
      );
    }
    scores = ga.where(ga.tri(l, s, 0, { dtype: "bool" }), scores, -Infinity);
  } else if (mask !== null) {
    const m = arrayArg(mask, what, "attnMask");
    try {
      ga.broadcastTo(m, scores.shape).free();
    } catch {
      throw new RangeError(
        `Cannot ${what} with attnMask of shape ${
          showShape(m.shape)
        }: it must broadcast to the scores' shape ${showShape(scores.shape)} ([..., L, S])`,
      );
    }
    scores = m.dtype === "bool" ? ga.where(m, scores, -Infinity) : scores.add(m);
  }
  let weights: ga.GPUArray = ga.softmax(forReduction(scores), -1);
  const p = unitArg(o.dropoutP ?? 0, what, "dropoutP");
  if (p > 0) weights = dropout(weights, { p, ...(o.seed === undefined ? {} : { seed: o.seed }) });
  return ga.matmul(forProduct(weights), v);
}
