/**
 * A small host reference of NumPy's semantics for the differential tests, written independently
 * of `src/array`: a `Ref` is a dtype, a shape, a flat list of values shared by its views, and an
 * index mapping from a multi-index to a position in that list. Views compose index mappings; every
 * other operation builds a new C-ordered `Ref` element by element from a function of the index.
 *
 * Values: floats and integers up to 32 bits are numbers, 64-bit integers bigints, bools 0 and 1.
 * This file: the array, its views, and the promotion of operands. Element types and the promotion of
 * dtypes live in `_reference_dtype.ts`, shapes, axes, broadcasting and slices in `_reference_shape.ts`,
 * and elementwise ufuncs, indexing, reductions, sorting and linear algebra in the other
 * `_reference_*.ts` files beside it.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { cast, checkFits, resultType, type Scalar, type Value, weakType } from "./_reference_dtype.ts";
import {
  axesOf,
  axisOf,
  type Index,
  indices,
  parseSlice,
  ravelIndex,
  sizeOf,
  sliceRange,
  type SliceSpec,
  unravelIndex,
} from "./_reference_shape.ts";

// ---- promotion of operands (of dtypes: _reference_dtype.ts) ---------------------------------------

/** The promoted dtype of several operands (arrays and weak scalars; scalars alone: int64 or float64). */
export function promote(operands: readonly (Ref | Scalar)[]): DType {
  const arrays = operands.filter((x): x is Ref => x instanceof Ref);
  const scalars = operands.filter((x): x is Scalar => !(x instanceof Ref));
  let d: DType = arrays.length > 0
    ? arrays.map((x) => x.dtype).reduce(resultType)
    : scalars.some((s) => typeof s === "number" && !Number.isInteger(s))
    ? "float64"
    : "int64";
  for (const s of scalars) d = weakType(d, s);
  return d;
}

// ---- the array ------------------------------------------------------------------------------------

/** A host array: dtype, shape, the values it shares with its views, and its index mapping into them. */
export class Ref {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly data: Value[];
  readonly at: (index: Index) => number;

  /** Whether the elements are `data` itself, in C order (a new array, not a view). */
  readonly #ordered: boolean;

  constructor(dtype: DType, shape: Index, data: Value[], at?: (index: Index) => number) {
    this.dtype = dtype;
    this.shape = Object.freeze([...shape]);
    this.data = data;
    this.at = at ?? ((i) => ravelIndex(i, this.shape));
    this.#ordered = at === undefined;
  }

  get ndim(): number {
    return this.shape.length;
  }
  get size(): number {
    return sizeOf(this.shape);
  }
  /** The element at a multi-index. */
  get(index: Index): Value {
    return this.data[this.at(index)]!;
  }
  /** The elements in C order. */
  values(): Value[] {
    return this.#ordered ? [...this.data] : indices(this.shape).map((i) => this.get(i));
  }
  /** Nested JS arrays: numbers, bigints for 64-bit integers, booleans for bool. */
  tolist(): unknown {
    const nest = (prefix: number[]): unknown =>
      prefix.length === this.ndim
        ? (this.dtype === "bool" ? this.get(prefix) === 1 : this.get(prefix))
        : Array.from({ length: this.shape[prefix.length]! }, (_, k) => nest([...prefix, k]));
    return nest([]);
  }
  /** The one element, as `tolist` gives elements; not one element: RangeError. */
  item(): Value | boolean {
    if (this.size !== 1) throw new RangeError(`Cannot take item() of an array of ${this.size} elements`);
    return this.reshape([]).tolist() as Value | boolean;
  }

  /** A view: element `i` of the result is element `map(i)` of this array. */
  view(shape: Index, map: (index: Index) => Index): Ref {
    return new Ref(this.dtype, shape, this.data, (i) => this.at(map(i)));
  }

