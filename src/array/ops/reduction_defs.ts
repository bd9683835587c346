/**
 * The table of built-in reductions: for each, the dtype it returns (NumPy's rules: narrow integer
 * sums accumulate in 64 bits, integer means are float64), and its C pieces for the one reduction
 * generator: the accumulator, the combine, what one element contributes, and the epilogue. NaN
 * rules follow NumPy: `min`, `max`, `argmin` and `argmax` propagate the first NaN; the `nan`
 * functions skip NaNs.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { computeType, cType, highest, literal, load, lowest, mathFn } from "../../codegen/c.ts";
import { complexPrefix } from "../../codegen/complex.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import type { GradOps } from "../grad/tape.ts";
import type { Reduction } from "../exec/reduction.ts";
import { showShape } from "../core/layout.ts";
import type { Accumulator } from "../exec/reduction_source.ts";

/** The names of the built-in reductions. */
export type ReduceOp =
  | "sum"
  | "prod"
  | "mean"
  | "min"
  | "max"
  | "ptp"
  | "argmin"
  | "argmax"
  | "any"
  | "all"
  | "var"
  | "std"
  | "countNonzero"
  | "nansum"
  | "nanmean"
  | "nanmin"
  | "nanmax"
  | "logsumexp";

/** What one built-in reduction computes for an input dtype, in a dialect. */
export interface ReductionPieces {
  readonly acc: Accumulator;
  /** C statements of `combine(a, b)`. */
  readonly combine: string;
  /** Statements setting `value` from the element `e` (in its compute type) at reduced index `index`. */
  readonly value: (e: string, index: string, value: string) => string;
  /** The result from `acc`. */
  readonly epilogue?: (acc: string, scalar: readonly string[], count: string) => string;
  readonly helpers?: string;
  /** Scalar parameters' dtypes (their values come with the call). */
  readonly scalars?: readonly DType[];
}

/** One built-in reduction. */
export interface ReductionDef {
  /** The result's dtype for an input of `dtype`, or why it does not take that dtype. */
  readonly out: (dtype: DType) => DType | string;
  /** It has no neutral element, so reducing no elements is an error. */
  readonly needsElements?: boolean;
  /** What a reduction over every axis gives on the host: the result's value, a number, or a boolean. */
  readonly host: "value" | "number" | "boolean";
  /** The prologue reads the element's index. */
  readonly indexed?: boolean;
  /** The C pieces for input dtype `x` and result dtype `out`. */
  readonly pieces: (x: DType, out: DType, d: Dialect) => ReductionPieces;
  /**
   * The gradient rule (see `grad/tape.ts`'s `ReduceVjp`; `values` are the call's scalar parameters,
   * ddof). None: not differentiable (the index and bool reductions), or not yet (`ptp`).
   */
  readonly vjp?: (
    g: GPUArray,
    x: GPUArray,
    y: GPUArray,
    axes: readonly number[],
    ops: GradOps,
    values: readonly number[],
  ) => GPUArray;
}

/** How many elements each result of a reduction of `x` over `axes` reduces. */
const countOf = (x: GPUArray, axes: readonly number[]) => axes.reduce((n, i) => n * x.shape[i]!, 1);

/** max, min and their NaN-ignoring twins: the gradient shared by the elements equal to the result. */
const extremeVjp: ReductionDef["vjp"] = (g, x, y, axes, ops) => {
  const hit = x.eq(y);
  return ops.where(hit, g.div(ops.sumKeep(hit, axes)), 0);
};

/** var (`root` false) and std: `2 (x - mean) / (n - ddof)`, over `2 std` for std. */
const varianceVjp = (root: boolean): ReductionDef["vjp"] => (g, x, y, axes, ops, [ddof]) => {
  const centred = g.mul(x.sub(ops.meanKeep(x, axes)));
  const n = countOf(x, axes) - ddof!;
  // std has no derivative where it is 0 (constant input); 0 is the subgradient, as for norm.
  return root ? ops.where(y.eq(0), 0, centred.div(y.mul(n))) : centred.mul(2 / n);
};

const isFloat = (d: DType) => DTYPES[d].kind === "float";
const isComplex = (d: DType) => DTYPES[d].kind === "complex";

/** NumPy's sum and prod dtype: floats and complex numbers keep theirs, unsigned integers give uint64, the rest int64. */
export function sumType(dtype: DType): DType {
  if (isFloat(dtype) || isComplex(dtype)) return dtype;
  return DTYPES[dtype].kind === "uint" ? "uint64" : "int64";
}

