/**
 * Vector types by value on a CUDA device (the H200; ignored where there is none): each lane arrives
 * where the kernel reads it, at vector_types.h's alignments, and the driver's own parameter sizes agree
 * with the parsed ones (getFunction() checks them with cuFuncGetParamInfo).
 */

import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaTest } from "../_backends.ts";

const SOURCE = `#include <cuda_fp16.h>
__global__ void set_them(float3 *dest, float3 x) {
  dest[threadIdx.x] = x;
}
__global__ void spread(double *out, long long *longs, char c, float3 a, int n, float4 b, double2 d, int4 i,
                       uchar4 u, short2 s, uint2 w, char4 q, int2 j, int3 k, uint4 m, float2 f, longlong2 l,
                       __half2 h, double3 t) {
  out[0] = c;
  out[1] = a.x; out[2] = a.y; out[3] = a.z;
  out[4] = n;
  out[5] = b.x; out[6] = b.y; out[7] = b.z; out[8] = b.w;
  out[9] = d.x; out[10] = d.y;
  out[11] = i.x; out[12] = i.y; out[13] = i.z; out[14] = i.w;
  out[15] = u.x; out[16] = u.y; out[17] = u.z; out[18] = u.w;
  out[19] = s.x; out[20] = s.y;
  out[21] = w.x; out[22] = w.y;
  out[23] = q.x; out[24] = q.y; out[25] = q.z; out[26] = q.w;
  out[27] = j.x; out[28] = j.y;
  out[29] = k.x; out[30] = k.y; out[31] = k.z;
  out[32] = m.x; out[33] = m.y; out[34] = m.z; out[35] = m.w;
  out[36] = f.x; out[37] = f.y;
  out[38] = __low2float(h); out[39] = __high2float(h);
  out[40] = t.x; out[41] = t.y; out[42] = t.z;
  longs[0] = l.x; longs[1] = l.y;
}`;

cudaTest(
  "a float3 by value reaches every thread, as PyCUDA's set_them(float3 *dest, float3 x) test has it",
  () => {
    cudaContext();
    using mod = new cuda.SourceModule(SOURCE);
    const setThem = mod.getFunction("set_them");
    const n = 64;
    using dest = cuda.memAlloc(n * 12);
    setThem(dest, [1.5, -2, 3.25], { block: n });
    const host = new Float32Array(n * 3);
    cuda.memcpyDtoH(host, dest);
    for (let t = 0; t < n; t++) {
      assert.deepEqual(
        [...host.subarray(3 * t, 3 * t + 3)],
        [1.5, -2, 3.25],
        `thread ${t}`,
      );
    }
    setThem(dest, Float32Array.of(-1, 0.5, 8), { block: n });
    cuda.memcpyDtoH(host, dest);
    assert.deepEqual([...host.subarray(3 * (n - 1))], [-1, 0.5, 8]);
  },
);

cudaTest(
  "CUDA vectors of every width and element type arrive lane by lane, after scalars of other alignments",
  () => {
    cudaContext();
    using mod = new cuda.SourceModule(SOURCE);
    const spread = mod.getFunction("spread");
    using out = cuda.memAlloc(43 * 8);
    using longs = cuda.memAlloc(2 * 8);
    const a = [0.25, -1.5, 3], b = Float32Array.of(1, 2, 3, 4), d = [Math.PI, -Math.E];
    const i = Int32Array.of(-7, 8, -9, 2 ** 31 - 1), u = [0, 1, 128, 255], s = [-32768, 32767];
    const w = Uint32Array.of(0, 2 ** 32 - 1), q = Int8Array.of(-128, -1, 0, 127), j = [5, -6], k = [1, 2, 3];
    const m = [4, 3, 2, 1],
      f = [0.5, -0.75],
      l = [-(2n ** 62n), 2n ** 62n + 1n],
      h = [0.5, -2],
      t = [1e300, -1e-300, 0];
    spread(out, longs, -5, a, 42, b, d, i, u, s, w, q, j, k, m, f, l, h, t, { block: 1 });
    const got = new Float64Array(43);
    cuda.memcpyDtoH(got, out);
    const gotLongs = new BigInt64Array(2);
    cuda.memcpyDtoH(gotLongs, longs);
    assert.deepEqual([...got], [
      -5,
      ...a,
      42,
      ...b,
      ...d,
      ...i,
      ...u,
      ...s,
      ...w,
      ...q,
      ...j,
      ...k,
      ...m,
      ...f,
      ...h,
      ...t,
    ]);
    assert.deepEqual([...gotLongs], l);
  },
);

cudaTest("a CUDA vector of the wrong length is a TypeError naming the parameter, before any launch", () => {
  cudaContext();
  using mod = new cuda.SourceModule(SOURCE);
  using dest = cuda.memAlloc(12);
  assert.throws(() => mod.getFunction("set_them")(dest, [1, 2], { block: 1 }), {
    name: "TypeError",
    message:
      "Cannot pass an Array of length 2 to set_them() parameter 2 (float3 x): it takes 3 values of float, as an array or typed array of length 3",
  });
});
