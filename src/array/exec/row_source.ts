/**
 * The CUDA C and OpenCL C of row kernels: work along one axis in one kernel, each row (the elements
 * along the axis at one kept position) folded by one or more reductions in turn (**stages**, each of
 * which may read the results of the ones before), then an output written for every element of the
 * row from its elements and the stages' results. `softmax` is one (the row's maximum, then the sum of
 * `exp(x - max)`, then `exp(x - max) / sum`), and so is a fused function that normalises rows.
 *
 * Row path (the axis is the innermost in memory): a warp or a block per row; a row that fits is read
 * once into registers (4-element vector loads and stores where aligned) and every stage and the
 * output read it from there, so the row is read and written once. Longer rows, and the column path
 * (threads across neighbouring rows of an outer axis), read the elements again from cache for each
 * stage and for the output. Every thread of a row's group ends a stage with the same total (combined
 * in one order, then broadcast), so every element sees the same per-row value.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";
import {
  accDTypes,
  type Accumulator,
  accumulatorCode,
  BLOCK,
  COLUMNS,
  keptOffsets,
  VEC,
} from "./reduction_source.ts";

/** One reduction over each row. */
export interface RowStage {
  /** The accumulator. */
  readonly acc: Accumulator;
  /** C statements of `acc_t combine(acc_t a, acc_t b)`, ending in a return. */
  readonly combine: string;
  /**
   * C statements that set accumulator `value` from the operands' elements `ref[k]` (as stored), the
   * scalars, the element's position `index` along the row and `results`, the per-row values of the
   * stages before this one.
   */
  readonly prologue: (
    ref: readonly string[],
    scalar: readonly string[],
    index: string,
    value: string,
    results: readonly string[],
  ) => string;
  /** The stage's per-row value from its accumulator `acc`, a C expression; `count` is the row's length. */
  readonly epilogue: (acc: string, scalar: readonly string[], count: string) => string;
  /** The dtype the per-row value is kept in (converted as a stored value of it would be). */
  readonly out: DType;
}

/** The C pieces of a row kernel that do not depend on layouts. */
export interface RowCode {
  /** The kernel's name. */
  readonly name: string;
  /** The reductions, in the order they run. */
  readonly stages: readonly RowStage[];
  /** C statements that set `target` (an element of {@link out}) from the operands' elements, the scalars and the stages' per-row values. */
  readonly output: (
    ref: readonly string[],
    scalar: readonly string[],
    results: readonly string[],
    target: string,
  ) => string;
  /** The output's dtype. */
  readonly out: DType;
  /** Each scalar parameter's dtype. */
  readonly scalars: readonly DType[];
  /** C code placed before the kernel (helper functions, headers). */
  readonly helpers: string;
}

/** What a row kernel's source depends on besides its {@link RowCode}. */
export interface RowPlan {
  /** Row path: lanes of a group walk the axis; column path: threads across neighbouring rows. */
  readonly path: "row" | "col";
  /** Row path: threads per row (32 or {@link BLOCK}). */
  readonly lanes: number;
  /** Row path: elements each lane keeps in registers per operand (the row fits in `lanes * items`), or 0. */
  readonly items: number;
  /** Cached row path: 4-element vector loads and stores. */
  readonly vector: boolean;
  /** Kept dimensions after coalescing. */
  readonly kept: number;
  /** Whether index math fits 32 bits. */
  readonly narrow: boolean;
  /** Each operand's dtype, and whether it stays on one element along the row (stride 0). */
  readonly arrays: readonly { readonly dtype: DType; readonly uniform: boolean }[];
}

/** Combines accumulator `a` of stage `s` over the threads of a row's group; every one of them ends with the total. */
function groupAll(plan: RowPlan, s: number, d: Dialect): string {
  const t = targetOf(d);
  const combine = `cudeno_combine${s}`, sh = `sh${s}`;
  if (plan.path === "col") {
    return `${sh}[tid] = a${s};
  ${t.barrier}
  for (int h = ${BLOCK / COLUMNS / 2}; h > 0; h >>= 1) {
    if (ty < h) ${sh}[tid] = ${combine}(${sh}[tid], ${sh}[tid + h * ${COLUMNS}]);
    ${t.barrier}
  }
  a${s} = ${sh}[tx];
  ${t.barrier}`;
  }
  if (t.warpShuffle) {
    const warp =
      `for (int off = 16; off > 0; off >>= 1) a${s} = ${combine}(a${s}, cudeno_shfl${s}(a${s}, off));`;
    if (plan.lanes === 32) {
      return `${warp}
  if (l == 0) ${sh}[tid >> 5] = a${s};
  ${t.barrier}
  a${s} = ${sh}[tid >> 5];
  ${t.barrier}`;
    }
    return `${warp}
  if ((tid & 31) == 0) ${sh}[tid >> 5] = a${s};
  ${t.barrier}
  if (tid < 32) {
    a${s} = tid < ${BLOCK / 32} ? ${sh}[tid] : cudeno_identity${s}();
    ${warp}
    if (tid == 0) ${sh}[0] = a${s};
  }
  ${t.barrier}
  a${s} = ${sh}[0];
  ${t.barrier}`;
  }
  return `${sh}[tid] = a${s};
  ${t.barrier}
  for (int h = ${plan.lanes / 2}; h > 0; h >>= 1) {
    if (l < h) ${sh}[tid] = ${combine}(${sh}[tid], ${sh}[tid + h]);
    ${t.barrier}
  }
  a${s} = ${sh}[tid - l];
  ${t.barrier}`;
}

