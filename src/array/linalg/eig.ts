/**
 * `eig` and `eigvals` (NumPy's `numpy.linalg.eig` and `eigvals`): the eigenvalues and right
 * eigenvectors of general square matrices, on cuSOLVER's `Xgeev` (CUDA, where the library has it) or
 * the array module's Hessenberg–QR kernel (`eig_source.ts`). Real matrices are taken as complex: the
 * results are always complex (PyTorch's and CuPy's choice; NumPy returns real arrays where every
 * eigenvalue happens to be real, which would need a read of the device to decide a dtype).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { type ComplexOf, complexOf } from "../core/dtypes.ts";
import { differentiated, tracked } from "../grad/tape.ts";
import { isfinite } from "../api/elementwise.ts";
import { all } from "../api/reductions.ts";
import { where } from "../ops/ufunc.ts";
import { checkInfo } from "./errors.ts";
import { generalEigen } from "./lapack.ts";
import {
  checkArray,
  checking,
  type CheckOptions,
  columnMajorCopy,
  type LuDType,
  luType,
  matrixShape,
} from "./operands.ts";
import { named } from "./results.ts";
import { checkOptionsOf, type LuType, rowMajor } from "./solve.ts";

/**
 * The dtype of `eig`'s results for arrays of `D`: complex64 for float32 and complex64, else complex128.
 *
 * @example
 * ```ts
 * import type * as ga from "@cudeno/cudeno/array";
 * const t: ga.linalg.EigType<"float32"> = "complex64";
 * ```
 */
export type EigType<D extends DType> = ComplexOf<LuType<D>>;

/**
 * The eigenvalues and eigenvectors (NumPy's `EigResult`): unpack it as `const [w, v] = ga.linalg.eig(a)`,
 * or read `.eigenvalues` and `.eigenvectors`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { eigenvalues, eigenvectors }: ga.linalg.EigResult<"float32"> = ga.linalg.eig(ga.eye(3));
 * ```
 */
export type EigResult<D extends DType> =
  & readonly [eigenvalues: GPUArray<EigType<D>>, eigenvectors: GPUArray<EigType<D>>]
  & {
    /** The eigenvalues, in no particular order. */
    readonly eigenvalues: GPUArray<EigType<D>>;
    /** The eigenvectors as columns, each of 2-norm 1 with its largest element real. */
    readonly eigenvectors: GPUArray<EigType<D>>;
  };

function general(
  a: GPUArray,
  args: readonly unknown[],
  vectors: boolean,
  what: string,
): { values: GPUArray; vectors?: GPUArray } {
  checkArray(a, what);
  const check = checking(checkOptionsOf(what, args));
  const { n } = matrixShape(a, what, true);
  const dtype = complexOf(luType(a, a.dtype, what)) as LuDType;
  if (tracked(a)) {
    // No rule yet: a gradient that reaches eig's results is an error naming it.
    return differentiated(what, [a], () => general(a, args, vectors, what), (r) => [
      [r.values, undefined],
      ...(r.vectors === undefined ? [] : [[r.vectors, undefined] as const]),
    ]);
  }
  if (check) {
    a.backend.checkHostRead(
      `${what}()`,
      "whether every eigenproblem converged (pass { check: false } to skip it)",
    );
  }
  // NumPy refuses NaN and infinity before LAPACK runs (cuSOLVER's Xgeev reports no error for them):
  // such a matrix's info becomes n + 1.
  using finite = check ? isfinite(a) : undefined;
  using allFinite = finite && all(finite, [-2, -1]);
  using w = columnMajorCopy(a, dtype);
  const result = generalEigen(w, vectors);
  using _info = result.info;
  using v = result.vectors;
  if (allFinite !== undefined) {
    using info = where(allFinite, result.info, n + 1);
    try {
      checkInfo(info as GPUArray<"int32">, {
        what,
        problem: "did not converge",
        detail: (k) =>
          k > n ? "it holds NaN or infinity" : `its QR iterations did not settle eigenvalue ${k - 1}`,
        instead: "whatever the iterations left",
      });
    } catch (e) {
      result.values.free();
      throw e;
    }
  }
  return v === undefined ? { values: result.values } : { values: result.values, vectors: rowMajor(v) };
}

/**
 * The eigenvalues and right eigenvectors of a square matrix, or of each of a batch (NumPy's `eig`):
 * `a·v[:, i] = w[i]·v[:, i]`. Results are complex always (complex64 for float32 and complex64, else
 * complex128); the eigenvalues come in no particular order, each eigenvector with 2-norm 1 and its
 * largest element real (LAPACK's). A defective matrix's eigenvectors are nearly parallel, as LAPACK's.
 * On CUDA it is cuSOLVER's `Xgeev`; on OpenCL (and CUDA with an older cuSOLVER) the array module's
 * kernel, a work-group per matrix. Not differentiable yet.
 *
 * @throws {LinAlgError} where the iterations did not converge (NaN or infinity in a matrix), naming the
 * first in a batch; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [w, v] = ga.linalg.eig(ga.asarray([[0, -1], [1, 0]])); // w: ±1j (complex64)
 * ```
 */
export function eig<D extends DType>(a: GPUArray<D>, options?: CheckOptions): EigResult<D>;
export function eig(a: GPUArray, ...args: unknown[]): unknown {
  const { values, vectors } = general(a, args, true, "eig");
  return named([values, vectors!] as const, { eigenvalues: values, eigenvectors: vectors! });
}

/**
 * The eigenvalues of a square matrix, or of each of a batch (NumPy's `eigvals`), complex, in no
 * particular order.
 *
 * @throws {LinAlgError} where the iterations did not converge; `{ check: false }` skips that read.
 * @throws {RangeError} for fewer than 2 dimensions or matrices that are not square.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linalg.eigvals(ga.asarray([[2, 0], [0, 3]])).get()); // Float32Array [2, 0, 3, 0]
 * ```
 */
export function eigvals<D extends DType>(a: GPUArray<D>, options?: CheckOptions): GPUArray<EigType<D>>;
export function eigvals(a: GPUArray, ...args: unknown[]): unknown {
  return general(a, args, false, "eigvals").values;
}
