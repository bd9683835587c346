/**
 * Cholesky factorization (LAPACK's `potf2`, right-looking), one work-group per column-major matrix of
 * a batch, in place of the lower triangle (`A = L·Lᴴ`) or, where `upper`, the upper one (`A = Uᴴ·U`,
 * the same steps on the transposed indices); the other triangle is left as it was. Complex matrices
 * are Hermitian: the imaginary parts of the diagonal are not read. `info` is k > 0
 * where the leading minor of order k is not positive definite; the factorization goes on (a square
 * root of a negative number is NaN), so a failed matrix ends in NaN where LAPACK would stop.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { linalgKernel, pointer } from "./kernel_text.ts";

/** `potrf(A, oA, sA, lda, n, upper, I, oI)`. */
export function potrfSource(dialect: Dialect, dtype: DType): KernelSource {
  const params = [
    pointer(dialect, dtype, "A"),
    "IDX oA, IDX sA, int lda, int n, int upper",
    pointer(dialect, "int32", "I"),
    "IDX oI",
  ];
  const body = `  A += oA + g * sA;
#define AT(i, j) A[upper ? (j) + (IDX)(i) * lda : (i) + (IDX)(j) * lda]
  int bad = 0;
  for (int k = 0; k < n; k++) {
    if (tid == 0) {
      const R d = RE(AT(k, k));
      if (!(d > 0) && bad == 0) bad = k + 1;
      AT(k, k) = FROMREAL(SQRT(d));
    }
    SYNC
    const T piv = AT(k, k);
    for (int i = k + 1 + tid; i < n; i += nt) AT(i, k) = DIV(AT(i, k), piv);
    SYNC
    const int r = n - k - 1;
    for (int q = tid; q < r * r; q += nt) {
      const int i = k + 1 + q % r, j = k + 1 + q / r;
      if (i >= j) AT(i, j) = SUB(AT(i, j), MUL(AT(i, k), CONJ(AT(j, k))));
    }
    SYNC
  }
  if (tid == 0) I[oI + g] = bad;`;
  return linalgKernel(dialect, dtype, `cudeno_potrf_${dtype}`, params, body);
}
