/**
 * `matmul` with NumPy's rules: a 1-D operand is a row vector on the left and a column vector on the
 * right (its axis dropped from the result), dimensions before the last two are a batch that
 * broadcasts, mixed dtypes promote (NumPy's `result_type`). Arrays of any layout become one
 * {@link Gemm}: on CUDA, cuBLASLt (cuBLAS behind it) for the float dtypes (row- or column-major
 * operands read in place, a broadcast batch at stride 0, other views copied first), the tiled kernel for integers and bools; on
 * OpenCL, the tiled kernel, which reads any strides.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, sharesMemory } from "../core/gpuarray.ts";
import { broadcastShapes, broadcastStrides, showShape } from "../core/layout.ts";
import { type ResultType, resultType } from "../core/dtypes.ts";
import { copyOf } from "../exec/loop.ts";
import { assign, astype, fill } from "./assign.ts";
import { type OpOptions, outputFor } from "./ufunc.ts";
import { broadcastTo, expandDims } from "./views.ts";
import { blasLayout, type Gemm, type GemmOperand, transposed } from "../../device/gemm.ts";
import { tiledGemm } from "../exec/matmul_kernel.ts";
import { conjugated, record, refuseTrackedWrite, type VjpContext } from "../grad/tape.ts";
import { checkOptions } from "../../kernel/options.ts";

const INT_MAX = 2 ** 31 - 1;

/**
 * The one stride that steps through a batch of `shape` as through one flattened axis, or undefined
 * where the strides do not (a batch broadcast along some of its axes but not all).
 */
function batchStride(shape: readonly number[], strides: readonly number[]): number | undefined {
  let step: number | undefined, inner = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] === 1) continue;
    if (step === undefined) step = strides[d]!;
    else if (strides[d] !== step * inner) return undefined;
    inner *= shape[d]!;
  }
  return step ?? 0;
}

/** `x` (matrices in its last two axes) broadcast over `batch` as a {@link GemmOperand}, if one stride steps its batch. */
function operandOf(x: GPUArray, batch: readonly number[]): GemmOperand | undefined {
  const nb = batch.length;
  if (nb === 0) {
    const [row, col] = x.strides.slice(-2) as [number, number];
    return { buffer: x.buffer, offset: x.offset, batch: 0, row, col };
  }
  const strides = broadcastStrides(x, [...batch, ...x.shape.slice(-2)], "matmul");
  const step = batchStride(batch, strides.slice(0, nb));
  if (step === undefined) return undefined;
  return { buffer: x.buffer, offset: x.offset, batch: step, row: strides[nb]!, col: strides[nb + 1]! };
}

function readsInPlace(x: GemmOperand, rows: number, cols: number): boolean {
  return x.batch >= 0 && blasLayout(rows, cols, x.row, x.col) !== undefined;
}

/**
 * The products as one batch of `rows·batch` rows where B is the same matrix throughout and A's and
 * C's matrices follow each other row after row (`[64, 128, 256] @ [256, 32]` is one 8192×256 product).
 */
function folded(g: Gemm, cublas: boolean): Gemm {
  if (g.batch === 1 || g.b.batch !== 0) return g;
  const stack = (x: GemmOperand): GemmOperand | undefined => {
    const row = g.m === 1 ? x.batch : x.row;
    return x.batch === g.m * row ? { ...x, batch: 0, row } : undefined;
  };
  const a = stack(g.a), c = stack(g.c);
  if (a === undefined || c === undefined) return g;
  const m = g.m * g.batch;
  if (m > INT_MAX) return g;
  const f: Gemm = { ...g, batch: 1, m, a, c };
  if (cublas && !(readsInPlace(a, m, g.k) && blasLayout(m, g.n, c.row, c.col)?.transposed === false)) {
    return g;
  }
  return f;
}

