/**
 * NumPy's `nan_to_num`: NaN and the infinities replaced by finite numbers (or the ones given), as three
 * `where`s, so it is differentiable (the gradient flows to the elements kept) and fuses.
 *
 * @module
 */

import { DTYPES } from "../../kernel/dtype.ts";
import { arrayArg, type GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { optionsOf } from "../core/axis_args.ts";
import { complex, isinf, isnan } from "../api/elementwise.ts";
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
