/**
 * What a backend's vendor solver (cuSOLVER on CUDA) does for `ga.linalg`: LAPACK's factorizations
 * and decompositions, each on a batch of column-major matrices in one buffer, in place, with
 * LAPACK's conventions (1-based pivots, Householder reflectors below R with their `tau`, an `info`
 * per matrix that is 0 on success). The array module's own kernels (`src/array/linalg/`) take the
 * same jobs where a backend has no solver.
 *
 * @module
 */

import type { BackendBuffer } from "./backend.ts";
import type { DType } from "../kernel/dtype.ts";

/**
 * A batch of column-major matrices in one buffer: matrix `b` starts `offset + b * stride` elements
 * in, and its column `j` `j * ld` elements after that.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.zeros([4, 3, 3]); // 4 matrices of 3×3, each column-major as its transpose is row-major
 * const m: ga.SolverMatrices = { buffer: a.buffer, offset: 0, stride: 9, ld: 3 };
 * ```
 */
export interface SolverMatrices {
  /** The buffer. */
  readonly buffer: BackendBuffer;
  /** Elements before the first matrix. */
  readonly offset: number;
  /** Elements from one matrix to the next. */
  readonly stride: number;
  /** Elements from one column to the next (LAPACK's leading dimension). */
  readonly ld: number;
}

/**
 * A vector per matrix of a batch (pivots, `tau`, singular values, eigenvalues, `info`): vector `b`
 * starts `offset + b * stride` elements in.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const w = ga.zeros([4, 3]);
 * const v: ga.SolverVectors = { buffer: w.buffer, offset: 0, stride: 3 };
 * ```
 */
export interface SolverVectors {
  /** The buffer. */
  readonly buffer: BackendBuffer;
  /** Elements before the first vector. */
  readonly offset: number;
  /** Elements from one vector to the next. */
  readonly stride: number;
}

/**
 * What every {@link SolverJobs} entry names: the element type and the number of matrices.
 *
 * @example
 * ```ts
 * import type { SolverJob } from "@cudeno/cudeno/array";
 * const job: SolverJob = { dtype: "float32", count: 8 };
 * ```
 */
export interface SolverJob {
  /** float32 or float64. */
  readonly dtype: DType;
  /** Matrices in the batch. */
  readonly count: number;
}

/**
 * The jobs of a {@link Solver}, LAPACK's routines by name. Every matrix is column-major; `info` is an
 * int32 per matrix.
 *
 * @example
 * ```ts
 * import type { SolverJobs } from "@cudeno/cudeno/array";
 * type Lu = SolverJobs["getrf"]; // { dtype, count, n, a, ipiv, info }
 * ```
 */
export interface SolverJobs {
  /** LU with partial pivoting, `a = P·L·U`, in place; `ipiv` gets 1-based int64 row swaps; `info` k > 0 where `U[k-1, k-1]` is exactly 0. */
  getrf: SolverJob & {
    readonly n: number;
    readonly a: SolverMatrices;
    readonly ipiv: SolverVectors;
    readonly info: SolverVectors;
  };
  /** Solves `A·X = B` in place of `b` (n × nrhs) from {@link getrf}'s factors. */
  getrs: SolverJob & {
    readonly n: number;
    readonly nrhs: number;
    readonly a: SolverMatrices;
    readonly ipiv: SolverVectors;
    readonly b: SolverMatrices;
  };
  /** Cholesky in place of the triangle `upper` names (`A = Uᵀ·U` or `L·Lᵀ`); the other is left as it was; `info` k > 0 where the leading minor of order k is not positive. */
  potrf: SolverJob & {
    readonly upper: boolean;
    readonly n: number;
    readonly a: SolverMatrices;
    readonly info: SolverVectors;
  };
  /** Householder QR of m × n matrices in place: R on and above the diagonal, the reflectors below, `tau` (min(m, n) each). */
  geqrf: SolverJob & {
    readonly m: number;
    readonly n: number;
    readonly a: SolverMatrices;
    readonly tau: SolverVectors;
  };
  /** The first n columns of Q (m × n, n ≤ m) from the first `k` reflectors {@link geqrf} left, in place. */
  orgqr: SolverJob & {
    readonly m: number;
    readonly n: number;
    readonly k: number;
    readonly a: SolverMatrices;
    readonly tau: SolverVectors;
  };
  /**
   * The SVD of m × n matrices with m ≥ n, `a = U·diag(s)·Vᵀ` (`a` is overwritten): `s` descending;
   * `u` m × n, or m × m where `full`, when given; `vt` n × n when given; `info` > 0 where it did not
   * converge.
   */
  gesvd: SolverJob & {
    readonly m: number;
    readonly n: number;
    readonly a: SolverMatrices;
    readonly s: SolverVectors;
    readonly u?: SolverMatrices;
    readonly full: boolean;
    readonly vt?: SolverMatrices;
    readonly info: SolverVectors;
  };
  /**
   * The SVD of m × n matrices with m ≥ n by polar decomposition (cuSOLVER's `Xgesvdp`): as
   * {@link gesvd}, but `u` and `v` are always computed (cuSOLVER 13 failed without them), and `v`
   * (n × n) holds V, not Vᴴ.
   */
  gesvdp: SolverJob & {
    readonly m: number;
    readonly n: number;
    readonly a: SolverMatrices;
    readonly s: SolverVectors;
    readonly u: SolverMatrices;
    readonly full: boolean;
    readonly v: SolverMatrices;
    readonly info: SolverVectors;
  };
  /**
   * The eigenvalues (ascending, into `w`) and, where `vectors`, the eigenvectors (the columns of `a`,
   * in place) of symmetric matrices given by the triangle `upper` names; `info` > 0 where it did not
   * converge.
   */
  syevd: SolverJob & {
    readonly vectors: boolean;
    readonly upper: boolean;
    readonly n: number;
    readonly a: SolverMatrices;
    readonly w: SolverVectors;
    readonly info: SolverVectors;
  };
  /**
   * The eigenvalues (into `w`) and, where `vr` is given, the right eigenvectors (its columns, each of
   * 2-norm 1 with its largest element real) of general complex matrices (complex64 or complex128; `a`
   * is overwritten); `info` > 0 where the QR iterations did not converge.
   */
  geev: SolverJob & {
    readonly n: number;
    readonly a: SolverMatrices;
    readonly w: SolverVectors;
    readonly vr?: SolverMatrices;
    readonly info: SolverVectors;
  };
}

/**
 * A vendor solver of a backend (cuSOLVER on CUDA): LAPACK's routines on batches of column-major
 * matrices, queued on the current stream.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const solver: ga.Solver | undefined = ga.zeros(1).backend.solver; // cuSOLVER on CUDA
 * console.log(solver?.dtypes);
 * ```
 */
export type Solver =
  & { readonly dtypes: readonly DType[] }
  & { readonly [K in Exclude<keyof SolverJobs, "geev" | "gesvdp">]: (job: SolverJobs[K]) => void }
  & {
    /**
     * Where the solver has it: each matrix's error estimate, the size of the perturbation the polar
     * decomposition added to converge on an ill-conditioned or rank-deficient matrix (0 where none).
     */
    readonly gesvdp?: (job: SolverJobs["gesvdp"]) => readonly number[];
    /** Undefined where the library lacks it (cuSOLVER before 11.7): the array module's kernel runs instead. */
    readonly geev?: (job: SolverJobs["geev"]) => void;
  };
