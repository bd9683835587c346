/**
 * nanoGPT's model in `nn`: token and position embeddings, pre-norm transformer blocks (causal
 * self-attention and a GELU MLP, each added to the residual stream), a final layer norm and a head to
 * the vocabulary's logits. `examples/char_gpt.ts` trains it; the training bench times it.
 */
import * as ga from "../src/array/mod.ts";
import * as nn from "../src/nn/mod.ts";

/** The model's sizes. */
export interface GptConfig {
  readonly vocab: number;
  /** The longest sequence (the position embeddings' count). */
  readonly context: number;
  readonly layers: number;
  readonly heads: number;
  /** The embedding width; a multiple of `heads`. */
  readonly width: number;
}

/** One transformer block: pre-norm causal self-attention and a GELU MLP, each added to the stream. */
class Block extends nn.Module {
  readonly #heads: number;
  ln1: nn.LayerNorm;
  attn: nn.Linear;
  proj: nn.Linear;
  ln2: nn.LayerNorm;
  fc: nn.Linear;
  out: nn.Linear;

  constructor(width: number, heads: number) {
    super();
    this.#heads = heads;
    this.ln1 = new nn.LayerNorm(width);
    this.attn = new nn.Linear(width, 3 * width);
    this.proj = new nn.Linear(width, width);
    this.ln2 = new nn.LayerNorm(width);
    this.fc = new nn.Linear(width, 4 * width);
    this.out = new nn.Linear(4 * width, width);
  }

  forward(x: ga.GPUArray): ga.GPUArray {
    const [b, t, width] = x.shape as [number, number, number];
    const qkv = this.attn.forward(this.ln1.forward(x)).reshape([b, t, 3, this.#heads, width / this.#heads]);
    const [q, k, v] = [0, 1, 2].map((i) => qkv.slice(`:, :, ${i}`).transpose(0, 2, 1, 3));
    const y = nn.scaledDotProductAttention(q!, k!, v!, { isCausal: true }).transpose(0, 2, 1, 3);
    const h = x.add(this.proj.forward(y.reshape([b, t, width])));
    return h.add(this.out.forward(nn.gelu(this.fc.forward(this.ln2.forward(h)))));
  }
}

/** The GPT: `forward(idx)` maps `[B, T]` int64 tokens to `[B, T, vocab]` logits. */
export class Gpt extends nn.Module {
  wte: nn.Embedding;
  wpe: nn.Embedding;
  blocks: Block[];
  lnF: nn.LayerNorm;
  head: nn.Linear;

  /** A model of the sizes `c`, initialised as PyTorch's layers are. */
  constructor(c: GptConfig) {
    super();
    this.wte = new nn.Embedding(c.vocab, c.width);
    this.wpe = new nn.Embedding(c.context, c.width);
    this.blocks = Array.from({ length: c.layers }, () => new Block(c.width, c.heads));
    this.lnF = new nn.LayerNorm(c.width);
    this.head = new nn.Linear(c.width, c.vocab, { bias: false });
  }

  forward(idx: ga.GPUArray): ga.GPUArray {
    let x = this.wte.forward(idx).add(this.wpe.forward(ga.arange(idx.shape[1]!, "int64")));
    for (const block of this.blocks) x = block.forward(x);
    return this.head.forward(this.lnF.forward(x));
  }
}
