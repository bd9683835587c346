/**
 * One-dimensional signal routines, NumPy style: `correlate` and `convolve` (modes full, same and
 * valid) as one loop over the output, each thread summing its products directly; and `interp`,
 * piecewise-linear interpolation, as one loop whose threads binary-search the sample points
 * (NumPy's `compiled_interp`, step for step).
 *
 * @module
 */

import { DTYPES } from "../../kernel/dtype.ts";
import { castTo, cType, load } from "../../codegen/c.ts";
import { targetOf } from "../../codegen/targets.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { resultType } from "../core/dtypes.ts";
import { numberSlot, optionsOf } from "../core/axis_args.ts";
import { runLoop } from "../exec/loop.ts";
import { astype } from "../ops/assign.ts";
import { flip, slice } from "../ops/views.ts";
import { argsort } from "../ops/sorting.ts";
import { take } from "../ops/indexing.ts";
import { add, remainder, sub } from "../api/elementwise.ts";
import { concatenate } from "./join.ts";
import { checkReal } from "../ops/sorting.ts";

/**
 * What part of the full correlation or convolution to return: `"full"` (every overlap, length
 * `n + m - 1`), `"same"` (the length of the longer input, centred), `"valid"` (only complete overlaps,
 * length `max(n, m) - min(n, m) + 1`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const mode: ga.ConvolveMode = "same";
 * const y = ga.convolve(ga.asarray([1, 2, 3]), ga.asarray([0, 1, 0.5]), mode); // [1, 2.5, 4]
 * ```
 */
export type ConvolveMode = "full" | "same" | "valid";

const MODES: readonly ConvolveMode[] = ["full", "same", "valid"];

function checkSignal(x: unknown, name: string, what: string): GPUArray {
  const a = checkReal(x, `${what} with ${name}`);
  if (a.ndim !== 1 || a.size === 0) {
    throw new RangeError(
      `Cannot ${what} with ${name} of shape ${showShape(a.shape)}: give a non-empty 1-D array`,
    );
  }
  if (a.dtype === "bool") {
    throw new TypeError(`Cannot ${what} a bool array: convert it with astype("int32") first`);
  }
  return a;
}

/** `c[o] = Σ_j a[k + j] · v[j]`, `k = o + start - (m - 1)`, over `length` outputs. */
function correlated(a: GPUArray, v: GPUArray, start: number, length: number, what: string): GPUArray {
  const dtype = resultType(a.dtype, v.dtype);
  const backend = a.backend, d = backend.dialect, ix = targetOf(d).indexType;
  using x = astype(a, dtype), y = astype(v, dtype);
  const out = new GPUArray(backend, [length], dtype);
  const float = DTYPES[dtype].kind === "float";
  const acc = float ? cType(dtype === "float64" ? "float64" : "float32", d) : cType("uint64", d);
  const term = (e: string) => (float ? load(e, dtype, d) : `(${acc})(${ix})(${load(e, dtype, d)})`);
  runLoop(
    {
      key: "cudeno_correlate",
      name: "cudeno_correlate",
      arrays: [out],
      written: [true],
      pointers: [{ array: x, written: false }, { array: y, written: false }],
      scalars: [
        { value: a.size, dtype: "int64" },
        { value: v.size, dtype: "int64" },
        { value: start - (v.size - 1), dtype: "int64" },
      ],
      statement: ([o], [n, m, shift], index, [p, q]) =>
        `const ${ix} cdn_k = (${ix})(${index}) + ${shift};
    ${acc} cdn_s = 0;
    const ${ix} cdn_lo = cdn_k < 0 ? -cdn_k : 0, cdn_hi = ${n} - cdn_k < ${m} ? ${n} - cdn_k : ${m};
    for (${ix} cdn_j = cdn_lo; cdn_j < cdn_hi; cdn_j++) cdn_s += ${term(`${p}[cdn_k + cdn_j]`)} * ${
          term(`${q}[cdn_j]`)
        };
    ${o} = ${castTo(float ? "cdn_s" : `(${cType(dtype, d)})cdn_s`, dtype, d)};`,
    },
    [length],
    what,
  );
  return out;
}

/**
 * Options of {@link correlate} and {@link convolve}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.ConvolveOptions = { mode: "same" };
 * ```
 */
export interface ConvolveOptions {
  /** The part to return (also by position). Default `"full"` for `convolve`, `"valid"` for `correlate` (NumPy's). */
  readonly mode?: ConvolveMode;
}

