/**
 * The CUDA C and OpenCL C of elementwise loops, from a plan made by `loop.ts`: a flat loop over
 * contiguous operands (vectorised on CUDA), a tiled transpose through shared memory, and a strided
 * loop that finds each operand's element from the linear index, with 32-bit index math (divisions by
 * multiply-high, as PyTorch's `IntDivider`) where every offset fits.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";

/** Threads per block of every loop. */
export const BLOCK = 256;
/** Elements each thread of a flat or strided loop handles. */
export const ELEMS = 4;
/** The side of a transpose tile, and the rows of threads that walk it. */
export const TILE = 32;
/** Rows of threads in a transpose tile's block. */
export const TILE_ROWS = 8;

/** How a loop walks its elements. */
export type LoopPath =
  /** One axis; every operand steps 1 (or 0: the same element throughout). */
  | "flat"
  /** {@link LoopPath.flat}, with 4-element vector loads and stores (CUDA, aligned operands). */
  | "vector"
  /** Two axes, the output contiguous along the last and the input along the first. */
  | "tile"
  /** Any strides. */
  | "strided";

/** What a loop's source depends on. */
export interface LoopPlan {
  /** The kernel's name. */
  readonly name: string;
  /** How the elements are walked. */
  readonly path: LoopPath;
  /** Dimensions after coalescing (1 for flat and vector). */
  readonly ndim: number;
  /** Whether index math fits 32 bits. */
  readonly narrow: boolean;
  /** Each array operand's dtype and whether the loop writes it. */
  readonly arrays: readonly { readonly dtype: DType; readonly written: boolean }[];
  /** Each pointer operand's dtype and whether the loop writes through it. */
  readonly pointers: readonly { readonly dtype: DType; readonly written: boolean }[];
  /** For flat and vector loops, the operands read at one element throughout (stride 0). */
  readonly uniform: readonly boolean[];
  /** Each scalar parameter's dtype. */
  readonly scalars: readonly DType[];
  /** C code placed before the kernel. */
  readonly helpers: string;
  /** The work per element: C statements over the operands' elements `ref[k]`, the scalars, the linear index and the pointers. */
  readonly statement: (
    ref: readonly string[],
    scalar: readonly string[],
    index: string,
    pointer: readonly string[],
  ) => string;
}

function vecName(dtype: DType): string {
  return `cudeno_v${ELEMS}_${dtype}`;
}

/** The parameter list: each array (pointer, element offset, strides), the pointers (with offsets), the scalars, the extents, the count. */
function params(plan: LoopPlan, dialect: Dialect): string {
  const t = targetOf(dialect);
  const wide = t.indexType;
  const idx = plan.narrow ? "int" : wide;
  const list: string[] = [];
  plan.arrays.forEach((a, k) => {
    list.push(t.pointerParam(a.dtype, `p${k}`, !a.written), `${wide} o${k}`);
    if (plan.path !== "flat" && plan.path !== "vector") {
      for (let d = 0; d < plan.ndim; d++) list.push(`${idx} t${k}_${d}`);
    }
  });
  plan.pointers.forEach((p, k) => list.push(t.pointerParam(p.dtype, `q${k}`, !p.written), `${wide} oq${k}`));
  plan.scalars.forEach((s, j) => list.push(`${t.cType(s)} s${j}`));
  if (plan.path !== "flat" && plan.path !== "vector") {
    for (let d = 0; d < plan.ndim; d++) list.push(`${idx} e${d}`);
    if (plan.path !== "tile" && plan.narrow) {
      const u = t.cType("uint32");
      for (let d = 1; d < plan.ndim; d++) list.push(`${u} m${d}`, `${u} h${d}`);
    }
  }
  list.push(`${wide} n`);
  return list.join(", ");
}

function head(plan: LoopPlan, dialect: Dialect): string {
  const dtypes = [...plan.arrays.map((a) => a.dtype), ...plan.pointers.map((p) => p.dtype), ...plan.scalars];
  const rebase = [
    ...plan.arrays.map((_, k) => `p${k} += o${k};`),
    ...plan.pointers.map((_, k) => `q${k} += oq${k};`),
  ].join(" ");
  const t = targetOf(dialect);
  return `${t.preamble(dtypes)}
${plan.helpers}
${t.kernelHead} ${plan.name}(${params(plan, dialect)}) {
  ${rebase}`;
}

/** The pointer operands' names in the kernel. */
const pointerNames = (plan: LoopPlan) => plan.pointers.map((_, k) => `q${k}`);

function flatSource(plan: LoopPlan, dialect: Dialect): string {
  const t = targetOf(dialect);
  const { local, group } = t.threadIds;
  const ix = plan.narrow ? "int" : t.indexType;
  const scalars = plan.scalars.map((_, j) => `s${j}`);
  const ref = plan.arrays.map((_, k) => (plan.uniform[k] ? `p${k}[0]` : `p${k}[i]`));
  return `${head(plan, dialect)}
  const ${ix} base = (${ix})${group} * ${BLOCK * ELEMS} + ${local};
${t.unroll()}  for (int u = 0; u < ${ELEMS}; u++) {
    const ${ix} i = base + u * ${BLOCK};
    if (i < n) { ${plan.statement(ref, scalars, "i", pointerNames(plan))} }
  }
}`;
}

