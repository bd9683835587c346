/**
 * NumPy's polynomial functions of the `numpy.poly*` family, coefficients highest power first:
 * `polyval` (Horner's rule), `vander`, `polyder`, `polyint` and `polyfit` (least squares on the
 * Vandermonde matrix, its columns scaled as NumPy scales them). Each is a composite of array
 * operations, so it differentiates as they do.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { astype, linearFill } from "../ops/assign.ts";
import { expandDims, slice } from "../ops/views.ts";
import { divide, multiply, power, sqrt } from "../api/elementwise.ts";
import { sum } from "../api/reductions.ts";
import { concatenate } from "./join.ts";
import { lstsq } from "../linalg/lstsq.ts";

/** `p`, checked to be a 1-D array of coefficients. */
function coefficients(p: GPUArray, what: string): GPUArray {
  arrayArg(p, what);
  if (p.ndim !== 1) {
    throw new RangeError(
      `Cannot ${what} coefficients of shape ${showShape(p.shape)}: give a 1-D array, the highest power first`,
    );
  }
  return p;
}

/** `n`, checked to be a non-negative integer named `name`. */
function count(n: number, name: string, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`Cannot ${what} with ${name} ${describe(n)}: give a non-negative integer`);
  }
  return n;
}

/** `[start, start + step, ...]`, n of them, in `dtype` on `like`'s backend. */
function ramp(like: GPUArray, n: number, start: number, step: number, dtype: DType): GPUArray {
  return linearFill(new GPUArray(like.backend, [n], dtype), start, step);
}

/**
 * The polynomial with coefficients `p` (highest power first) at each element of `x` (NumPy's
 * `polyval`), by Horner's rule: `p[0]·x^(n-1) + … + p[n-1]`; zero for no coefficients.
 *
 * @throws {RangeError} for coefficients that are not 1-D.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const y = ga.polyval(ga.asarray([3, 0, 1]), ga.asarray([1, 2])); // 3x² + 1: [4, 13]
 * ```
 */
export function polyval(p: GPUArray, x: GPUArray): GPUArray {
  coefficients(p, "polyval");
  arrayArg(x, "polyval");
  const n = p.shape[0]!;
  let y = multiply(x, 0);
  for (let i = 0; i < n; i++) {
    using row = slice(p, [i, i + 1]);
    using c = row.reshape([]);
    using scaled = y.mul(x);
    const next = scaled.add(c);
    y.free();
    y = next;
  }
  return y;
}

/**
 * The Vandermonde matrix of `x` (NumPy's `vander`): column j holds `x^(n-1-j)` (`x^j` with
 * `{ increasing: true }`), `n` columns (default `x`'s length).
 *
 * @throws {RangeError} for `x` that is not 1-D or a negative `n`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const v = ga.vander(ga.asarray([1, 2, 3]), 3); // [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
 * ```
 */
export function vander(x: GPUArray, n?: number, options?: { readonly increasing?: boolean }): GPUArray {
  arrayArg(x, "vander");
  if (x.ndim !== 1) {
    throw new RangeError(`Cannot vander an array of shape ${showShape(x.shape)}: give a 1-D array`);
  }
  const columns = count(n ?? x.shape[0]!, "n", "vander");
  const increasing = options?.increasing === true;
  using powers = ramp(x, columns, increasing ? 0 : columns - 1, increasing ? 1 : -1, "int32");
  using column = expandDims(x, -1);
  return power(column, powers);
}

/**
 * The `m`-th derivative of the polynomial with coefficients `p` (NumPy's `polyder`, default m = 1):
 * its coefficients, highest power first (none for a constant).
 *
 * @throws {RangeError} for coefficients that are not 1-D or a negative `m`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d = ga.polyder(ga.asarray([1, 3, 2, 5])); // x³ + 3x² + 2x + 5 → [3, 6, 2]
 * ```
 */
export function polyder(p: GPUArray, m = 1): GPUArray {
  coefficients(p, "polyder");
  count(m, "m", "polyder");
  let out = p.copy();
  for (let k = 0; k < m; k++) {
    const n = out.shape[0]!;
    if (n === 0) return out;
    using head = slice(out, [0, n - 1]);
    using exponents = ramp(p, n - 1, n - 1, -1, "int32");
    const next = multiply(head, exponents);
    out.free();
    out = next;
  }
  return out;
}

/**
 * The `m`-th antiderivative of the polynomial with coefficients `p` (NumPy's `polyint`, default m = 1),
 * each integration's constant `k` (default 0): its coefficients, highest power first, in float64
 * (as NumPy, which divides by int64 powers).
 *
 * @throws {RangeError} for coefficients that are not 1-D or a negative `m`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const f = ga.polyint(ga.asarray([3, 2, 1])); // 3x² + 2x + 1 → [1, 1, 1, 0]
 * ```
 */
export function polyint(p: GPUArray, m = 1, k = 0): GPUArray {
  coefficients(p, "polyint");
  count(m, "m", "polyint");
  let out = p.copy();
  for (let i = 0; i < m; i++) {
    const n = out.shape[0]!;
    using divisors = ramp(p, n, n, -1, "int64");
    using integrated = divide(out, divisors);
    using constant = ramp(p, 1, k, 0, integrated.dtype);
    const next = concatenate([integrated, constant]);
    out.free();
    out = next;
  }
  return out;
}

/**
 * The least-squares polynomial of degree `deg` through the points `(x, y)` (NumPy's `polyfit`): its
 * coefficients, highest power first, in float64 (as NumPy). `y` may be 2-D, a column of values per fit (the result then
 * `[deg + 1, k]`). The Vandermonde matrix's columns are scaled to unit norm before the solve, as
 * NumPy does.
 *
 * @throws {RangeError} for `x` that is not 1-D, `y` of another length, or a negative degree.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.polyfit(ga.asarray([0, 1, 2, 3]), ga.asarray([1, 3, 5, 7]), 1); // [2, 1]
 * ```
 */
export function polyfit(x: GPUArray, y: GPUArray, deg: number): GPUArray {
  arrayArg(x, "polyfit");
  arrayArg(y, "polyfit");
  count(deg, "deg", "polyfit");
  if (x.ndim !== 1 || (y.ndim !== 1 && y.ndim !== 2) || y.shape[0] !== x.shape[0]) {
    throw new RangeError(
      `Cannot polyfit points of shapes ${showShape(x.shape)} and ${
        showShape(y.shape)
      }: give x 1-D and y 1-D or 2-D, of one length`,
    );
  }
  using wide = astype(x, "float64");
  using lhs = vander(wide, deg + 1);
  using squares = lhs.mul(lhs);
  using norms = sum(squares, 0);
  using scale = sqrt(norms);
  using scaled = divide(lhs, scale);
  const { x: solution } = lstsq(scaled, y);
  using _solution = solution;
  using column = y.ndim === 2 ? expandDims(scale, -1) : scale;
  return divide(solution, column);
}