function modeOf(args: readonly unknown[], fallback: ConvolveMode, what: string): ConvolveMode {
  const o = optionsOf<ConvolveOptions>(
    what,
    args,
    [{ name: "mode", takes: (v) => typeof v === "string", what: 'the mode ("full", "same" or "valid")' }],
    ["mode"],
    '{ mode: "same" }',
  );
  const m = o.mode ?? fallback;
  if (!MODES.includes(m as ConvolveMode)) {
    throw new TypeError(`Cannot ${what} with mode ${JSON.stringify(m)}: use "full", "same" or "valid"`);
  }
  return m as ConvolveMode;
}

/** The start in the full correlation and the length of `mode`'s part, for lengths `n` and `m`. */
function window(n: number, m: number, mode: ConvolveMode): [number, number] {
  if (mode === "full") return [0, n + m - 1];
  if (mode === "same") return [n >= m ? Math.floor((m - 1) / 2) : Math.floor(n / 2), Math.max(n, m)];
  return [Math.min(n, m) - 1, Math.max(n, m) - Math.min(n, m) + 1];
}

/**
 * The cross-correlation of two 1-D sequences (NumPy's `correlate`): `c[k] = Σ_n a[n + k] · v[n]`,
 * the part of it `mode` names (default `"valid"`, as NumPy's). The dtype is the inputs' common one
 * (integers wrap as NumPy's do; float16 sums in float32).
 *
 * @throws {RangeError} for an input that is empty or not 1-D.
 * @throws {TypeError} for an unknown mode, or bool inputs.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.correlate(ga.asarray([1, 2, 3]), ga.asarray([0, 1, 0.5]), "full");
 * console.log(c.get()); // Float32Array [0.5, 2, 3.5, 3, 0]
 * ```
 */
export function correlate(a: GPUArray, v: GPUArray, mode?: ConvolveMode | ConvolveOptions): GPUArray {
  const what = "correlate";
  const x = checkSignal(a, "a", what), y = checkSignal(v, "v", what);
  const [start, length] = window(x.size, y.size, modeOf([mode], "valid", what));
  return correlated(x, y, start, length, what);
}

/**
 * The discrete linear convolution of two 1-D sequences (NumPy's `convolve`): `(a * v)[k] = Σ_n a[n] ·
 * v[k - n]`, the part of it `mode` names (default `"full"`, as NumPy's); the longer input is the one
 * the shorter slides along.
 *
 * @throws {RangeError} for an input that is empty or not 1-D.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.convolve(ga.asarray([1, 2, 3]), ga.asarray([0, 1, 0.5])).get()); // [0, 1, 2.5, 4, 1.5]
 * console.log(ga.convolve(ga.asarray([1, 2, 3]), ga.asarray([0, 1, 0.5]), "valid").get()); // [2.5]
 * ```
 */
export function convolve(a: GPUArray, v: GPUArray, mode?: ConvolveMode | ConvolveOptions): GPUArray {
  const what = "convolve";
  let x = checkSignal(a, "a", what), y = checkSignal(v, "v", what);
  const m = modeOf([mode], "full", what);
  if (y.size > x.size) [x, y] = [y, x];
  const [start, length] = window(x.size, y.size, m);
  using reversed = flip(y);
  return correlated(x, reversed, start, length, what);
}

/**
 * Options of {@link interp}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.InterpOptions = { left: 0, right: 0 };
 * ```
 */
export interface InterpOptions {
  /** The value below `xp[0]` (default `fp[0]`). */
  readonly left?: number;
  /** The value above `xp[xp.length - 1]` (default its `fp`). */
  readonly right?: number;
  /** The period of periodic coordinates (`left` and `right` are then unused). Default: none. */
  readonly period?: number;
}

/**
 * Piecewise-linear interpolation (NumPy's `interp`): at each of `x` (any shape), the line through the
 * neighbouring points `(xp[j], fp[j])`, `(xp[j + 1], fp[j + 1])`; `xp` must increase (it is not
 * checked, as NumPy does not), or with `period` is taken modulo it. float64, of `x`'s shape; NaN stays
 * NaN.
 *
 * @throws {RangeError} when `xp` and `fp` are not 1-D of one non-zero length, or `period` is 0.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const xp = ga.asarray([1, 2, 3]), fp = ga.asarray([3, 2, 0]);
 * console.log(ga.interp(ga.asarray([0, 1.5, 2.72, 3.14]), xp, fp).get()); // [3, 2.5, 0.56, 0]
 * const y = ga.interp(ga.asarray([0]), xp, fp, { left: -1 }); // [-1]
 * ```
 */
