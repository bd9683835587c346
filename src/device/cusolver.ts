/**
 * LAPACK on cuSOLVER: one handle (and one `cusolverDnParams_t`) per context, set to the current
 * stream before each call, and the {@link SolverJobs} run through the 64-bit generic API
 * (`cusolverDnXgetrf`, `Xgetrs`, `Xpotrf`, `Xgeqrf`, `Xgesvd`, `Xgesvdp`; `Xsyevd`, `XsyevBatched`
 * and `Xgeev` in `cusolver_eigen.ts`) and the typed `cusolverDnSorgqr`/`Dorgqr`, a call per matrix
 * of a batch. Workspaces come from the memory pool on the current stream and go back to it after the
 * call, in stream order.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { Solver, SolverJobs } from "./solver.ts";
import type { DeviceAllocation } from "../cuda/mod.ts";
import { capturesInProgress } from "../cuda/capturing.ts";
import { CUBLAS_OP_N } from "../../ffi/cublas.ts";
import {
  CUBLAS_FILL_MODE_LOWER,
  CUBLAS_FILL_MODE_UPPER,
  CUSOLVER_EIG_MODE_VECTOR,
  libcusolver,
} from "../../ffi/cusolver.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
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
import { geev, syevd } from "./cusolver_eigen.ts";

export { CusolverError } from "./cusolver_calls.ts";

function getrf(backend: CudaBackend, job: SolverJobs["getrf"]): void {
  const { handle, params } = prepare(backend, "factor matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const n = BigInt(job.n), lda = BigInt(job.a.ld);
  check(
    lib.cusolverDnXgetrf_bufferSize(
      handle,
      params,
      n,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXgetrf_bufferSize",
  );
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXgetrf(
      handle,
      params,
      n,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      vector(job.ipiv, b, 8),
      t,
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
    );
    check(code, "cusolverDnXgetrf");
  });
}

function getrs(backend: CudaBackend, job: SolverJobs["getrs"]): void {
  const { handle, params } = prepare(backend, "solve from LU factors");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  // getrs reports only invalid arguments in its info: one word, overwritten by every call.
  using info = new InfoWord(backend);
  for (let b = 0; b < job.count; b++) {
    const code = lib.cusolverDnXgetrs(
      handle,
      params,
      CUBLAS_OP_N,
      BigInt(job.n),
      BigInt(job.nrhs),
      t,
      matrix(job.a, b, size),
      BigInt(job.a.ld),
      vector(job.ipiv, b, 8),
      t,
      matrix(job.b, b, size),
      BigInt(job.b.ld),
      info.ptr,
    );
    check(code, "cusolverDnXgetrs");
  }
}

/** A scratch `int` on the device for the calls whose info says only whether arguments were valid. */
class InfoWord {
  readonly #memory: DeviceAllocation;
  constructor(backend: CudaBackend) {
    this.#memory = backend.alloc(4) as DeviceAllocation;
  }
  get ptr(): bigint {
    return this.#memory.ptr;
  }
  [Symbol.dispose](): void {
    this.#memory.free();
  }
}

function potrf(backend: CudaBackend, job: SolverJobs["potrf"]): void {
  const { handle, params } = prepare(backend, "factor matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const uplo = job.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const n = BigInt(job.n), lda = BigInt(job.a.ld);
  check(
    lib.cusolverDnXpotrf_bufferSize(
      handle,
      params,
      uplo,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXpotrf_bufferSize",
  );
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXpotrf(
      handle,
      params,
      uplo,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      t,
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
    );
    check(code, "cusolverDnXpotrf");
  });
}

function geqrf(backend: CudaBackend, job: SolverJobs["geqrf"]): void {
  const { handle, params } = prepare(backend, "factor matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const m = BigInt(job.m), n = BigInt(job.n), lda = BigInt(job.a.ld);
  check(
    lib.cusolverDnXgeqrf_bufferSize(
      handle,
      params,
      m,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      t,
      vector(job.tau, 0, size),
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXgeqrf_bufferSize",
  );
  using info = new InfoWord(backend);
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXgeqrf(
      handle,
      params,
      m,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      t,
      vector(job.tau, b, size),
      t,
      work,
      workBytes,
      host,
      hostSize,
      info.ptr,
    );
    check(code, "cusolverDnXgeqrf");
  });
}

/** The typed `orgqr` (`ungqr` for complex matrices) of each dtype. */
const ORGQR_NAMES: Partial<
  Record<DType, "cusolverDnSorgqr" | "cusolverDnDorgqr" | "cusolverDnCungqr" | "cusolverDnZungqr">
> = {
  float32: "cusolverDnSorgqr",
  float64: "cusolverDnDorgqr",
  complex64: "cusolverDnCungqr",
  complex128: "cusolverDnZungqr",
};

function orgqr(backend: CudaBackend, job: SolverJobs["orgqr"]): void {
  const { handle } = prepare(backend, "form Q");
  const lib = libcusolver.get(), size = DTYPES[job.dtype].size;
  const name = ORGQR_NAMES[job.dtype]!;
  const lwork = new Int32Array(1);
  const query = lib[`${name}_bufferSize`];
  check(
    query(handle, job.m, job.n, job.k, matrix(job.a, 0, size), job.a.ld, vector(job.tau, 0, size), lwork),
    `${name}_bufferSize`,
  );
  const run = lib[name];
  const work = backend.alloc(Math.max(1, lwork[0]!) * size) as DeviceAllocation;
  using info = new InfoWord(backend);
  try {
    for (let b = 0; b < job.count; b++) {
      const code = run(
        handle,
        job.m,
        job.n,
        job.k,
        matrix(job.a, b, size),
        job.a.ld,
        vector(job.tau, b, size),
        work.ptr,
        lwork[0]!,
        info.ptr,
      );
      check(code, name);
    }
  } finally {
    work.free();
  }
}

