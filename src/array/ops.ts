/**
 * Generated array kernels: elementwise operations (vectorised on CUDA) and two-stage tree
 * reductions, each compiled once per dtype combination and backend and cached.
 *
 * @module
 */

import type { Backend, BackendKernel } from "./backend.ts";
import { GPUArray } from "./gpuarray.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import {
  castTo,
  computeType,
  cType,
  highest,
  indexType,
  kernelHead,
  literal,
  load,
  lowest,
  mathFn,
  pointerParam,
  preamble,
} from "./codegen.ts";
import { divisionType, resultType, resultTypeWithScalar } from "./dtypes.ts";
import { PARTIAL_SLOTS, reductionSource } from "./reduction_source.ts";

/** An array or a scalar that broadcasts. */
export type Operand = GPUArray | number | bigint;

/** Options of elementwise operations. */
export interface OpOptions {
  /** Write the result here (same shape and result dtype) instead of a new array. */
  readonly out?: GPUArray;
}

/** One input of a generated elementwise kernel. */
interface Input {
  readonly dtype: DType;
  readonly scalar: boolean;
}

/** What an elementwise kernel computes. */
interface ElementwiseSpec {
  readonly op: string;
  readonly inputs: readonly Input[];
  readonly out: DType;
  readonly compute: DType;
  /** The result in the compute type, from the inputs (already in the compute type) and the element index. */
  readonly body: (x: readonly string[], index: string) => string;
}

const BLOCK = 256;
const VEC = 4;
const UNROLL = 2;

function vecName(dtype: DType): string {
  return `cudeno_v4_${dtype}`;
}

function vecStruct(dtype: DType, dialect: Dialect): string {
  const align = Math.min(16, DTYPES[dtype].size * VEC);
  return `struct __align__(${align}) ${vecName(dtype)} { ${cType(dtype, dialect)} v[${VEC}]; };`;
}

function kernelName(spec: ElementwiseSpec): string {
  const ins = spec.inputs.map((i) => (i.scalar ? `s${i.dtype}` : i.dtype)).join("_");
  return `cudeno_${spec.op}_${ins}_to_${spec.out}`;
}

function helpers(spec: ElementwiseSpec, dialect: Dialect): string {
  if (spec.op !== "pow" || DTYPES[spec.compute].kind === "float") return "";
  const t = cType(spec.compute, dialect);
  const fn = dialect === "cuda" ? "__device__ " : "";
  return `${fn}${t} cudeno_ipow(${t} b, ${t} e) { ${t} r = 1; if (e < 0) return b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0); while (e > 0) { if (e & 1) r *= b; b *= b; e >>= 1; } return r; }`;
}

/** The CUDA C or OpenCL C source of an elementwise kernel. */
export function elementwiseSource(spec: ElementwiseSpec, dialect: Dialect): { name: string; source: string } {
  const name = kernelName(spec);
  const ct = cType(spec.compute, dialect);
  const ix = indexType(dialect);
  const dtypes = [...spec.inputs.map((i) => i.dtype), spec.out];
  const params = spec.inputs.map((input, k) =>
    input.scalar ? `${ct} s${k}` : pointerParam(input.dtype, `in${k}`, dialect, true)
  );
  params.push(pointerParam(spec.out, "out", dialect), `${ix} n`);
  const operand = (k: number, at: string) =>
    spec.inputs[k]!.scalar ? `s${k}` : `((${ct})${load(at, spec.inputs[k]!.dtype, dialect)})`;
  const scalarBody = (e: string) =>
    `out[${e}] = ${
      castTo(spec.body(spec.inputs.map((_, k) => operand(k, `in${k}[${e}]`)), e), spec.out, dialect)
    };`;
  const head = [preamble(dtypes, dialect), helpers(spec, dialect)];
  if (dialect === "opencl") {
    const source = `${head.join("\n")}
${kernelHead(dialect)} ${name}(${params.join(", ")}) {
  const ${ix} e = get_global_id(0);
  if (e < n) { ${scalarBody("e")} }
}`;
    return { name, source };
  }
  const arrays = [...new Set(spec.inputs.filter((i) => !i.scalar).map((i) => i.dtype).concat(spec.out))];
  const loads = spec.inputs.map((input, k) =>
    input.scalar
      ? ""
      : `const ${vecName(input.dtype)} v${k} = *reinterpret_cast<const ${
        vecName(input.dtype)
      } *>(in${k} + e);`
  ).join(" ");
  const vecOperand = (k: number) =>
    spec.inputs[k]!.scalar ? `s${k}` : `((${ct})${load(`v${k}.v[k]`, spec.inputs[k]!.dtype, dialect)})`;
  const vecBody = castTo(spec.body(spec.inputs.map((_, k) => vecOperand(k)), "(e + k)"), spec.out, dialect);
  const source = `${head.join("\n")}
${arrays.map((d) => vecStruct(d, dialect)).join("\n")}
${kernelHead(dialect)} ${name}(${params.join(", ")}) {
  const ${ix} span = (${ix})${UNROLL * VEC} * blockDim.x;
  const ${ix} start = (${ix})blockIdx.x * span;
  if (start + span <= n) {
#pragma unroll
    for (int u = 0; u < ${UNROLL}; u++) {
      const ${ix} e = start + ((${ix})u * blockDim.x + threadIdx.x) * ${VEC};
      ${loads}
      ${vecName(spec.out)} r;
#pragma unroll
      for (int k = 0; k < ${VEC}; k++) r.v[k] = ${vecBody};
      *reinterpret_cast<${vecName(spec.out)} *>(out + e) = r;
    }
  } else {
    for (${ix} e = start + threadIdx.x; e < n; e += blockDim.x) { ${scalarBody("e")} }
  }
}`;
  return { name, source };
}

