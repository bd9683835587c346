/**
 * The CUDA C and OpenCL C of reductions, from a plan made by `reduction.ts`. Stage 1 reduces each
 * output's share of the reduced elements: on the **row** path a warp or a block of lanes walks
 * reduced elements that lie next to each other in memory (4-element vector loads where aligned),
 * on the **column** path each thread owns an output and rows of threads walk the reduced
 * axes, so a warp reads 32 neighbouring outputs at once. Lanes combine through warp shuffles
 * (`__shfl_down_sync`, CUDA) or local memory. Where the reduced elements were split over a grid's
 * second dimension, stage 1 leaves one accumulator per split and stage 2 combines them and applies
 * the epilogue. Operands are indexed through their layouts (kept and reduced strides).
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { VECTOR_WIDTH } from "../../codegen/target.ts";
import { targetOf } from "../../codegen/targets.ts";
import { complexPrefix } from "../../codegen/complex.ts";

/** Threads per block of every reduction kernel. */
export const BLOCK = 256;
/** Outputs per block of the column path (a warp's width); `BLOCK / COLUMNS` rows of threads walk the reduced elements. */
export const COLUMNS = 32;
/** Elements per vector load. */
export const VEC = VECTOR_WIDTH;

/** One field of a struct accumulator. */
export interface AccField {
  /** Its C name. */
  readonly name: string;
  /** Its dtype (a compute type). */
  readonly dtype: DType;
  /** Its value in the neutral element, a C expression. */
  readonly identity: string;
}

/** What a reduction accumulates: a compute dtype with its neutral element, or a struct of fields. */
export type Accumulator =
  | { readonly dtype: DType; readonly identity: string }
  | { readonly fields: readonly AccField[] };

/** The dtypes an accumulator uses. */
export function accDTypes(acc: Accumulator): DType[] {
  return "fields" in acc ? acc.fields.map((f) => f.dtype) : [acc.dtype];
}

/** Bytes an accumulator takes at most (each field padded to 8). */
export function accBytes(acc: Accumulator): number {
  return "fields" in acc ? 8 * acc.fields.length : 8;
}

/** The C pieces of a reduction that do not depend on layouts. */
export interface ReductionCode {
  /** The accumulator. */
  readonly acc: Accumulator;
  /** C statements of `acc_t combine(acc_t a, acc_t b)`, ending in a return. */
  readonly combine: string;
  /**
   * C statements that set accumulator `value` from operand elements `ref[k]`, the scalars and the
   * reduced index; `pointer[k]` points at operand k's first element, for snippets that index a
   * contiguous operand themselves.
   */
  readonly prologue: (
    ref: readonly string[],
    scalar: readonly string[],
    index: string,
    value: string,
    pointer: readonly string[],
  ) => string;
  /** The result from accumulator `acc`, a C expression; `count` is the number of reduced elements. */
  readonly epilogue: (acc: string, scalar: readonly string[], count: string) => string;
  /** C code placed before the kernels (may use `acc_t`). */
  readonly helpers: string;
  /** The result's dtype. */
  readonly out: DType;
  /** Each scalar parameter's dtype. */
  readonly scalars: readonly DType[];
  /** The stage-1 kernel's name (default `cudeno_reduce`; stage 2's adds `_final`). */
  readonly name?: string;
}

/** How stage 1 walks the elements. */
export type ReductionPath = "row" | "col";

/** What a stage-1 source depends on besides the {@link ReductionCode}. */
export interface ReductionPlan {
  /** The path. */
  readonly path: ReductionPath;
  /** Row path: threads per output (32 or {@link BLOCK}). */
  readonly lanes: number;
  /** Row path: operands stepping 1 along the reduced axis are read 4 elements at a time. */
  readonly vector: boolean;
  /** Kept dimensions after coalescing (at least 1). */
  readonly kept: number;
  /** Reduced dimensions after coalescing (at least 1). */
  readonly reduced: number;
  /** Whether index math fits 32 bits. */
  readonly narrow: boolean;
  /** Each operand's dtype, and for vector plans whether it stays on one element along the reduced axis. */
  readonly arrays: readonly { readonly dtype: DType; readonly uniform: boolean }[];
}

