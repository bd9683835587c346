/**
 * The general eigenproblem (LAPACK's `zgeev` without balancing), one work-group per column-major
 * complex matrix of a batch, in place:
 *
 * 1. Householder reduction to upper Hessenberg form `H = Zᴴ·A·Z` (`zgehrd`), each reflector applied
 *    from the left a column per thread, then from the right a row per thread, and accumulated into Z.
 * 2. The complex Schur form `T = Qᴴ·H·Q` by single-shift QR sweeps (`zlahqr`): the active block is the
 *    trailing unreduced one; a sweep chases the bulge of the Wilkinson shift (an exceptional shift
 *    every tenth iteration) down it with Givens rotations, each found by thread 0 and applied to two
 *    rows and two columns of the whole T (and Z) by every thread. A subdiagonal entry below
 *    `eps·(|t_kk| + |t_k+1,k+1|)` deflates (set to 0); the diagonal's entries are the eigenvalues.
 * 3. Where vectors are asked for (`ztrevc` and the back-transform): eigenvector k of T by back
 *    substitution (a thread per vector, the vector stored transposed in T's free lower triangle), then
 *    `V = Z·X` in place of Z (a thread per row), each column scaled to 2-norm 1 with its largest
 *    element real.
 *
 * `info` is k + 1 where eigenvalue k (and those above it) did not converge in 30·n iterations, n + 1
 * where the matrix holds NaN or infinity.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";
import { complexPrefix } from "../../codegen/complex.ts";
import { EPSILON, linalgKernel, localArray, pointer, reduceInto, reflectorText } from "./kernel_text.ts";
import { realOf } from "../core/dtypes.ts";

/**
 * Statements building the reflector of column k below the diagonal (`larfg` on `A[k+1..n-1, k]`):
 * `beta` into `A[k+1, k]`, the reflector's tail over the column below it, `tau` in every thread.
 */
const REFLECTOR = `${reflectorText("k", "k + 1", "n")}
    if (tid == 0) AT(k + 1, k) = beta;
    SYNC`;

/** Element i of the reflector of column k (rows k+1 onward). */
const V = "(i == k + 1 ? FROMREAL(1) : AT(i, k))";

/**
 * Statements applying the reflector of column k: `Hᴴ·A` on columns k+1 onward (a column per thread),
 * then `A·H` and `Z·H` on every row (a row per thread).
 */
const APPLY_REFLECTOR = `const int apply = NONZERO(tau);
    if (apply) {
      for (int j = k + 1 + tid; j < n; j += nt) {
        T s = FROMREAL(0);
        for (int i = k + 1; i < n; i++) s = ADD(s, MUL(CONJ(${V}), AT(i, j)));
        s = MUL(CONJ(tau), s);
        for (int i = k + 1; i < n; i++) AT(i, j) = SUB(AT(i, j), MUL(${V}, s));
      }
    }
    SYNC
    if (apply) {
      for (int r = tid; r < n; r += nt) {
        T s = FROMREAL(0);
        for (int i = k + 1; i < n; i++) s = ADD(s, MUL(AT(r, i), ${V}));
        s = MUL(tau, s);
        for (int i = k + 1; i < n; i++) AT(r, i) = SUB(AT(r, i), MUL(s, CONJ(${V})));
        if (vectors) {
          T t = FROMREAL(0);
          for (int i = k + 1; i < n; i++) t = ADD(t, MUL(ZT(r, i), ${V}));
          t = MUL(tau, t);
          for (int i = k + 1; i < n; i++) ZT(r, i) = SUB(ZT(r, i), MUL(t, CONJ(${V})));
        }
      }
    }
    SYNC
    for (int i = k + 2 + tid; i < n; i += nt) AT(i, k) = FROMREAL(0);
    SYNC`;

/**
 * Statements of one QR sweep over the active block [l, top] with shift `mu`: rotation k, found by
 * thread 0 from `(t_kk - mu, t_k+1,k)` or the bulge `(t_k,k-1, t_k+1,k-1)` (c real, s complex:
 * `[[c, s], [-s̄, c]]·[x, y] = [r, 0]`), applied to rows k, k+1 (columns from k-1) and to columns k,
 * k+1 of T (rows to k+2) and of Z.
 */
