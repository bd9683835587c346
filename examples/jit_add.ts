/**
 * Numba's `@cuda.jit` vector add, written as a TypeScript function: cudeno compiles it to CUDA C
 * (or OpenCL C where there is no CUDA GPU) and runs it on the GPU arrays it is given.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/jit_add.ts
 */
import * as ga from "../src/array/mod.ts";
import { blockDim, blockIdx, jit, threadIdx } from "../src/jit/mod.ts";

const addKernel = jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
  const idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) c[idx] = a[idx] + b[idx];
});

const n = 1 << 20;
const a = Float32Array.from({ length: n }, (_, i) => i * 0.5);
const b = Float32Array.from({ length: n }, (_, i) => n - i);
const aGpu = ga.toGpu(a), bGpu = ga.toGpu(b), cGpu = ga.emptyLike(aGpu);
const threadsPerBlock = 1024;
addKernel.launch({ grid: [Math.ceil(n / threadsPerBlock)], block: [threadsPerBlock] }, aGpu, bGpu, cGpu, n);

const c = cGpu.get();
let wrong = 0;
for (let i = 0; i < n; i++) if (c[i] !== Math.fround(a[i]! + b[i]!)) wrong++;
console.log(`jit add on ${ga.backendDevice()}: ${n} elements, ${wrong} wrong`);
console.log(addKernel.source(ga.backend()).split("\n").slice(0, 3).join("\n"));
if (wrong !== 0) Deno.exit(1);
