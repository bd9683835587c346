/**
 * The figure of joining arrays (issue 18's target): `concatenate` of 8 float32 arrays of 2^25 into a
 * new array, in GB/s of bytes read and written, to compare with the device's own copy (d2d.copy.2^28).
 *
 * @module
 */

import * as ga from "../../src/array/mod.ts";
import type { SuiteTools } from "./views.ts";

const gbps = (bytes: number) => (ms: number) => bytes / (ms / 1000) / 1e9;

function require(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check failed: ${what}`);
}

/** Emits join.concatenate.8x2^25. */
export function joinFigures({ emit, eventTimes }: SuiteTools): void {
  ga.useBackend("cuda");
  const n = 2 ** 25, k = 8;
  const parts = Array.from({ length: k }, (_, i) => ga.random.uniform([n], { seed: 21 + i }));
  const joined = ga.concatenate(parts);
  parts.forEach((p, i) => {
    for (const [from, to] of [[0, 4], [n - 4, n]] as const) {
      const got = joined.slice([i * n + from, i * n + to]).get(), want = p.slice([from, to]).get();
      require(got.every((v, j) => v === want[j]), `concatenate differs in part ${i}`);
    }
  });
  joined.free();
  emit({
    impl: "cudeno",
    figure: "join.concatenate.8x2^25",
    unit: "GB/s",
    better: "higher",
    samples: eventTimes(20, () => ga.concatenate(parts).free()).map(gbps(2 * k * n * 4)),
    note: "ga.concatenate of 8 float32 arrays of 2^25 into a new array; bytes read + written",
  });
  for (const p of parts) p.free();
}
