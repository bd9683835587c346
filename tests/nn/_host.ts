/**
 * Float64 host references and checks for the nn tests: seeded random arrays (device and host copies
 * of the same numbers), a small host tensor with C-order indexing, closeness checks, and a gradient
 * check against central finite differences (the directional derivative along a random direction, per
 * argument, computed both ways).
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A float64 host tensor in C order. */
export class Host {
  readonly strides: number[];
  constructor(readonly shape: readonly number[], readonly data: Float64Array) {
    this.strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
    assert.equal(data.length, shape.reduce((a, b) => a * b, 1));
  }
  /** Zeros of `shape`. */
  static zeros(shape: readonly number[]): Host {
    return new Host(shape, new Float64Array(shape.reduce((a, b) => a * b, 1)));
  }
  /** The flat position of a multi-index. */
  at(...idx: number[]): number {
    return idx.reduce((p, i, k) => p + i * this.strides[k]!, 0);
  }
  get(...idx: number[]): number {
    return this.data[this.at(...idx)]!;
  }
  set(value: number, ...idx: number[]): void {
    this.data[this.at(...idx)] = value;
  }
  /** A device copy (float64). */
  device(): ga.GPUArray {
    return ga.toGpu(Float64Array.from(this.data)).reshape([...this.shape]);
  }
}

/** Host and device copies of uniform numbers in [lo, hi) of `shape`. */
export function randomPair(
  shape: readonly number[],
  random: () => number,
  lo = -1,
  hi = 1,
): [ga.GPUArray, Host] {
  const host = new Host(
    shape,
    Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => lo + (hi - lo) * random()),
  );
  return [host.device(), host];
}

/** The values of a device array as float64 numbers. */
export function values(a: ga.GPUArray): number[] {
  return Array.from(a.astype("float64").get() as Float64Array);
}

/** Asserts `got` has `shape` and its elements are within `tol·(1 + |want|)` of `want`. */
export function assertClose(
  got: ga.GPUArray,
  want: Host | readonly number[] | number,
  tol: number,
  what: string,
): void {
  const w = typeof want === "number" ? [want] : want instanceof Host ? Array.from(want.data) : want;
  if (want instanceof Host) assert.deepEqual(got.shape, [...want.shape], `${what}: shape`);
  const g = values(got);
  assert.equal(g.length, w.length, `${what}: element count`);
  g.forEach((v, i) => {
    const x = w[i]!;
    const ok = Number.isNaN(x) ? Number.isNaN(v) : Math.abs(v - x) <= tol * (1 + Math.abs(x));
    assert.ok(ok, `${what} [${i}]: got ${v}, want ${x}`);
  });
}

/**
 * Checks `ga.grad` of `loss` (a function returning a 0-d array) with respect to each argument in
 * `argnums` against central finite differences along a random direction, in float64.
 */
export function checkGrad(
  loss: (...args: ga.GPUArray[]) => ga.GPUArray,
  args: readonly ga.GPUArray[],
  argnums: readonly number[],
  random: () => number,
  what: string,
  tol = 1e-6,
): void {
  const grads = ga.grad(loss, { argnums: [...argnums] })(...args) as ga.GPUArray[];
  argnums.forEach((n, k) => {
    const g = grads[k]!;
    assert.deepEqual(g.shape, args[n]!.shape, `${what}: gradient ${n} shape`);
    const [dir] = randomPair(args[n]!.shape, random);
    const h = 1e-6;
    const at = (t: number) => {
      const shifted = args.map((a, i) => (i === n ? a.add(dir.mul(t)) : a));
      return Number(loss(...shifted).item());
    };
    const fd = (at(h) - at(-h)) / (2 * h);
    const gv = values(g), dv = values(dir);
    const analytic = gv.reduce((s, x, i) => s + x * dv[i]!, 0);
    assert.ok(
      Math.abs(analytic - fd) <= tol * (1 + Math.abs(fd)),
      `${what}: d/d(argument ${n}) along a random direction: grad gives ${analytic}, finite differences ${fd}`,
    );
  });
}

/** A weighted sum of `y` with fixed random weights: a scalar loss that sees every element. */
export function weightedSum(y: ga.GPUArray, weights: ga.GPUArray): ga.GPUArray {
  return ga.sum(y.mul(weights), y.shape.map((_, i) => i));
}

/** erf to about 1e-14 for |x| ≤ 3 (its Maclaurin series), for the GELU reference. */
export function erf(x: number): number {
  assert.ok(Math.abs(x) <= 3.5, `erf reference used at ${x}`);
  let term = x, sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (-x * x) / n;
    const next = term / (2 * n + 1);
    sum += next;
    if (Math.abs(next) < 1e-17 * Math.abs(sum)) break;
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}
