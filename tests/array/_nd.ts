/**
 * Small host helpers for array tests: every multi-index of a shape in C order, and a check of a device
 * array against a host function of the index.
 */
import assert from "node:assert/strict";
import type * as ga from "../../src/array/mod.ts";

/** Every index of `shape`, in C order. */
export function indices(shape: readonly number[]): number[][] {
  const out: number[][] = [];
  const walk = (prefix: number[]): void => {
    if (prefix.length === shape.length) {
      out.push(prefix);
      return;
    }
    for (let i = 0; i < shape[prefix.length]!; i++) walk([...prefix, i]);
  };
  walk([]);
  return out;
}

/** The values of `f` over `shape` in C order. */
export function fromIndex<T>(shape: readonly number[], f: (index: number[]) => T): T[] {
  return indices(shape).map(f);
}

/** Checks that `a` has `shape` and, at each index, the value `expected(index)` (booleans as 0/1). */
export function assertArray(
  a: ga.GPUArray,
  shape: readonly number[],
  expected: (index: number[]) => number | bigint | boolean,
  message?: string,
): void {
  assert.deepEqual(a.shape, shape, message);
  const got = Array.from(a.get() as ArrayLike<number | bigint>);
  const want = fromIndex(shape, expected).map((v) => (typeof v === "boolean" ? Number(v) : v));
  assert.deepEqual(got, want, message);
}
