import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import * as nccl from "../../src/cuda/nccl/mod.ts";
import { cudaContext, cudaProblem, cudaTest } from "../_backends.ts";

const gpus = cudaProblem === undefined ? cuda.Device.count() : 0;

/** A test that needs two or more GPUs: ignored, with the reason, on machines with fewer. */
function multiGpuTest(name: string, fn: () => void): void {
  const problem = cudaProblem ?? (gpus < 2 ? `this machine has ${gpus} CUDA device` : undefined);
  Deno.test({
    name: problem === undefined ? name : `${name} [ignored: needs 2+ GPUs; ${problem.split("\n")[0]}]`,
    ignore: problem !== undefined,
    fn,
  });
}

cudaTest("memcpyPeer() copies between allocations, taking their contexts from them", async () => {
  cudaContext();
  using a = cuda.memAlloc(4096), b = cuda.memAlloc(4096);
  cuda.memcpyHtoD(a, Float32Array.from({ length: 1024 }, (_, i) => i));
  cuda.memcpyPeer(b, a);
  const back = new Float32Array(1024);
  cuda.memcpyDtoH(back, b);
  assert.equal(back[1000], 1000);
  using stream = new cuda.Stream();
  cuda.memsetD8(b, 0, 4096);
  cuda.memcpyPeerAsync(b, a, 4096, { stream });
  await stream.completed();
  cuda.memcpyDtoH(back, b);
  assert.equal(back[7], 7);
  assert.throws(() => cuda.memcpyPeer(b.ptr, a.ptr, 16), {
    name: "TypeError",
    message: /pass \{ dstContext, srcContext \}/,
  });
});

cudaTest("NCCL initAll() makes one rank per device and reports them", () => {
  const comms = nccl.initAll();
  assert.equal(comms.length, gpus);
  comms.forEach((c, i) => {
    assert.equal(c.rank, i);
    assert.equal(c.size, gpus);
    assert.equal(c.device.ordinal, i);
  });
  assert.ok(nccl.version()[0] >= 2);
  comms.forEach((c) => c.destroy());
  comms[0]!.destroy();
  assert.throws(() => nccl.allReduce(comms[0]!, ga.ones(4), ga.ones(4)), {
    name: "TypeError",
    message: /destroyed/,
  });
  assert.throws(() => nccl.initAll([gpus]), RangeError);
});

cudaTest("NCCL collectives on one rank move data and check sizes and dtypes", () => {
  ga.useBackend("cuda", { device: 0 });
  const [comm] = nccl.initAll([0]);
  const x = ga.toGpu(Float32Array.of(1, 2, 3, 4));
  const y = ga.zeros(4);
  nccl.allReduce(comm!, x, y);
  assert.deepEqual(y.get(), Float32Array.of(1, 2, 3, 4));
  nccl.allReduce(comm!, x, y, { op: "max" });
  nccl.broadcast(comm!, x, y, { root: 0 });
  nccl.allGather(comm!, x, y);
  nccl.reduceScatter(comm!, x, y);
  assert.deepEqual(y.get(), Float32Array.of(1, 2, 3, 4));
  assert.throws(() => nccl.broadcast(comm!, x, y, { root: 3 }), RangeError);
  assert.throws(() => nccl.allReduce(comm!, x, y, { count: 5 }), {
    name: "RangeError",
    message: /hold 4 per rank/,
  });
  assert.throws(() => nccl.allReduce(comm!, x.buffer, y.buffer), {
    name: "TypeError",
    message: /pass \{ dtype \}/,
  });
  assert.throws(
    () => nccl.allReduce(comm!, ga.zeros(4, "int16"), ga.zeros(4, "int16")),
    /NCCL has no int16 type/,
  );
  comm!.destroy();
});

cudaTest("examples/multi_gpu.ts splits work over every GPU and all-reduces it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../examples/multi_gpu.ts", import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, text);
  assert.match(text, /0 wrong; all-reduced sum .* agree/);
});

multiGpuTest("NCCL all-reduce over every GPU sums each rank's data", () => {
  const comms = nccl.initAll();
  const parts = comms.map((c) => {
    ga.useBackend("cuda", { device: c.device.ordinal });
    return ga.full(1 << 20, c.rank + 1, "float32");
  });
  nccl.group(() => comms.forEach((c, i) => nccl.allReduce(c, parts[i], parts[i])));
  const want = (gpus * (gpus + 1)) / 2;
  for (const p of parts) assert.ok((p.get() as Float32Array).every((v) => v === want));
  comms.forEach((c) => c.destroy());
});

multiGpuTest("memcpyPeer() copies from device 0 to device 1 with peer access enabled where possible", () => {
  const c0 = cuda.useDevice(0);
  using a = cuda.memAlloc(1 << 20);
  cuda.memsetD32(a, 7, 1 << 18);
  const c1 = cuda.useDevice(1);
  using b = cuda.memAlloc(1 << 20);
  if (c1.device.canAccessPeer(c0.device)) c1.enablePeerAccess(c0);
  cuda.memcpyPeer(b, a);
  const back = new Uint32Array(1 << 18);
  cuda.memcpyDtoH(back, b);
  assert.ok(back.every((v) => v === 7));
});

multiGpuTest(
  "array work inside ga.withStream() with a stream of another device is refused, naming both",
  () => {
    cudaContext();
    using stream = new cuda.Stream(); // device 0
    ga.useBackend("cuda", { device: 1 });
    try {
      const x = ga.zeros(4);
      assert.throws(() => ga.withStream(stream, () => x.add(1)), {
        name: "TypeError",
        message:
          /^Cannot launch a kernel on cuda:1 .* while a stream of cuda:0 is current: make a stream of this device current/,
      });
      assert.throws(() => ga.withStream(stream, () => ga.zeros(4)), {
        name: "TypeError",
        message: /^Cannot allocate an array on cuda:1 .* while a stream of cuda:0 is current/,
      });
      assert.deepEqual(x.get(), new Float32Array(4), "nothing ran");
    } finally {
      ga.useBackend("cuda");
      cudaContext();
    }
  },
);
