/**
 * Scans: `cumsum` and `cumprod` along an axis of any layout (NumPy's dtype rules: integers narrower
 * than 64 bits accumulate in 64, so integer results are exact), and `diff`. One primitive,
 * {@link scanAlong}, plans every scan: a thread per row for short rows or many side-by-side rows; a
 * tile per block along rows otherwise — single-pass with a decoupled look-back on CUDA, three passes
 * (tile totals, their scan, the tiles) on OpenCL. Stream compaction (`compact.ts`) scans through it.
 *
 * @module
 */

import { record, refuseTrackedWrite } from "../grad/tape.ts";
import type { Backend } from "../../device/backend.ts";
import { type DType, DTYPES, isDType } from "../../kernel/dtype.ts";
import { sumType } from "./reduction_defs.ts";
import type { SumType } from "../api/reductions.ts";
import { GPUArray, sharesMemory, viewOf } from "../core/gpuarray.ts";
import { normalizeAxis, sizeOf } from "../core/layout.ts";
import { coalesceInOrder, copyInto } from "../exec/loop.ts";
import { fill } from "./assign.ts";
import { callOp, outputFor } from "./ufunc.ts";
import { BINARY } from "./binary_ops.ts";
import { moveaxis, ravel, reshape } from "./views.ts";
import { keptScratch } from "../../device/stream.ts";
import { targetOf } from "../../codegen/targets.ts";
import { SCAN_BLOCK, type ScanKernel, type ScanPlan, scanSource, tileSize } from "../exec/scan_source.ts";
import { type AfterAxis, AXIS, numberSlot, optionsOf } from "../core/axis_args.ts";

/** What a scan computes: the operation, the accumulator's and the output's dtypes, and what it scans. */
export interface ScanRequest {
  /** Sum or product. */
  readonly op: "sum" | "prod";
  /** The accumulator's dtype. */
  readonly acc: DType;
  /** The output's dtype. */
  readonly out: DType;
  /** The elements (converted to {@link out} first), or 1 for each non-zero element and 0 for each zero. */
  readonly map: "value" | "nonzero";
}

/** Rows this short are walked by a thread each. */
const SHORT_ROW = 16;
/** This many rows side by side (outputs adjacent) are walked by a thread each. */
const MANY_COLUMNS = 4096;

/** The input of a scan kernel: the array, its rows' kept axes (merged in C order), the row's stride and length. */
interface ScanInput {
  readonly array: GPUArray;
  readonly kept: { readonly shape: readonly number[]; readonly strides: readonly number[] };
  readonly stride: number;
  readonly n: number;
  readonly rows: number;
}

function inputArgs(x: ScanInput): unknown[] {
  const args: unknown[] = [x.array.buffer, x.array.offset];
  x.kept.shape.forEach((d, k) => args.push(d, x.kept.strides[k]!));
  args.push(x.stride);
  return args;
}

function planOf(x: ScanInput, req: ScanRequest, items: number): ScanPlan {
  return {
    op: req.op,
    input: x.array.dtype,
    acc: req.acc,
    out: req.out,
    map: req.map,
    kept: x.kept.shape.length,
    unit: x.stride === 1,
    items,
  };
}

function compiled(backend: Backend, kind: ScanKernel, plan: ScanPlan) {
  const key = `scan|${kind}|${plan.op}|${plan.map}|${plan.input}>${plan.acc}>${plan.out}|k${plan.kept}|${
    plan.unit ? "u" : "s"
  }|i${plan.items}`;
  return backend.kernel(key, () => scanSource(kind, plan, backend.dialect));
}

/**
 * The look-back's state: a zeroed buffer with room for `cap` tiles of `size`-byte totals, the tiles
 * numbered so far and the launch's epoch. 4-byte totals share a word with their status, 8-byte ones
 * come after the flags, so a state serves one size: read in the other layout, a total would pass for
 * a flag.
 */
class LookbackState {
  readonly array: GPUArray;
  readonly cap: number;
  issued = 0;
  epoch = 1;

  constructor(backend: Backend, size: number, tiles: number) {
    this.cap = Math.ceil(tiles / 1024) * 1024;
    this.array = fill(new GPUArray(backend, 8 + (size === 4 ? 8 : 20) * this.cap, "uint8"), 0);
  }

  free(): void {
    this.array.free();
  }
}

/**
 * The look-back state for a launch of `tiles` tiles of `acc` totals, kept per stream (`keptScratch`:
 * scans on two streams at once would number each other's tiles), its epoch advanced (see
 * `scan_source.ts`); undefined while the stream is capturing, where each scan zeroes a state of its own
 * in the graph, since a replay cannot advance the tile count and epoch the host passes.
 */
