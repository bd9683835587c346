import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import { cudaContext, cudaTest, openclTest } from "../_backends.ts";

const OPS = 1000;
const LANES = 8;

cudaTest(
  "Promise.all over 1,000 async copies and launches on 8 streams gives the right results",
  async () => {
    cudaContext();
    using mod = new cuda.SourceModule(
      "__global__ void addv(float *x, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += v; }",
    );
    const addv = mod.getFunction("addv");
    const streams = Array.from({ length: LANES }, () => new cuda.Stream({ nonBlocking: true }));
    const n = 4096;
    const pins = Array.from({ length: OPS }, () => cuda.pagelockedEmpty(n, "float32"));
    const devs = Array.from({ length: OPS }, () => cuda.memAlloc(n * 4));
    const done: Promise<void>[] = [];
    for (let i = 0; i < OPS; i++) {
      const stream = streams[i % LANES]!;
      pins[i]!.array.fill(i);
      cuda.memcpyHtoDAsync(devs[i]!, pins[i]!.array, stream);
      addv(devs[i]!, 0.5, n, { grid: n / 256, block: 256, stream });
      cuda.memcpyDtoHAsync(pins[i]!.array, devs[i]!, stream);
      done.push(new cuda.Event().record(stream).completed());
    }
    await Promise.all(done);
    for (let i = 0; i < OPS; i++) {
      assert.ok(pins[i]!.array.every((v) => v === i + 0.5), `op ${i}`);
      pins[i]!.free();
      devs[i]!.free();
    }
    streams.forEach((s) => s.destroy());
  },
);

openclTest(
  "Promise.all over 1,000 copies and launches on 8 OpenCL queues gives the right results",
  async () => {
    const ctx = cl.createSomeContext();
    const queues = Array.from({ length: LANES }, () => new cl.CommandQueue(ctx));
    const k = new cl.Program(
      ctx,
      "__kernel void addv(__global float *x, float v) { x[get_global_id(0)] += v; }",
    ).build().getKernel("addv");
    const n = 1024;
    const hosts = Array.from({ length: OPS }, (_, i) => new Float32Array(n).fill(i));
    const bufs = Array.from({ length: OPS }, () => new cl.Buffer(ctx, n * 4));
    const done: Promise<void>[] = [];
    for (let i = 0; i < OPS; i++) {
      const q = queues[i % LANES]!;
      cl.enqueueCopy(q, bufs[i]!, hosts[i]!, { isBlocking: false }).release();
      k(q, [n], null, bufs[i]!, 0.5).release();
      const ev = cl.enqueueCopy(q, hosts[i]!, bufs[i]!, { isBlocking: false });
      done.push(ev.completed().then(() => ev.release()));
    }
    await Promise.all(done);
    for (let i = 0; i < OPS; i++) {
      assert.ok(hosts[i]!.every((v) => v === i + 0.5), `op ${i}`);
      bufs[i]!.free();
    }
  },
);
