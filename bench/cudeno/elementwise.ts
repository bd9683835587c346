/**
 * cudeno's elementwise array figures for the GPU benchmark (bench/README.md lists them): an add of two
 * arrays of 2^28 float32 into a third, and the per-op host overhead of `x += 1` on a 1-element array.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import type { SuiteTools } from "./views.ts";

/** Emits `elementwise.add.2^28` and `small.add1.async`. */
export function elementwiseFigures({ emit, eventTimes }: SuiteTools): void {
  ga.useBackend("cuda");
  const n = 2 ** 28;
  const a = ga.random.uniform([n], { seed: 1 }), b = ga.random.uniform([n], { seed: 2 }), c = ga.empty([n]);
  const check = ga.add(ga.toGpu(Float32Array.of(1, 2)), ga.toGpu(Float32Array.of(3, 4))).get();
  if (check[0] !== 4 || check[1] !== 6) throw new Error("add is wrong");
  const add = eventTimes(20, () => a.add(b, { out: c }));
  emit({
    impl: "cudeno",
    figure: "elementwise.add.2^28",
    unit: "GB/s",
    better: "higher",
    samples: add.map((t) => (3 * n * 4) / (t / 1000) / 1e9),
  });
  a.free();
  b.free();
  c.free();
  const x = ga.ones(1);
  for (let i = 0; i < 1000; i++) x.add(1, { out: x });
  const small: number[] = [];
  for (let s = 0; s < 5; s++) {
    const t = performance.now();
    for (let i = 0; i < 10_000; i++) x.add(1, { out: x });
    cuda.synchronize();
    small.push(((performance.now() - t) * 1000) / 10_000);
  }
  emit({ impl: "cudeno", figure: "small.add1.async", unit: "us", better: "lower", samples: small });
}
