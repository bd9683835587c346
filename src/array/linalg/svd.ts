/**
 * `svd` and `svdvals` (NumPy's `numpy.linalg.svd` and `svdvals`). The decomposition runs on a tall
 * matrix T (A, or Aᵀ where A is wide, swapping U and V after; for a complex A, Aᵀ's U is the conjugate
 * of A's V, which the swap's transposes make right): where the backend has cuSOLVER (but for a batch
 * of small matrices), on its polar decomposition `gesvdp` in double precision, or `gesvd` where that
 * needed a perturbation to converge; else on the array module's kernels, as the one-sided Jacobi SVD
 * `T·V = W` (orthogonal columns, the singular values their norms) and U from the Householder QR
 * `W = Q·R`: Q's columns, each times the phase of R's diagonal entry (the rest of Q is the other
 * columns of the full U, and stands in for the columns of zero singular values).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { Solver } from "../../device/solver.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { realOf } from "../core/dtypes.ts";
import { assign, astype, fill } from "../ops/assign.ts";
import { diagonal, expandDims, slice } from "../ops/views.ts";
import { where } from "../ops/ufunc.ts";
import { abs, complex, conj, divide, eq, multiply } from "../api/elementwise.ts";
import { imag } from "../ops/complex_parts.ts";
import { matmul } from "../ops/matmul.ts";
import { differentiated, tracked, type Vjp } from "../grad/tape.ts";
import { checkInfo } from "./errors.ts";
import { diagEmbed, eyeLike, undefinedGradient } from "./gradient.ts";
import { arrayLike, infoOf, matricesOf, qrFactor, qrForm, vectorsOf, vendorSolver } from "./lapack.ts";
import {
  adjoint,
  checkArray,
  checking,
  type CheckOptions,
  columnMajorCopy,
  countOf,
  flag,
  type LinalgDType,
  type LuDType,
  luType,
  matrixShape,
  rowMajorCopy,
} from "./operands.ts";
import { jacobiSvd } from "./own_kernels.ts";
import { named } from "./results.ts";
import { identities, type LinalgType, type LuType, rowMajor } from "./solve.ts";

/**
 * Options of {@link svd}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.SvdOptions = { fullMatrices: false };
 * ```
 */
export interface SvdOptions extends CheckOptions {
  /** U m × m and Vh n × n (default true); false: U m × k and Vh k × n, k = min(m, n). */
  readonly fullMatrices?: boolean;
  /** Compute U and Vh (default true); false: the singular values alone (as {@link svdvals}). */
  readonly computeUv?: boolean;
}

/**
 * U, S and Vh with `a = U·diag(S)·Vh` (NumPy's `SVDResult`): unpack it as
 * `const [u, s, vh] = ga.linalg.svd(a)`, or read `.U`, `.S`, `.Vh`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { U, S, Vh }: ga.linalg.SvdResult<"float32"> = ga.linalg.svd(ga.ones([3, 2]));
 * ```
 */
export type SvdResult<D extends DType> =
  & readonly [U: GPUArray<LuType<D>>, S: GPUArray<LinalgType<D>>, Vh: GPUArray<LuType<D>>]
  & {
    /** The left singular vectors, as columns. */
    readonly U: GPUArray<LuType<D>>;
    /** The singular values, descending, non-negative, real. */
    readonly S: GPUArray<LinalgType<D>>;
    /** The right singular vectors, as rows. */
    readonly Vh: GPUArray<LuType<D>>;
  };

/** What {@link decompose} returns: the singular values, and U and Vh where asked for. */
interface Decomposed {
  readonly s: GPUArray<LinalgDType>;
  readonly u?: GPUArray<LuDType>;
  readonly vh?: GPUArray<LuDType>;
}

/** The failure of an SVD's `info`. */
const NOT_CONVERGED = (what: string) => ({
  what,
  problem: "did not converge",
  detail: () => "its SVD's iterations did not end; it may hold NaN or infinity",
  instead: "whatever the iterations left",
});

/**
 * The SVD of each matrix of `a`: `s` always, `u` and `vh` where `vectors` (full where `full`).
 * `what` names the call for errors.
 */
