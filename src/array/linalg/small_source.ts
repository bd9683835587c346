/**
 * `solve` and `inv` of batches of small matrices (order up to {@link SMALL_KERNEL_ORDER}) in one
 * kernel, a matrix per thread: the thread reads its row-major matrix into registers (the order is a
 * constant of the source, so every loop unrolls and every index is known), factors it with partial
 * pivoting (LAPACK's `getf2`: the first largest `cabs1` of the column, the column below divided by the
 * pivot), and solves for each right-hand side (the identity's columns for `inv`), writing the
 * row-major result. No local memory, no barrier: the batch is as wide as the device.
 *
 * `info` is k > 0 where `U[k-1, k-1]` is exactly zero (the solution is then inf or NaN), as LAPACK's.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { linalgKernel, pointer } from "./kernel_text.ts";

/** The largest order the one-thread kernels take (an 8 × 8 matrix is 64 registers of the thread's). */
export const SMALL_KERNEL_ORDER = 8;

/**
 * `small_{solve,inv}(A, oA, B, oB, X, count, k, info)` of order `n`: `X = A⁻¹·B` for each of `count` row-major
 * `n × n` matrices A and `n × k` right-hand sides B (`inv`: B is the identity, k = n, and not read).
 */
export function smallSource(dialect: Dialect, dtype: DType, n: number, inverse: boolean): KernelSource {
  const params = [
    pointer(dialect, dtype, "A", true),
    "IDX oA",
    pointer(dialect, dtype, "B", true),
    "IDX oB",
    pointer(dialect, dtype, "X"),
    "IDX count, int k",
    pointer(dialect, "int32", "info"),
  ];
  const load = inverse ? "y[i] = FROMREAL(i == c ? 1 : 0);" : "y[i] = B[base + i * k + c];";
  const body = `#define N ${n}
  const IDX e = g * nt + tid;
  if (e >= count) return;
  T a[N][N];
  int perm[N];
  A += oA;
  B += oB;
  const IDX at = e * (N * N);
#pragma unroll
  for (int i = 0; i < N; i++) {
#pragma unroll
    for (int j = 0; j < N; j++) a[i][j] = A[at + i * N + j];
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
  info[e] = bad;
  const IDX base = e * (N * (IDX)k);
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
#pragma unroll
    for (int i = 0; i < N; i++) X[base + i * k + c] = y[i];
  }`;
  return linalgKernel(dialect, dtype, `cudeno_small_${inverse ? "inv" : "solve"}${n}_${dtype}`, params, body);
}
