/**
 * Jacobi's method, one work-group per column-major matrix of a batch: the Hermitian (or symmetric)
 * eigenproblem (`eigh`: the same rotation on both sides, `Jᴴ·A·J`, accumulated into the eigenvectors)
 * and the one-sided SVD (Hestenes's: rotations from the right only, each making two columns
 * orthogonal, so that `A·V = W` ends with orthogonal columns whose norms are the singular values).
 *
 * Each sweep visits every pair (p, q) once, in the rounds of a round-robin tournament: a round's
 * n/2 pairs share no row or column, so their rotations are found at once (a thread per pair) and
 * applied at once (the rows, then the columns, over every thread). A pair's rotation is that of a
 * Hermitian 2 × 2 block (`[[a_pp, a_pq], [ā_pq, a_qq]]` for `eigh`, the columns' Gram matrix for the
 * SVD): the phase `diag(1, ē)`, `e = a_pq/|a_pq|`, makes it real, and a real rotation zeroes it. It is
 * skipped where `|a_pq|` is below `eps·sqrt(|a_pp|·|a_qq|)` (or negligible against the largest entry);
 * `eigh` sets the rotated entries to 0 exactly. The sweeps end when one rotates nothing. The
 * eigenvalues come out ascending and the singular values descending, their vectors in the same order.
 * `info` is 1 where the sweeps did not end within {@link MAX_SWEEPS} or the matrix holds NaN or
 * infinity.
 *
 * Scratch per matrix ({@link jacobiScratch} elements): the n × n working V, the round's rotations,
 * the diagonal (or the column norms) and their ranks.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";
import { EPSILON, linalgKernel, localArray, pointer, reduceInto } from "./kernel_text.ts";
import { realOf } from "../core/dtypes.ts";

/** Sweeps before a matrix counts as not converging (a few suffice: convergence is quadratic). */
export const MAX_SWEEPS = 50;

/** Elements of scratch each matrix of order `n` needs. */
export function jacobiScratch(n: number): number {
  return n * n + 4 * Math.ceil(n / 2) + 2 * n;
}

/**
 * The rotation of the Hermitian pair `[[app, apq], [conj(apq), aqq]]` (`app`, `aqq` real): sets `cl, sl`
 * to the real rotation's `c, s` and `cr, sr` to the parts of the phase `e` (±1 and 0 for a real
 * pair) where it rotates.
 */
const ROTATION = `const R mag = ABS(apq);
          if (mag > EPS * SQRT(FABS(app)) * SQRT(FABS(aqq)) && mag > tiny) {
            const R th = (aqq - app) / (2 * mag);
            const R tt = COPYSIGN((R)1, th) / (FABS(th) + HYPOT(th, (R)1));
            cl = 1 / SQRT(1 + tt * tt); sl = tt * cl;
            const T e = DIVR(apq, mag);
            cr = RE(e); sr = IM(e);
            flag[0] = 1;
          }`;

/** The pair (p, q) of thread `pr` in round `r` of the tournament of N = 2P players. */
const PAIR = `int p, q;
        {
          const int a_ = pr == 0 ? 0 : 1 + (r + pr - 1) % (N - 1), b_ = 1 + (r + N - 2 - pr) % (N - 1);
          p = a_ < b_ ? a_ : b_; q = a_ < b_ ? b_ : a_;
        }`;

/**
 * `jacobi_eigh(A, oA, sA, lda, n, upper, vectors, W, oW, sW, I, oI, S, oS, sS)` (LAPACK's `heevd`
 * job: the triangle `upper` names is read, the eigenvectors replace `A`), or `jacobi_svd(A, oA, sA,
 * lda, m, n, vectors, W, oW, sW, U, oU, sU, V, oV, sV, I, oI, S, oS, sS)` of m × n matrices, m ≥ n:
 * the singular values in `W`, and where `vectors` V (n × n, leading dimension n) and `U`, the
 * columns of `A·V` in the same order (m × n, leading dimension m; orthogonal, of the singular values'
 * norms); `A` is overwritten.
 */
