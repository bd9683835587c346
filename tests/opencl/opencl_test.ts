import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import { openclProblem, openclTest as openclHere } from "../_backends.ts";
import { alone } from "../_alone.ts";

// CUDENO_OPENCL_DEVICE is the process's: other files' Workers making a context meanwhile would get its device.
const { openclTest } = alone(
  import.meta.url,
  "it sets CUDENO_OPENCL_DEVICE",
  { openclTest: openclHere },
  openclProblem,
);

let shared: { ctx: cl.Context; queue: cl.CommandQueue } | undefined;
function setup(): { ctx: cl.Context; queue: cl.CommandQueue } {
  if (shared === undefined) {
    const ctx = cl.createSomeContext();
    shared = { ctx, queue: new cl.CommandQueue(ctx, { profiling: true }) };
  }
  return shared;
}

const TYPES_SRC = `
__kernel void types(__global long *out, int i, uint u, long l, ulong ul, float f, double d, char c, uchar uc, short s, ushort us) {
  out[0] = i; out[1] = u; out[2] = l; out[3] = (long)ul; out[4] = (long)(f * 1000.0f); out[5] = (long)(d * 1000000.0);
  out[6] = c; out[7] = uc; out[8] = s; out[9] = us;
}
__kernel void saxpy(float a, __global const float *x, __global float *y, const int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void block_sum(__global const float *x, __local float *tmp, __global float *out) {
  int l = get_local_id(0);
  tmp[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
__kernel void spin(__global float *x, int n) {
  float v = x[0];
  for (int i = 0; i < n; i++) v = v * 1.0000001f + 0.5f;
  x[0] = v;
}`;

let program: cl.Program | undefined;
function prg(): cl.Program {
  program ??= new cl.Program(setup().ctx, TYPES_SRC).build();
  return program;
}

openclTest("getPlatforms() reports platforms and devices with their info", () => {
  const platforms = cl.getPlatforms();
  assert.ok(platforms.length > 0);
  const device = platforms[0]!.getDevices()[0]!;
  assert.ok(device.name.length > 0);
  assert.ok(["gpu", "cpu", "accelerator", "custom", "default"].includes(device.type));
  assert.ok(device.computeUnits >= 1);
  assert.ok(device.globalMemory > 0n);
  assert.ok(device.localMemory > 0n);
  assert.ok(device.maxWorkGroupSize >= 1);
  assert.equal(device.maxWorkItemSizes.length >= 3, true);
  assert.match(device.version, /^OpenCL \d\.\d/);
  assert.ok(Array.isArray(device.extensions));
  assert.equal(String(device), `opencl:0:0 ${device.name}`);
});

openclTest("createSomeContext() honours CUDENO_OPENCL_DEVICE and rejects a device that is not there", () => {
  Deno.env.set("CUDENO_OPENCL_DEVICE", "0:0");
  try {
    assert.equal(cl.createSomeContext().device.index, 0);
    Deno.env.set("CUDENO_OPENCL_DEVICE", "7:3");
    assert.throws(() => cl.createSomeContext(), { name: "RangeError", message: /give "P:D".*0:0 / });
  } finally {
    Deno.env.delete("CUDENO_OPENCL_DEVICE");
  }
});

openclTest("enqueueCopy() moves data host to buffer, buffer to buffer and back", () => {
  const { ctx, queue } = setup();
  const x = Float32Array.from({ length: 1000 }, (_, i) => i * 0.5);
  using a = new cl.Buffer(ctx, x.byteLength);
  using b = new cl.Buffer(ctx, x.byteLength);
  cl.enqueueCopy(queue, a, x);
  cl.enqueueCopy(queue, b, a);
  const back = new Float32Array(1000);
  cl.enqueueCopy(queue, back, b);
  assert.deepEqual(back, x);
  const part = new Float32Array(10);
  cl.enqueueCopy(queue, part, b, { srcOffset: 40 });
  assert.deepEqual(part, x.subarray(10, 20));
});

openclTest("enqueueCopy() rejects a host array larger than the buffer", () => {
  const { ctx, queue } = setup();
  using buf = new cl.Buffer(ctx, 16);
  assert.throws(() => cl.enqueueCopy(queue, buf, new Float32Array(5)), {
    name: "RangeError",
    message: "Cannot copy 20 bytes at offset 0: the destination buffer holds 16 bytes",
  });
  assert.throws(() => cl.enqueueCopy(queue, new Float32Array(5), buf), RangeError);
  assert.throws(() => cl.enqueueCopy(queue, new Float32Array(1), new Float32Array(1) as never), TypeError);
});