const wideType = (d: Dialect) => targetOf(d).indexType;
const ixType = (narrow: boolean, d: Dialect) => (narrow ? "int" : wideType(d));
const ids = (d: Dialect) => {
  const t = targetOf(d);
  const id = (name: "threadIdx" | "blockIdx" | "gridDim", axis: 0 | 1) => t.builtin(name, axis).text;
  return { tid: id("threadIdx", 0), bx: id("blockIdx", 0), by: id("blockIdx", 1), ny: id("gridDim", 1) };
};

/** A value of `dtype` moved `off` lanes down the warp (targets with warp shuffles). */
function shuffle(expr: string, dtype: DType, off: string, d: Dialect): string {
  if (dtype === "complex64" || dtype === "complex128") {
    const part = (c: string) => `__shfl_down_sync(0xffffffffu, (${expr}).${c}, ${off})`;
    return `${complexPrefix(dtype)}make(${part("x")}, ${part("y")})`;
  }
  const direct = ["float32", "float64", "int32", "uint32", "int64", "uint64"].includes(dtype);
  return direct
    ? `__shfl_down_sync(0xffffffffu, ${expr}, ${off})`
    : `(${targetOf(d).cType(dtype)})__shfl_down_sync(0xffffffffu, (int)(${expr}), ${off})`;
}

/** What the accumulator code is made of: a {@link ReductionCode}'s accumulator, combine and helpers. */
export type AccumulatorPieces = Pick<ReductionCode, "acc" | "combine" | "helpers">;

/**
 * The accumulator type `acc_t`, the helpers, `cudeno_identity()`, `cudeno_combine()` and (CUDA)
 * `cudeno_shfl()` (where warps shuffle). With a `suffix`, every name ends in it (`cudeno_acc0`, `cudeno_combine0`, ...), so
 * that several accumulators live in one source; `acc_t` then names the suffixed type only inside
 * this code (the pieces may use it).
 */
export function accumulatorCode(code: AccumulatorPieces, d: Dialect, suffix = ""): string {
  const { acc } = code;
  const t = targetOf(d);
  const fn = t.inline;
  const type = suffix === "" ? "acc_t" : `cudeno_acc${suffix}`;
  const lines: string[] = [];
  if ("fields" in acc) {
    lines.push(
      `typedef struct { ${acc.fields.map((f) => `${t.cType(f.dtype)} ${f.name};`).join(" ")} } ${type};`,
    );
  } else {
    lines.push(`typedef ${t.cType(acc.dtype)} ${type};`);
  }
  if (suffix !== "") lines.push(`#define acc_t ${type}`);
  lines.push(code.helpers);
  if ("fields" in acc) {
    lines.push(
      `${fn} acc_t cudeno_identity${suffix}(void) { acc_t a; ${
        acc.fields.map((f) => `a.${f.name} = ${f.identity};`).join(" ")
      } return a; }`,
    );
  } else {
    lines.push(`${fn} acc_t cudeno_identity${suffix}(void) { return ${acc.identity}; }`);
  }
  lines.push(`${fn} acc_t cudeno_combine${suffix}(acc_t a, acc_t b) { ${code.combine} }`);
  if (t.warpShuffle) {
    const body = "fields" in acc
      ? `acc_t b; ${
        acc.fields.map((f) => `b.${f.name} = ${shuffle(`a.${f.name}`, f.dtype, "off", d)};`).join(" ")
      } return b;`
      : `return ${shuffle("a", acc.dtype, "off", d)};`;
    lines.push(`${fn} acc_t cudeno_shfl${suffix}(acc_t a, int off) { ${body} }`);
  }
  if (suffix !== "") lines.push("#undef acc_t");
  return lines.join("\n");
}

/** The start of a source: dtype headers and the accumulator's code. */
function sourceHead(code: ReductionCode, dtypes: readonly DType[], d: Dialect): string {
  return `${targetOf(d).preamble([...dtypes, code.out, ...code.scalars, ...accDTypes(code.acc)])}
${accumulatorCode(code, d)}`;
}

/**
 * Combines the accumulators `acc` of `lanes` neighbouring threads (thread `tid`, lane `l`); the
 * first lane of each group ends with the total. Every thread of the block must run it.
 * Needs `sh`, a block-sized local array of `acc_t`, without warp shuffles and for block-wide groups
 * with them.
 */