/** NumPy's mean, var and std dtype: floats and complex numbers keep theirs, the rest give float64. */
export function meanType(dtype: DType): DType {
  return isFloat(dtype) || isComplex(dtype) ? dtype : "float64";
}

const scalarAcc = (dtype: DType, identity: string): Accumulator => ({ dtype, identity });

/** Whether `x` (of compute type `t`) is NaN, as C; `0` for integers, which are never NaN. */
const nan = (x: string, t: DType) => (isFloat(t) ? `(${x} != ${x})` : "0");

/** A fold with `op` and neutral `identity` over the accumulator dtype of `outOf(x)`. */
function folding(
  outOf: (x: DType) => DType,
  identity: number,
  op: string,
  skipNaN = false,
  divide = false,
): ReductionDef {
  return {
    out: outOf,
    host: "value",
    pieces: (_x, out, d) => {
      const t = computeType(out), c = cType(t, d);
      if (isComplex(t)) {
        const p = complexPrefix(t);
        return {
          acc: scalarAcc(t, literal(identity, t, d)),
          combine: `return ${p}${op === "+" ? "add" : "mul"}(a, b);`,
          value: (e, _i, v) => `${v} = ${e};`,
          epilogue: divide
            ? (acc, _s, count) => `${p}make(${acc}.x / ${count}, ${acc}.y / ${count})`
            : undefined,
        };
      }
      return {
        acc: scalarAcc(t, literal(identity, t, d)),
        combine: `return a ${op} b;`,
        value: (e, _i, v) => (skipNaN ? `${v} = ${nan(e, t)} ? (${c})0 : (${c})${e};` : `${v} = (${c})${e};`),
        epilogue: divide ? (acc, _s, count) => `${acc} / (${c})${count}` : undefined,
      };
    },
  };
}

/** min (`<`) or max (`>`): NaN propagates; with `skipNaN`, NaNs are skipped (NaN is the neutral element). */
function extreme(cmp: "<" | ">", skipNaN: boolean): ReductionDef {
  return {
    out: (x) => x,
    needsElements: true,
    host: "value",
    pieces: (x, _out, d) => {
      const t = computeType(x);
      const identity = skipNaN && isFloat(t)
        ? literal(NaN, t, d)
        : cmp === "<"
        ? highest(t, d)
        : lowest(t, d);
      return {
        acc: scalarAcc(t, identity),
        combine: skipNaN
          ? `return (${nan("b", t)} || a ${cmp} b) ? a : b;`
          : `return (${nan("a", t)} || a ${cmp} b) ? a : b;`,
        value: (e, _i, v) => `${v} = ${e};`,
      };
    },
  };
}

/** argmin (`<`) or argmax (`>`): the first extreme's index; the first NaN's where there is one. */
function argExtreme(cmp: "<" | ">"): ReductionDef {
  return {
    out: () => "int64",
    needsElements: true,
    host: "number",
    indexed: true,
    pieces: (x, _out, d) => {
      const t = computeType(x);
      const worst = cmp === "<" ? highest(t, d) : lowest(t, d);
      return {
        acc: {
          fields: [{ name: "v", dtype: t, identity: worst }, {
            name: "i",
            dtype: "int64",
            identity: highest("int64", d),
          }],
        },
        combine: `if (${nan("a.v", t)}) return (${nan("b.v", t)} && b.i < a.i) ? b : a;
  if (${nan("b.v", t)}) return b;
  return (b.v ${cmp} a.v || (b.v == a.v && b.i < a.i)) ? b : a;`,
        value: (e, index, v) => `${v}.v = ${e}; ${v}.i = ${index};`,
        epilogue: (acc) => `${acc}.i`,
      };
    },
  };
}

/** var or std: Welford's and Chan's one-pass algorithm in the result's float type; `s0` is ddof. */
function variance(root: boolean): ReductionDef {
  return {
    out: meanType,
    host: "number",
    pieces: (_x, out, d) => {
      const t = computeType(out), c = cType(t, d), zero = literal(0, t, d);
      const fields = ["n", "m", "q"].map((name) => ({ name, dtype: t, identity: zero }));
      return {
        acc: { fields },
        scalars: [t],
        combine: `const ${c} n = a.n + b.n;
  if (n == ${zero}) return a;
  const ${c} dm = b.m - a.m, f = b.n / n;
  acc_t r; r.n = n; r.m = a.m + dm * f; r.q = a.q + b.q + dm * dm * a.n * f;
  return r;`,
        value: (e, _i, v) => `${v}.n = ${literal(1, t, d)}; ${v}.m = ${e}; ${v}.q = ${zero};`,
        epilogue: (acc, [ddof]) => {
          const variance = `(${acc}.q / ${mathFn("fmax", t, d)}(${acc}.n - ${ddof}, ${zero}))`;
          return root ? `${mathFn("sqrt", t, d)}${variance}` : variance;
        },
      };
    },
  };
}

