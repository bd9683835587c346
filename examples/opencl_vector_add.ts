/**
 * PyOpenCL's vector add in cudeno: runs on any OpenCL device (a GPU, or PoCL on the CPU).
 *
 *   deno run --allow-ffi --allow-env examples/opencl_vector_add.ts
 */
import * as cl from "../src/opencl/mod.ts";

const n = 1_000_000;
const a = Float32Array.from({ length: n }, () => Math.random());
const b = Float32Array.from({ length: n }, () => Math.random());

const ctx = cl.createSomeContext();
const queue = new cl.CommandQueue(ctx, { profiling: true });
const aBuf = new cl.Buffer(ctx, a.byteLength, { access: "read_only", hostBuf: a });
const bBuf = new cl.Buffer(ctx, b.byteLength, { access: "read_only", hostBuf: b });
const cBuf = new cl.Buffer(ctx, a.byteLength, { access: "write_only" });

const prg = new cl.Program(
  ctx,
  `__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}`,
).build();
const ev = prg.getKernel("vadd")(queue, [n], null, aBuf, bBuf, cBuf, n);
await ev.completed();

const c = new Float32Array(n);
cl.enqueueCopy(queue, c, cBuf);
let wrong = 0;
for (let i = 0; i < n; i++) if (c[i] !== Math.fround(a[i]! + b[i]!)) wrong++;
const { start, end } = ev.profile;
console.log(
  `vadd on ${ctx.device.name}: ${n} elements in ${(Number(end - start) / 1e3).toFixed(1)} µs, ${wrong} wrong`,
);
if (wrong !== 0) Deno.exit(1);
