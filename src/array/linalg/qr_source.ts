/**
 * Householder QR (LAPACK's `geqr2` with `larfg`'s reflectors: `H = I - tau·v·vᵀ`, `v[0] = 1`, R's
 * diagonal `beta = -sign(alpha)·‖x‖`) and the forming of Q from the reflectors (`org2r`), one
 * work-group per column-major matrix of a batch, in place. A reflector's dot products with the columns
 * it is applied to run a column per thread, up to a work-group's worth of columns at a time, and the
 * update of those columns over every thread.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { linalgKernel, localArray, pointer, reflectorText } from "./kernel_text.ts";
import { realOf } from "../core/dtypes.ts";

/**
 * Statements applying `H = I - tau·v·vᵀ` from the left to columns `from` to `n - 1`, rows `vc` to
 * `m - 1`, where `v` is column `vc` below row `vc` with an implicit 1 at row `vc`.
 */
function applyReflector(vc: string, from: string, tau: string): string {
  return `for (int j0 = ${from}; j0 < n; j0 += nt) {
      const int j = j0 + tid;
      if (j < n) {
        T s = AT(${vc}, j);
        for (int i = ${vc} + 1; i < m; i++) s = ADD(s, MUL(CONJ(AT(i, ${vc})), AT(i, j)));
        w[tid] = MUL(${tau}, s);
      }
      SYNC
      const int cols = nt < n - j0 ? nt : n - j0, rows = m - ${vc};
      for (int q = tid; q < rows * cols; q += nt) {
        const int i = ${vc} + q % rows, jj = q / rows;
        const T v = i == ${vc} ? FROMREAL(1) : AT(i, ${vc});
        AT(i, j0 + jj) = SUB(AT(i, j0 + jj), MUL(v, w[jj]));
      }
      SYNC
    }`;
}

/** `geqrf(A, oA, sA, lda, m, n, Tau, oT, sT)`. */
export function geqrfSource(dialect: Dialect, dtype: DType): KernelSource {
  const params = [
    pointer(dialect, dtype, "A"),
    "IDX oA, IDX sA, int lda, int m, int n",
    pointer(dialect, dtype, "Tau"),
    "IDX oT, IDX sT",
  ];
  const body = `  ${localArray(dialect, realOf(dtype), "red")}
  ${localArray(dialect, dtype, "w")}
  A += oA + g * sA;
  Tau += oT + g * sT;
#define AT(i, j) A[(i) + (IDX)(j) * lda]
  const int kmax = m < n ? m : n;
  for (int k = 0; k < kmax; k++) {
    ${reflectorText("k", "k", "m")}
    if (tid == 0) { AT(k, k) = beta; Tau[k] = tau; }
    if (NONZERO(tau)) {
      // Hᴴ from the left (H = I - tau·v·vᴴ): the reflector's conjugate scale.
      ${applyReflector("k", "k + 1", "CONJ(tau)")}
    }
  }`;
  return linalgKernel(dialect, dtype, `cudeno_geqrf_${dtype}`, params, body);
}

/** `orgqr(A, oA, sA, lda, m, n, k, Tau, oT, sT)`: the m × n Q of `k` reflectors, in place. */
export function orgqrSource(dialect: Dialect, dtype: DType): KernelSource {
  const params = [
    pointer(dialect, dtype, "A"),
    "IDX oA, IDX sA, int lda, int m, int n, int k",
    pointer(dialect, dtype, "Tau", true),
    "IDX oT, IDX sT",
  ];
  const body = `  ${localArray(dialect, dtype, "w")}
  A += oA + g * sA;
  Tau += oT + g * sT;
#define AT(i, j) A[(i) + (IDX)(j) * lda]
  for (int q = tid; q < m * (n - k); q += nt) {
    const int i = q % m, j = k + q / m;
    AT(i, j) = FROMREAL(i == j ? 1 : 0);
  }
  SYNC
  for (int c = k - 1; c >= 0; c--) {
    const T tau = Tau[c];
    if (c < n - 1) {
      ${applyReflector("c", "c + 1", "tau")}
    }
    for (int i = c + 1 + tid; i < m; i += nt) AT(i, c) = MUL(AT(i, c), SUB(FROMREAL(0), tau));
    for (int i = tid; i < c; i += nt) AT(i, c) = FROMREAL(0);
    if (tid == 0) AT(c, c) = SUB(FROMREAL(1), tau);
    SYNC
  }`;
  return linalgKernel(dialect, dtype, `cudeno_orgqr_${dtype}`, params, body);
}
