/**
 * Kernel fusion: three functions of arrays written as ordinary array code, run eagerly (a kernel per
 * operation) and through `ga.fuse()` (one kernel each), on CUDA where there is a GPU and on OpenCL
 * elsewhere. Each fused result is checked against the eager one, and the fused row normalisation's
 * kernel is shown.
 *
 *   deno run --allow-ffi --allow-env --allow-read --allow-write examples/fuse.ts
 */
import * as ga from "../src/array/mod.ts";

type A = ga.GPUArray<"float32">;

// exp(a·x + y) / 2, with `a` a number: a kernel parameter, so new values need no new kernel.
const step = (x: A, y: A, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5);
// The sum of squared differences: a host number, as eagerly.
const loss = (p: A, q: A) => p.sub(q).square().sum();
// Each row divided by its Euclidean norm: one kernel reads a row, sums its squares and writes it.
const rownorm = (x: A) => x.div(x.square().sum({ axis: 1, keepdims: true }).sqrt());

const fusedStep = ga.fuse(step), fusedLoss = ga.fuse(loss), fusedNorm = ga.fuse(rownorm, { name: "rownorm" });

const x = ga.random.normal([512, 1024], { seed: 1 }), y = ga.random.normal([1024], { seed: 2 });
console.log(`fused functions on ${ga.backendDevice()}`);

/** The largest difference between two float arrays' elements, relative to the largest magnitude. */
function difference(a: A, b: A): number {
  const [u, v] = [a.get() as Float32Array, b.get() as Float32Array];
  let big = 0, worst = 0;
  for (let i = 0; i < u.length; i++) {
    big = Math.max(big, Math.abs(u[i]!));
    worst = Math.max(worst, Math.abs(u[i]! - v[i]!));
  }
  return worst / big;
}

/** Milliseconds per call of `fn` over `n` calls, after one untimed (compiling) call. */
function time(fn: () => unknown, n = 20): number {
  const free = (r: unknown) => r instanceof ga.GPUArray && r.free();
  free(fn());
  x.backend.synchronize();
  const t = performance.now();
  for (let i = 0; i < n; i++) free(fn());
  x.backend.synchronize();
  return (performance.now() - t) / n;
}

let worst = 0;
for (const a of [2, 3, -1]) worst = Math.max(worst, difference(fusedStep(x, y, a), step(x, y, a)));
const [eagerLoss, fused] = [loss(x, y), fusedLoss(x, y)];
worst = Math.max(worst, Math.abs(fused - eagerLoss) / eagerLoss);
worst = Math.max(worst, difference(fusedNorm(x), rownorm(x)));
console.log(`step, loss and rownorm: fused results within ${worst.toExponential(1)} of the eager ones`);
console.log(`loss(x, y) = ${fused.toFixed(2)}`);
for (
  const [name, eager, fusedFn] of [
    ["step", () => step(x, y, 2), () => fusedStep(x, y, 2)],
    ["rownorm", () => rownorm(x), () => fusedNorm(x)],
  ] as const
) {
  console.log(`${name}: eager ${time(eager).toFixed(3)} ms, fused ${time(fusedFn).toFixed(3)} ms per call`);
}
const source = fusedNorm.source(ga.backend());
console.log(`rownorm's kernel (${ga.backend()}), first lines:`);
console.log(source.split("\n").filter((line) => line.includes("cudeno_fuse_rownorm")).join("\n"));
if (!(worst < 1e-5)) Deno.exit(1);
