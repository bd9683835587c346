/**
 * The scan figures of cudeno's GPU benchmark (bench/README.md lists them), run by suite.ts.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/**
 * `scan.cumsum.2^28`: cumsum of 2^28 float32 values into a given array, bytes read and written per
 * second. The values are ±1, so every prefix is an integer far below 2^24 and exact in float32 in any
 * order of addition: the result is checked element by element before it is timed.
 */
export function scanFigures(
  emit: (record: BenchRecord) => void,
  eventTimes: (repeats: number, fn: () => void) => number[],
): void {
  ga.useBackend("cuda");
  const n = 2 ** 28;
  const host = new Float32Array(n);
  let s = 12345;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    host[i] = s & 0x10000 ? 1 : -1;
  }
  using a = ga.toGpu(host), out = ga.empty(n);
  ga.cumsum(a, { out });
  const got = out.get();
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += host[i]!;
    if (got[i] !== sum) throw new Error(`cumsum is wrong at ${i}: ${got[i]}, want ${sum}`);
  }
  const ms = eventTimes(20, () => ga.cumsum(a, { out }));
  emit({
    impl: "cudeno",
    figure: "scan.cumsum.2^28",
    unit: "GB/s",
    better: "higher",
    samples: ms.map((t) => (2 * n * 4) / (t / 1000) / 1e9),
    note: "ga.cumsum(a, { out }), float32; bytes read + written",
  });
}
