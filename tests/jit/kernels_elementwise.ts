/**
 * The kernels of `kernels.ts` that give each thread its own output elements, with no shared memory:
 * add (the Numba example), saxpy, Mandelbrot escape counts and one step of the 2-D heat equation.
 *
 * @module
 */

import { blockDim, blockIdx, f32, grid, jit, threadIdx } from "../../src/jit/mod.ts";
import {
  blocks,
  comparer,
  EXACT,
  floats,
  FMA,
  fr,
  type KernelCase,
  random,
  type Tolerance,
} from "./kernel_case.ts";

// ---- 1. add: the Numba example ----

const add = jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
  const idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) c[idx] = a[idx] + b[idx];
}, { name: "add" });

export const addCase: KernelCase = {
  name: "add",
  kernel: add,
  sizes: { n: 1000 },
  outputs: ["c"],
  tolerance: EXACT,
  config: (s = addCase.sizes) => ({ grid: [blocks(s.n, 256)], block: [256] }),
  makeArgs(seed, s = addCase.sizes) {
    const next = random(seed);
    return [floats(s.n, next), floats(s.n, next), new Float32Array(s.n), s.n];
  },
  reference([a, b, , n]) {
    const [x, y] = [a as Float32Array, b as Float32Array];
    return { c: Float32Array.from({ length: n as number }, (_, i) => fr(x[i] + y[i])) };
  },
  compare: comparer(EXACT),
};

// ---- 2. saxpy: y = a * x + y ----

const saxpy = jit({ a: "f32", x: "f32[]", y: "f32[]", n: "i32" }, (a, x, y, n) => {
  const i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
}, { name: "saxpy" });

export const saxpyCase: KernelCase = {
  name: "saxpy",
  kernel: saxpy,
  sizes: { n: 2000 },
  outputs: ["y"],
  tolerance: FMA,
  config: (s = saxpyCase.sizes) => ({ grid: blocks(s.n, 128), block: 128 }),
  makeArgs(seed, s = saxpyCase.sizes) {
    const next = random(seed);
    return [fr(2 * next() - 1), floats(s.n, next), floats(s.n, next), s.n];
  },
  reference([a, x, y, n]) {
    const [xs, ys] = [x as Float32Array, y as Float32Array];
    return { y: Float32Array.from({ length: n as number }, (_, i) => fr(fr((a as number) * xs[i]) + ys[i])) };
  },
  compare: comparer(FMA),
};

// ---- 6. Mandelbrot: f32 escape counts ----

const mandelbrot = jit(
  { out: "i32[]", width: "i32", height: "i32", maxIter: "i32", x0: "f32", y0: "f32", dx: "f32", dy: "f32" },
  (out, width, height, maxIter, x0, y0, dx, dy) => {
    const [px, py] = grid(2);
    if (px >= width || py >= height) return;
    const cr = x0 + px * dx;
    const ci = y0 + py * dy;
    let zr = f32(0), zi = f32(0);
    let k = 0;
    while (k < maxIter && zr * zr + zi * zi <= 4) {
      const t = zr * zr - zi * zi + cr;
      zi = 2 * zr * zi + ci;
      zr = t;
      k++;
    }
    out[py * width + px] = k;
  },
  { name: "mandelbrot" },
);

const ESCAPE: Tolerance = {
  atol: 0,
  rtol: 0,
  outliers: 0.01,
  why:
    "exact in the simulator; on a GPU, FMA changes the rounding of z and can move a boundary pixel's count " +
    "(compile with --fmad=false for exact agreement), so 1% of pixels may differ",
};

export const mandelbrotCase: KernelCase = {
  name: "mandelbrot",
  kernel: mandelbrot,
  sizes: { width: 64, height: 48, maxIter: 64 },
  outputs: ["out"],
  tolerance: ESCAPE,
  config: (s = mandelbrotCase.sizes) => ({
    grid: [blocks(s.width, 16), blocks(s.height, 8)],
    block: [16, 8],
  }),
  makeArgs(seed, s = mandelbrotCase.sizes) {
    const next = random(seed);
    const x0 = -2.2 + 0.1 * next(), y0 = -1.2 + 0.1 * next();
    return [
      new Int32Array(s.width * s.height),
      s.width,
      s.height,
      s.maxIter,
      fr(x0),
      fr(y0),
      fr(3 / s.width),
      fr(2.4 / s.height),
    ];
  },
  reference([, width, height, maxIter, x0, y0, dx, dy]) {
    const [w, h, limit] = [width as number, height as number, maxIter as number];
    const out = new Int32Array(w * h);
    for (let py = 0; py < h; py++) {
      for (let px = 0; px < w; px++) {
        const cr = fr((x0 as number) + fr(px * (dx as number)));
        const ci = fr((y0 as number) + fr(py * (dy as number)));
        let zr = 0, zi = 0, k = 0;
        while (k < limit && fr(fr(zr * zr) + fr(zi * zi)) <= 4) {
          const t = fr(fr(fr(zr * zr) - fr(zi * zi)) + cr);
          zi = fr(fr(fr(2 * zr) * zi) + ci);
          zr = t;
          k++;
        }
        out[py * w + px] = k;
      }
    }
    return { out };
  },
  compare: comparer(ESCAPE),
};

// ---- 7. heat: one explicit step of the 2-D heat equation ----

const heatStep = jit(
  { u: "f32[]", next: "f32[]", nx: "i32", ny: "i32", alpha: "f32" },
  (u, next, nx, ny, alpha) => {
    const [x, y] = grid(2);
    if (x >= nx || y >= ny) return;
    const i = y * nx + x;
    if (x === 0 || y === 0 || x === nx - 1 || y === ny - 1) {
      next[i] = u[i];
      return;
    }
    next[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] - 4 * u[i]);
  },
  { name: "heat_step" },
);

export const heatCase: KernelCase = {
  name: "heat_step",
  kernel: heatStep,
  sizes: { nx: 50, ny: 40 },
  outputs: ["next"],
  tolerance: FMA,
  config: (s = heatCase.sizes) => ({ grid: [blocks(s.nx, 16), blocks(s.ny, 16)], block: [16, 16] }),
  makeArgs(seed, s = heatCase.sizes) {
    return [floats(s.nx * s.ny, random(seed), 0, 100), new Float32Array(s.nx * s.ny), s.nx, s.ny, fr(0.2)];
  },
  reference([u, , nx, ny, alpha]) {
    const [v, w, h, k] = [u as Float32Array, nx as number, ny as number, alpha as number];
    const next = new Float32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (x === 0 || y === 0 || x === w - 1 || y === h - 1) {
          next[i] = v[i];
          continue;
        }
        const around = fr(fr(fr(fr(v[i - 1] + v[i + 1]) + v[i - w]) + v[i + w]) - fr(4 * v[i]));
        next[i] = fr(v[i] + fr(k * around));
      }
    }
    return { next };
  },
  compare: comparer(FMA),
};