function vectorSource(plan: LoopPlan, dialect: Dialect): string {
  const scalars = plan.scalars.map((_, j) => `s${j}`);
  const stepped = plan.arrays.map((a, k) => ({ ...a, k })).filter((a) => !plan.uniform[a.k]);
  const loads = stepped.filter((a) => !a.written).map((a) =>
    `const ${vecName(a.dtype)} v${a.k} = *reinterpret_cast<const ${vecName(a.dtype)} *>(p${a.k} + e);`
  ).join("\n      ");
  const out = stepped.find((a) => a.written)!;
  const vecRef = plan.arrays.map((
    a,
    k,
  ) => (plan.uniform[k] ? `p${k}[0]` : a.written ? `r.v[j]` : `v${k}.v[j]`));
  const scalarRef = plan.arrays.map((_, k) => (plan.uniform[k] ? `p${k}[0]` : `p${k}[e]`));
  const structs = targetOf(dialect).vectorTypes(stepped.map((a) => a.dtype));
  return `${structs}
${head(plan, dialect)}
  const long long span = ${ELEMS * 2}LL * blockDim.x;
  const long long start = (long long)blockIdx.x * span;
  if (start + span <= n) {
#pragma unroll
    for (int u = 0; u < 2; u++) {
      const long long e = start + ((long long)u * blockDim.x + threadIdx.x) * ${ELEMS};
      ${loads}
      ${vecName(out.dtype)} r;
#pragma unroll
      for (int j = 0; j < ${ELEMS}; j++) { ${plan.statement(vecRef, scalars, "(e + j)", pointerNames(plan))} }
      *reinterpret_cast<${vecName(out.dtype)} *>(p${out.k} + e) = r;
    }
  } else {
    for (long long e = start + threadIdx.x; e < n; e += blockDim.x) { ${
    plan.statement(scalarRef, scalars, "e", pointerNames(plan))
  } }
  }
}`;
}

function stridedSource(plan: LoopPlan, dialect: Dialect): string {
  const t = targetOf(dialect);
  const { local, group } = t.threadIds;
  const u = t.cType("uint32");
  const wide = t.indexType;
  const [ix, sx] = plan.narrow ? [u, "int"] : [wide, wide];
  const mulhi = t.mulhi;
  const k = plan.arrays.map((_, i) => i);
  const scalars = plan.scalars.map((_, j) => `s${j}`);
  const last = plan.ndim - 1;
  const steps: string[] = [];
  for (let d = last; d >= 1; d--) {
    const div = plan.narrow ? `((${mulhi}(r, m${d}) + r) >> h${d})` : `(r / e${d})`;
    steps.push(
      `q = ${div}; c = (${sx})(r - q * (${ix})e${d}); ${
        k.map((i) => `a${i} += c * t${i}_${d};`).join(" ")
      } r = q;`,
    );
  }
  steps.push(`c = (${sx})r; ${k.map((i) => `a${i} += c * t${i}_0;`).join(" ")}`);
  const body = plan.statement(k.map((i) => `p${i}[a${i}]`), scalars, "i", pointerNames(plan));
  return `${head(plan, dialect)}
  const ${ix} base = (${ix})${group} * ${BLOCK * ELEMS} + ${local};
${t.unroll()}  for (int u = 0; u < ${ELEMS}; u++) {
    const ${ix} i = base + (${ix})u * ${BLOCK};
    if (i < (${ix})n) {
      ${ix} r = i, q; ${sx} c; ${sx} ${k.map((i) => `a${i} = 0`).join(", ")};
      ${steps.join("\n      ")}
      ${body}
    }
  }
}`;
}

/** A 2-D copy-like loop: operand 0 read along axis 0 into a tile, operand 1 written along axis 1. */
function tileSource(plan: LoopPlan, dialect: Dialect): string {
  const target = targetOf(dialect);
  const [tx, ty] = [0, 1].map((axis) => target.builtin("threadIdx", axis as 0 | 1).text);
  const [bx, by] = [0, 1].map((axis) => target.builtin("blockIdx", axis as 0 | 1).text);
  const t = target.cType(plan.arrays[0]!.dtype);
  const ix = plan.narrow ? "int" : target.indexType;
  const shared = target.sharedQualifier;
  const scalars = plan.scalars.map((_, j) => `s${j}`);
  return `${head(plan, dialect)}
  ${shared} ${t} tile[${TILE}][${TILE + 1}];
  const ${ix} i0 = (${ix})${bx} * ${TILE} + ${tx}, j0 = (${ix})${by} * ${TILE} + ${ty};
  for (int k = 0; k < ${TILE}; k += ${TILE_ROWS}) {
    if (i0 < e0 && j0 + k < e1) tile[${ty} + k][${tx}] = p0[i0 * t0_0 + (j0 + k) * t0_1];
  }
  ${target.barrier}
  const ${ix} j1 = (${ix})${by} * ${TILE} + ${tx}, i1 = (${ix})${bx} * ${TILE} + ${ty};
  for (int k = 0; k < ${TILE}; k += ${TILE_ROWS}) {
    if (j1 < e1 && i1 + k < e0) { ${
    plan.statement(
      [`tile[${tx}][${ty} + k]`, `p1[(i1 + k) * t1_0 + j1 * t1_1]`],
      scalars,
      "0",
      pointerNames(plan),
    )
  } }
  }
}`;
}

/** The source of a planned loop. */
export function loopSource(plan: LoopPlan, dialect: Dialect): string {
  switch (plan.path) {
    case "flat":
      return flatSource(plan, dialect);
    case "vector":
      return vectorSource(plan, dialect);
    case "tile":
      return tileSource(plan, dialect);
    case "strided":
      return stridedSource(plan, dialect);
  }
}
