/**
 * Host references for reduction tests: the elements of a C-order array grouped by output position,
 * and each reduction computed on a group with plain JavaScript numbers (float64).
 */

/** A tiny seeded generator (mulberry32): numbers in [0, 1). */
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

/** `n` float32 values in [lo, hi). */
export function randomF32(n: number, seed: number, lo = -1, hi = 1): Float32Array {
  const r = seeded(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * r());
}

/**
 * The elements of a C-order array of `shape`, one group per output position (C order over the kept
 * axes), each group's elements in C order over the reduced `axes`.
 */
export function groups<T>(values: ArrayLike<T>, shape: readonly number[], axes: readonly number[]): T[][] {
  const kept = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const outCount = kept.reduce((n, i) => n * shape[i]!, 1);
  const out: T[][] = Array.from({ length: outCount }, () => []);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < values.length; i++) {
    let o = 0;
    for (const k of kept) o = o * shape[k]! + index[k]!;
    out[o]!.push(values[i]!);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
  return out;
}

const firstIndex = (xs: readonly number[], better: (a: number, b: number) => boolean): number => {
  const nan = xs.findIndex((x) => Number.isNaN(x));
  if (nan >= 0) return nan;
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (better(xs[i]!, xs[best]!)) best = i;
  return best;
};

const minOf = (xs: readonly number[]) => (xs.some(Number.isNaN) ? NaN : Math.min(...xs));
const maxOf = (xs: readonly number[]) => (xs.some(Number.isNaN) ? NaN : Math.max(...xs));
const sumOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function variance(xs: readonly number[], ddof: number): number {
  const m = sumOf(xs) / xs.length;
  return sumOf(xs.map((x) => (x - m) ** 2)) / Math.max(xs.length - ddof, 0);
}

/** Each reduction of one group of numbers, as NumPy defines it. */
export const REFERENCE: Record<string, (xs: number[], ddof?: number) => number> = {
  sum: sumOf,
  prod: (xs) => xs.reduce((a, b) => a * b, 1),
  mean: (xs) => sumOf(xs) / xs.length,
  min: minOf,
  max: maxOf,
  ptp: (xs) => maxOf(xs) - minOf(xs),
  argmin: (xs) => firstIndex(xs, (a, b) => a < b),
  argmax: (xs) => firstIndex(xs, (a, b) => a > b),
  any: (xs) => (xs.some((x) => x !== 0) ? 1 : 0),
  all: (xs) => (xs.every((x) => x !== 0) ? 1 : 0),
  var: (xs, ddof = 0) => variance(xs, ddof),
  std: (xs, ddof = 0) => Math.sqrt(variance(xs, ddof)),
  countNonzero: (xs) => xs.filter((x) => x !== 0).length,
  nansum: (xs) => sumOf(xs.filter((x) => !Number.isNaN(x))),
  nanmean: (xs) => {
    const ok = xs.filter((x) => !Number.isNaN(x));
    return sumOf(ok) / ok.length;
  },
  nanmin: (xs) => {
    const ok = xs.filter((x) => !Number.isNaN(x));
    return ok.length === 0 ? NaN : Math.min(...ok);
  },
  nanmax: (xs) => {
    const ok = xs.filter((x) => !Number.isNaN(x));
    return ok.length === 0 ? NaN : Math.max(...ok);
  },
  logsumexp: (xs) => {
    const m = maxOf(xs);
    if (m === -Infinity || !Number.isFinite(m)) return m === -Infinity ? -Infinity : m;
    return m + Math.log(sumOf(xs.map((x) => Math.exp(x - m))));
  },
};

/** Whether `got` is `want` within `rel` (relative, with an absolute floor of `rel`); NaNs and infinities must match. */
export function near(got: number, want: number, rel: number): boolean {
  if (Number.isNaN(want)) return Number.isNaN(got);
  if (!Number.isFinite(want)) return got === want;
  return Math.abs(got - want) <= rel * Math.max(1, Math.abs(want));
}
