/**
 * Host helpers of the statistics tests: float64 values of arrays, seeded random data, tolerant
 * comparison, and the rows of C-order values along an axis.
 */

import assert from "node:assert/strict";
import type * as ga from "../../src/array/mod.ts";
import { indicesOf, seeded } from "./_host.ts";

/** A host value. */
export type Num = number;

/** The elements of `a` as float64 host numbers, in C order. */
export function host(a: ga.GPUArray): Num[] {
  return Array.from(a.get() as ArrayLike<number | bigint | boolean>, Number);
}

/** Random values rounded to float32, `nan` of them NaN. */
export function randomValues(n: number, seed: number, nan = 0, lo = -5, hi = 5): number[] {
  const r = seeded(seed);
  const v = Array.from({ length: n }, () => Math.fround(lo + (hi - lo) * r()));
  for (let k = 0; k < nan; k++) v[Math.floor(r() * n)] = NaN;
  return v;
}

export function near(got: number, want: number, tol: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= tol * (1 + Math.abs(want));
}

export function assertNear(got: readonly number[], want: readonly number[], tol: number, what: string): void {
  assert.equal(got.length, want.length, `${what}: ${got.length} elements, expected ${want.length}`);
  want.forEach((w, i) => {
    if (!near(got[i]!, w, tol)) assert.fail(`${what}: element ${i} is ${got[i]}, expected ${w}`);
  });
}

/** The rows of C-order `values` of `shape` along `axis` (null: one row of all). */
export function rowsOf(values: readonly Num[], shape: readonly number[], axis: number | null): Num[][] {
  if (axis === null) return [[...values]];
  const rows = new Map<string, Num[]>();
  let i = 0;
  for (const idx of indicesOf(shape)) {
    const key = idx.filter((_, d) => d !== axis).join(",");
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key)!.push(values[i++]!);
  }
  return [...rows.values()];
}