export function decompose(
  a: GPUArray,
  vectors: boolean,
  full: boolean,
  check: boolean,
  what: string,
): Decomposed {
  const { batch, m, n } = matrixShape(a, what, false);
  if (tracked(a)) return differentiatedSvd(a, vectors, full, check, what);
  const dtype = luType(a, a.dtype, what);
  // T is A, or Aᵀ for a wide A: tall, M × N. Its column-major copy is A's transpose row-major, or A itself.
  const swap = m < n, M = Math.max(m, n), N = Math.min(m, n);
  if (N === 0) return empty(a, batch, m, n, dtype, vectors, full);
  if (check) {
    a.backend.checkHostRead(`${what}()`, "whether every SVD converged (pass { check: false } to skip it)");
  }
  const count = countOf(batch);
  const solver = vendorSolver(a.backend, dtype, count, M);
  const fast = solver?.gesvdp && polar(solver.gesvdp, a, batch, swap, M, N, dtype, vectors, full);
  if (fast !== undefined) return oriented(fast, swap);
  using w = swap ? rowMajorCopy(a, dtype) : columnMajorCopy(a, dtype);
  const s = arrayLike(w, [...batch, N], realOf(dtype) as LinalgDType);
  using info = fill(arrayLike(w, batch, "int32"), 0);
  // G is T's U transposed (rows: T's left singular vectors), H is T's Vh: A = Gᵀ·S·H, or Hᵀ·S·G swapped.
  let g: GPUArray<LuDType> | undefined, h: GPUArray<LuDType> | undefined;
  if (solver !== undefined) {
    const u = vectors ? arrayLike(w, [...batch, full ? M : N, M], dtype) : undefined;
    using vt = vectors ? arrayLike(w, [...batch, N, N], dtype) : undefined;
    solver.gesvd({
      dtype,
      count,
      m: M,
      n: N,
      a: matricesOf(w),
      s: vectorsOf(s),
      ...(u === undefined || vt === undefined ? {} : { u: matricesOf(u), vt: matricesOf(vt) }),
      full,
      info: infoOf(info),
    });
    g = u;
    h = vt === undefined ? undefined : rowMajor(vt);
  } else {
    // W = T·V (column-major M × N) and V (column-major: H's conjugate).
    const av = vectors ? arrayLike(w, [...batch, N, M], dtype) : undefined;
    const v = vectors ? arrayLike(w, [...batch, N, N], dtype) : undefined;
    jacobiSvd(a.backend, {
      dtype,
      count,
      m: M,
      n: N,
      a: matricesOf(w),
      s: vectorsOf(s),
      av: matricesOf(av ?? w),
      v: matricesOf(v ?? w),
      vectors,
      info: infoOf(info),
    });
    if (av !== undefined && v !== undefined) {
      g = leftVectors(av, full);
      if (realOf(dtype) === dtype) h = v;
      else {
        h = conj(v) as GPUArray<LuDType>;
        v.free();
      }
    }
  }
  try {
    if (check) checkInfo(info, NOT_CONVERGED(what));
  } catch (e) {
    for (const x of [s, g, h]) x?.free();
    throw e;
  }
  return oriented({ s, g, h }, swap);
}

/** `f(x)`, freeing `x` where that is a new array. */
function taken<D extends DType, E extends DType>(
  x: GPUArray<D>,
  f: (x: GPUArray<D>) => GPUArray<E>,
): GPUArray<E> {
  const y = f(x);
  if (y !== (x as GPUArray) as GPUArray<E>) x.free();
  return y;
}

/** The SVD of T as G (T's U transposed: its rows are T's left singular vectors) and H (T's Vh). */
interface TallSvd {
  readonly s: GPUArray<LinalgDType>;
  readonly g?: GPUArray<LuDType>;
  readonly h?: GPUArray<LuDType>;
}

/** A's SVD from T's (taken): U = Gᵀ and Vh = H, or swapped (T = Aᵀ) U = Hᵀ and Vh = G. */
function oriented({ s, g, h }: TallSvd, swap: boolean): Decomposed {
  if (g === undefined || h === undefined) return { s };
  const [transposed, kept] = swap ? [h, g] : [g, h];
  const u = rowMajor(transposed);
  transposed.free();
  return { s, u, vh: kept };
}

