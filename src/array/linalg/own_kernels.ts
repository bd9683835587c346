/**
 * The array module's own LAPACK jobs ({@link SolverJobs}, run where a backend has no vendor solver:
 * OpenCL), each one launch of a kernel with a work-group per matrix, and the one-sided Jacobi SVD the
 * own `svd` builds on.
 *
 * @module
 */

import type { Backend, BackendBuffer, KernelSource } from "../../device/backend.ts";
import type { SolverJobs, SolverMatrices, SolverVectors } from "../../device/solver.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { groupSize } from "./kernel_text.ts";
import { getrfSource, getrsSource } from "./lu_source.ts";
import { potrfSource } from "./cholesky_source.ts";
import { geqrfSource, orgqrSource } from "./qr_source.ts";
import { jacobiScratch, jacobiSource } from "./jacobi_source.ts";
import { geevSource } from "./eig_source.ts";

/**
 * The one-sided Jacobi SVD job of m × n matrices, m ≥ n (`a` is overwritten): the singular values and,
 * where `vectors`, V and the orthogonal columns of `a·V`, each of its singular value's norm.
 */
export interface JacobiSvdJob {
  readonly dtype: DType;
  readonly count: number;
  readonly m: number;
  readonly n: number;
  readonly a: SolverMatrices;
  /** Descending singular values. */
  readonly s: SolverVectors;
  /** `a·V`, written where `vectors`: m × n each, leading dimension m. */
  readonly av: SolverMatrices;
  /** V, written where `vectors`: n × n each, leading dimension n. */
  readonly v: SolverMatrices;
  readonly vectors: boolean;
  readonly info: SolverVectors;
}

function launch(
  backend: Backend,
  key: string,
  make: () => KernelSource,
  count: number,
  order: number,
  args: readonly unknown[],
): void {
  if (count === 0) return;
  backend.kernel(`linalg:${key}`, make).launch({ grid: count, block: groupSize(order) }, args);
}

const matrices = (m: SolverMatrices) => [m.buffer, m.offset, m.stride, m.ld];
const vectors = (v: SolverVectors) => [v.buffer, v.offset, v.stride];

/** Scratch of `elements` of `dtype` for one launch, given back once it is queued (the device keeps it until the kernel is done). */
function withScratch(
  backend: Backend,
  dtype: DType,
  elements: number,
  run: (b: BackendBuffer) => void,
): void {
  const scratch = backend.alloc(Math.max(1, elements) * DTYPES[dtype].size);
  try {
    run(scratch);
  } finally {
    scratch.free();
  }
}

/** LAPACK's jobs on the array module's kernels. */
export const OWN_JOBS: {
  readonly [K in Exclude<keyof SolverJobs, "gesvd" | "gesvdp">]: (b: Backend, job: SolverJobs[K]) => void;
} = {
  getrf(backend, job) {
    const { dtype, n } = job;
    launch(backend, `getrf:${dtype}`, () => getrfSource(backend.dialect, dtype), job.count, n, [
      ...matrices(job.a),
      n,
      ...vectors(job.ipiv),
      job.info.buffer,
      job.info.offset,
    ]);
  },
  getrs(backend, job) {
    const { dtype, n } = job;
    launch(backend, `getrs:${dtype}`, () => getrsSource(backend.dialect, dtype), job.count, n, [
      ...matrices(job.a),
      n,
      ...vectors(job.ipiv),
      ...matrices(job.b),
      job.nrhs,
    ]);
  },
  potrf(backend, job) {
    const { dtype, n } = job;
    launch(backend, `potrf:${dtype}`, () => potrfSource(backend.dialect, dtype), job.count, n, [
      ...matrices(job.a),
      n,
      job.upper ? 1 : 0,
      job.info.buffer,
      job.info.offset,
    ]);
  },
  geqrf(backend, job) {
    const { dtype, m, n } = job;
    launch(backend, `geqrf:${dtype}`, () => geqrfSource(backend.dialect, dtype), job.count, Math.max(m, n), [
      ...matrices(job.a),
      m,
      n,
      ...vectors(job.tau),
    ]);
  },
  orgqr(backend, job) {
    const { dtype, m, n } = job;
    launch(backend, `orgqr:${dtype}`, () => orgqrSource(backend.dialect, dtype), job.count, m, [
      ...matrices(job.a),
      m,
      n,
      job.k,
      ...vectors(job.tau),
    ]);
  },
  syevd(backend, job) {
    const { dtype, n } = job;
    const per = jacobiScratch(n);
    withScratch(
      backend,
      dtype,
      per * job.count,
      (scratch) =>
        launch(
          backend,
          `jacobi:eigh:${dtype}`,
          () => jacobiSource(backend.dialect, dtype, "eigh"),
          job.count,
          n,
          [
            ...matrices(job.a),
            n,
            job.upper ? 1 : 0,
            job.vectors ? 1 : 0,
            ...vectors(job.w),
            job.info.buffer,
            job.info.offset,
            scratch,
            0,
            per,
          ],
        ),
    );
  },
  geev(backend, job) {
    const { dtype, n } = job;
    const vr = job.vr ?? job.a; // not written without vectors
    launch(backend, `geev:${dtype}`, () => geevSource(backend.dialect, dtype), job.count, n, [
      ...matrices(job.a),
      n,
      job.vr === undefined ? 0 : 1,
      ...vectors(job.w),
      ...matrices(vr),
      job.info.buffer,
      job.info.offset,
    ]);
  },
};

/** The one-sided SVD on the Jacobi kernel. */
export function jacobiSvd(backend: Backend, job: JacobiSvdJob): void {
  const { dtype, m, n } = job;
  const per = jacobiScratch(n);
  withScratch(
    backend,
    dtype,
    per * job.count,
    (scratch) =>
      launch(
        backend,
        `jacobi:svd:${dtype}`,
        () => jacobiSource(backend.dialect, dtype, "svd"),
        job.count,
        Math.max(m, n),
        [
          ...matrices(job.a),
          m,
          n,
          job.vectors ? 1 : 0,
          ...vectors(job.s),
          job.av.buffer,
          job.av.offset,
          job.av.stride,
          job.v.buffer,
          job.v.offset,
          job.v.stride,
          job.info.buffer,
          job.info.offset,
          scratch,
          0,
          per,
        ],
      ),
  );
}
