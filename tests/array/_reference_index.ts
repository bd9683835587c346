/**
 * The host reference's indexing (`take`, `put`, `compress`, `mask`, `nonzero`, `argwhere`), joining
 * and repeating (`concatenate`, `stack`, `split`, `arraySplit`, `repeat`, `tile`, `pad`) and
 * creation functions, with NumPy's semantics and array-api.md's defaults (float32 everywhere).
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { fromFn, fromValues, promote, Ref } from "./_reference.ts";
import { cast, checkFits, kind, type Scalar, type Value } from "./_reference_dtype.ts";
import { axisOf, indices } from "./_reference_shape.ts";

const truthy = (v: Value) => v !== 0 && v !== 0n;

/** An index into an axis of `n`, negative from the end; out of range: RangeError. */
function indexInto(i: Value, n: number, what: string): number {
  const k = Number(i);
  if (k < -n || k >= n) throw new RangeError(`Cannot ${what}: index ${k} is out of range for ${n} elements`);
  return k < 0 ? k + n : k;
}

function checkIntegers(x: Ref, what: string): void {
  if (kind(x.dtype) !== "int" && kind(x.dtype) !== "uint") {
    throw new TypeError(`Cannot ${what} with ${x.dtype} indices`);
  }
}

/** Elements of `a` at `indices` along `axis` (no axis: of the flattened array). */
export function take(a: Ref, idx: Ref, axis?: number): Ref {
  checkIntegers(idx, "take");
  if (axis === undefined) return take(a.ravel(), idx, 0);
  const ax = axisOf(axis, a.ndim, "take");
  for (const i of idx.values()) indexInto(i, a.shape[ax]!, "take"); // checked even when the result is empty
  const shape = [...a.shape.slice(0, ax), ...idx.shape, ...a.shape.slice(ax + 1)];
  return fromFn(a.dtype, shape, (i) => {
    const k = indexInto(idx.get(i.slice(ax, ax + idx.ndim)), a.shape[ax]!, "take");
    return a.get([...i.slice(0, ax), k, ...i.slice(ax + idx.ndim)]);
  });
}

/** Writes `values` (repeated as needed) at the flat `indices` of `a`, in place. */
export function put(a: Ref, idx: Ref, values: Ref | Scalar): void {
  checkIntegers(idx, "put");
  const flat = indices(a.shape), v = values instanceof Ref ? values.values() : [values];
  if (v.length === 0 && idx.size > 0) throw new RangeError("Cannot put: no values given");
  const targets = idx.values().map((i) => flat[indexInto(i, a.size, "put")]!);
  targets.forEach((t, k) => (a.data[a.at(t)] = cast(v[k % v.length]!, a.dtype)));
}

/** The slices of `a` along `axis` where `cond` is true (no axis: elements of the flattened array). */
export function compress(cond: Ref, a: Ref, axis?: number): Ref {
  if (axis === undefined) return compress(cond, a.ravel(), 0);
  const ax = axisOf(axis, a.ndim, "compress");
  const c = cond.values();
  if (c.length > a.shape[ax]! && c.slice(a.shape[ax]).some(truthy)) {
    throw new RangeError(`Cannot compress: the condition is longer than the axis of ${a.shape[ax]}`);
  }
  const picked = [...Array(Math.min(c.length, a.shape[ax]!)).keys()].filter((k) => truthy(c[k]!));
  const shape = [...a.shape];
  shape[ax] = picked.length;
  return fromFn(a.dtype, shape, (i) => a.get(i.map((v, k) => (k === ax ? picked[v]! : v))));
}

/** NumPy's `a[m]` for a bool mask covering the leading axes of `a`: the selected sub-arrays, flattened. */
export function mask(a: Ref, m: Ref): Ref {
  if (m.dtype !== "bool") throw new TypeError(`Cannot mask with a ${m.dtype} array: pass a bool array`);
  if (m.ndim > a.ndim || m.shape.some((d, k) => d !== a.shape[k])) {
    throw new RangeError(
      `Cannot mask an array of shape [${a.shape.join(", ")}] with [${m.shape.join(", ")}]`,
    );
  }
  const hits = indices(m.shape).filter((i) => m.get(i) === 1);
  const rest = a.shape.slice(m.ndim);
  return fromFn(a.dtype, [hits.length, ...rest], (i) => a.get([...hits[i[0]!]!, ...i.slice(1)]));
}

