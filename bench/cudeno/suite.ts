/**
 * cudeno's side of the GPU benchmark: the same work as bench/c/cuda_bench.c, bench/c/opencl_bench.c and the
 * Python peers, through cudeno's public API (impl "cudeno") and, for launches, through raw Deno FFI with no
 * wrapper (impl "deno-raw"). One JSON record per line on stdout; progress and failures on stderr.
 *
 *   deno run -A bench/cudeno/suite.ts [--only PREFIX,...]
 *
 * @module
 */
import { parseArgs } from "node:util";
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { libcuda } from "../../ffi/cuda.ts";
import { grid, jit } from "../../src/jit/mod.ts";
import type { BenchRecord } from "../records.ts";
import { reductionFigures } from "./reductions.ts";
import { viewFigures } from "./views.ts";
import { joinFigures } from "./join.ts";
import * as linalg from "./linalg.ts";
import { openclScanFigures, scanFigures } from "./scan.ts";
import { openclSortFigures, sortFigures } from "./sort.ts";
import { fuseFigures } from "./fuse.ts";

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

const LAUNCH_SRC = `__global__ void empty(float *p, int n) {}
__global__ void args8(float *a, float *b, float *c, float *d, int n, float alpha, float beta, int flag) {
  if (n < 0) a[0] = alpha + beta + flag + b[0] + c[0] + d[0];
}
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}`;

const ctx = cuda.useDevice(0);
console.error(
  `[cudeno] ${ctx.device.name}, driver ${cuda.driverVersion().join(".")}, NVRTC ${
    cuda.nvrtcVersion().join(".")
  }`,
);
const mod = new cuda.SourceModule(LAUNCH_SRC);

await section("launch", () => {
  const empty = mod.getFunction("empty");
  const args8 = mod.getFunction("args8");
  using buf = cuda.memAlloc(1024);
  const cfg = { grid: 1, block: 32 };
  const N = 200_000;
  // The floor under the wrapper: cuLaunchKernel straight through Deno FFI with a prebuilt argument block.
  const lib = libcuda.get();
  const storage = new ArrayBuffer(16);
  new DataView(storage).setBigUint64(0, buf.ptr, true);
  const base = Deno.UnsafePointer.value(Deno.UnsafePointer.of(storage));
  const params = new BigUint64Array([base, base + 8n]);
  const handle = empty.unsafeHandle;
  const variants: [BenchRecord["impl"], string, () => void][] = [
    [
      "deno-raw",
      "launch.empty.async",
      () => lib.cuLaunchKernel(handle, 1, 1, 1, 32, 1, 1, 0, null, params, null),
    ],
    ["cudeno", "launch.empty.async", () => empty(buf, 0, cfg)],
    ["cudeno", "launch.args8.async", () => args8(buf, buf, buf, buf, 1, 1.5, 2.5, 3, cfg)],
  ];
  // Warm every path up (V8 optimises them), then take the samples in turns so drift hits all alike.
  for (const [, , launch] of variants) for (let i = 0; i < 100_000; i++) launch();
  cuda.synchronize();
  const samples = variants.map(() => [] as number[]);
  for (let s = 0; s < 7; s++) {
    variants.forEach(([, , launch], v) => {
      const t = performance.now();
      for (let i = 0; i < N; i++) launch();
      cuda.synchronize();
      samples[v]!.push(((performance.now() - t) * 1000) / N);
    });
  }
  variants.forEach(([impl, figure], v) =>
    emit({ impl, figure, unit: "us", better: "lower", samples: samples[v]! })
  );
  const sync: number[] = [];
  for (let s = 0; s < 5; s++) {
    const t = performance.now();
    for (let i = 0; i < 20_000; i++) {
      empty(buf, 0, cfg);
      cuda.synchronize();
    }
    sync.push(((performance.now() - t) * 1000) / 20_000);
  }
  emit({ impl: "cudeno", figure: "launch.empty.sync", unit: "us", better: "lower", samples: sync });
});

