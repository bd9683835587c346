/**
 * The one reduction generator: every reduction — the built-in ones, `dot`, `norm`,
 * `ReductionKernel`, and fused functions — is a {@link Reduction}: operands of any layout broadcast
 * to one shape, an elementwise prologue over their elements (a C snippet over operand references,
 * as a loop's statement is), a combine, and an epilogue. `reduceInto()` splits the shape into kept
 * and reduced axes (as CuPy's `_reduction` does), coalesces each part, and picks a walk
 * (`reduction_source.ts`): a warp or a block per output where the reduced elements are neighbours in
 * memory, threads across neighbouring outputs where they are not; the reduced elements are split
 * over more blocks, with a second kernel to combine the splits, where the outputs alone would not
 * fill the device.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { fromBfloat16Bits } from "../../kernel/bfloat16.ts";
import type { Backend, BackendBuffer } from "../../device/backend.ts";
import { GPUArray, sharesMemory } from "../core/gpuarray.ts";
import { broadcastStrides, coalesce, extent, showShape, sizeOf } from "../core/layout.ts";
import { coalesceInOrder, copyInto } from "./loop.ts";
import { outputFor } from "../ops/ufunc.ts";
import { targetOf } from "../../codegen/targets.ts";
import {
  accBytes,
  accDTypes,
  BLOCK,
  COLUMNS,
  finalSource,
  type ReductionCode,
  type ReductionPlan,
  reductionSource,
  VEC,
} from "./reduction_source.ts";

/** Work that folds the elements of one or more operands along some axes into one value per kept position. */
export interface Reduction extends ReductionCode {
  /** Names the work: every part of the source other than the operands' dtypes and layouts. */
  readonly key: string;
  /** The operands, each broadcast to the reduction's shape. */
  readonly arrays: readonly GPUArray[];
  /** Scalar parameters, passed as values of {@link ReductionCode.scalars}' dtypes. */
  readonly values: readonly (number | bigint)[];
  /** The prologue reads the reduced index, so reduced axes are walked in C order. */
  readonly indexed?: boolean;
}

/** Where a reduction's results go: a buffer, the element where output 0 is, and a stride per kept axis. */
export interface ReductionTarget {
  /** The buffer. */
  readonly buffer: BackendBuffer;
  /** The element (of the result's dtype) where the first result goes. */
  readonly offset: number;
  /** Elements between neighbouring results along each kept axis, in the shape's order. */
  readonly strides: readonly number[];
}

/**
 * Blocks a reduction aims to launch: several waves of a large GPU (an H200 keeps about 132 × 8 of
 * them at once), so that the last wave's tail is short.
 */
const TARGET_BLOCKS = 4096;
/** The most splits of the reduced elements. */
const MAX_SPLIT = 4096;
/** A split gives each thread at least this many elements. */
const MIN_PER_THREAD = 64;
/** Offsets below this use 32-bit index math. */
const NARROW = 2 ** 30;

function checkOperands(red: Reduction, what: string): Backend {
  const backend = red.arrays[0]!.backend;
  for (const a of red.arrays) {
    if (a.backend !== backend) {
      throw new TypeError(
        `Cannot ${what} arrays on ${backend.device} and ${a.backend.device}: copy one to the other's backend first`,
      );
    }
  }
  for (const d of new Set([...accDTypes(red.acc), red.out])) {
    if (!backend.supports(d)) {
      throw new TypeError(
        `Cannot ${what} on ${backend.device}: it needs ${d} arithmetic, which the device lacks`,
      );
    }
  }
  return backend;
}

const pick = (list: readonly number[], at: readonly number[]) => at.map((i) => list[i]!);

/**
 * Reduces `red`'s operands, broadcast to `shape`, along `axes` (sorted, distinct), writing one
 * result per kept position into `target`.
 */
