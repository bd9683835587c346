/**
 * The backward pass: walks a {@link Tape} from the last recorded operation to the first, hands each
 * the gradient of its output, and sums the gradients its rule gives into its inputs' (fitted to each
 * input's shape and dtype). It runs with its own tape paused, so the rules' array operations record on
 * the tapes further out: that is what makes `grad` of `grad` work.
 *
 * @module
 */

import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { copyInto } from "../exec/loop.ts";
import { fill, linearFill } from "../ops/assign.ts";
import { where } from "../ops/ufunc.ts";
import { mean, sum } from "../api/reductions.ts";
import { broadcastTo, reshape, transpose } from "../ops/views.ts";
import { matmul } from "../ops/matmul.ts";
import { complex } from "../api/elementwise.ts";
import { type GradOps, paused, record, type Tape } from "./tape.ts";

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((d, i) => d === b[i]);

function zeros(backend: GPUArray["backend"], shape: readonly number[], dtype: GPUArray["dtype"]): GPUArray {
  return fill(new GPUArray(backend, shape, dtype), 0);
}

function sumTo(g: GPUArray, shape: readonly number[]): GPUArray {
  if (same(g.shape, shape)) return g;
  const lead = g.ndim - shape.length;
  const axes: number[] = [];
  for (let i = 0; i < g.ndim; i++) {
    if (i < lead || (shape[i - lead] === 1 && g.shape[i] !== 1)) axes.push(i);
  }
  const summed = axes.length === 0 ? g : sum(g, axes, { keepdims: true });
  return same(summed.shape, shape) ? summed : reshape(summed, [...shape]);
}

function embed(g: GPUArray, shape: readonly number[], view: (t: GPUArray) => GPUArray): GPUArray {
  const out = zeros(g.backend, shape, g.dtype);
  const target = view(out);
  copyInto(target, g, "embed");
  target.free();
  record("the gradient of a view", [g], out, (gg) => [view(gg)]);
  return out;
}

/** The operations rules may call beyond the methods. */
export const OPS: GradOps = {
  where: (c, x, y) => where(c, x, y),
  zeros: (shape, dtype) => zeros(activeOf(), shape, dtype),
  sumTo,
  broadcastTo: (g, shape) => broadcastTo(g, shape),
  reshape: (g, shape) => reshape(g, [...shape]),
  sumKeep: (x, axes) => sum(x, [...axes], { keepdims: true }),
  meanKeep: (x, axes) => mean(x, [...axes], { keepdims: true }) as GPUArray,
  arange: (n) => linearFill(new GPUArray(activeOf(), [n], "int64"), 0, 1),
  matmul: (a, b) => matmul(a, b),
  transpose: (a, axes) => transpose(a, axes),
  complex: (re, im) => complex(re, im),
  embed,
};

let backendNow: GPUArray["backend"] | undefined;
function activeOf(): GPUArray["backend"] {
  return backendNow!;
}

/** `g` as the gradient of `x`: summed over broadcast axes, broadcast over reduced ones, in `x`'s dtype. */
function fit(g: GPUArray, x: GPUArray, what: string): GPUArray {
  let r = g;
  if (!same(r.shape, x.shape)) {
    const lead = r.ndim - x.ndim;
    if (lead > 0 || r.shape.some((d, i) => d !== 1 && x.shape[i] === 1)) r = sumTo(r, x.shape);
    if (!same(r.shape, x.shape)) {
      try {
        r = broadcastTo(r, x.shape);
      } catch {
        throw new Error(
          `Internal error in the gradient of ${what}: a gradient of shape ${
            showShape(g.shape)
          } for an input of shape ${showShape(x.shape)}`,
        );
      }
    }
  }
  return r.dtype === x.dtype ? r : r.astype(x.dtype);
}

/**
 * Runs the backward pass of `tape` from `output` with gradient `seed`: the gradient of every tracked
 * array the walk reaches, keyed by array (arrays no gradient reached are absent).
 *
 * @throws {TypeError} naming an operation on the way that has no gradient rule.
 */
export function backward(tape: Tape, output: GPUArray, seed: GPUArray): Map<GPUArray, GPUArray> {
  const grads = new Map<GPUArray, GPUArray>([[output, seed]]);
  const before = backendNow;
  backendNow = seed.backend;
  try {
    paused(tape, () => {
      for (let k = tape.entries.length - 1; k >= 0; k--) {
        const entry = tape.entries[k]!;
        const g = grads.get(entry.output);
        if (g === undefined) continue;
        const need = entry.inputs.map((x) => x instanceof GPUArray && tape.tracked.has(x));
        if (!need.some(Boolean)) continue;
        if (entry.vjp === undefined) {
          throw new TypeError(
            `Cannot differentiate through ${entry.what}: it has no gradient rule; wrap it in ga.stopGradient() if no gradient should flow through it`,
          );
        }
        const parts = entry.vjp(g, { inputs: entry.inputs, output: entry.output, need, ops: OPS });
        entry.inputs.forEach((x, i) => {
          const part = parts[i];
          if (!need[i] || part === undefined) return;
          const gx = fit(part, x as GPUArray, entry.what);
          const prev = grads.get(x as GPUArray);
          grads.set(x as GPUArray, prev === undefined ? gx : prev.add(gx));
        });
      }
    });
  } finally {
    backendNow = before;
  }
  return grads;
}
