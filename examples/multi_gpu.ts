/**
 * Splits a vector add and a sum across every GPU present, all-reduces the partial sums with NCCL,
 * and checks both against the host. Runs on one GPU and on N.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/multi_gpu.ts
 */
import * as cuda from "../src/cuda/mod.ts";
import * as ga from "../src/array/mod.ts";
import * as nccl from "../src/cuda/nccl/mod.ts";

const n = 1 << 22;
const gpus = cuda.Device.count();
const a = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
const b = Float32Array.from({ length: n }, (_, i) => Math.cos(i));
const chunk = Math.ceil(n / gpus);

const comms = nccl.initAll();
const c = new Float32Array(n);
const totals = comms.map((comm, i) => {
  ga.useBackend("cuda", { device: comm.device.ordinal });
  const lo = i * chunk, hi = Math.min(n, lo + chunk);
  const part = ga.toGpu(a.subarray(lo, hi)).add(ga.toGpu(b.subarray(lo, hi)));
  c.set(part.get() as Float32Array, lo);
  return ga.full(1, part.sum(), "float64");
});
nccl.group(() => comms.forEach((comm, i) => nccl.allReduce(comm, totals[i], totals[i])));

let wrong = 0, sum = 0;
for (let i = 0; i < n; i++) {
  if (c[i] !== Math.fround(a[i]! + b[i]!)) wrong++;
  sum += c[i]!;
}
const reduced = totals.map((t) => (t.get() as Float64Array)[0]!);
const agree = reduced.every((r) => Math.abs(r - sum) <= 1e-9 * n);
console.log(
  `${gpus} GPU(s), NCCL ${nccl.version().join(".")}: ${n} elements, ${wrong} wrong; all-reduced sum ${
    reduced[0]!.toFixed(3)
  } vs host ${sum.toFixed(3)}: ${agree ? "agree" : "DIFFER"}`,
);
if (wrong !== 0 || !agree) Deno.exit(1);