openclTest("a non-blocking enqueueCopy() keeps its host array and completes", async () => {
  const { ctx, queue } = setup();
  using buf = new cl.Buffer(ctx, 4 * 4096);
  const ev = cl.enqueueCopy(queue, buf, new Float32Array(4096).fill(3), { isBlocking: false });
  await ev.completed();
  assert.equal(ev.status, "complete");
  const back = new Float32Array(4096);
  cl.enqueueCopy(queue, back, buf);
  assert.ok(back.every((v) => v === 3));
});

openclTest("enqueueFillBuffer() repeats a pattern and checks its size", () => {
  const { ctx, queue } = setup();
  using buf = new cl.Buffer(ctx, 64);
  cl.enqueueFillBuffer(queue, buf, new Float32Array([2.5])).wait();
  const back = new Float32Array(16);
  cl.enqueueCopy(queue, back, buf);
  assert.ok(back.every((v) => v === 2.5));
  assert.throws(() => cl.enqueueFillBuffer(queue, buf, new Uint8Array(3)), /1, 2, 4, ..., 128 bytes/);
});

openclTest("Buffer.free() is idempotent and a freed buffer is a TypeError, not a crash", () => {
  const { ctx, queue } = setup();
  const buf = new cl.Buffer(ctx, 64);
  buf.free();
  buf.free();
  assert.equal(buf.freed, true);
  assert.throws(() => cl.enqueueCopy(queue, buf, new Uint8Array(4)), {
    name: "TypeError",
    message: /it was freed/,
  });
  const y = new cl.Buffer(ctx, 64);
  assert.throws(() => prg().getKernel("saxpy")(queue, [16], null, 1, buf, y, 16), {
    name: "TypeError",
    message: /it was freed/,
  });
});

openclTest("Buffer rejects a zero size, and an allocation beyond the device is an OutOfMemoryError", () => {
  const { ctx } = setup();
  assert.throws(() => new cl.Buffer(ctx, 0), RangeError);
  assert.throws(() => new cl.Buffer(ctx, Number(ctx.device.maxAllocation) + 4096), {
    name: "OutOfMemoryError",
    message: /allows .* per buffer \(CL_DEVICE_MAX_MEM_ALLOC_SIZE\); split the data into smaller buffers$/,
  });
});

openclTest("Program.build() failure throws OpenCLError carrying the build log", () => {
  const { ctx } = setup();
  try {
    new cl.Program(ctx, "__kernel void broken(__global float *x) { x[0] = undefined_name; }").build();
    assert.fail("expected a build failure");
  } catch (e) {
    assert.ok(e instanceof cl.OpenCLError);
    assert.equal(e.codeName, "CL_BUILD_PROGRAM_FAILURE");
    assert.match(e.log, /undefined_name/);
    assert.match(e.message, /undefined_name/);
  }
});

openclTest(
  "a kernel packs int, uint, long, ulong, float, double, char, uchar, short and ushort from its signature",
  () => {
    const { ctx, queue } = setup();
    if (!ctx.device.supportsFloat64) return;
    using out = new cl.Buffer(ctx, 10 * 8);
    prg().getKernel("types")(
      queue,
      1,
      null,
      out,
      -7,
      4000000000,
      -(2n ** 40n),
      2n ** 62n,
      1.5,
      2.25,
      -100,
      200,
      -30000,
      60000,
    )
      .wait();
    const back = new BigInt64Array(10);
    cl.enqueueCopy(queue, back, out);
    assert.deepEqual([...back], [
      -7n,
      4000000000n,
      -(2n ** 40n),
      2n ** 62n,
      1500n,
      2250000n,
      -100n,
      200n,
      -30000n,
      60000n,
    ]);
  },
);

openclTest("prg.getKernel() computes saxpy with scalars typed from the signature", async () => {
  const { ctx, queue } = setup();
  const n = 10000;
  const x = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
  const y = Float32Array.from({ length: n }, (_, i) => Math.cos(i));
  using xBuf = new cl.Buffer(ctx, x.byteLength, { hostBuf: x });
  using yBuf = new cl.Buffer(ctx, y.byteLength, { hostBuf: y });
  const ev = prg().getKernel("saxpy")(queue, [n], null, 2.0, xBuf, yBuf, n);
  await ev.completed();
  const { start, end } = ev.profile;
  assert.ok(end >= start && start > 0n);
  const out = new Float32Array(n);
  cl.enqueueCopy(queue, out, yBuf);
  for (let i = 0; i < n; i++) assert.equal(out[i], Math.fround(Math.fround(2 * x[i]!) + y[i]!));
});

