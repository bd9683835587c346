import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import { cudaContext, cudaTest as cudaHere, openclTest as openclHere } from "../_backends.ts";
import { collectGarbage, memoryMiB, rssMiB } from "./_gc.ts";
import { libcuda } from "../../ffi/cuda.ts";
import { alone } from "../_alone.ts";
import { freeMemory, settled } from "../_device_memory.ts";

// The resident set size is the process's: other files' Workers would move it.
const { cudaTest, openclTest } = alone(import.meta.url, "it measures the resident set size", {
  cudaTest: cudaHere,
  openclTest: openclHere,
});

/** Host memory may grow this much over a loop (allocator pools, JIT code), and no more. */
const RSS_BOUND_MIB = 64;
const MiB = 2n ** 20n;

cudaTest("100,000 alloc/free cycles return device memory to where it started, RSS flat", async () => {
  cudaContext();
  for (let i = 0; i < 1000; i++) cuda.memAlloc(4096).free();
  const rss = rssMiB();
  // Five rounds of 20,000: a leak (at least 80 MB a round) lowers the free memory in every round, while
  // other processes and the parent's Workers (a parallel run) allocate only now and then: one clean round
  // is enough.
  const downs: bigint[] = [];
  for (let round = 0; round < 5; round++) {
    const before = freeMemory();
    for (let i = 0; i < 20_000; i++) cuda.memAlloc(4096 + (i % 7) * 512).free();
    downs.push(await settled(() => before - freeMemory(), (d) => d < MiB));
  }
  assert.ok(
    downs.some((d) => d < MiB),
    `device memory down by ${downs.map((d) => Number(d) / 2 ** 20)} MiB in each round`,
  );
  assert.ok(rssMiB() - rss < RSS_BOUND_MIB, `RSS grew ${(rssMiB() - rss).toFixed(1)} MiB`);
});

cudaTest(
  "10,000 module loads from the cache and unloads leak no device memory and no more host memory than the driver",
  async () => {
    cudaContext();
    const src = "__global__ void leak_probe(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }";
    const image = cuda.compile(src).image;
    // The driver's own cost: the same driver calls cudeno makes (load, look the kernel up, read its
    // attributes and parameter layout, unload) straight through FFI, with no cudeno objects. Also
    // measured with a JIT error log attached to each load, for comparison (cudeno attaches one only
    // to retry a load that failed).
    const lib = libcuda.get();
    const out = new BigUint64Array(1), fn = new BigUint64Array(1), attr = new Int32Array(1);
    const offset = new BigUint64Array(1), size = new BigUint64Array(1);
    const log = new Uint8Array(16384);
    const logOptions = new Int32Array([6, 5]); // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER
    const logValues = new BigUint64Array([16384n, Deno.UnsafePointer.value(Deno.UnsafePointer.of(log))]);
    const name = new TextEncoder().encode("leak_probe\0");
    const rawLoads = (n: number, withLog: boolean) => {
      for (let i = 0; i < n; i++) {
        const code = withLog
          ? lib.cuModuleLoadDataEx(out, image, 2, logOptions, logValues)
          : lib.cuModuleLoadDataEx(out, image, 0, null, null);
        assert.equal(code, 0);
        const mod = Deno.UnsafePointer.create(out[0]!);
        lib.cuModuleGetFunction(fn, mod, name);
        const f = Deno.UnsafePointer.create(fn[0]!);
        for (let a = 0; a <= 6; a++) lib.cuFuncGetAttribute(attr, a, f);
        for (let p = 0n; p <= 2n; p++) lib.cuFuncGetParamInfo?.(f, p, offset, size);
        lib.cuModuleUnload(mod);
      }
    };
    const cudenoLoads = (n: number) => {
      for (let i = 0; i < n; i++) {
        const m = new cuda.SourceModule(src);
        m.getFunction("leak_probe");
        m.unload();
      }
    };
    rawLoads(1000, false);
    rawLoads(1000, true);
    cudenoLoads(1000);
    const before = cuda.memGetInfo().free;
    let rss = rssMiB();
    rawLoads(10_000, true);
    const withLogGrowth = rssMiB() - rss;
    rss = rssMiB();
    rawLoads(10_000, false);
    const driverGrowth = rssMiB() - rss;
    rss = rssMiB();
    const split = memoryMiB();
    cudenoLoads(10_000);
    const cudenoGrowth = rssMiB() - rss;
    const after = memoryMiB();
    const where = `V8 heap in use ${(after.heapUsed - split.heapUsed).toFixed(1)} MiB, outside the heap ${
      (after.native - split.native).toFixed(1)
    } MiB`;
    console.log(
      `RSS growth over 10,000 loads: driver ${driverGrowth.toFixed(1)} MiB, driver with a JIT log ${
        withLogGrowth.toFixed(1)
      } MiB, cudeno ${cudenoGrowth.toFixed(1)} MiB (${where})`,
    );
    assert.ok(await settled(() => before - freeMemory(), (d) => d < MiB) < MiB, "device memory comes back");
    // RSS can fall while the driver alone runs (the allocator hands back an earlier phase's pages):
    // that is no negative cost of the driver, so the allowance starts from zero, never below it.
    assert.ok(
      cudenoGrowth < Math.max(0, driverGrowth) + RSS_BOUND_MIB / 4,
      `RSS grew ${cudenoGrowth.toFixed(1)} MiB through cudeno (${where}), ${
        driverGrowth.toFixed(1)
      } MiB through the driver alone`,
    );
  },
);

