/**
 * Selection by condition — `nonzero`, `argwhere`, `compress` and `mask` (NumPy's `a[mask]`) — on one
 * device primitive, stream compaction: a scan of whether each element is non-zero (`scan.ts`) gives
 * each selected element its place, and one loop scatters the selected elements' coordinates there.
 * `compress` and `mask` then gather the selected elements through those coordinates.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray, viewOf } from "../core/gpuarray.ts";
import { indexType, load } from "../../codegen/c.ts";
import { contiguousStrides, normalizeAxis, showShape } from "../core/layout.ts";
import { AXIS, type AxisOptions, optionsOf } from "../core/axis_args.ts";
import { runLoop } from "../exec/loop.ts";
import { scanAlong } from "../ops/scan.ts";
import { gather, takeWith, validRange } from "../ops/indexing.ts";
import { ravel } from "../ops/views.ts";
import { checkReal } from "../ops/sorting.ts";

/** What these calls read on the host (see `Backend.checkHostRead`). */
const RESULT_SIZE = "the size of its result";

/** How many elements of `cond` up to each one (C order, inclusive) are non-zero: int64, flat. */
function countsOf(cond: GPUArray, what: string): GPUArray {
  const flat = ravel(cond);
  try {
    return scanAlong(flat, 0, { op: "sum", acc: "int64", out: "int64", map: "nonzero" }, what);
  } finally {
    if (flat !== cond) flat.free();
  }
}

/**
 * The coordinates of the non-zero elements of `cond` (at least 1-D), in C order, as an int64 array of
 * shape `[cond.ndim, count]`: row `d` holds their indices along axis `d`.
 */
function coordinates(cond: GPUArray, what: string): GPUArray<"int64"> {
  const backend = cond.backend;
  using counts = countsOf(cond, what);
  const host = new BigInt64Array(1);
  if (cond.size > 0) backend.read(host, counts.buffer, (cond.size - 1) * 8);
  const count = Number(host[0]);
  const ndim = cond.ndim;
  const out = new GPUArray(backend, [ndim, count], "int64");
  if (count === 0) return out;
  const d = backend.dialect, ix = indexType(d);
  using place = viewOf(counts, { shape: cond.shape, strides: contiguousStrides(cond.shape), offset: 0 });
  runLoop(
    {
      key: `coordinates${ndim}`,
      arrays: [cond, place],
      written: [false, false],
      pointers: [{ array: out, written: true }],
      scalars: [
        { value: count, dtype: "int64" },
        ...cond.shape.slice(1).map((e) => ({ value: e, dtype: "int64" as DType })),
      ],
      statement: ([c, p], [n, ...extents], index, [y]) => {
        const lines = [`${ix} at = (${ix})(${p}) - 1, rest = (${ix})(${index});`];
        for (let k = ndim - 1; k >= 1; k--) {
          lines.push(`${y}[${k} * ${n} + at] = rest % ${extents[k - 1]}; rest /= ${extents[k - 1]};`);
        }
        lines.push(`${y}[at] = rest;`);
        return `if (${load(c!, cond.dtype, d)} != 0) {\n      ${lines.join("\n      ")}\n    }`;
      },
    },
    cond.shape,
    what,
  );
  return out as GPUArray<"int64">;
}

function checkArray(a: unknown, what: string): GPUArray {
  if (!(a instanceof GPUArray)) throw new TypeError(`Cannot ${what} ${typeof a}: pass a GPUArray`);
  return a;
}

/**
 * The indices of the non-zero elements (NumPy's `nonzero`): one int64 array per dimension, the
 * elements in C order.
 *
 * @throws {RangeError} for a 0-d array.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [rows, cols] = ga.nonzero(ga.asarray([[0, 3], [4, 0]]));
 * console.log(rows.get(), cols.get()); // BigInt64Array [0n, 1n] BigInt64Array [1n, 0n]
 * ```
 */
export function nonzero(a: GPUArray): GPUArray<"int64">[] {
  checkReal(a, "nonzero");
  if (a.ndim === 0) {
    throw new RangeError("Cannot take nonzero() of a 0-d array: reshape it to 1-D first (a.reshape(1))");
  }
  a.backend.checkHostRead("nonzero()", RESULT_SIZE);
  const all = coordinates(a, "nonzero");
  const count = all.shape[1]!;
  const rows = a.shape.map((_, d) => viewOf(all, { shape: [count], strides: [1], offset: d * count }));
  all.free(); // the rows hold its memory
  return rows;
}

/**
 * The indices of the non-zero elements as rows (NumPy's `argwhere`): int64 of shape `[count, a.ndim]`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const at = ga.argwhere(ga.asarray([[0, 3], [4, 0]]));
 * console.log(at.shape, at.get()); // [2, 2] BigInt64Array [0n, 1n, 1n, 0n]
 * ```
 */
export function argwhere(a: GPUArray): GPUArray<"int64"> {
  checkReal(a, "argwhere");
  a.backend.checkHostRead("argwhere()", RESULT_SIZE);
  if (a.ndim === 0) {
    using flat = viewOf(a, { shape: [1], strides: [0], offset: a.offset });
    using one = coordinates(flat, "argwhere");
    return new GPUArray(a.backend, [one.shape[1]!, 0], "int64");
  }
  const all = coordinates(a, "argwhere");
  const view = viewOf(all, { shape: [all.shape[1]!, a.ndim], strides: [1, all.shape[1]!], offset: 0 });
  all.free();
  return view;
}

