/**
 * Matrix products of 2-D arrays: cuBLAS on CUDA, a tiled kernel on OpenCL.
 *
 * @module
 */

import { GPUArray } from "./gpuarray.ts";
import type { Backend } from "./backend.ts";
import { sharesMemory } from "./gpuarray.ts";
import { copyOf } from "./loop.ts";
import type { CudaBackend } from "./cuda_backend.ts";
import { fill } from "./assign.ts";
import type { OpOptions } from "./ufunc.ts";
import { castTo, computeType, cType, literal, load, pointerParam, preamble, sharedArray } from "./codegen.ts";
import type { DType } from "../kernel/dtype.ts";
import { type Context, type DeviceAllocation, memAlloc, type Stream } from "../cuda/mod.ts";
import { capturesInProgress, refuseWhileCapturing } from "../cuda/capturing.ts";
import {
  CUBLAS_COMPUTE_32F,
  CUBLAS_DEFAULT_MATH,
  CUBLAS_GEMM_DEFAULT,
  CUBLAS_OP_N,
  CUDA_R_16BF,
  CUDA_R_16F,
  libcublas,
} from "../../ffi/cublas.ts";

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

/**
 * The workspace cuBLAS is given, as NVIDIA recommends in `cublasSetWorkspace`'s documentation (and
 * PyTorch does): 32 MiB on Hopper and later, 4 MiB before. With its own smaller default, cuBLAS may
 * pick slower algorithms for some shapes.
 */
