/**
 * `softmax` and `logSoftmax` along an axis: one kernel (`softmax_source.ts`) that reads each row
 * through the input's layout and writes the result.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { FloatResult } from "./dtypes.ts";
import { GPUArray, sharesMemory } from "./gpuarray.ts";
import { coalesce, extent, normalizeAxis, sizeOf } from "./layout.ts";
import { copyOf } from "./loop.ts";
import { BLOCK, COLUMNS, hasVectors, VEC } from "./reduction_source.ts";
import { type SoftmaxPlan, softmaxSource } from "./softmax_source.ts";
import { outputFor } from "./ufunc.ts";
import { mathType } from "./ufunc_defs.ts";

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
  /** The axis the values are normalised along (negative counts from the end). Default -1. */
  readonly axis?: number;
  /** Write the result here (the input's shape, the result's dtype; a view is fine, or the input itself). */
  readonly out?: GPUArray;
}

/** Rows up to this long stay in a warp's registers; up to `BLOCK * MAX_ITEMS` in a block's. */
const MAX_ITEMS = 32;
const NARROW = 2 ** 30;

function run(log: boolean, a: unknown, options: SoftmaxOptions = {}): GPUArray {
  const what = log ? "logSoftmax" : "softmax";
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} ${a === null ? "null" : typeof a}: pass a GPUArray`);
  }
  const axis = normalizeAxis(options.axis ?? -1, a.ndim, what);
  const outType = mathType(a.dtype);
  const result = outputFor(a, a.shape, outType, options.out, what);
  let input = a;
  const sameLayout = a.offset === result.offset && a.strides.every((s, i) => s === result.strides[i]);
  if (sharesMemory(a, result) && !sameLayout) input = copyOf(a);
  const backend = a.backend;
  if (!backend.supports(outType)) {
    throw new TypeError(
      `Cannot ${what} on ${backend.device}: it needs ${outType} arithmetic, which the device lacks`,
    );
  }
  const n = a.shape[axis]!;
  const keptAxes = a.shape.map((_, i) => i).filter((i) => i !== axis);
  const nOut = sizeOf(keptAxes.map((i) => a.shape[i]!));
  if (n === 0 || nOut === 0) return result;
  const kept = coalesce(keptAxes.map((i) => a.shape[i]!), [
    keptAxes.map((i) => input.strides[i]!),
    keptAxes.map((i) => result.strides[i]!),
  ]);
  const rs0 = input.strides[axis]!, rsout = result.strides[axis]!;
  const innerKept = Math.abs(kept.strides[0]![kept.shape.length - 1]!);
  const row = nOut === 1 || innerKept === 0 || Math.abs(rs0) < innerKept;
  const lanes = n <= 32 * MAX_ITEMS && nOut >= 64 ? 32 : BLOCK;
  const items = n <= lanes * MAX_ITEMS ? 2 ** Math.ceil(Math.log2(Math.ceil(n / lanes))) : 0;
  const aligned = (x: GPUArray, k: number) =>
    x.offset % VEC === 0 && kept.strides[k]!.every((s, dim) => s % VEC === 0 || kept.shape[dim] === 1);
  const vector = row && items >= VEC && rs0 === 1 && rsout === 1 && aligned(input, 0) && aligned(result, 1) &&
    hasVectors(input.dtype, backend.dialect) && hasVectors(outType, backend.dialect);
  const narrow = a.size < NARROW && [input, result].every((x) => {
    const [lo, hi] = extent(x.shape, x.strides);
    return lo > -NARROW && hi < NARROW;
  });
  const plan: SoftmaxPlan = {
    path: row ? "row" : "col",
    lanes: row ? lanes : COLUMNS,
    items: row ? items : 0,
    vector,
    kept: kept.shape.length,
    narrow,
    input: input.dtype,
    out: outType,
    log,
  };
  const key = `${what}|${plan.path}${plan.lanes}x${plan.items}${vector ? "v" : ""}|${plan.kept}|${
    narrow ? "n" : "w"
  }|${input.dtype}>${outType}`;
  const kernel = backend.kernel(
    key,
    () => ({ name: "cudeno_softmax", source: softmaxSource(plan, backend.dialect) }),
  );
  const args = [
    input.buffer,
    input.offset,
    ...kept.strides[0]!,
    rs0,
    result.buffer,
    result.offset,
    ...kept.strides[1]!,
    rsout,
    ...kept.shape.slice(1),
    nOut,
    n,
  ];
  const perBlock = row ? BLOCK / plan.lanes : COLUMNS;
  kernel.launch({ grid: Math.ceil(nOut / perBlock), block: BLOCK }, args);
  if (input !== a) input.free();
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
 * const p = ga.softmax(logits, { axis: 1 });
 * const pred = ga.argmax(p, { axis: 1 }); // int64 [512]
 * ```
 */
export function softmax<D extends DType>(a: GPUArray<D>, options?: SoftmaxOptions): GPUArray<FloatResult<D>> {
  return run(false, a, options) as GPUArray<FloatResult<D>>;
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
 * ```
 */
export function logSoftmax<D extends DType>(
  a: GPUArray<D>,
  options?: SoftmaxOptions,
): GPUArray<FloatResult<D>> {
  return run(true, a, options) as GPUArray<FloatResult<D>>;
}