const kernelCache = new WeakMap<Backend, Map<string, BackendKernel>>();

function compiled(
  backend: Backend,
  key: string,
  make: () => { name: string; source: string },
): BackendKernel {
  let byKey = kernelCache.get(backend);
  if (byKey === undefined) kernelCache.set(backend, byKey = new Map());
  let k = byKey.get(key);
  if (k === undefined) {
    const { name, source } = make();
    k = backend.kernel(source, name);
    byKey.set(key, k);
  }
  return k;
}

function specKey(spec: ElementwiseSpec): string {
  return kernelName(spec);
}

function launchShape(backend: Backend, n: number): { grid: [number, number]; block: [number, number] } {
  const perBlock = backend.dialect === "cuda" ? BLOCK * VEC * UNROLL : BLOCK;
  return { grid: [Math.ceil(n / perBlock), 1], block: [BLOCK, 1] };
}

function sameBackend(arrays: readonly GPUArray[], what: string): Backend {
  const b = arrays[0]!.backend;
  for (const a of arrays) {
    if (a.backend !== b) {
      throw new TypeError(
        `Cannot ${what} arrays on ${b.device} and ${a.backend.device}: copy one to the other's backend first`,
      );
    }
  }
  return b;
}

function sameShape(a: GPUArray, b: GPUArray, what: string): void {
  if (a.shape.length !== b.shape.length || a.shape.some((d, i) => d !== b.shape[i])) {
    throw new RangeError(
      `Cannot ${what} arrays of shapes [${a.shape.join(", ")}] and [${
        b.shape.join(", ")
      }]: the shapes must match`,
    );
  }
}

function outputFor(like: GPUArray, dtype: DType, out: GPUArray | undefined, what: string): GPUArray {
  if (out === undefined) return new GPUArray(like.backend, like.shape, dtype);
  sameShape(like, out, what);
  if (out.dtype !== dtype) {
    throw new TypeError(`Cannot ${what} into a ${out.dtype} array: the result is ${dtype}`);
  }
  if (out.backend !== like.backend) {
    throw new TypeError(`Cannot ${what} into an array on ${out.backend.device}`);
  }
  return out;
}

function checkScalar(value: unknown, what: string): number | bigint {
  if (typeof value === "number" || typeof value === "bigint") return value;
  throw new TypeError(
    `Cannot ${what} with ${value === null ? "null" : typeof value}: pass a GPUArray, a number or a bigint`,
  );
}

function scalarArg(value: number | bigint, compute: DType): number | bigint {
  const kind = DTYPES[compute].kind;
  if (kind === "float") return Number(value);
  if (DTYPES[compute].size === 8) return typeof value === "bigint" ? value : BigInt(Math.trunc(value));
  return Number(value);
}

/** Runs an elementwise kernel over `like`'s shape. */
function run(
  spec: ElementwiseSpec,
  like: GPUArray,
  operands: readonly Operand[],
  out: GPUArray | undefined,
  what: string,
): GPUArray {
  const result = outputFor(like, spec.out, out, what);
  const backend = like.backend;
  if (!backend.supports(spec.compute)) {
    throw new TypeError(
      `Cannot ${what} on ${backend.device}: it needs ${spec.compute} arithmetic, which the device lacks`,
    );
  }
  if (result.size === 0) return result;
  const kernel = compiled(backend, specKey(spec), () => elementwiseSource(spec, backend.dialect));
  const args = operands.map((
    o,
    k,
  ) => (spec.inputs[k]!.scalar ? scalarArg(o as number | bigint, spec.compute) : (o as GPUArray).buffer));
  kernel.launch(launchShape(backend, result.size), [...args, result.buffer, result.size]);
  return result;
}

/** The elementwise binary operations. */
export type BinaryOp =
  | "add"
  | "sub"
  | "mul"
  | "div"
  | "pow"
  | "maximum"
  | "minimum"
  | "eq"
  | "ne"
  | "lt"
  | "le"
  | "gt"
  | "ge";

