/**
 * `eigh` and `eigvalsh` (NumPy's `numpy.linalg.eigh` and `eigvalsh`): the eigenvalues and eigenvectors
 * of symmetric and Hermitian matrices, on cuSOLVER's `syevd` (`heevd`) or the array module's Jacobi
 * kernel. The row-major copy read column-major is the transpose, so NumPy's lower triangle is LAPACK's
 * upper one; a Hermitian matrix's transpose is its conjugate, whose eigenvectors are the conjugates.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { realOf } from "../core/dtypes.ts";
import { matmul } from "../ops/matmul.ts";
import { expandDims } from "../ops/views.ts";
import { differentiated, tracked, type Vjp } from "../grad/tape.ts";
import { checkInfo } from "./errors.ts";
import { eyeLike } from "./gradient.ts";
import { eigFactor } from "./lapack.ts";
import {
  adjoint,
  checkArray,
  checking,
  type CheckOptions,
  type LinalgDType,
  type LuDType,
  luType,
  matrixShape,
  rowMajorCopy,
} from "./operands.ts";
import { named } from "./results.ts";
import { type LinalgType, type LuType, rowMajor } from "./solve.ts";

/**
 * Options of {@link eigh} and {@link eigvalsh}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.EighOptions = { UPLO: "U" };
 * ```
 */
export interface EighOptions extends CheckOptions {
  /** The triangle read (NumPy's `UPLO`): `"L"`, the lower (default), or `"U"`, the upper; the other is not read. */
  readonly UPLO?: "L" | "U";
}

/**
 * The eigenvalues, ascending, and the eigenvectors as the columns of a matrix (NumPy's `EighResult`):
 * unpack it as `const [w, v] = ga.linalg.eigh(a)`, or read `.eigenvalues` and `.eigenvectors`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { eigenvalues, eigenvectors }: ga.linalg.EighResult<"float32"> = ga.linalg.eigh(ga.eye(3));
 * ```
 */
export type EighResult<D extends DType> =
  & readonly [eigenvalues: GPUArray<LinalgType<D>>, eigenvectors: GPUArray<LuType<D>>]
  & {
    /** Ascending, real. */
    readonly eigenvalues: GPUArray<LinalgType<D>>;
    /** Column `j` belongs to eigenvalue `j`. */
    readonly eigenvectors: GPUArray<LuType<D>>;
  };

function eigen(
  a: GPUArray,
  args: readonly unknown[],
  vectors: boolean,
  what: string,
): { values: GPUArray<LinalgDType>; vectors?: GPUArray<LuDType> } {
  checkArray(a, what);
  const options = optionsOf<EighOptions>(
    what,
    args,
    [{ name: "UPLO", takes: (v) => typeof v === "string", what: 'UPLO ("L" or "U")' }],
    ["UPLO", "check"],
    '{ UPLO: "U" }',
  );
  const uplo = options.UPLO ?? "L";
  if (uplo !== "L" && uplo !== "U") {
    throw new RangeError(
      `Cannot ${what} with UPLO "${uplo}": give "L" (the lower triangle) or "U" (the upper)`,
    );
  }
  const check = checking(options);
  const { n } = matrixShape(a, what, true);
  if (tracked(a)) {
    const both = differentiated(what, [a], () => eigen(a, args, true, what), ({ values, vectors: v }) => [
      [values, (g) => [matmul(v!.mul(expandDims(g, -2)), adjoint(v!))]],
      ...(vectors ? [[v!, eigenvectorsVjp(values, v!, n)] as const] : []),
    ]);
    return vectors ? both : { values: both.values };
  }
  const dtype = luType(a, a.dtype, what);
  if (check) {
    a.backend.checkHostRead(
      `${what}()`,
      "whether every eigenproblem converged (pass { check: false } to skip it)",
    );
  }
  using w = rowMajorCopy(a, dtype);
  const { values, info } = eigFactor(w, vectors, uplo === "L");
  using _info = info;
  try {
    if (check) {
      checkInfo(info, {
        what,
        problem: "did not converge",
        detail: () => "its eigenvalue iterations did not end; it may hold NaN or infinity",
        instead: "whatever the iterations left",
      });
    }
  } catch (e) {
    values.free();
    throw e;
  }
  if (!vectors) return { values };
  // Complex: the conjugates of the vectors, row-major, in one pass.
  return { values, vectors: (realOf(dtype) === dtype ? rowMajor(w) : adjoint(w)) as GPUArray<LuDType> };
}