/** The built-in reductions. */
export const REDUCTIONS: Readonly<Record<ReduceOp, ReductionDef>> = {
  sum: { ...folding(sumType, 0, "+"), vjp: (g) => g },
  prod: { ...folding(sumType, 1, "*"), vjp: (g, x, y) => g.mul(y).div(x) },
  nansum: { ...folding(sumType, 0, "+", true), vjp: (g, x, _, __, ops) => ops.where(x.isnan(), 0, g) },
  mean: { ...folding(meanType, 0, "+", false, true), vjp: (g, x, _, axes) => g.div(countOf(x, axes)) },
  min: { ...extreme("<", false), vjp: extremeVjp },
  max: { ...extreme(">", false), vjp: extremeVjp },
  nanmin: { ...extreme("<", true), vjp: extremeVjp },
  nanmax: { ...extreme(">", true), vjp: extremeVjp },
  argmin: argExtreme("<"),
  argmax: argExtreme(">"),
  ptp: {
    out: (
      x,
    ) => (x === "bool"
      ? "ptp is not defined for bool arrays (bools do not subtract); use astype() first"
      : x),
    needsElements: true,
    host: "value",
    pieces: (x, _out, d) => {
      const t = computeType(x);
      return {
        acc: {
          fields: [{ name: "lo", dtype: t, identity: highest(t, d) }, {
            name: "hi",
            dtype: t,
            identity: lowest(t, d),
          }],
        },
        combine: `acc_t r;
  r.lo = (${nan("a.lo", t)} || a.lo < b.lo) ? a.lo : b.lo;
  r.hi = (${nan("a.hi", t)} || a.hi > b.hi) ? a.hi : b.hi;
  return r;`,
        value: (e, _i, v) => `${v}.lo = ${e}; ${v}.hi = ${e};`,
        epilogue: (acc) => `(${acc}.hi - ${acc}.lo)`,
      };
    },
  },
  any: {
    out: () => "bool",
    host: "boolean",
    pieces: () => ({
      acc: scalarAcc("int32", "0"),
      combine: "return a | b;",
      value: (e, _i, v) => `${v} = (${e} != 0);`,
    }),
  },
  all: {
    out: () => "bool",
    host: "boolean",
    pieces: () => ({
      acc: scalarAcc("int32", "1"),
      combine: "return a & b;",
      value: (e, _i, v) => `${v} = (${e} != 0);`,
    }),
  },
  countNonzero: {
    out: () => "int64",
    host: "number",
    pieces: () => ({
      acc: scalarAcc("int64", "0"),
      combine: "return a + b;",
      value: (e, _i, v) => `${v} = (${e} != 0);`,
    }),
  },
  var: { ...variance(false), vjp: varianceVjp(false) },
  std: { ...variance(true), vjp: varianceVjp(true) },
  nanmean: {
    out: meanType,
    vjp: (g, x, _, axes, ops) => ops.where(x.isnan(), 0, g.div(ops.sumKeep(x.isnan().logicalNot(), axes))),
    host: "number",
    pieces: (x, out, d) => {
      const t = computeType(out), zero = literal(0, t, d);
      return {
        acc: { fields: [{ name: "s", dtype: t, identity: zero }, { name: "c", dtype: t, identity: zero }] },
        combine: "acc_t r; r.s = a.s + b.s; r.c = a.c + b.c; return r;",
        value: (e, _i, v) =>
          `if (${
            nan(e, computeType(x))
          }) { ${v}.s = ${zero}; ${v}.c = ${zero}; } else { ${v}.s = ${e}; ${v}.c = ${literal(1, t, d)}; }`,
        epilogue: (acc) => `(${acc}.s / ${acc}.c)`,
      };
    },
  },
  logsumexp: {
    out: meanType,
    vjp: (g, x, y) => g.mul(x.sub(y).exp()),
    host: "number",
    pieces: (_x, out, d) => {
      const t = computeType(out);
      return {
        acc: {
          fields: [{ name: "m", dtype: t, identity: literal(-Infinity, t, d) }, {
            name: "s",
            dtype: t,
            identity: literal(0, t, d),
          }],
        },
        // The running maximum and the sum of exp(x - maximum), rescaled when the maximum grows.
        combine: `if (b.m != b.m || b.m > a.m) { acc_t t = a; a = b; b = t; }
  if (a.m != a.m) return a;
  if (b.m == a.m) { a.s += b.s; return a; }
  a.s += b.s * ${mathFn("exp", t, d)}(b.m - a.m);
  return a;`,
        value: (e, _i, v) => `${v}.m = ${e}; ${v}.s = ${literal(1, t, d)};`,
        epilogue: (acc) => `(${acc}.m + ${mathFn("log", t, d)}(${acc}.s))`,
      };
    },
  },
};

