/**
 * NumPy's `select`: per element, the choice of the first condition that holds, as `where`s from the
 * last condition to the first (so it differentiates and fuses as `where` does); and `choose`: per
 * element, the choice its index names, as `takeAlongAxis` over the stacked choices; and `piecewise`,
 * `where`s of functions' values.
 *
 * @module
 */

import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { broadcastShapes } from "../core/layout.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import { clip, where } from "../ops/ufunc.ts";
import { broadcastTo, expandDims, squeeze } from "../ops/views.ts";
import { astype, fill } from "../ops/assign.ts";
import { remainder } from "../api/elementwise.ts";
import { stack } from "./join.ts";
import { alongAxis } from "./along_axis.ts";

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

/**
 * Options of {@link choose}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.ChooseOptions = { mode: "wrap" };
 * ```
 */
export interface ChooseOptions {
  /**
   * What an index outside `0` to `n - 1` does: `"raise"` (default) is an error, `"wrap"` takes it
   * modulo n, `"clip"` the nearest end.
   */
  readonly mode?: "raise" | "wrap" | "clip";
}

/**
 * Per element, the value there of the choice that `a` names (NumPy's `choose`): `a` holds integers
 * from 0 to n - 1 and `choices` is a list of n arrays (or one array, its first axis the choices);
 * `a` and the choices broadcast together, and the result's dtype is the choices' (promoted).
 * Differentiable in the choices.
 *
 * @throws {RangeError} for an index out of range with mode "raise", no choices, or shapes that do not
 * broadcast.
 * @throws {TypeError} for `a` not of an integer dtype, or a mode that is not one of the three.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const pick = ga.asarray([0, 2, 1, 0], "int32");
 * const y = ga.choose(pick, [ga.arange(4), ga.full([4], 10), ga.full([4], 20)]); // [0, 20, 10, 3]
 * const wrapped = ga.choose(ga.asarray([3, -1], "int32"), [ga.zeros(2), ga.ones(2)], { mode: "wrap" }); // [1, 1]
 * ```
 */
export function choose(
  a: GPUArray,
  choices: readonly GPUArray[] | GPUArray,
  options?: ChooseOptions,
): GPUArray {
  arrayArg(a, "choose");
  const kind = DTYPES[a.dtype].kind;
  if (kind !== "int" && kind !== "uint") {
    throw new TypeError(`Cannot choose with ${a.dtype} indices: give an integer array of choice numbers`);
  }
  const mode = options?.mode ?? "raise";
  if (mode !== "raise" && mode !== "wrap" && mode !== "clip") {
    throw new TypeError(`Cannot choose with mode ${describe(mode)}: give "raise", "wrap" or "clip"`);
  }
  const list = choices instanceof GPUArray ? undefined : choices;
  if (list !== undefined && (!Array.isArray(list) || list.some((c) => !(c instanceof GPUArray)))) {
    throw new TypeError(`Cannot choose from ${describe(choices)}: give a list of arrays, or one array`);
  }
  const n = list === undefined ? (choices as GPUArray).shape[0] ?? 0 : list.length;
  if (n === 0) throw new RangeError("Cannot choose from no choices: give at least one");
  const shapes = list === undefined ? [(choices as GPUArray).shape.slice(1)] : list.map((c) => c.shape);
  const shape = broadcastShapes([a.shape, ...shapes], "choose");
  const wide = list === undefined ? [] : list.map((c) => broadcastTo(c, shape));
  try {
    using stacked = list === undefined ? choicesAlong(choices as GPUArray, shape) : stack(wide, 0);
    // In int64, where n and every wrapped or clipped index fit; a negative index is out of range.
    using whole = astype(a, "int64");
    using negative = whole.lt(0);
    using picked = mode === "wrap"
      ? remainder(whole, n)
      : mode === "clip"
      ? clip(whole, 0, n - 1)
      : where(negative, n, whole);
    using index = broadcastTo(picked, shape);
    using first = expandDims(index, 0);
    using chosen = alongAxis(
      stacked,
      first,
      0,
      "choose",
      () =>
        `Cannot choose: an entry of a is out of range for ${n} choices (0 to ${
          n - 1
        }); pass { mode: "wrap" } or { mode: "clip" }`,
    );
    return squeeze(chosen, 0);
  } finally {
    for (const w of wide) w.free();
  }
}

/** One array of choices (its first axis) broadcast to `[n, ...shape]`: new axes go after the first. */
function choicesAlong(choices: GPUArray, shape: readonly number[]): GPUArray {
  const added = Array.from({ length: shape.length - (choices.ndim - 1) }, (_, i) => i + 1);
  if (added.length === 0) return broadcastTo(choices, [choices.shape[0]!, ...shape]);
  using lifted = expandDims(choices, added);
  return broadcastTo(lifted, [choices.shape[0]!, ...shape]);
}

/** A piece of {@link piecewise}: a function of the whole array, or a constant. */
export type Piece = ((x: GPUArray) => GPUArray | number) | number;

/**
 * `x` mapped piece by piece (NumPy's `piecewise`): where `condlist[i]` holds, the value of
 * `funclist[i]` (a function of `x`, or a constant); a last extra function or constant is the value
 * where no condition holds, else 0 there. Where conditions overlap, the later one wins, as in NumPy.
 * Each function is given the whole of `x` (NumPy gives it the selected elements): its values are kept
 * only where its condition holds. The result has `x`'s dtype.
 *
 * @throws {RangeError} where `funclist` is not as long as `condlist` or one longer.
 * @throws {TypeError} for a condition that is not a bool array.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.linspace(-2, 2, 5);
 * const y = ga.piecewise(x, [x.lt(0), x.ge(0)], [(v) => v.neg(), (v) => v.mul(v)]); // [2, 1, 0, 1, 4]
 * ```
 */
export function piecewise(x: GPUArray, condlist: readonly GPUArray[], funclist: readonly Piece[]): GPUArray {
  arrayArg(x, "piecewise");
  if (!Array.isArray(condlist) || !Array.isArray(funclist)) {
    throw new TypeError("Cannot piecewise without lists: give the conditions and the functions as lists");
  }
  const n = condlist.length;
  if (funclist.length !== n && funclist.length !== n + 1) {
    throw new RangeError(
      `Cannot piecewise with ${n} conditions and ${funclist.length} functions: give as many, or one more for elsewhere`,
    );
  }
  condlist.forEach((c, i) => {
    if (!(c instanceof GPUArray) || c.dtype !== "bool") {
      throw new TypeError(`Cannot piecewise with condition ${i} ${describe(c)}: conditions are bool arrays`);
    }
  });
  const valueOf = (f: Piece) => (typeof f === "function" ? f(x) : f);
  // Zeros, or the extra piece, where no condition holds; then each condition's piece over it in turn.
  let out: GPUArray = fill(new GPUArray(x.backend, x.shape, x.dtype), 0);
  const pieces = funclist.length === n + 1 ? [funclist[n]!, ...funclist.slice(0, n)] : funclist;
  const masks = funclist.length === n + 1 ? [undefined, ...condlist] : condlist;
  pieces.forEach((piece, i) => {
    const value = valueOf(piece), mask = masks[i];
    const next = mask === undefined ? out.add(value) : where(mask, value, out);
    out.free();
    if (value instanceof GPUArray && value !== x) value.free();
    out = next;
  });
  const typed = out.dtype === x.dtype ? out : astype(out, x.dtype);
  if (typed !== out) out.free();
  return typed;
}
