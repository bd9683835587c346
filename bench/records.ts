/**
 * The benchmark record format shared by bench/gpu.ts (which collects records) and bench/report.ts (which
 * reads them): each producer prints one JSON object per line on stdout; results.json holds them all.
 * @module
 */

/** Who measured a figure: the C floors, cudeno and raw Deno FFI, and the Python peers (torch.compile and JAX for fused work). */
export const IMPLS = [
  "c",
  "opencl-c",
  "deno-raw",
  "cudeno",
  "cupy",
  "torch",
  "torch-compile",
  "jax",
] as const;
export type Impl = typeof IMPLS[number];

export const UNITS = ["us", "ms", "GB/s", "TFLOP/s", "Gkeys/s", "samples/s", "tokens/s"] as const;
export type Unit = typeof UNITS[number];
export type Better = "lower" | "higher";

export interface BenchRecord {
  impl: Impl;
  figure: string;
  unit: Unit;
  better: Better;
  samples: number[];
  note?: string;
}

/** What became of one producer (or one start-to-first-result program) in a run. */
export interface ProducerStatus {
  name: string;
  state: "ok" | "skipped" | "failed";
  reason?: string;
  seconds?: number;
  records: number;
}

export interface Results {
  date: string;
  gpu: string | null;
  driver: string | null;
  versions: Record<string, string | null>;
  /** Where the producers ran on the host's CPUs (older results do not say). */
  placement?: string;
  producers: ProducerStatus[];
  records: BenchRecord[];
}

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}

/** Checks a parsed JSON value against the record format: the record, or what is wrong with it. */
export function toRecord(value: unknown): BenchRecord | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const r = value as Record<string, unknown>;
  if (!isOneOf(IMPLS, r.impl)) return `impl ${JSON.stringify(r.impl)} is not one of ${IMPLS.join(", ")}`;
  if (typeof r.figure !== "string" || r.figure === "") return "figure is not a non-empty string";
  if (!isOneOf(UNITS, r.unit)) return `unit ${JSON.stringify(r.unit)} is not one of ${UNITS.join(", ")}`;
  if (r.better !== "lower" && r.better !== "higher") return "better is neither lower nor higher";
  const samples = r.samples;
  if (!Array.isArray(samples) || samples.length === 0) return "samples is not a non-empty array";
  if (!samples.every((s) => typeof s === "number" && Number.isFinite(s) && s >= 0)) {
    return "samples holds something other than finite non-negative numbers";
  }
  if (r.note !== undefined && typeof r.note !== "string") return "note is not a string";
  const record: BenchRecord = { impl: r.impl, figure: r.figure, unit: r.unit, better: r.better, samples };
  if (r.note !== undefined) record.note = r.note;
  return record;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The best sample: the smallest where lower is better, the largest where higher is. */
export function bestSample(r: BenchRecord): number {
  return r.better === "lower" ? Math.min(...r.samples) : Math.max(...r.samples);
}