export function interp(x: GPUArray, xp: GPUArray, fp: GPUArray, options?: InterpOptions): GPUArray<"float64">;
/** `interp(x, xp, fp, left, right, period)`, NumPy's positions. */
export function interp(
  x: GPUArray,
  xp: GPUArray,
  fp: GPUArray,
  left: number | undefined,
  right?: number | InterpOptions,
  period?: number | InterpOptions,
  options?: InterpOptions,
): GPUArray<"float64">;
export function interp(x: GPUArray, xp: GPUArray, fp: GPUArray, ...args: unknown[]): GPUArray<"float64"> {
  const what = "interp";
  checkReal(x, what);
  checkReal(xp, `${what} at`);
  checkReal(fp, `${what} between`);
  const options = optionsOf<InterpOptions>(
    what,
    args,
    [numberSlot("left"), numberSlot("right"), numberSlot("period")],
    ["left", "right", "period"],
    "{ left: 0, right: 0 }",
  );
  if (xp.ndim !== 1 || fp.ndim !== 1 || xp.size !== fp.size || xp.size === 0) {
    throw new RangeError(
      `Cannot ${what} with xp of shape ${showShape(xp.shape)} and fp of shape ${
        showShape(fp.shape)
      }: give two 1-D arrays of one length, not empty`,
    );
  }
  const period = options.period;
  if (period !== undefined) {
    if (period === 0 || !Number.isFinite(period)) {
      throw new RangeError(`Cannot ${what} with period ${period}: give a finite non-zero period`);
    }
    const p = Math.abs(period);
    using x64 = astype(x, "float64"), xp64 = astype(xp, "float64"), fp64 = astype(fp, "float64");
    using xm = remainder(x64, p), xpm = remainder(xp64, p);
    using order = argsort(xpm);
    using xs = take(xpm, order), fs = take(fp64, order);
    using xl = slice(xs, [-1, null]),
      xf = slice(xs, [0, 1]),
      fl = slice(fs, [-1, null]),
      ff = slice(fs, [0, 1]);
    using below = sub(xl, p), above = add(xf, p);
    using xe = concatenate([below, xs, above]), fe = concatenate([fl, fs, ff]);
    return interpolate(xm, xe, fe, undefined, undefined);
  }
  using xp64 = astype(xp, "float64"), fp64 = astype(fp, "float64");
  return interpolate(x, xp64, fp64, options.left, options.right);
}

function interpolate(
  x: GPUArray,
  xp: GPUArray,
  fp: GPUArray,
  left: number | undefined,
  right: number | undefined,
): GPUArray<"float64"> {
  const d = x.backend.dialect, ix = targetOf(d).indexType;
  const out = new GPUArray(x.backend, x.shape, "float64");
  runLoop(
    {
      key: "cudeno_interp",
      name: "cudeno_interp",
      arrays: [x, out],
      written: [false, true],
      pointers: [{ array: xp, written: false }, { array: fp, written: false }],
      scalars: [
        { value: xp.size, dtype: "int64" },
        { value: left ?? 0, dtype: "float64" },
        { value: right ?? 0, dtype: "float64" },
        { value: (left === undefined ? 0 : 1) | (right === undefined ? 0 : 2), dtype: "int32" },
      ],
      statement: ([xr, o], [n, lv, rv, given], _index, [xs, fs]) =>
        `const double cdn_v = (double)(${load(xr!, x.dtype, d)});
    double cdn_r;
    if (isnan(cdn_v)) cdn_r = cdn_v;
    else if (cdn_v < ${xs}[0]) cdn_r = (${given} & 1) ? ${lv} : ${fs}[0];
    else if (cdn_v > ${xs}[${n} - 1]) cdn_r = (${given} & 2) ? ${rv} : ${fs}[${n} - 1];
    else if (cdn_v == ${xs}[${n} - 1]) cdn_r = ${fs}[${n} - 1];
    else {
      ${ix} cdn_lo = 0, cdn_hi = ${n} - 1;
      while (cdn_hi - cdn_lo > 1) {
        const ${ix} cdn_mid = (cdn_lo + cdn_hi) / 2;
        if (${xs}[cdn_mid] <= cdn_v) cdn_lo = cdn_mid; else cdn_hi = cdn_mid;
      }
      if (${xs}[cdn_lo] == cdn_v) cdn_r = ${fs}[cdn_lo];
      else {
        const double cdn_slope = (${fs}[cdn_lo + 1] - ${fs}[cdn_lo]) / (${xs}[cdn_lo + 1] - ${xs}[cdn_lo]);
        cdn_r = cdn_slope * (cdn_v - ${xs}[cdn_lo]) + ${fs}[cdn_lo];
        if (isnan(cdn_r)) {
          cdn_r = cdn_slope * (cdn_v - ${xs}[cdn_lo + 1]) + ${fs}[cdn_lo + 1];
          if (isnan(cdn_r) && ${fs}[cdn_lo] == ${fs}[cdn_lo + 1]) cdn_r = ${fs}[cdn_lo];
        }
      }
    }
    ${o} = cdn_r;`,
    },
    x.shape,
    "interp",
  );
  return out;
}
