/**
 * Matrix products on cuBLASLt, with cuBLAS behind them. `cublasLtMatmul` takes the algorithm as an
 * argument, so the heuristic (`cublasLtMatmulAlgoGetHeuristic`) runs once per product shape (dtype,
 * operations, extents, leading dimensions, batch and its strides, the operands' address alignment,
 * epilogue, workspace) and its best algorithm is kept with the descriptors, as PyTorch does; each later
 * product of that shape is one call. The call reads the {@link Gemm} as cuBLAS does ({@link cublasCall}:
 * row-major `C = A·B` as column-major `Cᵀ = Bᵀ·Aᵀ`), on the backend's context and current stream, with
 * a workspace of its own per stream from the stream-ordered pool (32 MiB on Hopper, as cuBLAS is given).
 * float32 is multiplied in float32 (`CUBLAS_COMPUTE_32F`: no TF32), float64 in float64, float16 and
 * bfloat16 with float accumulation.
 *
 * Where cuBLASLt cannot run a product (the library is missing, its heuristic has no algorithm for
 * it, or its first use comes during a stream capture) the product goes to cuBLAS.
 *
 * @module
 */

import type { Blas } from "./backend.ts";
import type { CudaBackend } from "./cuda.ts";
import type { Epilogue, Gemm, GemmEpilogue } from "./gemm.ts";
import {
  CUBLAS_DTYPES,
  type CublasCall,
  cublasCall,
  CublasError,
  cublasOf,
  DATA_TYPE,
  pointer,
  scaling,
  workspaceBytes,
} from "./cublas.ts";
import { type Context, type DeviceAllocation, memAllocAsync, type Stream } from "../cuda/mod.ts";
import { capturesInProgress } from "../cuda/capturing.ts";
import { CUBLAS_OP_N } from "../../ffi/cublas.ts";
import {
  ALGO_BYTES,
  CUBLASLT_EPILOGUE_BIAS,
  CUBLASLT_EPILOGUE_DEFAULT,
  CUBLASLT_EPILOGUE_GELU,
  CUBLASLT_EPILOGUE_GELU_BIAS,
  CUBLASLT_EPILOGUE_RELU,
  CUBLASLT_EPILOGUE_RELU_BIAS,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER,
  CUBLASLT_MATMUL_DESC_EPILOGUE,
  CUBLASLT_MATMUL_DESC_TRANSA,
  CUBLASLT_MATMUL_DESC_TRANSB,
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
  HEURISTIC_RESULT_BYTES,
  HEURISTIC_STATE_OFFSET,
  libcublasLt,
} from "../../ffi/cublaslt.ts";
import { DTYPES } from "../kernel/dtype.ts";

/** Shapes whose plans are kept per context; past it the oldest plan is destroyed. */
const PLANS_KEPT = 1024;

const EPILOGUES: Record<Epilogue, number> = {
  bias: CUBLASLT_EPILOGUE_BIAS,
  relu: CUBLASLT_EPILOGUE_RELU,
  gelu: CUBLASLT_EPILOGUE_GELU,
  biasRelu: CUBLASLT_EPILOGUE_RELU_BIAS,
  biasGelu: CUBLASLT_EPILOGUE_GELU_BIAS,
};

function check(code: number, call: string): void {
  if (code !== 0) throw new CublasError(code, call);
}

/** A product shape's descriptors and the heuristic's best algorithm for it. */
interface LtPlan {
  readonly desc: Deno.PointerObject;
  /** The layouts of cuBLAS's first factor (our B), second factor (our A), and of C (also D). */
  readonly first: Deno.PointerObject;
  readonly second: Deno.PointerObject;
  readonly c: Deno.PointerObject;
  /** The `cublasLtMatmulAlgo_t`. */
  readonly algo: Uint8Array;
}

/** A context's cuBLASLt handle, its plans (null: no algorithm, cuBLAS runs it) and workspaces. */
interface LtState {
  readonly handle: Deno.PointerObject;
  readonly generation: number;
  readonly plans: Map<string, LtPlan | null>;
  /** The legacy default stream's workspace, then each stream's. */
  legacy?: DeviceAllocation;
  readonly workspaces: WeakMap<Stream, DeviceAllocation>;
}

const states = new WeakMap<Context, LtState>();

/** Whether cuBLASLt loads, asked once. */
let loads: boolean | undefined;

/**
 * The context's cuBLASLt state, made on first use; undefined where cuBLASLt does not load, or when
 * its first use comes during a capture (the products then go to cuBLAS, which says what to do).
 */
