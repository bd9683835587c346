/**
 * A character-level GPT (nanoGPT's shakespeare-char configuration by default: 6 layers, 6 heads, width
 * 384, context 256, about 10.8M parameters) learns a text file, by default a corpus made of this
 * package's own source and docs, with `nn`, `optim.AdamW`, `optim.clipGradNorm` and `ga.valueAndGrad`,
 * the whole step compiled by `ga.compile` (`--eager` runs it as written at every step); it prints the
 * loss, tokens per second and a progress bar, samples text at the end, and saves the
 * weights as a safetensors checkpoint with PyTorch's names. On CUDA where there is a GPU, on OpenCL
 * elsewhere.
 *
 *   deno run -A examples/char_gpt.ts [--text FILE] [--steps 2000] [--batch 64] [--context 256]
 *     [--layers 6] [--heads 6] [--width 384] [--lr 1e-3] [--sample 300] [--out /tmp/char_gpt.safetensors]
 *     [--eager]
 */
import { parseArgs } from "node:util";
import * as ga from "../src/array/mod.ts";
import * as nn from "../src/nn/mod.ts";
import * as optim from "../src/optim/mod.ts";
import { Gpt } from "./_gpt.ts";
import { Progress } from "./_progress.ts";

const { values } = parseArgs({
  options: {
    text: { type: "string" },
    steps: { type: "string", default: "2000" },
    batch: { type: "string", default: "64" },
    context: { type: "string", default: "256" },
    layers: { type: "string", default: "6" },
    heads: { type: "string", default: "6" },
    width: { type: "string", default: "384" },
    lr: { type: "string", default: "1e-3" },
    sample: { type: "string", default: "300" },
    out: { type: "string", default: "/tmp/char_gpt.safetensors" },
    eager: { type: "boolean", default: false },
  },
});
const [steps, batch, context, layers, heads, width] = [
  values.steps,
  values.batch,
  values.context,
  values.layers,
  values.heads,
  values.width,
].map(Number) as [number, number, number, number, number, number];

/** This package's README and the Markdown and TypeScript files under src/, in path order. */
function packageCorpus(): string {
  const root = new URL("../", import.meta.url);
  const files: string[] = [];
  const walk = (dir: URL) => {
    for (const entry of Deno.readDirSync(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) walk(url);
      else if (/\.(ts|md)$/.test(entry.name)) files.push(url.pathname);
    }
  };
  walk(new URL("src/", root));
  return [new URL("README.md", root).pathname, ...files.sort()].map((f) => Deno.readTextFileSync(f)).join(
    "\n",
  );
}

const text = values.text === undefined ? packageCorpus() : Deno.readTextFileSync(values.text);
const chars = [...new Set(text)].sort();
const vocab = chars.length, code = new Map(chars.map((c, i) => [c, i]));
const tokens = Int32Array.from(text, (c) => code.get(c)!);
const split = Math.floor(tokens.length * 0.9); // the last tenth is held out

nn.manualSeed(1337);
const model = new Gpt({ vocab, context, layers, heads, width });
const params = model.parameters();
const count = model.namedParameters().reduce((n, [, p]) => n + p.size, 0);
console.log(
  `char GPT on ${ga.backendDevice()}: ${layers} layers, ${heads} heads, width ${width}, context ${context}, ` +
    `${(count / 1e6).toFixed(2)}M parameters; ${
      tokens.length.toLocaleString("en-US")
    } characters, vocabulary ${vocab}`,
);

let seed = 1;
/** A seeded uniform number in [0, 1) on the host (batch offsets, sampling). */
const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;

/** `batch` windows of `context` tokens from [from, to), and the same shifted by one: inputs and targets. */
function windows(from: number, to: number): [ga.GPUArray, ga.GPUArray] {
  const x = new Int32Array(batch * context), y = new Int32Array(batch * context);
  for (let b = 0; b < batch; b++) {
    const at = from + Math.floor(random() * (to - from - context - 1));
    x.set(tokens.subarray(at, at + context), b * context);
    y.set(tokens.subarray(at + 1, at + context + 1), b * context);
  }
  return [ga.asarray(x, "int64").reshape([batch, context]), ga.asarray(y, "int64").reshape([batch, context])];
}

const lossOf = (p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
  nn.crossEntropy(nn.functionalCall(model, p, x).reshape([-1, vocab]), y.reshape([-1]));
const lossAndGrads = ga.valueAndGrad(lossOf);
const opt = new optim.AdamW(params, { lr: Number(values.lr), betas: [0.9, 0.99], weightDecay: 0.1 });
const schedule = new optim.CosineAnnealingLR(opt, steps, { etaMin: Number(values.lr) / 10 });

// Forward, backward, clipping and the update: traced once, then replayed as one graph.
const train = ga.compile((x: ga.GPUArray, y: ga.GPUArray) => {
  const [loss, grads] = lossAndGrads(params, x, y);
  optim.clipGradNorm(grads, 1);
  opt.step(grads);
  return loss;
}, { disable: values.eager });

const bar = new Progress(values.eager ? "training (eager)" : "training (compiled)", steps, "tokens");
let first = NaN, last = NaN;
for (let step = 0; step < steps; step++) {
  const [x, y] = windows(0, split);
  const loss = train(x, y);
  schedule.step();
  if (step === 0 || step === steps - 1 || step % 10 === 0) {
    last = Number(loss);
    if (step === 0) first = last;
  }
  bar.step(batch * context, last);
}
bar.end(last);
model.eval();
const [hx, hy] = windows(split, tokens.length);
console.log(
  `loss ${first.toFixed(4)} → ${last.toFixed(4)}; held-out loss ${Number(lossOf(params, hx, hy)).toFixed(4)}`,
);

// Sampling: each next character drawn from the softmax of the last position's logits.
const out = [...tokens.subarray(0, 1)];
for (let i = 0; i < Number(values.sample); i++) {
  const window = Int32Array.from(out.slice(-context));
  const logits = model.forward(ga.asarray(window, "int64").reshape([1, window.length]));
  const probs = ga.softmax(logits.slice(`0, ${window.length - 1}`)).get() as Float32Array;
  let r = random(), next = 0;
  while (next < vocab - 1 && (r -= probs[next]!) > 0) next++;
  out.push(next);
}
console.log(`sample:\n${out.map((t) => chars[t]).join("")}`);
nn.saveSafetensors(values.out!, model.stateDict(), { vocabulary: JSON.stringify(chars) });
console.log(`saved ${model.namedParameters().length} tensors to ${values.out}`);