function workspaceBytes(context: Context): number {
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

function ptr(x: GPUArray): bigint {
  return (x.buffer as DeviceAllocation).ptr;
}

/** Row-major `out = a·b` through column-major gemm: `outᵀ = bᵀ·aᵀ`, no copies. */
function cublasMatmul(backend: CudaBackend, a: GPUArray, b: GPUArray, out: GPUArray): void {
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  const stream = backend.streamFor("multiply matrices");
  backend.context.setCurrent();
  const handle = cublasHandleOn(backend.context, stream);
  const lib = libcublas.get();
  const pa = ptr(a), pb = ptr(b), pc = ptr(out);
  if (a.dtype === "float32") {
    const alpha = ONE_F32, beta = ZERO_F32;
    const code = lib.cublasSgemm_v2(
      handle,
      CUBLAS_OP_N,
      CUBLAS_OP_N,
      n,
      m,
      k,
      alpha,
      pb,
      n,
      pa,
      k,
      beta,
      pc,
      n,
    );
    check(code, "cublasSgemm_v2");
  } else if (a.dtype === "float64") {
    const alpha = ONE_F64, beta = ZERO_F64;
    const code = lib.cublasDgemm_v2(
      handle,
      CUBLAS_OP_N,
      CUBLAS_OP_N,
      n,
      m,
      k,
      alpha,
      pb,
      n,
      pa,
      k,
      beta,
      pc,
      n,
    );
    check(code, "cublasDgemm_v2");
  } else {
    const t = a.dtype === "float16" ? CUDA_R_16F : CUDA_R_16BF;
    const alpha = ONE_F32, beta = ZERO_F32;
    const code = lib.cublasGemmEx(
      handle,
      CUBLAS_OP_N,
      CUBLAS_OP_N,
      n,
      m,
      k,
      alpha,
      pb,
      t,
      n,
      pa,
      t,
      k,
      beta,
      pc,
      t,
      n,
      CUBLAS_COMPUTE_32F,
      CUBLAS_GEMM_DEFAULT,
    );
    check(code, "cublasGemmEx");
  }
}

const TILE = 16;

/** The OpenCL C source of a tiled `C = A·B` for row-major matrices of `dtype`, any M, N, K. */
function tiledSource(dtype: DType): { name: string; source: string } {
  const d = "opencl";
  const acc = computeType(dtype);
  const at = cType(acc, d);
  const name = `cudeno_matmul_${dtype}`;
  const zero = literal(0, acc, d);
  const params = [
    pointerParam(dtype, "A", d, true),
    pointerParam(dtype, "B", d, true),
    pointerParam(dtype, "C", d),
  ];
  const a = `(${at})${load("A[(long)row * K + ak]", dtype, d)}`;
  const b = `(${at})${load("B[(long)bk * N + col]", dtype, d)}`;
  const source = `${preamble([dtype, acc], d)}
__kernel __attribute__((reqd_work_group_size(${TILE}, ${TILE}, 1)))
void ${name}(${params.join(", ")}, int M, int N, int K) {
  ${sharedArray(acc, "As", TILE * TILE, d)}
  ${sharedArray(acc, "Bs", TILE * TILE, d)}
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * ${TILE} + tx;
  const int row = get_group_id(1) * ${TILE} + ty;
  ${at} sum = ${zero};
  for (int t = 0; t < K; t += ${TILE}) {
    const int ak = t + tx, bk = t + ty;
    As[ty * ${TILE} + tx] = (row < M && ak < K) ? ${a} : ${zero};
    Bs[ty * ${TILE} + tx] = (bk < K && col < N) ? ${b} : ${zero};
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < ${TILE}; k++) sum += As[ty * ${TILE} + k] * Bs[k * ${TILE} + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) C[(long)row * N + col] = ${castTo("sum", dtype, d)};
}`;
  return { name, source };
}

function tiledMatmul(backend: Backend, a: GPUArray, b: GPUArray, out: GPUArray): void {
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  const shape = { grid: [Math.ceil(n / TILE), Math.ceil(m / TILE)], block: [TILE, TILE] } as const;
  backend.kernel(`matmul:${a.dtype}`, () => tiledSource(a.dtype)).launch(shape, [
    a.buffer,
    b.buffer,
    out.buffer,
    m,
    n,
    k,
  ]);
}

const CUDA_DTYPES: readonly DType[] = ["float32", "float64", "float16", "bfloat16"];
const OPENCL_DTYPES: readonly DType[] = ["float32", "float64"];

function shapeText(x: GPUArray): string {
  return `[${x.shape.join(", ")}]`;
}

function checkOperands(a: GPUArray, b: GPUArray): void {
  if (!(a instanceof GPUArray) || !(b instanceof GPUArray)) {
    throw new TypeError("Cannot matmul a non-array: pass two GPUArrays");
  }
  if (a.ndim !== 2 || b.ndim !== 2) {
    throw new RangeError(
      `Cannot matmul arrays of shapes ${shapeText(a)} and ${
        shapeText(b)
      }: both must be 2-D; reshape them first`,
    );
  }
  if (a.shape[1] !== b.shape[0]) {
    throw new RangeError(
      `Cannot matmul arrays of shapes ${shapeText(a)} and ${shapeText(b)}: the first's columns (${
        a.shape[1]
      }) must equal the second's rows (${b.shape[0]})`,
    );
  }
  if (a.backend !== b.backend) {
    throw new TypeError(
      `Cannot matmul arrays on ${a.backend.device} and ${b.backend.device}: copy one to the other's backend first`,
    );
  }
  if (a.dtype !== b.dtype) {
    throw new TypeError(
      `Cannot matmul a ${a.dtype} and a ${b.dtype} array: the dtypes must match; convert one with astype()`,
    );
  }
  const supported = a.backend.name === "cuda" ? CUDA_DTYPES : OPENCL_DTYPES;
  if (!supported.includes(a.dtype)) {
    throw new TypeError(
      `Cannot matmul ${a.dtype} arrays on ${a.backend.device}: it multiplies ${
        supported.join(", ")
      } matrices; convert with astype("float32")`,
    );
  }
  for (const extent of [...a.shape, b.shape[1]!]) {
    if (extent > 2 ** 31 - 1) {
      throw new RangeError(
        `Cannot matmul arrays of shapes ${shapeText(a)} and ${shapeText(b)}: every extent must be below 2^31`,
      );
    }
  }
}

function outputFor(a: GPUArray, b: GPUArray, out: GPUArray | undefined): GPUArray {
  const shape = [a.shape[0]!, b.shape[1]!];
  if (out === undefined) return new GPUArray(a.backend, shape, a.dtype);
  if (!(out instanceof GPUArray)) {
    throw new TypeError("Cannot matmul into a non-array: pass a GPUArray as out");
  }
  if (out.ndim !== 2 || out.shape[0] !== shape[0] || out.shape[1] !== shape[1]) {
    throw new RangeError(
      `Cannot matmul into an array of shape ${shapeText(out)}: the product has shape [${shape.join(", ")}]`,
    );
  }
  if (out.dtype !== a.dtype) {
    throw new TypeError(`Cannot matmul into a ${out.dtype} array: the product is ${a.dtype}`);
  }
  if (out.backend !== a.backend) {
    throw new TypeError(
      `Cannot matmul into an array on ${out.backend.device}: the inputs are on ${a.backend.device}`,
    );
  }
  if (sharesMemory(out, a) || sharesMemory(out, b)) {
    throw new TypeError(
      "Cannot matmul into an input's memory: pass an out array that shares no memory with a or b",
    );
  }
  return out;
}

/**
 * The matrix product of two 2-D arrays, `C[M×N] = A[M×K]·B[K×N]` (row-major, like NumPy's `a @ b`),
 * in the inputs' dtype.
 *
 * On CUDA it runs on cuBLAS: `cublasSgemm` for float32 in the default math mode (full float32, no
 * TF32; like PyTorch with `allow_tf32 = False`), `cublasDgemm` for float64, and `cublasGemmEx` for
 * float16 and bfloat16 with float accumulation. On OpenCL a tiled kernel computes float32 and
 * float64 products (float64 where the device has it).
 *
 * @param a The left matrix, `[M, K]`.
 * @param b The right matrix, `[K, N]`, of the same dtype and backend.
 * @param options `out`: an `[M, N]` array of the same dtype to write into (it must not share memory
 *   with `a` or `b`).
 * @throws {RangeError} when an array is not 2-D or the inner dimensions differ.
 * @throws {TypeError} for mixed dtypes or backends, or a dtype the backend cannot multiply.
 * @throws {CublasError} when cuBLAS fails.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.toGpu(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]);
 * const b = ga.toGpu(new Float32Array([1, 0, 0, 1, 1, 1]), [3, 2]);
 * console.log(ga.matmul(a, b).get()); // Float32Array [4, 5, 10, 11]
 * ```
 */
export function matmul<D extends DType>(
  a: GPUArray<D>,
  b: GPUArray<D>,
  options: OpOptions = {},
): GPUArray<D> {
  checkOperands(a, b);
  const out = outputFor(a, b, options.out);
  if (out.size === 0) return out as GPUArray<D>;
  if (a.shape[1] === 0) return fill(out, 0) as GPUArray<D>;
  // The kernels read and write whole matrices from the start of their memory.
  const flat = (x: GPUArray) => (x.isContiguous && x.offset === 0 ? x : copyOf(x));
  const x = flat(a), y = flat(b), z = flat(out);
  if (a.backend.name === "cuda") cublasMatmul(a.backend as CudaBackend, x, y, z);
  else tiledMatmul(a.backend, x, y, z);
  if (z !== out) out.assign(z);
  for (const t of [x, y, z]) if (t !== a && t !== b && t !== out) t.free();
  return out as GPUArray<D>;
}
