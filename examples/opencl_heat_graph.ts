/**
 * The OpenCL twin of heat_graph.ts: the 2-D heat equation (kernels/heat.cl) stepped 1,000 times
 * eagerly and as a command buffer of 100 steps (cl_khr_command_buffer) recorded once and launched 10
 * times; the results are the same bit for bit. Runs on any device with the extension (PoCL has it);
 * elsewhere it says so.
 *
 *   deno run --allow-ffi --allow-env --allow-read examples/opencl_heat_graph.ts
 */
import * as cl from "../src/opencl/mod.ts";

const chosen = cl.chooseDevice();
const device = cl.CommandBuffer.isSupported(chosen)
  ? chosen
  : cl.getPlatforms().flatMap((p) => p.getDevices()).find((d) => cl.CommandBuffer.isSupported(d));
if (device === undefined) {
  console.log(
    `no OpenCL device here records command buffers (cl_khr_command_buffer); ${chosen.name} does not`,
  );
  Deno.exit(0);
}

const w = 256, h = 256, cells = w * h, alpha = 0.2;
const STEPS = 1000, PER_GRAPH = 100; // both even: each pair of steps goes u → v → u

const ctx = new cl.Context(device);
const queue = new cl.CommandQueue(ctx);
const source = await Deno.readTextFile(new URL("../kernels/heat.cl", import.meta.url));
const heatStep = new cl.Program(ctx, source).build().getKernel("heat_step");

const initial = new Float32Array(cells);
for (let y = h / 4; y < (3 * h) / 4; y++) initial.fill(100, y * w + w / 4, y * w + (3 * w) / 4);

using u = new cl.Buffer(ctx, cells * 4), v = new cl.Buffer(ctx, cells * 4);
const reset = () => {
  cl.enqueueCopy(queue, u, initial);
  cl.enqueueCopy(queue, v, initial);
  queue.finish();
};
const twoSteps = () => {
  heatStep.launch(queue, [cells], null, u, v, w, h, alpha);
  heatStep.launch(queue, [cells], null, v, u, w, h, alpha);
};
const read = () => {
  const out = new Float32Array(cells);
  cl.enqueueCopy(queue, out, u);
  queue.finish();
  return out;
};

twoSteps(); // warm-up
queue.finish();

reset();
let t = performance.now();
for (let s = 0; s < STEPS; s += 2) twoSteps();
queue.finish();
const eagerMs = performance.now() - t;
const eager = read();

reset();
t = performance.now();
using steps = cl.capture(queue, () => {
  for (let s = 0; s < PER_GRAPH; s += 2) twoSteps();
});
const buildMs = performance.now() - t;
t = performance.now();
for (let r = 0; r < STEPS / PER_GRAPH; r++) steps.launch();
queue.finish();
const graphMs = performance.now() - t;
const replayed = read();

// The same steps in float64 on the host: the device's float32 stays close.
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
console.log(`heat ${w}×${h}, ${STEPS} steps on ${device.name}:`);
console.log(`  eager: ${STEPS} launches in ${eagerMs.toFixed(2)} ms`);
console.log(
  `  command buffer: ${STEPS / PER_GRAPH} launches of ${steps.commandCount} recorded steps in ${
    graphMs.toFixed(2)
  } ms (recording ${buildMs.toFixed(2)} ms)`,
);
console.log(
  differing === 0
    ? `  results equal bit for bit; largest difference from a float64 reference ${worst.toExponential(2)}`
    : `  ${differing} of ${cells} cells differ between eager and command buffer`,
);
if (differing !== 0 || !(worst < 1e-2)) Deno.exit(1);