function ltState(context: Context): LtState | undefined {
  const known = states.get(context);
  if (known !== undefined && known.generation === context.generation) return known;
  loads ??= libcublasLt.available();
  if (!loads || capturesInProgress !== 0) return undefined;
  const out = new BigUint64Array(1);
  check(libcublasLt.get().cublasLtCreate(out), "cublasLtCreate");
  const state: LtState = {
    handle: Deno.UnsafePointer.create(out[0]!)!,
    generation: context.generation,
    plans: new Map(),
    workspaces: new WeakMap(),
  };
  states.set(context, state);
  return state;
}

/**
 * The workspace of `stream` (undefined: the legacy default stream), taken from the pool on its first
 * product; none for a stream first seen during a capture, where nothing may be allocated (its
 * products then get algorithms that need no workspace).
 */
function workspaceOn(
  state: LtState,
  context: Context,
  stream: Stream | undefined,
): DeviceAllocation | undefined {
  const known = stream === undefined ? state.legacy : state.workspaces.get(stream);
  if (known !== undefined || capturesInProgress !== 0) return known;
  const made = memAllocAsync(workspaceBytes(context), stream);
  if (stream === undefined) state.legacy = made;
  else state.workspaces.set(stream, made);
  return made;
}

/** Values for the attribute setters, reused (each call reads its value at once). */
const i32 = new Int32Array(1),
  u32 = new Uint32Array(1),
  i64 = new BigInt64Array(1),
  u64 = new BigUint64Array(1);
const handleOut = new BigUint64Array(1);

/** The handle a `cublasLt*Create` wrote into {@link handleOut}. */
function created(code: number, call: string): Deno.PointerObject {
  check(code, call);
  return Deno.UnsafePointer.create(handleOut[0]!)!;
}

/** The address's alignment in bytes, up to the 256 cuBLASLt asks about. */
function alignment(address: bigint): number {
  const low = Number(address & 255n);
  return low === 0 ? 256 : low & -low;
}

/** A layout of `rows × cols` (column-major, leading dimension `ld`), `batch` of them `stride` apart. */
function layout(type: number, rows: number, cols: number, ld: number, batch: number, stride: number) {
  const lib = libcublasLt.get();
  const made = created(
    lib.cublasLtMatrixLayoutCreate(handleOut, type, BigInt(rows), BigInt(cols), BigInt(ld)),
    "cublasLtMatrixLayoutCreate",
  );
  if (batch > 1) {
    try {
      i32[0] = batch;
      check(
        lib.cublasLtMatrixLayoutSetAttribute(made, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, i32, 4n),
        "cublasLtMatrixLayoutSetAttribute",
      );
      i64[0] = BigInt(stride);
      check(
        lib.cublasLtMatrixLayoutSetAttribute(made, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, i64, 8n),
        "cublasLtMatrixLayoutSetAttribute",
      );
    } catch (e) {
      lib.cublasLtMatrixLayoutDestroy(made);
      throw e;
    }
  }
  return made;
}

function destroy(plan: Partial<LtPlan>): void {
  const lib = libcublasLt.get();
  if (plan.desc) lib.cublasLtMatmulDescDestroy(plan.desc);
  for (const l of [plan.first, plan.second, plan.c]) if (l) lib.cublasLtMatrixLayoutDestroy(l);
}

/** What the heuristic is asked about beside the call itself. */
interface Ask {
  readonly epilogue: number;
  /** The bias's address (only its alignment matters to the heuristic). */
  readonly bias: bigint | undefined;
  /** The alignments of cuBLAS's first and second factor and of C. */
  readonly align: readonly [number, number, number];
  readonly workspace: number;
}

/**
 * The descriptors of `call` and the heuristic's best algorithm for it, or null where the heuristic
 * has none.
 *
 * @throws {CublasError} when cuBLASLt fails otherwise.
 */
