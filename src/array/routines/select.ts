/**
 * NumPy's `select`: per element, the choice of the first condition that holds, as `where`s from the
 * last condition to the first (so it differentiates and fuses as `where` does).
 *
 * @module
 */

import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { where } from "../ops/ufunc.ts";

/**
 * Per element, the value of `choicelist[i]` for the first `condlist[i]` that holds there, else
 * `fallback` (NumPy's `select`, whose `default`). Conditions are bool arrays; conditions, choices and
 * the fallback broadcast together; the result's dtype is that of the choices and the fallback.
 *
 * @throws {RangeError} when the two lists differ in length or are empty, or shapes do not broadcast.
 * @throws {TypeError} for a condition that is not a bool array.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.arange(6, "float32");
 * const y = ga.select([x.lt(2), x.gt(3)], [x, x.mul(10)], -1); // [0, 1, -1, -1, 40, 50]
 * ```
 */
export function select(
  condlist: readonly GPUArray[],
  choicelist: readonly (GPUArray | number)[],
  fallback: GPUArray | number = 0,
): GPUArray {
  if (!Array.isArray(condlist) || !Array.isArray(choicelist) || condlist.length !== choicelist.length) {
    throw new RangeError(
      `Cannot select with ${describe(condlist)} and ${
        describe(choicelist)
      }: give two lists of one length, the conditions and their choices`,
    );
  }
  if (condlist.length === 0) throw new RangeError("Cannot select with no conditions: give at least one");
  condlist.forEach((c, i) => {
    if (!(c instanceof GPUArray) || c.dtype !== "bool") {
      throw new TypeError(
        `Cannot select with condition ${i} ${
          c instanceof GPUArray ? `of dtype ${c.dtype}` : describe(c)
        }: conditions are bool arrays (comparisons, isnan)`,
      );
    }
  });
  let out: GPUArray | number = fallback;
  for (let i = condlist.length - 1; i >= 0; i--) {
    const next: GPUArray = where(condlist[i]!, choicelist[i]!, out);
    if (out instanceof GPUArray && out !== fallback) out.free();
    out = next;
  }
  return out as GPUArray;
}
