/**
 * `cholesky` (NumPy's `numpy.linalg.cholesky`, with NumPy 2's `upper`). The matrix goes to LAPACK
 * column-major, as it is, and LAPACK is told the triangle NumPy reads: cuSOLVER's `potrf` of the lower
 * triangle runs 2.6× faster than of the upper one at order 4096 on an H100 (13.5 against 5.1 TFLOP/s),
 * so CuPy's trick (a row-major copy, read as its transpose, factored in the other triangle) would cost
 * more than the two transposing copies.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { expandDims, swapaxes } from "../ops/views.ts";
import { where } from "../ops/ufunc.ts";
import { ne } from "../api/elementwise.ts";
import { tril, triu } from "../routines/matrices.ts";
import { checkInfo } from "./errors.ts";
import { choleskyFactor } from "./lapack.ts";
import {
  adjoint,
  checkArray,
  checking,
  type CheckOptions,
  columnMajorCopy,
  flag,
  luType,
  matrixShape,
} from "./operands.ts";
import { type LuType, solve } from "./solve.ts";
import { matmul } from "../ops/matmul.ts";
import { differentiated, tracked, type Vjp } from "../grad/tape.ts";

/**
 * Options of {@link cholesky}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.CholeskyOptions = { upper: true, check: false };
 * ```
 */
export interface CholeskyOptions extends CheckOptions {
  /** Return the upper factor `U` with `a = Uᴴ·U`, reading `a`'s upper triangle (default false: the lower factor `L` with `a = L·Lᴴ`, from the lower triangle). */
  readonly upper?: boolean;
}

/**
 * The Cholesky factor of a symmetric (Hermitian) positive-definite matrix, or of each of a batch
 * (NumPy's `cholesky`): lower triangular `L` with `a = L·Lᴴ`, read from `a`'s lower triangle (the
 * other is not read), or with `{ upper: true }` the upper `U` with `a = Uᴴ·U` from the upper triangle
 * (ᴴ is ᵀ for real matrices). float32 for float32, complex64 and complex128 as they are, else float64.
 *
 * @throws {LinAlgError} where a matrix is not positive definite, naming the first in a batch and the
 * order of its leading minor that is not; with `{ check: false }` nothing is read back and such a
 * matrix's factor is all NaN.
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const l = ga.linalg.cholesky(ga.asarray([[4, 2], [2, 3]])); // [[2, 0], [1, 1.414...]]
 * const u = ga.linalg.cholesky(ga.asarray([[4, 2], [2, 3]]), { upper: true }); // l's transpose
 * ```
 */
export function cholesky<D extends DType>(a: GPUArray<D>, options?: CholeskyOptions): GPUArray<LuType<D>>;
export function cholesky(a: GPUArray, ...args: unknown[]): GPUArray {
  checkArray(a, "cholesky");
  const options = optionsOf<CholeskyOptions>("cholesky", args, [], ["upper", "check"], "{ upper: true }");
  const upper = flag(options.upper, "upper"), check = checking(options);
  if (tracked(a)) {
    const again = () => cholesky(a, options);
    return differentiated("cholesky", [a], again, (factor) => [[factor, choleskyVjp(factor, upper)]]);
  }
  matrixShape(a, "cholesky", true);
  const dtype = luType(a, a.dtype, "cholesky");
  if (check) {
    a.backend.checkHostRead(
      "cholesky()",
      "whether every matrix is positive definite (pass { check: false } to skip it)",
    );
  }
  using w = columnMajorCopy(a, dtype);
  using info = choleskyFactor(w, upper);
  using t = swapaxes(w, -1, -2);
  const factor = upper ? triu(t) : tril(t);
  if (check) {
    try {
      checkInfo(info, {
        what: "cholesky",
        problem: "is not positive definite",
        detail: (k) => `its leading minor of order ${k} is not`,
        instead: "NaN for such a matrix",
      });
    } catch (e) {
      factor.free();
      throw e;
    }
    return factor;
  }
  using failed = ne(info, 0);
  using f1 = expandDims(failed, -1);
  using f2 = expandDims(f1, -1);
  try {
    return where(f2, Number.NaN, factor);
  } finally {
    factor.free();
  }
}

/**
 * The rule of the Cholesky factor (Murray 2016, as PyTorch's): with `P = Φ(Lᴴ·L̄)` (the lower triangle,
 * made Hermitian with its diagonal halved), `ā = L⁻ᴴ·P·L⁻¹`.
 */
function choleskyVjp(factor: GPUArray, upper: boolean): Vjp {
  return (g) => {
    const l = upper ? adjoint(factor) : factor, gl = upper ? adjoint(g) : g;
    const lower = tril(matmul(adjoint(l), gl));
    const p = lower.add(adjoint(tril(lower, -1))).mul(0.5);
    const left = solve(adjoint(l), p, { check: false });
    return [adjoint(solve(adjoint(l), adjoint(left), { check: false }))];
  };
}
