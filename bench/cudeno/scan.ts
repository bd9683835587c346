/**
 * The scan figures of cudeno's GPU benchmark (bench/README.md lists them), run by suite.ts.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

const N = 2 ** 28;

/**
 * 2^28 float32 values of ±1 on the active backend and an array for their cumsum, checked once: every
 * prefix is an integer far below 2^24, so exact in float32 in any order of addition, and the result
 * is compared element by element with the host's.
 */
function checkedCumsum(): { a: ga.GPUArray<"float32">; out: ga.GPUArray<"float32"> } {
  const host = new Float32Array(N);
  let s = 12345;
  for (let i = 0; i < N; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    host[i] = s & 0x10000 ? 1 : -1;
  }
  const a = ga.toGpu(host), out = ga.empty(N);
  ga.cumsum(a, { out });
  const got = out.get();
  let sum = 0;
  for (let i = 0; i < N; i++) {
    sum += host[i]!;
    if (got[i] !== sum) throw new Error(`cumsum is wrong at ${i}: ${got[i]}, want ${sum}`);
  }
  return { a, out };
}

const gbps = (ms: number) => (2 * N * 4) / (ms / 1000) / 1e9;

/**
 * `scan.cumsum.2^28`: cumsum of 2^28 float32 values into a given array on CUDA, bytes read and
 * written per second, timed with device events by `eventTimes` (ms per call).
 */
export function scanFigures(
  emit: (record: BenchRecord) => void,
  eventTimes: (repeats: number, fn: () => void) => number[],
): void {
  ga.useBackend("cuda");
  const { a, out } = checkedCumsum();
  using _a = a, _out = out;
  emit({
    impl: "cudeno",
    figure: "scan.cumsum.2^28",
    unit: "GB/s",
    better: "higher",
    samples: eventTimes(20, () => ga.cumsum(a, { out })).map(gbps),
    note: "ga.cumsum(a, { out }), float32; bytes read + written",
  });
}

/**
 * `scan.cumsum.2^28.opencl`: the same on the OpenCL backend (three passes), timed on the host around
 * each call and the queue's finish. Reported, with no target. Sections after it pick their backend.
 */
export function openclScanFigures(emit: (record: BenchRecord) => void): void {
  ga.useBackend("opencl");
  const { a, out } = checkedCumsum();
  using _a = a, _out = out;
  const samples: number[] = [];
  for (let s = 0; s < 12; s++) {
    const t = performance.now();
    ga.cumsum(a, { out });
    a.backend.synchronize();
    if (s >= 2) samples.push(gbps(performance.now() - t));
  }
  emit({
    impl: "cudeno",
    figure: "scan.cumsum.2^28.opencl",
    unit: "GB/s",
    better: "higher",
    samples,
    note: `ga.cumsum(a, { out }) on ${ga.backendDevice()}, host-timed with the queue's finish`,
  });
}