  slice(...specs: SliceSpec[] | [string]): Ref {
    const list: SliceSpec[] = specs.length === 1 && typeof specs[0] === "string" && specs[0] !== "..."
      ? parseSlice(specs[0])
      : specs as SliceSpec[];
    const consuming = list.filter((s) => s !== null && s !== "...").length;
    const ellipses = list.filter((s) => s === "...").length;
    if (ellipses > 1) throw new RangeError("Cannot slice with more than one '...'");
    if (consuming > this.ndim) {
      throw new RangeError(`Cannot slice: ${consuming} indices for ${this.ndim} dimensions`);
    }
    const full = ellipses === 0 ? [...list, "..." as const] : list;
    type Part = { from: number; first: number; step: number; count?: number };
    const parts: Part[] = []; // one per input axis; count undefined: the axis is dropped
    const newAxes: number[] = []; // output positions of new axes
    let out = 0;
    for (const s of full) {
      if (s === "...") {
        for (let k = 0; k < this.ndim - consuming; k++) {
          parts.push({ from: parts.length, first: 0, step: 1, count: this.shape[parts.length]! });
          out++;
        }
      } else if (s === null) newAxes.push(out++);
      else if (typeof s === "number") {
        const n = this.shape[parts.length]!;
        if (!Number.isInteger(s) || s < -n || s >= n) {
          throw new RangeError(`Cannot slice: index ${s} is out of range for an axis of ${n}`);
        }
        parts.push({ from: parts.length, first: s < 0 ? s + n : s, step: 0 });
      } else {
        const r = sliceRange(this.shape[parts.length]!, s[0], s[1], s[2]);
        parts.push({ from: parts.length, first: r.first, step: r.step, count: r.count });
        out++;
      }
    }
    const kept = parts.filter((p) => p.count !== undefined);
    const shape: number[] = [];
    const source: (Part | undefined)[] = [];
    for (let o = 0, k = 0; o < out; o++) {
      const p = newAxes.includes(o) ? undefined : kept[k++];
      source.push(p);
      shape.push(p === undefined ? 1 : p.count!);
    }
    return this.view(shape, (i) => {
      const j = parts.map((p) => p.first);
      source.forEach((p, o) => {
        if (p !== undefined) j[p.from] = p.first + p.step * i[o]!;
      });
      return j;
    });
  }

