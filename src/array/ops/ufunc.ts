/**
 * Applying elementwise functions: NumPy's type promotion (weak JS-number scalars), broadcasting,
 * `out=` targets, and one loop per application through the kernel generator.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { collectArrays, GPUArray } from "../core/gpuarray.ts";
import { checkBeforeRead } from "../core/host_read.ts";
import { broadcastShapes, showShape } from "../core/layout.ts";
import { castTo, computeType, convert, load } from "../../codegen/c.ts";
import { realOf, resultType, resultTypeWithScalar } from "../core/dtypes.ts";
import { runLoop } from "../exec/loop.ts";
import { defineOp, type ElementwiseOp, type UfuncDef, type UfuncTypes } from "./elementwise.ts";
import { BINARY } from "./binary_ops.ts";
import { asEager, isArrayLike, isTraced, kindOf, needsTag, recordMap, TracedScalar } from "../fuse/trace.ts";
import { checkOptions } from "../../kernel/options.ts";
import { record, refuseTrackedWrite } from "../grad/tape.ts";

/**
 * An operand of an elementwise function: an array, or a JS number or bigint that broadcasts (a weak
 * scalar: it takes the array's dtype where its value fits, as in NumPy 2).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const operands: ga.Operand[] = [ga.ones(3), 2, 5n];
 * ```
 */
export type Operand = GPUArray | number | bigint;

/**
 * Options of elementwise functions.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.ones(4);
 * ga.add(x, 1, { out: x }); // in place
 * ```
 */
export interface OpOptions {
  /** Write the result here (the broadcast shape and the result's dtype; a view is fine) instead of a new array. Default: a new array. */
  readonly out?: GPUArray;
}

