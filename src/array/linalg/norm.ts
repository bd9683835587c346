/**
 * `norm` with NumPy's `ord`s (`numpy.linalg.norm`): vector norms along one axis (`inf`, `-inf`, 0,
 * 1, 2 and any other power) and matrix norms over two (`"fro"`, `"nuc"`, `inf`, `-inf`, 1, -1, 2, -2),
 * written with the reductions, and the singular values for 2, -2 and `"nuc"`. `ord` null is the
 * module's `ga.norm` (one reduction).
 *
 * @module
 */

import { DTYPES } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import { AXES, type AxisArg, optionsOf } from "../core/axis_args.ts";
import { astype } from "../ops/assign.ts";
import { norm as twoNorm } from "../ops/norm.ts";
import { max, min, sum } from "../api/reductions.ts";
import { moveaxis, reshape } from "../ops/views.ts";
import { abs, ne, pow } from "../api/elementwise.ts";
import { checkArray } from "./operands.ts";
import { isTracked } from "../grad/tape.ts";
import { svdvals } from "./svd.ts";

/** NumPy's `ord`s: a number (`Infinity` and `-Infinity` included), `"fro"` or `"nuc"`, or null for the 2-norm. */
export type NormOrd = number | "fro" | "nuc" | null;

/**
 * Options of {@link norm}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.LinalgNormOptions = { ord: 1, axis: [0, 1], keepdims: true };
 * ```
 */
export interface LinalgNormOptions {
  /** The norm (default null: the 2-norm of vectors, Frobenius of matrices). */
  readonly ord?: NormOrd;
  /** One axis (vector norms) or two (matrix norms: rows, then columns); default every axis of a 1-D or 2-D array. */
  readonly axis?: AxisArg;
  /** Keep the reduced axes, with extent 1. Default false. */
  readonly keepdims?: boolean;
}

const SLOTS = [
  {
    name: "ord",
    takes: (v: unknown) => v === null || typeof v === "number" || typeof v === "string",
    what: 'ord (a number, "fro", "nuc" or null)',
  },
  AXES,
  { name: "keepdims", takes: (v: unknown) => typeof v === "boolean", what: "keepdims (a boolean)" },
];

/** A vector norm of `x` along `axis`. */
function vectorNorm(x: GPUArray, ord: number, axis: number, keepdims: boolean): GPUArray {
  const o = { keepdims };
  if (ord === 2) return twoNorm(x, { axis, keepdims }) as GPUArray;
  if (ord === 0) {
    using nonzero = ne(x, 0);
    using count = sum(nonzero, axis, o);
    return astype(count, x.dtype);
  }
  using magnitudes = abs(x);
  if (ord === Infinity) return max(magnitudes, axis, o);
  if (ord === -Infinity) return min(magnitudes, axis, o);
  if (ord === 1) return sum(magnitudes, axis, o);
  using powers = pow(magnitudes, ord);
  using total = sum(powers, axis, o);
  return pow(total, 1 / ord);
}

/** A matrix norm of `x` over rows `row` and columns `col`. */
function matrixNorm(
  x: GPUArray,
  ord: number | "fro" | "nuc",
  row: number,
  col: number,
  keepdims: boolean,
): GPUArray {
  let out: GPUArray;
  if (ord === "fro") {
    out = twoNorm(x, { axis: [row, col] }) as GPUArray;
  } else if (ord === 2 || ord === -2 || ord === "nuc") {
    using moved = moveaxis(x, [row, col], [-2, -1]);
    using s = svdvals(moved);
    out = ord === 2 ? max(s, -1) : ord === -2 ? min(s, -1) : sum(s, -1);
  } else if (ord === 1 || ord === -1 || ord === Infinity || ord === -Infinity) {
    // 1: the largest column sum (sum over the rows); inf: the largest row sum (sum over the columns).
    const [summed, kept] = ord === 1 || ord === -1 ? [row, col] : [col, row];
    using magnitudes = abs(x);
    using sums = sum(magnitudes, summed);
    const at = kept > summed ? kept - 1 : kept;
    out = ord > 0 ? max(sums, at) : min(sums, at);
  } else {
    throw new RangeError(
      `Cannot norm matrices with ord ${
        String(ord)
      }: matrix norms take "fro", "nuc", 1, -1, 2, -2, Infinity or -Infinity`,
    );
  }
  if (!keepdims) return out;
  const shape = [...x.shape];
  shape[row] = 1;
  shape[col] = 1;
  try {
    return reshape(out, shape).copy();
  } finally {
    out.free();
  }
}

