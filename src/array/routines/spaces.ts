/**
 * NumPy's `logspace` and `geomspace`: numbers evenly spaced on a log scale, from `linspace` of the
 * exponents (in float64 where the device has it) raised to the base, then converted to the dtype.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { DTYPE, numberSlot, optionsOf } from "../core/axis_args.ts";
import { mul, power } from "../api/elementwise.ts";
import { astype, fill } from "../ops/assign.ts";
import { slice } from "../ops/views.ts";
import { linspace, type LinspaceOptions } from "./grids.ts";

/**
 * The options of {@link logspace}: those of `linspace`, and the base (default 10).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.LogspaceOptions = { base: 2, endpoint: false };
 * ```
 */
export interface LogspaceOptions<D extends DType = DType> extends LinspaceOptions<D> {
  /** The base of the exponents (default 10). */
  readonly base?: number;
}

/** `base ** linspace(start, stop, ...)` in the working float dtype, converted to the options' dtype. */
function powers(start: number, stop: number, base: number, options: LinspaceOptions, what: string): GPUArray {
  if (!Number.isFinite(base)) {
    throw new RangeError(`Cannot ${what} with base ${describe(base)}: give a finite base`);
  }
  const compute = activeBackend().supports("float64") ? "float64" : "float32";
  using exponents = linspace(start, stop, { ...options, dtype: compute });
  using values = power(base, exponents);
  return astype(values, options.dtype ?? "float32");
}

/**
 * `num` numbers from `base^start` to `base^stop` evenly spaced on a log scale (NumPy's `logspace`),
 * float32 by default; `num`, `endpoint`, `base` and `dtype` as in {@link linspace} (`num` and the
 * dtype also by position).
 *
 * @throws {RangeError} for a negative or fractional `num`, or bounds or a base that are not finite.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.logspace(0, 3, 4).get()); // Float32Array [1, 10, 100, 1000]
 * const octaves = ga.logspace(0, 4, 5, { base: 2, dtype: "float64" }); // 1, 2, 4, 8, 16
 * ```
 */
export function logspace<D extends DType = "float32">(
  start: number,
  stop: number,
  num?: number | LogspaceOptions<D>,
  options?: LogspaceOptions<D>,
): GPUArray<D>;
/** `logspace(start, stop, num, dtype)`: the dtype by position after `num`. */
export function logspace<D extends DType>(
  start: number,
  stop: number,
  num: number | undefined,
  dtype: D,
): GPUArray<D>;
export function logspace(start: number, stop: number, ...args: unknown[]): GPUArray {
  const o = optionsOf<LogspaceOptions>(
    "call logspace()",
    args,
    [numberSlot("num"), DTYPE],
    ["num", "endpoint", "dtype", "base"],
    "{ base: 2 }",
  );
  const { base = 10, ...rest } = o;
  return powers(start, stop, base, rest, "call logspace()");
}

/**
 * `num` numbers from `start` to `stop` in geometric progression (NumPy's `geomspace`): each a constant
 * multiple of the one before, the ends exactly `start` and `stop` (with `endpoint`). Both ends of one
 * sign, neither zero; float32 by default.
 *
 * @throws {RangeError} for a zero end, ends of opposite signs (NumPy's complex answer is not offered),
 * or a negative or fractional `num`.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.geomspace(1, 1000, 4).get()); // Float32Array [1, 10, 100, 1000]
 * const down = ga.geomspace(-1000, -1, 4, "float64"); // -1000, -100, -10, -1
 * ```
 */
export function geomspace<D extends DType = "float32">(
  start: number,
  stop: number,
  num?: number | LinspaceOptions<D>,
  options?: LinspaceOptions<D>,
): GPUArray<D>;
/** `geomspace(start, stop, num, dtype)`: the dtype by position after `num`. */
export function geomspace<D extends DType>(
  start: number,
  stop: number,
  num: number | undefined,
  dtype: D,
): GPUArray<D>;
export function geomspace(start: number, stop: number, ...args: unknown[]): GPUArray {
  const o = optionsOf<LinspaceOptions>(
    "call geomspace()",
    args,
    [numberSlot("num"), DTYPE],
    ["num", "endpoint", "dtype"],
    "{ endpoint: false }",
  );
  if (start === 0 || stop === 0 || Math.sign(start) !== Math.sign(stop)) {
    throw new RangeError(
      `Cannot call geomspace() from ${describe(start)} to ${describe(stop)}: ${
        start === 0 || stop === 0 ? "a geometric sequence cannot include zero" : "give ends of one sign"
      }`,
    );
  }
  const sign = Math.sign(start);
  const out = powers(Math.log10(sign * start), Math.log10(sign * stop), 10, o, "call geomspace()");
  const num = out.shape[0]!;
  if (sign < 0) mul(out, -1, { out });
  // The ends exactly, as NumPy sets them.
  if (num > 0) {
    using first = slice(out, [0, 1]);
    fill(first, start);
  }
  if (num > 1 && o.endpoint !== false) {
    using last = slice(out, [num - 1, num]);
    fill(last, stop);
  }
  return out;
}
