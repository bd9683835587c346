import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import { cudaContext, cudaTest, openclTest } from "../_backends.ts";

cudaTest(
  "CUDA objects used after free, destroy or unload throw TypeError, and double frees are harmless",
  () => {
    cudaContext();
    const buf = cuda.memAlloc(64);
    buf.free();
    buf.free();
    assert.throws(() => cuda.memsetD8(buf, 0, 64), TypeError);
    const stream = new cuda.Stream();
    stream.destroy();
    stream.destroy();
    assert.throws(() => stream.synchronize(), TypeError);
    assert.throws(() => cuda.memcpyHtoDAsync(cuda.memAlloc(4), new Uint8Array(4), stream), TypeError);
    const ev = new cuda.Event();
    ev.destroy();
    assert.throws(() => ev.synchronize(), TypeError);
    const write = new cuda.SourceModule("__global__ void w(float *x) { x[0] = 1; }").getFunction("w");
    assert.throws(() => write(buf, { block: 1 }), {
      name: "TypeError",
      message: /^Cannot pass a DeviceAllocation to w\(\) parameter 1 .* it was freed/,
    });
    const mod = new cuda.SourceModule("__global__ void k(int n) {}");
    mod.unload();
    assert.throws(() => mod.getFunction("k"), TypeError);
    const pinned = cuda.pagelockedEmpty(16);
    pinned.free();
    pinned.free();
    assert.equal(pinned.array.length, 0);
  },
);

cudaTest("CUDA copies larger than either side are RangeErrors", () => {
  cudaContext();
  using a = cuda.memAlloc(64), b = cuda.memAlloc(32);
  assert.throws(() => cuda.memcpyDtoD(a, b, 64), RangeError);
  assert.throws(() => cuda.memcpyDtoD(b, a, 64), RangeError);
  assert.throws(() => cuda.memcpyDtoHAsync(new Uint8Array(65), a), RangeError);
  assert.throws(() => cuda.memcpyDtoD(a.ptr, b.ptr), { name: "TypeError", message: /give the byte count/ });
});

openclTest("OpenCL objects used after release throw TypeError, and double releases are harmless", () => {
  const ctx = cl.createSomeContext();
  const queue = new cl.CommandQueue(ctx);
  const buf = new cl.Buffer(ctx, 64);
  const ev = cl.enqueueFillBuffer(queue, buf, new Uint8Array([1]));
  ev.wait();
  ev.release();
  ev.release();
  assert.throws(() => ev.wait(), TypeError);
  const prg = new cl.Program(ctx, "__kernel void k(__global int *x) { x[0] = 1; }").build();
  const k = prg.getKernel("k");
  k.release();
  k.release();
  assert.throws(() => k(queue, 1, null, buf), { name: "TypeError", message: /released/ });
  buf.free();
  assert.throws(() => cl.enqueueFillBuffer(queue, buf, new Uint8Array([1])), TypeError);
  queue.release();
  ctx.release();
  ctx.release();
  assert.throws(() => new cl.Buffer(ctx, 16), TypeError);
});

openclTest("OpenCL copies and fills outside a buffer are RangeErrors", () => {
  const ctx = cl.createSomeContext();
  const queue = new cl.CommandQueue(ctx);
  using a = new cl.Buffer(ctx, 64), b = new cl.Buffer(ctx, 32);
  assert.throws(() => cl.enqueueCopy(queue, b, a, { byteCount: 64 }), RangeError);
  assert.throws(() => cl.enqueueCopy(queue, new Uint8Array(16), a, { srcOffset: 56 }), RangeError);
  assert.throws(() => cl.enqueueFillBuffer(queue, a, new Uint32Array([1]), 0, 66), RangeError);
});