function makePlan(state: LtState, g: Gemm, call: CublasCall, ask: Ask): LtPlan | null {
  const lib = libcublasLt.get();
  const t = DATA_TYPE[g.dtype]!, { compute, scale } = scaling(g.dtype);
  const parts: { -readonly [K in keyof LtPlan]?: LtPlan[K] } = {};
  try {
    const desc = parts.desc = created(
      lib.cublasLtMatmulDescCreate(handleOut, compute, scale),
      "cublasLtMatmulDescCreate",
    );
    const setDesc = (attr: number, value: Int32Array | Uint32Array | BigUint64Array) =>
      check(
        lib.cublasLtMatmulDescSetAttribute(desc, attr, value, BigInt(value.byteLength)),
        "cublasLtMatmulDescSetAttribute",
      );
    i32[0] = call.transa;
    setDesc(CUBLASLT_MATMUL_DESC_TRANSA, i32);
    i32[0] = call.transb;
    setDesc(CUBLASLT_MATMUL_DESC_TRANSB, i32);
    if (ask.epilogue !== CUBLASLT_EPILOGUE_DEFAULT) {
      u32[0] = ask.epilogue;
      setDesc(CUBLASLT_MATMUL_DESC_EPILOGUE, u32);
    }
    if (ask.bias !== undefined) {
      u64[0] = ask.bias;
      setDesc(CUBLASLT_MATMUL_DESC_BIAS_POINTER, u64);
    }
    const { m, n, k, transa, transb } = call;
    const normal = (op: number) => op === CUBLAS_OP_N;
    parts.first = layout(
      t,
      normal(transa) ? m : k,
      normal(transa) ? k : m,
      call.lda,
      g.batch,
      call.first.batch,
    );
    parts.second = layout(
      t,
      normal(transb) ? k : n,
      normal(transb) ? n : k,
      call.ldb,
      g.batch,
      call.second.batch,
    );
    parts.c = layout(t, m, n, call.ldc, g.batch, call.c.batch);
    const algo = heuristic(state, parts as LtPlan, ask);
    if (algo === null) {
      destroy(parts);
      return null;
    }
    return { ...(parts as LtPlan), algo };
  } catch (e) {
    destroy(parts);
    throw e;
  }
}

/** The heuristic's best algorithm for the plan's descriptors, or null where it has none. */
function heuristic(state: LtState, plan: Omit<LtPlan, "algo">, ask: Ask): Uint8Array | null {
  const lib = libcublasLt.get();
  const pref = created(lib.cublasLtMatmulPreferenceCreate(handleOut), "cublasLtMatmulPreferenceCreate");
  try {
    const setPref = (attr: number, value: Uint32Array | BigUint64Array) =>
      check(
        lib.cublasLtMatmulPreferenceSetAttribute(pref, attr, value, BigInt(value.byteLength)),
        "cublasLtMatmulPreferenceSetAttribute",
      );
    u64[0] = BigInt(ask.workspace);
    setPref(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, u64);
    const [first, second, c] = ask.align;
    for (
      const [attr, bytes] of [
        [CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, first],
        [CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, second],
        [CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, c],
        [CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, c],
      ] as const
    ) {
      u32[0] = bytes;
      setPref(attr, u32);
    }
    const result = new Uint8Array(HEURISTIC_RESULT_BYTES), count = new Int32Array(1);
    const code = lib.cublasLtMatmulAlgoGetHeuristic(
      state.handle,
      plan.desc,
      plan.first,
      plan.second,
      plan.c,
      plan.c,
      pref,
      1,
      result,
      count,
    );
    // No algorithm (CUBLAS_STATUS_NOT_SUPPORTED), or a layout this version refuses: cuBLAS runs it.
    if (code !== 0) return null;
    const status = new DataView(result.buffer).getInt32(HEURISTIC_STATE_OFFSET, true);
    return count[0]! < 1 || status !== 0 ? null : result.slice(0, ALGO_BYTES);
  } finally {
    lib.cublasLtMatmulPreferenceDestroy(pref);
  }
}

/** Options of {@link ltMatmul}. */
export interface LtOptions {
  /** Applied to each element before it is stored, with its bias (none by default). */
  readonly epilogue?: GemmEpilogue;
}

/**
 * Runs `g` on cuBLASLt, on the backend's context and current stream, with the heuristic's best
 * algorithm for its shape (chosen on its first product, then kept), and `options.epilogue` applied
 * to each element. Says whether it ran: false (nothing queued) where cuBLASLt is missing, has no
 * algorithm for the product, or is first used during a capture; the caller then runs it otherwise.
 * `g` must be laid out as for cuBLAS (`blasLayout`, C row-major); a bias runs along C's columns.
 *
 * @throws {CublasError} when cuBLASLt fails.
 * @example
 * ```ts ignore
 * import * as ga from "@cudeno/cudeno/array";
 * import { ltMatmul } from "./cublaslt.ts";
 * import type { CudaBackend } from "./cuda.ts";
 * import type { Gemm } from "./gemm.ts";
 * const [a, b, c, bias] = [ga.ones([2, 3]), ga.ones([3, 4]), ga.empty([2, 4]), ga.ones([4])];
 * const op = (x: ga.GPUArray) => ({ buffer: x.buffer, offset: 0, batch: 0, row: x.shape[1]!, col: 1 });
 * const g: Gemm = { dtype: "float32", batch: 1, m: 2, n: 4, k: 3, a: op(a), b: op(b), c: op(c) };
 * const epilogue = { epilogue: "biasRelu" as const, bias: { buffer: bias.buffer, offset: 0 } };
 * ltMatmul(a.backend as CudaBackend, g, { epilogue }); // c is 4 everywhere
 * ```
 */