/**
 * NumPy's `linalg.norm`: with `ord` null the 2-norm (of the flattened array, Frobenius for a matrix,
 * as `ga.norm`); along one axis the vector norm `ord` (`Infinity`: max |x|, `-Infinity`: min |x|, 0:
 * the count of non-zeros, 1: sum |x|, 2, or any `p`: (sum |x|^p)^(1/p)); over two axes the matrix norm
 * `ord` (`"fro"`, `"nuc"`: the sum of the singular values, 1 and -1: the largest and smallest column
 * sum of |x|, `Infinity` and `-Infinity`: the same of row sums, 2 and -2: the largest and smallest
 * singular value). Without an axis, a 1-D array takes vector norms and a 2-D one matrix norms.
 * `ord`, `axis` and `keepdims` are given by NumPy's positions or in the options. A host number where
 * every axis is reduced and `keepdims` is not set, else an array; float64 for integers.
 *
 * @throws {RangeError} for an `ord` the vector or matrix form does not take, more than two axes, or an
 * `ord` without an axis for an array of more than 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.asarray([[1, -2], [3, 4]]);
 * console.log(ga.linalg.norm(a, 1)); // 6, the largest column sum
 * console.log(ga.linalg.norm(a, Infinity)); // 7, the largest row sum
 * console.log(ga.linalg.norm(a, "nuc")); // the sum of the singular values
 * const rows = ga.linalg.norm(a, 1, 1); // [3, 7], the 1-norm of each row
 * ```
 */
export function norm(x: GPUArray, ord?: NormOrd | LinalgNormOptions, ...rest: unknown[]): number | GPUArray;
export function norm(x: GPUArray, ...args: unknown[]): number | GPUArray {
  checkArray(x, "norm");
  const options = optionsOf<LinalgNormOptions>(
    "norm",
    args,
    SLOTS,
    ["ord", "axis", "keepdims"],
    "{ ord: 1, axis: 0 }",
  );
  const ord = options.ord ?? null, keepdims = options.keepdims === true;
  if (typeof ord === "string" && ord !== "fro" && ord !== "nuc") {
    throw new RangeError(`Cannot norm with ord "${ord}": give a number, "fro", "nuc" or null`);
  }
  if (ord === null && options.axis === undefined) {
    if (!keepdims) return twoNorm(x);
    using flat = reshape(x, [-1]);
    using one = twoNorm(flat, { axis: 0, keepdims: true }) as GPUArray;
    using kept = reshape(one, x.shape.map(() => 1));
    return kept.copy();
  }
  const given = options.axis;
  const axes = given === undefined
    ? x.ndim <= 2 ? x.shape.map((_, i) => i) : undefined
    : (typeof given === "number" ? [given] : [...given]).map((a) => normalizeAxis(a, x.ndim, "norm"));
  if (axes === undefined || axes.length === 0 || axes.length > 2) {
    throw new RangeError(
      `Cannot norm an array of shape ${showShape(x.shape)} with ord ${String(ord)} ${
        given === undefined ? "and no axis" : `along axes [${String(given)}]`
      }: give one axis (vector norms) or two (matrix norms)`,
    );
  }
  const kind = DTYPES[x.dtype].kind;
  // The norms other than those of singular values depend on the elements' magnitudes only (NumPy's).
  const singular = axes.length === 2 && (ord === 2 || ord === -2 || ord === "nuc");
  using float = kind === "float" || (kind === "complex" && singular)
    ? undefined
    : kind === "complex"
    ? abs(x)
    : astype(x, "float64");
  const a = float ?? x;
  let out: GPUArray;
  if (axes.length === 1) {
    if (typeof ord === "string") {
      throw new RangeError(`Cannot norm vectors with ord "${ord}": it is a matrix norm; give two axes`);
    }
    out = vectorNorm(a, ord ?? 2, axes[0]!, keepdims);
  } else {
    if (axes[0] === axes[1]) {
      throw new RangeError(`Cannot norm along axes [${String(given)}]: they name one axis twice`);
    }
    out = matrixNorm(a, ord ?? "fro", axes[0]!, axes[1]!, keepdims);
  }
  // Inside a differentiation a norm stays an array, so the gradient flows.
  if (out.ndim > 0 || keepdims || isTracked(x)) return out;
  const value = out.item() as number;
  out.free();
  return value;
}