/** LAPACK's job letters, as `signed char`. */
const JOB_ALL = 65, JOB_SOME = 83, JOB_NONE = 78;

function gesvd(backend: CudaBackend, job: SolverJobs["gesvd"]): void {
  const { handle, params } = prepare(backend, "decompose matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const [real, realSize] = realOf(job.dtype);
  const jobu = job.u === undefined ? JOB_NONE : job.full ? JOB_ALL : JOB_SOME;
  const jobvt = job.vt === undefined ? JOB_NONE : JOB_ALL;
  const m = BigInt(job.m), n = BigInt(job.n), lda = BigInt(job.a.ld);
  const ldu = BigInt(job.u?.ld ?? job.m), ldvt = BigInt(job.vt?.ld ?? job.n);
  const u = (b: number) => (job.u === undefined ? 0n : matrix(job.u, b, size));
  const vt = (b: number) => (job.vt === undefined ? 0n : matrix(job.vt, b, size));
  check(
    lib.cusolverDnXgesvd_bufferSize(
      handle,
      params,
      jobu,
      jobvt,
      m,
      n,
      t,
      matrix(job.a, 0, size),
      lda,
      real,
      vector(job.s, 0, realSize),
      t,
      u(0),
      ldu,
      t,
      vt(0),
      ldvt,
      t,
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXgesvd_bufferSize",
  );
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXgesvd(
      handle,
      params,
      jobu,
      jobvt,
      m,
      n,
      t,
      matrix(job.a, b, size),
      lda,
      real,
      vector(job.s, b, realSize),
      t,
      u(b),
      ldu,
      t,
      vt(b),
      ldvt,
      t,
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
    );
    check(code, "cusolverDnXgesvd");
  });
}

/** `Xgesvdp`'s error estimate of the last matrix, a host `double`. */
const sigmaError = new Float64Array(1);

function gesvdp(backend: CudaBackend, job: SolverJobs["gesvdp"]): number[] {
  const { handle, params } = prepare(backend, "decompose matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const [real, realSize] = realOf(job.dtype);
  const jobz = CUSOLVER_EIG_MODE_VECTOR, econ = job.full ? 0 : 1;
  const m = BigInt(job.m), n = BigInt(job.n);
  const lda = BigInt(job.a.ld), ldu = BigInt(job.u.ld), ldv = BigInt(job.v.ld);
  const operands = (b: number) =>
    [
      t,
      matrix(job.a, b, size),
      lda,
      real,
      vector(job.s, b, realSize),
      t,
      matrix(job.u, b, size),
      ldu,
      t,
      matrix(job.v, b, size),
      ldv,
      t,
    ] as const;
  check(
    lib.cusolverDnXgesvdp_bufferSize(
      handle,
      params,
      jobz,
      econ,
      m,
      n,
      ...operands(0),
      deviceBytes,
      hostBytes,
    ),
    "cusolverDnXgesvdp_bufferSize",
  );
  const errors: number[] = [];
  withWorkspace(backend, job.count, (b, work, workBytes, host, hostSize) => {
    const code = lib.cusolverDnXgesvdp(
      handle,
      params,
      jobz,
      econ,
      m,
      n,
      ...operands(b),
      work,
      workBytes,
      host,
      hostSize,
      vector(job.info, b, 4),
      sigmaError,
    );
    check(code, "cusolverDnXgesvdp");
    errors.push(sigmaError[0]!);
  });
  return errors;
}

/**
 * cuSOLVER as the CUDA backend's {@link Solver}: float32, float64, complex64 and complex128 (`syevd`
 * of a complex matrix is LAPACK's `heevd`, `orgqr` its `ungqr`), each job a call per matrix on
 * the backend's context and current stream.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const solver = ga.zeros(1).backend.solver; // cuSOLVER on CUDA, undefined on OpenCL
 * console.log(solver?.dtypes); // ["float32", "float64", "complex64", "complex128"]
 * ```
 */
export function cusolverOf(backend: CudaBackend): Solver {
  return {
    dtypes: ["float32", "float64", "complex64", "complex128"],
    getrf: (job) => getrf(backend, job),
    getrs: (job) => getrs(backend, job),
    potrf: (job) => potrf(backend, job),
    geqrf: (job) => geqrf(backend, job),
    orgqr: (job) => orgqr(backend, job),
    gesvd: (job) => gesvd(backend, job),
    // Undefined while a stream captures: it reads its error estimates back to the host.
    get gesvdp() {
      return capturesInProgress === 0 ? (job: SolverJobs["gesvdp"]) => gesvdp(backend, job) : undefined;
    },
    syevd: (job) => syevd(backend, job),
    // Looked up on first use (loading cuSOLVER then), and undefined where the library lacks Xgeev.
    get geev() {
      return libcusolver.get().cusolverDnXgeev === null
        ? undefined
        : (job: SolverJobs["geev"]) => geev(backend, job);
    },
  };
}
