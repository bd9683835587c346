import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as cl from "../../src/opencl/mod.ts";
import { cudaContext, cudaTest, openclTest } from "../_backends.ts";
import { collectGarbage } from "./_gc.ts";

function pattern(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => ((i * 2654435761 + seed) >>> 0) % 1000);
}

cudaTest("pinned host memory given to async copies survives a GC before the stream completes", async () => {
  cudaContext();
  const n = 1 << 22;
  using dev = cuda.memAlloc(n * 4);
  using stream = new cuda.Stream();
  const slowOut: Float32Array[] = [];
  for (let round = 0; round < 4; round++) {
    (() => {
      const src = cuda.pagelockedEmpty(n, "float32");
      src.array.set(pattern(n, round));
      cuda.memcpyHtoDAsync(dev, src.array, stream); // only the stream holds the array now
      const dst = cuda.pagelockedEmpty(n, "float32");
      cuda.memcpyDtoHAsync(dst.array, dev, stream);
      slowOut.push(dst.array);
    })();
    await collectGarbage();
    await stream.completed();
    assert.deepEqual(slowOut[round], pattern(n, round), `round ${round}`);
  }
});

openclTest(
  "host arrays given to non-blocking OpenCL copies survive a GC before the queue completes",
  async () => {
    const ctx = cl.createSomeContext();
    const queue = new cl.CommandQueue(ctx);
    const n = 1 << 22;
    using buf = new cl.Buffer(ctx, n * 4);
    for (let round = 0; round < 4; round++) {
      const out = new Float32Array(n);
      let ev: cl.Event | undefined;
      (() => {
        cl.enqueueCopy(queue, buf, pattern(n, round), { isBlocking: false }).release();
        ev = cl.enqueueCopy(queue, out, buf, { isBlocking: false });
      })();
      await collectGarbage();
      await ev!.completed();
      assert.deepEqual(out, pattern(n, round), `round ${round}`);
    }
  },
);

cudaTest("argument blocks stay valid across GCs between launches", async () => {
  cudaContext();
  const fn = (() =>
    new cuda.SourceModule("__global__ void put(int *x, int v) { *x = v; }").getFunction("put"))();
  using x = cuda.memAlloc(4);
  const out = new Int32Array(1);
  for (let v = 1; v <= 5; v++) {
    await collectGarbage();
    fn(x, v * 11, { block: 1 });
    cuda.memcpyDtoH(out, x);
    assert.equal(out[0], v * 11);
  }
});
