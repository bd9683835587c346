/**
 * The kernels of `kernels.ts` that combine values across threads in shared memory and with atomics: a
 * sum, a histogram, an inclusive scan and a row-wise softmax.
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
  jit,
  shared,
  syncthreads,
  threadIdx,
} from "../../src/jit/mod.ts";
import { blocks, comparer, EXACT, floats, type KernelCase, random, type Tolerance } from "./kernel_case.ts";

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

export const reduceCase: KernelCase = {
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

export const histogramCase: KernelCase = {
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

export const scanCase: KernelCase = {
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

export const softmaxCase: KernelCase = {
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
