/**
 * The eigenvalue jobs on cuSOLVER: `syevd` (`heevd` for complex matrices) and `geev` of general complex
 * matrices, a call per matrix through the 64-bit generic API.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { SolverJobs } from "./solver.ts";
import {
  CUBLAS_FILL_MODE_LOWER,
  CUBLAS_FILL_MODE_UPPER,
  CUSOLVER_EIG_MODE_NOVECTOR,
  CUSOLVER_EIG_MODE_VECTOR,
  libcusolver,
} from "../../ffi/cusolver.ts";
import { DTYPES } from "../kernel/dtype.ts";
import {
  check,
  dataType,
  deviceBytes,
  hostBytes,
  matrix,
  prepare,
  realOf,
  vector,
  withWorkspace,
} from "./cusolver_calls.ts";

/**
 * `syevd` (`heevd`): eigenvalues ascending into `w`, eigenvectors in place of `a`; a batch of packed
 * matrices in one `XsyevBatched` call where the library has it, else a call per matrix.
 */
export function syevd(backend: CudaBackend, job: SolverJobs["syevd"]): void {
  const { handle, params } = prepare(backend, "decompose matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const [real, realSize] = realOf(job.dtype);
  const mode = job.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const uplo = job.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const n = BigInt(job.n), lda = BigInt(job.a.ld);
  const packed = job.a.stride === job.a.ld * job.n && job.w.stride === job.n && job.info.stride === 1;
  if (job.count > 1 && packed && lib.cusolverDnXsyevBatched !== null) {
    const count = BigInt(job.count), a = matrix(job.a, 0, size), w = vector(job.w, 0, realSize);
    check(
      lib.cusolverDnXsyevBatched_bufferSize!(
        handle,
        params,
        mode,
        uplo,
        n,
        t,
        a,
        lda,
        real,
        w,
        t,
        deviceBytes,
        hostBytes,
        count,
      ),
      "cusolverDnXsyevBatched_bufferSize",
    );
    withWorkspace(backend, 1, (_, work, workBytes, host, hostSize) => {
      const code = lib.cusolverDnXsyevBatched!(
        handle,
        params,
        mode,
        uplo,
        n,
        t,
        a,
        lda,
        real,
        w,
        t,
        work,
        workBytes,
        host,
        hostSize,
        vector(job.info, 0, 4),
        count,
      );
      check(code, "cusolverDnXsyevBatched");
    });
    return;
  }
  check(
    lib.cusolverDnXsyevd_bufferSize(
      handle,
      params,
      mode,
      uplo,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      real,
      vector(job.w, 0, realSize),
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXsyevd_bufferSize",
  );
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXsyevd(
      handle,
      params,
      mode,
      uplo,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      real,
      vector(job.w, b, realSize),
      t,
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
    );
    check(code, "cusolverDnXsyevd");
  });
}

/** `geev` of complex matrices: eigenvalues into `w`, right eigenvectors into `vr` where given. */
export function geev(backend: CudaBackend, job: SolverJobs["geev"]): void {
  const { handle, params } = prepare(backend, "decompose matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const bufferSize = lib.cusolverDnXgeev_bufferSize!, call = lib.cusolverDnXgeev!;
  const right = job.vr === undefined ? CUSOLVER_EIG_MODE_NOVECTOR : CUSOLVER_EIG_MODE_VECTOR;
  const n = BigInt(job.n), lda = BigInt(job.a.ld), ldvr = BigInt(job.vr?.ld ?? 1);
  const vr = (b: number) => (job.vr === undefined ? 0n : matrix(job.vr, b, size));
  check(
    bufferSize(
      handle,
      params,
      CUSOLVER_EIG_MODE_NOVECTOR,
      right,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      t,
      vector(job.w, 0, size),
      t,
      0n,
      1n,
      t,
      vr(0),
      ldvr,
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXgeev_bufferSize",
  );
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = call(
      handle,
      params,
      CUSOLVER_EIG_MODE_NOVECTOR,
      right,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      t,
      vector(job.w, b, size),
      t,
      0n,
      1n,
      t,
      vr(b),
      ldvr,
      t,
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
    );
    check(code, "cusolverDnXgeev");
  });
}
