/**
 * What the cuSOLVER jobs share: the status check and {@link CusolverError}, one handle (and one
 * `cusolverDnParams_t`) per context set to the current stream, each dtype's `cudaDataType`, the
 * addresses of a batch's matrices and vectors, and the workspaces of a call per matrix.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { SolverMatrices, SolverVectors } from "./solver.ts";
import type { BackendBuffer } from "./backend.ts";
import type { Context, DeviceAllocation, Stream } from "../cuda/mod.ts";
import { refuseWhileCapturing } from "../cuda/capturing.ts";
import { CUDA_C_32F, CUDA_C_64F, CUDA_R_32F, CUDA_R_64F } from "../../ffi/cublas.ts";
import { libcusolver } from "../../ffi/cusolver.ts";
import type { DType } from "../kernel/dtype.ts";

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

export function check(code: number, call: string): void {
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
export const dataType = (dtype: DType): number => DATA_TYPES[dtype]![0];
export const realOf = (dtype: DType): [number, number] => [DATA_TYPES[dtype]![1], DATA_TYPES[dtype]![2]];

const address = (x: BackendBuffer, elements: number, itemsize: number): bigint =>
  (x as DeviceAllocation).ptr + BigInt(elements * itemsize);

/** Matrix `b` of a batch, as a device address. */
export const matrix = (m: SolverMatrices, b: number, itemsize: number): bigint =>
  address(m.buffer, m.offset + b * m.stride, itemsize);
/** Vector `b` of a batch, as a device address. */
export const vector = (v: SolverVectors, b: number, itemsize: number): bigint =>
  address(v.buffer, v.offset + b * v.stride, itemsize);

/** A workspace query's two sizes, written by the `_bufferSize` functions. */
export const deviceBytes = new BigUint64Array(1), hostBytes = new BigUint64Array(1);

/**
 * Runs `call` once per matrix with a device workspace of `deviceBytes[0]` bytes from the pool and a
 * host one of `hostBytes[0]` (null where 0), as the last `_bufferSize` query left them.
 */
export function withWorkspace(
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
export function prepare(backend: CudaBackend, what: string): SolverHandle {
  const stream = backend.streamFor(what);
  backend.context.setCurrent();
  return handleOn(backend.context, stream);
}