function lookbackState(backend: Backend, acc: DType, tiles: number): LookbackState | undefined {
  const kept = keptScratch(backend);
  if (kept === undefined) return undefined;
  const size = DTYPES[acc].size, role = `lookback:${size}`;
  let state = kept.get(role) as LookbackState | undefined;
  if (state === undefined || state.array.freed || state.cap < tiles) {
    state?.free();
    state = new LookbackState(backend, size, tiles);
    kept.set(role, state);
  } else if (++state.epoch >= 2 ** 30) {
    fill(state.array, 0);
    state.issued = 0;
    state.epoch = 1;
  }
  return state;
}

/**
 * Items per thread of a tile: 2 for rows of up to 512 elements, 8 for 64-bit accumulators, else 16, or
 * 32 for the look-back over rows of 2^16 elements or more: fewer, larger tiles (2^28 float32 on the
 * H200, two blocks an SM: 2030 GB/s with 16, 2150 with 32; 24 and 28 measured slower).
 */
function itemsFor(n: number, acc: DType, lookback: boolean): number {
  if (n <= 2 * SCAN_BLOCK) return 2;
  if (DTYPES[acc].size === 8) return 8;
  return lookback && n >= 2 ** 16 ? 32 : 16;
}

/** Scans each row with a tile per block: one pass with a look-back on CUDA, three passes on OpenCL. */
function scanRows(x: ScanInput, req: ScanRequest, out: GPUArray, what: string): void {
  const backend = out.backend;
  const plan = planOf(x, req, itemsFor(x.n, req.acc, targetOf(backend.dialect).decoupledLookback));
  const perRow = Math.ceil(x.n / tileSize(plan));
  const tiles = x.rows * perRow;
  const config = { grid: tiles, block: SCAN_BLOCK };
  if (targetOf(backend.dialect).decoupledLookback) {
    const kept = lookbackState(backend, req.acc, tiles);
    const state = kept ?? new LookbackState(backend, DTYPES[req.acc].size, tiles);
    compiled(backend, "lookback", plan).launch(config, [
      ...inputArgs(x),
      out.buffer,
      x.n,
      perRow,
      state.array.buffer,
      state.cap,
      state.issued,
      state.epoch,
    ]);
    if (kept === undefined) state.free(); // in the graph: a free node after the scan
    else state.issued += tiles;
    return;
  }
  const tail = [out.buffer, x.n, perRow];
  if (perRow === 1) {
    // One tile a row: no carry (the carry pointer is never read).
    compiled(backend, "tiles", plan).launch(config, [...inputArgs(x), ...tail, out.buffer]);
    return;
  }
  using partial = new GPUArray(backend, [x.rows, perRow], req.acc);
  compiled(backend, "reduce", plan).launch(config, [...inputArgs(x), x.n, perRow, partial.buffer]);
  using carried = scanAlong(partial, 1, { op: req.op, acc: req.acc, out: req.acc, map: "value" }, what);
  compiled(backend, "tiles", plan).launch(config, [...inputArgs(x), ...tail, carried.buffer]);
}

/** Scans each row with a thread, which walks it (its outputs `inner` apart). */
function scanColumns(x: ScanInput, req: ScanRequest, out: GPUArray, inner: number): void {
  const grid = Math.ceil(x.rows / SCAN_BLOCK);
  compiled(out.backend, "columns", planOf(x, req, 1)).launch({ grid, block: SCAN_BLOCK }, [
    ...inputArgs(x),
    out.buffer,
    x.n,
    x.rows,
    inner,
  ]);
}

/**
 * The inclusive scan of `a` along `axis` (any layout; the axis already checked), into `into` (checked
 * to have `a`'s shape and `req.out`'s dtype; any layout) or a new C-contiguous array.
 *
 * @throws {TypeError} when the device lacks the accumulator's or the output's dtype.
 */
