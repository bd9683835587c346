/**
 * Matrices made or masked by their diagonals: `eye`, `identity`, `tri`, `triu`, `tril`. Each is one loop
 * whose statement finds an element's row and column from its index (of the last two axes) and compares
 * their difference with the diagonal `k`.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { castTo, computeType, indexType, literal } from "../../codegen/c.ts";
import { copyInto, runLoop } from "../exec/loop.ts";
import { record } from "../grad/tape.ts";
import { showShape } from "../core/layout.ts";
import { broadcastTo, diagonal, ravel } from "../ops/views.ts";
import { fill } from "../ops/assign.ts";
import { DTYPE, dtypeArg, type DTypeOptions, numberSlot, optionsOf, type Slot } from "../core/axis_args.ts";

/**
 * Options of {@link eye} and {@link tri}: NumPy's `M`, `k` and `dtype`, which they also take by
 * position (`eye(n, m, k, dtype)`; a dtype may come straight after `n`: `eye(3, "int32")`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.EyeOptions<"int32"> = { k: 1, dtype: "int32" };
 * const above = ga.eye(3, options);
 * ```
 */
export interface EyeOptions<D extends DType = DType> extends DTypeOptions<D> {
  /** The number of columns (default `n`; null too). */
  readonly m?: number | null;
  /** The diagonal: 0 the main one, above it positive, below negative. Default 0. */
  readonly k?: number;
}

/** NumPy's positions after `n`: M (a number or null), k, dtype. */
const EYE_SLOTS: readonly Slot[] = [
  { name: "m", takes: (v) => typeof v === "number" || v === null, what: "m (a number, or null for n)" },
  numberSlot("k"),
  DTYPE,
];

/** The options of `eye` or `tri` (`what`) from their arguments after `n`. */
function eyeOptions(what: string, args: readonly unknown[]): EyeOptions {
  return optionsOf(what, args, EYE_SLOTS, ["m", "k", "dtype"], '{ k: 1, dtype: "int32" }');
}

/** Which elements keep their value (or get 1): those whose column minus row compares so with `k`. */
type Test = "==" | "<=" | ">=";

function checkCount(n: number, name: string, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`Cannot make ${what} with ${name} = ${describe(n)}: give a non-negative integer`);
  }
  return n;
}

function checkDiagonal(k: number, what: string): number {
  if (!Number.isSafeInteger(k)) {
    throw new RangeError(`Cannot make ${what} with k = ${describe(k)}: give an integer`);
  }
  return k;
}

/**
 * Writes `out` from its element's position in its last two axes: where `column - row` passes `test`
 * against `k`, `source`'s element (or 1), else 0.
 */
function byDiagonal(
  out: GPUArray,
  source: GPUArray | undefined,
  k: number,
  test: Test,
  what: string,
): GPUArray {
  const dialect = out.backend.dialect, wide = indexType(dialect);
  const [rows, columns] = out.shape.slice(-2) as [number, number];
  runLoop(
    {
      key: `diagonal${test}${source === undefined ? "1" : "x"}`,
      arrays: source === undefined ? [out] : [source, out],
      written: source === undefined ? [true] : [false, true],
      scalars: [rows, columns, k].map((v) => ({ value: BigInt(v), dtype: "int64" as const })),
      statement: (ref, [r, c, diagonal], index) => {
        const y = ref[ref.length - 1]!;
        const one = (v: number) => castTo(literal(v, computeType(out.dtype), dialect), out.dtype, dialect);
        const kept = source === undefined ? one(1) : ref[0]!;
        return `{ const ${wide} col = (${wide})(${index}) % ${c}, row = (${wide})(${index}) / ${c} % ${r};
        ${y} = (col - row ${test} ${diagonal}) ? ${kept} : ${one(0)}; }`;
      },
    },
    out.shape,
    what,
  );
  return out;
}