/**
 * T's SVD by cuSOLVER's polar decomposition (`Xgesvdp`: QDWH, then an eigendecomposition), 4× to 6×
 * faster than `gesvd` at order 2048 on an H100, and in double precision whatever `dtype` (its single
 * precision iteration lost a random 2048 × 2048 matrix's decomposition entirely; in double it kept
 * `gesvd`'s accuracy), cast back. Undefined, for `gesvd` to run instead, where any matrix needed the
 * perturbation QDWH adds to converge on an ill-conditioned or rank-deficient matrix (its error
 * estimate not 0): that costs accuracy `gesvd` keeps (a relative 1e-10 on a rank-deficient one).
 */
function polar(
  gesvdp: NonNullable<Solver["gesvdp"]>,
  a: GPUArray,
  batch: readonly number[],
  swap: boolean,
  M: number,
  N: number,
  dtype: LuDType,
  vectors: boolean,
  full: boolean,
): TallSvd | undefined {
  const wide: LuDType = dtype === "float32" ? "float64" : dtype === "complex64" ? "complex128" : dtype;
  // U and V are computed for the singular values alone too: Xgesvdp failed without them.
  const whole = vectors && full;
  using w = swap ? rowMajorCopy(a, wide) : columnMajorCopy(a, wide);
  using info = arrayLike(w, batch, "int32");
  const s = arrayLike(w, [...batch, N], realOf(wide) as LinalgDType);
  const u = arrayLike(w, [...batch, whole ? M : N, M], wide);
  const v = arrayLike(w, [...batch, N, N], wide);
  let exact = false;
  try {
    const errors = gesvdp({
      dtype: wide,
      count: countOf(batch),
      m: M,
      n: N,
      a: matricesOf(w),
      s: vectorsOf(s),
      u: matricesOf(u),
      v: matricesOf(v),
      full: whole,
      info: infoOf(info),
    });
    exact = errors.every((e) => e === 0);
  } finally {
    if (!exact || !vectors) {
      u.free();
      v.free();
    }
    if (!exact) s.free();
  }
  if (!exact) return undefined;
  const values = taken(s, (x) => astype(x, realOf(dtype) as LinalgDType));
  if (!vectors) return { s: values };
  // V column-major is Vᵀ row-major: H = Vᴴ is its conjugate.
  const h = realOf(dtype) === dtype ? v : taken(v, conj);
  return { s: values, g: taken(u, (x) => astype(x, dtype)), h: taken(h, (x) => astype(x, dtype)) };
}

/**
 * G, the rows of T's left singular vectors (U column-major), from W = T·V (`av`, `[..., N, M]`,
 * column-major; taken: returned or freed): W's Householder QR `W = Q·R`, Q's first N columns each
 * times the phase of R's diagonal entry (1 where it is 0), and where `full` the rest of Q after.
 */
function leftVectors(av: GPUArray<LuDType>, full: boolean): GPUArray<LuDType> {
  const N = av.shape[av.ndim - 2]!, M = av.shape[av.ndim - 1]!;
  using tau = qrFactor(av);
  using rjj = diagonal(av, 0, -2, -1);
  using mag = abs(rjj);
  using zero = eq(mag, 0);
  using unit = divide(rjj, mag);
  using phase = where(zero, 1, unit);
  using column = expandDims(phase, -1);
  // Q is formed in place of the reflectors, or in an M × M copy of them.
  const q = full ? arrayLike(av, [...av.shape.slice(0, -2), M, M], av.dtype) : av;
  using first = slice(q, "...", [0, N], []);
  if (full) {
    assign(first, av);
    av.free();
  }
  qrForm(q, N, tau);
  multiply(first, column, { out: first });
  return q;
}

/**
 * The SVD of a tracked `a`, each result reported with its rule. U and Vh of the full form of a
 * matrix that is not square have columns no gradient determines: a gradient reaching them is an
 * error (as in PyTorch).
 */
