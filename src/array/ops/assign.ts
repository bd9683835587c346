/**
 * Writing into arrays: `fill` with a scalar, `assign` from an array that broadcasts, `astype`
 * conversions, and the linear fill behind `arange`, each one loop through the kernel generator.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { arrayArg, GPUArray } from "../core/gpuarray.ts";
import { castTo, computeType, convert, cType } from "../../codegen/c.ts";
import { realOf } from "../core/dtypes.ts";
import { copyInto, runLoop } from "../exec/loop.ts";
import { scalarValue } from "./ufunc.ts";
import { asEager, needsTag, recordCast, Traced } from "../fuse/trace.ts";
import { record, refuseTrackedWrite } from "../grad/tape.ts";

const RANGE: Partial<Record<DType, readonly [number | bigint, number | bigint]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  uint32: [0, 2 ** 32 - 1],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/**
 * `value` as an element of `dtype`, as NumPy converts it: floats into integers truncate; bools are 0
 * or 1; a float stays a float (rounded by the device).
 *
 * @throws {RangeError} when an integer dtype cannot hold it (NaN and infinities included), or when it
 * is an integer (a bigint, or a number up to 2^53) that float32 would round (past 2^24, 16777216).
 */
export function elementValue(value: unknown, dtype: DType, what: string): number | bigint {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value !== "number" && typeof value !== "bigint") {
    throw new TypeError(
      `Cannot ${what} with ${value === null ? "null" : typeof value}: pass a number or a bigint`,
    );
  }
  const kind = DTYPES[dtype].kind;
  if (kind === "complex") return Number(value);
  if (kind === "float") {
    if (dtype === "float32") checkFloat32(value, what);
    return Number(value);
  }
  if (kind === "bool") return value !== 0 && value !== 0n ? 1 : 0;
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new RangeError(`Cannot ${what} ${value} into ${anArray(dtype)}: integers cannot hold it`);
  }
  const v = typeof value === "number" ? Math.trunc(value) : value;
  const [lo, hi] = RANGE[dtype]!;
  const outside = typeof v === "number" && typeof hi === "number"
    ? v < (lo as number) || v > hi
    : BigInt(v) < BigInt(lo) || BigInt(v) > BigInt(hi);
  if (outside) {
    throw new RangeError(
      `Cannot ${what} ${value} into ${anArray(dtype)}: ${value} is out of ${dtype}'s range ${lo}..${hi}`,
    );
  }
  return v;
}

/** "an int32 array", "a uint8 array". */
const anArray = (dtype: DType) => `${dtype.startsWith("i") ? "an" : "a"} ${dtype} array`;

/** Refuses an integer that float32 cannot hold exactly (NumPy would round it silently). */
function checkFloat32(value: number | bigint, what: string): void {
  const f = Math.fround(Number(value));
  const exact = typeof value === "bigint"
    ? Number.isFinite(f) && BigInt(f) === value
    : !Number.isSafeInteger(value) || f === value;
  if (!exact) {
    throw new RangeError(
      `Cannot ${what} ${value} into a float32 array: float32 holds integers exactly only up to 2^24 (16777216), and it would become ${f}; use float64, or an integer dtype (int32, int64)`,
    );
  }
}

/**
 * Sets every element of `a` to `value`, converted to its dtype; writes through a view.
 *
 * @throws {RangeError} when the dtype cannot hold `value`: outside an integer dtype's range, NaN or an
 * infinity into integers, or an integer that float32 would round (past 2^24; use float64).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros([3, 4]);
 * ga.fill(x.slice([], 0), 7); // the first column
 * ```
 */
export function fill<A extends GPUArray>(a: A, value: number | bigint | boolean): A {
  arrayArg(a, "fill");
  refuseTrackedWrite("fill", a);
  // A complex array is filled from its real dtype's parameter, made complex inside.
  const compute = computeType(a.dtype), real = realOf(compute);
  const v = scalarValue(elementValue(value, a.dtype, "fill"), real);
  runLoop(
    {
      key: "fill",
      arrays: [a],
      written: [true],
      scalars: [{ value: v, dtype: real }],
      statement: ([x], [s]) =>
        `${x} = ${castTo(convert(s!, real, compute, a.backend.dialect), a.dtype, a.backend.dialect)};`,
      pure: true,
    },
    a.shape,
    "fill",
  );
  return a;
}

/**
 * Writes `value` into `a`: an array broadcast to `a`'s shape and converted to its dtype, or a scalar;
 * writes through a view (NumPy's `a[...] = value`).
 *
 * @throws {RangeError} when `value`'s shape does not broadcast to `a`'s.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.zeros([2, 3]);
 * ga.assign(x, ga.asarray([1, 2, 3])); // every row
 * ```
 */
export function assign<A extends GPUArray>(a: A, value: GPUArray | number | bigint | boolean): A {
  arrayArg(a, "assign to");
  if (!(value instanceof GPUArray)) return fill(a, value);
  refuseTrackedWrite("assign", a, [value]);
  copyInto(a, value, "assign");
  return a;
}

/**
 * A copy of `a` converted to `dtype` (C's conversions: floats to integers truncate).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const i = ga.astype(ga.asarray([1.7, -1.7]), "int32"); // [1, -1]
 * ```
 */
export function astype<T extends DType>(a: GPUArray, dtype: T): GPUArray<T> {
  if (needsTag([a])) return asEager(() => astype(a, dtype));
  if (a instanceof Traced) return recordCast(a, dtype) as unknown as GPUArray<T>;
  arrayArg(a, "astype");
  const out = new GPUArray(a.backend, a.shape, dtype);
  copyInto(out, a, "astype");
  record("astype", [a], out, (g) => [g]);
  return out;
}

/** Sets `out`'s element i (in C order) to `start + i * step`. */
export function linearFill(out: GPUArray, start: number, step: number): GPUArray {
  const whole = Number.isInteger(start) && Number.isInteger(step);
  const compute = DTYPES[out.dtype].kind === "float" ? computeType(out.dtype) : whole ? "int64" : "float64";
  const t = cType(compute, out.backend.dialect);
  runLoop(
    {
      key: "linear",
      arrays: [out],
      written: [true],
      scalars: [{ value: scalarValue(start, compute), dtype: compute }, {
        value: scalarValue(step, compute),
        dtype: compute,
      }],
      statement: ([x], [s, d], i) =>
        `${x} = ${castTo(`${s} + (${t})(${i}) * ${d}`, out.dtype, out.backend.dialect)};`,
    },
    out.shape,
    "arange",
  );
  return out;
}
