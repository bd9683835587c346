/**
 * The dot product of two whole arrays (for `ga.dot`, `vdot` and `einsum`) and `norm`, to a host
 * number, each one reduction through the generator.
 *
 * @module
 */

import { isTracked, recordReduction } from "../grad/tape.ts";
import type { DType } from "../../kernel/dtype.ts";
import { computeType, cType, literal, load, mathFn } from "../../codegen/c.ts";
import { resultType } from "../core/dtypes.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes, showShape } from "../core/layout.ts";
import { reduceArray, reduceToHost, type Reduction } from "../exec/reduction.ts";
import { meanType, sumType } from "./reduction_defs.ts";
import { reshape } from "./views.ts";
import { abs } from "../api/elementwise.ts";
import { AXES, type AxisArg, optionsOf, type Slot } from "../core/axis_args.ts";
import type { MeanType, Reduced } from "./reduction_types.ts";

/**
 * Options of {@link norm}: NumPy's `axis` and `keepdims` (also given by position after `ord`, which
 * must be null: `ga.norm(a, null, 1)`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.NormOptions = { axis: 1, keepdims: true };
 * const rowNorms = ga.norm(ga.ones([3, 4]), options); // shape [3, 1], each 2
 * ```
 */
export interface NormOptions {
  /** One axis (the 2-norm of each vector along it) or two (the Frobenius norm of each matrix). Default: all of them (the flattened array). */
  readonly axis?: AxisArg;
  /** Keep the reduced axes, with extent 1, so the result broadcasts against the input. Default false. */
  readonly keepdims?: boolean;
}

/** NumPy's positions after the array: `ord` (null here: only the 2-norm), `axis`, `keepdims`. */
const NORM_SLOTS: readonly Slot[] = [
  {
    name: "ord",
    takes: (v) => v === null || typeof v === "number" || typeof v === "string",
    what: "ord (null)",
  },
  AXES,
  { name: "keepdims", takes: (v) => typeof v === "boolean", what: "keepdims (a boolean)" },
];

/**
 * The sum of the products of `arrays`' elements (the squares for one array), accumulated in `sum`'s
 * dtype for `out` (integers in 64 bits, then wrapped to `out` as NumPy's integer products are) and
 * finished by `epilogue`.
 */
function sumOfProducts(
  key: string,
  arrays: readonly GPUArray[],
  out: DType,
  epilogue: (acc: string) => string,
): Reduction {
  const d = arrays[0]!.backend.dialect;
  const acc = computeType(sumType(out)), c = cType(acc, d);
  return {
    key,
    arrays,
    values: [],
    scalars: [],
    acc: { dtype: acc, identity: literal(0, acc, d) },
    combine: "return a + b;",
    helpers: "",
    out,
    prologue: (ref, _s, _i, value) => {
      const [x, y] = arrays.map((a, k) => `(${c})${load(ref[k]!, a.dtype, d)}`);
      return `{ const ${c} x = ${x}; ${value} = x * ${y ?? "x"}; }`;
    },
    epilogue,
  };
}

/**
 * The dot product of two arrays of the same size, element by element in C order, as a host number in
 * NumPy's dtype (integers wrap to it as NumPy's do; bools give 0 or 1): `ga.dot` of two 1-D arrays,
 * `vdot`, and `einsum("i,i->")`.
 *
 * @throws {RangeError} when the sizes differ.
 */
export function flatDot(a: GPUArray, b: GPUArray): number {
  if (!(a instanceof GPUArray) || !(b instanceof GPUArray)) {
    throw new TypeError("Cannot dot() a non-array: pass two GPUArrays");
  }
  if (a.backend !== b.backend) {
    throw new TypeError(
      `Cannot dot arrays on ${a.backend.device} and ${b.backend.device}: copy one over first`,
    );
  }
  if (a.size !== b.size) {
    throw new RangeError(
      `Cannot dot arrays of shapes ${showShape(a.shape)} and ${
        showShape(b.shape)
      }: the sizes (${a.size} and ${b.size}) must match`,
    );
  }
  const same = a.ndim === b.ndim && a.shape.every((e, i) => e === b.shape[i]);
  const x = same ? a : reshape(a, [-1]), y = same ? b : reshape(b, [-1]);
  try {
    const red = sumOfProducts("dot", [x, y], resultType(a.dtype, b.dtype), (acc) => acc);
    return Number(reduceToHost(red, x.shape, "dot"));
  } finally {
    if (x !== a) x.free();
    if (y !== b) y.free();
  }
}

