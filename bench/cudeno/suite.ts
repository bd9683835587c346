/**
 * cudeno's side of the GPU benchmark: the same work as bench/c/cuda_bench.c, bench/c/opencl_bench.c and the
 * Python peers, through cudeno's public API (impl "cudeno") and, for launches, through raw Deno FFI with no
 * wrapper (impl "deno-raw"). One JSON record per line on stdout; progress and failures on stderr.
 * This file runs the sections in order and lends them its record printer and timers; the figures are in
 * the modules beside it, one concept each.
 *
 *   deno run -A bench/cudeno/suite.ts [--only PREFIX,...]
 *
 * @module
 */
import { parseArgs } from "node:util";
import * as cuda from "../../src/cuda/mod.ts";
import type { BenchRecord } from "../records.ts";
import { LAUNCH_SRC, launchFigures, openclLaunchFigures } from "./launch.ts";
import { graphFigures } from "./graphs.ts";
import { copyFigures, d2dFigures, vaddFigures } from "./copies.ts";
import { compileFigures } from "./compile.ts";
import { elementwiseFigures } from "./elementwise.ts";
import { reductionFigures } from "./reductions.ts";
import { type SuiteTools, viewFigures } from "./views.ts";
import { joinFigures } from "./join.ts";
import * as linalg from "./linalg.ts";
import { openclScanFigures, scanFigures } from "./scan.ts";
import { openclSortFigures, sortFigures } from "./sort.ts";
import { fuseFigures } from "./fuse.ts";
import { gradFigures } from "./grad.ts";
import { trainFigures } from "./train.ts";
import { statisticsFigures } from "./statistics.ts";
import { fftFigures } from "./fft.ts";
import { decompositionFigures, openclDecompositionFigures } from "./decompositions.ts";
import { jitFigures } from "./jit.ts";

const { values } = parseArgs({ options: { only: { type: "string" } } });
// Sections to run (prefixes): --only, else BENCH_SECTIONS (what `bench:gpu --sections` sets), else all.
const only = (values.only ?? Deno.env.get("BENCH_SECTIONS"))?.split(",").filter((s) => s !== "") ?? [];
let failures = 0;

function emit(record: BenchRecord): void {
  console.log(JSON.stringify(record));
}

/** Runs one group of figures; a failure is reported and the others still run. */
async function section(name: string, fn: () => void | Promise<void>): Promise<void> {
  if (only.length > 0 && !only.some((p) => name.startsWith(p))) return;
  const started = performance.now();
  try {
    await fn();
    console.error(`[cudeno] ${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (e) {
    failures++;
    console.error(`[cudeno] ${name} FAILED: ${e instanceof Error ? e.stack ?? e.message : e}`);
  }
}

/**
 * Times `fn` with device events around `batch` calls, `repeats` times after a warm-up: milliseconds
 * per call (bench/py/records.py's GpuTimer does the same for CuPy and PyTorch).
 */
function eventTimes(repeats: number, fn: () => void, batch = 1, host?: number[], settleMs = 0): number[] {
  const start = new cuda.Event(), end = new cuda.Event();
  fn();
  fn();
  // Batches run untimed for settleMs first, so that the samples see the clocks of a GPU under load.
  for (const t0 = performance.now(); performance.now() - t0 < settleMs;) {
    for (let b = 0; b < batch; b++) fn();
    cuda.synchronize();
  }
  const out: number[] = [];
  for (let i = 0; i < repeats; i++) {
    start.record();
    const t = performance.now();
    for (let b = 0; b < batch; b++) fn();
    host?.push(((performance.now() - t) * 1000) / batch);
    end.record().synchronize();
    out.push(start.elapsedTime(end) / batch);
  }
  return out;
}

/**
 * Milliseconds of products run before a matmul's samples, as `SETTLE_S` in bench/py/records.py: a long
 * product's clocks settle to the GPU's power limit, and every producer must be timed there.
 */
const SETTLE_MS = 1000;

/** How many calls to queue per sample so that the host's gap before the first is lost in the total (as GpuTimer.batch_for). */
function batchFor(fn: () => void, ms = 10): number {
  const single = Math.min(...eventTimes(3, fn));
  return Math.max(1, Math.ceil(ms / single));
}

function randomFloats(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s / 4294967296 - 0.5;
  }
  return out;
}

const ctx = cuda.useDevice(0);
console.error(
  `[cudeno] ${ctx.device.name}, driver ${cuda.driverVersion().join(".")}, NVRTC ${
    cuda.nvrtcVersion().join(".")
  }`,
);
const mod = new cuda.SourceModule(LAUNCH_SRC);
const tools: SuiteTools = { emit, eventTimes, randomFloats };
const timing: linalg.Timing = { emit, eventTimes, batchFor, settleMs: SETTLE_MS };

await section("launch", () => launchFigures(mod, emit));
await section("graph", () => graphFigures(mod, emit));
await section("copy", () => copyFigures(tools));
await section("d2d", () => d2dFigures(tools));
await section("vadd", () => vaddFigures(mod, tools));
await section("compile", () => compileFigures(emit));
await section("array", () => elementwiseFigures(tools));
await section("view", () => viewFigures(tools));
await section("join", () => joinFigures(tools));
await section("reduce", () => reductionFigures("cuda", emit, eventTimes, batchFor));
await section("opencl.reduce", () => reductionFigures("opencl", emit, eventTimes, batchFor));
await section("scan", () => scanFigures(emit, eventTimes));
await section("scan.opencl", () => openclScanFigures(emit));
await section("fuse", () => fuseFigures(emit, eventTimes, batchFor));
await section("grad", () => gradFigures(emit, eventTimes, batchFor));
await section("train", () => trainFigures(emit));
await section("stats", () => statisticsFigures(emit, eventTimes));
await section("fft", () => fftFigures(emit, eventTimes));
await section("linalg", () => decompositionFigures(emit, eventTimes));
await section("opencl.linalg", () => openclDecompositionFigures(emit));
await section("matmul", () => linalg.squareFigures(timing));
await section("matmul.batched", () => linalg.cudaFigures(timing));
await section("opencl.matmul", () => linalg.openclFigures(timing));
await section("sort", () => sortFigures(emit, eventTimes));
await section("opencl.sort", () => openclSortFigures(emit));
await section("opencl", () => openclLaunchFigures(emit));
await section("jit", () => jitFigures(tools));

if (failures > 0) {
  console.error(`[cudeno] ${failures} section(s) failed`);
  Deno.exit(1);
}
