/**
 * LAPACK's routines on arrays: each runs on the backend's vendor solver where it has one for the
 * dtype (cuSOLVER), except for batches of small matrices, else on the array module's own kernels. Matrices are the column-major working
 * copies of `operands.ts`: a contiguous array of shape `[...batch, columns, rows]` holds a batch of
 * column-major `rows × columns` matrices.
 *
 * @module
 */

import type { Backend } from "../../device/backend.ts";
import type { Solver, SolverJobs, SolverMatrices, SolverVectors } from "../../device/solver.ts";
import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { fill } from "../ops/assign.ts";
import { OWN_JOBS } from "./own_kernels.ts";
import { countOf, type LinalgDType, type LuDType } from "./operands.ts";
import { realOf } from "../core/dtypes.ts";

/** The column-major matrices of a working copy of shape `[...batch, columns, rows]`. */
export function matricesOf(w: GPUArray): SolverMatrices {
  const rows = w.shape[w.ndim - 1]!, cols = w.shape[w.ndim - 2]!;
  return { buffer: w.buffer, offset: w.offset, stride: rows * cols, ld: Math.max(1, rows) };
}

/** A vector per matrix: the last axis of a contiguous array of shape `[...batch, length]`. */
export function vectorsOf(v: GPUArray): SolverVectors {
  return { buffer: v.buffer, offset: v.offset, stride: v.shape[v.ndim - 1]! };
}

/** One `int32` per matrix, of the batch's shape. */
export function infoOf(v: GPUArray<"int32">): SolverVectors {
  return { buffer: v.buffer, offset: v.offset, stride: 1 };
}

/** The largest order of a batch's matrices that the own kernels take even where a vendor solver is. */
export const SMALL_ORDER = 32;

/**
 * The backend's vendor solver where it takes `dtype`, for `count` matrices of order `order`: none for a
 * batch of small matrices (up to {@link SMALL_ORDER}), which one launch of the own kernels (a block per
 * matrix) factors at once where the vendor's 64-bit API takes a call per matrix.
 */
export function vendorSolver(
  backend: Backend,
  dtype: DType,
  count: number,
  order: number,
): Solver | undefined {
  const solver = backend.solver;
  if (solver === undefined || !solver.dtypes.includes(dtype)) return undefined;
  return count > 1 && order <= SMALL_ORDER ? undefined : solver;
}

type OwnJob = keyof typeof OWN_JOBS;

/** Runs `job` on the vendor solver or the own kernels; nothing where a batch or its matrices are empty. */
function run<K extends OwnJob>(backend: Backend, name: K, job: SolverJobs[K]): void {
  const dims = job as { n: number; m?: number };
  if (job.count === 0 || dims.n === 0 || dims.m === 0) return;
  const solver = vendorSolver(backend, job.dtype, job.count, Math.max(dims.n, dims.m ?? 0));
  const vendor = solver?.[name] as ((j: SolverJobs[K]) => void) | undefined;
  if (vendor !== undefined) vendor(job);
  else (OWN_JOBS[name] as (b: Backend, j: SolverJobs[K]) => void)(backend, job);
}

const batchOf = (w: GPUArray) => w.shape.slice(0, -2);

/** A new array on `like`'s backend. */
export function arrayLike<D extends DType>(like: GPUArray, shape: readonly number[], dtype: D): GPUArray<D> {
  return new GPUArray(like.backend, shape, dtype);
}

/** A new `info` array of the batch's shape, zeros (what a batch of empty matrices leaves). */
function infoFor(w: GPUArray): GPUArray<"int32"> {
  return fill(arrayLike(w, batchOf(w), "int32"), 0);
}

/** LU with partial pivoting of the square matrices of `w`, in place: the pivots and each matrix's `info`. */
export function luFactor(w: GPUArray<LuDType>): { ipiv: GPUArray<"int64">; info: GPUArray<"int32"> } {
  const batch = batchOf(w), n = w.shape[w.ndim - 1]!;
  const ipiv = arrayLike(w, [...batch, n], "int64"), info = infoFor(w);
  const job = {
    dtype: w.dtype,
    count: countOf(batch),
    n,
    a: matricesOf(w),
    ipiv: vectorsOf(ipiv),
    info: infoOf(info),
  };
  run(w.backend, "getrf", job);
  return { ipiv, info };
}

