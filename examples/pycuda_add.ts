/**
 * PyCUDA's first example in cudeno: add two 4×4 matrices on the GPU with a kernel written in CUDA C.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/pycuda_add.ts
 */
import * as cuda from "../src/cuda/mod.ts";
import "../src/cuda/autoinit.ts";

const a = Float32Array.from({ length: 16 }, () => Math.random());
const b = Float32Array.from({ length: 16 }, () => Math.random());
const aGpu = cuda.memAlloc(a.byteLength);
const bGpu = cuda.memAlloc(b.byteLength);
const cGpu = cuda.memAlloc(a.byteLength);
cuda.memcpyHtoD(aGpu, a);
cuda.memcpyHtoD(bGpu, b);

const mod = new cuda.SourceModule(`__global__ void add(float *a, float *b, float *c) {
  int idx = threadIdx.x + threadIdx.y * 4; c[idx] = a[idx] + b[idx]; }`);
const add = mod.getFunction("add");
add(aGpu, bGpu, cGpu, { block: [4, 4, 1] });

const c = new Float32Array(16);
cuda.memcpyDtoH(c, cGpu);
const wrong = c.filter((v, i) => v !== Math.fround(a[i]! + b[i]!)).length;
console.log(
  `a + b on ${new cuda.Device(0).name}: ${wrong === 0 ? "all 16 sums right" : `${wrong} sums wrong`}`,
);
console.log(c.slice(0, 4));
if (wrong !== 0) Deno.exit(1);
