/**
 * Seeing arrays: NumPy's text form for `toString()`, `console.log` and `Deno.inspect`, an HTML table for
 * `deno jupyter`, and the elements as host values through `item()` and `tolist()`. Printing reads only
 * what it shows: a summarised array is read through one view of its edges (each long axis split into
 * its first and last items by a stride), never whole.
 *
 * @module
 */

import type { DType, TypedArray } from "../../kernel/dtype.ts";
import { type GPUArray, viewOf } from "./gpuarray.ts";
import { describe } from "./describe.ts";
import { arrayRepr, type Element, elementFormat, pythonTuple, type Shown, textEdges } from "./format.ts";
import { contiguousStrides, showShape } from "./layout.ts";
import { fromBfloat16Bits } from "../../kernel/bfloat16.ts";

/**
 * One element of an array of `D` on the host: a bigint for 64-bit integers, a boolean for bools, a
 * pair `[re, im]` for complex numbers, else a number (float16 and bfloat16 too).
 *
 * @example
 * ```ts
 * import type { ItemValue } from "@cudeno/cudeno/array";
 * const flag: ItemValue<"bool"> = true;
 * ```
 */
export type ItemValue<D extends DType> = D extends "int64" | "uint64" ? bigint
  : D extends "bool" ? boolean
  : D extends "complex64" | "complex128" ? [number, number]
  : number;

/**
 * Nested JS arrays of `T` (what `tolist()` gives; a 0-d array gives a bare `T`).
 *
 * @example
 * ```ts
 * import type { NestedList } from "@cudeno/cudeno/array";
 * const rows: NestedList<number> = [[1, 2], [3, 4]];
 * ```
 */
export type NestedList<T> = T | NestedList<T>[];

/** Cells past which the HTML table is summarised. */
const TABLE_CELLS = 400;
/** Columns shown at each end of a summarised table's rows. */
const TABLE_EDGE = 10;

/** The host values of elements of `dtype`. */
function hostElements(data: TypedArray, dtype: DType): Element[] {
  if (dtype === "bool") return Array.from(data as Uint8Array, (v) => v !== 0);
  if (dtype === "bfloat16") return Array.from(data as Uint16Array, fromBfloat16Bits);
  if (dtype === "complex64" || dtype === "complex128") {
    return Array.from(
      { length: data.length / 2 },
      (_, i) => [data[2 * i] as number, data[2 * i + 1] as number],
    );
  }
  return Array.from(data as ArrayLike<number | bigint>);
}

/** Reads the elements of `a` that `edges` show: `a` itself, or one view of its edges where summarised. */
function readShown(a: GPUArray, edges: readonly (number | undefined)[]): Shown {
  if (edges.every((e) => e === undefined)) {
    return { dtype: a.dtype, shape: a.shape, edges, values: hostElements(a.get(), a.dtype) };
  }
  // Axis k of extent d, summarised to e items at each end, becomes two axes [2, e]: the second block
  // starts d - e items after the first.
  const shape: number[] = [], strides: number[] = [];
  a.shape.forEach((d, k) => {
    const e = edges[k], s = a.strides[k]!;
    if (e === undefined) {
      shape.push(d);
      strides.push(s);
    } else {
      shape.push(2, e);
      strides.push((d - e) * s, s);
    }
  });
  using view = viewOf(a, { shape, strides, offset: a.offset });
  return { dtype: a.dtype, shape: a.shape, edges, values: hostElements(view.get(), a.dtype) };
}

/** NumPy's `repr` of `a` (a freed array says so instead of throwing). */
export function arrayString(a: GPUArray): string {
  if (a.freed) return `array(<freed>, shape=${pythonTuple(a.shape)}, dtype=${a.dtype})`;
  return arrayRepr(readShown(a, textEdges(a.shape)));
}

/**
 * One element as a host value (NumPy's `item`): with no index, the one element of a one-element array
 * (any number of dimensions); with one, the element at that flat index in C order; with one per axis,
 * the element there. Negative indices count from the end. Only that element is copied to the host.
 *
 * @throws {TypeError} for an index that is not an integer.
 * @throws {RangeError} for an index out of range, another number of indices, or no index into an
 * array of other than one element.
 */
