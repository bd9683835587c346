/**
 * The tiled matrix-product kernel: a {@link Gemm} of any strides (views of every kind, zero batch
 * strides for broadcast batches) in CUDA C or OpenCL C. It runs every product on OpenCL, and the
 * integer and bool products on CUDA (cuBLAS has no general integer gemm).
 *
 * Each block computes a 16×16 tile of one product of the batch through two 16×16 tiles of the inputs
 * in shared memory; blocks step over the batch and the row tiles when they outnumber the grid.
 * Floats accumulate in their compute type (float for the 16-bit floats); integers in the unsigned
 * integer of 32 or 64 bits, so products and sums wrap modulo 2^32 or 2^64 as NumPy's do, with no
 * signed overflow in C; bools as a count, true where it is not 0 (NumPy's `or` of `and`s).
 *
 * @module
 */

import type { Backend } from "../../device/backend.ts";
import type { Gemm } from "../../device/gemm.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { computeType } from "../../codegen/c.ts";
import { targetOf } from "../../codegen/targets.ts";
import { complexPrefix } from "../../codegen/complex.ts";

const TILE = 16;
/** The most blocks launched along y and z (CUDA's limit); the kernel loops over the rest. */
const GRID_LIMIT = 65535;

/** The type products of `dtype` accumulate in. */
function accumulator(dtype: DType): DType {
  const info = DTYPES[dtype];
  if (info.kind === "float" || info.kind === "complex") return computeType(dtype);
  return info.size === 8 ? "uint64" : "uint32";
}

function ids(dialect: Dialect) {
  const t = targetOf(dialect);
  const id = (name: "threadIdx" | "blockIdx" | "gridDim", axis: 0 | 1 | 2) => t.builtin(name, axis).text;
  return {
    tx: id("threadIdx", 0),
    ty: id("threadIdx", 1),
    gx: id("blockIdx", 0),
    gy: id("blockIdx", 1),
    gz: id("blockIdx", 2),
    ny: id("gridDim", 1),
    nz: id("gridDim", 2),
  };
}

/**
 * The source of the tiled product of `dtype` arrays in `dialect`. Where `unitA` (`unitB`), A's (B's)
 * columns are neighbours, and the kernel indexes them without the multiply (loads the compiler can
 * vectorise or coalesce).
 */
export function gemmSource(
  dtype: DType,
  dialect: Dialect,
  unitA: boolean,
  unitB: boolean,
): { name: string; source: string } {
  const t = targetOf(dialect);
  const acc = accumulator(dtype);
  const at = t.cType(acc), it = t.indexType;
  const name = `cudeno_gemm_${dtype}`;
  const zero = t.literal(0, acc);
  const operand = (p: string, written: boolean) =>
    `${t.pointerParam(dtype, p, !written)}, ${it} o${p}, ${it} b${p}, ${it} r${p}, ${it} c${p}`;
  const params = [
    operand("A", false),
    operand("B", false),
    operand("C", true),
    "int M, int N, int K, int batch",
  ];
  const id = ids(dialect);
  const column = (p: string, c: string, unit: boolean) => (unit ? `${c}` : `(${it})(${c}) * c${p}`);
  const complex = DTYPES[dtype].kind === "complex";
  const cast = complex ? "" : `(${at})`;
  const a = `${cast}${t.load(`A[rowA + ${column("A", "ak", unitA)}]`, dtype)}`;
  const b = `${cast}${t.load(`B[baseB + (${it})bk * rB + ${column("B", "col", unitB)}]`, dtype)}`;
  const As = `As[ty * ${TILE} + k]`, Bs = `Bs[k * ${TILE} + tx]`;
  const step = complex
    ? `sum = ${complexPrefix(dtype)}add(sum, ${complexPrefix(dtype)}mul(${As}, ${Bs}));`
    : `sum += ${As} * ${Bs};`;
  const source = `${t.preamble([dtype, acc])}
${t.kernelHeadSized(TILE, TILE)} ${name}(${params.join(", ")}) {
  ${t.sharedArray(acc, "As", TILE * TILE)}
  ${t.sharedArray(acc, "Bs", TILE * TILE)}
  const int tx = ${id.tx}, ty = ${id.ty};
  const int col = ${id.gx} * ${TILE} + tx;
  for (${it} z = ${id.gz}; z < batch; z += ${id.nz}) {
    const ${it} baseB = oB + z * bB;
    for (int tile = ${id.gy}; tile * ${TILE} < M; tile += ${id.ny}) {
      const int row = tile * ${TILE} + ty;
      const ${it} rowA = oA + z * bA + (${it})row * rA;
      ${at} sum = ${zero};
      for (int t = 0; t < K; t += ${TILE}) {
        const int ak = t + tx, bk = t + ty;
        As[ty * ${TILE} + tx] = (row < M && ak < K) ? ${a} : ${zero};
        Bs[ty * ${TILE} + tx] = (bk < K && col < N) ? ${b} : ${zero};
        ${t.barrier}
        for (int k = 0; k < ${TILE}; k++) ${step}
        ${t.barrier}
      }
      if (row < M && col < N) C[oC + z * bC + (${it})row * rC + (${it})col * cC] = ${t.castTo("sum", dtype)};
    }
  }
}`;
  return { name, source };
}

/** Runs `g` with the tiled kernel (any dtype the backend has, any strides). */
export function tiledGemm(backend: Backend, g: Gemm): void {
  const grid = [
    Math.ceil(g.n / TILE),
    Math.min(Math.ceil(g.m / TILE), GRID_LIMIT),
    Math.min(g.batch, GRID_LIMIT),
  ];
  const unitA = g.a.col === 1 || g.k === 1, unitB = g.b.col === 1 || g.n === 1;
  const kernel = backend.kernel(
    `gemm:${g.dtype}:${unitA ? 1 : 0}${unitB ? 1 : 0}`,
    () => gemmSource(g.dtype, backend.dialect, unitA, unitB),
  );
  const args: unknown[] = [];
  for (const x of [g.a, g.b, g.c]) args.push(x.buffer, x.offset, x.batch, x.row, x.col);
  args.push(g.m, g.n, g.k, g.batch);
  kernel.launch({ grid, block: [TILE, TILE] }, args);
}