/** Solves with {@link luFactor}'s factors, in place of `b` (shape `[...batch, nrhs, n]`, column-major). */
export function luSolve(w: GPUArray<LuDType>, ipiv: GPUArray<"int64">, b: GPUArray<LuDType>): void {
  const n = w.shape[w.ndim - 1]!;
  run(w.backend, "getrs", {
    dtype: w.dtype,
    count: countOf(batchOf(w)),
    n,
    nrhs: b.shape[b.ndim - 2]!,
    a: matricesOf(w),
    ipiv: vectorsOf(ipiv),
    b: matricesOf(b),
  });
}

/** Cholesky of the matrices of `w` in place of the triangle `upper` names (column-major): each `info`. */
export function choleskyFactor(w: GPUArray<LuDType>, upper: boolean): GPUArray<"int32"> {
  const batch = batchOf(w), n = w.shape[w.ndim - 1]!;
  const info = infoFor(w);
  run(w.backend, "potrf", {
    dtype: w.dtype,
    count: countOf(batch),
    upper,
    n,
    a: matricesOf(w),
    info: infoOf(info),
  });
  return info;
}

/** Householder QR of the m × n matrices of `w` (shape `[...batch, n, m]`) in place: `tau`. */
export function qrFactor<D extends LuDType>(w: GPUArray<D>): GPUArray<D> {
  const batch = batchOf(w), m = w.shape[w.ndim - 1]!, n = w.shape[w.ndim - 2]!;
  const tau = arrayLike(w, [...batch, Math.min(m, n)], w.dtype);
  run(w.backend, "geqrf", {
    dtype: w.dtype,
    count: countOf(batch),
    m,
    n,
    a: matricesOf(w),
    tau: vectorsOf(tau),
  });
  return tau;
}

/** Q's first columns (as many as `w` has: shape `[...batch, columns, m]`) from `k` reflectors, in place. */
export function qrForm(w: GPUArray<LuDType>, k: number, tau: GPUArray<LuDType>): void {
  const m = w.shape[w.ndim - 1]!, n = w.shape[w.ndim - 2]!;
  run(w.backend, "orgqr", {
    dtype: w.dtype,
    count: countOf(batchOf(w)),
    m,
    n,
    k,
    a: matricesOf(w),
    tau: vectorsOf(tau),
  });
}

/**
 * The eigenvalues (ascending, real) of the Hermitian matrices of `w` given by the triangle `upper`
 * names (column-major), and where `vectors` the eigenvectors in place of `w` (as columns): values and
 * `info`.
 */
export function eigFactor(
  w: GPUArray<LuDType>,
  vectors: boolean,
  upper: boolean,
): { values: GPUArray<LinalgDType>; info: GPUArray<"int32"> } {
  const batch = batchOf(w), n = w.shape[w.ndim - 1]!;
  const values = arrayLike(w, [...batch, n], realOf(w.dtype) as LinalgDType), info = infoFor(w);
  run(w.backend, "syevd", {
    dtype: w.dtype,
    count: countOf(batch),
    vectors,
    upper,
    n,
    a: matricesOf(w),
    w: vectorsOf(values),
    info: infoOf(info),
  });
  return { values, info };
}

/**
 * The eigenvalues and, where `vectors`, the right eigenvectors of each complex column-major matrix of
 * `w` (overwritten): LAPACK's `geev` on the vendor solver where it has it, else the array module's
 * kernel. `info` k > 0 where a matrix's iterations did not converge.
 */
export function generalEigen(
  w: GPUArray<LuDType>,
  vectors: boolean,
): { values: GPUArray<LuDType>; vectors?: GPUArray<LuDType>; info: GPUArray<"int32"> } {
  const batch = batchOf(w), n = w.shape[w.ndim - 1]!;
  const values = arrayLike(w, [...batch, n], w.dtype), info = infoFor(w);
  const v = vectors ? arrayLike(w, [...batch, n, n], w.dtype) : undefined;
  run(w.backend, "geev", {
    dtype: w.dtype,
    count: countOf(batch),
    n,
    a: matricesOf(w),
    w: vectorsOf(values),
    ...(v === undefined ? {} : { vr: matricesOf(v) }),
    info: infoOf(info),
  });
  return { values, ...(v === undefined ? {} : { vectors: v }), info };
}
