/**
 * cudeno's reduction and softmax figures for the GPU benchmark (bench/README.md lists them): on CUDA
 * timed between device events like the Python peers, with results into `out` arrays so that no figure
 * includes an allocation or a copy to the host; the same work on the OpenCL backend timed on the host.
 * Every result is checked against the host before it is timed.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import { chooseDevice } from "../../src/opencl/context.ts";
import type { BenchRecord } from "../records.ts";

/** Milliseconds per call of `fn`, `repeats` samples (suite.ts's device-event timer). */
export type EventTimes = (repeats: number, fn: () => void, batch?: number) => number[];

const SIDE = 8192;
const N = 2 ** 28;

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

/** Milliseconds per call from the host clock around batches of calls and a synchronize (for OpenCL). */
function hostTimes(repeats: number, fn: () => void, sync: () => void): number[] {
  fn();
  sync();
  const out: number[] = [];
  for (let s = 0; s < repeats; s++) {
    const t = performance.now();
    for (let b = 0; b < 5; b++) fn();
    sync();
    out.push((performance.now() - t) / 5);
  }
  return out;
}

/** Checks `got` (float32 sums of 8192 lines) against float64 sums of a few of them from the host copy. */
function checkAxisSums(host: Float32Array, got: Float32Array, axis: 0 | 1, what: string): void {
  for (const line of [0, 1, 4097, SIDE - 1]) {
    let want = 0;
    for (let k = 0; k < SIDE; k++) want += host[axis === 0 ? k * SIDE + line : line * SIDE + k]!;
    if (Math.abs(got[line]! - want) > 1e-3 * Math.max(1, Math.abs(want))) {
      fail(`${what}: line ${line} is ${got[line]}, want ${want}`);
    }
  }
}

function checkSoftmax(host: Float32Array, got: Float32Array, what: string): void {
  for (const row of [0, 5000, SIDE - 1]) {
    let m = -Infinity, s = 0;
    for (let k = 0; k < SIDE; k++) m = Math.max(m, host[row * SIDE + k]!);
    for (let k = 0; k < SIDE; k++) s += Math.exp(host[row * SIDE + k]! - m);
    for (const k of [0, 17, SIDE - 1]) {
      const want = Math.exp(host[row * SIDE + k]! - m) / s, value = got[row * SIDE + k]!;
      if (Math.abs(value - want) > 1e-5 * want) fail(`${what}: [${row}, ${k}] is ${value}, want ${want}`);
    }
  }
}

/** The first index of the largest value (NaN-free data). */
function hostArgmax(host: Float32Array): number {
  let best = 0;
  for (let i = 1; i < host.length; i++) if (host[i]! > host[best]!) best = i;
  return best;
}

/**
 * Emits `reduce.sum.2^28`, `reduce.sum.axis{0,1}.8192x8192`, `reduce.argmax.2^28` and
 * `softmax.rows.8192x8192` on CUDA, or the same with an `opencl.` prefix on the OpenCL backend's GPU.
 */
export function reductionFigures(
  backend: ga.BackendName,
  emit: (r: BenchRecord) => void,
  eventTimes: EventTimes,
  batchFor: (fn: () => void) => number,
): void {
  if (backend === "opencl" && chooseDevice().type !== "gpu") {
    console.error(`[cudeno] no OpenCL GPU (the OpenCL backend would use ${chooseDevice().name}): skipped`);
    return;
  }
  ga.useBackend(backend);
  const prefix = backend === "cuda" ? "" : "opencl.";
  const scalar = ga.zeros([]), index = ga.zeros([], "int64");
  const sync = () => scalar.backend.synchronize();
  // Batches of calls between the events, as every producer of these figures times them: a call takes
  // well under a millisecond, and the host's time before the first one is not the device's.
  const time = (
    fn: () => void,
  ) => (backend === "cuda" ? eventTimes(20, fn, batchFor(fn)) : hostTimes(10, fn, sync));
  const gbps = (bytes: number, ms: number[]) => ms.map((t) => bytes / (t / 1000) / 1e9);
  const note = (
    text: string,
  ) => (backend === "cuda" ? text : `${text}; on ${ga.backendDevice()}, host-timed`);

  const flat = ga.random.uniform([N], { seed: 11 });
  const host = flat.get();
  let want = 0;
  for (let i = 0; i < N; i++) want += host[i]!;
  const total = flat.sum();
  if (Math.abs(total - want) > 1e-4 * Math.abs(want)) {
    fail(`${prefix}reduce.sum.2^28: ${total}, want ${want}`);
  }
  emit({
    impl: "cudeno",
    figure: `${prefix}reduce.sum.2^28`,
    unit: "GB/s",
    better: "higher",
    samples: gbps(N * 4, time(() => flat.sum({ out: scalar }))),
    note: note("a.sum({ out }), float32, into a 0-d array on the device"),
  });
  if (flat.argmax() !== hostArgmax(host)) fail(`${prefix}reduce.argmax.2^28: not the host's index`);
  emit({
    impl: "cudeno",
    figure: `${prefix}reduce.argmax.2^28`,
    unit: "GB/s",
    better: "higher",
    samples: gbps(N * 4, time(() => flat.argmax({ out: index }))),
    note: note("a.argmax({ out }), float32, the flat index into a 0-d int64 array"),
  });
  flat.free();

  const uniform = ga.random.uniform([SIDE, SIDE], { seed: 12 });
  const x = uniform.sub(0.5);
  uniform.free();
  const square = x.get();
  for (const axis of [0, 1] as const) {
    const out = ga.empty([SIDE]);
    ga.sum(x, { axis, out });
    checkAxisSums(square, out.get(), axis, `${prefix}reduce.sum.axis${axis}`);
    emit({
      impl: "cudeno",
      figure: `${prefix}reduce.sum.axis${axis}.${SIDE}x${SIDE}`,
      unit: "GB/s",
      better: "higher",
      samples: gbps(SIDE * SIDE * 4, time(() => ga.sum(x, { axis, out }))),
      note: note(`ga.sum(x, { axis: ${axis}, out }), float32; bytes read`),
    });
    out.free();
  }
  const probabilities = ga.empty([SIDE, SIDE]);
  ga.softmax(x, { axis: 1, out: probabilities });
  checkSoftmax(square, probabilities.get(), `${prefix}softmax.rows`);
  emit({
    impl: "cudeno",
    figure: `${prefix}softmax.rows.${SIDE}x${SIDE}`,
    unit: "GB/s",
    better: "higher",
    samples: gbps(2 * SIDE * SIDE * 4, time(() => ga.softmax(x, { axis: 1, out: probabilities }))),
    note: note("ga.softmax(x, { axis: 1, out }), float32; bytes read + written"),
  });
  for (const a of [x, probabilities, scalar, index]) a.free();
}