/** A condition given as an array, or as a list of booleans or numbers. */
function conditionArray(condition: GPUArray | readonly (boolean | number)[], like: GPUArray): GPUArray {
  if (condition instanceof GPUArray) {
    if (condition.backend !== like.backend) {
      throw new TypeError(
        `Cannot compress with a condition on ${condition.backend.device} for an array on ${like.backend.device}`,
      );
    }
    return condition;
  }
  if (!Array.isArray(condition)) {
    throw new TypeError("Cannot compress: give the condition as an array or a list");
  }
  const out = new GPUArray(like.backend, [condition.length], "bool");
  if (condition.length > 0) {
    like.backend.write(out.buffer, Uint8Array.from(condition, (c) => (c ? 1 : 0)), 0);
  }
  return out;
}

/**
 * The slices of `a` along `axis` where `condition` (1-D) is non-zero (NumPy's `compress`); over the
 * flattened array when no axis is given (by position or as `{ axis }`). The condition may be shorter
 * than the axis (the rest is not selected).
 *
 * @throws {RangeError} when the condition is not 1-D, selects a position past the axis, or the axis is
 * out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([[1, 2], [3, 4], [5, 6]]);
 * console.log(ga.compress([true, false, true], x, 0).get()); // Float32Array [1, 2, 5, 6]
 * const columns = ga.compress([false, true], x, { axis: 1 }); // also x.compress([false, true], 1)
 * ```
 */
export function compress<D extends DType>(
  condition: GPUArray | readonly (boolean | number)[],
  a: GPUArray<D>,
  axis?: number | AxisOptions,
): GPUArray<D> {
  checkArray(a, "compress");
  axis = optionsOf<AxisOptions>("compress", [axis], [AXIS], ["axis"], "{ axis: 0 }").axis;
  a.backend.checkHostRead("compress()", RESULT_SIZE);
  const cond = conditionArray(condition, a);
  try {
    if (cond.ndim !== 1) {
      throw new RangeError(
        `Cannot compress with a condition of shape ${showShape(cond.shape)}: it must be 1-D`,
      );
    }
    const ax = axis === undefined ? undefined : normalizeAxis(axis, a.ndim, "compress");
    using picked = coordinates(cond, "compress");
    using positions = viewOf(picked, { shape: [picked.shape[1]!], strides: [1], offset: 0 });
    return takeWith(
      a,
      positions,
      ax,
      (j, extent) =>
        `Cannot compress ${ax === undefined ? "the flattened array" : `along axis ${ax}`}: ` +
        `the condition selects position ${j}, past the extent ${extent} (${validRange(extent)})`,
    );
  } finally {
    if (cond !== condition) cond.free();
  }
}

/**
 * The elements of `a` where `m` is true (NumPy's `a[m]`, boolean indexing): `m` is a bool array
 * whose shape is `a`'s leading dimensions, and the result has one axis for the selected positions (in
 * C order) followed by `a`'s remaining dimensions. `a` may have any layout.
 *
 * @throws {TypeError} when `m` is not a bool array.
 * @throws {RangeError} when `m`'s shape is not `a`'s leading dimensions.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([-1, 2, -3, 4]);
 * console.log(ga.mask(x, x.gt(0)).get()); // Float32Array [2, 4]
 * const rows = ga.mask(ga.asarray([[1, 2], [3, 4]]), ga.asarray([false, true])); // [[3, 4]]
 * ```
 */
export function mask<D extends DType>(a: GPUArray<D>, m: GPUArray): GPUArray<D> {
  checkArray(a, "mask");
  checkArray(m, "mask with");
  if (m.dtype !== "bool") {
    throw new TypeError(
      `Cannot mask with a ${m.dtype} array: pass a bool array (a comparison such as a.gt(0), or m.astype("bool"))`,
    );
  }
  if (m.backend !== a.backend) {
    throw new TypeError(`Cannot mask an array on ${a.backend.device} with a mask on ${m.backend.device}`);
  }
  const lead = m.ndim;
  const bad = lead > a.ndim ? lead - 1 : m.shape.findIndex((e, d) => e !== a.shape[d]);
  if (bad >= 0) {
    throw new RangeError(
      `Cannot mask an array of shape ${showShape(a.shape)} with a mask of shape ${showShape(m.shape)}: ${
        bad < a.ndim
          ? `they differ at axis ${bad} (${a.shape[bad]} and ${m.shape[bad]})`
          : "the mask has more dimensions"
      }; the mask's shape must be the array's leading dimensions`,
    );
  }
  a.backend.checkHostRead("mask()", RESULT_SIZE);
  // A 0-d mask selects the whole array or nothing, along a new first axis.
  const cond = lead === 0 ? viewOf(m, { shape: [1], strides: [0], offset: m.offset }) : m;
  const src = lead === 0
    ? viewOf(a, { shape: [1, ...a.shape], strides: [0, ...a.strides], offset: a.offset })
    : a;
  const used = Math.max(lead, 1);
  try {
    using at = coordinates(cond, "mask");
    const count = at.shape[1]!;
    const trail = src.shape.slice(used);
    const out = new GPUArray(a.backend, [count, ...trail], a.dtype);
    if (out.size === 0) return out;
    const shape = out.shape;
    using from = viewOf(src, { shape, strides: [0, ...src.strides.slice(used)], offset: src.offset });
    const index = Array.from({ length: used }, (_, d) => ({
      array: viewOf(at, { shape, strides: [1, ...trail.map(() => 0)], offset: d * count }),
      step: src.strides[d]!,
    }));
    try {
      gather(out, from, index, undefined, "mask");
    } finally {
      index.forEach((i) => i.array.free());
    }
    return out;
  } finally {
    if (cond !== m) cond.free();
    if (src !== a) src.free();
  }
}
