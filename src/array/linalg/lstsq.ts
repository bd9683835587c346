/**
 * `lstsq` (NumPy's `numpy.linalg.lstsq`): the least-squares solution of `a·x = b` from the SVD of `a`,
 * singular values below `rcond` times the largest taken as zero (LAPACK's `gelsd` gives the same
 * minimum-norm solution).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { ResultType } from "../core/dtypes.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { optionsOf } from "../core/axis_args.ts";
import { astype, fill } from "../ops/assign.ts";
import { max, sum } from "../api/reductions.ts";
import { matmul } from "../ops/matmul.ts";
import { expandDims, reshape } from "../ops/views.ts";
import { realOf } from "../core/dtypes.ts";
import { abs, gt, mul, sub } from "../api/elementwise.ts";
import { EPSILON } from "./kernel_text.ts";
import { arrayLike } from "./lapack.ts";
import { adjoint, checkArray, commonLuType, type LinalgDType, type LuDType } from "./operands.ts";
import { reciprocals } from "./rank.ts";
import { named } from "./results.ts";
import type { LinalgType, LuType } from "./solve.ts";
import { decompose } from "./svd.ts";

/**
 * Options of {@link lstsq}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.LstsqOptions = { rcond: 1e-10 };
 * ```
 */
export interface LstsqOptions {
  /** Singular values up to `rcond` times the largest count as zero (default, or null: `max(m, n)·eps` of the dtype, NumPy 2's). */
  readonly rcond?: number | null;
}

/**
 * The least-squares solution, the sums of squared residuals, the rank of `a` and its singular values
 * (NumPy's four results, in order): unpack it as `const [x, residuals, rank, s] = ga.linalg.lstsq(a,
 * b)`, or read them by name.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { x, rank }: ga.linalg.LstsqResult<"float32"> = ga.linalg.lstsq(ga.ones([3, 2]), ga.ones([3]));
 * ```
 */
export type LstsqResult<D extends DType> =
  & readonly [
    x: GPUArray<LuType<D>>,
    residuals: GPUArray<LinalgType<D>>,
    rank: number,
    s: GPUArray<LinalgType<D>>,
  ]
  & {
    /** The solution: `[n]` for a vector `b`, else `[n, k]`. */
    readonly x: GPUArray<LuType<D>>;
    /** `‖b - a·x‖²` per column of `b` (`[1]` for a vector), where `a` has full column rank and more rows than columns; else `[0]`. */
    readonly residuals: GPUArray<LinalgType<D>>;
    /** The rank of `a`. */
    readonly rank: number;
    /** The singular values of `a`, descending. */
    readonly s: GPUArray<LinalgType<D>>;
  };

/**
 * The least-squares solution of `a·x = b` (NumPy's `lstsq`): the `x` of least norm among those that
 * minimise `‖b - a·x‖`, for an m × n matrix `a` and `b` of shape `[m]` or `[m, k]`. `rcond` (by
 * position, or in the options) sets which singular values count as zero. It reads the rank back to the
 * host. float32 for float32 operands, else float64.
 *
 * @throws {LinAlgError} where the SVD did not converge.
 * @throws {RangeError} for `a` not 2-D, or `b` whose first axis is not `a`'s rows.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.asarray([[0, 1], [1, 1], [2, 1], [3, 1]]), y = ga.asarray([-1, 0.2, 0.9, 2.1]);
 * const [x, residuals, rank, s] = ga.linalg.lstsq(a, y); // x: slope 1, intercept -0.95
 * ```
 */
export function lstsq<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
  rcond?: number | null | LstsqOptions,
): LstsqResult<ResultType<A, B>>;
export function lstsq(a: GPUArray, b: GPUArray, ...args: unknown[]): unknown {
  checkArray(a, "lstsq");
  checkArray(b, "lstsq");
  const options = optionsOf<LstsqOptions>(
    "lstsq",
    args,
    [{ name: "rcond", takes: (v) => v === null || typeof v === "number", what: "rcond (a number or null)" }],
    ["rcond"],
    "{ rcond: 1e-10 }",
  );
  if (a.ndim !== 2 || (b.ndim !== 1 && b.ndim !== 2) || b.shape[0] !== a.shape[0]) {
    throw new RangeError(
      `Cannot lstsq a of shape ${showShape(a.shape)} with b of shape ${
        showShape(b.shape)
      }: a must be a matrix (m × n) and b of shape [m] or [m, k], with m = ${a.shape[0] ?? "a's rows"}`,
    );
  }
  const dtype = commonLuType(a, b, "lstsq"), real = realOf(dtype) as LinalgDType;
  const [m, n] = a.shape as [number, number];
  const rc = options.rcond ?? Math.max(m, n) * EPSILON[real];
  if (typeof rc !== "number" || Number.isNaN(rc)) {
    throw new TypeError(`Cannot lstsq with rcond ${String(rc)}: give a number, or null for the default`);
  }
  a.backend.checkHostRead("lstsq()", "the rank of a");
  using column = b.ndim === 1 ? expandDims(b, -1) : undefined;
  using rhs = astype(column ?? b, dtype);
  const k = rhs.shape[1]!;
  const { u, s, vh } = decompose(a, true, false, true, "lstsq");
  using _u = u!, _vh = vh!;
  let x: GPUArray<LuDType>, rank = 0;
  if (Math.min(m, n) === 0) {
    x = fill(arrayLike(a, [n, k], dtype), 0);
  } else {
    using inverse = reciprocals(s, s, rc);
    using scale = expandDims(inverse, -1);
    using ut = adjoint(u!);
    using projected = matmul(ut, rhs);
    using scaled = mul(projected, scale);
    using v = adjoint(vh!);
    x = matmul(v, scaled) as GPUArray<LuDType>;
    using largest = max(s, -1, { keepdims: true });
    using cutoff = mul(largest, rc);
    using above = gt(s, cutoff);
    rank = Number(sum(above));
  }
  let residuals: GPUArray<LinalgDType>;
  if (rank === n && m > n) {
    using cast = astype(a, dtype);
    using fitted = matmul(cast, x);
    using r = sub(rhs, fitted);
    using magnitudes = abs(r);
    using squares = mul(magnitudes, magnitudes);
    residuals = sum(squares, 0) as GPUArray<LinalgDType>;
  } else {
    residuals = arrayLike(a, [0], real);
  }
  if (b.ndim === 1) {
    using view = reshape(x, [n]);
    const flat = view.copy();
    x.free();
    x = flat;
  }
  return named([x, residuals, rank, s] as const, { x, residuals, rank, s });
}