export function item<D extends DType>(a: GPUArray<D>, ...index: number[]): ItemValue<D> {
  const call = `item(${index.map(describe).join(", ")})`;
  const bad = index.findIndex((i) => !Number.isSafeInteger(i));
  if (bad >= 0) {
    throw new TypeError(
      `Cannot take ${call} of an array of shape ${showShape(a.shape)}: ${
        describe(index[bad])
      } is not an integer index`,
    );
  }
  if (index.length === 0 && a.size !== 1) {
    throw new RangeError(
      `Cannot take item() of an array of shape ${
        showShape(a.shape)
      }: it has ${a.size} elements and item() needs exactly one; pass an index (a.item(i), or a.item(i, j, ...) with one per axis) or select one first with slice()`,
    );
  }
  if (index.length > 1 && index.length !== a.ndim) {
    throw new RangeError(
      `Cannot take ${call} of an array of shape ${
        showShape(a.shape)
      }: give one flat index or one index per axis (${a.ndim})`,
    );
  }
  const extents = index.length === 1 ? [a.size] : a.shape;
  const at = index.map((i, k) => {
    const n = extents[k]!;
    if (i < -n || i >= n) {
      throw new RangeError(
        `Cannot take ${call} of an array of shape ${showShape(a.shape)}: index ${i} is out of range ${
          index.length === 1 ? "for its" : `along axis ${k}, of`
        } ${n} elements (use ${-n} to ${n - 1})`,
      );
    }
    return i < 0 ? i + n : i;
  });
  // One flat index: its position along each axis, in C order.
  const position = index.length === 1
    ? contiguousStrides(a.shape).map((step, k) => Math.floor(at[0]! / step) % a.shape[k]!)
    : at;
  const offset = position.reduce((o, p, k) => o + p * a.strides[k]!, a.offset);
  using one = viewOf(a, { shape: [], strides: [], offset });
  return hostElements(one.get(), a.dtype)[0] as ItemValue<D>;
}

/** The elements of `a` as nested JS arrays (a 0-d array gives its element). */
export function tolist<D extends DType>(a: GPUArray<D>): NestedList<ItemValue<D>> {
  const values = hostElements(a.get(), a.dtype) as ItemValue<D>[];
  const { shape } = a;
  const nest = (axis: number, at: number): NestedList<ItemValue<D>> => {
    if (axis === shape.length) return values[at]!;
    const step = shape.slice(axis + 1).reduce((x, y) => x * y, 1);
    return Array.from({ length: shape[axis]! }, (_, i) => nest(axis + 1, at + i * step));
  };
  return nest(0, 0);
}

/** The original indices a summarised (or whole) axis shows. */
function shownIndices(d: number, edge: number | undefined): number[] {
  if (edge === undefined) return Array.from({ length: d }, (_, i) => i);
  return [
    ...Array.from({ length: edge }, (_, i) => i),
    ...Array.from({ length: edge }, (_, i) => d - edge + i),
  ];
}

/** Edges of the HTML table: 10 columns at each end, and rows summarised so that at most ~20 show. */
function tableEdges(shape: readonly number[]): (number | undefined)[] {
  const size = shape.reduce((a, b) => a * b, 1);
  const lead = Math.max(1, Math.floor(TABLE_EDGE ** (1 / Math.max(1, shape.length - 1))));
  return shape.map((d, k) => {
    const e = k === shape.length - 1 ? TABLE_EDGE : lead;
    return size > TABLE_CELLS && d > 2 * e ? e : undefined;
  });
}

/**
 * An HTML table of `a`: one row per index of its leading axes, one column per index of its last, with
 * `…` and `⋮` where a large array is summarised.
 */
