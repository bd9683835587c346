/**
 * The 2-D heat equation (kernels/heat.cu) stepped 1,000 times, once eagerly (a launch per step) and
 * once as a CUDA graph of 100 steps captured once and replayed 10 times. The two results are the same
 * bit for bit (and near a float64 reference computed here); both timings are printed.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/heat_graph.ts
 */
import * as cuda from "../src/cuda/mod.ts";
import "../src/cuda/autoinit.ts";

const w = 256, h = 256, cells = w * h, alpha = 0.2;
const STEPS = 1000, PER_GRAPH = 100; // both even: each pair of steps goes u → v → u

using mod = new cuda.SourceModule(await Deno.readTextFile(new URL("../kernels/heat.cu", import.meta.url)));
const heatStep = mod.getFunction("heat_step");

// A hot square in a cold plate; the border stays at 0.
const initial = new Float32Array(cells);
for (let y = h / 4; y < (3 * h) / 4; y++) initial.fill(100, y * w + w / 4, y * w + (3 * w) / 4);

using stream = new cuda.Stream();
const cfg = { grid: Math.ceil(cells / 256), block: 256, stream };
using u = cuda.memAlloc(cells * 4), v = cuda.memAlloc(cells * 4);
const reset = () => {
  cuda.memcpyHtoD(u, initial);
  cuda.memcpyHtoD(v, initial);
};
const twoSteps = () => {
  heatStep(u, v, w, h, alpha, cfg);
  heatStep(v, u, w, h, alpha, cfg);
};

twoSteps(); // warm-up: the first launch pays for loading the module
await stream.completed();

reset();
let t = performance.now();
for (let s = 0; s < STEPS; s += 2) twoSteps();
await stream.completed();
const eagerMs = performance.now() - t;
const eager = new Float32Array(cells);
cuda.memcpyDtoH(eager, u);

reset();
t = performance.now();
using graph = cuda.capture(stream, () => {
  for (let s = 0; s < PER_GRAPH; s += 2) twoSteps();
});
using exec = graph.instantiate();
exec.upload(stream);
await stream.completed();
const buildMs = performance.now() - t;
t = performance.now();
for (let r = 0; r < STEPS / PER_GRAPH; r++) exec.launch(stream);
await stream.completed();
const graphMs = performance.now() - t;
const replayed = new Float32Array(cells);
cuda.memcpyDtoH(replayed, u);

// The same steps in float64 on the host: the GPU's float32 (with fused multiply-adds) stays close.
let ref = Float64Array.from(initial), next = Float64Array.from(initial);
for (let s = 0; s < STEPS; s++) {
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      next[i] = ref[i]! + alpha * (ref[i - 1]! + ref[i + 1]! + ref[i - w]! + ref[i + w]! - 4 * ref[i]!);
    }
  }
  [ref, next] = [next, ref];
}
let worst = 0;
for (let i = 0; i < cells; i++) worst = Math.max(worst, Math.abs(eager[i]! - ref[i]!));

const a = new Uint32Array(eager.buffer), b = new Uint32Array(replayed.buffer);
let differing = 0;
for (let i = 0; i < cells; i++) if (a[i] !== b[i]) differing++;
console.log(`heat ${w}×${h}, ${STEPS} steps on ${new cuda.Device(0).name}:`);
console.log(`  eager: ${STEPS} launches in ${eagerMs.toFixed(2)} ms`);
console.log(
  `  graph: ${STEPS / PER_GRAPH} replays of a ${PER_GRAPH}-step graph in ${graphMs.toFixed(2)} ms ` +
    `(capture, instantiate and upload ${buildMs.toFixed(2)} ms)`,
);
console.log(
  differing === 0
    ? `  results equal bit for bit; largest difference from a float64 reference ${worst.toExponential(2)}`
    : `  ${differing} of ${cells} cells differ between eager and graph`,
);
if (differing !== 0 || !(worst < 1e-2)) Deno.exit(1);
