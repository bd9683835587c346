/**
 * Matrix products on cuBLAS: one handle per context (with NVIDIA's recommended workspace, TF32 off),
 * and a {@link Gemm} run as one plain gemm or one `cublasGemmStridedBatchedEx`. Arrays are row-major
 * and cuBLAS is column-major, so `C = A·B` runs as `Cᵀ = Bᵀ·Aᵀ`: a row-major operand is handed over
 * as it is (`CUBLAS_OP_N`), a column-major one (a transposed view, a Fortran-ordered array) as
 * `CUBLAS_OP_T` with its own leading dimension, neither copied.
 *
 * @module
 */

import type { Blas } from "./backend.ts";
import type { CudaBackend } from "./cuda.ts";
import { blasLayout, type Gemm, type GemmOperand } from "./gemm.ts";
import { type Context, type DeviceAllocation, memAlloc, type Stream } from "../cuda/mod.ts";
import { capturesInProgress, refuseWhileCapturing } from "../cuda/capturing.ts";
import {
  CUBLAS_COMPUTE_32F,
  CUBLAS_COMPUTE_64F,
  CUBLAS_DEFAULT_MATH,
  CUBLAS_GEMM_DEFAULT,
  CUBLAS_OP_N,
  CUBLAS_OP_T,
  CUDA_C_32F,
  CUDA_C_64F,
  CUDA_R_16BF,
  CUDA_R_16F,
  CUDA_R_32F,
  CUDA_R_64F,
  libcublas,
} from "../../ffi/cublas.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";

/** `cublasStatus_t` names (cublas_api.h). */
const STATUS_NAMES: Record<number, string> = {
  1: "CUBLAS_STATUS_NOT_INITIALIZED",
  3: "CUBLAS_STATUS_ALLOC_FAILED",
  7: "CUBLAS_STATUS_INVALID_VALUE",
  8: "CUBLAS_STATUS_ARCH_MISMATCH",
  11: "CUBLAS_STATUS_MAPPING_ERROR",
  13: "CUBLAS_STATUS_EXECUTION_FAILED",
  14: "CUBLAS_STATUS_INTERNAL_ERROR",
  15: "CUBLAS_STATUS_NOT_SUPPORTED",
  16: "CUBLAS_STATUS_LICENSE_ERROR",
};

/**
 * A cuBLAS call failed.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * try {
 *   ga.matmul(ga.ones([2, 3]), ga.ones([3, 2]));
 * } catch (e) {
 *   if (e instanceof ga.CublasError) console.error(e.code, e.call, e.message);
 * }
 * ```
 */
export class CublasError extends Error {
  /** The `cublasStatus_t` value. */
  readonly code: number;
  /** The cuBLAS function that returned it, `cublasSgemm_v2`. */
  readonly call: string;

  /** Builds the error from cuBLAS's own description of `code`. */
  constructor(code: number, call: string) {
    const name = STATUS_NAMES[code] ?? `cublasStatus_t ${code}`;
    const text = libcublas.get().cublasGetStatusString(code);
    const description = text === null ? undefined : Deno.UnsafePointerView.getCString(text);
    super(
      `${call} failed: ${name}${
        description === undefined || description === name ? "" : ` (${description})`
      }`,
    );
    this.name = "CublasError";
    this.code = code;
    this.call = call;
  }
}

function check(code: number, call: string): void {
  if (code !== 0) throw new CublasError(code, call);
}

/** The dtypes cuBLAS multiplies here (the others go to the tiled kernel). */
export const CUBLAS_DTYPES: readonly DType[] = [
  "float32",
  "float64",
  "float16",
  "bfloat16",
  "complex64",
  "complex128",
];

/**
 * The workspace cuBLAS is given, as NVIDIA recommends in `cublasSetWorkspace`'s documentation (and
 * PyTorch does): 32 MiB on Hopper and later, 4 MiB before. With its own smaller default, cuBLAS may
 * pick slower algorithms for some shapes.
 */
export function workspaceBytes(context: Context): number {
  return context.device.computeCapability[0] >= 9 ? 32 * 2 ** 20 : 4 * 2 ** 20;
}

/** One cuBLAS handle per context, remade after a reset (the old one died with the context). */
const handles = new WeakMap<Context, CublasHandle>();

/** A context's cuBLAS handle, the stream it is set to, and a workspace per stream. */
interface CublasHandle {
  readonly handle: Deno.PointerObject;
  readonly generation: number;
  readonly workspace: DeviceAllocation;
  /** The stream the handle is set to with a workspace of its own; null when it has none. */
  stream?: Stream | null;
  readonly workspaces: WeakMap<Stream, DeviceAllocation>;
}

