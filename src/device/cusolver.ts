/**
 * LAPACK on cuSOLVER: one handle (and one `cusolverDnParams_t`) per context, set to the current
 * stream before each call, and the {@link SolverJobs} run through the 64-bit generic API
 * (`cusolverDnXgetrf`, `Xgetrs`, `Xpotrf`, `Xgeqrf`, `Xgesvd`, `Xsyevd`) and the typed
 * `cusolverDnSorgqr`/`Dorgqr`, a call per matrix of a batch. Workspaces come from the memory pool on
 * the current stream and go back to it after the call, in stream order.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { Solver, SolverJobs, SolverMatrices, SolverVectors } from "./solver.ts";
import type { BackendBuffer } from "./backend.ts";
import type { Context, DeviceAllocation, Stream } from "../cuda/mod.ts";
import { refuseWhileCapturing } from "../cuda/capturing.ts";
import { CUBLAS_OP_N, CUDA_C_32F, CUDA_C_64F, CUDA_R_32F, CUDA_R_64F } from "../../ffi/cublas.ts";
import {
  CUBLAS_FILL_MODE_LOWER,
  CUBLAS_FILL_MODE_UPPER,
  CUSOLVER_EIG_MODE_NOVECTOR,
  CUSOLVER_EIG_MODE_VECTOR,
  libcusolver,
} from "../../ffi/cusolver.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";

/** `cusolverStatus_t` names and meanings (cusolver_common.h). */
const STATUS: Record<number, string> = {
  1: "CUSOLVER_STATUS_NOT_INITIALIZED (the library was not initialized)",
  2: "CUSOLVER_STATUS_ALLOC_FAILED (resource allocation failed)",
  3: "CUSOLVER_STATUS_INVALID_VALUE (an unsupported value or parameter was passed)",
  4: "CUSOLVER_STATUS_ARCH_MISMATCH (the device lacks a feature the function needs)",
  5: "CUSOLVER_STATUS_MAPPING_ERROR (access to GPU memory space failed)",
  6: "CUSOLVER_STATUS_EXECUTION_FAILED (the GPU program failed to execute)",
  7: "CUSOLVER_STATUS_INTERNAL_ERROR (an internal cuSOLVER operation failed)",
  8: "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED (the matrix type is not supported)",
  9: "CUSOLVER_STATUS_NOT_SUPPORTED (the operation is not supported)",
};

/**
 * A cuSOLVER call failed (its status, not a singular or indefinite matrix: that is a
 * `LinAlgError`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * try {
 *   ga.linalg.inv(ga.eye(3));
 * } catch (e) {
 *   if (e instanceof ga.CusolverError) console.error(e.code, e.call, e.message);
 * }
 * ```
 */
export class CusolverError extends Error {
  /** The `cusolverStatus_t` value. */
  readonly code: number;
  /** The cuSOLVER function that returned it, `cusolverDnXgetrf`. */
  readonly call: string;

  /** Builds the error from the status's name and meaning. */
  constructor(code: number, call: string) {
    super(`${call} failed: ${STATUS[code] ?? `cusolverStatus_t ${code}`}`);
    this.name = "CusolverError";
    this.code = code;
    this.call = call;
  }
}

function check(code: number, call: string): void {
  if (code !== 0) throw new CusolverError(code, call);
}

/** A context's handle and params, and the stream the handle is set to. */
interface SolverHandle {
  readonly handle: Deno.PointerObject;
  readonly params: Deno.PointerObject;
  readonly generation: number;
  stream?: Stream;
}

/** One handle per context, remade after a reset (the old one died with the context). */
const handles = new WeakMap<Context, SolverHandle>();