  transpose(...axes: number[] | [readonly number[]]): Ref {
    const given = (Array.isArray(axes[0]) ? axes[0] : axes) as number[];
    const perm = given.length === 0
      ? [...this.shape.keys()].reverse()
      : axesOf(given, this.ndim, "transpose");
    if (perm.length !== this.ndim) throw new RangeError("Cannot transpose: the axes must be a permutation");
    return this.view(perm.map((p) => this.shape[p]!), (i) => {
      const j = new Array<number>(this.ndim);
      perm.forEach((p, k) => (j[p] = i[k]!));
      return j;
    });
  }
  get T(): Ref {
    return this.transpose();
  }
  swapaxes(a1: number, a2: number): Ref {
    const perm = [...this.shape.keys()];
    const [x, y] = [axisOf(a1, this.ndim), axisOf(a2, this.ndim)];
    [perm[x], perm[y]] = [perm[y]!, perm[x]!];
    return this.transpose(perm);
  }
  moveaxis(source: number | readonly number[], destination: number | readonly number[]): Ref {
    const src = axesOf(source, this.ndim, "moveaxis"), dst = axesOf(destination, this.ndim, "moveaxis");
    if (src.length !== dst.length) throw new RangeError("Cannot moveaxis: as many sources as destinations");
    const order = [...this.shape.keys()].filter((a) => !src.includes(a));
    dst.map((d, k) => [d, src[k]!]).sort((a, b) => a[0]! - b[0]!).forEach(([d, s]) =>
      order.splice(d!, 0, s!)
    );
    return this.transpose(order);
  }
  squeeze(axis?: number | readonly number[]): Ref {
    const drop = axis === undefined
      ? [...this.shape.keys()].filter((k) => this.shape[k] === 1)
      : axesOf(axis, this.ndim, "squeeze");
    if (drop.some((k) => this.shape[k] !== 1)) {
      throw new RangeError("Cannot squeeze an axis whose extent is not 1");
    }
    const keep = [...this.shape.keys()].filter((k) => !drop.includes(k));
    return this.view(keep.map((k) => this.shape[k]!), (i) => {
      const j = new Array<number>(this.ndim).fill(0);
      keep.forEach((k, o) => (j[k] = i[o]!));
      return j;
    });
  }
  expandDims(axis: number | readonly number[]): Ref {
    const n = this.ndim + (typeof axis === "number" ? 1 : axis.length);
    const added = axesOf(axis, n, "expandDims");
    const keep = [...Array(n).keys()].filter((k) => !added.includes(k));
    const shape = new Array<number>(n).fill(1);
    keep.forEach((o, k) => (shape[o] = this.shape[k]!));
    return this.view(shape, (i) => keep.map((o) => i[o]!));
  }
  broadcastTo(shape: Index): Ref {
    const lead = shape.length - this.ndim;
    if (lead < 0 || this.shape.some((d, k) => d !== 1 && d !== shape[lead + k])) {
      throw new RangeError(`Cannot broadcast [${this.shape.join(", ")}] to [${shape.join(", ")}]`);
    }
    return this.view(shape, (i) => this.shape.map((d, k) => (d === 1 ? 0 : i[lead + k]!)));
  }
  flip(axis?: number | readonly number[]): Ref {
    const axes = axis === undefined ? [...this.shape.keys()] : axesOf(axis, this.ndim, "flip");
    return this.view(this.shape, (i) => i.map((v, k) => (axes.includes(k) ? this.shape[k]! - 1 - v : v)));
  }
  /** Reads as NumPy's reshape; writes through it only where NumPy's reshape is a view. */
  reshape(...shape: number[] | [readonly number[]]): Ref {
    const dims = [...(Array.isArray(shape[0]) ? shape[0] : shape) as number[]];
    const unknown = dims.indexOf(-1);
    if (unknown >= 0) {
      const known = sizeOf(dims.filter((_, k) => k !== unknown));
      dims[unknown] = known === 0 ? 0 : this.size / known;
    }
    if (dims.some((d) => !Number.isInteger(d) || d < 0) || sizeOf(dims) !== this.size) {
      throw new RangeError(`Cannot reshape [${this.shape.join(", ")}] to [${shape.join(", ")}]`);
    }
    return this.view(dims, (i) => unravelIndex(ravelIndex(i, dims), this.shape));
  }
  ravel(): Ref {
    return this.reshape(-1);
  }
  diagonal(options: { offset?: number; axis1?: number; axis2?: number } = {}): Ref {
    const { offset = 0 } = options;
    const a1 = axisOf(options.axis1 ?? 0, this.ndim), a2 = axisOf(options.axis2 ?? 1, this.ndim);
    if (a1 === a2) throw new RangeError("Cannot take a diagonal: axis1 and axis2 must differ");
    const rest = [...this.shape.keys()].filter((k) => k !== a1 && k !== a2);
    const n = Math.max(
      0,
      Math.min(this.shape[a1]! - Math.max(-offset, 0), this.shape[a2]! - Math.max(offset, 0)),
    );
    return this.view([...rest.map((k) => this.shape[k]!), n], (i) => {
      const j = new Array<number>(this.ndim);
      rest.forEach((k, o) => (j[k] = i[o]!));
      j[a1] = i[rest.length]! + Math.max(-offset, 0);
      j[a2] = i[rest.length]! + Math.max(offset, 0);
      return j;
    });
  }

