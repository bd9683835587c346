/**
 * Host data and references for the sorting tests: elements of every dtype with duplicates, extremes,
 * NaNs and both zeros, and NumPy's order computed with JS's sort and a comparator.
 */

import * as ga from "../../src/array/mod.ts";

/** A host element: a number (bfloat16 decoded), or a bigint for 64-bit integers. */
export type Elem = number | bigint;

/** Every real dtype (sorting orders real numbers), and whether the backend in use can hold it. */
export function dtypesHere(): ga.DType[] {
  const all = (Object.keys(ga.DTYPES) as ga.DType[]).filter((d) => ga.DTYPES[d].kind !== "complex");
  const probe = ga.zeros(1);
  const here = all.filter((d) => probe.backend.supports(d));
  probe.free();
  return here;
}

/** NumPy's order: NaN last, -0 and +0 equal. */
export function compare(a: Elem, b: Elem): number {
  if (typeof a === "number" && typeof b === "number") {
    const an = Number.isNaN(a), bn = Number.isNaN(b);
    if (an || bn) return an === bn ? 0 : an ? 1 : -1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The stable argsort of `xs` in NumPy's order (descending: largest first, equal ones by index). */
export function argsortRef(xs: readonly Elem[], descending = false): number[] {
  const sign = descending ? -1 : 1;
  return xs.map((_, i) => i).sort((i, j) => sign * compare(xs[i]!, xs[j]!) || i - j);
}

/** A seeded generator of floats in [0, 1). */
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

function bf16ToNumber(bits: number): number {
  return new Float32Array(new Uint32Array([bits << 16]).buffer)[0]!;
}

function numberToBf16(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0]! >>> 16; // truncation: any bf16 will do
}

/** The host array's elements as numbers or bigints (bfloat16 bits decoded). */
export function decode(dtype: ga.DType, host: ga.TypedArray): Elem[] {
  return dtype === "bfloat16"
    ? Array.from(host as Uint16Array, bf16ToNumber)
    : Array.from(host as ArrayLike<Elem>);
}

/** How the elements of {@link makeHost} are laid out. */
export type Pattern = "random" | "sorted" | "reversed" | "equal" | "special";

const INT_RANGE: Partial<Record<ga.DType, [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
};

const SPECIAL = [NaN, -0, 0, Infinity, -Infinity, -NaN, 1.5, -1.5, 0, -0, NaN];

/**
 * `n` host elements of `dtype`: random ones drawn from a small pool (so many are equal) mixed with
 * the dtype's extremes, or those sorted, reversed, all equal, or mostly NaNs, zeros and infinities.
 */
export function makeHost(
  dtype: ga.DType,
  n: number,
  seed: number,
  pattern: Pattern = "random",
): ga.TypedArray {
  const r = seeded(seed);
  const info = ga.DTYPES[dtype];
  const pool = Math.max(3, Math.floor(n / 3));
  const pick = (): Elem => {
    const u = r();
    if (info.kind === "bool") return u < 0.5 ? 0 : 1;
    if (dtype === "int64" || dtype === "uint64") {
      const signed = dtype === "int64";
      if (u < 0.05) return signed ? -(2n ** 63n) : 0n;
      if (u < 0.1) return signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
      const v = BigInt(Math.floor(r() * pool)) * 7919n * 1000003n;
      return signed && r() < 0.5 ? -v : v;
    }
    if (info.kind !== "float") {
      const [lo, hi] = INT_RANGE[dtype]!;
      if (u < 0.05) return lo;
      if (u < 0.1) return hi;
      return lo + Math.floor((Math.floor(r() * pool) / pool) * (hi - lo));
    }
    if (pattern === "special" && u < 0.6) return SPECIAL[Math.floor(r() * SPECIAL.length)]!;
    if (u < 0.03) return NaN;
    if (u < 0.06) return r() < 0.5 ? -0 : 0;
    const v = Math.floor(r() * pool) - pool / 2;
    return dtype === "float16" ? v / 8 : v / 16;
  };
  let xs = Array.from({ length: n }, pick);
  if (pattern === "equal") xs = xs.map(() => xs[0]!);
  if (pattern === "sorted" || pattern === "reversed") {
    xs.sort(compare);
    if (pattern === "reversed") xs.reverse();
  }
  if (dtype === "bfloat16") return Uint16Array.from(xs as number[], numberToBf16);
  if (dtype === "bool") return Uint8Array.from(xs as number[]);
  return (info.array as unknown as { from(xs: Elem[]): ga.TypedArray }).from(xs);
}

/** A device array of the host elements. */
export function toDevice(dtype: ga.DType, host: ga.TypedArray, shape?: number[]): ga.GPUArray {
  return ga.toGpu(host, shape ?? [host.length], dtype);
}

/** Whether two host elements are the same value, telling -0 from +0 (NaN equals NaN). */
export function same(a: Elem, b: Elem): boolean {
  return typeof a === "number" && typeof b === "number" ? Object.is(a, b) : a === b;
}

/** Rows of a C-order host array along its last axis of `rowLen`. */
export function rowsOf<T>(xs: readonly T[], rowLen: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < xs.length; i += rowLen) rows.push(xs.slice(i, i + rowLen));
  return rows;
}

/** Whether long runs (more sizes, 2^20 elements for every dtype) were asked for with CUDENO_SORT_LONG=1. */
export const LONG = Deno.env.get("CUDENO_SORT_LONG") === "1";

/** A device array's elements on the host, as {@link decode} gives them. */
export function hostOf(a: ga.GPUArray): Elem[] {
  return decode(a.dtype, a.get());
}

/** NumPy's unique with counts and inverse, on the host: the first element of each run stands for it. */
export function uniqueRef(xs: readonly Elem[]): { values: Elem[]; counts: number[]; inverse: number[] } {
  const order = argsortRef(xs);
  const values: Elem[] = [], counts: number[] = [], inverse = new Array<number>(xs.length);
  order.forEach((i, k) => {
    if (k === 0 || compare(xs[order[k - 1]!]!, xs[i]!) !== 0) {
      values.push(xs[i]!);
      counts.push(0);
    }
    counts[counts.length - 1]!++;
    inverse[i] = values.length - 1;
  });
  return { values, counts, inverse };
}