function laneCombine(lanes: number, d: Dialect): string {
  const t = targetOf(d);
  const warp = "for (int off = 16; off > 0; off >>= 1) acc = cudeno_combine(acc, cudeno_shfl(acc, off));";
  if (t.warpShuffle && lanes === 32) return warp;
  if (t.warpShuffle && lanes === BLOCK) {
    return `${warp}
  if ((tid & 31) == 0) sh[tid >> 5] = acc;
  ${t.barrier}
  if (tid < 32) {
    acc = tid < ${BLOCK / 32} ? sh[tid] : cudeno_identity();
    ${warp}
  }`;
  }
  return `sh[tid] = acc;
  ${t.barrier}
  for (int s = ${lanes / 2}; s > 0; s >>= 1) {
    if (l < s) sh[tid] = cudeno_combine(sh[tid], sh[tid + s]);
    ${t.barrier}
  }
  acc = sh[tid];`;
}

/** `b{X}` for each operand name X: the element offset of output `o` through the kept strides `k{X}_d`. */
export function keptOffsets(names: readonly string[], kept: number, ix: string, o: string): string {
  if (kept === 1) return names.map((x) => `const ${ix} b${x} = (${o}) * k${x}_0;`).join(" ");
  const steps: string[] = [];
  for (let dim = kept - 1; dim >= 1; dim--) {
    steps.push(
      `c = q % ke${dim}; q = q / ke${dim}; ${names.map((x) => `b${x} += c * k${x}_${dim};`).join(" ")}`,
    );
  }
  steps.push(names.map((x) => `b${x} += q * k${x}_0;`).join(" "));
  return `${ix} ${names.map((x) => `b${x} = 0`).join(", ")};
    { ${ix} q = ${o}, c; ${steps.join(" ")} }`;
}

/** The store of the result for output `o`, or of the accumulator as a partial when the grid splits the reduction. */
function finish(code: ReductionCode, kept: number, ix: string, d: Dialect, split: string): string {
  const scalars = code.scalars.map((_, j) => `s${j}`);
  const value = targetOf(d).castTo(code.epilogue("acc", scalars, "nRed"), code.out);
  const write = `${keptOffsets(["out"], kept, ix, "o")} pout[bout] = ${value};`;
  return split === "" ? write : `if (${split}) { ${write} } else part[(${ix})${ids(d).by} * nOut + o] = acc;`;
}

function castPartial(d: Dialect): string {
  const g = targetOf(d).globalSpace;
  return `${g}acc_t *part = (${g}acc_t *)partial;`;
}

/** The parameters common to both stages after the operands: output, partials, scalars, extents. */
function tailParams(code: ReductionCode, kept: number, ix: string, d: Dialect): string[] {
  const t = targetOf(d);
  const list = [t.pointerParam(code.out, "pout"), `${wideType(d)} oout`];
  for (let dim = 0; dim < kept; dim++) list.push(`${ix} kout_${dim}`);
  list.push(t.pointerParam("uint8", "partial"));
  code.scalars.forEach((s, j) => list.push(`${t.cType(s)} s${j}`));
  for (let dim = 1; dim < kept; dim++) list.push(`${ix} ke${dim}`);
  return list;
}

