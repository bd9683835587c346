/**
 * `solve` and `inv` of batches of small matrices (order up to {@link SMALL_KERNEL_ORDER}) in one
 * kernel, a matrix per thread: a work-group reads its matrices into local memory in one contiguous
 * sweep (each matrix padded by an element, so the threads' rows fall in different banks), then each
 * thread takes its matrix into registers (the order is a constant of the source, so every loop
 * unrolls and every index is known), factors it with partial pivoting (LAPACK's `getf2`: the first
 * largest `cabs1` of the column, the column below divided by the pivot) and solves for each
 * right-hand side (the identity's columns for `inv`). Square results go out through local memory the
 * same way; others are written directly.
 *
 * `info` is k > 0 where `U[k-1, k-1]` is exactly zero (the solution is then inf or NaN), as LAPACK's.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { linalgKernel, localArray, pointer } from "./kernel_text.ts";

/** The largest order the one-thread kernels take (an 8 × 8 matrix is 64 registers of the thread's). */
export const SMALL_KERNEL_ORDER = 8;

/**
 * `small_{solve,inv}(A, oA, B, oB, X, count, k, info)` of order `n`: `X = A⁻¹·B` for each of `count` row-major
 * `n × n` matrices A and `n × k` right-hand sides B (`inv`: B is the identity, k = n, and not read).
 */
export function smallSource(
  dialect: Dialect,
  dtype: DType,
  n: number,
  inverse: boolean,
  block: number,
): KernelSource {
  const params = [
    pointer(dialect, dtype, "A", true),
    "IDX oA",
    pointer(dialect, dtype, "B", true),
    "IDX oB",
    pointer(dialect, dtype, "X"),
    "IDX count, int k",
    pointer(dialect, "int32", "info"),
  ];
  const load = inverse
    ? "y[i] = FROMREAL(i == c ? 1 : 0);"
    : "y[i] = B[oB + (first + tid) * (N * (IDX)k) + i * k + c];";
  const body = `#define N ${n}
#define NN (N * N)
#define PITCH (NN + 1)
  ${localArray(dialect, dtype, "tile", block * (n * n + 1))}
  const IDX first = g * nt;
  const int here = count - first < nt ? (int)(count - first) : nt;
  // The work-group's matrices in, contiguous over the threads; a matrix to a thread from there.
  for (int q = tid; q < here * NN; q += nt) tile[q + q / NN] = A[oA + first * NN + q];
  SYNC
  // k == N (inv, or as many right-hand sides as rows): the results go out through the tile too.
  const int square = k == N;
  if (tid < here) {
    T a[N][N];
    int perm[N];
#pragma unroll
    for (int i = 0; i < N; i++) {
#pragma unroll
      for (int j = 0; j < N; j++) a[i][j] = tile[tid * PITCH + i * N + j];
    }
    int bad = 0;
#pragma unroll
    for (int q = 0; q < N; q++) {
      int p = q;
      R best = MAG1(a[q][q]);
#pragma unroll
      for (int i = q + 1; i < N; i++) {
        const R v = MAG1(a[i][q]);
        if (v > best) { best = v; p = i; }
      }
      perm[q] = p;
#pragma unroll
      for (int i = q + 1; i < N; i++) {
        if (i == p) {
#pragma unroll
          for (int j = 0; j < N; j++) { const T t = a[q][j]; a[q][j] = a[i][j]; a[i][j] = t; }
        }
      }
      const T piv = a[q][q];
      if (NONZERO(piv)) {
#pragma unroll
        for (int i = q + 1; i < N; i++) a[i][q] = DIV(a[i][q], piv);
      } else if (bad == 0) {
        bad = q + 1;
      }
#pragma unroll
      for (int i = q + 1; i < N; i++) {
#pragma unroll
        for (int j = q + 1; j < N; j++) a[i][j] = SUB(a[i][j], MUL(a[i][q], a[q][j]));
      }
    }
    info[first + tid] = bad;
    for (int c = 0; c < k; c++) {
      T y[N];
#pragma unroll
      for (int i = 0; i < N; i++) ${load}
#pragma unroll
      for (int q = 0; q < N; q++) {
#pragma unroll
        for (int i = q + 1; i < N; i++) {
          if (i == perm[q]) { const T t = y[q]; y[q] = y[i]; y[i] = t; }
        }
      }
#pragma unroll
      for (int i = 1; i < N; i++) {
#pragma unroll
        for (int q = 0; q < i; q++) y[i] = SUB(y[i], MUL(a[i][q], y[q]));
      }
#pragma unroll
      for (int i = N - 1; i >= 0; i--) {
#pragma unroll
        for (int q = i + 1; q < N; q++) y[i] = SUB(y[i], MUL(a[i][q], y[q]));
        y[i] = DIV(y[i], a[i][i]);
      }
      if (square) {
#pragma unroll
        for (int i = 0; i < N; i++) tile[tid * PITCH + i * N + c] = y[i];
      } else {
#pragma unroll
        for (int i = 0; i < N; i++) X[(first + tid) * (N * (IDX)k) + i * k + c] = y[i];
      }
    }
  }
  SYNC
  for (int q = tid; square && q < here * NN; q += nt) X[first * NN + q] = tile[q + q / NN];`;
  return linalgKernel(dialect, dtype, `cudeno_small_${inverse ? "inv" : "solve"}${n}_${dtype}`, params, body);
}

/**
 * The work-group size of the kernel of order `n` and elements of `size` bytes: 64 matrices, or fewer so
 * that their tile stays within 32 KiB of local memory.
 */
export function smallBlock(n: number, size: number): number {
  let block = 64;
  while (block > 8 && block * (n * n + 1) * size > 32768) block /= 2;
  return block;
}
