import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaTest } from "../_backends.ts";

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