/**
 * The figures `${prefix}.eager` and `${prefix}.replay`, in µs per operation: `queueOps` queues `ops`
 * operations on `stream`; eager runs it `rounds` times per sample, replay captures it once into a
 * graph and launches that `rounds` times; each sample ends with a synchronize, and the samples of the
 * two alternate, so that drift hits both alike. `check(opsRun)`, when given, is called after the
 * warm-ups (before any sample) and at the end with the number of operations run in all so far, to
 * verify their result.
 */
function replayFigures(
  prefix: string,
  stream: cuda.Stream,
  queueOps: () => void,
  ops: number,
  notes: { eager: string; replay: string },
  check?: (opsRun: number) => void,
  rounds = 2000,
): void {
  using graph = cuda.capture(stream, queueOps);
  if (graph.nodeCount < ops) {
    throw new Error(`${prefix}: the captured graph has ${graph.nodeCount} nodes for ${ops} operations`);
  }
  using exec = graph.instantiate();
  exec.upload(stream);
  let opsRun = 0;
  const runs = {
    eager: (n: number) => {
      for (let r = 0; r < n; r++) queueOps();
    },
    replay: (n: number) => {
      for (let r = 0; r < n; r++) exec.launch(stream);
    },
  };
  const time = (run: (n: number) => void, n: number): number => {
    const t = performance.now();
    run(n);
    stream.synchronize();
    opsRun += n * ops;
    return ((performance.now() - t) * 1000) / (n * ops);
  };
  time(runs.eager, rounds / 10);
  time(runs.replay, rounds / 10);
  check?.(opsRun);
  const eager: number[] = [], replay: number[] = [];
  for (let s = 0; s < 7; s++) {
    eager.push(time(runs.eager, rounds));
    replay.push(time(runs.replay, rounds));
  }
  check?.(opsRun);
  emit({
    impl: "cudeno",
    figure: `${prefix}.eager`,
    unit: "us",
    better: "lower",
    samples: eager,
    note: notes.eager,
  });
  emit({
    impl: "cudeno",
    figure: `${prefix}.replay`,
    unit: "us",
    better: "lower",
    samples: replay,
    note: notes.replay,
  });
}

await section("graph", () => {
  const empty = mod.getFunction("empty");
  using buf = cuda.memAlloc(1024);
  using stream = new cuda.Stream();
  const cfg = { grid: 1, block: 32, stream };
  replayFigures(
    "graph.empty",
    stream,
    () => {
      for (let k = 0; k < 100; k++) empty(buf, 0, cfg);
    },
    100,
    {
      eager:
        "100 launches of empty (grid 1, block 32) on a stream, 2000 rounds, then a synchronize; per launch",
      replay:
        "the same 100 launches captured once with cuda.capture() and replayed by exec.launch(), 2000 times; per kernel",
    },
  );
  // 100 in-place array ops on a 1-element array, on the stream through ga.withStream().
  ga.useBackend("cuda");
  const x = ga.asarray([1], "float32");
  const add100 = () =>
    ga.withStream(stream, () => {
      for (let k = 0; k < 100; k++) x.add(1, { out: x });
    });
  add100(); // loads the kernel before the capture
  const first = ga.withStream(stream, () => x.get()[0]!);
  if (first !== 101) throw new Error(`graph.add1: x = ${first} after 100 x.add(1), want 101`);
  replayFigures(
    "graph.add1",
    stream,
    add100,
    100,
    {
      eager:
        "100 x.add(1, { out: x }) on a 1-element float32 array inside ga.withStream(stream), 500 rounds, then a synchronize; per op",
      replay:
        "the same 100 ops captured once with cuda.capture() and replayed by exec.launch(), 500 times; per op",
    },
    (opsRun) => {
      const value = ga.withStream(stream, () => x.get()[0]!);
      if (value !== first + opsRun) throw new Error(`graph.add1: x = ${value}, want ${first + opsRun}`);
    },
    500,
  );
});

const SIZES: [string, number][] = [["4KiB", 4096], ["1MiB", 2 ** 20], ["64MiB", 2 ** 26], ["1GiB", 2 ** 30]];