function differentiatedSvd(
  a: GPUArray,
  vectors: boolean,
  full: boolean,
  check: boolean,
  what: string,
): Decomposed {
  const [m, n] = a.shape.slice(-2) as [number, number];
  const k = Math.min(m, n), whole = vectors && full && m !== n;
  const result = differentiated(what, [a], () => decompose(a, true, whole, check, what), ({ s, u, vh }) => {
    const uk = whole ? slice(u!, "...", [], [0, k]) : u!, vhk = whole ? slice(vh!, "...", [0, k], []) : vh!;
    const parts = (part: 0 | 1 | 2, g: GPUArray) =>
      [part === 0 ? g : undefined, part === 1 ? g : undefined, part === 2 ? g : undefined] as const;
    const rule = (part: 0 | 1 | 2): Vjp =>
      whole && part !== 1
        ? undefinedGradient(
          `Cannot differentiate U or Vh of ${what}(a, { fullMatrices: true }) for a matrix that is not square: their last columns are not determined by a; pass fullMatrices: false`,
        )
        : (g) => [svdBackward(uk, s, vhk, m, n, ...parts(part, g))];
    return vectors ? [[u!, rule(0)], [s, rule(1)], [vh!, rule(2)]] : [[s, rule(1)]];
  });
  return vectors ? result : { s: result.s };
}

/**
 * The gradient of `a = U·diag(S)·Vh` (reduced) from those of U, S and Vh, PyTorch's `svd_backward`:
 * with `E_jk = S_k² - S_j²`, the core `(skew(Uᴴ·Ū)·S + S·skew(Vᴴ·V̄)) / E + diag(S̄)` between U and Vh,
 * plus the parts of Ū and V̄ outside U's and V's columns. For complex matrices the core's diagonal is
 * the phase term `±i·Im((Uᴴ·Ū)_ii or (Vᴴ·V̄)_ii) / (2·S_i)`, right for losses that do not see the
 * vectors' phases (derived, and checked by finite differences). Equal singular values give inf or NaN,
 * as in PyTorch.
 */
function svdBackward(
  u: GPUArray,
  s: GPUArray,
  vh: GPUArray,
  m: number,
  n: number,
  gu: GPUArray | undefined,
  gs: GPUArray | undefined,
  gvh: GPUArray | undefined,
): GPUArray {
  const k = Math.min(m, n), v = adjoint(vh), gv = gvh && adjoint(gvh);
  const row = expandDims(s, -2), column = expandDims(s, -1);
  const skew = (x: GPUArray) => x.sub(adjoint(x));
  let core: GPUArray;
  if (gs !== undefined) {
    core = diagEmbed(gs);
  } else {
    const gaps = row.mul(row).sub(column.mul(column)).add(eyeLike(s, k));
    const j = gu !== undefined ? matmul(adjoint(u), gu) : matmul(adjoint(v), gv!);
    core = (gu !== undefined ? skew(j).mul(row) : column.mul(skew(j))).div(gaps);
    if (realOf(j.dtype) !== j.dtype) {
      // Complex: the diagonal is the phase term, ±i·Im(j_ii)/(2·S_i) for U and V (the skew part's
      // diagonal, 2i·Im(j_ii)·S_i, is not it).
      const phase = complex(0, imag(diagonal(j, 0, -2, -1)).div(s.mul(gu !== undefined ? 2 : -2)));
      core = core.sub(diagEmbed(diagonal(core, 0, -2, -1))).add(diagEmbed(phase));
    }
  }
  if (m > k && gu !== undefined) {
    const scaled = gu.div(row);
    return matmul(matmul(u, core).add(scaled).sub(matmul(u, matmul(adjoint(u), scaled))), vh);
  }
  if (n > k && gv !== undefined) {
    const scaled = adjoint(gv.div(row));
    return matmul(u, matmul(core, vh).add(scaled).sub(matmul(matmul(scaled, v), vh)));
  }
  return matmul(matmul(u, core), vh);
}