/**
 * The matrix product of two arrays with NumPy's `matmul` rules (Python's `a @ b`):
 *
 * - 2-D by 2-D: `[M, K] @ [K, N]` is `[M, N]`;
 * - a 1-D operand is a row vector on the left, a column vector on the right, and its axis is dropped
 *   (`[K] @ [K, N]` is `[N]`, `[M, K] @ [K]` is `[M]`, `[K] @ [K]` is a 0-d array);
 * - dimensions before the last two are a batch that broadcasts (`[64, 128, 256] @ [256, 32]` is
 *   `[64, 128, 32]`, `[8, 1, M, K] @ [5, K, N]` is `[8, 5, M, N]`);
 * - mixed dtypes promote as NumPy's `result_type` (float32 with int32 gives float64); integer
 *   products wrap in their dtype, as NumPy's do; bool products are `or`s of `and`s.
 *
 * On CUDA the float dtypes run on cuBLASLt: float32 in full float32 (no TF32, like PyTorch with
 * `allow_tf32 = False`), float64, and float16 / bfloat16 with float accumulation; one matrix or a
 * strided batch in one `cublasLtMatmul`, with the algorithm its heuristic finds best for the shape
 * (chosen on the shape's first product, then kept) and a workspace of 32 MiB; where cuBLASLt is
 * missing or has no algorithm, cuBLAS runs it. Column-major matrices (a
 * transposed view, a Fortran-ordered 2-D array, a batch of them as `a.swapaxes(-1, -2)` gives) are
 * read in place (`CUBLAS_OP_T`), as is a batch broadcast from one matrix; other views (a step other
 * than 1 along both matrix axes, as in a Fortran-ordered 3-D array; negative strides; a batch
 * broadcast along some axes only) are copied first. Integer and bool products, and every product on
 * OpenCL, run on a tiled kernel that reads any layout in place.
 *
 * @param a The left operand, at least 1-D.
 * @param b The right operand, at least 1-D, on the same backend.
 * @param options `out`: an array of the product's shape and dtype to write into (a view is fine; it
 *   may share memory with `a` or `b`, which are then read before it is written).
 * @throws {RangeError} naming both shapes when the inner dimensions differ, the batches do not
 *   broadcast, or an operand is 0-d.
 * @throws {TypeError} for operands on different backends, or a dtype the device lacks.
 * @throws {CublasError} when cuBLASLt or cuBLAS fails.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.asarray([[1, 2, 3], [4, 5, 6]]);
 * const b = ga.asarray([[1, 0], [0, 1], [1, 1]]);
 * console.log(ga.matmul(a, b).get()); // Float32Array [4, 5, 10, 11]
 * const batch = ga.random.normal([64, 128, 256], { seed: 1 });
 * console.log(ga.matmul(batch, ga.ones([256, 32])).shape); // [64, 128, 32]
 * console.log(ga.matmul(a.T, ga.ones([2])).shape); // [3]: a transposed view, read in place
 * ```
 */
export function matmul<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
  options: OpOptions = {},
): GPUArray<ResultType<A, B>> {
  checkOptions(options, "matmul", "{ out }", ["out"]);
  if (options.out !== undefined) refuseTrackedWrite("matmul into out", options.out, [a, b]);
  using plan = planMatmul(a, b, options.out);
  if (plan.gemm !== undefined) {
    if (plan.kernel === "cublas") a.backend.blas!.gemm(plan.gemm);
    else tiledGemm(a.backend, plan.gemm);
    plan.writeBack();
  }
  record("matmul", [a, b], plan.out, matmulVjp);
  return plan.out as GPUArray<ResultType<A, B>>;
}

/**
 * The gradient of `a @ b`: `g @ bᵀ` and `aᵀ @ g` over the last two axes, with 1-D operands as a row
 * and a column (the broadcast batch axes are summed when the gradients are fitted).
 */
export function matmulVjp(g: GPUArray, { inputs, need, ops }: VjpContext): (GPUArray | undefined)[] {
  const [a, b] = inputs as [GPUArray, GPUArray];
  // Complex operands: Ḡ·Bᴴ and Aᴴ·Ḡ.
  const A = conjugated(a.ndim === 1 ? ops.reshape(a, [1, a.size]) : a);
  const B = conjugated(b.ndim === 1 ? ops.reshape(b, [b.size, 1]) : b);
  const batch = g.shape.slice(0, g.ndim - (a.ndim === 1 ? 0 : 1) - (b.ndim === 1 ? 0 : 1));
  const G = ops.reshape(g, [...batch, A.shape.at(-2)!, B.shape.at(-1)!]);
  const swap = (x: GPUArray) =>
    ops.transpose(x, [...x.shape.keys()].map((i) => i < x.ndim - 2 ? i : 2 * x.ndim - 3 - i));
  // A 1-D operand's gradient drops the row or column axis it was given (the batch axes are fitted later).
  const ga = need[0] ? ops.matmul(G, swap(B)) : undefined, gb = need[1] ? ops.matmul(swap(A), G) : undefined;
  return [
    ga && a.ndim === 1 ? ops.reshape(ga, [...batch, a.size]) : ga,
    gb && b.ndim === 1 ? ops.reshape(gb, [...batch, b.size]) : gb,
  ];
}

/** What runs a product: cuBLAS (CUDA, the float dtypes) or the tiled kernel (any backend and dtype). */
export type GemmKernel = "cublas" | "tiled";

