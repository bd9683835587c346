/**
 * Whole-array reductions to a host value: a two-stage tree (`reduction_source.ts`), its partials in a
 * scratch buffer kept per backend.
 *
 * @module
 */

import type { Backend } from "./backend.ts";
import { GPUArray } from "./gpuarray.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import { computeType, cType, highest, literal, load, lowest, pointerParam, preamble } from "./codegen.ts";
import { resultType } from "./dtypes.ts";
import { PARTIAL_SLOTS, reductionSource } from "./reduction_source.ts";
import { copyOf } from "./loop.ts";

const BLOCK = 256;

/** The built-in reductions. */
export type ReduceOp = "sum" | "min" | "max";

/** What a generated reduction maps and folds. */
export interface ReductionPlan {
  /** A name unique to what the reduction computes. */
  readonly key: string;
  /** Kernel parameters before the partials output and `n`. */
  readonly params: readonly string[];
  /** The accumulator's dtype. */
  readonly acc: DType;
  /** The neutral element, a C expression. */
  readonly neutral: string;
  /** Folds two accumulators `a` and `b`. */
  readonly reduce: string;
  /** The mapped value of element `i`. */
  readonly map: string;
  /** Code placed before the kernels. */
  readonly preamble: string;
}

function accumulatorFor(op: ReduceOp, dtype: DType, backend: Backend): DType {
  const kind = DTYPES[dtype].kind;
  if (op !== "sum") return computeType(dtype);
  if (kind === "float") return backend.supports("float64") ? "float64" : "float32";
  return kind === "uint" ? "uint64" : "int64";
}

const scratch = new WeakMap<Backend, GPUArray>();

function scratchFor(backend: Backend, bytes: number): GPUArray {
  let s = scratch.get(backend);
  if (s === undefined || s.freed || s.nbytes < bytes) {
    s?.free();
    s = new GPUArray(backend, Math.max(bytes, 8192), "uint8");
    scratch.set(backend, s);
  }
  return s;
}

/** Runs a two-stage reduction of `n` elements over `args`; returns the accumulator as a host value. */
export function runReduction(
  backend: Backend,
  plan: ReductionPlan,
  args: readonly unknown[],
  n: number,
): number | bigint {
  if (!backend.supports(plan.acc)) {
    throw new TypeError(`Cannot reduce on ${backend.device}: it lacks ${plan.acc} arithmetic`);
  }
  backend.checkHostRead("a whole-array reduction"); // before the scratch buffer is made
  const source = () => reductionSource(plan, backend.dialect, BLOCK);
  const stage1 = backend.kernel(`${plan.key}:1`, () => {
    const s = source();
    return { name: s.stage1, source: s.source };
  });
  const stage2 = backend.kernel(`${plan.key}:2`, () => {
    const s = source();
    return { name: s.stage2, source: s.source };
  });
  const accSize = DTYPES[plan.acc].size;
  const groups = Math.max(1, Math.min(PARTIAL_SLOTS, Math.ceil(n / (BLOCK * 4))));
  const partial = scratchFor(backend, (PARTIAL_SLOTS + 1) * accSize);
  stage1.launch({ grid: [groups, 1], block: [BLOCK, 1] }, [...args, partial.buffer, n]);
  stage2.launch({ grid: [1, 1], block: [BLOCK, 1] }, [partial.buffer, groups]);
  const host = new DTYPES[plan.acc].array(1);
  backend.read(host, partial.buffer, PARTIAL_SLOTS * accSize);
  return host[0]!;
}

function builtinPlan(op: ReduceOp, a: GPUArray, b?: GPUArray): ReductionPlan {
  const d = a.backend.dialect;
  const acc = b === undefined
    ? accumulatorFor(op, a.dtype, a.backend)
    : accumulatorFor("sum", resultType(a.dtype, b.dtype), a.backend);
  const at = cType(acc, d);
  const x = `((${at})${load("x[i]", a.dtype, d)})`;
  const params = [pointerParam(a.dtype, "x", d, true)];
  let map = x;
  if (b !== undefined) {
    params.push(pointerParam(b.dtype, "y", d, true));
    map = `${x} * ((${at})${load("y[i]", b.dtype, d)})`;
  }
  const reduce = op === "sum"
    ? "a + b"
    : op === "min"
    ? "((a != a || a < b) ? a : b)"
    : "((a != a || a > b) ? a : b)";
  const neutral = op === "sum" ? literal(0, acc, d) : op === "min" ? highest(acc, d) : lowest(acc, d);
  const dtypes = b === undefined ? [a.dtype, acc] : [a.dtype, b.dtype, acc];
  const key = `cudeno_${b === undefined ? op : "dot"}_${a.dtype}${
    b === undefined ? "" : `_${b.dtype}`
  }_${acc}`;
  return { key, params, acc, neutral, reduce, map, preamble: preamble(dtypes, d) };
}

/** The array's elements from the start of their own buffer, in C order: `a` itself or a copy. */
function flat(a: GPUArray): GPUArray {
  return a.isContiguous && a.offset === 0 ? a : copyOf(a);
}

/** A host value of an accumulator of `acc`: bigint for 64-bit integers, else a number. */
function hostValue(value: number | bigint, acc: DType): number | bigint {
  return DTYPES[acc].kind !== "float" && DTYPES[acc].size === 8 ? BigInt(value) : Number(value);
}

/**
 * The sum, min or max of all elements, on the host: a bigint where the result is a 64-bit integer
 * (every integer sum), else a number.
 *
 * @throws {RangeError} for the min or max of no elements.
 */
export function reduce(op: ReduceOp, a: GPUArray): number | bigint {
  a.backend.checkHostRead(`${op}()`);
  const acc = accumulatorFor(op, a.dtype, a.backend);
  if (a.size === 0) {
    if (op === "sum") return hostValue(0, acc);
    throw new RangeError(`Cannot take the ${op} of an empty array: it has no elements`);
  }
  const x = flat(a);
  try {
    return hostValue(runReduction(a.backend, builtinPlan(op, x), [x.buffer], a.size), acc);
  } finally {
    if (x !== a) x.free();
  }
}

/** The dot product of two arrays of the same size, as a host number. */
export function dot(a: GPUArray, b: GPUArray): number {
  if (!(b instanceof GPUArray)) throw new TypeError("Cannot dot() with a non-array: pass a GPUArray");
  if (a.backend !== b.backend) {
    throw new TypeError(
      `Cannot dot arrays on ${a.backend.device} and ${b.backend.device}: copy one over first`,
    );
  }
  if (a.size !== b.size) {
    throw new RangeError(`Cannot dot arrays of ${a.size} and ${b.size} elements: the sizes must match`);
  }
  a.backend.checkHostRead("dot()");
  if (a.size === 0) return 0;
  const x = flat(a), y = flat(b);
  try {
    return Number(runReduction(a.backend, builtinPlan("sum", x, y), [x.buffer, y.buffer], a.size));
  } finally {
    if (x !== a) x.free();
    if (y !== b) y.free();
  }
}