/** The context's handle set to `stream` (undefined: the legacy default stream). */
function handleOn(context: Context, stream: Stream | undefined): SolverHandle {
  let known = handles.get(context);
  if (known === undefined || known.generation !== context.generation) {
    refuseWhileCapturing(
      "set cuSOLVER up for a first factorization",
      "run one of the same ga.linalg calls before the capture begins",
    );
    const lib = libcusolver.get();
    const out = new BigUint64Array(1);
    check(lib.cusolverDnCreate(out), "cusolverDnCreate");
    const handle = Deno.UnsafePointer.create(out[0]!)!;
    check(lib.cusolverDnCreateParams(out), "cusolverDnCreateParams");
    known = { handle, params: Deno.UnsafePointer.create(out[0]!)!, generation: context.generation };
    handles.set(context, known);
    check(lib.cusolverDnSetStream(handle, null), "cusolverDnSetStream");
  }
  if (known.stream !== stream) {
    check(
      libcusolver.get().cusolverDnSetStream(known.handle, stream?.unsafeHandle ?? null),
      "cusolverDnSetStream",
    );
    known.stream = stream;
  }
  return known;
}

/**
 * The `cudaDataType` of each dtype cuSOLVER takes here (`Solver.dtypes`), then that of its real part
 * (eigenvalues, singular values) and the part's size.
 */
const DATA_TYPES: Partial<Record<DType, readonly [number, number, number]>> = {
  float32: [CUDA_R_32F, CUDA_R_32F, 4],
  float64: [CUDA_R_64F, CUDA_R_64F, 8],
  complex64: [CUDA_C_32F, CUDA_R_32F, 4],
  complex128: [CUDA_C_64F, CUDA_R_64F, 8],
};
const dataType = (dtype: DType): number => DATA_TYPES[dtype]![0];
const realOf = (dtype: DType): [number, number] => [DATA_TYPES[dtype]![1], DATA_TYPES[dtype]![2]];

const address = (x: BackendBuffer, elements: number, itemsize: number): bigint =>
  (x as DeviceAllocation).ptr + BigInt(elements * itemsize);

/** Matrix `b` of a batch, as a device address. */
const matrix = (m: SolverMatrices, b: number, itemsize: number) =>
  address(m.buffer, m.offset + b * m.stride, itemsize);
/** Vector `b` of a batch, as a device address. */
const vector = (v: SolverVectors, b: number, itemsize: number) =>
  address(v.buffer, v.offset + b * v.stride, itemsize);

/** A workspace query's two sizes, written by the `_bufferSize` functions. */
const deviceBytes = new BigUint64Array(1), hostBytes = new BigUint64Array(1);

/**
 * Runs `call` once per matrix with a device workspace of `deviceBytes[0]` bytes from the pool and a
 * host one of `hostBytes[0]` (null where 0), as the last `_bufferSize` query left them.
 */
function withWorkspace(
  backend: CudaBackend,
  count: number,
  call: (b: number, work: bigint, workBytes: bigint, host: Uint8Array | null, hostSize: bigint) => void,
): void {
  const workBytes = deviceBytes[0]!, hostSize = hostBytes[0]!;
  const work = backend.alloc(Number(workBytes)) as DeviceAllocation;
  const host = hostSize === 0n ? null : new Uint8Array(Number(hostSize));
  try {
    for (let b = 0; b < count; b++) call(b, work.ptr, workBytes, host, hostSize);
  } finally {
    work.free();
  }
}

/** The backend's context made current and its handle set to the current stream. */
function prepare(backend: CudaBackend, what: string): SolverHandle {
  const stream = backend.streamFor(what);
  backend.context.setCurrent();
  return handleOn(backend.context, stream);
}

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

function syevd(backend: CudaBackend, job: SolverJobs["syevd"]): void {
  const { handle, params } = prepare(backend, "decompose matrices");
  const lib = libcusolver.get(), t = dataType(job.dtype), size = DTYPES[job.dtype].size;
  const [real, realSize] = realOf(job.dtype);
  const mode = job.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const uplo = job.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const n = BigInt(job.n), lda = BigInt(job.a.ld);
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
    syevd: (job) => syevd(backend, job),
  };
}
