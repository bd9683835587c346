/**
 * `svd` and `svdvals` (NumPy's `numpy.linalg.svd` and `svdvals`). The decomposition runs on a tall
 * matrix T (A, or Aᵀ where A is wide, swapping U and V after): on cuSOLVER's `gesvd` where the backend
 * has it (but for a batch of small matrices); else on the array module's kernels, as Householder QR
 * `T = Q·R` and the two-sided Jacobi SVD of the square R, `U = Q·U_R` (with the rest of Q as the other
 * columns of the full U).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { assign, fill } from "../ops/assign.ts";
import { matmul } from "../ops/matmul.ts";
import { slice } from "../ops/views.ts";
import { concatenate } from "../routines/join.ts";
import { tril } from "../routines/matrices.ts";
import { checkInfo } from "./errors.ts";
import { arrayLike, infoOf, matricesOf, qrFactor, qrForm, vectorsOf, vendorSolver } from "./lapack.ts";
import {
  checking,
  type CheckOptions,
  checkReal,
  columnMajorCopy,
  countOf,
  flag,
  type LinalgDType,
  linalgType,
  matrixShape,
  rowMajorCopy,
} from "./operands.ts";
import { squareSvd } from "./own_kernels.ts";
import { named } from "./results.ts";
import { identities, type LinalgType, rowMajor } from "./solve.ts";

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
  & readonly [U: GPUArray<LinalgType<D>>, S: GPUArray<LinalgType<D>>, Vh: GPUArray<LinalgType<D>>]
  & {
    /** The left singular vectors, as columns. */
    readonly U: GPUArray<LinalgType<D>>;
    /** The singular values, descending, non-negative. */
    readonly S: GPUArray<LinalgType<D>>;
    /** The right singular vectors, as rows. */
    readonly Vh: GPUArray<LinalgType<D>>;
  };

/** What {@link decompose} returns: the singular values, and U and Vh where asked for. */
interface Decomposed {
  readonly s: GPUArray<LinalgDType>;
  readonly u?: GPUArray<LinalgDType>;
  readonly vh?: GPUArray<LinalgDType>;
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
  const dtype = linalgType(a, a.dtype, what);
  // T is A, or Aᵀ for a wide A: tall, M × N. Its column-major copy is A's transpose row-major, or A itself.
  const swap = m < n, M = Math.max(m, n), N = Math.min(m, n);
  if (N === 0) return empty(a, batch, m, n, dtype, vectors, full);
  if (check) {
    a.backend.checkHostRead(`${what}()`, "whether every SVD converged (pass { check: false } to skip it)");
  }
  using w = swap ? rowMajorCopy(a, dtype) : columnMajorCopy(a, dtype);
  const s = arrayLike(w, [...batch, N], dtype);
  using info = fill(arrayLike(w, batch, "int32"), 0);
  // G is T's U transposed (rows: T's left singular vectors), H is T's Vh: A = Gᵀ·S·H, or Hᵀ·S·G swapped.
  let g: GPUArray<LinalgDType> | undefined, h: GPUArray<LinalgDType> | undefined;
  const count = countOf(batch);
  const solver = vendorSolver(a.backend, dtype, count, M);
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
    using tau = qrFactor(w);
    using square = slice(w, "...", [], [0, N]);
    using r = tril(square);
    using uR = vectors ? arrayLike(w, [...batch, N, N], dtype) : undefined;
    const vR = vectors ? arrayLike(w, [...batch, N, N], dtype) : undefined;
    squareSvd(a.backend, {
      dtype,
      count,
      n: N,
      a: matricesOf(r),
      s: vectorsOf(s),
      u: matricesOf(uR ?? r),
      v: matricesOf(vR ?? r),
      vectors,
      info: infoOf(info),
    });
    if (uR !== undefined && vR !== undefined) {
      g = leftVectors(w, tau, uR, full && M > N);
      h = vR;
    }
  }
  try {
    if (check) checkInfo(info, NOT_CONVERGED(what));
  } catch (e) {
    for (const x of [s, g, h]) x?.free();
    throw e;
  }
  if (g === undefined || h === undefined) return { s };
  // Unswapped: U = Gᵀ, Vh = H; swapped: U = Hᵀ, Vh = G.
  const [transposed, kept] = swap ? [h, g] : [g, h];
  const u = rowMajor(transposed);
  transposed.free();
  return { s, u, vh: kept };
}

/**
 * `Gᵀ = Q·U_R` (the first N columns of Q times R's U), with the rest of Q's columns after where `full`:
 * as G, rows of T's left singular vectors. `w` holds the reflectors (`[..., N, M]`; overwritten), `uR`
 * R's U column-major.
 */
function leftVectors(
  w: GPUArray<LinalgDType>,
  tau: GPUArray<LinalgDType>,
  uR: GPUArray<LinalgDType>,
  full: boolean,
): GPUArray<LinalgDType> {
  const N = w.shape[w.ndim - 2]!, M = w.shape[w.ndim - 1]!;
  // Q is formed in place of the reflectors (w is not needed after), or in an M × M copy of them.
  using own = full ? arrayLike(w, [...w.shape.slice(0, -2), M, M], w.dtype) : undefined;
  const q = own ?? w;
  if (own !== undefined) {
    using first = slice(own, "...", [0, N], []);
    assign(first, w);
  }
  qrForm(q, N, tau);
  using q1 = slice(q, "...", [0, N], []);
  const g = matmul(uR, q1) as GPUArray<LinalgDType>;
  if (!full) return g;
  using q2 = slice(q, "...", [N, M], []);
  try {
    return concatenate([g, q2], -2) as GPUArray<LinalgDType>;
  } finally {
    g.free();
  }
}

/** The SVD of empty matrices: no singular values, identities (or nothing) for U and Vh. */
function empty(
  a: GPUArray,
  batch: readonly number[],
  m: number,
  n: number,
  dtype: LinalgDType,
  vectors: boolean,
  full: boolean,
): Decomposed {
  const s = arrayLike(a, [...batch, 0], dtype);
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
 * alone. float32 for float32, else float64. Singular vectors of equal singular values are any basis of
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
  checkReal(a, "svd");
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
  checkReal(a, "svdvals");
  const o = optionsOf<CheckOptions>("svdvals", [options], [], ["check"], "{ check: false }");
  return decompose(a, false, false, checking(o), "svdvals").s as GPUArray<LinalgType<D>>;
}