export function scanAlong(
  a: GPUArray,
  axis: number,
  req: ScanRequest,
  what: string,
  into?: GPUArray,
): GPUArray {
  const backend = a.backend;
  for (const d of [req.acc, req.out]) {
    if (!backend.supports(d)) {
      throw new TypeError(
        `Cannot ${what} on ${backend.device}: it needs ${d} arithmetic, which the device lacks`,
      );
    }
  }
  const out = outputFor(a, a.shape, req.out, into, what);
  if (a.size === 0) return out;
  // The kernels write C-contiguous rows from the buffer's start, and read each element before
  // writing its place: anything else goes through a new array.
  if (!(out.isContiguous && out.offset === 0) || (into !== undefined && sharesMemory(into, a))) {
    using flat = scanAlong(a, axis, req, what);
    copyInto(out, flat, what);
    return out;
  }
  const n = a.shape[axis]!, rows = a.size / n, inner = sizeOf(a.shape.slice(axis + 1));
  const keptShape = a.shape.filter((_, d) => d !== axis);
  const merged = coalesceInOrder(keptShape, [a.strides.filter((_, d) => d !== axis)]);
  const x: ScanInput = {
    array: a,
    kept: rows === 1 ? { shape: [], strides: [] } : { shape: merged.shape, strides: merged.strides[0]! },
    stride: a.strides[axis]!,
    n,
    rows,
  };
  if (n <= SHORT_ROW || (inner > 1 && rows >= MANY_COLUMNS)) {
    scanColumns(x, req, out, inner);
  } else if (inner === 1) {
    scanRows(x, req, out, what);
  } else {
    // Few long rows whose outputs interleave: scan them as rows of a copy with the axis last.
    using last = moveaxis(a, axis, -1);
    using scanned = scanAlong(last, a.ndim - 1, req, what);
    using back = moveaxis(scanned, -1, axis);
    copyInto(out, back, what);
  }
  return out;
}

/**
 * Options of {@link cumsum} and {@link cumprod}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.ScanOptions = { axis: 1, dtype: "float64" };
 * ```
 */
export interface ScanOptions {
  /**
   * The axis to accumulate along (also given by position: `ga.cumsum(a, 1)`); none: over the
   * flattened array (C order), giving a 1-D result.
   * Default: the flattened array.
   */
  readonly axis?: number;
  /** The result's dtype (the elements are converted to it first); by default NumPy's, {@link SumType}. */
  readonly dtype?: DType;
  /** Write the result here (the result's shape and dtype, which {@link dtype} sets; any layout) instead of into a new array. Default: a new array. */
  readonly out?: GPUArray;
}

/** The dtype a scan into `out` accumulates in: float32 for 16-bit floats, 32 bits for narrower integers. */
function accumulatorOf(out: DType): DType {
  if (out === "float16" || out === "bfloat16") return "float32";
  const { kind, size } = DTYPES[out];
  if (size >= 4 && kind !== "bool") return out;
  return kind === "uint" ? "uint32" : "int32";
}

function accumulate(op: "sum" | "prod", a: GPUArray, args: readonly unknown[], what: string): GPUArray {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot ${what} ${typeof a}: pass a GPUArray`);
  const options = optionsOf<ScanOptions>(what, args, [AXIS], ["axis", "dtype", "out"], "{ axis: 0 }");
  const out = options.dtype ?? sumType(a.dtype);
  if (!isDType(out)) throw new TypeError(`Cannot ${what} into dtype "${out}": use a dtype cudeno knows`);
  let x: GPUArray, axis: number;
  if (options.axis === undefined) {
    x = ravel(a);
    axis = 0;
  } else {
    x = a.ndim === 0 ? reshape(a, [1]) : a;
    axis = normalizeAxis(options.axis, x.ndim, what);
  }
  if (options.out !== undefined) refuseTrackedWrite(`${what} into out`, options.out, [a]);
  try {
    const y = scanAlong(x, axis, { op, acc: accumulatorOf(out), out, map: "value" }, what, options.out);
    // The gradient of a running sum is the running sum of the gradient from the other end.
    const reversedSum = (g: GPUArray) => g.flip(axis).cumsum(axis).flip(axis);
    record(what, [x], y, op === "sum" ? (g) => [reversedSum(g)] : (g) => [reversedSum(g.mul(y)).div(x)]);
    return y;
  } finally {
    if (x !== a) x.free();
  }
}

/**
 * The cumulative sum along `axis` (NumPy's `cumsum`): over the flattened array when no axis is given.
 * Integers and bools accumulate in 64 bits (int64, or uint64 for unsigned integers), exactly; floats
 * in their own dtype (float16 and bfloat16 in float32, rounded once at the end). On CUDA a row is
 * one pass over memory (a decoupled look-back scan).
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2, 3], [4, 5, 6]], "int32");
 * console.log(ga.cumsum(x).get()); // BigInt64Array [1n, 3n, 6n, 10n, 15n, 21n]
 * console.log(ga.cumsum(x, 0).get()); // [1n, 2n, 3n, 5n, 7n, 9n]; also ga.cumsum(x, { axis: 0 }), x.cumsum(0)
 * const f = ga.cumsum(x, 1, { dtype: "float64" }); // options may follow the axis
 * ```
 */
export function cumsum<D extends DType>(a: GPUArray<D>, options?: ScanOptions): GPUArray<SumType<D>>;
/** `cumsum` along an axis given by position (`cumsum(a, 1)`, `cumsum(a, 1, { out })`). */
export function cumsum<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<ScanOptions>,
): GPUArray<SumType<D>>;
export function cumsum(a: GPUArray, ...args: unknown[]): GPUArray {
  return accumulate("sum", a, args, "cumsum");
}

