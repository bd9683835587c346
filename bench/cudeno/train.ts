/**
 * cudeno's training figures for the GPU benchmark (issue 30 item 8, issue 31 item 4): samples per second
 * of whole training steps (forward, backward through `ga.valueAndGrad`, and `optim.AdamW`'s update) of
 * the MLP, the CNN and the char GPT that bench/py/torch_bench.py trains with PyTorch eager and
 * `torch.compile`, on one fixed batch of synthetic data, timed on the host clock from the first queued
 * step to the device's end of the last: eager (`train.<model>`), and the whole step through `ga.compile`
 * (`train.<model>.compiled`, replayed as one CUDA graph). The loss must fall over the steps, in every
 * producer, before the figure counts.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import type { BenchRecord } from "../records.ts";
import { Gpt } from "../../examples/_gpt.ts";

/** Timed samples per figure, and the seconds of untimed steps before them (clocks settle, caches fill). */
const SAMPLES = 5;
const SETTLE_MS = 1000;

/** The MLP of issue 30: 784-1024-1024-10, ReLU, batch 4096. */
class Mlp extends nn.Module {
  fc1 = new nn.Linear(784, 1024);
  fc2 = new nn.Linear(1024, 1024);
  fc3 = new nn.Linear(1024, 10);
  forward(x: ga.GPUArray): ga.GPUArray {
    return this.fc3.forward(nn.relu(this.fc2.forward(nn.relu(this.fc1.forward(x)))));
  }
}

/** The CNN of issue 30: conv 3→64→128→256 (3×3, padding 1), each + ReLU + 2×2 max pool, then linear to 10. */
class Cnn extends nn.Module {
  conv1 = new nn.Conv2d(3, 64, 3, { padding: 1 });
  conv2 = new nn.Conv2d(64, 128, 3, { padding: 1 });
  conv3 = new nn.Conv2d(128, 256, 3, { padding: 1 });
  fc = new nn.Linear(256 * 4 * 4, 10);
  forward(x: ga.GPUArray): ga.GPUArray {
    let y = x;
    for (const conv of [this.conv1, this.conv2, this.conv3]) y = nn.maxPool2d(nn.relu(conv.forward(y)), 2);
    return this.fc.forward(y.reshape([y.shape[0]!, -1]));
  }
}

/**
 * Emits `train.mlp.4096` and `train.cnn.512` (samples/s), and `train.gpt.64x256` (tokens/s) in float32 and
 * under bfloat16 autocast (`.bf16`, the issue's configuration).
 */
export function trainFigures(emit: (r: BenchRecord) => void): void {
  ga.useBackend("cuda");
  for (const compiled of [false, true]) {
    const at = (figure: string) => compiled ? `${figure}.compiled` : figure;
    trainFigure(emit, at("train.mlp.4096"), new Mlp(), [4096, 784], "784-1024-1024-10 MLP (ReLU)", {
      compiled,
    });
    trainFigure(
      emit,
      at("train.cnn.512"),
      new Cnn(),
      [512, 3, 32, 32],
      "CNN conv 3→64→128→256 (3×3, padding 1, each + ReLU + 2×2 max pool) + linear 4096→10",
      { compiled },
    );
    const gpt =
      "char GPT (nanoGPT shakespeare-char: 6 layers, 6 heads, width 384, context 256, vocabulary 65; examples/_gpt.ts)";
    const config = { vocab: 65, context: 256, layers: 6, heads: 6, width: 384 };
    trainFigure(emit, at("train.gpt.64x256"), new Gpt(config), [64, 256], gpt, { vocab: 65, compiled });
    trainFigure(emit, at("train.gpt.64x256.bf16"), new Gpt(config), [64, 256], gpt, {
      vocab: 65,
      autocast: "bfloat16",
      compiled,
    });
  }
}

function trainFigure(
  emit: (r: BenchRecord) => void,
  figure: string,
  model: nn.Module<[ga.GPUArray], ga.GPUArray>,
  shape: number[],
  what: string,
  { vocab, autocast, compiled = false }: { vocab?: number; autocast?: nn.AutocastDType; compiled?: boolean } =
    {},
): void {
  // A language model reads tokens and predicts the next at every position; the others classify into 10.
  const batch = shape[0]!, items = vocab === undefined ? batch : batch * shape[1]!;
  const x = vocab === undefined
    ? ga.random.normal(shape, { seed: 41 })
    : ga.random.integers(shape, { low: 0, high: vocab, seed: 41 });
  const y = ga.random.integers(vocab === undefined ? [batch] : shape, {
    low: 0,
    high: vocab ?? 10,
    seed: 42,
  });
  const classes = vocab ?? 10;
  const params = model.parameters();
  const opt = new optim.AdamW(params, { lr: 1e-3 });
  const loss = (p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
    nn.crossEntropy(nn.functionalCall(model, p, x).reshape([-1, classes]), y.reshape([-1]));
  const lossAndGrads = ga.valueAndGrad((p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
    autocast === undefined ? loss(p, x, y) : nn.autocast(autocast, () => loss(p, x, y))
  );
  const step = ga.compile((): ga.GPUArray => {
    const [loss, grads] = lossAndGrads(params, x, y);
    opt.step(grads);
    return loss;
  }, { disable: !compiled });
  const t0 = performance.now();
  const first = Number(step());
  step();
  step(); // a compiled step traces at its third call
  cuda.synchronize();
  const traceMs = performance.now() - t0;
  for (const t0 = performance.now(); performance.now() - t0 < SETTLE_MS;) step();
  const steps = Math.max(5, Math.ceil(SETTLE_MS / 4 / stepMs(step)));
  const samples: number[] = [];
  let last = NaN;
  for (let s = 0; s < SAMPLES; s++) {
    cuda.synchronize();
    const t = performance.now();
    let loss = step();
    for (let i = 1; i < steps; i++) loss = step();
    last = Number(loss); // waits for the last step
    samples.push((steps * items) / ((performance.now() - t) / 1000));
  }
  if (!(last < first)) throw new Error(`check failed: ${figure}: the loss went from ${first} to ${last}`);
  emit({
    impl: "cudeno",
    figure,
    unit: vocab === undefined ? "samples/s" : "tokens/s",
    better: "higher",
    samples,
    note: `${
      compiled
        ? `ga.compile'd (first three calls, two eager and one traced: ${traceMs.toFixed(0)} ms)`
        : "eager"
    } training steps of a ${what}, ${
      autocast === undefined ? "float32" : `float32 weights under nn.autocast("${autocast}")`
    }, batch ${
      shape.slice(0, vocab === undefined ? 1 : 2).join(" × ")
    }, on one fixed batch: nn.crossEntropy, ` +
      `ga.valueAndGrad through nn.functionalCall, optim.AdamW (lr 1e-3); ${steps} steps a sample; loss ${
        first.toFixed(3)
      } → ${last.toFixed(3)}`,
  });
  step.free();
  x.free();
  y.free();
}

/** Milliseconds of one step, from three timed after a synchronize. */
function stepMs(step: () => ga.GPUArray): number {
  cuda.synchronize();
  const t = performance.now();
  for (let i = 0; i < 3; i++) step();
  cuda.synchronize();
  return (performance.now() - t) / 3;
}
