/**
 * cudeno's linear-algebra figures for the GPU benchmark (issue 32 items 5 and 6): `solve`, `cholesky`
 * and `qr` of 4096 × 4096 matrices in TFLOP/s, `eigh` and `svd` of 2048 × 2048 in ms (float32 and
 * float64), and batches of small matrices in ms: `solve` and `inv` of 10^5 8 × 8 systems, `eigh` of 500
 * 100 × 100 matrices. Each call is checked first (residuals and reconstructions computed in float64),
 * then timed with device events. The `opencl.linalg` section times the batched ones on the device's
 * OpenCL, beside and without a target.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";
import type { EventTimes } from "./grad.ts";
import { activeBackend } from "../../src/device/active.ts";

const LARGE = 4096, SPECTRAL = 2048, SMALL = 8, COUNT = 100_000, EIGH_BATCH = 500, EIGH_N = 100;
const NAMES = { float32: "f32", float64: "f64" } as const;

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

/** The largest `|x|` over `x`, in float64. */
function largest(x: ga.GPUArray): number {
  using a = x.astype("float64").abs();
  return Number(ga.max(a));
}

/** ‖got − want‖∞ / ‖want‖∞, computed in float64; fails the run above `limit`. */
function check(got: ga.GPUArray, want: ga.GPUArray, limit: number, what: string): void {
  using g = got.astype("float64"), w = want.astype("float64");
  using d = g.sub(w);
  const err = largest(d) / largest(w);
  if (!(err < limit)) fail(`${what}: relative error ${err.toExponential(2)}, above ${limit}`);
}

/** A well-conditioned random matrix (or batch): normal entries plus `n` on the diagonal. */
function wellConditioned(shape: number[], dtype: "float32" | "float64", seed: number): ga.GPUArray {
  const n = shape[shape.length - 1]!;
  using a = ga.random.normal(shape, { seed, dtype });
  using d = ga.eye(n, dtype).mul(n);
  return a.add(d);
}

/** Emits the CUDA figures. */
export function decompositionFigures(emit: (r: BenchRecord) => void, eventTimes: EventTimes): void {
  ga.useBackend("cuda");
  const tflops = (flops: number) => (ms: number) => flops / (ms / 1000) / 1e12;
  for (const dtype of ["float32", "float64"] as const) {
    const name = NAMES[dtype], limit = dtype === "float32" ? 1e-3 : 1e-10;
    const a = wellConditioned([LARGE, LARGE], dtype, 1), b = ga.random.normal([LARGE, 1], { seed: 2, dtype });
    using x = ga.linalg.solve(a, b);
    check(ga.matmul(a, x), b, limit, `solve.${name}.${LARGE}`);
    emit({
      impl: "cudeno",
      figure: `solve.${name}.${LARGE}`,
      unit: "TFLOP/s",
      better: "higher",
      samples: eventTimes(5, () => ga.linalg.solve(a, b).free()).map(tflops((2 / 3) * LARGE ** 3)),
      note: "ga.linalg.solve(a, b), b one column; 2n³/3 flops",
    });
    using spd = ga.matmul(a, ga.swapaxes(a, 0, 1));
    using l = ga.linalg.cholesky(spd);
    check(ga.matmul(l, ga.swapaxes(l, 0, 1)), spd, limit, `cholesky.${name}.${LARGE}`);
    emit({
      impl: "cudeno",
      figure: `cholesky.${name}.${LARGE}`,
      unit: "TFLOP/s",
      better: "higher",
      samples: eventTimes(5, () => ga.linalg.cholesky(spd).free()).map(tflops(LARGE ** 3 / 3)),
      note: "ga.linalg.cholesky(a); n³/3 flops",
    });
    const [q, r] = ga.linalg.qr(a);
    check(ga.matmul(q, r), a, limit, `qr.${name}.${LARGE}`);
    emit({
      impl: "cudeno",
      figure: `qr.${name}.${LARGE}`,
      unit: "TFLOP/s",
      better: "higher",
      samples: eventTimes(3, () => {
        const [q, r] = ga.linalg.qr(a);
        q.free();
        r.free();
      }).map(tflops((4 / 3) * LARGE ** 3)),
      note: "ga.linalg.qr(a), Q and R; 4n³/3 flops (geqrf's)",
    });
    a.free();
    b.free();
    const m = ga.random.normal([SPECTRAL, SPECTRAL], { seed: 3, dtype });
    using sym = m.add(ga.swapaxes(m, 0, 1));
    const [w, v] = ga.linalg.eigh(sym);
    check(ga.matmul(v.mul(w), ga.swapaxes(v, 0, 1)), sym, dtype === "float32" ? 1e-3 : 1e-9, `eigh.${name}`);
    emit({
      impl: "cudeno",
      figure: `eigh.${name}.${SPECTRAL}`,
      unit: "ms",
      better: "lower",
      samples: eventTimes(3, () => {
        const [w, v] = ga.linalg.eigh(sym);
        w.free();
        v.free();
      }),
      note: "ga.linalg.eigh(a), values and vectors",
    });
    const [u, s, vh] = ga.linalg.svd(m, false);
    check(ga.matmul(u.mul(s), vh), m, dtype === "float32" ? 1e-3 : 1e-9, `svd.${name}`);
    emit({
      impl: "cudeno",
      figure: `svd.${name}.${SPECTRAL}`,
      unit: "ms",
      better: "lower",
      samples: eventTimes(3, () => {
        for (const x of ga.linalg.svd(m, false)) x.free();
      }),
      note: "ga.linalg.svd(a, { fullMatrices: false }), U, S and Vh",
    });
    m.free();
  }
  batchedFigures("", emit, eventTimes);
}

