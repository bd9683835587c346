/**
 * Float64 host references for the `ga.linalg` tests, independent of the library (arrays cross only
 * through `get()` and `toGpu()`): matrices as row-major `number[][]`, LU with partial pivoting,
 * cyclic Jacobi for symmetric eigenvalues and one-sided Jacobi for singular values.
 */

import * as ga from "../../src/array/mod.ts";

/** A matrix, row-major. */
export type Mat = number[][];

/** Deterministic uniform numbers in [-1, 1) (mulberry32). */
export function uniform(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  });
}

/** A random m × n matrix. */
export function randomMat(m: number, n: number, seed: number): Mat {
  const v = uniform(m * n, seed);
  return Array.from({ length: m }, (_, i) => v.slice(i * n, i * n + n));
}

/** A batch of matrices as one device array of shape `[...batch, m, n]`. */
export function toDevice(
  mats: readonly Mat[],
  batch: readonly number[],
  dtype: "float32" | "float64",
): ga.GPUArray {
  const m = mats[0]!.length, n = mats[0]![0]?.length ?? 0;
  const flat = mats.flatMap((a) => a.flat());
  const host = dtype === "float32" ? Float32Array.from(flat) : Float64Array.from(flat);
  return ga.toGpu(host, [...batch, m, n]);
}

/** The matrices of a device array of shape `[..., m, n]`, as float64 host matrices. */
export function fromDevice(x: ga.GPUArray): Mat[] {
  const m = x.shape[x.ndim - 2]!, n = x.shape[x.ndim - 1]!;
  const data = Array.from(x.get() as ArrayLike<number>);
  const count = m * n === 0 ? 0 : data.length / (m * n);
  return Array.from(
    { length: count },
    (_, b) => Array.from({ length: m }, (_, i) => data.slice(b * m * n + i * n, b * m * n + i * n + n)),
  );
}

/** The vectors of a device array of shape `[..., n]`. */
export function vectorsOf(x: ga.GPUArray): number[][] {
  const n = x.shape[x.ndim - 1]!;
  const data = Array.from(x.get() as ArrayLike<number>);
  return Array.from({ length: n === 0 ? 0 : data.length / n }, (_, b) => data.slice(b * n, b * n + n));
}

export const transpose = (a: Mat): Mat => (a[0] ?? []).map((_, j) => a.map((row) => row[j]!));

export function matmul(a: Mat, b: Mat): Mat {
  return a.map((row) => (b[0] ?? []).map((_, j) => row.reduce((s, x, k) => s + x * b[k]![j]!, 0)));
}

export const identity = (n: number): Mat =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

/** The largest |a - b| over two matrices of one shape. */
export function maxDiff(a: Mat, b: Mat): number {
  let d = 0;
  a.forEach((row, i) => row.forEach((x, j) => (d = Math.max(d, Math.abs(x - b[i]![j]!)))));
  return d;
}

/** The largest |x| of a matrix (1 for an empty one). */
export const scale = (a: Mat): number => Math.max(1e-300, ...a.flat().map(Math.abs));

/** LU with partial pivoting: `{ lu, perm, sign }`, `perm[i]` the original row of row i. */
export function hostLu(a: Mat): { lu: Mat; perm: number[]; sign: number } {
  const n = a.length, lu = a.map((r) => [...r]), perm = lu.map((_, i) => i);
  let sign = 1;
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(lu[i]![k]!) > Math.abs(lu[p]![k]!)) p = i;
    if (p !== k) {
      [lu[k], lu[p]] = [lu[p]!, lu[k]!];
      [perm[k], perm[p]] = [perm[p]!, perm[k]!];
      sign = -sign;
    }
    const piv = lu[k]![k]!;
    if (piv === 0) continue;
    for (let i = k + 1; i < n; i++) {
      const f = (lu[i]![k]! /= piv);
      for (let j = k + 1; j < n; j++) lu[i]![j]! -= f * lu[k]![j]!;
    }
  }
  return { lu, perm, sign };
}

