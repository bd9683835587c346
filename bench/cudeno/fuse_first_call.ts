/**
 * The first call of a fused function in a new process, for bench/cudeno/fuse.ts: the process starts
 * CUDA and NVRTC first (an eager add, whose kernel the disk cache or NVRTC gives), then times
 * `ga.fuse()`'s first call — trace, code, compile (or load from the disk cache that
 * `CUDENO_CACHE_DIR` names), launch and synchronize — checks its result, and prints `{"ms": ...}`.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";

ga.useBackend("cuda");
const n = 2 ** 20;
const hx = Float32Array.from({ length: n }, (_, i) => (i % 1000) / 1000);
const hy = Float32Array.from({ length: n }, (_, i) => (i % 7) / 7);
const x = ga.toGpu(hx), y = ga.toGpu(hy);
x.add(y).free(); // CUDA, NVRTC and the array module started
x.backend.synchronize();

const t = performance.now();
const step = ga.fuse((x: ga.GPUArray, y: ga.GPUArray, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5), {
  name: "first_call",
});
const z = step(x, y, 2);
z.backend.synchronize();
const ms = performance.now() - t;

const hz = z.get();
for (let i = 0; i < n; i += 4099) {
  const want = Math.exp(2 * hx[i]! + hy[i]!) * 0.5;
  if (Math.abs(hz[i]! - want) > 1e-6 * want) {
    throw new Error(`fuse first call: [${i}] is ${hz[i]}, want ${want}`);
  }
}
console.log(JSON.stringify({ ms }));