const SWEEP = `for (int k = l; k < top; k++) {
      if (tid == 0) {
        const T x = k == l ? SUB(AT(l, l), mu) : AT(k, k - 1);
        const T y = k == l ? AT(l + 1, l) : AT(k + 1, k - 1);
        const R ax = ABS(x), ay = ABS(y), rho = HYPOT(ax, ay);
        R c = 1;
        T s = FROMREAL(0);
        if (rho > 0) {
          c = ax / rho;
          s = ax > 0 ? DIVR(MUL(DIVR(x, ax), CONJ(y)), rho) : DIVR(CONJ(y), ay);
        }
        rot[0] = FROMREAL(c);
        rot[1] = s;
      }
      SYNC
      const R c = RE(rot[0]);
      const T s = rot[1];
      for (int j = (k == l ? l : k - 1) + tid; j < n; j += nt) {
        const T a = AT(k, j), b = AT(k + 1, j);
        AT(k, j) = ADD(RMUL(c, a), MUL(s, b));
        AT(k + 1, j) = j == k - 1 ? FROMREAL(0) : SUB(RMUL(c, b), MUL(CONJ(s), a));
      }
      SYNC
      const int last = k + 2 < top ? k + 2 : top;
      for (int i = tid; i <= last; i += nt) {
        const T a = AT(i, k), b = AT(i, k + 1);
        AT(i, k) = ADD(RMUL(c, a), MUL(CONJ(s), b));
        AT(i, k + 1) = SUB(RMUL(c, b), MUL(s, a));
      }
      if (vectors) {
        for (int i = tid; i < n; i += nt) {
          const T a = ZT(i, k), b = ZT(i, k + 1);
          ZT(i, k) = ADD(RMUL(c, a), MUL(CONJ(s), b));
          ZT(i, k + 1) = SUB(RMUL(c, b), MUL(s, a));
        }
      }
      SYNC
    }`;

/**
 * `geev(A, oA, sA, lda, n, vectors, W, oW, sW, VR, oV, sV, ldv, info, oI)` of complex64 or complex128
 * matrices (see the module's description); VR is written where `vectors` is 1.
 */