/**
 * The cumulative product along `axis` (NumPy's `cumprod`), with {@link cumsum}'s dtype rules
 * (integer products wrap at 64 bits, as NumPy's do).
 *
 * @throws {RangeError} for an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.cumprod(ga.asarray([1, 2, 3, 4])).get()); // Float32Array [1, 2, 6, 24]
 * const rows = ga.cumprod(ga.ones([2, 3]), 1); // along axis 1; also { axis: 1 }
 * ```
 */
export function cumprod<D extends DType>(a: GPUArray<D>, options?: ScanOptions): GPUArray<SumType<D>>;
/** `cumprod` along an axis given by position (`cumprod(a, 1)`, `cumprod(a, 1, { out })`). */
export function cumprod<D extends DType>(
  a: GPUArray<D>,
  axis: number,
  options?: AfterAxis<ScanOptions>,
): GPUArray<SumType<D>>;
export function cumprod(a: GPUArray, ...args: unknown[]): GPUArray {
  return accumulate("prod", a, args, "cumprod");
}

/**
 * Options of {@link diff}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.DiffOptions = { n: 2, axis: 0 };
 * ```
 */
export interface DiffOptions {
  /** How many times to take differences (also NumPy's first positional: `ga.diff(a, 2)`). Default 1. */
  readonly n?: number;
  /** The axis (also NumPy's second positional: `ga.diff(a, 1, 0)`). Default -1, the last. */
  readonly axis?: number;
}

/**
 * The `n`-th differences along `axis` (NumPy's `diff`): `a[1:] - a[:-1]`, `n` times; the axis
 * shrinks by `n` (to 0 at least). Bools give whether neighbours differ. `n = 0` gives a view of `a`.
 *
 * @throws {RangeError} for a 0-d array, a negative `n` or an axis out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.diff(ga.asarray([1, 4, 9, 16])).get()); // Float32Array [3, 5, 7]
 * console.log(ga.diff(ga.asarray([1, 4, 9, 16]), { n: 2 }).get()); // Float32Array [2, 2]; also diff(a, 2)
 * const down = ga.diff(ga.ones([3, 2]), 1, 0); // NumPy's diff(a, n, axis): along axis 0
 * ```
 */
export function diff<D extends DType>(a: GPUArray<D>, options?: DiffOptions): GPUArray<D>;
/** `diff(a, n, axis)` with NumPy's positions: `n` first, then the axis. */
export function diff<D extends DType>(a: GPUArray<D>, n?: number, axis?: number): GPUArray<D>;
export function diff<D extends DType>(a: GPUArray<D>, ...args: unknown[]): GPUArray<D> {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot diff ${typeof a}: pass a GPUArray`);
  const options = optionsOf<DiffOptions>(
    "diff",
    args,
    [numberSlot("n"), AXIS],
    ["n", "axis"],
    "{ n: 2, axis: 0 }",
  );
  if (a.ndim === 0) throw new RangeError("Cannot diff a 0-d array: it needs at least one dimension");
  const n = options.n ?? 1;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`Cannot diff with n = ${n}: n counts differences, so it must be an integer >= 0`);
  }
  const axis = normalizeAxis(options.axis ?? -1, a.ndim, "diff");
  if (n === 0) return viewOf(a, a);
  const extent = Math.max(0, a.shape[axis]! - n);
  if (extent === 0) {
    return new GPUArray(a.backend, a.shape.map((d, i) => (i === axis ? 0 : d)), a.dtype);
  }
  let current: GPUArray = a;
  for (let k = 0; k < n; k++) {
    const shape = current.shape.map((d, i) => (i === axis ? d - 1 : d));
    const step = current.strides[axis]!;
    using lo = viewOf(current, { shape, strides: current.strides, offset: current.offset });
    using hi = viewOf(current, { shape, strides: current.strides, offset: current.offset + step });
    const next = callOp(a.dtype === "bool" ? BINARY.ne : BINARY.sub, [hi, lo], undefined, "diff");
    if (current !== a) current.free();
    current = next;
  }
  return current as GPUArray<D>;
}