/** The stage-1 kernel (`cudeno_reduce` unless the code names it) for `plan`. */
export function reductionSource(code: ReductionCode, plan: ReductionPlan, d: Dialect): string {
  const t = targetOf(d);
  const ix = ixType(plan.narrow, d);
  const { tid, bx, by, ny } = ids(d);
  const k = plan.arrays.map((_, i) => i);
  const scalars = code.scalars.map((_, j) => `s${j}`);
  const pointers = k.map((i) => `p${i}`);
  const params: string[] = [];
  plan.arrays.forEach((a, i) => {
    params.push(t.pointerParam(a.dtype, `p${i}`, true), `${wideType(d)} o${i}`);
    for (let dim = 0; dim < plan.kept; dim++) params.push(`${ix} k${i}_${dim}`);
    for (let dim = 0; dim < plan.reduced; dim++) params.push(`${ix} r${i}_${dim}`);
  });
  params.push(...tailParams(code, plan.kept, ix, d));
  for (let dim = 1; dim < plan.reduced; dim++) params.push(`${ix} re${dim}`);
  params.push(`${ix} nOut`, `${ix} nRed`, `${ix} chunk`);

  /** Sets `into` from the operands' elements at reduced index `r`. */
  const element = (r: string, into: string): string => {
    if (plan.reduced === 1) {
      return `{ ${
        code.prologue(k.map((i) => `p${i}[b${i} + (${r}) * r${i}_0]`), scalars, r, into, pointers)
      } }`;
    }
    const steps: string[] = [];
    for (let dim = plan.reduced - 1; dim >= 1; dim--) {
      steps.push(
        `c = q % re${dim}; q = q / re${dim}; ${k.map((i) => `a${i} += c * r${i}_${dim};`).join(" ")}`,
      );
    }
    steps.push(k.map((i) => `a${i} += q * r${i}_0;`).join(" "));
    return `{ ${ix} ${k.map((i) => `a${i} = 0`).join(", ")}; { ${ix} q = ${r}, c; ${steps.join(" ")} }
        ${code.prologue(k.map((i) => `p${i}[b${i} + a${i}]`), scalars, r, into, pointers)} }`;
  };
  /** Folds reduced elements start, start + step, ... below r1 into `acc`, `unroll` loads at a time. */
  const walk = (start: string, step: number, unroll: number): string => {
    const v = Array.from({ length: unroll }, (_, u) => u);
    return `${ix} r = r0 + ${start};
    for (; r + ${(unroll - 1) * step} < r1; r += ${unroll * step}) {
      acc_t ${v.map((u) => `v${u}`).join(", ")};
      ${v.map((u) => element(u === 0 ? "r" : `r + ${u * step}`, `v${u}`)).join("\n      ")}
      acc = cudeno_combine(acc, ${pairwise(v.map((u) => `v${u}`))});
    }
    for (; r < r1; r += ${step}) { acc_t v; ${element("r", "v")} acc = cudeno_combine(acc, v); }`;
  };

  const rebase = k.map((i) => `p${i} += o${i};`).join(" ");
  const common = `${castPartial(d)} ${rebase} pout += oout;
  const int tid = ${tid};
  const ${ix} r0 = (${ix})${by} * chunk;
  const ${ix} r1 = nRed - r0 < chunk ? nRed : r0 + chunk;
  acc_t acc = cudeno_identity();`;
  const operands = k.map(String);
  let body: string;
  if (plan.path === "row") {
    const lanes = plan.lanes, groups = BLOCK / lanes;
    const inner = plan.vector ? vectorWalk(plan, code, element, ix, d) : walk("l", lanes, 4);
    body = `${common}
  const int l = tid % ${lanes};
  const ${ix} o = (${ix})${bx} * ${groups} + tid / ${lanes};
  if (o < nOut) {
    ${keptOffsets(operands, plan.kept, ix, "o")}
    ${inner}
  }
  ${laneCombine(lanes, d)}
  if (l == 0 && o < nOut) { ${finish(code, plan.kept, ix, d, `${ny} == 1`)} }`;
  } else {
    const rows = BLOCK / COLUMNS;
    body = `${common}
  const int tx = tid % ${COLUMNS}, ty = tid / ${COLUMNS};
  const ${ix} o = (${ix})${bx} * ${COLUMNS} + tx;
  if (o < nOut) {
    ${keptOffsets(operands, plan.kept, ix, "o")}
    ${walk("ty", rows, 8)}
  }
  sh[tid] = acc;
  ${t.barrier}
  for (int s = ${rows / 2}; s > 0; s >>= 1) {
    if (ty < s) sh[tid] = cudeno_combine(sh[tid], sh[tid + s * ${COLUMNS}]);
    ${t.barrier}
  }
  if (ty == 0 && o < nOut) { acc = sh[tid]; ${finish(code, plan.kept, ix, d, `${ny} == 1`)} }`;
  }
  const structs = plan.vector ? t.vectorTypes(plan.arrays.filter((a) => !a.uniform).map((a) => a.dtype)) : "";
  return `${sourceHead(code, plan.arrays.map((a) => a.dtype), d)}
${structs}
${t.kernelHead} ${code.name ?? "cudeno_reduce"}(${params.join(", ")}) {
  ${t.sharedQualifier} acc_t sh[${BLOCK}];
  ${body}
}
`;
}

/** `cudeno_combine` of the accumulators `terms`, as a balanced tree. */
function pairwise(terms: readonly string[]): string {
  if (terms.length === 1) return terms[0]!;
  const half = terms.length >> 1;
  return `cudeno_combine(${pairwise(terms.slice(0, half))}, ${pairwise(terms.slice(half))})`;
}