await section("copy", () => {
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
});

await section("d2d", () => {
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
});

await section("vadd", () => {
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
});

await section("compile", () => {
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
});

await section("array", () => {
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
});

await section("view", () => viewFigures({ emit, eventTimes, randomFloats }));
await section("join", () => joinFigures({ emit, eventTimes, randomFloats }));
await section("reduce", () => reductionFigures("cuda", emit, eventTimes, batchFor));
await section("opencl.reduce", () => reductionFigures("opencl", emit, eventTimes, batchFor));
await section("scan", () => scanFigures(emit, eventTimes));
await section("scan.opencl", () => openclScanFigures(emit));
await section("fuse", () => fuseFigures(emit, eventTimes, batchFor));

await section("matmul", () => {
  ga.useBackend("cuda");
  for (const dtype of ["float32", "bfloat16"] as const) {
    for (const size of [1024, 4096, 8192]) {
      const a32 = ga.random.normal([size, size], { seed: 3 }),
        b32 = ga.random.normal([size, size], { seed: 4 });
      const a = dtype === "float32" ? a32 : a32.astype(dtype),
        b = dtype === "float32" ? b32 : b32.astype(dtype);
      const c = ga.empty([size, size], dtype);
      const product = () => ga.matmul(a, b, { out: c });
      const host: number[] = [];
      const ms = eventTimes(10, product, batchFor(product), host, SETTLE_MS);
      const flops = 2 * size ** 3;
      const figure = `matmul.${dtype === "float32" ? "f32" : "bf16"}.${size}`;
      emit({
        impl: "cudeno",
        figure,
        unit: "TFLOP/s",
        better: "higher",
        samples: ms.map((t) => flops / (t / 1000) / 1e12),
      });
      if (size === 1024) {
        emit({
          impl: "cudeno",
          figure: `${figure}.host`,
          unit: "us",
          better: "lower",
          samples: host,
          note: "host time to queue one product; above the GPU's time per product, the host is the limit",
        });
      }
      for (const x of new Set([a32, b32, a, b, c])) x.free();
    }
  }
});

const timing: linalg.Timing = { emit, eventTimes, batchFor, settleMs: SETTLE_MS };
await section("matmul.batched", () => linalg.cudaFigures(timing));
await section("opencl.matmul", () => linalg.openclFigures(timing));
await section("sort", () => sortFigures(emit, eventTimes));

await section("opencl.sort", () => openclSortFigures(emit));

await section("opencl", () => {
  const platform = cl.getPlatforms().find((p) => p.getDevices("gpu").length > 0);
  if (platform === undefined) throw new Error("no OpenCL GPU platform");
  const context = new cl.Context(platform.getDevices("gpu")[0]!);
  const queue = new cl.CommandQueue(context);
  const tiny = new cl.Program(context, "__kernel void tiny(__global float *p) { }").build().getKernel("tiny");
  const buf = new cl.Buffer(context, 64);
  const loops = {
    "opencl.enqueue_finish": () => {
      tiny.launch(queue, 1, null, buf);
      queue.finish();
    },
    "opencl.enqueue_finish.event": () => {
      tiny(queue, 1, null, buf).release();
      queue.finish();
    },
  };
  for (const [figure, step] of Object.entries(loops)) {
    for (let i = 0; i < 2000; i++) step();
    const samples: number[] = [];
    for (let s = 0; s < 5; s++) {
      const t = performance.now();
      for (let i = 0; i < 20_000; i++) step();
      samples.push(((performance.now() - t) * 1000) / 20_000);
    }
    const how = figure.endsWith(".event")
      ? "kernel() returning an Event, released"
      : "kernel.launch(), no event";
    emit({
      impl: "cudeno",
      figure,
      unit: "us",
      better: "lower",
      samples,
      note: `on ${context.device.name}; ${how}`,
    });
  }
});

await section("jit", () => {
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
});

if (failures > 0) {
  console.error(`[cudeno] ${failures} section(s) failed`);
  Deno.exit(1);
}
