/**
 * Jacobi's method on square column-major matrices, one work-group per matrix of a batch: the
 * symmetric eigenproblem (`eigh`: the same rotation on both sides, `Jᵀ·A·J`) and the two-sided SVD
 * (Kogbetliantz's: a rotation on the left that makes a pair's 2×2 block symmetric, then the symmetric
 * one on both sides), with the rotations accumulated into the eigenvectors, or U and V.
 *
 * Each sweep visits every pair (p, q) once, in the rounds of a round-robin tournament: a round's
 * n/2 pairs share no row or column, so their rotations are found at once (a thread per pair) and
 * applied at once (the rows, then the columns, over every thread). A rotation is skipped where the
 * pair's off-diagonal entries are below `eps·sqrt(|a_pp|·|a_qq|)` (or negligible against the largest
 * entry), and the rotated entries are set to 0 exactly; the sweeps end when one rotates nothing. The
 * eigenvalues come out ascending and the singular values (made non-negative, U's column negated
 * with them) descending, their vectors in the same order. `info` is 1 where the sweeps did not end
 * within {@link MAX_SWEEPS} or the matrix holds NaN or infinity.
 *
 * Scratch per matrix ({@link jacobiScratch} elements): two n × n working matrices, the round's
 * rotations, the diagonal and its ranks.
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
  return 2 * n * n + 4 * Math.ceil(n / 2) + 2 * n;
}

/**
 * The rotation of a Hermitian (or symmetric) pair: `apq = |apq|·e`; the phase `diag(1, ē)` makes the
 * pair real, and the real rotation `(c, s)` of `|apq|` zeroes it. Sets `cl, sl` to `c, s` and `cr, sr`
 * to `e`'s parts (±1 and 0 for a real pair) where it rotates.
 */
const SYMMETRIC = `const R app = RE(AT(p, p)), aqq = RE(AT(q, q));
          const T apq = AT(p, q);
          const R mag = ABS(apq);
          if (mag > EPS * SQRT(FABS(app)) * SQRT(FABS(aqq)) && mag > tiny) {
            const R th = (aqq - app) / (2 * mag);
            const R tt = COPYSIGN((R)1, th) / (FABS(th) + HYPOT(th, (R)1));
            cl = 1 / SQRT(1 + tt * tt); sl = tt * cl;
            const T e = DIVR(apq, mag);
            cr = RE(e); sr = IM(e);
            flag[0] = 1;
          }`;

/** The rotations of a general (real) pair: the symmetrizing one then the symmetric one on the left, the symmetric one on the right. */
const GENERAL = `const T a = AT(p, p), b = AT(p, q), c = AT(q, p), d = AT(q, q);
          const T off = FMAX(FABS(b), FABS(c));
          if (off > EPS * SQRT(FABS(a)) * SQRT(FABS(d)) && off > tiny) {
            T num = b - c, den = a + d;
            if (den < 0) { num = -num; den = -den; }
            const T th1 = ATAN2(num, den), c1 = COS(th1), s1 = SIN(th1);
            const T x = c1 * a - s1 * c, y = c1 * b - s1 * d, z = s1 * b + c1 * d;
            T cj = 1, sj = 0;
            if (y != 0) {
              const T th = (z - x) / (2 * y);
              const T tt = COPYSIGN((T)1, th) / (FABS(th) + HYPOT(th, (T)1));
              cj = 1 / SQRT(1 + tt * tt); sj = tt * cj;
            }
            cl = c1 * cj - s1 * sj; sl = s1 * cj + c1 * sj; cr = cj; sr = sj;
            flag[0] = 1;
          }`;

/**
 * `jacobi_eigh(A, oA, sA, lda, n, upper, vectors, W, oW, sW, I, oI, S, oS, sS)` (LAPACK's `syevd`
 * job: the triangle `upper` names is read, the eigenvectors replace `A`), or `jacobi_svd(A, oA, sA,
 * lda, n, vectors, W, oW, sW, U, oU, sU, V, oV, sV, I, oI, S, oS, sS)` (`A = U·diag(W)·Vᵀ`, U and V
 * n × n with leading dimension n, written where `vectors`; `A` is overwritten).
 */
