/**
 * LU with partial pivoting (LAPACK's `getf2`, right-looking; complex matrices pivot on `cabs1`, as
 * LAPACK's `cgetf2`) and the solve from its factors
 * (`getrs`, not transposed), one work-group per column-major matrix of a batch, in place. Pivots are
 * LAPACK's: 1-based int64 row swaps; `info` is k > 0 where `U[k-1, k-1]` is exactly zero (the column is
 * then left unscaled, as LAPACK leaves it, so the factors stay finite and a solve divides by zero).
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { linalgKernel, localArray, pointer } from "./kernel_text.ts";
import { realOf } from "../core/dtypes.ts";

/** `getrf(A, oA, sA, lda, n, P, oP, sP, I, oI)`. */
export function getrfSource(dialect: Dialect, dtype: DType): KernelSource {
  const params = [
    pointer(dialect, dtype, "A"),
    "IDX oA, IDX sA, int lda, int n",
    pointer(dialect, "int64", "P"),
    "IDX oP, IDX sP",
    pointer(dialect, "int32", "I"),
    "IDX oI",
  ];
  const body = `  ${localArray(dialect, realOf(dtype), "red")}
  ${localArray(dialect, "int32", "at")}
  A += oA + g * sA;
  P += oP + g * sP;
#define AT(i, j) A[(i) + (IDX)(j) * lda]
  int bad = 0;
  for (int k = 0; k < n; k++) {
    R best = -1; int bi = k;
    for (int i = k + tid; i < n; i += nt) {
      const R v = MAG1(AT(i, k));
      if (v > best) { best = v; bi = i; }
    }
    red[tid] = best; at[tid] = bi;
    SYNC
    for (int h = nt / 2; h > 0; h >>= 1) {
      if (tid < h) {
        const R o = red[tid + h]; const int oi = at[tid + h];
        if (o > red[tid] || (o == red[tid] && oi < at[tid])) { red[tid] = o; at[tid] = oi; }
      }
      SYNC
    }
    const int p = at[0];
    if (p != k) {
      for (int j = tid; j < n; j += nt) { const T x = AT(k, j); AT(k, j) = AT(p, j); AT(p, j) = x; }
    }
    if (tid == 0) P[k] = p + 1;
    SYNC
    const T piv = AT(k, k);
    if (NONZERO(piv)) {
      for (int i = k + 1 + tid; i < n; i += nt) AT(i, k) = DIV(AT(i, k), piv);
    } else if (bad == 0) {
      bad = k + 1;
    }
    SYNC
    const int r = n - k - 1;
    for (int q = tid; q < r * r; q += nt) {
      const int i = k + 1 + q % r, j = k + 1 + q / r;
      AT(i, j) = SUB(AT(i, j), MUL(AT(i, k), AT(k, j)));
    }
    SYNC
  }
  if (tid == 0) I[oI + g] = bad;`;
  return linalgKernel(dialect, dtype, `cudeno_getrf_${dtype}`, params, body);
}

/** `getrs(A, oA, sA, lda, n, P, oP, sP, B, oB, sB, ldb, nrhs)`: `B := A⁻¹·B` from `getrf`'s factors. */
export function getrsSource(dialect: Dialect, dtype: DType): KernelSource {
  const params = [
    pointer(dialect, dtype, "A", true),
    "IDX oA, IDX sA, int lda, int n",
    pointer(dialect, "int64", "P", true),
    "IDX oP, IDX sP",
    pointer(dialect, dtype, "B"),
    "IDX oB, IDX sB, int ldb, int nrhs",
  ];
  const body = `  A += oA + g * sA;
  P += oP + g * sP;
  B += oB + g * sB;
#define AT(i, j) A[(i) + (IDX)(j) * lda]
#define BT(i, j) B[(i) + (IDX)(j) * ldb]
  for (int j = tid; j < nrhs; j += nt) {
    for (int k = 0; k < n; k++) {
      const int p = (int)P[k] - 1;
      if (p != k) { const T x = BT(k, j); BT(k, j) = BT(p, j); BT(p, j) = x; }
    }
  }
  SYNC
  for (int k = 0; k < n; k++) {
    const int r = n - k - 1;
    for (int q = tid; q < r * nrhs; q += nt) {
      const int i = k + 1 + q % r, j = q / r;
      BT(i, j) = SUB(BT(i, j), MUL(AT(i, k), BT(k, j)));
    }
    SYNC
  }
  for (int k = n - 1; k >= 0; k--) {
    for (int j = tid; j < nrhs; j += nt) BT(k, j) = DIV(BT(k, j), AT(k, k));
    SYNC
    for (int q = tid; q < k * nrhs; q += nt) {
      const int i = q % k, j = q / k;
      BT(i, j) = SUB(BT(i, j), MUL(AT(i, k), BT(k, j)));
    }
    SYNC
  }`;
  return linalgKernel(dialect, dtype, `cudeno_getrs_${dtype}`, params, body);
}
