/**
 * The CUDA C and OpenCL C of `softmax` and `logSoftmax` along one axis, numerically stable (the
 * row's maximum is subtracted before `exp`), in one kernel. Row path (the axis is the innermost in
 * memory): a warp or a block per row; a row that fits is read once into registers (4-element vector
 * loads and stores where aligned), its maximum and sum of exponentials found with warp
 * shuffles or local memory, and written once. Longer rows, and the column path (threads across
 * neighbouring rows of an outer axis), read the data again from cache for each of the three steps.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import type { DType } from "../kernel/dtype.ts";
import {
  barrier,
  castTo,
  computeType,
  cType,
  infinity,
  kernelHead,
  load,
  mathFn,
  pointerParam,
  preamble,
} from "./codegen.ts";
import { BLOCK, COLUMNS, VEC, vectorLoad, vectorPart, vectorStore, vectorTypes } from "./reduction_source.ts";

/** What a softmax source depends on. */
export interface SoftmaxPlan {
  /** Row path: lanes of a group walk the axis; column path: threads across neighbouring outputs. */
  readonly path: "row" | "col";
  /** Row path: threads per row (32 or {@link BLOCK}). */
  readonly lanes: number;
  /** Row path: elements each lane keeps in registers (the row fits in `lanes * items`), or 0. */
  readonly items: number;
  /** Cached row path: 4-element vector loads and stores. */
  readonly vector: boolean;
  /** Kept dimensions after coalescing. */
  readonly kept: number;
  /** Whether index math fits 32 bits. */
  readonly narrow: boolean;
  /** The input's dtype. */
  readonly input: DType;
  /** The result's dtype (a float). */
  readonly out: DType;
  /** `logSoftmax` rather than `softmax`. */
  readonly log: boolean;
}

/** `op(a, b)` for the maximum (NaN propagating) and the sum. */
const MAX = (a: string, b: string) => `((${a} != ${a} || ${a} > ${b}) ? ${a} : ${b})`;
const ADD = (a: string, b: string) => `(${a} + ${b})`;

/** Combines `v` over the `lanes` threads of a row group and gives every one of them the result. */
function rowAll(v: string, op: (a: string, b: string) => string, lanes: number, d: Dialect): string {
  // The shuffle is taken once, by every lane, before the combine: `op` may name its operand twice
  // (the NaN-propagating max does), and a shuffle some lanes skip hangs the warp.
  const butterfly =
    `for (int off = 16; off > 0; off >>= 1) { const auto cudeno_other = __shfl_xor_sync(0xffffffffu, ${v}, off); ${v} = ${
      op(v, "cudeno_other")
    }; }`;
  if (d === "cuda" && lanes === 32) return butterfly;
  if (d === "cuda") {
    return `${butterfly}
  if ((tid & 31) == 0) sh[tid >> 5] = ${v};
  __syncthreads();
  ${v} = sh[0];
  for (int w = 1; w < ${lanes / 32}; w++) ${v} = ${op(v, "sh[w]")};
  __syncthreads();`;
  }
  return `sh[tid] = ${v};
  ${barrier(d)}
  for (int h = ${lanes / 2}; h > 0; h >>= 1) {
    if (l < h) sh[tid] = ${op("sh[tid]", "sh[tid + h]")};
    ${barrier(d)}
  }
  ${v} = sh[tid - l];
  ${barrier(d)}`;
}

/** Combines `v` over the rows of threads of a column group and gives every one of them the result. */
function columnAll(v: string, op: (a: string, b: string) => string, d: Dialect): string {
  return `sh[tid] = ${v};
  ${barrier(d)}
  for (int h = ${BLOCK / COLUMNS / 2}; h > 0; h >>= 1) {
    if (ty < h) sh[tid] = ${op("sh[tid]", `sh[tid + h * ${COLUMNS}]`)};
    ${barrier(d)}
  }
  ${v} = sh[tx];
  ${barrier(d)}`;
}

