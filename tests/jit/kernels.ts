/**
 * Ten JIT kernels, each with everything needed to run and check it anywhere (the simulator here, CUDA
 * and OpenCL devices elsewhere): its launch configuration for given sizes, seeded inputs, a host
 * reference computed independently of the JIT, and a comparison with stated tolerances.
 *
 * Protocol: `const args = c.makeArgs(seed)`, `const expected = c.reference(args)` (before running: it
 * reads the inputs and leaves `args` as they are), run `c.kernel` with `c.config()` and `args`, then
 * `c.compare(outputsOf(c, args), expected)`, which throws on the first element out of tolerance.
 *
 * @module
 */

import {
  atomicAdd,
  blockDim,
  blockIdx,
  f32,
  grid,
  gridDim,
  type HostArray,
  jit,
  type JitKernel,
  type LaunchConfig,
  shared,
  syncthreads,
  threadIdx,
} from "../../src/jit/mod.ts";

/** Arguments in parameter order: host arrays and numbers. */
export type KernelArgs = (number | HostArray)[];

/** Output arrays by parameter name. */
export type Outputs = Record<string, HostArray>;

/** How far a result may be from the reference. */
export interface Tolerance {
  /** Absolute tolerance per element. */
  readonly atol: number;
  /** Relative tolerance per element (of the reference's magnitude). */
  readonly rtol: number;
  /** The fraction of elements allowed outside the tolerance (for escape counts that FMA can change). */
  readonly outliers: number;
  /** Why these numbers. */
  readonly why: string;
}

/** One kernel with its inputs, reference and comparison. */
export interface KernelCase {
  /** The kernel's name. */
  readonly name: string;
  /** The kernel. */
  readonly kernel: JitKernel;
  /** Default problem sizes, small enough for the simulator; GPU runs may pass larger ones. */
  readonly sizes: Readonly<Record<string, number>>;
  /** The parameters the kernel writes, compared after the run. */
  readonly outputs: readonly string[];
  /** The tolerance `compare` applies. */
  readonly tolerance: Tolerance;
  /** The launch configuration for the sizes. */
  config(sizes?: Readonly<Record<string, number>>): LaunchConfig;
  /** Seeded inputs (and zeroed outputs) in parameter order. */
  makeArgs(seed: number, sizes?: Readonly<Record<string, number>>): KernelArgs;
  /** The expected outputs, computed on the host from the inputs. */
  reference(args: KernelArgs): Outputs;
  /** Throws an Error naming the first output element out of tolerance. */
  compare(actual: Outputs, expected: Outputs): void;
}

/** Picks a case's output arrays out of its arguments. */
export function outputsOf(c: KernelCase, args: KernelArgs): Outputs {
  const names = c.kernel.params.map((p) => p.name);
  return Object.fromEntries(c.outputs.map((name) => [name, args[names.indexOf(name)] as HostArray]));
}