export function reduceInto(
  red: Reduction,
  shape: readonly number[],
  axes: readonly number[],
  target: ReductionTarget,
  what: string,
): void {
  const backend = checkOperands(red, what);
  const keptAxes = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const nOut = sizeOf(pick(shape, keptAxes)), nRed = sizeOf(pick(shape, axes));
  if (nOut === 0) return;
  const strides = red.arrays.map((a) => broadcastStrides(a, shape, what));
  const kept = coalesce(pick(shape, keptAxes), [
    ...strides.map((s) => pick(s, keptAxes)),
    target.strides,
  ]);
  const reducedStrides = strides.map((s) => pick(s, axes));
  const reduced = red.indexed
    ? coalesceInOrder(pick(shape, axes), reducedStrides)
    : coalesce(pick(shape, axes), reducedStrides);
  const nk = kept.shape.length, nr = reduced.shape.length;
  const innerReduced = Math.abs(reduced.strides[0]![nr - 1]!),
    innerKept = Math.abs(kept.strides[0]![nk - 1]!);
  const row = nOut === 1 || (nRed >= 32 && (innerKept === 0 || innerReduced < innerKept));
  // Rows of up to 2048 elements take a warp each, longer ones a block each.
  const lanes = row ? (nRed <= 2048 ? 32 : BLOCK) : BLOCK / COLUMNS;
  const outputsPerBlock = row ? BLOCK / lanes : COLUMNS;
  const blocks = Math.ceil(nOut / outputsPerBlock);
  const want = Math.min(
    Math.ceil(TARGET_BLOCKS / blocks),
    Math.floor(nRed / (lanes * MIN_PER_THREAD)),
    MAX_SPLIT,
  );
  const chunk = Math.max(VEC, Math.ceil(Math.ceil(nRed / Math.max(1, want)) / VEC) * VEC);
  const split = Math.max(1, Math.ceil(nRed / chunk));
  const vector = row && nr === 1 && reduced.strides.some((s) => s[0] === 1) &&
    red.arrays.every((a, k) => {
      const step = reduced.strides[k]![0];
      return step === 0 ||
        (step === 1 && targetOf(backend.dialect).hasVector(a.dtype) && a.offset % VEC === 0 &&
          kept.strides[k]!.every((s, dim) => s % VEC === 0 || kept.shape[dim] === 1));
    });
  const reach = [...strides.map((s) => extent(shape, s)), extent(pick(shape, keptAxes), target.strides)];
  const narrow = nOut * nRed < NARROW && split * nOut < NARROW &&
    reach.every(([lo, hi]) => lo > -NARROW && hi < NARROW);
  const plan: ReductionPlan = {
    path: row ? "row" : "col",
    lanes,
    vector,
    kept: nk,
    reduced: nr,
    narrow,
    arrays: red.arrays.map((a, k) => ({ dtype: a.dtype, uniform: vector && reduced.strides[k]![0] === 0 })),
  };
  const dtypes = plan.arrays.map((a) => `${a.dtype}${a.uniform ? "0" : ""}`).join(",");
  const tail = `${narrow ? "n" : "w"}|${accDTypes(red.acc).join(",")}>${red.out}|${red.scalars.join(",")}`;
  const key = `${red.key}|${plan.path}${lanes}${vector ? "v" : ""}|${nk},${nr}|${dtypes}|${tail}`;
  const stage1 = backend.kernel(key, () => ({
    name: red.name ?? "cudeno_reduce",
    source: reductionSource(red, plan, backend.dialect),
  }));
  // The partial accumulators of a split reduction, in memory of their own for this call (on its stream).
  using partials = split === 1 ? undefined : new GPUArray(backend, split * nOut * accBytes(red.acc), "uint8");
  const keptExtents = kept.shape.slice(1);
  const args: unknown[] = [];
  red.arrays.forEach((a, k) => args.push(a.buffer, a.offset, ...kept.strides[k]!, ...reduced.strides[k]!));
  const tailArgs = [
    target.buffer,
    target.offset,
    ...kept.strides[red.arrays.length]!,
    partials?.buffer ?? target.buffer,
    ...red.values,
  ];
  args.push(...tailArgs, ...keptExtents, ...reduced.shape.slice(1), nOut, nRed, chunk);
  stage1.launch({ grid: [blocks, split], block: [BLOCK, 1] }, args);
  if (split === 1) return;
  const perBlock = split >= 32;
  const final = backend.kernel(`${red.key}|final${perBlock ? "b" : "t"}|${nk}|${tail}`, () => ({
    name: `${red.name ?? "cudeno_reduce"}_final`,
    source: finalSource(red, nk, narrow, perBlock, backend.dialect),
  }));
  final.launch(
    { grid: perBlock ? nOut : Math.ceil(nOut / BLOCK), block: BLOCK },
    [...tailArgs, ...keptExtents, nOut, nRed, split],
  );
}

/** A host value of one element of `dtype` held in `host`: bigint for 64-bit integers, else a number. */
function hostElement(host: ArrayLike<number | bigint>, dtype: DType): number | bigint {
  return dtype === "bfloat16" ? fromBfloat16Bits(host[0] as number) : host[0]!;
}

/**
 * Reduces along every axis and returns the result on the host: a bigint where it is a 64-bit
 * integer, else a number. `call` names the call where a host read is refused (inside a capture).
 */
export function reduceToHost(
  red: Reduction,
  shape: readonly number[],
  what: string,
  call = `${what}()`,
): number | bigint {
  const backend = checkOperands(red, what);
  backend.checkHostRead(call); // before anything is queued: inside a capture, nothing is recorded
  using result = new GPUArray(backend, [], red.out);
  reduceInto(red, shape, shape.map((_, i) => i), { buffer: result.buffer, offset: 0, strides: [] }, what);
  return hostElement(result.get(), red.out);
}

/**
 * Reduces along `axes` into `out` (checked: the result's shape and dtype) or a new array; the
 * result keeps the reduced axes with extent 1 where `keepdims` is set.
 *
 * @throws {RangeError} when `out` has the wrong shape or is a broadcast view.
 */
export function reduceArray(
  red: Reduction,
  shape: readonly number[],
  axes: readonly number[],
  keepdims: boolean,
  out: GPUArray | undefined,
  what: string,
): GPUArray {
  const resultShape = keepdims
    ? shape.map((d, i) => (axes.includes(i) ? 1 : d))
    : shape.filter((_, i) => !axes.includes(i));
  const result = outputFor(red.arrays[0]!, resultShape, red.out, out, what);
  const keptAxes = shape.map((_, i) => i).filter((i) => !axes.includes(i));
  const strides = keptStrides(result, keptAxes, keepdims);
  if (strides.some((s, j) => s === 0 && shape[keptAxes[j]!]! > 1)) {
    throw new RangeError(
      `Cannot ${what} into a broadcast view of shape ${
        showShape(result.shape)
      }: its elements overlap; pass a copy()`,
    );
  }
  if (red.arrays.some((a) => sharesMemory(a, result))) {
    using fresh = new GPUArray(result.backend, resultShape, red.out);
    const freshStrides = keptStrides(fresh, keptAxes, keepdims);
    reduceInto(red, shape, axes, { buffer: fresh.buffer, offset: 0, strides: freshStrides }, what);
    copyInto(result, fresh, what);
    return result;
  }
  reduceInto(red, shape, axes, { buffer: result.buffer, offset: result.offset, strides }, what);
  return result;
}

function keptStrides(a: GPUArray, keptAxes: readonly number[], keepdims: boolean): number[] {
  return keepdims ? pick(a.strides, keptAxes) : [...a.strides];
}