export function jacobiSource(dialect: Dialect, dtype: DType, mode: "eigh" | "svd"): KernelSource {
  const eigh = mode === "eigh";
  const T = dtype, R = realOf(dtype);
  const params = [
    pointer(dialect, T, "A"),
    `IDX oA, IDX sA, int lda, ${eigh ? "int n, int upper" : "int m, int n"}, int vectors`,
    pointer(dialect, R, "W"),
    "IDX oW, IDX sW",
    ...(eigh ? [] : [pointer(dialect, T, "U"), "IDX oU, IDX sU", pointer(dialect, T, "V"), "IDX oV, IDX sV"]),
    pointer(dialect, "int32", "I"),
    "IDX oI",
    pointer(dialect, T, "S"),
    "IDX oS, IDX sS",
  ];
  const eps = EPSILON[R as "float32" | "float64"];
  // eigh: Hermitian, the other triangle is the read one's conjugate and the diagonal is real. The SVD
  // works on A scaled to a largest entry of 1, so that the columns' squared norms neither overflow nor
  // underflow.
  const prepare = eigh
    ? `for (int x = tid; x < n * n; x += nt) {
    const int i = x % n, j = x / n;
    if (i > j) { if (upper) AT(i, j) = CONJ(AT(j, i)); else AT(j, i) = CONJ(AT(i, j)); }
    else if (i == j) AT(i, i) = FROMREAL(RE(AT(i, i)));
  }
  SYNC`
    : "";
  const scale = eigh ? "" : `const R scale = red[0] > 0 && (1 / red[0]) * 0 == 0 ? 1 / red[0] : 1;
  SYNC
  for (int x = tid; x < m * n; x += nt) AT(x % m, x / m) = RMUL(scale, AT(x % m, x / m));
  SYNC`;
  const pairEntries = eigh
    ? `const R app = RE(AT(p, p)), aqq = RE(AT(q, q));
          const T apq = AT(p, q);`
    : `R app = 0, aqq = 0;
          T apq = FROMREAL(0);
          for (int i = 0; i < m; i++) {
            const T x = AT(i, p), y = AT(i, q);
            app += ABS2(x); aqq += ABS2(y); apq = ADD(apq, MUL(CONJ(x), y));
          }`;
  // The left rotation (eigh only): rows p, q by (c, s) after e times row q.
  const rowUpdate = eigh
    ? `for (int x = tid; x < P * n; x += nt) {
        const int pr = x / n, j = x % n;
        const R c = cs[4 * pr], s = cs[4 * pr + 1];
        if (c != 1 || s != 0) {
          ${PAIR}
          const T e = MAKE(cs[4 * pr + 2], cs[4 * pr + 3]);
          const T a = AT(p, j), b = MUL(e, AT(q, j));
          AT(p, j) = SUB(RMUL(c, a), RMUL(s, b)); AT(q, j) = ADD(RMUL(s, a), RMUL(c, b));
        }
      }
      SYNC`
    : "";
  // The right rotation of the rows' columns p, q by (c, s) after ē times column q.
  const columnUpdate = (rows: string, at: string) =>
    `for (int x = tid; x < P * ${rows}; x += nt) {
        const int pr = x / ${rows}, i = x % ${rows};
        const R c = cs[4 * pr], s = cs[4 * pr + 1];
        if (c != 1 || s != 0) {
          ${PAIR}
          const T e = CONJ(MAKE(cs[4 * pr + 2], cs[4 * pr + 3]));
          const T a = ${at}(i, p), b = MUL(e, ${at}(i, q));
          ${at}(i, p) = SUB(RMUL(c, a), RMUL(s, b)); ${at}(i, q) = ADD(RMUL(s, a), RMUL(c, b));
        }
      }`;
  const zero = eigh
    ? `SYNC
      for (int pr = tid; pr < P; pr += nt) {
        if (cs[4 * pr] != 1 || cs[4 * pr + 1] != 0) {
          ${PAIR}
          AT(p, q) = FROMREAL(0); AT(q, p) = FROMREAL(0);
        }
      }`
    : "";
  // The eigenvalues, or the columns' norms (unscaled).
  const diagonal = eigh ? "RE(AT(j, j))" : `SQRT(norm2) / scale`;
  const norms = eigh ? "" : `R norm2 = 0;
    for (int i = 0; i < m; i++) norm2 += ABS2(AT(i, j));`;
  // Ascending for eigenvalues, descending for singular values; ties by index, NaN last.
  const before = eigh ? "d[i] < d[j]" : "d[i] > d[j]";
  const finish = eigh
    ? `for (int x = tid; x < n * n; x += nt) {
      const int i = x % n, j = x / n;
      AT(i, (int)rk[j]) = VW(i, j);
    }`
    : `for (int x = tid; x < m * n; x += nt) {
      const int i = x % m, j = x / m;
      U[i + (IDX)rk[j] * m] = AT(i, j);
    }
    for (int x = tid; x < n * n; x += nt) {
      const int i = x % n, j = x / n;
      V[i + (IDX)rk[j] * n] = VW(i, j);
    }`;
  const rows = eigh ? "n" : "m";
  const body = `  ${localArray(dialect, R, "red")}
  ${localArray(dialect, "int32", "flag", 1)}
  A += oA + g * sA;
  W += oW + g * sW;
  S += oS + g * sS;
${eigh ? "" : "  U += oU + g * sU;\n  V += oV + g * sV;"}
#define EPS ${targetOf(dialect).literal(eps, R)}
#define AT(i, j) A[(i) + (IDX)(j) * lda]
#define VW(i, j) S[(i) + (IDX)(j) * n]
  const int P = (n + 1) / 2, N = 2 * P;
  GLOBAL R *cs = (GLOBAL R *)(S + (IDX)n * n);
  GLOBAL R *d = cs + 4 * P;
  GLOBAL R *rk = d + n;
  ${prepare}
  R big = 0;
  for (int x = tid; x < ${rows} * n; x += nt) {
    const R v = ABS(AT(x % ${rows}, x / ${rows}));
    if (big == big && (v != v || big < v)) big = v;
  }
  for (int x = tid; x < n * n; x += nt) if (vectors) VW(x % n, x / n) = FROMREAL(x % n == x / n ? 1 : 0);
  ${reduceInto("big", true)}
  int info = (red[0] - red[0]) != (R)0;
  ${scale}
  const R tiny = ${eigh ? "red[0] * " : ""}EPS * EPS;
  int sweep = 0;
  for (; sweep < ${MAX_SWEEPS} && !info; sweep++) {
    SYNC
    if (tid == 0) flag[0] = 0;
    SYNC
    for (int r = 0; r < N - 1; r++) {
      for (int pr = tid; pr < P; pr += nt) {
        ${PAIR}
        R cl = 1, sl = 0, cr = 1, sr = 0;
        if (q < n) {
          ${pairEntries}
          ${ROTATION}
        }
        cs[4 * pr] = cl; cs[4 * pr + 1] = sl; cs[4 * pr + 2] = cr; cs[4 * pr + 3] = sr;
      }
      SYNC
      ${rowUpdate}
      ${columnUpdate(rows, "AT")}
      if (vectors) {
        ${columnUpdate("n", "VW")}
      }
      ${zero}
    }
    SYNC
    const int done = flag[0] == 0;
    SYNC
    if (done) break;
  }
  if (sweep == ${MAX_SWEEPS}) info = 1;
  for (int j = tid; j < n; j += nt) {
    ${norms}
    d[j] = ${diagonal};
  }
  SYNC
  for (int j = tid; j < n; j += nt) {
    int r = 0;
    for (int i = 0; i < n; i++) {
      const int earlier = d[i] != d[i] ? (d[j] != d[j] && i < j) : (d[j] != d[j] || ${before} || (d[i] == d[j] && i < j));
      r += earlier;
    }
    rk[j] = r;
    W[r] = d[j];
  }
  SYNC
  if (vectors) {
    ${finish}
  }
  if (tid == 0) I[oI + g] = info;`;
  return linalgKernel(dialect, dtype, `cudeno_jacobi_${mode}_${dtype}`, params, body);
}