const INTEGER_RANGE: Partial<Record<DType, readonly [bigint, bigint]>> = {
  int8: [-128n, 127n],
  uint8: [0n, 255n],
  int16: [-32768n, 32767n],
  uint16: [0n, 65535n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** A scalar operand's value (a traced scalar's: one of its kind, for the dtype rules). */
function checkScalar(value: unknown, what: string): number | bigint {
  const v = value instanceof TracedScalar ? value.sample : value;
  if (typeof v === "number" || typeof v === "bigint") return v;
  throw new TypeError(`Cannot ${what} with ${kindOf(value)}: pass a GPUArray, a number or a bigint`);
}

/**
 * The dtype a weak scalar takes beside arrays of dtype `base`, checking that an integer fits it (NumPy
 * 2 refuses `uint8 array + 300` rather than wrapping the 300).
 */
export function scalarType(
  value: number | bigint,
  base: DType | undefined,
  what: string,
  checkRange = true,
): DType {
  if (base === undefined) {
    return typeof value === "bigint" || Number.isInteger(value) ? "int64" : "float64";
  }
  const dtype = resultTypeWithScalar(base, value);
  const range = INTEGER_RANGE[dtype];
  if (checkRange && range !== undefined && (typeof value === "bigint" || Number.isInteger(value))) {
    const v = BigInt(value);
    if (v < range[0] || v > range[1]) {
      throw new RangeError(
        `Cannot ${what} ${value} and a ${base} array: ${value} is out of ${dtype}'s range ${range[0]}..${
          range[1]
        }; convert the array first (astype())`,
      );
    }
  }
  return dtype;
}

/** A scalar as the kernel parameter of `dtype` takes it: integers truncated and wrapped into the dtype, as C converts. */
export function scalarValue(value: number | bigint, dtype: DType): number | bigint {
  const { kind, size } = DTYPES[dtype];
  if (kind === "float") return Number(value);
  const v = typeof value === "bigint" ? value : BigInt(Math.trunc(value));
  const wrapped = kind === "uint" ? BigInt.asUintN(size * 8, v) : BigInt.asIntN(size * 8, v);
  return size === 8 ? wrapped : Number(wrapped);
}

/** The array `out` a result of `shape` and `dtype` goes to: `options.out` after checks, else a new array. */
export function outputFor(
  like: GPUArray,
  shape: readonly number[],
  dtype: DType,
  out: GPUArray | undefined,
  what: string,
): GPUArray {
  if (out === undefined) return new GPUArray(like.backend, shape, dtype);
  if (!(out instanceof GPUArray)) {
    throw new TypeError(`Cannot ${what} into ${typeof out}: out must be a GPUArray`);
  }
  if (out.shape.length !== shape.length || out.shape.some((d, i) => d !== shape[i])) {
    throw new RangeError(
      `Cannot ${what} into an array of shape ${showShape(out.shape)}: the result has shape ${
        showShape(shape)
      }`,
    );
  }
  if (out.dtype !== dtype) {
    throw new TypeError(
      `Cannot ${what} into a ${out.dtype} array: the result is ${dtype}; pass out of ${dtype}`,
    );
  }
  if (out.backend !== like.backend) {
    throw new TypeError(`Cannot ${what} into an array on ${out.backend.device}`);
  }
  return out;
}

/**
 * Applies `def` to the operands (arrays broadcast together; scalars weak), into `options.out` or a
 * new array. `name` identifies the function in kernel caches.
 *
 * @throws {TypeError} for operands the function does not take.
 * @throws {RangeError} for shapes that do not broadcast.
 */
export function apply(
  name: string,
  def: UfuncDef,
  operands: readonly unknown[],
  options: OpOptions | undefined,
  what: string = name,
): GPUArray {
  if (needsTag(operands)) return asEager(() => apply(name, def, operands, options, what));
  checkOptions(options, what, "{ out }", ["out"]);
  let base: DType | undefined, traced = false;
  for (const x of operands) {
    if (isArrayLike(x)) base = base === undefined ? x.dtype : resultType(base, x.dtype);
    if (isTraced(x)) traced = true;
  }
  if (base === undefined) {
    throw new TypeError(`Cannot ${what} ${operands.map(kindOf).join(" and ")}: pass at least one GPUArray`);
  }
  const dtypes = operands.map((x) => isArrayLike(x) ? x.dtype : scalarType(checkScalar(x, what), base, what));
  const types = def.types(dtypes, what);
  if (typeof types === "string") throw new TypeError(`Cannot ${what}: ${types}`);
  const check = (def as Partial<ElementwiseOp>).check;
  // The device's half of a check is made outside a differentiated call's tidy-up: the result may be read
  // after the call returns.
  const collecting = check === undefined || traced ? undefined : collectArrays(undefined);
  let refused: string | readonly [GPUArray, string] | undefined;
  try {
    refused = traced ? undefined : check?.(operands, types.out);
  } finally {
    if (check !== undefined && !traced) collectArrays(collecting);
  }
  if (typeof refused === "string") throw new RangeError(`Cannot ${what}: ${refused}`);
  if (traced) {
    return recordMap(name, def, types, operands, options, what, base, true) as unknown as GPUArray;
  }
  if (options?.out !== undefined) refuseTrackedWrite(`${what} into out`, options.out, operands);
  const out = run(name, def, types, operands as readonly Operand[], options?.out, what);
  if (refused !== undefined) {
    const [flag, message] = refused;
    checkBeforeRead(out, () => {
      if (flag.item()) throw new RangeError(`Cannot ${what}: ${message}`);
    });
  }
  recordOp(what, def, operands, out);
  return out;
}

/** Reports an application of `def` to the gradient tapes (a piecewise-constant one is not: no gradient flows). */
function recordOp(what: string, def: UfuncDef, operands: readonly unknown[], out: GPUArray): void {
  const rule = (def as Partial<ElementwiseOp>).vjp;
  if (rule !== "zero") record(what, operands, out, rule);
}

/** The shape `operands`' arrays broadcast to (the first's own where it is the only array). */
function broadcastOf(operands: readonly Operand[], what: string): readonly number[] {
  let shapes: (readonly number[])[] | undefined, only: readonly number[] | undefined;
  for (const x of operands) {
    if (!(x instanceof GPUArray)) continue;
    if (only === undefined) only = x.shape;
    else (shapes ??= [only]).push(x.shape);
  }
  return shapes === undefined ? only! : broadcastShapes(shapes, what);
}

function run(
  name: string,
  def: UfuncDef,
  types: UfuncTypes,
  operands: readonly Operand[],
  out: GPUArray | undefined,
  what: string,
): GPUArray {
  const shape = broadcastOf(operands, what);
  const first = operands.find((x): x is GPUArray => x instanceof GPUArray)!;
  const backend = first.backend;
  for (const d of [types.compute, types.out]) {
    if (!backend.supports(d)) {
      throw new TypeError(
        `Cannot ${what} on ${backend.device}: it needs ${d} arithmetic, which the device lacks`,
      );
    }
  }
  const result = outputFor(first, shape, types.out, out, what);
  const d = backend.dialect;
  const arrays: GPUArray[] = [];
  const scalars: { value: number | bigint; dtype: DType }[] = [];
  // Where each operand is: an array's index among the loop's arrays, or a scalar's among its scalars.
  const at: number[] = [];
  // The work's key, built by concatenation (each call comes here): the function, its dtypes, and
  // which operands are arrays.
  let key = `${name}|`, kinds = "";
  for (let k = 0; k < operands.length; k++) {
    const x = operands[k]!, dtype = types.inputs[k]!;
    if (x instanceof GPUArray) {
      at.push(arrays.push(x) - 1);
      kinds += "a";
    } else {
      // A JS number is real: a complex operand's is passed as its real dtype and made complex inside.
      const real = realOf(dtype);
      at.push(scalars.push({ value: scalarValue(x, real), dtype: real }) - 1);
      kinds += "s";
    }
    key += k === 0 ? dtype : `,${dtype}`;
  }
  arrays.push(result);
  const written = arrays.map((_, k) => k === arrays.length - 1);
  runLoop(
    {
      key: `${key}>${types.compute}>${types.out}|${kinds}`,
      arrays,
      written,
      scalars,
      helpers: def.helpers?.(types.compute, d) ?? "",
      pure: true,
      statement: (ref, scalar) => {
        const x = at.map((j, k) =>
          kinds[k] === "a"
            ? convert(load(ref[j]!, arrays[j]!.dtype, d), computeType(arrays[j]!.dtype), types.inputs[k]!, d)
            : convert(scalar[j]!, realOf(types.inputs[k]!), types.inputs[k]!, d)
        );
        return `${ref[arrays.length - 1]} = ${
          castTo(def.source(x, types.compute, d, types.out), types.out, d)
        };`;
      },
    },
    shape,
    what,
  );
  return result;
}

/**
 * Applies the table's `op` to `operands` (arrays and scalars), its parameters (`isclose`'s `rtol`)
 * taken from `options`; `what` is the name it was called by, for messages.
 *
 * @throws {TypeError} for operands the function does not take.
 * @throws {RangeError} when the shapes do not broadcast.
 */
export function callOp(
  op: ElementwiseOp,
  operands: readonly unknown[],
  options: OpOptions | object | undefined,
  what: string,
): GPUArray {
  if (op.arity === 1 && !isArrayLike(operands[0])) {
    if (needsTag(operands)) return asEager(() => callOp(op, operands, options, what));
    throw new TypeError(`Cannot ${what} ${kindOf(operands[0])}: pass a GPUArray`);
  }
  if (op.paramNames.length === 0) return apply(op.name, op, operands, options as OpOptions, what);
  checkOptions(options, what, `{ ${op.paramNames[0]}: ... }`, ["out", ...op.paramNames]);
  const given = (options ?? {}) as Readonly<Record<string, unknown>>;
  const values = op.paramNames.map((p) => {
    const v = given[p] ?? op.params![p];
    if (typeof v === "boolean") return Number(v);
    if (typeof v !== "number") {
      throw new TypeError(
        `Cannot ${what} with ${p} = ${JSON.stringify(v) ?? String(v)}: pass a number (default ${
          op.params![p]
        })`,
      );
    }
    return v;
  });
  return apply(op.name, op, [...operands, ...values], { out: (options as OpOptions)?.out }, what);
}

const WHERE = defineOp("where", 3, {
  rule: {
    name: "same",
    types: ([c, x, y]) => {
      if (c === "complex64" || c === "complex128") {
        return `the condition must be real, not ${c}; test ga.ne(c, 0)`;
      }
      const out = resultType(x!, y!), compute = computeType(out);
      return { inputs: [computeType(c!), compute, compute], compute, out };
    },
  },
  expr: (e, [c, x, y]) => e.select(e.bin("!=", c!, e.lit(0)), x!, y!),
  // Between complex values the condition (real) is still tested as C tests a number against 0.
  complex: (e, [, x, y]) =>
    e.select(e.bin("!=", e.operand(0, "int32"), { node: "literal", value: 0, type: "int32" }), x!, y!),
  vjp: (g, { inputs: [c], need, ops }) => [
    undefined,
    need[1] ? ops.where(c as GPUArray, g, 0) : undefined,
    need[2] ? ops.where(c as GPUArray, 0, g) : undefined,
  ],
  method: false,
  doc: "`x` where `condition` is non-zero, else `y`.",
  example: "ga.where(ga.arange(3).gt(0), 1, 0)",
});

/** `clip` with a lower bound, an upper bound, or both (`clipl`, `cliph`, `cliplh`). */
const CLIP = Object.fromEntries(
  (["l", "h", "lh"] as const).map((which) => [
    which,
    defineOp(`clip${which}`, which.length + 1, {
      rule: {
        name: "same",
        types: (dtypes) => {
          const out = dtypes.reduce(resultType), compute = computeType(out);
          return { inputs: dtypes.map(() => compute), compute, out };
        },
      },
      expr: (e, [x, p, q]) => {
        let v = x!;
        if (which !== "h") v = BINARY.maximum.expr(e, [v, p!], e.t);
        if (which !== "l") v = BINARY.minimum.expr(e, [v, which === "h" ? p! : q!], e.t);
        return v;
      },
      // The gradient goes to `a` where it was kept, to a bound where that bound was taken.
      vjp: (g, { inputs: [x, p, q], output, need, ops }) => {
        const a = x as GPUArray,
          lo = which === "h" ? undefined : p,
          hi = which === "l" ? p : which === "h" ? p : q;
        return [
          ops.where(output.eq(a), g, 0),
          need[1] ? ops.where(which === "h" ? a.gt(hi as GPUArray) : a.lt(lo as GPUArray), g, 0) : undefined,
          need[2] ? ops.where(a.gt(hi as GPUArray), g, 0) : undefined,
        ];
      },
      method: false,
      doc: "`a` limited to `[min, max]`.",
      example: "ga.clip(ga.arange(4), 1, 2)",
    }),
  ]),
) as Readonly<Record<"l" | "h" | "lh", ElementwiseOp>>;

/**
 * `x` where `condition` is non-zero, else `y`, elementwise (NumPy's `where`); all three broadcast,
 * and `x` and `y` may be scalars.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([-1, 2, -3]);
 * const relu = ga.where(x.gt(0), x, 0);
 * ```
 */
export function where(condition: GPUArray, x: Operand, y: Operand, options?: OpOptions): GPUArray {
  if (needsTag([condition, x, y])) return asEager(() => where(condition, x, y, options));
  checkOptions(options, "where", "{ out }", ["out"]);
  if (!isArrayLike(condition)) {
    throw new TypeError("Cannot where(): the condition must be a GPUArray");
  }
  if (x === undefined && y === undefined) {
    throw new TypeError(
      "Cannot where() with a condition alone: give the values where it holds and where it does not, ga.where(c, x, y); for the indices where it holds (NumPy's where(c)), use ga.nonzero(c)",
    );
  }
  const values = ([x, y] as unknown[]).filter(isArrayLike);
  const base = values.length > 0 ? values.map((v) => v.dtype).reduce(resultType) : undefined;
  // NumPy's where converts a scalar to the arrays' dtype as it is, wrapping (no range check).
  const dtypes = [x, y].map((v) =>
    isArrayLike(v) ? v.dtype : scalarType(checkScalar(v, "where"), base, "where", false)
  );
  const types = WHERE.types([condition.dtype, ...dtypes]);
  if (typeof types === "string") throw new TypeError(`Cannot where: ${types}`);
  if ([condition, x, y].some(isTraced)) {
    return recordMap(
      "where",
      WHERE,
      types,
      [condition, x, y],
      options,
      "where",
      base,
      false,
    ) as unknown as GPUArray;
  }
  if (options?.out !== undefined) refuseTrackedWrite("where into out", options.out, [condition, x, y]);
  const out = run("where", WHERE, types, [condition, x, y], options?.out, "where");
  recordOp("where", WHERE, [condition, x, y], out);
  return out;
}

/**
 * `a` limited to `[min, max]` elementwise (NumPy's `clip`): either bound may be `null` (none), a
 * scalar or an array that broadcasts; NaN stays NaN.
 *
 * @throws {TypeError} when both bounds are null.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.clip(ga.asarray([-2, 0.5, 3]), 0, 1); // [0, 0.5, 1]
 * ```
 */
export function clip(a: GPUArray, min: Operand | null, max: Operand | null, options?: OpOptions): GPUArray {
  if (needsTag([a, min, max])) return asEager(() => clip(a, min, max, options));
  checkOptions(options, "clip", "{ out }", ["out"]);
  if (!isArrayLike(a)) throw new TypeError(`Cannot clip ${kindOf(a)}: pass a GPUArray`);
  if (min === null && max === null) throw new TypeError("Cannot clip without bounds: give min, max or both");
  if (min === undefined || max === undefined) {
    throw new TypeError(
      `Cannot clip without ${
        min === undefined ? "min" : "max"
      }: give both bounds, null for none (ga.clip(a, 0, null))`,
    );
  }
  const bounds = [min, max].filter((b) => b !== null) as Operand[];
  const which = min === null ? "h" : max === null ? "l" : "lh";
  return apply(`clip${which}`, CLIP[which], [a, ...bounds], options, "clip");
}
