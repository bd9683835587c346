/**
 * `softmax` and `logSoftmax` along an axis: one row kernel (`rows.ts`) with two stages, the row's
 * maximum and the sum of `exp(x - max)`, then `exp(x - max) / sum` (or `x - max - log(sum)`) for
 * every element, reading each row through the input's layout.
 *
 * @module
 */

import { record, refuseTrackedWrite } from "../grad/tape.ts";
import type { DType } from "../../kernel/dtype.ts";
import type { FloatResult } from "../core/dtypes.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxis } from "../core/layout.ts";
import { castTo, computeType, cType, load, mathFn } from "../../codegen/c.ts";
import { REDUCTIONS } from "./reduction_defs.ts";
import type { RowStage } from "../exec/row_source.ts";
import { runRows } from "../exec/rows.ts";
import { outputFor } from "./ufunc.ts";
import { mathType } from "./elementwise.ts";
import { type AfterAxis, AXIS, optionsOf } from "../core/axis_args.ts";

/**
 * Options of `softmax` and `logSoftmax`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const p = ga.softmax(ga.random.normal([4, 10], { seed: 1 }), { axis: 1 });
 * ```
 */
export interface SoftmaxOptions {
  /**
   * The axis the values are normalised along (negative counts from the end; also given by position:
   * `ga.softmax(a, 0)`). Default -1.
   */
  readonly axis?: number;
  /** Write the result here (the input's shape, the result's dtype; a view is fine, or the input itself). Default: a new array. */
  readonly out?: GPUArray;
}

function run(log: boolean, a: unknown, args: readonly unknown[]): GPUArray {
  const what = log ? "logSoftmax" : "softmax";
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  if (a.dtype === "complex64" || a.dtype === "complex128") {
    throw new TypeError(`Cannot ${what} a ${a.dtype} array: it is defined for real numbers`);
  }
  const options = optionsOf<SoftmaxOptions>(what, args, [AXIS], ["axis", "out"], "{ axis: 0 }");
  const axis = normalizeAxis(options.axis ?? -1, a.ndim, what);
  const outType = mathType(a.dtype);
  if (options.out !== undefined) refuseTrackedWrite(`${what} into out`, options.out, [a]);
  const result = outputFor(a, a.shape, outType, options.out, what);
  const d = a.backend.dialect;
  const t = computeType(outType), c = cType(t, d);
  const [exp, ln] = [mathFn("exp", t, d), mathFn("log", t, d)];
  const x = (ref: readonly string[]) => `(${c})${load(ref[0]!, a.dtype, d)}`;
  const max = REDUCTIONS.max.pieces(t, t, d), sum = REDUCTIONS.sum.pieces(t, t, d);
  const stages: RowStage[] = [
    { ...max, prologue: (ref, _s, i, v) => max.value(x(ref), i, v), epilogue: (acc) => acc, out: t },
    {
      ...sum,
      prologue: (ref, _s, i, v, [m]) => sum.value(`${exp}(${x(ref)} - ${m})`, i, v),
      // logSoftmax keeps log(sum) per row.
      epilogue: (acc) => (log ? `${ln}(${acc})` : acc),
      out: t,
    },
  ];
  runRows(
    {
      key: what,
      name: "cudeno_softmax",
      arrays: [a],
      values: [],
      scalars: [],
      helpers: "",
      stages,
      out: outType,
      output: (ref, _s, [m, s], target) =>
        `${target} = ${
          castTo(log ? `${x(ref)} - ${m} - ${s}` : `${exp}(${x(ref)} - ${m}) / ${s}`, outType, d)
        };`,
    },
    a.shape,
    axis,
    result,
    what,
  );
  record(
    what,
    [a],
    result,
    log
      ? (g, { ops }) => [g.sub(result.exp().mul(ops.sumKeep(g, [axis])))]
      : (g, { ops }) => [result.mul(g.sub(ops.sumKeep(g.mul(result), [axis])))],
  );
  return result;
}

/**
 * `exp(a)` normalised to sum to 1 along an axis (default the last), computed stably: the maximum
 * along the axis is subtracted first. Integers give float64 (float32 for 8/16-bit ones and bool).
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const logits = ga.random.normal([512, 1000], { seed: 1 });
 * const p = ga.softmax(logits, 1); // also ga.softmax(logits, { axis: 1 }), logits.softmax(1)
 * const pred = ga.argmax(p, 1); // int64 [512]
 * ```
 */
export function softmax<D extends DType>(a: GPUArray<D>, options?: SoftmaxOptions): GPUArray<FloatResult<D>>;
/** `softmax` along an axis given by position (`softmax(a, 0)`, `softmax(a, 0, { out })`). */
export function softmax<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<SoftmaxOptions>,
): GPUArray<FloatResult<D>>;
export function softmax(a: GPUArray, ...args: unknown[]): GPUArray {
  return run(false, a, args);
}

/**
 * The logarithm of {@link softmax}, `a - max - log(sum(exp(a - max)))` along an axis (default the
 * last), stable where `log(softmax(a))` would underflow.
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const logp = ga.logSoftmax(ga.asarray([[1, 2, 3]])); // [[-2.408, -1.408, -0.408]]
 * const columns = ga.logSoftmax(ga.asarray([[1, 2], [3, 4]]), 0); // along axis 0
 * ```
 */
export function logSoftmax<D extends DType>(
  a: GPUArray<D>,
  options?: SoftmaxOptions,
): GPUArray<FloatResult<D>>;
/** `logSoftmax` along an axis given by position (`logSoftmax(a, 0)`, `logSoftmax(a, 0, { out })`). */
export function logSoftmax<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<SoftmaxOptions>,
): GPUArray<FloatResult<D>>;
export function logSoftmax(a: GPUArray, ...args: unknown[]): GPUArray {
  return run(true, a, args);
}
