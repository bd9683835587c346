/**
 * The PyTorch/TensorFlow first GPU script: is there a GPU? Multiply two random 1000×1000 matrices
 * on it and show part of the result and which device did it. Runs on CUDA where a driver and device
 * exist, else on OpenCL (PoCL on a CPU-only machine).
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/matmul.ts
 */
import * as cuda from "../src/cuda/mod.ts";
import * as ga from "../src/array/mod.ts";

console.log(cuda.isAvailable() ? "CUDA GPU available" : "no CUDA GPU: using OpenCL");
const a = ga.random.normal([1000, 1000], { seed: 1 });
const b = ga.random.normal([1000, 1000], { seed: 2 });
const started = performance.now();
const c = ga.matmul(a, b);
const host = c.get();
const ms = performance.now() - started;
console.log(`matmul of two 1000×1000 float32 matrices on ${ga.backendDevice()} in ${ms.toFixed(1)} ms`);
console.log("c[0, 0:4] =", Array.from(host.slice(0, 4), (v) => Number(v.toFixed(4))));

const row = a.get().subarray(0, 1000);
const col = b.get().filter((_, i) => i % 1000 === 0);
let ref = 0;
for (let k = 0; k < 1000; k++) ref += row[k]! * col[k]!;
console.log(`check: c[0, 0] = ${host[0]!.toFixed(4)}, host dot product = ${ref.toFixed(4)}`);
if (Math.abs(host[0]! - ref) > 1e-3 * Math.max(1, Math.abs(ref))) Deno.exit(1);
