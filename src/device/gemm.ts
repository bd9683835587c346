/**
 * A batched matrix product as data: `C[i] = A[i]·B[i]` for `i < batch`, each operand a buffer, an
 * element offset and three strides (between matrices of the batch, rows and columns). The NumPy-rules
 * front end (`matmul.ts`) builds one from arrays of any layout; a backend's BLAS (`Backend.blas`:
 * cuBLAS, `cublas.ts`) and the tiled kernel (`matmul_kernel.ts`) run it.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { BackendBuffer } from "./backend.ts";

const INT_MAX = 2 ** 31 - 1;

/**
 * Where an operand's elements are: matrix `i`, element `(r, c)` is `offset + i·batch + r·row + c·col`
 * elements (of the product's dtype) into `buffer`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import type { GemmOperand } from "./gemm.ts";
 * const a = ga.zeros([2, 3]);
 * const op: GemmOperand = { buffer: a.buffer, offset: a.offset, batch: 0, row: 3, col: 1 };
 * ```
 */
export interface GemmOperand {
  /** The device memory that holds the elements. */
  readonly buffer: BackendBuffer;
  /** The element of the buffer where matrix 0's element (0, 0) is. */
  readonly offset: number;
  /** Elements between one matrix of the batch and the next (0 when all share one matrix). */
  readonly batch: number;
  /** Elements between neighbouring rows. */
  readonly row: number;
  /** Elements between neighbouring columns. */
  readonly col: number;
}

/**
 * `batch` products `C[m×n] = A[m×k]·B[k×n]`, all three of `dtype`; `C` overlaps neither input.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import type { Gemm, GemmOperand } from "./gemm.ts";
 * const [a, b, c] = [ga.ones([2, 3]), ga.ones([3, 4]), ga.empty([2, 4])];
 * const op = (x: ga.GPUArray): GemmOperand => ({ buffer: x.buffer, offset: 0, batch: 0, row: x.shape[1]!, col: 1 });
 * const g: Gemm = { dtype: "float32", batch: 1, m: 2, n: 4, k: 3, a: op(a), b: op(b), c: op(c) };
 * ```
 */
export interface Gemm {
  /** The element type of all three operands. */
  readonly dtype: DType;
  /** How many products. */
  readonly batch: number;
  /** Rows of A and C. */
  readonly m: number;
  /** Columns of B and C. */
  readonly n: number;
  /** Columns of A, rows of B (at least 1). */
  readonly k: number;
  /** The left factors. */
  readonly a: GemmOperand;
  /** The right factors. */
  readonly b: GemmOperand;
  /** The products. */
  readonly c: GemmOperand;
}

/**
 * What is applied to each element of a product before it is stored: `"bias"` adds `bias[j]` to
 * column `j` of C (a vector of `n` elements, the same for every matrix of a batch), `"relu"` is
 * `max(x, 0)`, `"gelu"` is GELU's tanh approximation `x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`, and
 * `"biasRelu"` / `"biasGelu"` add the bias first.
 *
 * @example
 * ```ts
 * import type { Epilogue } from "./gemm.ts";
 * const e: Epilogue = "biasGelu";
 * ```
 */
export type Epilogue = "bias" | "relu" | "gelu" | "biasRelu" | "biasGelu";

/**
 * An {@link Epilogue} and, for those that add one, the bias: `n` contiguous elements of the
 * product's dtype from element `offset` of `buffer`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import type { GemmEpilogue } from "./gemm.ts";
 * const bias = ga.zeros([4]);
 * const e: GemmEpilogue = { epilogue: "biasRelu", bias: { buffer: bias.buffer, offset: 0 } };
 * ```
 */
export interface GemmEpilogue {
  /** What is applied. */
  readonly epilogue: Epilogue;
  /** The bias vector, for `"bias"`, `"biasRelu"` and `"biasGelu"`. */
  readonly bias?: { readonly buffer: BackendBuffer; readonly offset: number };
}

/**
 * The same products seen transposed: `Cᵀ = Bᵀ·Aᵀ` (so a column-major C becomes a row-major one).
 *
 * @example
 * ```ts
 * import { type Gemm, transposed } from "./gemm.ts";
 * declare const g: Gemm;
 * console.log(transposed(g).m === g.n);
 * ```
 */
export function transposed(g: Gemm): Gemm {
  const t = (x: GemmOperand): GemmOperand => ({ ...x, row: x.col, col: x.row });
  return { ...g, m: g.n, n: g.m, a: t(g.b), b: t(g.a), c: t(g.c) };
}

/**
 * How a column-major BLAS (cuBLAS) can read a `rows × cols` matrix whose neighbours are `row` and
 * `col` elements apart: row-major (`transposed: false`) or column-major (`transposed: true`) with
 * leading dimension `ld`, or undefined where it cannot (a non-unit inner stride, a zero or negative
 * stride), and the matrix must be copied first. Extents of 1 accept any stride.
 *
 * @example
 * ```ts
 * import { blasLayout } from "./gemm.ts";
 * console.log(blasLayout(4, 3, 1, 4)); // { transposed: true, ld: 4 }
 * ```
 */
export function blasLayout(
  rows: number,
  cols: number,
  row: number,
  col: number,
): { transposed: boolean; ld: number } | undefined {
  if ((cols === 1 || col === 1) && (rows === 1 || row >= Math.max(1, cols))) {
    const ld = rows === 1 ? Math.max(1, cols) : row;
    if (ld <= INT_MAX) return { transposed: false, ld };
  }
  if ((rows === 1 || row === 1) && (cols === 1 || col >= Math.max(1, rows))) {
    const ld = cols === 1 ? Math.max(1, rows) : col;
    if (ld <= INT_MAX) return { transposed: true, ld };
  }
  return undefined;
}
