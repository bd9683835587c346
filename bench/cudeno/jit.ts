/**
 * cudeno's JIT figures for the GPU benchmark (bench/README.md lists them): a saxpy kernel written in
 * TypeScript beside the same kernel as CUDA C, and the host time of a JIT kernel's launch beside a
 * CUDA C kernel's `fn()`, with a second, identical CUDA C kernel as the control.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { grid, jit } from "../../src/jit/mod.ts";
import type { SuiteTools } from "./views.ts";

/** Emits `jit.kernel`, `jit.handwritten`, `jit.launch.async`, `jit.fn.async` and `jit.fn.control.async`. */
export function jitFigures({ emit, eventTimes }: SuiteTools): void {
  ga.useBackend("cuda");
  const n = 2 ** 24;
  const saxpyJit = jit({ a: "f32", x: "f32[]", y: "f32[]", n: "i32" }, (a, x, y, n) => {
    const i = grid(1);
    if (i < n) y[i] = a * x[i] + y[i];
  }, { name: "saxpy_jit" });
  using hand = new cuda.SourceModule(`__global__ void saxpy_hand(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
  }`);
  const saxpyHand = hand.getFunction("saxpy_hand");
  const x = ga.random.uniform([n], { seed: 5 }), y = ga.random.uniform([n], { seed: 6 });
  const cfg = { grid: Math.ceil(n / 256), block: 256 };
  const viaJit = eventTimes(20, () => saxpyJit.launch(cfg, 2, x, y, n));
  const byHand = eventTimes(20, () => saxpyHand(2, x.buffer, y.buffer, n, cfg));
  emit({
    impl: "cudeno",
    figure: "jit.kernel",
    unit: "ms",
    better: "lower",
    samples: viaJit,
    note: "saxpy, 2^24 float32, from a TypeScript function",
  });
  emit({
    impl: "cudeno",
    figure: "jit.handwritten",
    unit: "ms",
    better: "lower",
    samples: byHand,
    note: "the same saxpy as CUDA C in a SourceModule",
  });
  const emptyJit = jit({ p: "f32[]", n: "i32" }, (p, n) => {
    if (n < 0) p[0] = n;
  }, { name: "empty_jit" });
  const emptyC = (name: string) =>
    `__global__ void ${name}(float *p, int n) {
    if (n < 0) p[0] = n;
  }`;
  using twin = new cuda.SourceModule(emptyC("empty_hand"));
  using control = new cuda.SourceModule(emptyC("empty_control"));
  const emptyHand = twin.getFunction("empty_hand"), emptyControl = control.getFunction("empty_control");
  const p = ga.zeros(256);
  const one = { grid: 1, block: 32 };
  // What a launch costs the host: each sample times 256 launches, and lets the GPU run them after,
  // untimed. On the H200 that is the same 3.5 µs a launch as timing 10,000 launches and their
  // synchronize (the driver's host work is most of a launch), in a tenth of the time per sample, so ten
  // times the samples. Many short samples rather than a few long ones: a launch's host time drifts by
  // several percent over seconds on the GPU machine, and the figure is a ratio of two medians taken side
  // by side.
  const N = 256;
  const pb = p.buffer;
  const loops = [
    () => {
      for (let i = 0; i < N; i++) emptyJit.launch(one, p, 0);
    },
    () => {
      for (let i = 0; i < N; i++) emptyHand(pb, 0, one);
    },
    () => {
      for (let i = 0; i < N; i++) emptyControl(pb, 0, one);
    },
  ];
  const timed = (loop: () => void): number => {
    const t = performance.now();
    loop();
    const us = ((performance.now() - t) * 1000) / N;
    cuda.synchronize();
    return us;
  };
  for (let w = 0; w < 20; w++) for (const loop of loops) timed(loop);
  // Interleaved, so all three see the same machine state, and in every order in turn, so none always
  // runs first after another's synchronize. The control is a second fn() of an identical kernel: its
  // ratio to jit.fn.async is what this measurement cannot tell apart from equal.
  const ORDERS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0], [0, 2, 1], [1, 0, 2]];
  const samples: number[][] = [[], [], []];
  for (let s = 0; s < 2400; s++) {
    for (const k of ORDERS[s % ORDERS.length]!) samples[k]!.push(timed(loops[k]!));
  }
  const [launchSamples, fnSamples, controlSamples] = samples as [number[], number[], number[]];
  emit({
    impl: "cudeno",
    figure: "jit.launch.async",
    unit: "us",
    better: "lower",
    samples: launchSamples,
    note: "kernel.launch() of a JIT kernel: host time of 256 launches, samples interleaved with jit.fn.async",
  });
  emit({
    impl: "cudeno",
    figure: "jit.fn.async",
    unit: "us",
    better: "lower",
    samples: fnSamples,
    note: "fn() of the same kernel written as CUDA C, launched with the same arguments",
  });
  emit({
    impl: "cudeno",
    figure: "jit.fn.control.async",
    unit: "us",
    better: "lower",
    samples: controlSamples,
    note: "fn() of a second, identical kernel: the resolution of the jit.launch.async comparison",
  });
}
