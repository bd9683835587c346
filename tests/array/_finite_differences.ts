/**
 * Gradient checks by central finite differences in float64, shared by the linear-algebra, complex and
 * FFT gradient tests: `<∇f, v> ≈ (f(x + hv) - f(x - hv)) / 2h` along random directions. Complex
 * gradients follow PyTorch (grad = ∂L/∂Re z + i·∂L/∂Im z), so `<∇f, v>` is the dot product of the
 * interleaved parts.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { randomArray, rng } from "./_grad_programs.ts";

const host = (a: ga.GPUArray) => Array.from(a.get() as Float64Array);
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** `x` typed as an array (a loss is one inside a differentiation). */
export const asArray = (x: unknown): ga.GPUArray => x as ga.GPUArray;

/** A loss's value: a full `ga.sum` is a host number outside a differentiation, a 0-d array inside. */
export const valueOf = (x: unknown): number => (x instanceof ga.GPUArray ? Number(x.item()) : Number(x));

/** The sum of two losses, arrays or host numbers. */
export const plus = (x: unknown, y: unknown): unknown =>
  x instanceof ga.GPUArray ? x.add(asArray(y)) : valueOf(x) + valueOf(y);

/** A random array like `x` (complex128 where `x` is), entries in [-1, 1). */
function randomLike(x: ga.GPUArray, random: () => number): ga.GPUArray {
  const re = randomArray(x.shape, random);
  return x.dtype === "complex128" ? ga.complex(re, randomArray(x.shape, random)) : re;
}

/**
 * Checks `grad` of `f` (all its arguments) at `inputs`: each gradient's shape and dtype, and its
 * product with three random directions against the central finite difference.
 */
export function checkGradient(
  what: string,
  f: (...xs: ga.GPUArray[]) => unknown,
  inputs: ga.GPUArray[],
  seed: number,
): void {
  const random = rng(seed);
  f(...inputs); // outside grad(), so that the weights a loss makes on its first call outlive it
  const argnums = inputs.map((_, i) => i);
  const grads = ga.grad((...xs: ga.GPUArray[]) => asArray(f(...xs)), { argnums })(...inputs) as ga.GPUArray[];
  grads.forEach((g, i) => {
    assert.deepEqual(g.shape, inputs[i]!.shape, `${what}: gradient ${i}'s shape`);
    assert.equal(g.dtype, inputs[i]!.dtype, `${what}: gradient ${i}'s dtype`);
  });
  for (let d = 0; d < 3; d++) {
    const vs = inputs.map((x) => randomLike(x, random));
    const h = 1e-6;
    const at = (t: number) => valueOf(f(...inputs.map((x, i) => x.add(vs[i]!.mul(t)))));
    const fd = (at(h) - at(-h)) / (2 * h);
    const analytic = grads.reduce((s, g, i) => s + dot(host(g), host(vs[i]!)), 0);
    assert.ok(
      Math.abs(analytic - fd) <= 1e-5 * (1 + Math.abs(fd)),
      `${what}, direction ${d}: grad gives ${analytic}, finite differences ${fd}`,
    );
  }
}

/**
 * A real loss that reads every element of `y`: `Σ y·w₁` for real `y`, `Σ re(y)·w₁ + im(y)·w₂` for
 * complex, with fixed random weights made on the first call.
 */
export function weighted(seed: number): (y: ga.GPUArray) => unknown {
  const random = rng(seed);
  let w: [ga.GPUArray, ga.GPUArray] | undefined;
  return (y) => {
    w ??= [randomArray(y.shape, random), randomArray(y.shape, random)];
    if (y.dtype !== "complex64" && y.dtype !== "complex128") return ga.sum(y.mul(w[0]));
    return ga.sum(ga.real(y).mul(w[0]).add(ga.imag(y).mul(w[1])));
  };
}