/** A product made ready to run: the output, the products, and the arrays made on the way. */
export interface MatmulPlan extends Disposable {
  /** The result array (`out` when one was given). */
  readonly out: GPUArray;
  /** The kernel the products are laid out for. */
  readonly kernel: GemmKernel;
  /** The products; undefined when there is nothing to compute (an empty result, or an empty inner dimension, whose zeros are already written). */
  readonly gemm: Gemm | undefined;
  /** Whether {@link gemm} computes the products transposed, `Cᵀ = Bᵀ·Aᵀ` (for a column-major `out`). */
  readonly transposed: boolean;
  /** Copies the products into `out` where they were computed elsewhere (a new array); call after running them. */
  writeBack(): void;
}

const NOTHING_MADE = (): void => {};

/**
 * The plan of the common product — two 2-D arrays, or two 3-D batches of one size, of one BLAS dtype,
 * read in place, into a new or row-major `out` apart from them — made without {@link planMatmul}'s
 * general steps (a matmul of small matrices is as long on the host as on the device); undefined for
 * anything else, which the general steps plan (and refuse, where they must).
 */
function commonPlan(a: GPUArray, b: GPUArray, into: GPUArray | undefined, kernel: GemmKernel | undefined) {
  const nd = a.ndim, dtype = a.dtype, backend = a.backend;
  if ((nd !== 2 && nd !== 3) || b.ndim !== nd || b.dtype !== dtype || b.backend !== backend) return undefined;
  if ((kernel ?? (backend.blas?.dtypes.includes(dtype) ? "cublas" : "tiled")) !== "cublas") return undefined;
  const as = a.shape, bs = b.shape, sa = a.strides, sb = b.strides;
  const m = as[nd - 2]!, k = as[nd - 1]!, n = bs[nd - 1]!, count = nd === 3 ? as[0]! : 1;
  if (
    bs[nd - 2] !== k || m * n * k === 0 || (nd === 3 && bs[0] !== count) || Math.max(m, n, k, count) > INT_MAX
  ) {
    return undefined;
  }
  const batchA = count === 1 ? 0 : sa[0]!, batchB = count === 1 ? 0 : sb[0]!;
  if (batchA < 0 || batchB < 0) return undefined;
  if (!blasLayout(m, k, sa[nd - 2]!, sa[nd - 1]!) || !blasLayout(k, n, sb[nd - 2]!, sb[nd - 1]!)) {
    return undefined;
  }
  let out = into;
  if (out !== undefined) {
    if (!(out instanceof GPUArray) || out.ndim !== nd || out.dtype !== dtype || out.backend !== backend) {
      return undefined;
    }
    const os = out.shape, so = out.strides;
    if (os[nd - 2] !== m || os[nd - 1] !== n || (nd === 3 && os[0] !== count)) return undefined;
    if (count > 1 && so[0]! < m * n) return undefined;
    if (blasLayout(m, n, so[nd - 2]!, so[nd - 1]!)?.transposed !== false) return undefined;
    if (sharesMemory(out, a) || sharesMemory(out, b)) return undefined;
  }
  out ??= new GPUArray(backend, nd === 3 ? [count, m, n] : [m, n], dtype);
  const so = out.strides;
  const operand = (x: GPUArray, batch: number, s: readonly number[]): GemmOperand => ({
    buffer: x.buffer,
    offset: x.offset,
    batch,
    row: s[nd - 2]!,
    col: s[nd - 1]!,
  });
  const gemm: Gemm = {
    dtype,
    batch: count,
    m,
    n,
    k,
    a: operand(a, batchA, sa),
    b: operand(b, batchB, sb),
    c: operand(out, count === 1 ? 0 : so[0]!, so),
  };
  const plan: MatmulPlan = {
    out,
    kernel: "cublas",
    gemm,
    transposed: false,
    writeBack: NOTHING_MADE,
    [Symbol.dispose]: NOTHING_MADE,
  };
  return plan;
}

/**
 * Checks a product and lays it out as one {@link Gemm} for `kernel` (by default the backend's choice
 * for the dtype), copying only the operands that kernel cannot read in place. Disposing of the plan
 * frees what it made.
 *
 * @throws {RangeError} and {TypeError} as {@link matmul} does.
 */
