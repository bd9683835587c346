/**
 * NumPy's `nan_to_num`: NaN and the infinities replaced by finite numbers (or the ones given), as three
 * `where`s, so it is differentiable (the gradient flows to the elements kept) and fuses; and the tests
 * of values beside `isnan` and `isinf`: `isposinf`, `isneginf`, `iscomplex`, `isreal`, and of dtypes,
 * `iscomplexobj`, `isrealobj`.
 *
 * @module
 */

import { DTYPES } from "../../kernel/dtype.ts";
import { describe } from "../core/describe.ts";
import { optionsOf } from "../core/axis_args.ts";
import { complex, eq, gt, isinf, isnan, logicalAnd, lt, ne } from "../api/elementwise.ts";
import { fill } from "../ops/assign.ts";
import { imag } from "../ops/complex_parts.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { where } from "../ops/ufunc.ts";
import { copy } from "../ops/views.ts";

/**
 * The options of {@link nanToNum}: what NaN, +∞ and -∞ become.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.NanToNumOptions = { nan: -1, posinf: 1e6 };
 * ```
 */
export interface NanToNumOptions {
  /** NaN's replacement (default 0). */
  readonly nan?: number;
  /** +∞'s replacement (default the dtype's largest finite number). */
  readonly posinf?: number;
  /** -∞'s replacement (default the dtype's most negative finite number). */
  readonly neginf?: number;
}

/** The largest finite number of each float dtype. */
const LARGEST: Record<string, number> = {
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
  float32: 3.4028234663852886e38,
  float64: Number.MAX_VALUE,
  complex64: 3.4028234663852886e38,
  complex128: Number.MAX_VALUE,
};

function replaced(x: GPUArray, o: NanToNumOptions): GPUArray {
  const big = LARGEST[x.dtype]!;
  using positive = x.gt(0);
  using infinite = isinf(x);
  using up = infinite.logicalAnd(positive);
  using down = infinite.logicalAnd(positive.logicalNot());
  using a = where(up, o.posinf ?? big, x);
  using b = where(down, o.neginf ?? -big, a);
  using nan = isnan(x);
  return where(nan, o.nan ?? 0, b);
}

/**
 * `x` with NaN replaced by 0 and ±∞ by the dtype's largest finite numbers, or by the numbers given
 * (NumPy's `nan_to_num`, never in place). Integer and bool arrays come back as copies; complex arrays
 * have each part replaced.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([NaN, Infinity, -Infinity, 1]);
 * console.log(ga.nanToNum(x).get()); // Float32Array [0, 3.4028234663852886e38, -3.4028234663852886e38, 1]
 * const capped = ga.nanToNum(x, { nan: -1, posinf: 100, neginf: -100 });
 * ```
 */
export function nanToNum<A extends GPUArray>(x: A, options?: NanToNumOptions): A {
  arrayArg(x, "nanToNum");
  const o = optionsOf<NanToNumOptions>(
    "call nanToNum()",
    [options],
    [],
    ["nan", "posinf", "neginf"],
    "{ nan: 0 }",
  );
  for (const key of ["nan", "posinf", "neginf"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "number") {
      throw new TypeError(`Cannot call nanToNum() with ${key} ${describe(o[key])}: give a number`);
    }
  }
  const kind = DTYPES[x.dtype].kind;
  if (kind !== "float" && kind !== "complex") return copy(x) as A;
  if (kind === "float") return replaced(x, o) as A;
  using re = replaced(x.real, o), im = replaced(x.imag, o);
  return complex(re, im) as unknown as A;
}

/**
 * Whether each element is +∞ (NumPy's `isposinf`), a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.isposinf(ga.asarray([Infinity, -Infinity, 1])).get()); // [1, 0, 0]
 * ```
 */
export function isposinf(a: GPUArray): GPUArray<"bool"> {
  arrayArg(a, "isposinf");
  using inf = isinf(a), positive = gt(a, 0);
  return logicalAnd(inf, positive);
}

/**
 * Whether each element is -∞ (NumPy's `isneginf`), a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.isneginf(ga.asarray([Infinity, -Infinity, 1])).get()); // [0, 1, 0]
 * ```
 */
export function isneginf(a: GPUArray): GPUArray<"bool"> {
  arrayArg(a, "isneginf");
  using inf = isinf(a), negative = lt(a, 0);
  return logicalAnd(inf, negative);
}

/** Whether `a`'s dtype is complex. */
const complexDtype = (a: GPUArray) => DTYPES[a.dtype].kind === "complex";

/**
 * Whether each element has a non-zero imaginary part (NumPy's `iscomplex`; all false for a real
 * dtype), a bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const z = ga.complex(ga.asarray([1, 2]), ga.asarray([0, 3]));
 * console.log(ga.iscomplex(z).get()); // [0, 1]
 * ```
 */
export function iscomplex(a: GPUArray): GPUArray<"bool"> {
  arrayArg(a, "iscomplex");
  if (!complexDtype(a)) return fill(new GPUArray(a.backend, a.shape, "bool"), false);
  using parts = imag(a);
  return ne(parts, 0);
}

/**
 * Whether each element has a zero imaginary part (NumPy's `isreal`; all true for a real dtype), a
 * bool array.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.isreal(ga.complex(ga.asarray([1, 2]), ga.asarray([0, 3]))).get()); // [1, 0]
 * ```
 */
export function isreal(a: GPUArray): GPUArray<"bool"> {
  arrayArg(a, "isreal");
  if (!complexDtype(a)) return fill(new GPUArray(a.backend, a.shape, "bool"), true);
  using parts = imag(a);
  return eq(parts, 0);
}

/**
 * Whether `a`'s dtype is complex (NumPy's `iscomplexobj`), whatever its values.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.iscomplexobj(ga.zeros([2], "complex64"))); // true
 * ```
 */
export function iscomplexobj(a: GPUArray): boolean {
  arrayArg(a, "iscomplexobj");
  return complexDtype(a);
}

/**
 * Whether `a`'s dtype is not complex (NumPy's `isrealobj`), whatever its values.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.isrealobj(ga.zeros([2]))); // true
 * ```
 */
export function isrealobj(a: GPUArray): boolean {
  arrayArg(a, "isrealobj");
  return !complexDtype(a);
}