/** The row path's walk with vector loads: four vectors of four elements in flight per lane, then the rest one by one. */
function vectorWalk(
  plan: ReductionPlan,
  code: ReductionCode,
  element: (r: string, into: string) => string,
  ix: string,
  d: Dialect,
): string {
  const t = targetOf(d);
  const lanes = plan.lanes;
  const scalars = code.scalars.map((_, j) => `s${j}`);
  const pointers = plan.arrays.map((_, i) => `p${i}`);
  const stepped = plan.arrays.map((a, i) => ({ ...a, i })).filter((a) => !a.uniform);
  const loads = (u: number, e: string) =>
    stepped.map((a) => t.vectorLoad(a.dtype, `w${a.i}_${u}`, `p${a.i} + b${a.i} + ${e}`)).join(" ");
  const fold = (u: number, e: string, into: string) => {
    const refs = (j: number) =>
      plan.arrays.map((a, i) => (a.uniform ? `p${i}[b${i}]` : t.vectorPart(`w${i}_${u}`, j)));
    const one = (j: number, into: string) => code.prologue(refs(j), scalars, `(${e} + ${j})`, into, pointers);
    const rest = [1, 2, 3].map((j) => `{ acc_t v; ${one(j, "v")} ${into} = cudeno_combine(${into}, v); }`);
    return `acc_t ${into}; { ${one(0, into)} } ${rest.join(" ")}`;
  };
  const e = (u: number) => `e${u}`;
  const four = [0, 1, 2, 3];
  return `const ${ix} nv = (r1 - r0) >> 2;
    ${ix} q = l;
    for (; q + ${3 * lanes} < nv; q += ${4 * lanes}) {
      ${four.map((u) => `const ${ix} ${e(u)} = r0 + ((q + ${u * lanes}) << 2);`).join(" ")}
      ${four.map((u) => loads(u, e(u))).join("\n      ")}
      ${four.map((u) => fold(u, e(u), `t${u}`)).join("\n      ")}
      acc = cudeno_combine(acc, ${pairwise(["t0", "t1", "t2", "t3"])});
    }
    for (; q < nv; q += ${lanes}) {
      const ${ix} e0 = r0 + (q << 2);
      ${loads(0, "e0")}
      ${fold(0, "e0", "t0")}
      acc = cudeno_combine(acc, t0);
    }
    for (${ix} r = r0 + (nv << 2) + l; r < r1; r += ${lanes}) { acc_t v; ${
    element("r", "v")
  } acc = cudeno_combine(acc, v); }`;
}

/**
 * The stage-2 kernel (`cudeno_reduce_final` unless the code names it): combines `parts` partial accumulators per output (laid
 * out `[parts, nOut]`) and writes the results: with `perBlock`, a block per output, else a thread
 * per output.
 */
export function finalSource(
  code: ReductionCode,
  kept: number,
  narrow: boolean,
  perBlock: boolean,
  d: Dialect,
): string {
  const ix = ixType(narrow, d);
  const { tid, bx } = ids(d);
  const params = tailParams(code, kept, ix, d);
  params.push(`${ix} nOut`, `${ix} nRed`, `${ix} parts`);
  const fold = perBlock
    ? `const int l = tid;
  const ${ix} o = ${bx};
  for (${ix} s = tid; s < parts; s += ${BLOCK}) acc = cudeno_combine(acc, part[s * nOut + o]);
  ${laneCombine(BLOCK, d)}
  if (tid == 0) { ${finish(code, kept, ix, d, "")} }`
    : `const ${ix} o = (${ix})${bx} * ${BLOCK} + tid;
  if (o < nOut) {
    for (${ix} s = 0; s < parts; s++) acc = cudeno_combine(acc, part[s * nOut + o]);
    ${finish(code, kept, ix, d, "")}
  }`;
  return `${sourceHead(code, [], d)}
${targetOf(d).kernelHead} ${code.name ?? "cudeno_reduce"}_final(${params.join(", ")}) {
  ${targetOf(d).sharedQualifier} acc_t sh[${BLOCK}];
  ${castPartial(d)} pout += oout;
  const int tid = ${tid};
  acc_t acc = cudeno_identity();
  ${fold}
}
`;
}