  /** A C-ordered copy, converted to `dtype`. */
  astype(dtype: DType): Ref {
    return fromFn(dtype, this.shape, (i) => this.get(i));
  }
  copy(): Ref {
    return this.astype(this.dtype);
  }
  flatten(): Ref {
    return this.copy().reshape(-1);
  }
  /** Writes `value` to every element (a JS integer out of an integer dtype's range: RangeError). */
  fill(value: Scalar): this {
    checkFits(value, this.dtype, `fill a ${this.dtype} array with ${value}`);
    for (const i of indices(this.shape)) this.data[this.at(i)] = cast(value, this.dtype);
    return this;
  }
  /** Writes a broadcast array or a scalar through this view; the source is read in full first. */
  assign(source: Ref | Scalar): this {
    if (!(source instanceof Ref)) return this.fill(source);
    const src = source.broadcastTo(this.shape).values();
    indices(this.shape).forEach((i, k) => (this.data[this.at(i)] = cast(src[k]!, this.dtype)));
    return this;
  }
}

/** A new C-ordered array whose element at each index is `fn(index)` converted to `dtype`. */
export function fromFn(dtype: DType, shape: Index, fn: (index: number[]) => Value | boolean): Ref {
  return new Ref(dtype, shape, indices(shape).map((i) => cast(fn(i), dtype)));
}

/** A new C-ordered array of the given values converted to `dtype`. */
export function fromValues(dtype: DType, shape: Index, values: readonly (Value | boolean)[]): Ref {
  if (values.length !== sizeOf(shape)) throw new RangeError("Cannot build an array: the sizes differ");
  return new Ref(dtype, shape, values.map((v) => cast(v, dtype)));
}

/**
 * Maps every 1-D lane of `a` along `axis` through `fn`, giving lanes of `length` elements (default:
 * the axis's extent) of `dtype`.
 */
export function lanes(
  a: Ref,
  axis: number,
  dtype: DType,
  fn: (lane: Value[]) => readonly (Value | boolean)[],
  length?: number,
): Ref {
  const ax = axisOf(axis, a.ndim, "take lanes");
  const shape = [...a.shape];
  shape[ax] = length ?? a.shape[ax]!;
  const data = new Array<Value>(sizeOf(shape));
  for (const start of indices(a.shape.map((d, k) => (k === ax ? 1 : d)))) {
    const at = (k: number) => start.map((v, j) => (j === ax ? k : v));
    const out = fn(Array.from({ length: a.shape[ax]! }, (_, k) => a.get(at(k))));
    for (let k = 0; k < shape[ax]!; k++) data[ravelIndex(at(k), shape)] = cast(out[k]!, dtype);
  }
  return new Ref(dtype, shape, data);
}

/** Reads element `index` of an output of shape `outShape` from an operand broadcast to it. */
export function reader(x: Ref | Scalar, outShape: Index): (index: Index) => Value {
  if (!(x instanceof Ref)) return () => x;
  const lead = outShape.length - x.ndim;
  return (i) => x.get(x.shape.map((d, k) => (d === 1 ? 0 : i[lead + k]!)));
}

// The starred views of array-api.md as functions taking the array first.
export const swapaxes = (a: Ref, a1: number, a2: number): Ref => a.swapaxes(a1, a2);
export const moveaxis = (a: Ref, s: number | number[], d: number | number[]): Ref => a.moveaxis(s, d);
export const squeeze = (a: Ref, axis?: number | number[]): Ref => a.squeeze(axis);
export const expandDims = (a: Ref, axis: number | number[]): Ref => a.expandDims(axis);
export const broadcastTo = (a: Ref, shape: number[]): Ref => a.broadcastTo(shape);
export const ravel = (a: Ref): Ref => a.ravel();
export const flip = (a: Ref, axis?: number | number[]): Ref => a.flip(axis);
export const reshape = (a: Ref, ...shape: number[] | [number[]]): Ref => a.reshape(...shape);
export const diagonal = (a: Ref, options?: { offset?: number; axis1?: number; axis2?: number }): Ref =>
  a.diagonal(options);
export const copy = (a: Ref): Ref => a.copy();
/** A C-ordered copy with at least one dimension, as NumPy. */
export const ascontiguousarray = (a: Ref): Ref => (a.ndim === 0 ? a.reshape(1) : a).copy();
export const transpose = (a: Ref, ...axes: number[]): Ref => a.transpose(...axes);
