/**
 * The dot product of two whole arrays (for `ga.dot`, `vdot` and `einsum`) and `norm`, to a host
 * number, each one reduction through the generator.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { computeType, cType, literal, load, mathFn } from "../../codegen/c.ts";
import { resultType } from "../core/dtypes.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { reduceToHost, type Reduction } from "../exec/reduction.ts";
import { meanType, sumType } from "./reduction_defs.ts";
import { reshape } from "./views.ts";

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
 * The Euclidean norm, `sqrt(sum(a * a))`, as a host number: the 2-norm of the flattened array
 * (Frobenius for a matrix). NumPy's other `ord`s are written with the reductions.
 *
 * @throws {TypeError} when given an `ord` (`ord`), which this norm does not take.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.norm(ga.toGpu(new Float32Array([3, 4])))); // 5
 * ```
 */
export function norm(a: GPUArray, ord?: never): number {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot norm ${typeof a}: pass a GPUArray`);
  if (ord !== undefined) {
    throw new TypeError(
      `Cannot norm with ord ${
        String(ord)
      }: norm() is the 2-norm of the flattened array (Frobenius for a matrix); write others with the reductions, ga.abs(a).sum() for the 1-norm, ga.abs(a).max() for the max norm`,
    );
  }
  const out = meanType(a.dtype), d = a.backend.dialect;
  const red = sumOfProducts("norm", [a], out, (acc) => `${mathFn("sqrt", computeType(out), d)}(${acc})`);
  return Number(reduceToHost(red, a.shape, "norm"));
}