cudaTest("1,000,000 launches leave host memory flat and give the right result", () => {
  cudaContext();
  using mod = new cuda.SourceModule("__global__ void bump(int *x) { atomicAdd(x, 1); }");
  const bump = mod.getFunction("bump");
  using x = cuda.memAlloc(4);
  cuda.memsetD32(x, 0, 1);
  const cfg = { block: 1 };
  for (let i = 0; i < 10_000; i++) bump(x, cfg);
  cuda.synchronize();
  const rss = rssMiB();
  for (let i = 0; i < 1_000_000; i++) bump(x, cfg);
  cuda.synchronize();
  const out = new Int32Array(1);
  cuda.memcpyDtoH(out, x);
  assert.equal(out[0], 1_010_000);
  assert.ok(rssMiB() - rss < RSS_BOUND_MIB, `RSS grew ${(rssMiB() - rss).toFixed(1)} MiB`);
});

cudaTest("allocations dropped without free() are returned by the FinalizationRegistry", async () => {
  cudaContext();
  await collectGarbage();
  const before = cuda.memGetInfo().free;
  (() => {
    for (let i = 0; i < 256; i++) cuda.memAlloc(4 * 2 ** 20);
  })();
  const held = await settled(() => before - freeMemory(), (d) => d >= 1000n * MiB);
  assert.ok(held >= 1000n * MiB, "the allocations were made");
  await collectGarbage();
  const still = await settled(() => before - freeMemory(), (d) => d < MiB);
  assert.ok(still < MiB, `still ${Number(still) / 2 ** 20} MiB held`);
});

openclTest("100,000 OpenCL buffer create/free cycles and 100,000 events leave host memory flat", () => {
  const ctx = cl.createSomeContext();
  const queue = new cl.CommandQueue(ctx);
  const pattern = new Uint8Array([7]);
  for (let i = 0; i < 1000; i++) new cl.Buffer(ctx, 4096).free();
  const rss = rssMiB();
  for (let i = 0; i < 100_000; i++) new cl.Buffer(ctx, 4096).free();
  using buf = new cl.Buffer(ctx, 64);
  for (let i = 0; i < 100_000; i++) {
    cl.enqueueFillBuffer(queue, buf, pattern).release();
    if (i % 1000 === 999) queue.finish();
  }
  queue.finish();
  assert.ok(rssMiB() - rss < RSS_BOUND_MIB, `RSS grew ${(rssMiB() - rss).toFixed(1)} MiB`);
});

openclTest("200 OpenCL program builds and releases leave host memory flat", () => {
  const ctx = cl.createSomeContext();
  const src = "__kernel void probe(__global int *x) { x[get_global_id(0)] += 1; }";
  for (let i = 0; i < 20; i++) new cl.Program(ctx, src).build().release();
  const rss = rssMiB();
  for (let i = 0; i < 200; i++) {
    const p = new cl.Program(ctx, src).build();
    p.getKernel("probe");
    p.release();
  }
  assert.ok(rssMiB() - rss < RSS_BOUND_MIB, `RSS grew ${(rssMiB() - rss).toFixed(1)} MiB`);
});

openclTest("OpenCL buffers dropped without free() are released by the FinalizationRegistry", async () => {
  // 48 MiB each: above glibc's largest mmap threshold, so freed memory really leaves the process and
  // RSS shows whether the driver released it.
  const ctx = cl.createSomeContext();
  const host = new Uint8Array(48 * 2 ** 20).fill(1);
  await collectGarbage();
  const rss = rssMiB();
  (() => {
    for (let i = 0; i < 20; i++) new cl.Buffer(ctx, host.byteLength, { hostBuf: host });
  })();
  const peak = rssMiB();
  await collectGarbage();
  const after = rssMiB();
  assert.ok(peak - rss > 800, `the buffers took ${(peak - rss).toFixed(0)} MiB of host memory`);
  assert.ok(after - rss < RSS_BOUND_MIB, `RSS still ${(after - rss).toFixed(0)} MiB above the start`);
});