/** A seeded generator of floats in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floats(n: number, next: () => number, lo = -1, hi = 1): Float32Array {
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * next());
}

const fr = Math.fround;

function comparer(tolerance: Tolerance): (actual: Outputs, expected: Outputs) => void {
  return (actual, expected) => {
    for (const [name, want] of Object.entries(expected)) {
      const got = actual[name];
      if (got.length !== want.length) {
        throw new Error(`${name}: length ${got.length}, expected ${want.length}`);
      }
      let bad = 0, first = -1;
      for (let i = 0; i < want.length; i++) {
        const limit = tolerance.atol + tolerance.rtol * Math.abs(want[i]);
        const ok = got[i] === want[i] || Math.abs(got[i] - want[i]) <= limit;
        if (!ok && bad++ === 0) first = i;
      }
      if (bad > tolerance.outliers * want.length) {
        throw new Error(
          `${name}[${first}] is ${got[first]}, expected ${
            want[first]
          } (${bad} of ${want.length} elements out of ` +
            `atol ${tolerance.atol}, rtol ${tolerance.rtol})`,
        );
      }
    }
  };
}

const EXACT: Tolerance = {
  atol: 0,
  rtol: 0,
  outliers: 0,
  why: "integer results, or one rounding per element",
};
const FMA: Tolerance = {
  atol: 1e-6,
  rtol: 1e-6,
  outliers: 0,
  why: "the simulator rounds every f32 operation; a GPU may fuse a*b+c into one rounding (FMA)",
};

function blocks(n: number, size: number): number {
  return Math.ceil(n / size);
}

// ---- 1. add: the Numba example ----

const add = jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
  const idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) c[idx] = a[idx] + b[idx];
}, { name: "add" });

const addCase: KernelCase = {
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

const saxpyCase: KernelCase = {
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

// ---- 3. matmul with shared-memory tiles ----

const matmul = jit(
  { a: "f32[]", b: "f32[]", c: "f32[]", m: "i32", n: "i32", k: "i32" },
  (a, b, c, m, n, k) => {
    const tileA = shared.array("f32", TILE * TILE);
    const tileB = shared.array("f32", TILE * TILE);
    const tx = threadIdx.x, ty = threadIdx.y;
    const row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    let acc = f32(0);
    for (let t = 0; t < k; t += TILE) {
      tileA[ty * TILE + tx] = row < m && t + tx < k ? a[row * k + t + tx] : 0;
      tileB[ty * TILE + tx] = col < n && t + ty < k ? b[(t + ty) * n + col] : 0;
      syncthreads();
      for (let i = 0; i < TILE; i++) acc += tileA[ty * TILE + i] * tileB[i * TILE + tx];
      syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = acc;
  },
  { name: "matmul", constants: { TILE: 16 } },
);
declare const TILE: number;

const MATMUL: Tolerance = {
  atol: 1e-4,
  rtol: 1e-4,
  outliers: 0,
  why: "f32 accumulation of k products in [-1, 1] against an f64 reference; holds up to k = 1024",
};

const matmulCase: KernelCase = {
  name: "matmul",
  kernel: matmul,
  sizes: { m: 40, n: 36, k: 50 },
  outputs: ["c"],
  tolerance: MATMUL,
  config: (s = matmulCase.sizes) => ({ grid: [blocks(s.n, 16), blocks(s.m, 16)], block: [16, 16] }),
  makeArgs(seed, s = matmulCase.sizes) {
    const next = random(seed);
    return [floats(s.m * s.k, next), floats(s.k * s.n, next), new Float32Array(s.m * s.n), s.m, s.n, s.k];
  },
  reference([a, b, , m, n, k]) {
    const [x, y] = [a as Float32Array, b as Float32Array];
    const [rows, cols, inner] = [m as number, n as number, k as number];
    const c = new Float32Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < cols; j++) {
        let sum = 0;
        for (let i = 0; i < inner; i++) sum += x[r * inner + i] * y[i * cols + j];
        c[r * cols + j] = sum;
      }
    }
    return { c };
  },
  compare: comparer(MATMUL),
};

// ---- 4. sum: a shared-memory tree per block, then one atomicAdd per block ----

const reduceSum = jit({ x: "f32[]", out: "f32[]", n: "i32" }, (x, out, n) => {
  const partial = shared.array("f32", BLOCK);
  const tid = threadIdx.x;
  let sum = f32(0);
  for (let i = grid(1); i < n; i += blockDim.x * gridDim.x) sum += x[i];
  partial[tid] = sum;
  syncthreads();
  for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    syncthreads();
  }
  if (tid === 0) atomicAdd(out, 0, partial[0]);
}, { name: "reduce_sum", constants: { BLOCK: 256 } });
declare const BLOCK: number;

const SUM: Tolerance = {
  atol: 1e-4,
  rtol: 1e-5,
  outliers: 0,
  why: "f32 partial sums in tree and atomic order against an f64 reference",
};

const reduceCase: KernelCase = {
  name: "reduce_sum",
  kernel: reduceSum,
  sizes: { n: 5000, blocks: 4 },
  outputs: ["out"],
  tolerance: SUM,
  config: (s = reduceCase.sizes) => ({ grid: s.blocks, block: 256 }),
  makeArgs(seed, s = reduceCase.sizes) {
    return [floats(s.n, random(seed), 0, 1), new Float32Array(1), s.n];
  },
  reference([x]) {
    return { out: Float32Array.of((x as Float32Array).reduce((acc, v) => acc + v, 0)) };
  },
  compare: comparer(SUM),
};

// ---- 5. histogram: per-block bins in shared memory, merged with atomics ----

const histogram = jit({ data: "u8[]", bins: "u32[]", n: "i32" }, (data, bins, n) => {
  const local = shared.array("u32", 256);
  const tid = threadIdx.x;
  for (let b = tid; b < 256; b += blockDim.x) local[b] = 0;
  syncthreads();
  for (let i = grid(1); i < n; i += blockDim.x * gridDim.x) atomicAdd(local, data[i], 1);
  syncthreads();
  for (let b = tid; b < 256; b += blockDim.x) atomicAdd(bins, b, local[b]);
}, { name: "histogram" });

const histogramCase: KernelCase = {
  name: "histogram",
  kernel: histogram,
  sizes: { n: 10000, blocks: 3 },
  outputs: ["bins"],
  tolerance: EXACT,
  config: (s = histogramCase.sizes) => ({ grid: s.blocks, block: 128 }),
  makeArgs(seed, s = histogramCase.sizes) {
    const next = random(seed);
    // Skewed, so that bins differ: squares of uniform values crowd the low bins.
    const data = Uint8Array.from({ length: s.n }, () => Math.floor(256 * next() ** 2));
    return [data, new Uint32Array(256), s.n];
  },
  reference([data, , n]) {
    const bins = new Uint32Array(256);
    for (let i = 0; i < (n as number); i++) bins[(data as Uint8Array)[i]]++;
    return { bins };
  },
  compare: comparer(EXACT),
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

const mandelbrotCase: KernelCase = {
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

const heatCase: KernelCase = {
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

// ---- 8. scan: block-level inclusive prefix sums, Hillis–Steele ----

const inclusiveScan = jit({ input: "i32[]", output: "i32[]", n: "i32" }, (input, output, n) => {
  const temp = shared.array("i32", BLOCK);
  const tid = threadIdx.x;
  const i = blockIdx.x * blockDim.x + tid;
  temp[tid] = i < n ? input[i] : 0;
  syncthreads();
  for (let offset = 1; offset < blockDim.x; offset *= 2) {
    const v = tid >= offset ? temp[tid - offset] : 0;
    syncthreads();
    temp[tid] += v;
    syncthreads();
  }
  if (i < n) output[i] = temp[tid];
}, { name: "inclusive_scan", constants: { BLOCK: 256 } });

const scanCase: KernelCase = {
  name: "inclusive_scan",
  kernel: inclusiveScan,
  sizes: { n: 1000 },
  outputs: ["output"],
  tolerance: EXACT,
  config: (s = scanCase.sizes) => ({ grid: blocks(s.n, 256), block: 256 }),
  makeArgs(seed, s = scanCase.sizes) {
    const next = random(seed);
    return [Int32Array.from({ length: s.n }, () => Math.floor(201 * next()) - 100), new Int32Array(s.n), s.n];
  },
  reference([input, , n]) {
    const output = new Int32Array(n as number);
    for (let i = 0; i < (n as number); i++) {
      output[i] = (i % 256 === 0 ? 0 : output[i - 1]) + (input as Int32Array)[i];
    }
    return { output };
  },
  compare: comparer(EXACT),
};

// ---- 9. transpose through a shared tile ----

const transpose = jit(
  { input: "f32[]", output: "f32[]", rows: "i32", cols: "i32" },
  (input, output, rows, cols) => {
    const tile = shared.array("f32", TILE * (TILE + 1));
    const tx = threadIdx.x, ty = threadIdx.y;
    const x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    if (x < cols && y < rows) tile[ty * (TILE + 1) + tx] = input[y * cols + x];
    syncthreads();
    const ox = blockIdx.y * TILE + tx, oy = blockIdx.x * TILE + ty;
    if (ox < rows && oy < cols) output[oy * rows + ox] = tile[tx * (TILE + 1) + ty];
  },
  { name: "transpose", constants: { TILE: 16 } },
);

const transposeCase: KernelCase = {
  name: "transpose",
  kernel: transpose,
  sizes: { rows: 37, cols: 53 },
  outputs: ["output"],
  tolerance: EXACT,
  config: (s = transposeCase.sizes) => ({ grid: [blocks(s.cols, 16), blocks(s.rows, 16)], block: [16, 16] }),
  makeArgs(seed, s = transposeCase.sizes) {
    return [floats(s.rows * s.cols, random(seed)), new Float32Array(s.rows * s.cols), s.rows, s.cols];
  },
  reference([input, , rows, cols]) {
    const [r, c] = [rows as number, cols as number];
    const output = new Float32Array(r * c);
    for (let y = 0; y < r; y++) {
      for (let x = 0; x < c; x++) output[x * r + y] = (input as Float32Array)[y * c + x];
    }
    return { output };
  },
  compare: comparer(EXACT),
};

// ---- 10. softmax: one row per block, max and sum reductions in shared memory ----

const softmaxRows = jit({ x: "f32[]", y: "f32[]", cols: "i32" }, (x, y, cols) => {
  const red = shared.array("f32", BLOCK);
  const tid = threadIdx.x;
  const base = blockIdx.x * cols;
  let m = f32(-Infinity);
  for (let j = tid; j < cols; j += blockDim.x) m = Math.max(m, x[base + j]);
  red[tid] = m;
  syncthreads();
  for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
    if (tid < s) red[tid] = Math.max(red[tid], red[tid + s]);
    syncthreads();
  }
  const rowMax = red[0];
  syncthreads();
  let sum = f32(0);
  for (let j = tid; j < cols; j += blockDim.x) sum += Math.exp(x[base + j] - rowMax);
  red[tid] = sum;
  syncthreads();
  for (let s = blockDim.x >> 1; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    syncthreads();
  }
  const total = red[0];
  for (let j = tid; j < cols; j += blockDim.x) y[base + j] = Math.exp(x[base + j] - rowMax) / total;
}, { name: "softmax_rows", constants: { BLOCK: 128 } });

const SOFTMAX: Tolerance = {
  atol: 1e-7,
  rtol: 1e-5,
  outliers: 0,
  why: "f32 exp and sums (expf is within 2 ulp on GPUs) against an f64 reference",
};

const softmaxCase: KernelCase = {
  name: "softmax_rows",
  kernel: softmaxRows,
  sizes: { rows: 6, cols: 300 },
  outputs: ["y"],
  tolerance: SOFTMAX,
  config: (s = softmaxCase.sizes) => ({ grid: s.rows, block: 128 }),
  makeArgs(seed, s = softmaxCase.sizes) {
    return [floats(s.rows * s.cols, random(seed), -8, 8), new Float32Array(s.rows * s.cols), s.cols];
  },
  reference([x, y, cols]) {
    const [v, c] = [x as Float32Array, cols as number];
    const out = new Float32Array((y as Float32Array).length);
    for (let base = 0; base < v.length; base += c) {
      const row = v.subarray(base, base + c);
      const max = row.reduce((a, b) => Math.max(a, b), -Infinity);
      const sum = row.reduce((a, b) => a + Math.exp(b - max), 0);
      row.forEach((value, j) => (out[base + j] = Math.exp(value - max) / sum));
    }
    return { y: out };
  },
  compare: comparer(SOFTMAX),
};

/** The ten kernels. */
export const KERNELS: readonly KernelCase[] = [
  addCase,
  saxpyCase,
  matmulCase,
  reduceCase,
  histogramCase,
  mandelbrotCase,
  heatCase,
  scanCase,
  transposeCase,
  softmaxCase,
];