/** `b0` and `bout`: the offsets of row `o` in the input and the output. */
function rowOffsets(kept: number, ix: string, o: string): string {
  if (kept === 1) return `const ${ix} b0 = (${o}) * k0_0, bout = (${o}) * kout_0;`;
  const steps: string[] = [];
  for (let dim = kept - 1; dim >= 1; dim--) {
    steps.push(`c = q % ke${dim}; q = q / ke${dim}; b0 += c * k0_${dim}; bout += c * kout_${dim};`);
  }
  return `${ix} b0 = 0, bout = 0;
  { ${ix} q = ${o}, c; ${steps.join(" ")} b0 += q * k0_0; bout += q * kout_0; }`;
}

/** The kernel `cudeno_softmax` for `plan`. */
export function softmaxSource(plan: SoftmaxPlan, d: Dialect): string {
  const wide = d === "cuda" ? "long long" : "long";
  const ix = plan.narrow ? "int" : wide;
  const t = computeType(plan.out), c = cType(t, d);
  const [exp, logf] = [mathFn("exp", t, d), mathFn("log", t, d)];
  const ninf = infinity(t, d, true);
  const params = [pointerParam(plan.input, "p0", d, true), `${wide} o0`];
  for (let dim = 0; dim < plan.kept; dim++) params.push(`${ix} k0_${dim}`);
  params.push(`${ix} rs0`, pointerParam(plan.out, "pout", d), `${wide} oout`);
  for (let dim = 0; dim < plan.kept; dim++) params.push(`${ix} kout_${dim}`);
  params.push(`${ix} rsout`);
  for (let dim = 1; dim < plan.kept; dim++) params.push(`${ix} ke${dim}`);
  params.push(`${ix} nOut`, `${ix} n`);
  const read = (r: string) => `(${c})${load(`p0[b0 + (${r}) * rs0]`, plan.input, d)}`;
  // The cached row keeps softmax's exponentials; the other paths read x again.
  const cached = plan.path === "row" && plan.items > 0;
  const result = (x: string) => (plan.log ? `${x} - m - ls` : cached ? `${x} / s` : `${exp}(${x} - m) / s`);
  const value = (x: string) => castTo(result(x), plan.out, d);
  const write = (r: string, x: string) => `pout[bout + (${r}) * rsout] = ${value(x)};`;
  const finishSums = plan.log ? `const ${c} ls = ${logf}(s);` : "";
  const ids = d === "cuda"
    ? { tid: "threadIdx.x", bx: "blockIdx.x" }
    : { tid: "get_local_id(0)", bx: "get_group_id(0)" };
  const start = `${d === "cuda" ? "__shared__" : "__local"} ${c} sh[${BLOCK}];
  p0 += o0; pout += oout;
  const int tid = ${ids.tid};`;
  /** Three walks over `start, start + step, ...` below n: the maximum, the sum of exponentials, the results. */
  const threeWalks = (first: string, step: number, all: (v: string, op: typeof MAX) => string) =>
    `${c} m = ${ninf};
  if (live) for (${ix} r = ${first}; r < n; r += ${step}) { const ${c} x = ${read("r")}; m = ${
      MAX("x", "m")
    }; }
  ${all("m", MAX)}
  ${c} s = 0;
  if (live) for (${ix} r = ${first}; r < n; r += ${step}) s += ${exp}(${read("r")} - m);
  ${all("s", ADD)}
  ${finishSums}
  if (live) for (${ix} r = ${first}; r < n; r += ${step}) { const ${c} x = ${read("r")}; ${
      write("r", "x")
    } }`;
  let body: string;
  if (plan.path === "col") {
    body = `const int tx = tid % ${COLUMNS}, ty = tid / ${COLUMNS};
  const ${ix} o = (${ix})${ids.bx} * ${COLUMNS} + tx;
  const bool live = o < nOut;
  ${rowOffsets(plan.kept, ix, "live ? o : 0")}
  ${threeWalks("ty", BLOCK / COLUMNS, (v, op) => columnAll(v, op, d))}`;
  } else {
    const lanes = plan.lanes;
    const rowStart = `const int l = tid % ${lanes};
  const ${ix} o = (${ix})${ids.bx} * ${BLOCK / lanes} + tid / ${lanes};
  const bool live = o < nOut;
  ${rowOffsets(plan.kept, ix, "live ? o : 0")}`;
    body = plan.items === 0
      ? `${rowStart}
  ${threeWalks("l", lanes, (v, op) => rowAll(v, op, lanes, d))}`
      : `${rowStart}
  ${cachedRow(plan, c, ix, read, d)}
  ${finishSums}
  ${plan.vector ? vectorStores(plan, ix, value, write, d) : scalarStores(plan, ix, write)}`;
  }
  const vec = plan.vector ? vectorTypes([plan.input, plan.out], d) : "";
  return `${preamble([plan.input, plan.out, t], d)}
${vec}
${kernelHead(d)} cudeno_softmax(${params.join(", ")}) {
  ${start}
  ${body}
}
`;
}