/** The indices of the non-zero elements, one int64 array per axis. */
export function nonzero(a: Ref): Ref[] {
  if (a.ndim === 0) throw new RangeError("Cannot take nonzero() of a 0-d array: use atleast1d first");
  const hits = indices(a.shape).filter((i) => truthy(a.get(i)));
  return a.shape.map((_, k) => fromValues("int64", [hits.length], hits.map((i) => i[k]!)));
}

/** The indices of the non-zero elements as an int64 array of shape [N, ndim]. */
export function argwhere(a: Ref): Ref {
  const hits = indices(a.shape).filter((i) => truthy(a.get(i)));
  return fromValues("int64", [hits.length, a.ndim], hits.flat());
}

/** Joins arrays along an existing axis (null: flattened); the dtype is their promotion. */
export function concatenate(arrays: readonly Ref[], axis: number | null = 0): Ref {
  if (arrays.length === 0) throw new RangeError("Cannot concatenate no arrays");
  if (axis === null) return concatenate(arrays.map((x) => x.ravel()), 0);
  const first = arrays[0]!, ax = axisOf(axis, first.ndim, "concatenate");
  for (const x of arrays) {
    if (x.ndim !== first.ndim || x.shape.some((d, k) => k !== ax && d !== first.shape[k])) {
      throw new RangeError(`Cannot concatenate [${first.shape.join(", ")}] and [${x.shape.join(", ")}]`);
    }
  }
  const starts = [0];
  for (const x of arrays) starts.push(starts.at(-1)! + x.shape[ax]!);
  const shape = [...first.shape];
  shape[ax] = starts.at(-1)!;
  return fromFn(promote(arrays), shape, (i) => {
    const j = starts.findLastIndex((s, k) => k < arrays.length && s <= i[ax]!);
    return arrays[j]!.get(i.map((v, k) => (k === ax ? v - starts[j]! : v)));
  });
}

/** Joins arrays of one shape along a new axis. */
export function stack(arrays: readonly Ref[], axis = 0): Ref {
  if (arrays.length === 0) throw new RangeError("Cannot stack no arrays");
  const ax = axisOf(axis, arrays[0]!.ndim + 1, "stack");
  if (arrays.some((x) => x.shape.join() !== arrays[0]!.shape.join())) {
    throw new RangeError("Cannot stack: shapes differ");
  }
  return concatenate(arrays.map((x) => x.expandDims(ax)), ax);
}

function splitAt(a: Ref, bounds: number[], ax: number): Ref[] {
  const n = a.shape[ax]!;
  const edges = [0, ...bounds, n];
  return edges.slice(1).map((stop, k) =>
    a.slice(...a.shape.map((_, j) => (j === ax ? [edges[k]!, stop] : [null, null]))).copy()
  );
}

/** Splits into equal sections (or at the given indices); unequal sections: RangeError. */
export function split(a: Ref, sections: number | readonly number[], axis = 0): Ref[] {
  const ax = axisOf(axis, a.ndim, "split");
  if (typeof sections === "number" && a.shape[ax]! % sections !== 0) {
    throw new RangeError(`Cannot split an axis of ${a.shape[ax]} into ${sections} equal sections`);
  }
  return arraySplit(a, sections, ax);
}

/** Splits into sections (the first `n % sections` one longer), or at the given indices. */
export function arraySplit(a: Ref, sections: number | readonly number[], axis = 0): Ref[] {
  const ax = axisOf(axis, a.ndim, "arraySplit");
  if (typeof sections !== "number") return splitAt(a, [...sections], ax);
  if (!Number.isInteger(sections) || sections <= 0) {
    throw new RangeError("Cannot split into fewer than 1 section");
  }
  const n = a.shape[ax]!, each = Math.floor(n / sections), extra = n % sections;
  const bounds: number[] = [];
  for (let k = 1, at = 0; k < sections; k++) bounds.push(at += each + (k <= extra ? 1 : 0));
  return splitAt(a, bounds, ax);
}

/** Repeats each element (along `axis`; no axis: of the flattened array). */
export function repeat(a: Ref, repeats: number | readonly number[], axis?: number): Ref {
  if (axis === undefined) return repeat(a.ravel(), repeats, 0);
  const ax = axisOf(axis, a.ndim, "repeat"), n = a.shape[ax]!;
  const counts = typeof repeats === "number" ? new Array<number>(n).fill(repeats) : [...repeats];
  if (counts.length !== n || counts.some((c) => !Number.isInteger(c) || c < 0)) {
    throw new RangeError(`Cannot repeat: give one non-negative count per element of the axis of ${n}`);
  }
  const source = counts.flatMap((c, k) => new Array<number>(c).fill(k));
  const shape = [...a.shape];
  shape[ax] = source.length;
  return fromFn(a.dtype, shape, (i) => a.get(i.map((v, k) => (k === ax ? source[v]! : v))));
}

