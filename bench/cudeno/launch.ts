/**
 * cudeno's launch figures for the GPU benchmark (bench/README.md lists them): empty launches and
 * launches of eight arguments through cudeno's kernel functions, beside `cuLaunchKernel` straight
 * through Deno FFI (impl "deno-raw"), a launch and its synchronize, and an OpenCL kernel's enqueue and
 * finish; and the CUDA C of the kernels these and the graph and vadd figures launch.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import { libcuda } from "../../ffi/cuda.ts";
import type { BenchRecord } from "../records.ts";

/** The kernels of the launch, graph and vadd figures (suite.ts loads them once); compile.ts compiles it too. */
export const LAUNCH_SRC = `__global__ void empty(float *p, int n) {}
__global__ void args8(float *a, float *b, float *c, float *d, int n, float alpha, float beta, int flag) {
  if (n < 0) a[0] = alpha + beta + flag + b[0] + c[0] + d[0];
}
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}`;

/** Emits `launch.empty.async` (cudeno and deno-raw), `launch.args8.async` and `launch.empty.sync`. */
export function launchFigures(mod: cuda.SourceModule, emit: (record: BenchRecord) => void): void {
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
}

/** Emits `opencl.enqueue_finish` and `opencl.enqueue_finish.event` on the first OpenCL GPU platform. */
export function openclLaunchFigures(emit: (record: BenchRecord) => void): void {
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
}
