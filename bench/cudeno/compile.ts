/**
 * cudeno's compile, cache and load figures for the GPU benchmark (bench/README.md lists them): NVRTC
 * compiles of the launch figures' source with no cache, a SourceModule from the disk cache, and a
 * module load of its cubin.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import type { BenchRecord } from "../records.ts";
import { LAUNCH_SRC } from "./launch.ts";

/** Emits `nvrtc.compile.cold`, `cache.hit` and `module.load`. */
export function compileFigures(emit: (record: BenchRecord) => void): void {
  const cold: number[] = [];
  for (let s = 0; s < 5; s++) {
    const t = performance.now();
    cuda.compile(LAUNCH_SRC.replace("empty(", `empty${s}(`), { cache: false });
    cold.push(performance.now() - t);
  }
  emit({ impl: "cudeno", figure: "nvrtc.compile.cold", unit: "ms", better: "lower", samples: cold });
  const hits: number[] = [];
  for (let s = 0; s < 20; s++) {
    cuda.clearMemoryCache();
    const t = performance.now();
    const m = new cuda.SourceModule(LAUNCH_SRC);
    m.getFunction("vadd");
    hits.push(performance.now() - t);
    if (m.cache !== "disk") throw new Error(`expected a disk cache hit, got ${m.cache}`);
    m.unload();
  }
  emit({
    impl: "cudeno",
    figure: "cache.hit",
    unit: "ms",
    better: "lower",
    samples: hits,
    note: "SourceModule from the disk cache: read, verify, load",
  });
  const { image } = cuda.compile(LAUNCH_SRC);
  const loads: number[] = [];
  for (let s = 0; s < 20; s++) {
    const t = performance.now();
    const m = new cuda.Module(image, { source: LAUNCH_SRC });
    m.getFunction("vadd");
    m.unload();
    loads.push(performance.now() - t);
  }
  emit({ impl: "cudeno", figure: "module.load", unit: "ms", better: "lower", samples: loads });
}