const COMPARE: Partial<Record<BinaryOp, string>> = {
  eq: "==",
  ne: "!=",
  lt: "<",
  le: "<=",
  gt: ">",
  ge: ">=",
};

function binaryBody(op: BinaryOp, compute: DType, dialect: Dialect): (x: readonly string[]) => string {
  const float = DTYPES[compute].kind === "float";
  switch (op) {
    case "add":
      return ([a, b]) => `${a} + ${b}`;
    case "sub":
      return ([a, b]) => `${a} - ${b}`;
    case "mul":
      return ([a, b]) => `${a} * ${b}`;
    case "div":
      return ([a, b]) => `${a} / ${b}`;
    case "pow":
      return float
        ? ([a, b]) => `${mathFn("pow", compute, dialect)}(${a}, ${b})`
        : ([a, b]) => `cudeno_ipow(${a}, ${b})`;
    case "maximum":
      return ([a, b]) => `((${a} != ${a} || ${a} > ${b}) ? ${a} : ${b})`;
    case "minimum":
      return ([a, b]) => `((${a} != ${a} || ${a} < ${b}) ? ${a} : ${b})`;
    default:
      return ([a, b]) => `(${a} ${COMPARE[op]} ${b})`;
  }
}

/**
 * An elementwise binary operation; one side may be a scalar.
 *
 * @throws {RangeError} when two arrays' shapes differ.
 */
export function binary(op: BinaryOp, a: Operand, b: Operand, options: OpOptions = {}): GPUArray {
  const what = op;
  const arrays = [a, b].filter((x): x is GPUArray => x instanceof GPUArray);
  if (arrays.length === 0) {
    throw new TypeError(`Cannot ${what} two scalars: at least one operand must be a GPUArray`);
  }
  const backend = sameBackend(arrays, what);
  if (arrays.length === 2) sameShape(arrays[0]!, arrays[1]!, what);
  const dtypeOf = (x: Operand, other: Operand) =>
    x instanceof GPUArray ? x.dtype : resultTypeWithScalar((other as GPUArray).dtype, checkScalar(x, what));
  let common = resultType(dtypeOf(a, b), dtypeOf(b, a));
  if (op === "div") common = divisionType(common);
  if (op === "sub" && common === "bool") {
    throw new TypeError("Cannot subtract bool arrays: use ne() for their difference");
  }
  const compute = computeType(common);
  const out = op in COMPARE ? "bool" : common;
  const inputs = [a, b].map((x) => ({
    dtype: x instanceof GPUArray ? x.dtype : compute,
    scalar: !(x instanceof GPUArray),
  }));
  const spec: ElementwiseSpec = { op, inputs, out, compute, body: binaryBody(op, compute, backend.dialect) };
  return run(spec, arrays[0]!, [a, b], options.out, what);
}

/** The elementwise unary operations. */
export type UnaryOp = "neg" | "abs" | "exp" | "log" | "sqrt" | "sin" | "cos" | "tan" | "tanh";

const FLOAT_FUNCTIONS = new Set<UnaryOp>(["exp", "log", "sqrt", "sin", "cos", "tan", "tanh"]);

