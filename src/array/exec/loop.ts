/**
 * The one elementwise kernel generator: every elementwise operation, broadcast, copy of a view,
 * `ElementwiseKernel` and fused function runs as a loop over a shape, whose operands are arrays of
 * any layout (broadcast to the shape) and scalars. The loop coalesces the operands' dimensions
 * (TensorIterator's trick: most strided work becomes one or two axes), picks the flat, vector, tile
 * or strided walk (`loop_source.ts`) and 32- or 64-bit index math, and compiles one kernel per
 * (work, dtypes, walk, rank): shapes and strides are arguments, so one kernel serves every shape.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import { castTo, computeType, convert, load } from "../../codegen/c.ts";
import { complexPrefix } from "../../codegen/complex.ts";
import { targetOf } from "../../codegen/targets.ts";
import { GPUArray, sharesMemory, viewOf } from "../core/gpuarray.ts";
import { broadcastStrides, coalesce, showShape, sizeOf } from "../core/layout.ts";
import { BLOCK, ELEMS, type LoopPath, type LoopPlan, loopSource, TILE, TILE_ROWS } from "./loop_source.ts";

/** Work done for every element of a shape. */
export interface Loop {
  /** Names the work: every part of the source other than the operands' dtypes and layouts. */
  readonly key: string;
  /** The kernel's name (default `cudeno_loop_<walk>`; the walk is appended); part of {@link key}. */
  readonly name?: string;
  /** The arrays, each broadcast to the loop's shape. */
  readonly arrays: readonly GPUArray[];
  /** Which of {@link arrays} the loop writes (they may not be broadcast views). */
  readonly written: readonly boolean[];
  /** Scalar parameters, passed as values of their dtype. */
  readonly scalars: readonly { readonly value: number | bigint; readonly dtype: DType }[];
  /**
   * Arrays passed whole, as pointers to their first element (C-contiguous ones, or any layout the
   * statement indexes itself): the statement reaches them as `pointer[k]`, at any element it computes
   * (a gather or a scatter). The loop does not broadcast them or check their overlap with other operands.
   */
  readonly pointers?: readonly { readonly array: GPUArray; readonly written: boolean }[];
  /**
   * C statements for one element: `ref[k]` is array k's element, `scalar[j]` scalar j, `index` the
   * C-order index, `pointer[k]` pointer k. In a loop that is not {@link pure}, `ref[k]` is the element in
   * memory, so `(&ref[k])[d]` is the element `d` places further along the buffer.
   */
  readonly statement: LoopPlan["statement"];
  /** C code placed before the kernel (helper functions); fixed by {@link key}. */
  readonly helpers?: string;
  /**
   * The statement writes the last array from the others and uses no index, so the loop may walk the
   * elements in any order, with vector loads or through a transpose tile.
   */
  readonly pure?: boolean;
}

const NARROW = 2 ** 31;

function fitsNarrow(n: number, shape: readonly number[], strides: readonly (readonly number[])[]): boolean {
  if (n >= NARROW) return false;
  for (const s of strides) {
    // The lowest and highest offsets the operand reaches (its extent), kept within int.
    let lo = 0, hi = 0;
    for (let d = 0; d < shape.length; d++) {
      const reach = (shape[d]! - 1) * s[d]!;
      if (reach < 0) lo += reach;
      else hi += reach;
    }
    if (lo <= -NARROW || hi >= NARROW) return false;
  }
  return true;
}

const dividers = new Map<number, [number, number]>();

/** PyTorch's `IntDivider`: `magic` and `shift` such that n / d is `(umulhi(n, magic) + n) >> shift` for n < 2^31. */
function divider(d: number): [number, number] {
  const known = dividers.get(d);
  if (known !== undefined) return known;
  let shift = 0;
  while (2 ** shift < d) shift++;
  const magic = ((1n << 32n) * ((1n << BigInt(shift)) - BigInt(d))) / BigInt(d) + 1n;
  const made: [number, number] = [Number(magic), shift];
  if (dividers.size < 4096) dividers.set(d, made);
  return made;
}

function choosePath(
  loop: Loop,
  shape: readonly number[],
  strides: readonly (readonly number[])[],
  offsets: readonly number[],
): LoopPath {
  const written = loop.written;
  if (shape.length === 1) {
    let flat = true, vector = targetOf(loop.arrays[0]!.backend.dialect).vectorLoads && loop.pure === true;
    let writes = 0;
    for (let k = 0; k < strides.length; k++) {
      const s = strides[k]![0]!;
      if (s !== 0 && s !== 1) flat = false;
      if ((s === 1 || written[k]) && offsets[k]! % ELEMS !== 0) vector = false;
      if (written[k]) {
        writes++;
        if (s !== 1) vector = false;
      }
    }
    if (flat) return vector && writes === 1 ? "vector" : "flat";
  }
  if (
    loop.pure === true && loop.arrays.length === 2 && written[1] === true && shape.length === 2 &&
    strides[0]![0] === 1 && strides[1]![1] === 1 && strides[0]![1] !== 0 &&
    Math.ceil(shape[1]! / TILE) < 65536
  ) return "tile";
  return "strided";
}