/**
 * Refuses a reduction without an identity (`min`, `argmax`, ...) of no elements: along an empty axis
 * of `shape`, or of an empty array when `everyAxis` (no axis given).
 *
 * @throws {RangeError} naming the reduction, the axis and the shape.
 */
export function checkElements(
  op: ReduceOp,
  shape: readonly number[],
  axes: readonly number[],
  everyAxis: boolean,
  name: string = op,
): void {
  if (!REDUCTIONS[op].needsElements) return;
  const empty = axes.find((axis) => shape[axis] === 0);
  if (empty === undefined && !(everyAxis && shape.includes(0))) return;
  throw new RangeError(
    everyAxis
      ? `Cannot take the ${name} of an empty array of shape ${showShape(shape)}: it has no elements`
      : `Cannot take the ${name} along axis ${empty} of an array of shape ${
        showShape(shape)
      }: the axis is empty and ${name} has no identity`,
  );
}

/**
 * Where a reduction's elements come from when they are not one array's: operands, scalars and C
 * statements that compute each element (a fused function's elementwise work).
 */
export interface ElementSource {
  /** Names the statements: part of the kernels' keys. */
  readonly key: string;
  /** The kernels' name (see `ReductionCode.name`). */
  readonly name?: string;
  /** The operands, broadcast to the reduction's shape. */
  readonly arrays: readonly GPUArray[];
  /** Scalar parameters' values and dtypes. */
  readonly values: readonly (number | bigint)[];
  /** Each scalar parameter's dtype. */
  readonly scalars: readonly DType[];
  /** C code the statements need, placed before the kernels. */
  readonly helpers: string;
  /** The elements' dtype (as stored). */
  readonly dtype: DType;
  /** C statements over the operands' elements and the scalars, and the expression of the element's value they leave. */
  readonly element: (
    ref: readonly string[],
    scalar: readonly string[],
  ) => { readonly statements: string; readonly value: string };
}

/**
 * C statements that set accumulator `value` from an element of dtype `x` given by `element` (its
 * stored value after `statements`), at reduced index `index`.
 */
export function foldElement(
  pieces: ReductionPieces,
  x: DType,
  d: Dialect,
  element: { readonly statements: string; readonly value: string },
  index: string,
  value: string,
): string {
  return `${element.statements} const ${cType(computeType(x), d)} cudeno_x = ${load(element.value, x, d)}; ${
    pieces.value("cudeno_x", index, value)
  }`;
}

/**
 * The generator's work for built-in reduction `op` of array `a` (or of the elements `a` computes),
 * with scalar `values` (ddof for var and std).
 */
export function builtinReduction(
  op: ReduceOp,
  a: GPUArray | ElementSource,
  out: DType,
  values: readonly number[] = [],
): Reduction {
  const def = REDUCTIONS[op];
  const source: ElementSource = "element" in a ? a : {
    key: "",
    arrays: [a],
    values: [],
    scalars: [],
    helpers: "",
    dtype: a.dtype,
    element: (ref) => ({ statements: "", value: ref[0]! }),
  };
  const d = source.arrays[0]!.backend.dialect;
  const pieces = def.pieces(source.dtype, out, d);
  const own = pieces.scalars ?? [];
  return {
    key: `reduce:${op}${source.key}`,
    name: source.name,
    arrays: source.arrays,
    values: [...values, ...source.values],
    scalars: [...own, ...source.scalars],
    acc: pieces.acc,
    combine: pieces.combine,
    helpers: `${source.helpers}${pieces.helpers ?? ""}`,
    out,
    indexed: def.indexed,
    prologue: (ref, scalar, index, value) =>
      foldElement(pieces, source.dtype, d, source.element(ref, scalar.slice(own.length)), index, value),
    epilogue: pieces.epilogue ?? ((acc) => acc),
  };
}
