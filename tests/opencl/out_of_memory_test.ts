/**
 * Asking an OpenCL device for more memory than it has is an `OutOfMemoryError` (an `OpenCLError`) that
 * names the bytes asked for, the device's global memory and its per-buffer limit, in binary units; the
 * context, the queue and arrays work on afterwards. (PoCL allocates host memory lazily and counts no
 * total, so only the per-buffer limit can be run into here without exhausting the machine.)
 */
import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { formatBytes } from "../../src/kernel/bytes.ts";
import { openclTest } from "../_backends.ts";

/** Checks `e` is the OutOfMemoryError for `bytes` on `device`. */
function outOfMemory(bytes: bigint, device: cl.Device) {
  return (e: unknown): true => {
    assert.ok(e instanceof cl.OutOfMemoryError, `an OutOfMemoryError, not ${e}`);
    assert.ok(e instanceof cl.OpenCLError, "an OpenCLError too, so existing catches catch it");
    assert.equal(e.name, "OutOfMemoryError");
    assert.equal(e.codeName, "CL_INVALID_BUFFER_SIZE");
    assert.equal(e.call, "clCreateBuffer");
    assert.equal(e.requested, bytes);
    assert.equal(e.globalMemory, device.globalMemory);
    assert.equal(e.maxAllocation, device.maxAllocation);
    assert.equal(
      e.message,
      `clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61): ${device.name} cannot hold ${
        formatBytes(bytes)
      } (${bytes} bytes): it has ${formatBytes(device.globalMemory)} of global memory and allows ${
        formatBytes(device.maxAllocation)
      } per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE); split the data into smaller buffers`,
    );
    assert.doesNotMatch(e.message, /\d{5,}\.\d\d [KMGTP]iB/, "sizes in the unit that fits");
    return true;
  };
}

openclTest(
  "new cl.Buffer() of 1 PiB throws OutOfMemoryError naming the bytes and the device's global memory",
  () => {
    const ctx = cl.createSomeContext();
    const queue = new cl.CommandQueue(ctx);
    assert.throws(() => new cl.Buffer(ctx, 2 ** 50), outOfMemory(2n ** 50n, ctx.device));
    const x = Float32Array.from({ length: 1000 }, (_, i) => i - 500);
    const buf = new cl.Buffer(ctx, x.byteLength, { hostBuf: x });
    const square = new cl.Program(
      ctx,
      "__kernel void sq(__global float *x) { int i = get_global_id(0); x[i] *= x[i]; }",
    )
      .build().getKernel("sq");
    square(queue, [x.length], null, buf).release();
    const back = new Float32Array(x.length);
    cl.enqueueCopy(queue, back, buf);
    assert.deepEqual(back, x.map((v) => v * v), "the context computes after the failure");
    buf.free();
  },
);

openclTest(
  "an array larger than the OpenCL device throws OutOfMemoryError, and arrays compute afterwards",
  () => {
    ga.useBackend("opencl");
    const device = cl.chooseDevice();
    const elements = Number(device.globalMemory / 4n) * 2; // float32: twice the device's memory
    assert.throws(() => ga.empty([elements], "float32"), outOfMemory(BigInt(elements) * 4n, device));
    const host = Float32Array.from({ length: 4096 }, (_, i) => (i % 17) - 8);
    using a = ga.toGpu(host);
    using squared = ga.mul(a, a);
    using b = ga.add(squared, 1);
    assert.deepEqual(b.get(), host.map((v) => v * v + 1));
  },
);