/**
 * An `n × m` matrix with ones on diagonal `k` (0 the main one, above it positive) and zeros elsewhere
 * (NumPy's `eye`); float32 unless `dtype` says otherwise. `m`, `k` and `dtype` are given by NumPy's
 * positions or in the options.
 *
 * @throws {RangeError} for a negative size or a non-integer `k`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i3 = ga.eye(3);
 * const shifted = ga.eye(3, 4, 1, "int32"); // ones at (0, 1), (1, 2), (2, 3)
 * const ints = ga.eye(3, { dtype: "int32" }); // also ga.eye(3, "int32")
 * ```
 */
export function eye<D extends DType = "float32">(n: number, options?: EyeOptions<D>): GPUArray<D>;
/** `eye(n, dtype)`: the dtype by position. */
export function eye<D extends DType>(n: number, dtype: D): GPUArray<D>;
/** `eye(n, m)`, then the other options. */
export function eye<D extends DType = "float32">(
  n: number,
  m: number | null | undefined,
  options?: EyeOptions<D>,
): GPUArray<D>;
/** `eye(n, m, dtype)`. */
export function eye<D extends DType>(n: number, m: number | null | undefined, dtype: D): GPUArray<D>;
/** `eye(n, m, k)`, then the dtype's options. */
export function eye<D extends DType = "float32">(
  n: number,
  m: number | null | undefined,
  k: number | undefined,
  options?: DTypeOptions<D>,
): GPUArray<D>;
/** `eye(n, m, k, dtype)`, NumPy's positions. */
export function eye<D extends DType>(
  n: number,
  m: number | null | undefined,
  k: number | undefined,
  dtype: D,
): GPUArray<D>;
export function eye(n: number, ...args: unknown[]): GPUArray {
  const { m, k = 0, dtype } = eyeOptions("eye()", args);
  const shape = [checkCount(n, "n", "eye()"), checkCount(m ?? n, "m", "eye()")];
  const out = new GPUArray(activeBackend(), shape, dtype ?? "float32");
  return byDiagonal(out, undefined, checkDiagonal(k, "eye()"), "==", "eye");
}

/**
 * The `n × n` identity matrix (NumPy's `identity`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i = ga.identity(4, "float64"); // also { dtype: "float64" }
 * ```
 */
export function identity<D extends DType = "float32">(n: number, options?: DTypeOptions<D>): GPUArray<D>;
/** `identity(n, dtype)`: the dtype by position. */
export function identity<D extends DType>(n: number, dtype: D): GPUArray<D>;
export function identity(n: number, dtype?: unknown): GPUArray {
  return eye(n, n, 0, { dtype: dtypeArg("identity()", dtype) });
}

/**
 * An `n × m` matrix with ones at and below diagonal `k` and zeros above (NumPy's `tri`); `m`, `k`
 * and `dtype` as {@link eye} takes them.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const lower = ga.tri(3); // [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
 * const mask = ga.tri(3, { dtype: "bool" }); // also ga.tri(3, "bool")
 * ```
 */
export function tri<D extends DType = "float32">(n: number, options?: EyeOptions<D>): GPUArray<D>;
/** `tri(n, dtype)`: the dtype by position. */
export function tri<D extends DType>(n: number, dtype: D): GPUArray<D>;
/** `tri(n, m)`, then the other options. */
export function tri<D extends DType = "float32">(
  n: number,
  m: number | null | undefined,
  options?: EyeOptions<D>,
): GPUArray<D>;
/** `tri(n, m, dtype)`. */
export function tri<D extends DType>(n: number, m: number | null | undefined, dtype: D): GPUArray<D>;
/** `tri(n, m, k)`, then the dtype's options. */
export function tri<D extends DType = "float32">(
  n: number,
  m: number | null | undefined,
  k: number | undefined,
  options?: DTypeOptions<D>,
): GPUArray<D>;
/** `tri(n, m, k, dtype)`, NumPy's positions. */
export function tri<D extends DType>(
  n: number,
  m: number | null | undefined,
  k: number | undefined,
  dtype: D,
): GPUArray<D>;
export function tri(n: number, ...args: unknown[]): GPUArray {
  const { m, k = 0, dtype } = eyeOptions("tri()", args);
  const shape = [checkCount(n, "n", "tri()"), checkCount(m ?? n, "m", "tri()")];
  const out = new GPUArray(activeBackend(), shape, dtype ?? "float32");
  return byDiagonal(out, undefined, checkDiagonal(k, "tri()"), "<=", "tri");
}