export function ltMatmul(backend: CudaBackend, g: Gemm, options: LtOptions = {}): boolean {
  const context = backend.context;
  context.setCurrent();
  const stream = backend.streamFor("multiply matrices");
  const state = ltState(context);
  if (state === undefined) return false;
  const call = cublasCall(g);
  const size = DTYPES[g.dtype].size;
  const pa = pointer(call.first, size), pb = pointer(call.second, size), pc = pointer(call.c, size);
  const e = options.epilogue;
  const epilogue = e === undefined ? CUBLASLT_EPILOGUE_DEFAULT : EPILOGUES[e.epilogue];
  const bias = e?.bias === undefined
    ? undefined
    : (e.bias.buffer as DeviceAllocation).ptr + BigInt(e.bias.offset * size);
  const workspace = workspaceOn(state, context, stream);
  const wsBytes = workspace?.size ?? 0;
  const align = [alignment(pa), alignment(pb), alignment(pc)] as const;
  const key =
    `${g.dtype} ${call.transa}${call.transb} ${call.m} ${call.n} ${call.k} ${call.lda} ${call.ldb} ${call.ldc} ${g.batch} ${call.first.batch} ${call.second.batch} ${call.c.batch} ${
      align.join(",")
    } ${epilogue} ${bias === undefined ? 0 : alignment(bias)} ${wsBytes}`;
  let plan = state.plans.get(key);
  if (plan === undefined) {
    plan = makePlan(state, g, call, { epilogue, bias, align, workspace: wsBytes });
    if (state.plans.size >= PLANS_KEPT) {
      const [oldest, dropped] = state.plans.entries().next().value!;
      state.plans.delete(oldest);
      if (dropped !== null) destroy(dropped);
    }
    state.plans.set(key, plan);
  }
  if (plan === null) return false;
  const lib = libcublasLt.get();
  if (bias !== undefined) {
    u64[0] = bias;
    check(
      lib.cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, u64, 8n),
      "cublasLtMatmulDescSetAttribute",
    );
  }
  const { alpha, beta } = scaling(g.dtype);
  const code = lib.cublasLtMatmul(
    state.handle,
    plan.desc,
    alpha,
    pa,
    plan.first,
    pb,
    plan.second,
    beta,
    pc,
    plan.c,
    pc,
    plan.c,
    plan.algo,
    workspace?.ptr ?? 0n,
    BigInt(wsBytes),
    stream?.unsafeHandle ?? null,
  );
  check(code, "cublasLtMatmul");
  return true;
}

/**
 * Gives `stream` its cuBLASLt workspace now, before a capture on it begins (`Backend.record`), so
 * that the products recorded there may use algorithms that need one. Nothing where cuBLASLt does not
 * load.
 */
export function prepareLtStream(backend: CudaBackend, stream: Stream): void {
  const context = backend.context;
  const state = ltState(context);
  if (state !== undefined) workspaceOn(state, context, stream);
}

/**
 * The CUDA backend's {@link Blas}: each product on cuBLASLt ({@link ltMatmul}), else on cuBLAS; the
 * epilogues on cuBLASLt alone, except float64's GELU, which cuBLASLt does not compute to double
 * precision (the caller applies it).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const blas = ga.zeros(1).backend.blas; // on CUDA; undefined on OpenCL
 * console.log(blas?.gemmEpilogue !== undefined);
 * ```
 */
export function cublasLtOf(backend: CudaBackend): Blas {
  const cublas = cublasOf(backend);
  return {
    dtypes: CUBLAS_DTYPES,
    gemm: (g) => {
      if (!ltMatmul(backend, g)) cublas.gemm(g);
    },
    // 1.5e-9 off in float64 on an H200, where the elementwise GELU is exact to a few ulp.
    gemmEpilogue: (g, epilogue) =>
      !(g.dtype === "float64" && /gelu/i.test(epilogue.epilogue)) && ltMatmul(backend, g, { epilogue }),
  };
}