/** The SVD of empty matrices: no singular values, identities (or nothing) for U and Vh. */
function empty(
  a: GPUArray,
  batch: readonly number[],
  m: number,
  n: number,
  dtype: LuDType,
  vectors: boolean,
  full: boolean,
): Decomposed {
  const s = arrayLike(a, [...batch, 0], realOf(dtype) as LinalgDType);
  if (!vectors) return { s };
  const u = full ? identities(a, batch, m, dtype) : arrayLike(a, [...batch, m, 0], dtype);
  const vh = full ? identities(a, batch, n, dtype) : arrayLike(a, [...batch, 0, n], dtype);
  return { s, u, vh };
}

/**
 * The singular value decomposition `a = U·diag(S)·Vh` of a matrix, or of each of a batch (NumPy's
 * `svd`): S descending and non-negative, U and Vh with orthonormal columns and rows (m × m and n × n,
 * or with `fullMatrices: false` m × k and k × n, k = min(m, n)). `fullMatrices` and `computeUv` are
 * given by NumPy's positions (`svd(a, false)`) or as options; with `computeUv: false` the result is S
 * alone. S is real (float32 for float32 and complex64, else float64), U and Vh complex for complex
 * matrices (`a = U·diag(S)·Vh`, Vh the conjugate transpose of V). Singular vectors of equal singular values are any basis of
 * their space, as LAPACK's.
 *
 * @throws {LinAlgError} where the iterations did not converge (NaN or infinity in a matrix), naming the
 * first in a batch; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.random.normal([6, 4], { seed: 1 });
 * const [u, s, vh] = ga.linalg.svd(a, false); // [6, 4], [4], [4, 4]
 * const full = ga.linalg.svd(a); // full.U: [6, 6], full.Vh: [4, 4]
 * const values = ga.linalg.svd(a, { computeUv: false }); // [4]
 * ```
 */
export function svd<D extends DType>(
  a: GPUArray<D>,
  fullMatrices?: boolean | SvdOptions & { readonly computeUv?: true },
  computeUv?: true | Omit<SvdOptions, "fullMatrices" | "computeUv">,
  options?: Omit<SvdOptions, "fullMatrices" | "computeUv">,
): SvdResult<D>;
/** With `computeUv` false: the singular values alone. */
export function svd<D extends DType>(
  a: GPUArray<D>,
  fullMatrices: boolean | undefined | SvdOptions & { readonly computeUv: false },
  computeUv?: false | Omit<SvdOptions, "fullMatrices" | "computeUv">,
  options?: Omit<SvdOptions, "fullMatrices" | "computeUv">,
): GPUArray<LinalgType<D>>;
export function svd(a: GPUArray, ...args: unknown[]): unknown {
  checkArray(a, "svd");
  const isBool = (v: unknown) => typeof v === "boolean";
  const options = optionsOf<SvdOptions>(
    "svd",
    args,
    [
      { name: "fullMatrices", takes: isBool, what: "fullMatrices (a boolean)" },
      { name: "computeUv", takes: isBool, what: "computeUv (a boolean)" },
    ],
    ["fullMatrices", "computeUv", "check"],
    "{ fullMatrices: false }",
  );
  const full = options.fullMatrices === undefined || flag(options.fullMatrices, "fullMatrices");
  const vectors = options.computeUv === undefined || flag(options.computeUv, "computeUv");
  const { s, u, vh } = decompose(a, vectors, full, checking(options), "svd");
  if (u === undefined || vh === undefined) return s;
  return named([u, s, vh] as const, { U: u, S: s, Vh: vh });
}

/**
 * The singular values of a matrix, or of each of a batch, descending (NumPy 2's `svdvals`, as
 * `svd(a, { computeUv: false })`).
 *
 * @throws {LinAlgError} where the iterations did not converge; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.svdvals(ga.asarray([[3, 0], [0, -4]])).get()); // Float32Array [4, 3]
 * ```
 */
export function svdvals<D extends DType>(a: GPUArray<D>, options?: CheckOptions): GPUArray<LinalgType<D>> {
  checkArray(a, "svdvals");
  const o = optionsOf<CheckOptions>("svdvals", [options], [], ["check"], "{ check: false }");
  return decompose(a, false, false, checking(o), "svdvals").s as GPUArray<LinalgType<D>>;
}
