import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";

// The stream-ordered pool and its counters are the process's: other files' Workers would move them.
const { cudaTest } = alone(
  import.meta.url,
  "it reads the pool's counters",
  { cudaTest: cudaHere },
  cudaProblem,
);

cudaTest("memAllocAsync() memory holds data, goes back to the pool on free(), and is reused", () => {
  cudaContext();
  cuda.setMemPoolReleaseThreshold(new cuda.Device(0), 2n ** 64n - 1n);
  const data = Uint32Array.from({ length: 1 << 16 }, (_, i) => i * 7);
  const seen = new Set<bigint>();
  for (let round = 0; round < 3; round++) {
    const buf = cuda.memAllocAsync(data.byteLength);
    seen.add(buf.ptr);
    cuda.memcpyHtoD(buf, data);
    const back = new Uint32Array(data.length);
    cuda.memcpyDtoH(back, buf);
    assert.deepEqual(back, data);
    buf.free();
    buf.free();
    assert.equal(buf.freed, true);
    assert.throws(() => buf.ptr, { name: "TypeError", message: /was freed/ });
  }
  assert.ok(seen.size < 3, "a freed block of the same size is handed out again");
});

cudaTest(
  "memPoolUsage() counts an allocation as used until it is freed, and the pool keeps it reserved",
  () => {
    const device = cudaContext().device;
    cuda.setMemPoolReleaseThreshold(device, 2n ** 64n - 1n);
    cuda.synchronize();
    const before = cuda.memPoolUsage(device);
    const bytes = 64 * 2 ** 20;
    const buf = cuda.memAllocAsync(bytes);
    const during = cuda.memPoolUsage(device);
    assert.ok(during.used - before.used >= BigInt(bytes), `used grew by ${during.used - before.used} bytes`);
    assert.ok(during.reserved >= during.used, "the pool holds at least what is used");
    buf.free();
    cuda.synchronize();
    const after = cuda.memPoolUsage(device);
    assert.ok(after.used <= during.used - BigInt(bytes), "the freed allocation is no longer used");
    assert.ok(
      after.reserved >= BigInt(bytes),
      "the pool keeps the freed memory (its release threshold is the maximum)",
    );
  },
);

cudaTest(
  "memAllocAsync() on a stream orders its memory after that stream's work, and frees there",
  async () => {
    cudaContext();
    using stream = new cuda.Stream();
    const buf = cuda.memAllocAsync(4096, stream);
    cuda.memsetD32(buf, 0xdeadbeef, 1024, stream);
    const out = new Uint32Array(1024);
    cuda.memcpyDtoHAsync(out, buf, stream);
    await stream.completed();
    assert.ok(out.every((v) => v === 0xdeadbeef));
    buf.free();
    assert.throws(() => cuda.memAllocAsync(0), RangeError);
  },
);

cudaTest(
  "memAllocAsync() on the capturing stream is a memory node of the graph; off that stream it is refused",
  async () => {
    cudaContext();
    using stream = new cuda.Stream();
    using out = cuda.memAlloc(4096);
    cuda.memsetD32(out, 0, 1024);
    let kept: cuda.DeviceAllocation | undefined;
    using graph = cuda.capture(stream, () => {
      const scratch = cuda.memAllocAsync(4096, stream); // a memory node
      cuda.memsetD32(scratch, 7, 1024, stream);
      cuda.memcpyDtoDAsync(out, scratch, 4096, stream);
      scratch.free(); // freed in the graph: a free node
      kept = cuda.memAllocAsync(4096, stream); // not freed in the graph: freed before each relaunch
      cuda.memsetD32(kept, 9, 1024, stream);
      assert.throws(() => cuda.memAllocAsync(64), {
        name: "TypeError",
        message:
          /^Cannot allocate device memory off the capturing stream while a stream is capturing \(capture \d+/,
      });
    });
    assert.equal(graph.nodeCount, 6, "two allocations, two sets, a copy and a free");
    const back = new Uint32Array(1024);
    cuda.memcpyDtoH(back, out);
    assert.ok(back.every((v) => v === 0), "nothing ran during the capture");
    using exec = graph.instantiate();
    for (let i = 0; i < 3; i++) exec.launch(stream); // relaunches: `kept` is freed first each time
    await stream.completed();
    cuda.memcpyDtoH(back, out);
    assert.ok(back.every((v) => v === 7), "the copy from the graph's scratch memory");
    const held = new Uint32Array(1024);
    cuda.memcpyDtoHAsync(held, kept!, stream);
    await stream.completed();
    assert.ok(held.every((v) => v === 9), "memory the graph took and kept holds the last launch's values");
    kept!.free(); // after a launch: given back for real
    exec.launch(stream);
    await stream.completed();
  },
);
