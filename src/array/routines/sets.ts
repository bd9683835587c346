/**
 * Set routines over sorted arrays, NumPy style: `isin` (a sort of the test elements and a binary
 * search per element), `intersect1d`, `union1d`, `setdiff1d`, `setxor1d` (NumPy's own steps: unique,
 * concatenate, sort, compare neighbours, select), `arrayEqual` and `arrayEquiv`. Equality is NumPy's: -0.0 equals
 * +0.0, NaN equals nothing (so `isin` never finds a NaN and `intersect1d` never keeps one).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { checkOptions } from "../../kernel/options.ts";
import { all } from "../api/reductions.ts";
import { fill } from "../ops/assign.ts";
import { ravel, slice } from "../ops/views.ts";
import { argsort, sort } from "../ops/sorting.ts";
import { take } from "../ops/indexing.ts";
import { eq, isnan, logicalAnd, logicalNot, logicalOr, minimum, ne, sub } from "../api/elementwise.ts";
import { searchsorted, unique } from "./search.ts";
import { concatenate } from "./join.ts";
import { mask } from "./compact.ts";
import { checkReal } from "../ops/sorting.ts";

/**
 * Options of {@link arrayEqual}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.ArrayEqualOptions = { equalNan: true };
 * ```
 */
export interface ArrayEqualOptions {
  /** Count NaN as equal to NaN (default false). */
  readonly equalNan?: boolean;
}

/**
 * Whether `a1` and `a2` have the same shape and equal elements (NumPy's `array_equal`): a host
 * boolean. Arrays of different shapes are not equal (they are not broadcast); dtypes are compared by
 * value.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.arrayEqual(ga.asarray([1, 2]), ga.asarray([1, 2], "int32"))); // true
 * console.log(ga.arrayEqual(ga.asarray([NaN]), ga.asarray([NaN]), { equalNan: true })); // true
 * ```
 */
export function arrayEqual(a1: GPUArray, a2: GPUArray, options?: ArrayEqualOptions): boolean {
  checkReal(a1, "compare");
  checkReal(a2, "compare with");
  checkOptions(options, "arrayEqual", "{ equalNan: true }", ["equalNan"]);
  if (a1.ndim !== a2.ndim || a1.shape.some((e, k) => e !== a2.shape[k])) return false;
  using same = eq(a1, a2);
  if (options?.equalNan !== true) return all(same) as boolean;
  using n1 = isnan(a1), n2 = isnan(a2);
  using both = logicalAnd(n1, n2);
  using ok = logicalOr(same, both);
  return all(ok) as boolean;
}

/**
 * Whether `a1` and `a2` have shapes that broadcast together and equal elements wherever they meet
 * (NumPy's `array_equiv`), read back to the host.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.arrayEquiv(ga.asarray([1, 2]), ga.asarray([[1, 2], [1, 2]]))); // true
 * ```
 */
export function arrayEquiv(a1: GPUArray, a2: GPUArray): boolean {
  checkReal(a1, "compare");
  checkReal(a2, "compare with");
  // Aligned from the end, each pair of extents equal or one of them 1.
  const n = Math.min(a1.ndim, a2.ndim);
  for (let k = 1; k <= n; k++) {
    const d1 = a1.shape[a1.ndim - k]!, d2 = a2.shape[a2.ndim - k]!;
    if (d1 !== d2 && d1 !== 1 && d2 !== 1) return false;
  }
  using same = eq(a1, a2);
  return all(same) as boolean;
}

/**
 * Options of {@link isin}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.IsinOptions = { invert: true };
 * ```
 */
export interface IsinOptions {
  /** Give whether each element is *not* among the test elements (default false). */
  readonly invert?: boolean;
}

/**
 * Whether each element of `element` is among `testElements` (NumPy's `isin`): a bool array of
 * `element`'s shape. Both are compared in their common dtype; NaN is never found.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const found = ga.isin(ga.asarray([[0, 2], [4, 6]]), ga.asarray([1, 2, 4, 8]));
 * console.log(found.get()); // Uint8Array [0, 1, 1, 0]
 * ```
 */
export function isin(element: GPUArray, testElements: GPUArray, options?: IsinOptions): GPUArray<"bool"> {
  checkReal(element, "test membership of");
  checkReal(testElements, "test membership in");
  checkOptions(options, "isin", "{ invert: true }", ["invert"]);
  const invert = options?.invert === true;
  if (testElements.size === 0 || element.size === 0) {
    return fill(new GPUArray(element.backend, element.shape, "bool"), invert);
  }
  using flat = ravel(testElements);
  using sorted = sort(flat);
  using at = searchsorted(sorted, element);
  using inside = minimum(at, sorted.size - 1);
  using found = take(sorted, inside);
  using hit = eq(found, element);
  return (invert ? logicalNot(hit) : hit.copy()) as GPUArray<"bool">;
}

/**
 * Options of {@link intersect1d}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.Intersect1dOptions = { returnIndices: true };
 * ```
 */
export interface Intersect1dOptions {
  /** The inputs have no repeated elements: skip making them unique (default false). */
  readonly assumeUnique?: boolean;
  /** Also return where each common value first occurs in each input (flat int64 indices). Default false. */
  readonly returnIndices?: boolean;
}

/**
 * The sorted values that occur in both `ar1` and `ar2` (NumPy's `intersect1d`), flattened, in their
 * common dtype. With `returnIndices`, `[values, indices1, indices2]`: where each value first occurs in
 * each input.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.intersect1d(ga.asarray([1, 3, 4, 3]), ga.asarray([3, 1, 2, 1])).get()); // [1, 3]
 * const [v, i1, i2] = ga.intersect1d(ga.asarray([1, 3, 4]), ga.asarray([3, 1]), { returnIndices: true });
 * ```
 */