/** Emits the batched figures on the device's OpenCL (`opencl.` before each name), timed on the host. */
export function openclDecompositionFigures(emit: (r: BenchRecord) => void): void {
  ga.useBackend("opencl");
  const device = activeBackend();
  const hostTimes = (repeats: number, fn: () => void) => { // one call a sample
    fn();
    device.synchronize();
    return Array.from({ length: repeats }, () => {
      const started = performance.now();
      fn();
      device.synchronize();
      return performance.now() - started;
    });
  };
  batchedFigures("opencl.", emit, hostTimes);
}

/**
 * `solve.batch.8x8.f32`, `inv.batch.8x8.f32` (10^5 systems, no singularity check, as
 * `torch.linalg.solve_ex`) and `eigh.batch.100.f32` (500 matrices), each name after `prefix`.
 */
function batchedFigures(
  prefix: string,
  emit: (r: BenchRecord) => void,
  eventTimes: (repeats: number, fn: () => void, batch?: number) => number[],
): void {
  const impl = "cudeno";
  const a = wellConditioned([COUNT, SMALL, SMALL], "float32", 4);
  const b = ga.random.normal([COUNT, SMALL, 1], { seed: 5 });
  const off = { check: false };
  check(ga.matmul(a, ga.linalg.solve(a, b, off)), b, 1e-4, "solve.batch");
  emit({
    impl,
    figure: `${prefix}solve.batch.8x8.f32`,
    unit: "ms",
    better: "lower",
    samples: eventTimes(10, () => ga.linalg.solve(a, b, off).free(), 20),
    note: "ga.linalg.solve(a, b, { check: false }) of 10^5 8×8 float32 systems, b [10^5, 8, 1]",
  });
  check(
    ga.matmul(a, ga.linalg.inv(a, off)),
    ga.broadcastTo(ga.eye(SMALL), [COUNT, SMALL, SMALL]),
    1e-4,
    "inv.batch",
  );
  emit({
    impl,
    figure: `${prefix}inv.batch.8x8.f32`,
    unit: "ms",
    better: "lower",
    samples: eventTimes(10, () => ga.linalg.inv(a, off).free(), 20),
    note: "ga.linalg.inv(a, { check: false }) of 10^5 8×8 float32 matrices",
  });
  a.free();
  b.free();
  const m = ga.random.normal([EIGH_BATCH, EIGH_N, EIGH_N], { seed: 6 });
  using sym = m.add(ga.swapaxes(m, -1, -2));
  const [w, v] = ga.linalg.eigh(sym, off);
  check(ga.matmul(v.mul(ga.expandDims(w, -2)), ga.swapaxes(v, -1, -2)), sym, 1e-3, "eigh.batch");
  emit({
    impl,
    figure: `${prefix}eigh.batch.100.f32`,
    unit: "ms",
    better: "lower",
    samples: eventTimes(3, () => {
      const [w, v] = ga.linalg.eigh(sym, off);
      w.free();
      v.free();
    }),
    note: "ga.linalg.eigh(a, { check: false }) of 500 symmetric 100×100 float32 matrices",
  });
  m.free();
}
