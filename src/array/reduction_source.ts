/**
 * The source of a two-stage tree reduction: stage 1 folds a grid-stride share of the elements per
 * thread (four independent loads in flight per step), then a shared-memory tree per block into one
 * partial per block; stage 2 folds the partials the same way into the last slot of the buffer.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { barrier, cType, indexType, kernelHead, threadIds } from "./codegen.ts";
import type { ReductionPlan } from "./reduce.ts";

/** How many partial results stage 1 writes at most; stage 2 writes the total after them. */
export const PARTIAL_SLOTS = 1024;

function paramName(decl: string): string {
  const m = /([A-Za-z_]\w*)\s*(\[\s*\])?\s*$/.exec(decl);
  if (m === null) throw new SyntaxError(`Cannot read a parameter name from "${decl}"`);
  return m[1]!;
}

function treeFold(prefix: string, block: number, dialect: Dialect): string {
  const { local } = threadIds(dialect);
  return `  sdata[${local}] = acc;
  ${barrier(dialect)}
  for (int s = ${block / 2}; s > 0; s >>= 1) {
    if (${local} < s) sdata[${local}] = ${prefix}_reduce(sdata[${local}], sdata[${local} + s]);
    ${barrier(dialect)}
  }`;
}

/** Both stages' source and kernel names for `plan`, for blocks of `block` threads (a power of two). */
export function reductionSource(
  plan: ReductionPlan,
  dialect: Dialect,
  block: number,
): { source: string; stage1: string; stage2: string } {
  const acc = cType(plan.acc, dialect);
  const ix = indexType(dialect);
  const fn = dialect === "cuda" ? "__device__ __forceinline__" : "inline";
  const shared = dialect === "cuda" ? "__shared__" : "__local";
  const accPtr = dialect === "cuda" ? `${acc} *__restrict__ partial` : `__global ${acc} *partial`;
  const names = plan.params.map(paramName).join(", ");
  const args = names === "" ? "" : `${names}, `;
  const { local, group, groupSize, groups } = threadIds(dialect);
  const p = plan.key;
  const stage1 = `${p}_stage1`;
  const stage2 = `${p}_stage2`;
  const params = plan.params.join(", ");
  const source = `${plan.preamble}
${fn} ${acc} ${p}_reduce(${acc} a, ${acc} b) { return ${plan.reduce}; }
${fn} ${acc} ${p}_map(${params}${params === "" ? "" : ", "}${ix} i) { return ${plan.map}; }
${kernelHead(dialect)} ${stage1}(${params}${params === "" ? "" : ", "}${accPtr}, ${ix} n) {
  ${shared} ${acc} sdata[${block}];
  ${acc} acc = ${plan.neutral};
  const ${ix} gs = (${ix})${groups} * ${groupSize};
  ${ix} i = (${ix})${group} * ${groupSize} + ${local};
  for (; i + 3 * gs < n; i += 4 * gs) {
    const ${acc} m0 = ${p}_map(${args}i);
    const ${acc} m1 = ${p}_map(${args}i + gs);
    const ${acc} m2 = ${p}_map(${args}i + 2 * gs);
    const ${acc} m3 = ${p}_map(${args}i + 3 * gs);
    acc = ${p}_reduce(${p}_reduce(acc, m0), ${p}_reduce(m1, ${p}_reduce(m2, m3)));
  }
  for (; i < n; i += gs) acc = ${p}_reduce(acc, ${p}_map(${args}i));
${treeFold(p, block, dialect)}
  if (${local} == 0) partial[${group}] = sdata[0];
}
${kernelHead(dialect)} ${stage2}(${accPtr}, ${ix} count) {
  ${shared} ${acc} sdata[${block}];
  ${acc} acc = ${plan.neutral};
  for (${ix} i = ${local}; i < count; i += ${groupSize}) acc = ${p}_reduce(acc, partial[i]);
${treeFold(p, block, dialect)}
  if (${local} == 0) partial[${PARTIAL_SLOTS}] = sdata[0];
}
`;
  return { source, stage1, stage2 };
}