export function arrayHtml(a: GPUArray): string {
  const caption = `<caption>shape ${pythonTuple(a.shape)}, ${a.dtype}</caption>`;
  if (a.freed || a.size === 0) {
    return `<table>${caption}<tr><td>${a.freed ? "freed" : "no elements"}</td></tr></table>`;
  }
  const shown = readShown(a, tableEdges(a.shape));
  const format = elementFormat(shown.values, a.dtype, a.ndim === 0);
  const cell = (v: Element) => `<td>${format(v).trim()}</td>`;
  if (a.ndim === 0) return `<table>${caption}<tr>${cell(shown.values[0]!)}</tr></table>`;
  const last = a.ndim - 1;
  const columns = shownIndices(a.shape[last]!, shown.edges[last]);
  const gapBefore = (list: readonly number[], i: number) => i > 0 && list[i]! !== list[i - 1]! + 1;
  const head = columns.map((c, i) => `${gapBefore(columns, i) ? "<th>…</th>" : ""}<th>${c}</th>`).join("");
  const gapRow = `<tr><th>⋮</th>${
    columns.map((_, i) => `${gapBefore(columns, i) ? "<td></td>" : ""}<td>⋮</td>`).join("")
  }</tr>`;
  // Rows: every combination of the leading axes' shown indices, in C order.
  const leading = a.shape.slice(0, last).map((d, k) => shownIndices(d, shown.edges[k]));
  const rows: string[] = [];
  let previous = -1;
  const count = leading.reduce((n, list) => n * list.length, 1);
  for (let r = 0; r < count; r++) {
    const index: number[] = [];
    let flat = 0;
    for (let k = 0, rest = r; k < leading.length; k++) {
      const below = leading.slice(k + 1).reduce((n, list) => n * list.length, 1);
      index.push(leading[k]![Math.floor(rest / below)]!);
      rest %= below;
      flat = flat * a.shape[k]! + index[k]!;
    }
    if (r > 0 && flat !== previous + 1) rows.push(gapRow);
    previous = flat;
    const values = shown.values.slice(r * columns.length, (r + 1) * columns.length);
    const cells = values.map((v, i) => `${gapBefore(columns, i) ? "<td>…</td>" : ""}${cell(v)}`).join("");
    rows.push(`<tr><th>${index.join(", ")}</th>${cells}</tr>`);
  }
  return `<table style="text-align: right">${caption}<thead><tr><th></th>${head}</tr></thead><tbody>${
    rows.join("")
  }</tbody></table>`;
}

/** `a` as a JS primitive: see `ArrayMethods[Symbol.toPrimitive]`. */
function toPrimitive(a: GPUArray, hint: string): number | bigint | boolean | string {
  const complex = a.dtype === "complex64" || a.dtype === "complex128";
  if (hint === "string") return a.ndim === 0 && !a.freed && !complex ? String(a.item()) : arrayString(a);
  if (complex) {
    throw new TypeError(
      `Cannot use a ${a.dtype} array as a number: JavaScript numbers are real; read [re, im] with a.item(), or take ga.real(a) or ga.abs(a)`,
    );
  }
  if (a.size !== 1) {
    throw new TypeError(
      `Cannot use an array of shape ${
        showShape(a.shape)
      } (${a.size} elements) as a number: only an array of one element converts; read the elements with a.get(), or one with a.item(i)`,
    );
  }
  return a.item() as number | bigint | boolean;
}

/** The views along the first axis of `a` (its layout as the iteration begins). */
function rows(a: GPUArray): IterableIterator<GPUArray> {
  if (a.ndim === 0) {
    throw new TypeError(
      "Cannot iterate over a 0-d array: it has no axis; read its element with a.item() or Number(a)",
    );
  }
  const { shape, strides, offset } = a;
  return (function* () {
    for (let i = 0; i < shape[0]!; i++) {
      yield viewOf(a, { shape: shape.slice(1), strides: strides.slice(1), offset: offset + i * strides[0]! });
    }
  })();
}

/** What `JSON.stringify` writes for `a`: see `ArrayMethods.toJSON`. */
function toJSON(a: GPUArray): unknown {
  const json = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(json)
      : typeof v === "bigint"
      ? (v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v.toString())
      : v;
  return json(tolist(a));
}

/**
 * Defines `toString`, `item`, `tolist`, `toJSON`, `Symbol.toPrimitive`, `Symbol.iterator`,
 * `Deno.customInspect` and `Jupyter.display` on the array prototype.
 */
export function installDisplay(proto: object): void {
  const methods: Record<string | symbol, (this: GPUArray, ...args: never[]) => unknown> = {
    toString: function (this: GPUArray) {
      return arrayString(this);
    },
    item: function (this: GPUArray, ...index: number[]) {
      return item(this, ...index);
    },
    tolist: function (this: GPUArray) {
      return tolist(this);
    },
    toJSON: function (this: GPUArray) {
      return toJSON(this);
    },
    [Symbol.toPrimitive]: function (this: GPUArray, hint: string) {
      return toPrimitive(this, hint);
    },
    [Symbol.iterator]: function (this: GPUArray) {
      return rows(this);
    },
    [Symbol.for("Deno.customInspect")]: function (this: GPUArray) {
      return arrayString(this);
    },
    [Symbol.for("Jupyter.display")]: function (this: GPUArray) {
      return { "text/plain": arrayString(this), "text/html": arrayHtml(this) };
    },
  };
  for (const key of Reflect.ownKeys(methods)) {
    Object.defineProperty(proto, key, { value: methods[key], writable: true, configurable: true });
  }
}