/**
 * Loads the row into `x[items]` (lane l holds elements l, l + lanes, ... or, with vectors, groups of
 * four), then finds the maximum `m` and the sum of exponentials `s`; for softmax, `x` then holds the
 * exponentials.
 */
function cachedRow(
  plan: SoftmaxPlan,
  c: string,
  ix: string,
  read: (r: string) => string,
  d: Dialect,
): string {
  const { lanes, items } = plan;
  const t = computeType(plan.out);
  const exp = mathFn("exp", t, d), ninf = infinity(t, d, true);
  const four = [0, 1, 2, 3];
  const loads = plan.vector
    ? `for (int j = 0; j < ${items / VEC}; j++) {
    const ${ix} e = ((${ix})l + (${ix})j * ${lanes}) * ${VEC};
    if (live && e + ${VEC - 1} < n) {
      ${vectorLoad(plan.input, "w", "p0 + b0 + e", d)}
      ${
      four.map((u) => `x[j * ${VEC} + ${u}] = (${c})${load(vectorPart("w", u, d), plan.input, d)};`).join(" ")
    }
    } else {
      ${
      four.map((u) => `x[j * ${VEC} + ${u}] = (live && e + ${u} < n) ? ${read(`e + ${u}`)} : ${ninf};`).join(
        " ",
      )
    }
    }
  }`
    : `for (int j = 0; j < ${items}; j++) {
    const ${ix} r = (${ix})l + (${ix})j * ${lanes};
    x[j] = (live && r < n) ? ${read("r")} : ${ninf};
  }`;
  const unroll = d === "cuda" ? "#pragma unroll\n  " : "";
  return `${c} x[${items}];
  ${unroll}${loads}
  ${c} m = ${ninf};
  ${unroll}for (int j = 0; j < ${items}; j++) m = ${MAX("x[j]", "m")};
  ${rowAll("m", MAX, lanes, d)}
  ${c} s = 0;
  ${unroll}for (int j = 0; j < ${items}; j++) {
    const ${c} e = x[j] == ${ninf} ? (${c})0 : ${exp}(x[j] - m);
    s += e;${plan.log ? "" : "\n    x[j] = e;"}
  }
  ${rowAll("s", ADD, lanes, d)}`;
}

function scalarStores(plan: SoftmaxPlan, ix: string, write: (r: string, x: string) => string): string {
  return `if (live) for (int j = 0; j < ${plan.items}; j++) {
    const ${ix} r = (${ix})l + (${ix})j * ${plan.lanes};
    if (r < n) { ${write("r", "x[j]")} }
  }`;
}

function vectorStores(
  plan: SoftmaxPlan,
  ix: string,
  value: (x: string) => string,
  write: (r: string, x: string) => string,
  d: Dialect,
): string {
  const four = [0, 1, 2, 3];
  const x = (u: number) => `x[j * ${VEC} + ${u}]`;
  return `if (live) for (int j = 0; j < ${plan.items / VEC}; j++) {
    const ${ix} e = ((${ix})l + (${ix})j * ${plan.lanes}) * ${VEC};
    if (e + ${VEC - 1} < n) {
      ${vectorStore(plan.out, four.map((u) => value(x(u))), "pout + bout + e", d)}
    } else {
      ${four.map((u) => `if (e + ${u} < n) { ${write(`e + ${u}`, x(u))} }`).join(" ")}
    }
  }`;
}