function triangle<D extends DType>(a: GPUArray<D>, k: number, test: Test, what: string): GPUArray<D> {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot take ${what}() of a value that is not a GPUArray`);
  }
  checkDiagonal(k, `${what}()`);
  if (a.ndim === 0) {
    throw new RangeError(
      `Cannot take ${what}() of an array of shape ${showShape(a.shape)}: it needs an axis`,
    );
  }
  // NumPy treats a 1-D array as the rows of a square matrix.
  using source = a.ndim === 1 ? broadcastTo(a, [a.shape[0]!, a.shape[0]!]) : broadcastTo(a, a.shape);
  const out = byDiagonal(new GPUArray(a.backend, source.shape, a.dtype), source, k, test, what) as GPUArray<
    D
  >;
  record(what, [a], out, (g) => [triangle(g, k, test, what)]);
  return out;
}

/**
 * `a` with the elements below diagonal `k` (default 0, the main one; above it positive) of its last two
 * axes set to zero (NumPy's `triu`); a 1-D `a` is first repeated as the rows of a square matrix.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const upper = ga.triu(ga.ones([3, 3])); // [[1, 1, 1], [0, 1, 1], [0, 0, 1]]
 * ```
 */
export function triu<D extends DType>(a: GPUArray<D>, k = 0): GPUArray<D> {
  return triangle(a, k, ">=", "triu");
}

/**
 * `a` with the elements above diagonal `k` (default 0, the main one) of its last two axes set to zero
 * (NumPy's `tril`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const lower = ga.tril(ga.ones([2, 3, 3]), -1); // each matrix strictly below its diagonal
 * ```
 */
export function tril<D extends DType>(a: GPUArray<D>, k = 0): GPUArray<D> {
  return triangle(a, k, "<=", "tril");
}

/**
 * NumPy's `diag`: of a vector, the square matrix with it on diagonal `k` (0 the main one, above it
 * positive) and zeros elsewhere; of a matrix, a view of its diagonal `k`.
 *
 * @throws {RangeError} for arrays of other than 1 or 2 dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d = ga.diag(ga.asarray([1, 2, 3])); // [[1, 0, 0], [0, 2, 0], [0, 0, 3]]
 * const above = ga.diag(ga.asarray([1, 2]), 1); // 3 × 3, [1, 2] above the main diagonal
 * const back = ga.diag(d); // [1, 2, 3]
 * ```
 */
export function diag<D extends DType>(v: GPUArray<D>, k = 0): GPUArray<D> {
  if (!(v instanceof GPUArray)) throw new TypeError("Cannot take diag() of a value that is not a GPUArray");
  checkDiagonal(k, "diag()");
  if (v.ndim === 2) return diagonal(v, k);
  if (v.ndim !== 1) {
    throw new RangeError(
      `Cannot take diag() of an array of shape ${
        showShape(v.shape)
      }: give a vector (to make a matrix) or a matrix (to read a diagonal)`,
    );
  }
  const n = v.shape[0]! + Math.abs(k);
  const out = fill(new GPUArray(v.backend, [n, n], v.dtype), 0);
  using d = diagonal(out, k);
  copyInto(d, v, "diag");
  record("diag", [v], out, (g) => [diagonal(g, k)]);
  return out;
}

/**
 * The flattened `v` on diagonal `k` of a square matrix (NumPy's `diagflat`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const d = ga.diagflat(ga.asarray([[1, 2], [3, 4]])); // 4 × 4, [1, 2, 3, 4] on the diagonal
 * ```
 */
export function diagflat<D extends DType>(v: GPUArray<D>, k = 0): GPUArray<D> {
  if (!(v instanceof GPUArray)) {
    throw new TypeError("Cannot take diagflat() of a value that is not a GPUArray");
  }
  using flat = ravel(v);
  return diag(flat, k);
}
