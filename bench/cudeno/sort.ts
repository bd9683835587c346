/**
 * cudeno's sorting figures for the GPU suite (bench/README.md says what each means): 2^26 random
 * float32 sorted with their indices (`ga.topk` of every element, smallest first: what `torch.sort`
 * returns), and argsort, on CUDA between device events and on OpenCL by the host's clock. Each result
 * is checked on the host before anything is timed.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/** Prints one record. */
export type Emit = (record: BenchRecord) => void;
/** Milliseconds per call of `fn`, `repeats` samples between device events (suite.ts's). */
export type EventTimes = (repeats: number, fn: () => void) => number[];

const N = 2 ** 26;

/** Throws unless `order` sorts `a` stably (a permutation, values non-decreasing, ties by index). */
function checkOrder(
  a: Float32Array,
  order: BigInt64Array,
  values: Float32Array | undefined,
  what: string,
): void {
  const seen = new Uint8Array(a.length);
  let prev = -Infinity, prevIndex = -1;
  for (let i = 0; i < a.length; i++) {
    const j = Number(order[i]);
    if (!(j >= 0 && j < a.length) || seen[j]) {
      throw new Error(`${what}: index ${j} at ${i} repeats or is out of range`);
    }
    seen[j] = 1;
    const v = a[j]!;
    if (v < prev || (v === prev && j < prevIndex)) throw new Error(`${what}: out of order at ${i}`);
    if (values !== undefined && values[i] !== v) {
      throw new Error(`${what}: value ${values[i]} at ${i}, expected ${v}`);
    }
    prev = v;
    prevIndex = j;
  }
}

function gkeys(ms: number): number {
  return N / (ms / 1000) / 1e9;
}

/**
 * The work of each figure on the active backend, checked once. Results go to arrays made once (`out`),
 * as PyTorch and CuPy take theirs from their memory pools: no allocation is timed.
 */
function work(a: ga.GPUArray<"float32">, host: Float32Array): { sort: () => void; argsort: () => void } {
  const values = ga.empty([N]), indices = ga.empty([N], "int64"), order = ga.empty([N], "int64");
  const sort = () => ga.topk(a, N, { largest: false, out: { values, indices } });
  const argsort = () => ga.argsort(a, { out: order });
  sort();
  checkOrder(host, indices.get(), values.get(), "sort with indices");
  argsort();
  checkOrder(host, order.get(), undefined, "argsort");
  return { sort, argsort };
}

/** `sort.f32.2^26` and `argsort.f32.2^26` on CUDA. */
export function sortFigures(emit: Emit, eventTimes: EventTimes): void {
  ga.useBackend("cuda");
  const a = ga.random.uniform([N], { seed: 7 });
  const { sort, argsort } = work(a, a.get());
  emit({
    impl: "cudeno",
    figure: "sort.f32.2^26",
    unit: "Gkeys/s",
    better: "higher",
    samples: eventTimes(10, sort).map(gkeys),
    note: "ga.topk(a, n, { largest: false, out }): values and int64 indices, as torch.sort",
  });
  emit({
    impl: "cudeno",
    figure: "argsort.f32.2^26",
    unit: "Gkeys/s",
    better: "higher",
    samples: eventTimes(10, argsort).map(gkeys),
    note: "ga.argsort(a, { out }): int64 indices, stable",
  });
  a.free();
}

/** The same figures on OpenCL (the first GPU's platform), by the host's clock around a finish. */
export function openclSortFigures(emit: Emit): void {
  ga.useBackend("opencl");
  try {
    openclFigures(emit);
  } finally {
    ga.useBackend("cuda"); // the sections after this one expect it
  }
}

function openclFigures(emit: Emit): void {
  const a = ga.random.uniform([N], { seed: 7 });
  const { sort, argsort } = work(a, a.get());
  const times = (fn: () => void) => {
    fn();
    a.backend.synchronize();
    return Array.from({ length: 5 }, () => {
      const t = performance.now();
      fn();
      a.backend.synchronize();
      return performance.now() - t;
    });
  };
  for (
    const [figure, fn] of [["opencl.sort.f32.2^26", sort], ["opencl.argsort.f32.2^26", argsort]] as const
  ) {
    emit({
      impl: "cudeno",
      figure,
      unit: "Gkeys/s",
      better: "higher",
      samples: times(fn).map(gkeys),
      note: `on ${a.backend.device}; host clock around the call and a finish`,
    });
  }
  a.free();
}
