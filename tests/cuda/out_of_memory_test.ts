/**
 * Running out of device memory: a failed allocation gives the stream-ordered pool's unused memory
 * back to the device and tries again, then throws `OutOfMemoryError` (a `CudaError`) naming the bytes
 * asked for, the device's free memory and the pool's figures in binary units; the process computes
 * on, and nothing is left allocated. The test that fills the device takes all of its memory for a
 * moment: run this file in a process of its own (not beside others under `deno test --parallel`).
 */
import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { cudaContext, cudaTest } from "../_backends.ts";

const GiB = 2 ** 30;

/** Checks `e` is the OutOfMemoryError of `call` for `bytes`, its message in binary units. */
function outOfMemory(call: string, bytes: bigint, text: string) {
  return (e: unknown): true => {
    assert.ok(e instanceof cuda.OutOfMemoryError, `an OutOfMemoryError, not ${e}`);
    assert.ok(e instanceof cuda.CudaError, "a CudaError too, so existing catches catch it");
    assert.equal(e.name, "OutOfMemoryError");
    assert.equal(e.codeName, "CUDA_ERROR_OUT_OF_MEMORY");
    assert.equal(e.call, call);
    assert.equal(e.requested, bytes);
    assert.ok(
      e.free <= e.total && e.poolUsed <= e.poolReserved,
      `free ${e.free}, pool ${e.poolUsed}/${e.poolReserved}`,
    );
    assert.match(
      e.message,
      new RegExp(
        `^${call} failed: CUDA_ERROR_OUT_OF_MEMORY \\(out of memory\\): asked for ${text} \\(${bytes} bytes\\) with [\\d.]+ [KMGT]?i?B free of [\\d.]+ GiB; the stream-ordered memory pool holds [\\d.]+ [KMGT]?i?B, [\\d.]+ [KMGT]?i?B of it in live allocations; free arrays`,
      ),
    );
    assert.doesNotMatch(e.message, /\d{5,}\.\d\d [KMGT]iB/, "sizes in the unit that fits");
    return true;
  };
}

/** x ↦ 2x + 1 on the device, checked against the host: the device still computes. */
function computes(): void {
  const host = Float32Array.from({ length: 1 << 20 }, (_, i) => (i % 1000) - 500);
  using x = ga.toGpu(host);
  using twice = ga.mul(x, 2);
  using y = ga.add(twice, 1);
  assert.deepEqual(y.get(), host.map((v) => 2 * v + 1));
}

cudaTest("memAllocAsync() past the device's memory throws OutOfMemoryError naming the bytes", () => {
  cudaContext();
  ga.useBackend("cuda");
  assert.throws(
    () => cuda.memAllocAsync(2n ** 44n),
    outOfMemory("cuMemAllocAsync", 2n ** 44n, "16 TiB"),
  );
  computes();
});

cudaTest("memAlloc() past the device's memory throws OutOfMemoryError naming the bytes", () => {
  cudaContext();
  ga.useBackend("cuda");
  assert.throws(() => cuda.memAlloc(2n ** 44n), outOfMemory("cuMemAlloc_v2", 2n ** 44n, "16 TiB"));
  computes();
});

// It fills the device too (through the pool, which then keeps it): every other process and Worker using
// the device meanwhile would run out, so it runs on request with the test below.
(Deno.env.get("CUDENO_FILL_DEVICE") === "1" ? cudaTest : skipped)(
  "memAlloc() gets memory the stream-ordered pool kept for reuse: the pool gives it back and the allocation is tried again",
  () => {
    const device = cudaContext().device;
    cuda.setMemPoolReleaseThreshold(device, 2n ** 64n - 1n); // the pool keeps all it frees
    const { total } = cuda.memGetInfo();
    const blocks: cuda.DeviceAllocation[] = [];
    try {
      for (let i = 0; i < Number(total) / GiB + 4; i++) blocks.push(cuda.memAllocAsync(GiB));
      assert.fail("the device was never full");
    } catch (e) {
      if (!(e instanceof cuda.OutOfMemoryError)) throw e;
    }
    assert.ok(blocks.length >= 2, `${blocks.length} GiB allocated`);
    for (const b of blocks) b.free();
    cuda.synchronize();
    const kept = cuda.memPoolUsage(device).reserved;
    assert.ok(kept >= BigInt(blocks.length - 1) * BigInt(GiB), `the pool keeps ${kept} bytes`);
    const { free } = cuda.memGetInfo();
    const bytes = Number(free) + GiB; // more than is free outside the pool
    const big = cuda.memAlloc(bytes);
    assert.equal(big.size, bytes);
    cuda.memsetD8(big, 7, bytes);
    const tail = new Uint8Array(16);
    cuda.memcpyDtoH(tail, big.ptr + BigInt(bytes - 16));
    assert.deepEqual(tail, new Uint8Array(16).fill(7));
    big.free();
  },
);

// It takes all of the device's memory for a while: other tests in the same run would fail meanwhile, so it
// runs on request, alone: CUDENO_FILL_DEVICE=1 deno test -A tests/cuda/out_of_memory_test.ts
(Deno.env.get("CUDENO_FILL_DEVICE") === "1" ? cudaTest : skipped)(
  "arrays of 1 GiB fill the device until OutOfMemoryError; freeing half lets arrays compute, and nothing leaks",
  () => {
    const device = cudaContext().device;
    ga.useBackend("cuda");
    computes(); // loads the kernels before the device is full (a module needs device memory too)
    using warm = ga.zeros([4]);
    ga.fill(warm, 1);
    cuda.synchronize();
    const before = cuda.memPoolUsage(device);
    const { total } = cuda.memGetInfo();
    const arrays: ga.GPUArray<"float32">[] = [];
    let failure: unknown;
    for (let i = 0; i < Number(total) / GiB + 4 && failure === undefined; i++) {
      try {
        arrays.push(ga.empty([GiB / 4], "float32"));
      } catch (e) {
        failure = e;
      }
    }
    assert.ok(failure !== undefined, "the device was never full");
    outOfMemory("cuMemAllocAsync", BigInt(GiB), "1 GiB")(failure);
    assert.ok(arrays.length >= 2, `${arrays.length} arrays of 1 GiB`);
    const full = cuda.memPoolUsage(device);
    assert.ok(full.used - before.used >= BigInt(arrays.length) * BigInt(GiB), "the arrays are in use");
    const kept = arrays.filter((_, i) => i % 2 === 0);
    arrays.filter((_, i) => i % 2 === 1).forEach((a) => a.free());
    computes();
    const last = kept[kept.length - 1]!;
    ga.fill(last, 3);
    assert.ok(last.get().every((v) => v === 3), "a kept array is whole and usable");
    kept.forEach((a) => a.free());
    cuda.synchronize();
    const after = cuda.memPoolUsage(device);
    assert.equal(after.used, before.used, "every array's memory is back in the pool");
  },
);

/** Registers a test that runs only with CUDENO_FILL_DEVICE=1, reported as ignored with that reason. */
function skipped(name: string, _fn: () => void): void {
  Deno.test({
    name: `${name} [ignored: fills the device; run alone with CUDENO_FILL_DEVICE=1]`,
    ignore: true,
    fn() {},
  });
}
