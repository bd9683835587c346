/**
 * A 1,000,000-element vector add, sized by threads per block and blocks per grid, checked against
 * the host.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/vector_add.ts
 */
import * as cuda from "../src/cuda/mod.ts";
import "../src/cuda/autoinit.ts";

const n = 1_000_000;
const a = Float32Array.from({ length: n }, () => Math.random());
const b = Float32Array.from({ length: n }, () => Math.random());

using aGpu = cuda.memAlloc(a.byteLength);
using bGpu = cuda.memAlloc(b.byteLength);
using cGpu = cuda.memAlloc(a.byteLength);
cuda.memcpyHtoD(aGpu, a);
cuda.memcpyHtoD(bGpu, b);

using mod = new cuda.SourceModule(`__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}`);
const vadd = mod.getFunction("vadd");
const threadsPerBlock = 256;
const blocksPerGrid = Math.ceil(n / threadsPerBlock);
vadd(aGpu, bGpu, cGpu, n, { grid: blocksPerGrid, block: threadsPerBlock });

const c = new Float32Array(n);
cuda.memcpyDtoH(c, cGpu);
let wrong = 0;
for (let i = 0; i < n; i++) if (c[i] !== Math.fround(a[i]! + b[i]!)) wrong++;
console.log(`vadd: ${blocksPerGrid} blocks × ${threadsPerBlock} threads, ${n} elements, ${wrong} wrong`);
if (wrong !== 0) Deno.exit(1);