/** An elementwise unary operation; math functions of integer arrays give float arrays (float64 for 32/64-bit ints). */
export function unary(op: UnaryOp, a: GPUArray, options: OpOptions = {}): GPUArray {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot ${op} ${typeof a}: pass a GPUArray`);
  const dialect = a.backend.dialect;
  const out = FLOAT_FUNCTIONS.has(op) ? divisionType(a.dtype) : a.dtype;
  if (op === "neg" && a.dtype === "bool") {
    throw new TypeError("Cannot negate a bool array: use eq(0) for logical not");
  }
  const compute = computeType(out);
  const float = DTYPES[compute].kind === "float";
  const body = (x: readonly string[]) => {
    if (op === "neg") return `-${x[0]}`;
    if (op === "abs") {
      return float ? `${mathFn("fabs", compute, dialect)}(${x[0]})` : `(${x[0]} < 0 ? -${x[0]} : ${x[0]})`;
    }
    return `${mathFn(op, compute, dialect)}(${x[0]})`;
  };
  const spec: ElementwiseSpec = { op, inputs: [{ dtype: a.dtype, scalar: false }], out, compute, body };
  return run(spec, a, [a], options.out, op);
}

/** `cond ? a : b`, elementwise; `a` and `b` may be scalars. */
export function where(cond: GPUArray, a: Operand, b: Operand, options: OpOptions = {}): GPUArray {
  if (!(cond instanceof GPUArray)) throw new TypeError("Cannot where(): the condition must be a GPUArray");
  const arrays = [cond, a, b].filter((x): x is GPUArray => x instanceof GPUArray);
  sameBackend(arrays, "where");
  for (const x of arrays) sameShape(cond, x, "where");
  const values = [a, b];
  const valueArrays = values.filter((x): x is GPUArray => x instanceof GPUArray);
  const base = valueArrays.length > 0 ? valueArrays.map((x) => x.dtype).reduce(resultType) : undefined;
  const scalarType = (x: Operand) =>
    base === undefined
      ? (typeof x === "bigint" || Number.isInteger(x) ? "int64" : "float64")
      : resultTypeWithScalar(base, x as number);
  const common = values.map((x) => (x instanceof GPUArray ? x.dtype : scalarType(checkScalar(x, "where"))))
    .reduce(resultType);
  const compute = computeType(common);
  const inputs = [cond, a, b].map((x) => ({
    dtype: x instanceof GPUArray ? x.dtype : compute,
    scalar: !(x instanceof GPUArray),
  }));
  const spec: ElementwiseSpec = {
    op: "where",
    inputs,
    out: common,
    compute,
    body: ([c, x, y]) => `(${c} != 0 ? ${x} : ${y})`,
  };
  return run(spec, cond, [cond, a, b], options.out, "where");
}

/** A copy of `a` converted to `dtype` (C conversion: floats to integers truncate). */
export function cast<T extends DType>(a: GPUArray, dtype: T): GPUArray<T> {
  const compute = computeType(DTYPES[dtype].kind === "float" ? dtype : a.dtype);
  const spec: ElementwiseSpec = {
    op: "cast",
    inputs: [{ dtype: a.dtype, scalar: false }],
    out: dtype,
    compute,
    body: ([x]) => x!,
  };
  return run(spec, a, [a], undefined, "astype") as GPUArray<T>;
}

/** Sets every element of `out` to `value`. */
export function fill(out: GPUArray, value: number | bigint): GPUArray {
  const compute = computeType(out.dtype);
  const spec: ElementwiseSpec = {
    op: "fill",
    inputs: [{ dtype: compute, scalar: true }],
    out: out.dtype,
    compute,
    body: ([v]) => v!,
  };
  return run(spec, out, [checkScalar(value, "fill")], out, "fill");
}

/** Sets `out[i] = start + i * step`. */
export function arangeInto(out: GPUArray, start: number, step: number): GPUArray {
  const compute = computeType(out.dtype);
  const spec: ElementwiseSpec = {
    op: "arange",
    inputs: [{ dtype: compute, scalar: true }, { dtype: compute, scalar: true }],
    out: out.dtype,
    compute,
    body: ([s, d], i) => `${s} + (${cType(compute, out.backend.dialect)})(${i}) * ${d}`,
  };
  return run(spec, out, [start, step], out, "arange");
}

/** The built-in reductions. */
export type ReduceOp = "sum" | "min" | "max";

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

const PARTIALS = PARTIAL_SLOTS;

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
  const src = reductionSource(plan, backend.dialect, BLOCK);
  const stage1 = compiled(backend, `${plan.key}:1`, () => ({ name: src.stage1, source: src.source }));
  const stage2 = compiled(backend, `${plan.key}:2`, () => ({ name: src.stage2, source: src.source }));
  const accSize = DTYPES[plan.acc].size;
  const groups = Math.max(1, Math.min(PARTIALS, Math.ceil(n / (BLOCK * 4))));
  const partial = scratchFor(backend, (PARTIALS + 1) * accSize);
  stage1.launch({ grid: [groups, 1], block: [BLOCK, 1] }, [...args, partial.buffer, n]);
  stage2.launch({ grid: [1, 1], block: [BLOCK, 1] }, [partial.buffer, groups]);
  const host = new DTYPES[plan.acc].array(PARTIALS + 1);
  backend.read(host, partial.buffer);
  return host[PARTIALS]!;
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

/** The sum, min or max of all elements, as a host number. */
export function reduce(op: ReduceOp, a: GPUArray): number {
  if (a.size === 0) {
    if (op === "sum") return 0;
    throw new RangeError(`Cannot take the ${op} of an empty array: it has no elements`);
  }
  return Number(runReduction(a.backend, builtinPlan(op, a), [a.buffer], a.size));
}

/** The dot product of two arrays of the same size. */
export function dot(a: GPUArray, b: GPUArray): number {
  if (!(b instanceof GPUArray)) throw new TypeError("Cannot dot() with a non-array: pass a GPUArray");
  sameBackend([a, b], "dot");
  if (a.size !== b.size) {
    throw new RangeError(`Cannot dot arrays of ${a.size} and ${b.size} elements: the sizes must match`);
  }
  if (a.size === 0) return 0;
  return Number(runReduction(a.backend, builtinPlan("sum", a, b), [a.buffer, b.buffer], a.size));
}