/** The kernel for `code` and `plan`. */
export function rowSource(code: RowCode, plan: RowPlan, d: Dialect): string {
  const t = targetOf(d);
  const wide = t.indexType;
  const ix = plan.narrow ? "int" : wide;
  const k = plan.arrays.map((_, i) => i);
  const params: string[] = [];
  plan.arrays.forEach((a, i) => {
    params.push(t.pointerParam(a.dtype, `p${i}`, true), `${wide} o${i}`);
    for (let dim = 0; dim < plan.kept; dim++) params.push(`${ix} k${i}_${dim}`);
    params.push(`${ix} rs${i}`);
  });
  params.push(t.pointerParam(code.out, "pout"), `${wide} oout`);
  for (let dim = 0; dim < plan.kept; dim++) params.push(`${ix} kout_${dim}`);
  params.push(`${ix} rsout`);
  code.scalars.forEach((s, j) => params.push(`${t.cType(s)} s${j}`));
  for (let dim = 1; dim < plan.kept; dim++) params.push(`${ix} ke${dim}`);
  params.push(`${ix} nOut`, `${ix} n`);
  const scalars = code.scalars.map((_, j) => `s${j}`);
  const results = code.stages.map((_, s) => `rv${s}`);
  const ids = { tid: t.threadIds.local, bx: t.threadIds.group };
  /** The operands' elements at position `r` along the row, read from memory. */
  const memory = (r: string) =>
    k.map((i) => (plan.arrays[i]!.uniform ? `p${i}[b${i}]` : `p${i}[b${i} + (${r}) * rs${i}]`));
  const fold = (s: number, refs: readonly string[], r: string) =>
    `{ cudeno_acc${s} v; { ${
      code.stages[s]!.prologue(refs, scalars, r, "v", results.slice(0, s))
    } } a${s} = cudeno_combine${s}(a${s}, v); }`;
  const finishStage = (s: number) => {
    const stage = code.stages[s]!;
    return `${groupAll(plan, s, d)}
  const ${t.cType(stage.out)} rv${s} = ${t.castTo(stage.epilogue(`a${s}`, scalars, "n"), stage.out)};`;
  };
  const write = (refs: readonly string[], target: string) =>
    `{ ${code.output(refs, scalars, results, target)} }`;
  /** Every stage and the output, each walking `first, first + step, ...` below n through memory. */
  const walks = (first: string, step: number) =>
    [
      ...code.stages.map((_, s) =>
        `cudeno_acc${s} a${s} = cudeno_identity${s}();
  if (live) for (${ix} r = ${first}; r < n; r += ${step}) ${fold(s, memory("r"), "r")}
  ${finishStage(s)}`
      ),
      `if (live) for (${ix} r = ${first}; r < n; r += ${step}) ${
        write(memory("r"), "pout[bout + r * rsout]")
      }`,
    ].join("\n  ");
  const offsets = (o: string) => keptOffsets([...k.map(String), "out"], plan.kept, ix, o);
  let body: string;
  if (plan.path === "col") {
    body = `const int tx = tid % ${COLUMNS}, ty = tid / ${COLUMNS};
  const ${ix} o = (${ix})${ids.bx} * ${COLUMNS} + tx;
  const bool live = o < nOut;
  ${offsets("live ? o : 0")}
  ${walks("ty", BLOCK / COLUMNS)}`;
  } else {
    const rowStart = `const int l = tid % ${plan.lanes};
  const ${ix} o = (${ix})${ids.bx} * ${BLOCK / plan.lanes} + tid / ${plan.lanes};
  const bool live = o < nOut;
  ${offsets("live ? o : 0")}`;
    body = plan.items === 0
      ? `${rowStart}
  ${walks("l", plan.lanes)}`
      : `${rowStart}
  ${cachedRow(code, plan, ix, fold, finishStage, write, d)}`;
  }
  const stageTypes = code.stages.flatMap((s) => [...accDTypes(s.acc), s.out]);
  const dtypes = [...plan.arrays.map((a) => a.dtype), code.out, ...code.scalars, ...stageTypes];
  const vectors = plan.vector
    ? t.vectorTypes([...plan.arrays.filter((a) => !a.uniform).map((a) => a.dtype), code.out])
    : "";
  return `${t.preamble(dtypes)}
${vectors}
${code.helpers}
${code.stages.map((s, i) => accumulatorCode({ ...s, helpers: "" }, d, String(i))).join("\n")}
${t.kernelHead} ${code.name}(${params.join(", ")}) {
  ${code.stages.map((_, s) => `${t.sharedQualifier} cudeno_acc${s} sh${s}[${BLOCK}];`).join(" ")}
  ${k.map((i) => `p${i} += o${i};`).join(" ")} pout += oout;
  const int tid = ${ids.tid};
  ${body}
}
`;
}