function checkBackend(backend: GPUArray["backend"], a: GPUArray, what: string): void {
  if (a.backend !== backend) {
    throw new TypeError(
      `Cannot ${what} arrays on ${backend.device} and ${a.backend.device}: copy one to the other's backend first`,
    );
  }
}

const NO_POINTERS: NonNullable<Loop["pointers"]> = [];

/**
 * Runs `loop` over `shape`: reads and writes every element once, in one kernel.
 *
 * @throws {RangeError} naming the shapes when an array does not broadcast to `shape`, or a written
 * array is a broadcast view.
 */
export function runLoop(loop: Loop, shape: readonly number[], what: string): void {
  const backend = loop.arrays[0]!.backend;
  const pointers = loop.pointers ?? NO_POINTERS;
  const arrays = loop.arrays.slice(), written = loop.written, count = arrays.length;
  for (const a of arrays) checkBackend(backend, a, what);
  for (const p of pointers) checkBackend(backend, p.array, what);
  const strides: number[][] = [];
  for (const a of arrays) strides.push(broadcastStrides(a, shape, what));
  for (let k = 0; k < count; k++) {
    if (written[k] && strides[k]!.some((s, d) => s === 0 && shape[d]! > 1)) {
      throw new RangeError(
        `Cannot ${what} into a broadcast view of shape ${
          showShape(arrays[k]!.shape)
        }: its elements overlap; write into a copy() of it`,
      );
    }
  }
  // An input that shares memory with a written array in another layout is read from a copy first,
  // so no element is overwritten before it is read (NumPy does the same).
  for (let k = 0; k < count; k++) {
    if (written[k]) continue;
    const a = arrays[k]!;
    for (let j = 0; j < count; j++) {
      if (!written[j] || arrays[k] !== a || !sharesMemory(a, arrays[j]!)) continue;
      const same = a.offset === arrays[j]!.offset && strides[k]!.every((s, d) => s === strides[j]![d]);
      if (!same) {
        arrays[k] = copyOf(a);
        strides[k] = broadcastStrides(arrays[k]!, shape, what);
      }
    }
  }
  const n = sizeOf(shape);
  if (n === 0) return;
  const merged = loop.pure === true
    ? coalesce(shape, strides, written.indexOf(true))
    : coalesceInOrder(shape, strides);
  const offsets: number[] = [];
  for (const a of arrays) offsets.push(a.offset);
  const path = choosePath(loop, merged.shape, merged.strides, offsets);
  const narrow = path === "flat" ? n < NARROW : fitsNarrow(n, merged.shape, merged.strides);
  const ndim = path === "flat" || path === "vector" ? 1 : merged.shape.length;
  const uniform = merged.strides.map((s) => ndim === 1 && s[s.length - 1] === 0);
  // The kernel's key, built by concatenation: a launch comes here, and this is most of its string work.
  let key = `${loop.key}|${path}${ndim}${narrow ? "n" : "w"}|`;
  for (let k = 0; k < count; k++) {
    key += `${k === 0 ? "" : ","}${arrays[k]!.dtype}${written[k] ? "!" : ""}${uniform[k] ? "0" : ""}`;
  }
  key += "|";
  for (let j = 0; j < loop.scalars.length; j++) key += `${j === 0 ? "" : ","}${loop.scalars[j]!.dtype}`;
  key += "|";
  for (let j = 0; j < pointers.length; j++) {
    key += `${j === 0 ? "" : ","}${pointers[j]!.array.dtype}${pointers[j]!.written ? "!" : ""}`;
  }
  const kernel = backend.kernel(key, () => {
    const plan: LoopPlan = {
      name: `${loop.name ?? "cudeno_loop"}_${path}`,
      path,
      ndim,
      narrow,
      arrays: arrays.map((a, k) => ({ dtype: a.dtype, written: written[k]! })),
      pointers: pointers.map((p) => ({ dtype: p.array.dtype, written: p.written })),
      uniform,
      scalars: loop.scalars.map((s) => s.dtype),
      helpers: loop.helpers ?? "",
      statement: loop.statement,
    };
    return { name: plan.name, source: loopSource(plan, backend.dialect) };
  });
  const indexed = path === "strided" || path === "tile";
  const args: unknown[] = [];
  for (let k = 0; k < count; k++) {
    args.push(arrays[k]!.buffer, offsets[k]);
    if (indexed) { for (const s of merged.strides[k]!) args.push(s); }
  }
  for (const p of pointers) args.push(p.array.buffer, p.array.offset);
  for (const s of loop.scalars) args.push(s.value);
  if (indexed) {
    for (const d of merged.shape) args.push(d);
    if (path === "strided" && narrow) {
      for (let d = 1; d < ndim; d++) {
        const [magic, shift] = divider(merged.shape[d]!);
        args.push(magic, shift);
      }
    }
  }
  args.push(n);
  if (path === "tile") {
    const grid = [Math.ceil(merged.shape[0]! / TILE), Math.ceil(merged.shape[1]! / TILE)];
    kernel.launch({ grid, block: [TILE, TILE_ROWS] }, args);
  } else {
    const perBlock = path === "vector" ? BLOCK * ELEMS * 2 : BLOCK * ELEMS;
    kernel.launch({ grid: Math.ceil(n / perBlock), block: BLOCK }, args);
  }
}

