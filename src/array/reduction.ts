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

import type { DType } from "../kernel/dtype.ts";
import { fromBfloat16Bits } from "../kernel/bfloat16.ts";
import type { Backend, BackendBuffer } from "./backend.ts";
import { GPUArray, sharesMemory } from "./gpuarray.ts";
import { broadcastStrides, coalesce, extent, showShape, sizeOf } from "./layout.ts";
import { coalesceInOrder, copyInto } from "./loop.ts";
import { outputFor } from "./ufunc.ts";
import {
  accBytes,
  accDTypes,
  BLOCK,
  COLUMNS,
  finalSource,
  type ReductionCode,
  type ReductionPlan,
  reductionSource,
} from "./reduction_source.ts";
import { hasVectors, VEC } from "./vector_source.ts";

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
/**
 * A split of the vector column path gives each thread at least this many elements (32 vector loads
 * of 4). Its blocks cover 128 outputs, so few of them span the outputs (8192² float32 along axis 0:
 * 64) and the split makes up the rest. At 64 elements a thread that would be 64 ways (4096 blocks),
 * and the second kernel, a thread per output, would fold 64 partials each in sequence: a latency-bound
 * tail of several microseconds beside the first kernel's ~80. At 128 it is 32 ways: 2048 blocks, two
 * to three waves of an H200 (132 SMs × 6 to 8 blocks), 32 rows of 4 outputs a thread, and a fold of
 * 32 partials.
 */
const MIN_PER_VECTOR_COLUMN = 128;
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
 * Whether {@link VEC}-element vector loads can read the operands along one axis: operand k steps
 * `along(k)` (0 or 1) on it, and those stepping 1 have vector types, an aligned offset, and
 * `others(k)`, their strides on the other axes of `shape`, in whole vectors (or on an extent of 1).
 */
function vectorAlong(
  arrays: readonly GPUArray[],
  backend: Backend,
  along: (k: number) => number,
  others: (k: number) => readonly number[],
  shape: readonly number[],
): boolean {
  return arrays.some((_, k) => along(k) === 1) &&
    arrays.every((a, k) =>
      along(k) === 0 || (along(k) === 1 && hasVectors(a.dtype, backend.dialect) && a.offset % VEC === 0 &&
        others(k).every((s, dim) => s % VEC === 0 || shape[dim] === 1))
    );
}

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
  // Row path: vector loads along the one reduced axis. Column path: along the innermost kept axis,
  // whose extent must be whole vectors (a thread's outputs then share every other index).
  const vector = row
    ? nr === 1 &&
      vectorAlong(red.arrays, backend, (k) => reduced.strides[k]![0]!, (k) => kept.strides[k]!, kept.shape)
    : kept.shape[nk - 1]! % VEC === 0 && vectorAlong(
      red.arrays,
      backend,
      (k) => kept.strides[k]![nk - 1]!,
      (k) => [...kept.strides[k]!.slice(0, -1), ...reduced.strides[k]!],
      [...kept.shape.slice(0, -1), ...reduced.shape],
    );
  // Rows of up to 2048 elements take a warp each, longer ones a block each.
  const lanes = row ? (nRed <= 2048 ? 32 : BLOCK) : BLOCK / COLUMNS;
  const outputsPerBlock = row ? BLOCK / lanes : COLUMNS * (vector ? VEC : 1);
  const blocks = Math.ceil(nOut / outputsPerBlock);
  const perThread = row || !vector ? MIN_PER_THREAD : MIN_PER_VECTOR_COLUMN / VEC;
  const want = Math.min(Math.ceil(TARGET_BLOCKS / blocks), Math.floor(nRed / (lanes * perThread)), MAX_SPLIT);
  const chunk = Math.max(VEC, Math.ceil(Math.ceil(nRed / Math.max(1, want)) / VEC) * VEC);
  const split = Math.max(1, Math.ceil(nRed / chunk));
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
    arrays: red.arrays.map((a, k) => ({
      dtype: a.dtype,
      uniform: vector && (row ? reduced.strides[k]![0] : kept.strides[k]![nk - 1]) === 0,
    })),
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
  // A block per output where the outputs are few; a thread per output where they fill 32 blocks (a
  // split is then at most TARGET_BLOCKS × 128 / 8192 = 64 ways).
  const perBlock = split >= 32 && nOut < 32 * BLOCK;
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