/**
 * The cached row path: each lane loads its share of the row (elements l, l + lanes, ... or, with
 * vectors, groups of four) of every operand that moves along the row into registers, runs the stages
 * over them, and writes the outputs.
 */
function cachedRow(
  code: RowCode,
  plan: RowPlan,
  ix: string,
  fold: (s: number, refs: readonly string[], r: string) => string,
  finishStage: (s: number) => string,
  write: (refs: readonly string[], target: string) => string,
  d: Dialect,
): string {
  const t = targetOf(d);
  const { lanes, items } = plan;
  const stepped = plan.arrays.map((a, i) => ({ ...a, i })).filter((a) => !a.uniform);
  const unroll = t.unroll("  ");
  const cached = (q: string) => plan.arrays.map((a, i) => (a.uniform ? `p${i}[b${i}]` : `x${i}[${q}]`));
  const four = [0, 1, 2, 3];
  // Position along the row of cached element q: l + q * lanes, or with vectors (l + (q / 4) * lanes) * 4 + q % 4.
  const position = plan.vector
    ? `(((${ix})l + (${ix})(q >> 2) * ${lanes}) << 2) + (q & 3)`
    : `(${ix})l + (${ix})q * ${lanes}`;
  const declare = stepped.map((a) => `${t.cType(a.dtype)} x${a.i}[${items}];`).join(" ");
  const loads = plan.vector
    ? `for (int j = 0; j < ${items / VEC}; j++) {
    const ${ix} e = ((${ix})l + (${ix})j * ${lanes}) * ${VEC};
    if (live && e + ${VEC - 1} < n) {
      ${
      stepped.map((a) =>
        `{ ${t.vectorLoad(a.dtype, "w", `p${a.i} + b${a.i} + e`)} ${
          four.map((u) => `x${a.i}[j * ${VEC} + ${u}] = ${t.vectorPart("w", u)};`).join(" ")
        } }`
      ).join("\n      ")
    }
    } else {
      ${
      four.map((u) =>
        `if (live && e + ${u} < n) { ${
          stepped.map((a) => `x${a.i}[j * ${VEC} + ${u}] = p${a.i}[b${a.i} + e + ${u}];`).join(" ")
        } }`
      ).join("\n      ")
    }
    }
  }`
    : `for (int q = 0; q < ${items}; q++) {
    const ${ix} r = ${position};
    if (live && r < n) { ${stepped.map((a) => `x${a.i}[q] = p${a.i}[b${a.i} + r * rs${a.i}];`).join(" ")} }
  }`;
  const stages = code.stages.map((_, s) =>
    `cudeno_acc${s} a${s} = cudeno_identity${s}();
  ${unroll}for (int q = 0; q < ${items}; q++) {
    const ${ix} r = ${position};
    if (live && r < n) ${fold(s, cached("q"), "r")}
  }
  ${finishStage(s)}`
  ).join("\n  ");
  const out = t.cType(code.out);
  const stores = plan.vector
    ? `if (live) for (int j = 0; j < ${items / VEC}; j++) {
    const ${ix} e = ((${ix})l + (${ix})j * ${lanes}) * ${VEC};
    if (e + ${VEC - 1} < n) {
      ${out} ${four.map((u) => `y${u}`).join(", ")};
      ${four.map((u) => write(cached(`j * ${VEC} + ${u}`), `y${u}`)).join(" ")}
      ${t.vectorStore(code.out, four.map((u) => `y${u}`), "pout + bout + e")}
    } else {
      ${
      four.map((u) => `if (e + ${u} < n) ${write(cached(`j * ${VEC} + ${u}`), `pout[bout + e + ${u}]`)}`)
        .join("\n      ")
    }
    }
  }`
    : `if (live) for (int q = 0; q < ${items}; q++) {
    const ${ix} r = ${position};
    if (r < n) ${write(cached("q"), "pout[bout + r * rsout]")}
  }`;
  return `${declare}
  ${unroll}${loads}
  ${stages}
  ${stores}`;
}