/** Merges neighbouring axes where every operand allows it, keeping C order (so the linear index is NumPy's). */
export function coalesceInOrder(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
): { shape: number[]; strides: number[][] } {
  // coalesce() keeps the order of axes whose first operand strides already descend; give it a
  // first operand that strides C-order over the shape, then drop it.
  const order: number[] = [];
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    order[d] = s;
    s *= Math.max(1, shape[d]!);
  }
  const merged = coalesce(shape, [order, ...strides]);
  return { shape: merged.shape, strides: merged.strides.slice(1) };
}

/** A C-contiguous copy of `a` (its own memory, same shape and dtype). */
export function copyOf<D extends DType>(a: GPUArray<D>): GPUArray<D> {
  const out = new GPUArray(a.backend, a.shape, a.dtype);
  copyInto(out, a, "copy");
  return out;
}

/**
 * Copies `src` (broadcasting) into `dst`, converting to its dtype. Contiguous runs of separate
 * memory use the device's copy; overlapping ones go through the loop, which reads from a copy.
 */
export function copyInto(dst: GPUArray, src: GPUArray, what: string): void {
  const sameRun = src.dtype === dst.dtype && src.isContiguous && dst.isContiguous &&
    src.shape.length === dst.shape.length && src.shape.every((d, i) => d === dst.shape[i]);
  if (sameRun && sharesMemory(src, dst) && src.offset === dst.offset) return;
  if (sameRun && !sharesMemory(src, dst)) {
    if (dst.size > 0) {
      dst.backend.copy(
        dst.buffer,
        dst.offset * dst.itemsize,
        src.buffer,
        src.offset * src.itemsize,
        dst.nbytes,
      );
    }
    return;
  }
  runLoop(castLoop(src, dst), dst.shape, what);
}

/** The loop that writes `src` converted to `dst`'s dtype into `dst`. */
function castLoop(src: GPUArray, dst: GPUArray): Loop {
  return {
    key: "cast",
    arrays: [src, dst],
    written: [false, true],
    scalars: [],
    statement: castStatement(src.dtype, dst.dtype, src.backend.dialect),
    pure: true,
  };
}

function castStatement(from: DType, to: DType, dialect: Dialect): LoopPlan["statement"] {
  const value = (x: string) => {
    const read = load(x, from, dialect);
    // A complex number is true where either part is non-zero.
    if (to === "bool" && DTYPES[from].kind === "complex") return `${complexPrefix(from)}nz(${read})`;
    return convert(read, computeType(from), computeType(to), dialect);
  };
  return ([x, y]) => `${y} = ${castTo(value(x!), to, dialect)};`;
}

/**
 * Writes `values` into `into` (C-contiguous) from element `at` on, with one small kernel (queued,
 * like the work that reads them, so it costs the host a launch and no wait, and a CUDA graph replayed
 * after it reads them): an optimizer's scalars, a random draw's counter before each replay.
 */
export function writeValues(into: GPUArray, at: number, values: readonly (number | bigint)[]): void {
  const dtype = into.dtype, n = values.length;
  using part = at === 0 && into.size === n
    ? undefined
    : viewOf(into, { shape: [n], strides: [1], offset: into.offset + at });
  runLoop(
    {
      key: `step-values:${n}`,
      name: "cudeno_step_values",
      arrays: [part ?? into],
      written: [true],
      scalars: values.map((value) => ({ value, dtype })),
      statement: (ref, scalar, index) => {
        let pick = scalar[n - 1]!;
        for (let k = n - 2; k >= 0; k--) pick = `(${index} == ${k} ? ${scalar[k]} : ${pick})`;
        return `${ref[0]} = ${pick};`;
      },
    },
    [n],
    "write the scalars of a step",
  );
}