export function hostDet(a: Mat): number {
  const { lu, sign } = hostLu(a);
  return lu.reduce((p, row, i) => p * row[i]!, sign);
}

/** `a⁻¹·b` by LU. */
export function hostSolve(a: Mat, b: Mat): Mat {
  const { lu, perm } = hostLu(a), n = a.length;
  return transpose(
    transpose(b).map((col) => {
      const y = perm.map((p) => col[p]!);
      for (let i = 0; i < n; i++) for (let k = 0; k < i; k++) y[i]! -= lu[i]![k]! * y[k]!;
      for (let i = n - 1; i >= 0; i--) {
        for (let k = i + 1; k < n; k++) y[i]! -= lu[i]![k]! * y[k]!;
        y[i]! /= lu[i]![i]!;
      }
      return y;
    }),
  );
}

/** The eigenvalues of a symmetric matrix, ascending (cyclic Jacobi). */
export function hostEigvalsh(s: Mat): number[] {
  const a = s.map((r) => [...r]), n = a.length;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p]![q]! ** 2;
    if (off < 1e-30 * (1 + a.flat().reduce((t, x) => t + x * x, 0))) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]![q]!;
        if (apq === 0) continue;
        const th = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(th || 1) / (Math.abs(th) + Math.hypot(th, 1));
        const c = 1 / Math.hypot(t, 1), sn = t * c;
        for (let k = 0; k < n; k++) {
          const x = a[k]![p]!, y = a[k]![q]!;
          a[k]![p] = c * x - sn * y;
          a[k]![q] = sn * x + c * y;
        }
        for (let k = 0; k < n; k++) {
          const x = a[p]![k]!, y = a[q]![k]!;
          a[p]![k] = c * x - sn * y;
          a[q]![k] = sn * x + c * y;
        }
      }
    }
  }
  return a.map((row, i) => row[i]!).sort((x, y) => x - y);
}

/** The singular values, descending (one-sided Jacobi on the columns of the tall orientation). */
export function hostSvdvals(m: Mat): number[] {
  const a = m.length >= (m[0]?.length ?? 0) ? m.map((r) => [...r]) : transpose(m);
  const rows = a.length, n = a[0]?.length ?? 0;
  for (let sweep = 0; sweep < 100; sweep++) {
    let rotated = false;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        let alpha = 0, beta = 0, gamma = 0;
        for (let i = 0; i < rows; i++) {
          alpha += a[i]![p]! ** 2;
          beta += a[i]![q]! ** 2;
          gamma += a[i]![p]! * a[i]![q]!;
        }
        if (Math.abs(gamma) <= 1e-15 * Math.sqrt(alpha * beta) || gamma === 0) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.hypot(zeta, 1));
        const c = 1 / Math.hypot(t, 1), s = c * t;
        for (let i = 0; i < rows; i++) {
          const x = a[i]![p]!, y = a[i]![q]!;
          a[i]![p] = c * x - s * y;
          a[i]![q] = s * x + c * y;
        }
      }
    }
    if (!rotated) break;
  }
  return Array.from({ length: n }, (_, j) => Math.hypot(...a.map((r) => r[j]!))).sort((x, y) => y - x);
}

/** The largest |xᵢ - yᵢ| of two vectors. */
export const vecDiff = (x: readonly number[], y: readonly number[]): number =>
  x.reduce((d, v, i) => Math.max(d, Math.abs(v - y[i]!)), 0);

/** A symmetric positive-definite matrix: `B·Bᵀ + n·I`. */
export function spd(n: number, seed: number): Mat {
  const b = randomMat(n, n, seed);
  return matmul(b, transpose(b)).map((row, i) => row.map((x, j) => x + (i === j ? n : 0)));
}

/** The Hilbert matrix of order n (condition number about 1.5e7 for n = 6). */
export const hilbert = (n: number): Mat =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => 1 / (i + j + 1)));
