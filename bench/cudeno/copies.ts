/**
 * cudeno's copy figures for the GPU benchmark (bench/README.md lists them): synchronous host–device
 * copies from pinned and pageable memory at four sizes, a device-to-device copy of 1 GiB, and the
 * end-to-end vector add from pageable memory (two copies in, one launch, one copy out).
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import type { SuiteTools } from "./views.ts";

const SIZES: [string, number][] = [["4KiB", 4096], ["1MiB", 2 ** 20], ["64MiB", 2 ** 26], ["1GiB", 2 ** 30]];

/** Emits `copy.{htod,dtoh}.{pinned,pageable}.{4KiB,1MiB,64MiB,1GiB}`. */
export function copyFigures({ emit }: SuiteTools): void {
  using dev = cuda.memAlloc(2 ** 30);
  for (const memory of ["pinned", "pageable"] as const) {
    for (const [label, bytes] of SIZES) {
      const pinned = memory === "pinned" ? cuda.pagelockedEmpty(bytes, "uint8") : undefined;
      const host = pinned?.array ?? new Uint8Array(bytes);
      host.fill(1);
      for (const dir of ["htod", "dtoh"] as const) {
        const copy = dir === "htod" ? () => cuda.memcpyHtoD(dev, host) : () => cuda.memcpyDtoH(host, dev);
        // As the C program: `reps` copies between two clock reads (none per copy), then a synchronize.
        const seconds = (reps: number): number => {
          const t = performance.now();
          for (let i = 0; i < reps; i++) copy();
          cuda.synchronize();
          return (performance.now() - t) / 1000;
        };
        // Doubling until a sample lasts 40 ms, which also warms the path up.
        let reps = 1;
        while (seconds(reps) < 0.04 && reps < 2 ** 20) reps *= 2;
        const samples: number[] = [];
        for (let s = 0; s < 5; s++) samples.push((bytes * reps) / seconds(reps) / 1e9);
        emit({
          impl: "cudeno",
          figure: `copy.${dir}.${memory}.${label}`,
          unit: "GB/s",
          better: "higher",
          samples,
          note: `${dir === "htod" ? "memcpyHtoD" : "memcpyDtoH"}, ${reps} copies per sample`,
        });
      }
      pinned?.free();
    }
  }
}

/** Emits `d2d.copy.2^28`. */
export function d2dFigures({ emit, eventTimes }: SuiteTools): void {
  const bytes = 2 ** 28 * 4;
  using a = cuda.memAlloc(bytes), b = cuda.memAlloc(bytes);
  cuda.memsetD32(a, 0x3f800000, 2 ** 28);
  const ms = eventTimes(20, () => cuda.memcpyDtoD(b, a));
  emit({
    impl: "cudeno",
    figure: "d2d.copy.2^28",
    unit: "GB/s",
    better: "higher",
    samples: ms.map((t) => (2 * bytes) / (t / 1000) / 1e9),
  });
}

/** Emits `vadd.e2e.2^24`, with `vadd` of the launch figures' module. */
export function vaddFigures(mod: cuda.SourceModule, { emit, randomFloats }: SuiteTools): void {
  const n = 2 ** 24;
  const vadd = mod.getFunction("vadd");
  const a = randomFloats(n, 1), b = randomFloats(n, 2), c = new Float32Array(n);
  using da = cuda.memAlloc(n * 4), db = cuda.memAlloc(n * 4), dc = cuda.memAlloc(n * 4);
  const cfg = { grid: Math.ceil(n / 256), block: 256 };
  const run = () => {
    cuda.memcpyHtoD(da, a);
    cuda.memcpyHtoD(db, b);
    vadd(da, db, dc, n, cfg);
    cuda.memcpyDtoH(c, dc);
  };
  run();
  for (let i = 0; i < n; i += 4099) {
    if (c[i] !== Math.fround(a[i]! + b[i]!)) throw new Error(`vadd wrong at ${i}`);
  }
  const samples: number[] = [];
  for (let s = 0; s < 5; s++) {
    const t = performance.now();
    run();
    samples.push(performance.now() - t);
  }
  emit({ impl: "cudeno", figure: "vadd.e2e.2^24", unit: "ms", better: "lower", samples });
}