export function jacobiSource(dialect: Dialect, dtype: DType, mode: "eigh" | "svd"): KernelSource {
  const eigh = mode === "eigh";
  const T = dtype, R = realOf(dtype);
  const params = [
    pointer(dialect, T, "A"),
    `IDX oA, IDX sA, int lda, int n${eigh ? ", int upper" : ""}, int vectors`,
    pointer(dialect, R, "W"),
    "IDX oW, IDX sW",
    ...(eigh ? [] : [pointer(dialect, T, "U"), "IDX oU, IDX sU", pointer(dialect, T, "V"), "IDX oV, IDX sV"]),
    pointer(dialect, "int32", "I"),
    "IDX oI",
    pointer(dialect, T, "S"),
    "IDX oS, IDX sS",
  ];
  const eps = EPSILON[R as "float32" | "float64"];
  // Hermitian: the other triangle is the read one's conjugate, and the diagonal is real.
  const symmetrize = eigh
    ? `for (int x = tid; x < n * n; x += nt) {
    const int i = x % n, j = x / n;
    if (i > j) { if (upper) AT(i, j) = CONJ(AT(j, i)); else AT(j, i) = CONJ(AT(i, j)); }
    else if (i == j) AT(i, i) = FROMREAL(RE(AT(i, i)));
  }
  SYNC`
    : "";
  // A pair's rotation from the left (rows p, q) and from the right (columns p, q): (c, s) and a phase
  // e that multiplies row q (ē column q) first; eigh keeps e in the slots 2, 3, the SVD its right rotation.
  const [rows, columns] = eigh
    ? [
      "const R c = cs[4 * pr], s = cs[4 * pr + 1]; const T e = MAKE(cs[4 * pr + 2], cs[4 * pr + 3]);",
      "const R c = cs[4 * pr], s = cs[4 * pr + 1]; const T e = CONJ(MAKE(cs[4 * pr + 2], cs[4 * pr + 3]));",
    ]
    : [
      "const R c = cs[4 * pr], s = cs[4 * pr + 1]; const T e = FROMREAL(1);",
      "const R c = cs[4 * pr + 2], s = cs[4 * pr + 3]; const T e = FROMREAL(1);",
    ];
  // Ascending for eigenvalues, descending for singular values; ties by index, NaN last.
  const before = eigh ? "d[i] < d[j]" : "d[i] > d[j]";
  const finish = eigh
    ? `for (int x = tid; x < n * n; x += nt) {
      const int i = x % n, j = x / n;
      AT(i, (int)rk[j]) = VW(i, j);
    }`
    : `for (int x = tid; x < n * n; x += nt) {
      const int i = x % n, j = x / n, to = (int)rk[j];
      U[i + (IDX)to * n] = AT(j, j) < 0 ? -UW(i, j) : UW(i, j);
      V[i + (IDX)to * n] = VW(i, j);
    }`;
  const body = `  ${localArray(dialect, R, "red")}
  ${localArray(dialect, "int32", "flag", 1)}
  A += oA + g * sA;
  W += oW + g * sW;
  S += oS + g * sS;
${eigh ? "" : "  U += oU + g * sU;\n  V += oV + g * sV;"}
#define EPS ${targetOf(dialect).literal(eps, R)}
#define AT(i, j) A[(i) + (IDX)(j) * lda]
#define UW(i, j) S[(i) + (IDX)(j) * n]
#define VW(i, j) S[(IDX)n * n + (i) + (IDX)(j) * n]
  const int P = (n + 1) / 2, N = 2 * P;
  GLOBAL R *cs = (GLOBAL R *)(S + 2 * (IDX)n * n);
  GLOBAL R *d = cs + 4 * P;
  GLOBAL R *rk = d + n;
  ${symmetrize}
  R big = 0;
  for (int x = tid; x < n * n; x += nt) {
    const int i = x % n, j = x / n;
    const R v = ABS(AT(i, j));
    if (big == big && (v != v || big < v)) big = v;
    if (vectors) { UW(i, j) = FROMREAL(i == j ? 1 : 0); VW(i, j) = FROMREAL(i == j ? 1 : 0); }
  }
  ${reduceInto("big", true)}
  const R tiny = red[0] * EPS * EPS;
  int info = (red[0] - red[0]) != (R)0;
  int sweep = 0;
  for (; sweep < ${MAX_SWEEPS} && !info; sweep++) {
    SYNC
    if (tid == 0) flag[0] = 0;
    SYNC
    for (int r = 0; r < N - 1; r++) {
      for (int pr = tid; pr < P; pr += nt) {
        PAIR
        R cl = 1, sl = 0, cr = 1, sr = 0;
        if (q < n) {
          ${eigh ? SYMMETRIC : GENERAL}
        }
        cs[4 * pr] = cl; cs[4 * pr + 1] = sl; cs[4 * pr + 2] = cr; cs[4 * pr + 3] = sr;
      }
      SYNC
      for (int x = tid; x < P * n; x += nt) {
        const int pr = x / n, j = x % n;
        ${rows}
        if (c != 1 || s != 0) {
          PAIR
          const T a = AT(p, j), b = MUL(e, AT(q, j));
          AT(p, j) = SUB(RMUL(c, a), RMUL(s, b)); AT(q, j) = ADD(RMUL(s, a), RMUL(c, b));
        }
      }
      SYNC
      for (int x = tid; x < P * n; x += nt) {
        const int pr = x / n, i = x % n;
        ${columns}
        if (c != 1 || s != 0) {
          PAIR
          const T a = AT(i, p), b = MUL(e, AT(i, q));
          AT(i, p) = SUB(RMUL(c, a), RMUL(s, b)); AT(i, q) = ADD(RMUL(s, a), RMUL(c, b));
          if (vectors) {
            const T va = VW(i, p), vb = MUL(e, VW(i, q));
            VW(i, p) = SUB(RMUL(c, va), RMUL(s, vb)); VW(i, q) = ADD(RMUL(s, va), RMUL(c, vb));
          }
        }
${
    eigh ? "" : `        const T cu = cs[4 * pr], su = cs[4 * pr + 1];
        if (vectors && (cu != 1 || su != 0)) {
          PAIR
          const T ua = UW(i, p), ub = UW(i, q);
          UW(i, p) = cu * ua - su * ub; UW(i, q) = su * ua + cu * ub;
        }`
  }
      }
      SYNC
      for (int pr = tid; pr < P; pr += nt) {
        if (cs[4 * pr] != 1 || cs[4 * pr + 1] != 0 || cs[4 * pr + 2] != 1 || cs[4 * pr + 3] != 0) {
          PAIR
          AT(p, q) = FROMREAL(0); AT(q, p) = FROMREAL(0);
        }
      }
    }
    SYNC
    const int done = flag[0] == 0;
    SYNC
    if (done) break;
  }
  if (sweep == ${MAX_SWEEPS}) info = 1;
  for (int j = tid; j < n; j += nt) d[j] = ${eigh ? "RE(AT(j, j))" : "FABS(AT(j, j))"};
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
  const pair = `int p, q;
        {
          const int a_ = pr == 0 ? 0 : 1 + (r + pr - 1) % (N - 1), b_ = 1 + (r + N - 2 - pr) % (N - 1);
          p = a_ < b_ ? a_ : b_; q = a_ < b_ ? b_ : a_;
        }`;
  return linalgKernel(
    dialect,
    dtype,
    `cudeno_jacobi_${mode}_${dtype}`,
    params,
    body.replaceAll("PAIR\n", `${pair}\n`),
  );
}