/**
 * The rule of a Hermitian (or symmetric) matrix's eigenvectors V (eigenvalues w): with `S` the
 * skew-Hermitian part of `Vᴴ·V̄`, `ā = V·(S / E)·Vᴴ`, `E_ij = w_j - w_i` (PyTorch's; equal eigenvalues
 * give inf or NaN, as there). A loss of complex eigenvectors must not depend on their phases (as
 * `|v|²` does not), as in PyTorch.
 */
function eigenvectorsVjp(w: GPUArray, v: GPUArray, n: number): Vjp {
  return (g) => {
    const x = matmul(adjoint(v), g);
    const skew = x.sub(adjoint(x)).mul(0.5);
    const gaps = expandDims(w, -2).sub(expandDims(w, -1)).add(eyeLike(w, n));
    return [matmul(matmul(v, skew.div(gaps)), adjoint(v))];
  };
}

/**
 * The eigenvalues (ascending, real) and eigenvectors (the columns of the second result, orthonormal)
 * of a real symmetric or complex Hermitian matrix, or of each of a batch (NumPy's `eigh`). Only the
 * lower triangle is read, or the upper one with `UPLO: "U"` (by position, `eigh(a, "U")`, or in the
 * options), and the imaginary parts of the diagonal are not. Eigenvalues are float32 for float32 and
 * complex64, else float64; eigenvectors complex64 or complex128 for complex matrices. Eigenvectors of
 * equal eigenvalues are any orthonormal basis of their space, and each vector's sign (or phase) is
 * LAPACK's (or the Jacobi kernel's): compare `v·diag(w)·vᴴ` with `a`, not the vectors. The gradient
 * is PyTorch's: Hermitian, as if both triangles were read, inf or NaN through the eigenvectors of
 * equal eigenvalues, and right only for losses that do not see the vectors' signs (or phases).
 *
 * @throws {LinAlgError} where the iterations did not converge (NaN or infinity in a matrix), naming the
 * first in a batch; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions, matrices that are not square, or another UPLO.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [w, v] = ga.linalg.eigh(ga.asarray([[2, 1], [1, 2]]) // w: [1, 3]
 * ```
 */
export function eigh<D extends DType>(
  a: GPUArray<D>,
  UPLO?: "L" | "U" | EighOptions,
  options?: CheckOptions,
): EighResult<D>;
export function eigh(a: GPUArray, ...args: unknown[]): unknown {
  const { values, vectors } = eigen(a, args, true, "eigh");
  return named([values, vectors!] as const, { eigenvalues: values, eigenvectors: vectors! });
}

/**
 * The eigenvalues, ascending and real, of a real symmetric or complex Hermitian matrix, or of each of
 * a batch (NumPy's `eigvalsh`), reading the lower triangle (or with `UPLO: "U"` the upper).
 *
 * @throws {LinAlgError} where the iterations did not converge; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions, matrices that are not square, or another UPLO.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.eigvalsh(ga.asarray([[2, 1], [1, 2]])).get()); // Float32Array [1, 3] (to rounding)
 * ```
 */
export function eigvalsh<D extends DType>(
  a: GPUArray<D>,
  UPLO?: "L" | "U" | EighOptions,
  options?: CheckOptions,
): GPUArray<LinalgType<D>>;
export function eigvalsh(a: GPUArray, ...args: unknown[]): unknown {
  return eigen(a, args, false, "eigvalsh").values;
}