export function geevSource(dialect: Dialect, dtype: DType): KernelSource {
  const R = realOf(dtype) as "float32" | "float64", t = targetOf(dialect), p = complexPrefix(dtype);
  const params = [
    pointer(dialect, dtype, "A"),
    "IDX oA, IDX sA, int lda, int n, int vectors",
    pointer(dialect, dtype, "W"),
    "IDX oW, IDX sW",
    pointer(dialect, dtype, "VR"),
    "IDX oV, IDX sV, int ldv",
    pointer(dialect, "int32", "info"),
    "IDX oI",
  ];
  const body = `  ${localArray(dialect, R, "red")}
  ${localArray(dialect, dtype, "w", 2)}
  ${localArray(dialect, dtype, "rot", 2)}
  ${localArray(dialect, "int32", "flag", 1)}
#define EPS ${t.literal(EPSILON[R], R)}
#define CSQRT(z) ${p}sqrt(z)
  A += oA + g * sA;
  W += oW + g * sW;
  VR += oV + g * sV;
#define AT(i, j) A[(i) + (IDX)(j) * lda]
#define ZT(i, j) VR[(i) + (IDX)(j) * ldv]
  if (vectors) {
    for (int q = tid; q < n * n; q += nt) ZT(q % n, q / n) = FROMREAL(q % n == q / n ? 1 : 0);
  }
  SYNC
  for (int k = 0; k + 2 < n; k++) {
    ${REFLECTOR}
    ${APPLY_REFLECTOR}
  }
  // The largest magnitude of H: the deflation test's floor where a diagonal pair is zero.
  R big = 0;
  for (int q = tid; q < n * n; q += nt) {
    const R m = MAG1(AT(q % n, q / n));
    if (m != m || m > big) big = m; // NaN stays (FMAX would drop it)
  }
  ${reduceInto("big", true)}
  const R hnorm = red[0] > 0 ? red[0] : (R)1;
  // NaN or infinity anywhere: info n + 1, no iterations.
  const int finite = red[0] - red[0] == 0;
  SYNC
  int hi = finite ? n - 1 : -1, iter = 0, total = 0, failed = finite ? 0 : n + 1;
  while (hi >= 0) {
    if (tid == 0) {
      int l = hi;
      for (; l > 0; l--) {
        R s = MAG1(AT(l - 1, l - 1)) + MAG1(AT(l, l));
        if (s == 0) s = hnorm;
        if (MAG1(AT(l, l - 1)) <= EPS * s) { AT(l, l - 1) = FROMREAL(0); break; }
      }
      flag[0] = l;
      if (l == hi) {
        W[hi] = AT(hi, hi);
      } else {
        const T d = AT(hi, hi);
        T mu;
        if ((iter + 1) % 10 == 0) {
          mu = ADD(d, FROMREAL((R)0.75 * FABS(RE(AT(hi, hi - 1)))));
        } else {
          // The eigenvalue of the trailing 2 × 2 block nearer its last diagonal entry (Wilkinson's).
          const T a = AT(hi - 1, hi - 1), b = AT(hi - 1, hi), c = AT(hi, hi - 1);
          const T gap = DIVR(SUB(a, d), (R)2);
          const T root = CSQRT(ADD(MUL(gap, gap), MUL(b, c)));
          const T mid = DIVR(ADD(a, d), (R)2);
          const T e1 = ADD(mid, root), e2 = SUB(mid, root);
          mu = MAG1(SUB(e1, d)) <= MAG1(SUB(e2, d)) ? e1 : e2;
        }
        w[0] = mu;
      }
    }
    SYNC
    const int l = flag[0];
    const T mu = w[0];
    SYNC
    // The sweep's last row: none where an eigenvalue converged (or the iterations ran out).
    int top = l;
    if (l == hi) {
      hi--;
      iter = 0;
    } else if (++total > 30 * n) {
      failed = hi + 1;
      hi = -1;
    } else {
      iter++;
      top = hi;
    }
    ${SWEEP}
  }
  if (tid == 0) info[oI + g] = failed;
  const int more = vectors && !failed;
  // Eigenvector k of T: x_k = 1 and, upward, x_i = -(t_ik + Σ t_ij·x_j) / (t_ii - t_kk), stored at T(k, i).
  const R small = EPS * hnorm;
  for (int k = tid; more && k < n; k += nt) {
    const T lambda = AT(k, k);
    for (int i = k - 1; i >= 0; i--) {
      T s = AT(i, k);
      for (int j = i + 1; j < k; j++) s = ADD(s, MUL(AT(i, j), AT(k, j)));
      T d = SUB(AT(i, i), lambda);
      if (MAG1(d) < small) d = FROMREAL(small);
      AT(k, i) = DIV(SUB(FROMREAL(0), s), d);
    }
  }
  SYNC
  // V = Z·X, a row per thread, the columns from the last (column k reads Z's columns up to k).
  for (int r = tid; more && r < n; r += nt) {
    for (int k = n - 1; k >= 0; k--) {
      T s = ZT(r, k);
      for (int j = 0; j < k; j++) s = ADD(s, MUL(ZT(r, j), AT(k, j)));
      ZT(r, k) = s;
    }
  }
  SYNC
  // Each column to 2-norm 1, its largest element real and positive.
  for (int k = tid; more && k < n; k += nt) {
    R norm = 0, top = -1;
    int at = 0;
    for (int i = 0; i < n; i++) {
      const R m = ABS2(ZT(i, k));
      norm += m;
      if (m > top) { top = m; at = i; }
    }
    const R mag = ABS(ZT(at, k));
    const T phase = mag > 0 ? DIVR(CONJ(ZT(at, k)), mag * SQRT(norm)) : FROMREAL(1);
    for (int i = 0; i < n; i++) ZT(i, k) = MUL(ZT(i, k), phase);
    ZT(at, k) = FROMREAL(RE(ZT(at, k)));
  }`;
  return linalgKernel(dialect, dtype, `cudeno_geev_${dtype}`, params, body);
}