export function planMatmul(
  a: GPUArray,
  b: GPUArray,
  into: GPUArray | undefined,
  kernel?: GemmKernel,
): MatmulPlan {
  if (!(a instanceof GPUArray) || !(b instanceof GPUArray)) {
    throw new TypeError("Cannot matmul a non-array: pass two GPUArrays");
  }
  const common = commonPlan(a, b, into, kernel);
  if (common !== undefined) return common;
  const shapes = () => `Cannot matmul arrays of shapes ${showShape(a.shape)} and ${showShape(b.shape)}`;
  if (a.ndim === 0 || b.ndim === 0) {
    throw new RangeError(`${shapes()}: a 0-d array has no matrix product; multiply it with mul()`);
  }
  if (a.backend !== b.backend) {
    throw new TypeError(
      `Cannot matmul arrays on ${a.backend.device} and ${b.backend.device}: copy one to the other's backend first`,
    );
  }
  const made: GPUArray[] = [];
  /** Arrays and views made here, freed with the plan so no memory waits for the collector. */
  const temporary = <D extends DType>(t: GPUArray<D>): GPUArray<D> => {
    made.push(t);
    return t;
  };
  const dispose = () => {
    for (const t of made) t.free();
  };
  try {
    const x = a.ndim === 1 ? temporary(expandDims(a, 0)) : a;
    const y = b.ndim === 1 ? temporary(expandDims(b, 1)) : b;
    const [m, k] = x.shape.slice(-2) as [number, number], [k2, n] = y.shape.slice(-2) as [number, number];
    if (k !== k2) {
      throw new RangeError(`${shapes()}: the first's columns (${k}) must equal the second's rows (${k2})`);
    }
    const batchA = x.shape.slice(0, -2), batchB = y.shape.slice(0, -2);
    let batch: number[] = [];
    try {
      if (batchA.length > 0 || batchB.length > 0) batch = broadcastShapes([batchA, batchB], "matmul");
    } catch {
      throw new RangeError(
        `${shapes()}: their batch dimensions ${showShape(batchA)} and ${showShape(batchB)} do not broadcast`,
      );
    }
    const count = batch.reduce((p, d) => p * d, 1);
    if ([m, n, k, count].some((e) => e > INT_MAX)) {
      throw new RangeError(`${shapes()}: every matrix extent and the batch's size must be below 2^31`);
    }
    const dtype = resultType(a.dtype, b.dtype);
    const backend = a.backend;
    if (!backend.supports(dtype)) {
      throw new TypeError(
        `Cannot matmul ${a.dtype} and ${b.dtype} arrays on ${backend.device}: their product is ${dtype}, which the device lacks`,
      );
    }
    const shape = [...batch, ...(a.ndim === 1 ? [] : [m]), ...(b.ndim === 1 ? [] : [n])];
    const out = outputFor(a, shape, dtype, into, "matmul");
    if (out.strides.some((s, i) => s === 0 && out.shape[i]! > 1)) {
      throw new RangeError(
        `Cannot matmul into a broadcast view of shape ${
          showShape(out.shape)
        }: its elements overlap; write into a copy() of it`,
      );
    }
    const use = kernel ?? (backend.blas?.dtypes.includes(dtype) ? "cublas" : "tiled");
    const none = {
      out,
      kernel: use,
      gemm: undefined,
      transposed: false,
      writeBack() {},
      [Symbol.dispose]: dispose,
    };
    if (out.size === 0) return none;
    if (k === 0) {
      fill(out, 0);
      return none;
    }
    const cublas = use === "cublas";
    /** `v` as a batch of `rows × cols` matrices the kernel reads, copying only what it cannot. */
    const input = (v: GPUArray, rows: number, cols: number): GemmOperand => {
      if (v.dtype !== dtype) v = temporary(astype(v, dtype));
      const [row, col] = v.strides.slice(-2) as [number, number];
      if (cublas && blasLayout(rows, cols, row, col) === undefined) v = temporary(copyOf(v));
      const op = operandOf(v, batch);
      if (op !== undefined && (!cublas || op.batch >= 0)) return op;
      // A batch broadcast along some of its axes only: materialise it.
      return operandOf(temporary(copyOf(temporary(broadcastTo(v, [...batch, rows, cols])))), batch)!;
    };
    const opA = input(x, m, k), opB = input(y, k, n);
    // C: out itself, viewed with the dropped axes back, where the kernel can write it; else a new array.
    const dropped = [...(a.ndim === 1 ? [batch.length] : []), ...(b.ndim === 1 ? [-1] : [])];
    const view = dropped.length === 0 ? out : temporary(expandDims(out, dropped));
    let opC = sharesMemory(out, a) || sharesMemory(out, b) ? undefined : operandOf(view, batch);
    if (cublas && opC !== undefined && !readsInPlace(opC, m, n)) opC = undefined;
    const c = opC === undefined ? temporary(new GPUArray(backend, [...batch, m, n], dtype)) : view;
    let gemm: Gemm = { dtype, batch: count, m, n, k, a: opA, b: opB, c: opC ?? operandOf(c, batch)! };
    const flipped = cublas && blasLayout(m, n, gemm.c.row, gemm.c.col)!.transposed;
    if (flipped) gemm = transposed(gemm);
    gemm = folded(gemm, cublas);
    return {
      out,
      kernel: use,
      gemm,
      transposed: flipped,
      writeBack: () => {
        if (c !== view) assign(view, c);
      },
      [Symbol.dispose]: dispose,
    };
  } catch (e) {
    dispose();
    throw e;
  }
}
