/**
 * cudeno's statistics and random-number figures for the GPU benchmark (issue 33 item 6): a 256-bin
 * histogram and a bincount of 2^28 values, the median and a percentile, and 2^28 draws of `integers` and
 * `normal`, each timed with device events after a check of the same call on 2^16 values against the host.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";
import type { EventTimes } from "./grad.ts";

const N = 2 ** 28, M = 2 ** 26, Q = 2 ** 24, SMALL = 2 ** 16, BINS = 256;

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

/** `n` uniform float32 values in [0, 1) and `n` int32 values in [0, BINS), as the host draws them. */
function data(n: number, seed: number): { floats: Float32Array; ints: Int32Array } {
  let s = seed >>> 0;
  const floats = new Float32Array(n), ints = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    floats[i] = s / 2 ** 32;
    ints[i] = s >>> 24;
  }
  return { floats, ints };
}

/** NumPy's linear-interpolation percentile `p` of sorted values. */
function percentileOf(sorted: Float32Array, p: number): number {
  const at = (p / 100) * (sorted.length - 1), lo = Math.floor(at), hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Each call checked on SMALL values against the host before any timing. */
function check(): void {
  const { floats, ints } = data(SMALL, 7);
  const x = ga.toGpu(floats), k = ga.toGpu(ints);
  const [counts] = ga.histogram(x, { bins: BINS, range: [0, 1] });
  const want = new Array<number>(BINS).fill(0);
  for (const v of floats) want[Math.min(BINS - 1, Math.floor(v * BINS))]!++;
  Array.from(counts.get(), Number).forEach((c, i) =>
    c === want[i] || fail(`histogram bin ${i}: ${c}, want ${want[i]}`)
  );
  const bins = new Array<number>(BINS).fill(0);
  for (const v of ints) bins[v]!++;
  Array.from(ga.bincount(k).get(), Number).forEach((c, i) =>
    c === bins[i] || fail(`bincount ${i}: ${c}, want ${bins[i]}`)
  );
  const sorted = Float32Array.from(floats).sort();
  const median = Number(ga.median(x, 0)), p90 = Number(ga.percentile(x, 90, 0));
  if (Math.abs(median - percentileOf(sorted, 50)) > 1e-7) {
    fail(`median ${median}, want ${percentileOf(sorted, 50)}`);
  }
  if (Math.abs(p90 - percentileOf(sorted, 90)) > 1e-6) {
    fail(`percentile ${p90}, want ${percentileOf(sorted, 90)}`);
  }
  const draws = ga.random.integers([SMALL], { low: 0, high: 10, seed: 3 }).get() as BigInt64Array;
  if (draws.some((v) => v < 0n || v >= 10n)) fail("integers out of [0, 10)");
  const normal = ga.random.normal([SMALL], { seed: 4 }).get() as Float32Array;
  const mean = normal.reduce((s, v) => s + v, 0) / SMALL;
  if (Math.abs(mean) > 0.03) fail(`normal's mean is ${mean}`);
}

const gbps = (bytes: number) => (ms: number) => bytes / (ms / 1000) / 1e9;

/** Emits `histogram.f32.2^28`, `bincount.i32.2^28`, `median.f32.2^26`, `percentile.f32.2^24`, `random.integers.2^28` and `random.normal.2^28`. */
export function statisticsFigures(emit: (r: BenchRecord) => void, eventTimes: EventTimes): void {
  ga.useBackend("cuda");
  check();
  const { floats, ints } = data(N, 11);
  const x = ga.toGpu(floats), k = ga.toGpu(ints);
  const figure = (name: string, unit: "GB/s" | "ms", samples: number[], note: string) =>
    emit({ impl: "cudeno", figure: name, unit, better: unit === "ms" ? "lower" : "higher", samples, note });
  figure(
    "histogram.f32.2^28",
    "GB/s",
    eventTimes(10, () => ga.histogram(x, { bins: BINS, range: [0, 1] }).forEach((a) => a.free())).map(
      gbps(4 * N),
    ),
    "ga.histogram(x, { bins: 256, range: [0, 1] }) of 2^28 uniform float32: the counts and edges; bytes read",
  );
  figure(
    "bincount.i32.2^28",
    "GB/s",
    eventTimes(10, () => ga.bincount(k).free()).map(gbps(4 * N)),
    "ga.bincount(x) of 2^28 int32 in [0, 256) (the length read from the device, as NumPy's); bytes read",
  );
  const m = x.slice([0, M]), q = x.slice([0, Q]);
  figure(
    "median.f32.2^26",
    "ms",
    eventTimes(10, () => ga.median(m, 0).free()),
    "ga.median(x, 0) of 2^26 float32",
  );
  figure(
    "percentile.f32.2^24",
    "ms",
    eventTimes(10, () => ga.percentile(q, 90, 0).free()),
    "ga.percentile(x, 90, 0) of 2^24 float32 (torch.quantile's largest input)",
  );
  figure(
    "random.integers.2^28",
    "GB/s",
    eventTimes(10, () => ga.random.integers([N], { low: 0, high: 100, seed: 5 }).free()).map(gbps(8 * N)),
    "ga.random.integers([2^28], { low: 0, high: 100, seed }) (int64, Philox); bytes written",
  );
  figure(
    "random.normal.2^28",
    "GB/s",
    eventTimes(10, () => ga.random.normal([N], { seed: 6 }).free()).map(gbps(4 * N)),
    "ga.random.normal([2^28], { seed }) (float32, Philox and Box–Muller); bytes written",
  );
  x.free();
  k.free();
}