openclTest("kernel.launch() queues without an event, and a reused buffer argument is still checked", () => {
  const { ctx, queue } = setup();
  const n = 256;
  const saxpy = prg().getKernel("saxpy");
  const x = Float32Array.from({ length: n }, (_, i) => i);
  const xBuf = new cl.Buffer(ctx, x.byteLength, { hostBuf: x });
  using y1 = new cl.Buffer(ctx, x.byteLength, { hostBuf: new Float32Array(n).fill(1) });
  using y2 = new cl.Buffer(ctx, x.byteLength, { hostBuf: new Float32Array(n).fill(2) });
  // The same buffers twice (their arguments are not set again), then another y, then the first again.
  assert.equal(saxpy.launch(queue, [n], null, 2, xBuf, y1, n), undefined);
  saxpy.launch(queue, [n], null, 2, xBuf, y1, n);
  saxpy.launch(queue, [n], null, 3, xBuf, y2, n);
  saxpy.launch(queue, [n], null, 1, xBuf, y1, n);
  queue.finish();
  const out1 = new Float32Array(n), out2 = new Float32Array(n);
  cl.enqueueCopy(queue, out1, y1);
  cl.enqueueCopy(queue, out2, y2);
  for (let i = 0; i < n; i++) {
    assert.equal(out1[i], 1 + 5 * i, `y1[${i}]`);
    assert.equal(out2[i], 2 + 3 * i, `y2[${i}]`);
  }
  xBuf.free();
  assert.throws(() => saxpy.launch(queue, [n], null, 2, xBuf, y1, n), {
    name: "TypeError",
    message: /parameter 2 \(__global const float \* x\)/,
  });
  assert.throws(() => saxpy(queue, [n], null, 2, xBuf, y1, n), { name: "TypeError", message: /parameter 2/ });
  assert.throws(() => saxpy.launch(queue, [n], null, 2, y1, n), {
    name: "TypeError",
    message: /call it as saxpy\.launch\(queue, globalSize, localSize, a, x, y, n\); got 6 values/,
  });
});
openclTest("a kernel call with the wrong count or types is a TypeError naming the parameter", () => {
  const { ctx, queue } = setup();
  using b = new cl.Buffer(ctx, 64);
  const saxpy = prg().getKernel("saxpy");
  assert.throws(() => saxpy(queue, [16], null, 2, b, b), {
    name: "TypeError",
    message: /call it as saxpy\(queue, globalSize, localSize, a, x, y, n\); got 6 values/,
  });
  assert.throws(() => saxpy(queue, [16], null, "2", b, b, 16), {
    name: "TypeError",
    message: /parameter 1 \(float a\)/,
  });
  assert.throws(() => saxpy(queue, [16], null, 2, b, new Float32Array(4), 16), {
    name: "TypeError",
    message: /parameter 3 \(__global float \* y\)/,
  });
  assert.throws(() => saxpy(queue, [16], null, 2, b, b, 1.5), {
    name: "TypeError",
    message: /parameter 4 \(const int n\): it needs an integer/,
  });
  assert.throws(() => saxpy(queue, [10], [4], 2, b, b, 16), {
    name: "RangeError",
    message: /not a multiple of localSize/,
  });
  assert.throws(() => saxpy(queue, [0], null, 2, b, b, 16), RangeError);
});

openclTest("LocalMemory sizes a __local parameter for a work-group reduction", () => {
  const { ctx, queue } = setup();
  const n = 1024, group = 64;
  const x = Float32Array.from({ length: n }, (_, i) => i % 7);
  using xBuf = new cl.Buffer(ctx, x.byteLength, { hostBuf: x });
  using out = new cl.Buffer(ctx, (n / group) * 4);
  prg().getKernel("block_sum")(queue, [n], [group], xBuf, new cl.LocalMemory(group * 4), out).wait();
  const sums = new Float32Array(n / group);
  cl.enqueueCopy(queue, sums, out);
  for (let g = 0; g < n / group; g++) {
    let ref = 0;
    for (let i = 0; i < group; i++) ref += x[g * group + i]!;
    assert.equal(sums[g], ref);
  }
});

openclTest("Event.completed() does not block the event loop while a kernel runs", async () => {
  const { ctx, queue } = setup();
  using buf = new cl.Buffer(ctx, 4, { hostBuf: new Float32Array([1]) });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    const started = performance.now();
    const ev = prg().getKernel("spin")(queue, 1, null, buf, 20_000_000);
    await ev.completed();
    const elapsed = performance.now() - started;
    assert.ok(elapsed > 15, `the kernel ran ${elapsed.toFixed(1)} ms, too short to observe the timer`);
    assert.ok(ticks >= 3, `the timer ticked ${ticks} times during ${elapsed.toFixed(0)} ms`);
  } finally {
    clearInterval(timer);
  }
});

openclTest("CommandQueue.release() and Program.release() are idempotent", () => {
  const { ctx } = setup();
  const q = new cl.CommandQueue(ctx);
  q.release();
  q.release();
  assert.throws(() => q.finish(), TypeError);
  const p = new cl.Program(ctx, "__kernel void k(__global int *x) { x[0] = 1; }").build();
  p.getKernel("k");
  p.release();
  p.release();
  assert.throws(() => p.getKernel("nothing"), TypeError);
});