/** Repeats the whole array `reps` times per axis. */
export function tile(a: Ref, reps: number | readonly number[]): Ref {
  const r = typeof reps === "number" ? [reps] : [...reps];
  const n = Math.max(a.ndim, r.length);
  const dims = [...new Array<number>(n - a.ndim).fill(1), ...a.shape];
  const times = [...new Array<number>(n - r.length).fill(1), ...r];
  const x = a.reshape(dims);
  return fromFn(a.dtype, dims.map((d, k) => d * times[k]!), (i) => x.get(i.map((v, k) => v % dims[k]!)));
}

/** Options of {@link pad}. */
export interface PadOptions {
  readonly mode?: "constant";
  readonly constantValues?: Scalar;
}

/** Pads with a constant: `padWidth` is n, [before, after], or one [before, after] per axis. */
export function pad(
  a: Ref,
  padWidth: number | readonly number[] | readonly (readonly number[])[],
  options: PadOptions = {},
): Ref {
  const { mode = "constant", constantValues = 0 } = options;
  if (mode !== "constant") throw new RangeError(`Cannot pad in mode "${mode}"`);
  const per: number[][] = typeof padWidth === "number"
    ? a.shape.map(() => [padWidth, padWidth])
    : typeof padWidth[0] === "number"
    ? a.shape.map(() =>
      padWidth.length === 1 ? [padWidth[0] as number, padWidth[0] as number] : [...padWidth as number[]]
    )
    : padWidth.length === 1
    ? a.shape.map(() => [...padWidth[0] as number[]])
    : (padWidth as number[][]).map((p) => [...p]);
  if (
    per.length !== a.ndim || per.some((p) => p.length !== 2 || p.some((v) => !Number.isInteger(v) || v < 0))
  ) {
    throw new RangeError(`Cannot pad ${a.ndim} axes with ${JSON.stringify(padWidth)}`);
  }
  const fill = cast(constantValues, a.dtype);
  return fromFn(a.dtype, a.shape.map((d, k) => d + per[k]![0]! + per[k]![1]!), (i) => {
    const j = i.map((v, k) => v - per[k]![0]!);
    return j.every((v, k) => v >= 0 && v < a.shape[k]!) ? a.get(j) : fill;
  });
}

// ---- creation -------------------------------------------------------------------------------------

type Nested = number | bigint | boolean | readonly Nested[];

/** An array from nested JS arrays: numbers give float32, booleans bool, bigints int64 (or `dtype`). */
export function asarray(nested: Nested | Ref, dtype?: DType): Ref {
  if (nested instanceof Ref) {
    return dtype === undefined || dtype === nested.dtype ? nested : nested.astype(dtype);
  }
  const shape: number[] = [];
  for (let x: Nested = nested; Array.isArray(x); x = (x as Nested[])[0]!) shape.push(x.length);
  const flat: (number | bigint | boolean)[] = [];
  const walk = (x: Nested, depth: number) => {
    if (Array.isArray(x) !== depth < shape.length || (Array.isArray(x) && x.length !== shape[depth])) {
      throw new RangeError("Cannot make an array from ragged nested arrays");
    }
    if (Array.isArray(x)) { for (const y of x) walk(y, depth + 1); }
    else flat.push(x as number | bigint | boolean);
  };
  walk(nested, 0);
  const inferred: DType = flat.length > 0 && flat.every((v) => typeof v === "boolean")
    ? "bool"
    : flat.length > 0 && flat.every((v) => typeof v === "bigint")
    ? "int64"
    : "float32";
  return fromValues(dtype ?? inferred, shape, flat);
}

/** `toGpu` of nested arrays, with an optional shape. */
export function toGpu(data: Nested, shape?: number | readonly number[], dtype?: DType): Ref {
  const a = asarray(data, dtype);
  return shape === undefined ? a : a.reshape(typeof shape === "number" ? [shape] : shape).copy();
}

/** `num` values from `start` to `stop` (NumPy's arithmetic: start + i * step in float64; integers floor). */
export function linspace(
  start: number,
  stop: number,
  num = 50,
  options: { endpoint?: boolean; dtype?: DType } = {},
): Ref {
  const { endpoint = true, dtype = "float32" } = options;
  if (!Number.isInteger(num) || num < 0) throw new RangeError(`Cannot linspace ${num} values`);
  const div = endpoint ? num - 1 : num, delta = stop - start, step = delta / div;
  const value = (i: number) => {
    // NumPy: i * step + start; with no step (div 0) i * delta + start; the endpoint set exactly.
    const y = endpoint && num > 1 && i === num - 1
      ? stop
      : (div <= 0 ? i * delta : step === 0 ? (i / div) * delta : i * step) + start;
    return kind(dtype) === "float" ? y : Math.floor(y);
  };
  return fromFn(dtype, [num], ([i]) => value(i!));
}