/**
 * The Euclidean norm, `sqrt(sum(a * a))` (NumPy's `norm` with `ord=None`): of the flattened array
 * (Frobenius for a matrix) a host number; along one axis (the 2-norm of each vector) or two (the
 * Frobenius norm of each matrix) an array, float64 for integers. The axis and `keepdims` are given in
 * the options or by NumPy's positions, after `ord`: `norm(a, null, 1, true)`. NumPy's other `ord`s
 * are written with the reductions.
 *
 * @throws {TypeError} when given an `ord`, which this norm does not take.
 * @throws {RangeError} for an axis out of range, or more than two axes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.norm(ga.toGpu(new Float32Array([3, 4])))); // 5
 * const rows = ga.norm(ga.asarray([[3, 4], [6, 8]]), { axis: 1 }); // [5, 10]; also ga.norm(a, null, 1)
 * ```
 */
export function norm<D extends DType, O extends NormOptions = Record<never, never>>(
  a: GPUArray<D>,
  options?: O,
): Reduced<O, number, MeanType<D>>;
/** `norm(a, ord, axis, keepdims)`, NumPy's positions; `ord` must be null (or undefined). */
export function norm<D extends DType>(
  a: GPUArray<D>,
  ord: null | undefined,
  axis: AxisArg,
  keepdims?: boolean | Omit<NormOptions, "axis">,
): GPUArray<MeanType<D>>;
export function norm(a: GPUArray, ...args: unknown[]): unknown {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot norm ${typeof a}: pass a GPUArray`);
  if (a.dtype === "complex64" || a.dtype === "complex128") {
    // The 2-norm of complex numbers is that of their magnitudes (NumPy's), in the parts' dtype.
    using magnitudes = abs(a);
    return (norm as (a: GPUArray, ...args: unknown[]) => unknown)(magnitudes, ...args);
  }
  const options = optionsOf<NormOptions & { ord?: unknown }>(
    "norm",
    args,
    NORM_SLOTS,
    ["axis", "keepdims", "ord"],
    "{ axis: 0 }",
  );
  if (options.ord !== undefined && options.ord !== null) {
    throw new TypeError(
      `Cannot norm with ord ${
        String(options.ord)
      }: norm() is the 2-norm of the flattened array (Frobenius for a matrix); write others with the reductions, ga.abs(a).sum() for the 1-norm, ga.abs(a).max() for the max norm`,
    );
  }
  const axes = normalizeAxes(options.axis, a.ndim, "norm");
  if (options.axis !== undefined && axes.length > 2) {
    throw new RangeError(
      `Cannot norm along axes [${
        String(options.axis)
      }]: give one axis (vector norms) or two (matrix norms), as NumPy's norm`,
    );
  }
  const out = meanType(a.dtype), d = a.backend.dialect;
  const red = sumOfProducts("norm", [a], out, (acc) => `${mathFn("sqrt", computeType(out), d)}(${acc})`);
  const tracked = isTracked(a);
  if (options.axis === undefined && options.keepdims !== true && !tracked) {
    return Number(reduceToHost(red, a.shape, "norm"));
  }
  const y = reduceArray(red, a.shape, axes, options.keepdims === true, undefined, "norm");
  recordReduction("norm", a, y, axes, options.keepdims === true, (g, x, y, _, ops) =>
    // At 0 the norm has no derivative; 0 is the subgradient PyTorch gives.
    ops.where(y.eq(0), 0, g.mul(x).div(y)));
  return y;
}