function cublasHandle(context: Context): Deno.PointerObject {
  const known = handles.get(context);
  if (known !== undefined && known.generation === context.generation) return known.handle;
  refuseWhileCapturing(
    "set cuBLAS up for a first matrix product",
    "run one matmul before the capture begins",
  );
  const lib = libcublas.get();
  const out = new BigUint64Array(1);
  check(lib.cublasCreate_v2(out), "cublasCreate_v2");
  const handle = Deno.UnsafePointer.create(out[0]!)!;
  check(lib.cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  const bytes = workspaceBytes(context);
  const workspace = memAlloc(bytes);
  check(lib.cublasSetWorkspace_v2(handle, workspace.ptr, BigInt(bytes)), "cublasSetWorkspace_v2");
  handles.set(context, { handle, generation: context.generation, workspace, workspaces: new WeakMap() });
  return handle;
}

/**
 * The context's handle set to `stream` (`cublasSetStream_v2`; undefined: the legacy default stream),
 * and then to a workspace again, which setting a stream resets (cuBLAS documents it): one per stream,
 * since work on two streams may run at once (PyTorch keeps one per stream too). A stream first seen
 * during a capture, where nothing may be allocated, keeps cuBLAS's own workspace pool (allocated in
 * stream order since cuBLAS 12.2).
 */
function cublasHandleOn(context: Context, stream: Stream | undefined): Deno.PointerObject {
  const handle = cublasHandle(context);
  const known = handles.get(context)!;
  if (known.stream === stream) return handle;
  const lib = libcublas.get();
  check(lib.cublasSetStream_v2(handle, stream?.unsafeHandle ?? null), "cublasSetStream_v2");
  let workspace = stream === undefined ? known.workspace : known.workspaces.get(stream);
  if (workspace === undefined && capturesInProgress === 0) {
    workspace = memAlloc(known.workspace.size);
    known.workspaces.set(stream!, workspace);
  }
  if (workspace !== undefined) {
    check(lib.cublasSetWorkspace_v2(handle, workspace.ptr, BigInt(workspace.size)), "cublasSetWorkspace_v2");
  }
  known.stream = workspace === undefined ? null : stream;
  return handle;
}

/** The scaling factors of every product, `alpha = 1` and `beta = 0`, made once. */
const ONE_F32 = new Float32Array([1]), ZERO_F32 = new Float32Array([0]);
const ONE_F64 = new Float64Array([1]), ZERO_F64 = new Float64Array([0]);
const ONE_C64 = new Float32Array([1, 0]), ZERO_C64 = new Float32Array([0, 0]);
const ONE_C128 = new Float64Array([1, 0]), ZERO_C128 = new Float64Array([0, 0]);

/**
 * What a product of `dtype` computes in: cuBLAS's compute type, the type of alpha and beta, and
 * alpha = 1 and beta = 0 of that type (complex pairs for the complex dtypes).
 */
export function scaling(
  dtype: DType,
): { compute: number; scale: number; alpha: BufferSource; beta: BufferSource } {
  if (dtype === "float64") {
    return { compute: CUBLAS_COMPUTE_64F, scale: CUDA_R_64F, alpha: ONE_F64, beta: ZERO_F64 };
  }
  if (dtype === "complex64") {
    return { compute: CUBLAS_COMPUTE_32F, scale: CUDA_C_32F, alpha: ONE_C64, beta: ZERO_C64 };
  }
  if (dtype === "complex128") {
    return { compute: CUBLAS_COMPUTE_64F, scale: CUDA_C_64F, alpha: ONE_C128, beta: ZERO_C128 };
  }
  return { compute: CUBLAS_COMPUTE_32F, scale: CUDA_R_32F, alpha: ONE_F32, beta: ZERO_F32 };
}

/** The device address of `x`'s first element. */
export function pointer(x: GemmOperand, itemsize: number): bigint {
  return (x.buffer as DeviceAllocation).ptr + BigInt(x.offset * itemsize);
}

/**
 * A {@link Gemm} as cuBLAS's column-major call sees it. Row-major `C = A·B` is column-major
 * `Cᵀ = Bᵀ·Aᵀ`, so cuBLAS's first factor `A` is our `B` (its `m` our `n`) and its second our `A`; a
 * row-major operand is the transpose cuBLAS wants as it is (`CUBLAS_OP_N`), a column-major one must be
 * transposed (`CUBLAS_OP_T`).
 */
export interface CublasCall {
  /** `CUBLAS_OP_N` or `CUBLAS_OP_T` for the first factor, then for the second. */
  readonly transa: number;
  readonly transb: number;
  /** The column-major extents: `m = n`, `n = m`, `k = k` of the {@link Gemm}. */
  readonly m: number;
  readonly n: number;
  readonly k: number;
  /** The first factor (our B), the second (our A), the product. */
  readonly first: GemmOperand;
  readonly second: GemmOperand;
  readonly c: GemmOperand;
  /** Their leading dimensions. */
  readonly lda: number;
  readonly ldb: number;
  readonly ldc: number;
}

function layoutOf(x: GemmOperand, rows: number, cols: number): { op: number; ld: number } {
  const layout = blasLayout(rows, cols, x.row, x.col);
  if (layout === undefined) throw new Error("cudeno internal error: an operand cuBLAS cannot read");
  return { op: layout.transposed ? CUBLAS_OP_T : CUBLAS_OP_N, ld: layout.ld };
}

/** The call that runs `g`. Its operands must be ones {@link blasLayout} accepts, C row-major. */
export function cublasCall(g: Gemm): CublasCall {
  const first = layoutOf(g.b, g.k, g.n), second = layoutOf(g.a, g.m, g.k), c = layoutOf(g.c, g.m, g.n);
  if (c.op !== CUBLAS_OP_N) throw new Error("cudeno internal error: a column-major product for cuBLAS");
  return {
    transa: first.op,
    transb: second.op,
    m: g.n,
    n: g.m,
    k: g.k,
    first: g.b,
    second: g.a,
    c: g.c,
    lda: first.ld,
    ldb: second.ld,
    ldc: c.ld,
  };
}

/** The `cudaDataType` of each dtype cuBLAS multiplies. */
export const DATA_TYPE: Partial<Record<DType, number>> = {
  float32: CUDA_R_32F,
  float64: CUDA_R_64F,
  float16: CUDA_R_16F,
  bfloat16: CUDA_R_16BF,
  complex64: CUDA_C_32F,
  complex128: CUDA_C_64F,
};

/**
 * Runs `g` on cuBLAS ({@link cublasCall}): `cublasSgemm_v2` / `cublasDgemm_v2` / `cublasGemmEx` for
 * one product, `cublasGemmStridedBatchedEx` for a batch (a batch stride of 0 repeats one matrix, which
 * cuBLAS allows for A and B).
 *
 * @throws {CublasError} when cuBLAS fails.
 */
function cublasGemm(backend: CudaBackend, g: Gemm): void {
  const call = cublasCall(g);
  backend.context.setCurrent();
  const stream = backend.streamFor("multiply matrices");
  const handle = cublasHandleOn(backend.context, stream);
  const lib = libcublas.get();
  const size = DTYPES[g.dtype].size;
  const pa = pointer(call.first, size), pb = pointer(call.second, size), pc = pointer(call.c, size);
  const double = g.dtype === "float64";
  const { alpha, beta, compute } = scaling(g.dtype);
  const t = DATA_TYPE[g.dtype]!;
  const { transa, transb, m, n, k, lda, ldb, ldc } = call;
  if (g.batch > 1) {
    const code = lib.cublasGemmStridedBatchedEx(
      handle,
      transa,
      transb,
      m,
      n,
      k,
      alpha,
      pa,
      t,
      lda,
      BigInt(call.first.batch),
      pb,
      t,
      ldb,
      BigInt(call.second.batch),
      beta,
      pc,
      t,
      ldc,
      BigInt(call.c.batch),
      g.batch,
      compute,
      CUBLAS_GEMM_DEFAULT,
    );
    check(code, "cublasGemmStridedBatchedEx");
  } else if (g.dtype === "float32") {
    const code = lib.cublasSgemm_v2(handle, transa, transb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc);
    check(code, "cublasSgemm_v2");
  } else if (double) {
    const code = lib.cublasDgemm_v2(handle, transa, transb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc);
    check(code, "cublasDgemm_v2");
  } else {
    const code = lib.cublasGemmEx(
      handle,
      transa,
      transb,
      m,
      n,
      k,
      alpha,
      pa,
      t,
      lda,
      pb,
      t,
      ldb,
      beta,
      pc,
      t,
      ldc,
      compute,
      CUBLAS_GEMM_DEFAULT,
    );
    check(code, "cublasGemmEx");
  }
}

/**
 * cuBLAS as the CUDA backend's {@link Blas}: the float dtypes, and {@link Gemm}s run on the backend's
 * context and current stream.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const blas = ga.zeros(1).backend.blas; // cuBLAS on CUDA, undefined on OpenCL
 * console.log(blas?.dtypes);
 * ```
 */
export function cublasOf(backend: CudaBackend): Blas {
  return { dtypes: CUBLAS_DTYPES, gemm: (g) => cublasGemm(backend, g) };
}
