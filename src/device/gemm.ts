/**
 * A batched matrix product as data: `C[i] = A[i]·B[i]` for `i < batch`, each operand a buffer, an
 * element offset and three strides (between matrices of the batch, rows and columns). The NumPy-rules
 * front end (`matmul.ts`) builds one from arrays of any layout; cuBLAS (`cublas.ts`) and the tiled
 * kernel (`matmul_kernel.ts`) run it.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { GPUArray } from "../array/core/gpuarray.ts";

/** Where an operand's elements are: matrix `i`, element `(r, c)` is `offset + i·batch + r·row + c·col`. */
export interface GemmOperand {
  /** The array whose buffer holds the elements. */
  readonly array: GPUArray;
  /** The element of the buffer where matrix 0's element (0, 0) is. */
  readonly offset: number;
  /** Elements between one matrix of the batch and the next (0 when all share one matrix). */
  readonly batch: number;
  /** Elements between neighbouring rows. */
  readonly row: number;
  /** Elements between neighbouring columns. */
  readonly col: number;
}

/** `batch` products `C[m×n] = A[m×k]·B[k×n]`, all three of `dtype`; `C` overlaps neither input. */
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

/** The same products seen transposed: `Cᵀ = Bᵀ·Aᵀ` (so a column-major C becomes a row-major one). */
export function transposed(g: Gemm): Gemm {
  const t = (x: GemmOperand): GemmOperand => ({ ...x, row: x.col, col: x.row });
  return { ...g, m: g.n, n: g.m, a: t(g.b), b: t(g.a), c: t(g.c) };
}
