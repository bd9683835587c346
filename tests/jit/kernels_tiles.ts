/**
 * The kernels of `kernels.ts` that stage data through shared-memory tiles between barriers: matmul
 * and transpose.
 *
 * @module
 */

import { blockIdx, f32, jit, shared, syncthreads, threadIdx } from "../../src/jit/mod.ts";
import { blocks, comparer, EXACT, floats, type KernelCase, random, type Tolerance } from "./kernel_case.ts";

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

export const matmulCase: KernelCase = {
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

export const transposeCase: KernelCase = {
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
