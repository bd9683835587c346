/** Vector types by value on a real OpenCL device (PoCL in CI): each lane arrives where the kernel reads it. */

import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import { openclTest } from "../_backends.ts";

const SOURCE = `
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void set_them(__global float *dest, float3 x) {
  vstore3(x, get_global_id(0), dest);
}
__kernel void spread(__global double *out, __global long *longs, char c, float3 a, int n, float4 b,
                     double2 d, int4 i, uchar4 u, short2 s, float8 e, long2 l, uint3 w) {
  out[0] = c;
  out[1] = a.x; out[2] = a.y; out[3] = a.z;
  out[4] = n;
  out[5] = b.x; out[6] = b.y; out[7] = b.z; out[8] = b.w;
  out[9] = d.x; out[10] = d.y;
  out[11] = i.x; out[12] = i.y; out[13] = i.z; out[14] = i.w;
  out[15] = u.x; out[16] = u.y; out[17] = u.z; out[18] = u.w;
  out[19] = s.x; out[20] = s.y;
  out[21] = e.s0; out[22] = e.s1; out[23] = e.s2; out[24] = e.s3;
  out[25] = e.s4; out[26] = e.s5; out[27] = e.s6; out[28] = e.s7;
  out[29] = w.x; out[30] = w.y; out[31] = w.z;
  longs[0] = l.x; longs[1] = l.y;
}`;

function setup() {
  const ctx = cl.createSomeContext();
  const queue = new cl.CommandQueue(ctx);
  const program = new cl.Program(ctx, SOURCE, { filename: "vector_test.cl" }).build();
  return {
    ctx,
    queue,
    program,
    [Symbol.dispose]() {
      program.release();
      queue.release();
      ctx.release();
    },
  };
}

openclTest("a float3 by value reaches every work-item, as PyOpenCL's set_them test has it", () => {
  using s = setup();
  const n = 64;
  const dest = new cl.Buffer(s.ctx, n * 3 * 4);
  try {
    s.program.getKernel("set_them")(s.queue, [n], null, dest, [1.5, -2, 3.25]).wait();
    const host = new Float32Array(n * 3);
    cl.enqueueCopy(s.queue, host, dest);
    for (let k = 0; k < n; k++) {
      assert.deepEqual([...host.subarray(3 * k, 3 * k + 3)], [1.5, -2, 3.25], `item ${k}`);
    }
  } finally {
    dest.free();
  }
});

openclTest(
  "vectors of every width and element type arrive lane by lane, after scalars of other alignments",
  () => {
    using s = setup();
    const out = new cl.Buffer(s.ctx, 32 * 8);
    const longs = new cl.Buffer(s.ctx, 2 * 8);
    try {
      const a = [0.25, -1.5, 3], b = Float32Array.of(1, 2, 3, 4), d = [Math.PI, -Math.E];
      const i = Int32Array.of(-7, 8, -9, 2 ** 31 - 1), u = [0, 1, 128, 255], sh = [-32768, 32767];
      const e = [1, 2, 3, 4, 5, 6, 7, 8].map((x) => x / 8), l = [-(2n ** 62n), 2n ** 62n + 1n];
      const w = Uint32Array.of(0, 1, 2 ** 32 - 1);
      s.program.getKernel("spread")(s.queue, [1], null, out, longs, -5, a, 42, b, d, i, u, sh, e, l, w)
        .wait();
      const got = new Float64Array(32);
      cl.enqueueCopy(s.queue, got, out);
      const gotLongs = new BigInt64Array(2);
      cl.enqueueCopy(s.queue, gotLongs, longs);
      const want = [-5, ...a, 42, ...b, ...d, ...i, ...u, ...sh, ...e, ...w];
      assert.deepEqual([...got], want);
      assert.deepEqual([...gotLongs], l);
    } finally {
      out.free();
      longs.free();
    }
  },
);

openclTest("the same array passed again after a change is set again, not taken from the last launch", () => {
  using s = setup();
  const dest = new cl.Buffer(s.ctx, 3 * 4);
  try {
    const setThem = s.program.getKernel("set_them");
    const x = Float32Array.of(1, 2, 3);
    setThem(s.queue, [1], null, dest, x).wait();
    x[1] = 20;
    setThem(s.queue, [1], null, dest, x).wait();
    const host = new Float32Array(3);
    cl.enqueueCopy(s.queue, host, dest);
    assert.deepEqual([...host], [1, 20, 3]);
  } finally {
    dest.free();
  }
});

openclTest("a vector of the wrong length is a TypeError naming the parameter", () => {
  using s = setup();
  const dest = new cl.Buffer(s.ctx, 3 * 4);
  try {
    assert.throws(() => s.program.getKernel("set_them")(s.queue, [1], null, dest, [1, 2, 3, 4]), {
      name: "TypeError",
      message:
        "Cannot pass an Array of length 4 to set_them() parameter 2 (float3 x): it takes 3 values of float, as an array or typed array of length 3",
    });
  } finally {
    dest.free();
  }
});