export function intersect1d(
  ar1: GPUArray,
  ar2: GPUArray,
  options?: Intersect1dOptions & { returnIndices?: false },
): GPUArray;
/** `intersect1d` with `returnIndices`: the values and their first indices in each input. */
export function intersect1d(
  ar1: GPUArray,
  ar2: GPUArray,
  options: Intersect1dOptions & { returnIndices: true },
): [GPUArray, GPUArray<"int64">, GPUArray<"int64">];
/** `intersect1d` with options not known until run time: the values, or the values and their indices. */
export function intersect1d(
  ar1: GPUArray,
  ar2: GPUArray,
  options: Intersect1dOptions,
): GPUArray | [GPUArray, GPUArray<"int64">, GPUArray<"int64">];
export function intersect1d(
  ar1: GPUArray,
  ar2: GPUArray,
  options?: Intersect1dOptions,
): GPUArray | [GPUArray, GPUArray<"int64">, GPUArray<"int64">] {
  checkReal(ar1, "intersect");
  checkReal(ar2, "intersect with");
  checkOptions(options, "intersect1d", "{ returnIndices: true }", ["assumeUnique", "returnIndices"]);
  const indices = options?.returnIndices === true;
  const once = (a: GPUArray) => {
    if (options?.assumeUnique === true) return { values: ravel(a), index: undefined };
    if (!indices) return { values: unique(a), index: undefined };
    const r = unique(a, { returnIndex: true });
    return { values: r.values, index: r.index };
  };
  const u1 = once(ar1), u2 = once(ar2);
  using v1 = u1.values, v2 = u2.values, i1 = u1.index, i2 = u2.index;
  using aux = concatenate([v1, v2]);
  using order = indices ? argsort(aux) : undefined;
  using sorted = order === undefined ? sort(aux) : take(aux, order);
  using later = slice(sorted, [1, null]), earlier = slice(sorted, [null, -1]);
  using same = eq(later, earlier);
  const values = mask(earlier, same);
  if (!indices) return values;
  using o1 = slice(order!, [null, -1]), o2 = slice(order!, [1, null]);
  using p1 = mask(o1, same), q2 = mask(o2, same);
  using p2 = sub(q2, v1.size);
  const pick = (i: GPUArray | undefined, p: GPUArray) => (i === undefined ? p.copy() : take(i, p));
  return [values, pick(i1, p1) as GPUArray<"int64">, pick(i2, p2) as GPUArray<"int64">];
}

/**
 * The sorted values that occur in either input (NumPy's `union1d`), flattened, in their common dtype.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.union1d(ga.asarray([-1, 0, 1]), ga.asarray([-2, 0, 2])).get()); // [-2, -1, 0, 1, 2]
 * ```
 */
export function union1d(ar1: GPUArray, ar2: GPUArray): GPUArray {
  checkReal(ar1, "take the union of");
  checkReal(ar2, "take the union with");
  using both = concatenate([ar1, ar2], null);
  return unique(both);
}

/**
 * Options of {@link setdiff1d} and {@link setxor1d}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.SetOptions = { assumeUnique: true };
 * ```
 */
export interface SetOptions {
  /** The inputs have no repeated elements: skip making them unique (default false). */
  readonly assumeUnique?: boolean;
}

/**
 * The sorted unique values of `ar1` that are not in `ar2` (NumPy's `setdiff1d`), flattened (in
 * `ar1`'s order with `assumeUnique`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.setdiff1d(ga.asarray([1, 2, 3, 2, 4, 1]), ga.asarray([3, 4, 5, 6])).get()); // [1, 2]
 * ```
 */
export function setdiff1d<D extends DType>(
  ar1: GPUArray<D>,
  ar2: GPUArray,
  options?: SetOptions,
): GPUArray<D> {
  checkReal(ar1, "take the difference of");
  checkReal(ar2, "take the difference with");
  checkOptions(options, "setdiff1d", "{ assumeUnique: true }", ["assumeUnique"]);
  using u1 = options?.assumeUnique === true ? ravel(ar1) : unique(ar1);
  using out = isin(u1, ar2, { invert: true });
  return mask(u1, out);
}

/**
 * The sorted values that occur in exactly one of the inputs (NumPy's `setxor1d`), flattened, in their
 * common dtype.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.setxor1d(ga.asarray([1, 2, 3, 2, 4]), ga.asarray([2, 3, 5, 7, 5])).get()); // [1, 4, 5, 7]
 * ```
 */
export function setxor1d(ar1: GPUArray, ar2: GPUArray, options?: SetOptions): GPUArray {
  checkReal(ar1, "take the symmetric difference of");
  checkReal(ar2, "take the symmetric difference with");
  checkOptions(options, "setxor1d", "{ assumeUnique: true }", ["assumeUnique"]);
  const own = (a: GPUArray) => (options?.assumeUnique === true ? ravel(a) : unique(a));
  using u1 = own(ar1), u2 = own(ar2);
  using aux = concatenate([u1, u2], null);
  if (aux.size === 0) return aux.copy();
  using sorted = sort(aux);
  const n = sorted.size;
  using flags = fill(new GPUArray(sorted.backend, [n + 1], "bool"), true);
  if (n > 1) {
    using later = slice(sorted, [1, null]), earlier = slice(sorted, [null, -1]);
    using inner = slice(flags, [1, -1]);
    using differ = ne(later, earlier);
    inner.assign(differ);
  }
  using right = slice(flags, [1, null]), left = slice(flags, [null, -1]);
  using keep = logicalAnd(right, left);
  return mask(sorted, keep);
}
