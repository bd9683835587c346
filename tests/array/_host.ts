/**
 * Small host references for the scan and indexing tests: seeded random numbers, and the elements a
 * view shows, read from its layout over the host copy of its buffer (so no device copy is involved).
 */

import type * as ga from "../../src/array/mod.ts";

/** A seeded generator of numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random integers in [lo, hi], seeded. */
export function randomInts(n: number, seed: number, lo: number, hi: number): number[] {
  const r = seeded(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}

/** The multi-indices of a shape in C order. */
export function* indicesOf(shape: readonly number[]): Generator<number[]> {
  const size = shape.reduce((a, b) => a * b, 1);
  const idx = shape.map(() => 0);
  for (let i = 0; i < size; i++) {
    yield [...idx];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d]! < shape[d]!) break;
      idx[d] = 0;
    }
  }
}

/** The elements `view` shows, in C order, from `buffer` (the host values of its whole buffer). */
export function viewValues<T>(buffer: ArrayLike<T>, view: ga.Layout): T[] {
  const out: T[] = [];
  for (const idx of indicesOf(view.shape)) {
    out.push(buffer[view.offset + idx.reduce((s, i, d) => s + i * view.strides[d]!, 0)]!);
  }
  return out;
}

/** An inclusive scan of C-order `values` of `shape` along `axis`, with `op` and its identity. */
export function hostScan<T>(
  values: readonly T[],
  shape: readonly number[],
  axis: number,
  op: (a: T, b: T) => T,
  identity: T,
): T[] {
  const n = shape[axis]!, inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const out = [...values];
  for (let start = 0; start < values.length; start += n * inner) {
    for (let i = 0; i < inner; i++) {
      let acc = identity;
      for (let j = 0; j < n; j++) {
        const at = start + j * inner + i;
        acc = op(acc, values[at]!);
        out[at] = acc;
      }
    }
  }
  return out;
}
