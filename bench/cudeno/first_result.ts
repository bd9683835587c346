/**
 * Process start to first kernel result, as a user's first script does it: initialise CUDA, compile a
 * vector add (from cudeno's cache when an earlier run compiled it), add 2^20 elements, copy back, check.
 * The benchmark times the whole process.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import "../../src/cuda/autoinit.ts";

const n = 1 << 20;
const a = new Float32Array(n), b = new Float32Array(n);
for (let i = 0; i < n; i++) {
  a[i] = i * 0.5;
  b[i] = 1 - i;
}
const mod = new cuda.SourceModule(`__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}`);
const c = new Float32Array(n);
mod.getFunction("vadd")(cuda.In(a), cuda.In(b), cuda.Out(c), n, { grid: Math.ceil(n / 256), block: 256 });
for (let i = 0; i < n; i++) {
  if (c[i] !== Math.fround(a[i]! + b[i]!)) {
    console.error(`first_result: c[${i}] = ${c[i]} is wrong`);
    Deno.exit(1);
  }
}
