/**
 * Figures of elementwise work on views (issue 18's targets): a broadcast add, a transposed copy, an add
 * on a strided view, and the host cost of a small operation on a view.
 *
 * @module
 */

import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/** The suite's helpers these figures use. */
export interface SuiteTools {
  emit(record: BenchRecord): void;
  eventTimes(repeats: number, fn: () => void, batch?: number): number[];
  randomFloats(n: number, seed: number): Float32Array;
}

const gbps = (bytes: number) => (ms: number) => bytes / (ms / 1000) / 1e9;

function require(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check failed: ${what}`);
}

/** Emits view.add.broadcast, view.copy.transposed, view.add.strided and small.add1.view.host. */
export function viewFigures({ emit, eventTimes, randomFloats }: SuiteTools): void {
  ga.useBackend("cuda");
  const n = 8192;
  const hostA = randomFloats(n * n, 11), hostRow = randomFloats(n, 12);
  const a = ga.toGpu(hostA, [n, n]), row = ga.toGpu(hostRow);

  const sum = ga.empty([n, n]);
  a.add(row, { out: sum });
  const got = sum.slice([n - 1, n]).get();
  require(
    got.every((v, j) => v === Math.fround(hostA[(n - 1) * n + j]! + hostRow[j]!)),
    "broadcast add differs",
  );
  emit({
    impl: "cudeno",
    figure: "view.add.broadcast",
    unit: "GB/s",
    better: "higher",
    samples: eventTimes(20, () => a.add(row, { out: sum })).map(gbps((2 * n * n + n) * 4)),
    note: "(8192, 8192) + (8192,) f32 into out; bytes read + written",
  });

  const t = ga.empty([n, n]);
  t.assign(a.T);
  const col = t.slice([5, 6]).get();
  require(col.every((v, j) => v === hostA[j * n + 5]), "transposed copy differs");
  emit({
    impl: "cudeno",
    figure: "view.copy.transposed",
    unit: "GB/s",
    better: "higher",
    samples: eventTimes(20, () => t.assign(a.T)).map(gbps(2 * n * n * 4)),
    note: "out.assign(a.T), 8192² f32; read + write",
  });

  const half = a.slice([], [null, null, 2]);
  const r = half.add(1);
  const first = r.slice([0, 1]).get();
  require(first.every((v, j) => v === Math.fround(hostA[2 * j]! + 1)), "strided view add differs");
  r.free();
  emit({
    impl: "cudeno",
    figure: "view.add.strided",
    unit: "GB/s",
    better: "higher",
    samples: eventTimes(20, () => half.add(1).free()).map(gbps(2 * n * (n / 2) * 4)),
    note: "a.slice([], [null, null, 2]).add(1), a 8192² f32: a new (8192, 4096) array; read + write",
  });
  for (const x of [a, row, sum, t]) x.free();

  const x = ga.ones([4, 4]);
  const v = x.T.slice([0, 2]);
  require(v.add(1).get().every((e) => e === 2), "small view add differs");
  /** Microseconds of host time per call of `fn`, 10,000 calls a sample, the first sample dropped. */
  const hostTimes = (fn: () => unknown) => {
    const host: number[] = [];
    for (let s = 0; s < 6; s++) {
      const t0 = performance.now();
      for (let i = 0; i < 10_000; i++) fn();
      host.push(((performance.now() - t0) * 1000) / 10_000);
      cuda.synchronize();
    }
    return host.slice(1);
  };
  const small = (figure: string, fn: () => unknown, note: string) =>
    emit({ impl: "cudeno", figure, unit: "us", better: "lower", samples: hostTimes(fn), note });
  small(
    "small.add1.view.host",
    () => v.add(1),
    "host time of x.T.slice([0, 2]).add(1) on a 4x4 f32 (a new array each), 10,000 per sample",
  );
  // Its parts: the same into an array made once (no allocation), and the allocation alone.
  const out = ga.empty([2, 4]);
  small("small.add1.view.out.host", () => v.add(1, { out }), "the same into out (dispatch and launch)");
  small("small.empty.host", () => ga.empty([2, 4]), "ga.empty([2, 4]) (an allocation from the pool)");
  x.free();
  out.free();
}