/**
 * `start, start + step, ...` below `stop`, computed in float64 and converted; without a dtype, NumPy's
 * choice for integer arguments (int32 here, int64 past its range) and float32 for others.
 */
export function arange(start: number, stop?: number, step = 1, dtype?: DType): Ref {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  if (step === 0) throw new RangeError("Cannot arange with step 0");
  const n = Math.max(0, Math.ceil((to - from) / step));
  const last = from + Math.max(0, n - 1) * step;
  const int32 = (x: number) => x >= -(2 ** 31) && x < 2 ** 31;
  const d = dtype ??
    ([from, to, step].every(Number.isInteger) ? (int32(from) && int32(last) ? "int32" : "int64") : "float32");
  return fromFn(d, [n], ([i]) => from + i! * step);
}

/** Ones on the `k`-th diagonal of an n×m matrix. */
export function eye(n: number, m?: number, k = 0, dtype: DType = "float32"): Ref {
  return fromFn(dtype, [n, m ?? n], ([i, j]) => (j === i! + k ? 1 : 0));
}
export const identity = (n: number, dtype: DType = "float32"): Ref => eye(n, n, 0, dtype);

/** Ones on and below the `k`-th diagonal. */
export function tri(n: number, m?: number, k = 0, dtype: DType = "float32"): Ref {
  return fromFn(dtype, [n, m ?? n], ([i, j]) => (j! <= i! + k ? 1 : 0));
}

function triangle(a: Ref, keep: (i: number, j: number) => boolean): Ref {
  if (a.ndim < 2) throw new RangeError("Cannot take a triangle of an array of fewer than 2 dimensions");
  return fromFn(a.dtype, a.shape, (i) => (keep(i.at(-2)!, i.at(-1)!) ? a.get(i) : 0));
}
export const triu = (a: Ref, k = 0): Ref => triangle(a, (i, j) => j >= i + k);
export const tril = (a: Ref, k = 0): Ref => triangle(a, (i, j) => j <= i + k);

/** `value` everywhere; a float into an integer dtype truncates; out of the dtype's range: RangeError. */
export function full(shape: number | readonly number[], value: Scalar, dtype: DType = "float32"): Ref {
  const dims = typeof shape === "number" ? [shape] : [...shape];
  if (kind(dtype) !== "float" && kind(dtype) !== "bool") {
    checkFits(typeof value === "number" ? Math.trunc(value) : value, dtype, `fill with ${value}`);
  }
  return fromFn(dtype, dims, () => value);
}
export const zeros = (shape: number | readonly number[], dtype: DType = "float32"): Ref =>
  full(shape, 0, dtype);
export const ones = (shape: number | readonly number[], dtype: DType = "float32"): Ref =>
  full(shape, 1, dtype);
export const fullLike = (a: Ref, value: Scalar, dtype?: DType): Ref => full(a.shape, value, dtype ?? a.dtype);
export const zerosLike = (a: Ref, dtype?: DType): Ref => full(a.shape, 0, dtype ?? a.dtype);
export const onesLike = (a: Ref, dtype?: DType): Ref => full(a.shape, 1, dtype ?? a.dtype);
/** Like `zerosLike`: only its shape and dtype are compared. */
export const emptyLike = (a: Ref, dtype?: DType): Ref => full(a.shape, 0, dtype ?? a.dtype);

/** Coordinate matrices from 1-D arrays (`xy`: the first two outputs' axes swapped, as NumPy). */
export function meshgrid(...args: (Ref | { indexing?: "xy" | "ij" })[]): Ref[] {
  const last = args.at(-1);
  const options = last !== undefined && !(last instanceof Ref)
    ? (args.pop() as { indexing?: "xy" | "ij" })
    : {};
  const xs = (args as Ref[]).map((x) => x.ravel());
  const shape = xs.map((x) => x.size);
  const xy = (options.indexing ?? "xy") === "xy" && xs.length >= 2;
  if (xy) [shape[0], shape[1]] = [shape[1]!, shape[0]!];
  return xs.map((x, k) => {
    const axis = xy && k < 2 ? 1 - k : k;
    return fromFn(x.dtype, shape, (i) => x.get([i[axis]!]));
  });
}
