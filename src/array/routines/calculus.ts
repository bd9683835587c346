/**
 * Finite differences and integrals, NumPy style: `gradient` (second-order central differences inside,
 * first- or second-order one-sided ones at the ends, on uniform or given coordinates) and `trapezoid`
 * (the trapezoidal rule), as elementwise work over views of shifted slices.
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes, normalizeAxis, showShape } from "../core/layout.ts";
import { checkOptions } from "../../kernel/options.ts";
import { AXIS, numberSlot, optionsOf } from "../core/axis_args.ts";
import { sum } from "../api/reductions.ts";
import { diff } from "../ops/scan.ts";
import { assign, astype } from "../ops/assign.ts";
import { reshape, slice } from "../ops/views.ts";
import { add, div, mul, sub } from "../api/elementwise.ts";
import { at } from "./along.ts";
import { checkArray } from "../ops/sorting.ts";

const isFloat = (d: DType) => DTYPES[d].kind === "float";

/**
 * Options of {@link trapezoid}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.TrapezoidOptions = { dx: 0.5, axis: 0 };
 * ```
 */
export interface TrapezoidOptions {
  /** The samples' coordinates (also by position): 1-D of the axis's length, or `y`'s shape. Default: evenly spaced by `dx`. */
  readonly x?: GPUArray;
  /** The spacing of the samples where no `x` is given (default 1). */
  readonly dx?: number;
  /** The axis to integrate along (default -1, the last). */
  readonly axis?: number;
}

/**
 * The integral of `y` along an axis by the trapezoidal rule (NumPy's `trapezoid`): the samples at the
 * coordinates `x` (1-D of the axis's length, or `y`'s shape), else `dx` apart. A 1-D `y` gives a host
 * number, more dimensions an array without the axis.
 *
 * @throws {RangeError} for coordinates of another shape.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.trapezoid(ga.asarray([1, 2, 3]))); // 4
 * console.log(ga.trapezoid(ga.asarray([1, 2, 3]), ga.asarray([4, 6, 8]))); // 8
 * const rows = ga.trapezoid(ga.ones([2, 5]), { dx: 0.25 }); // [1, 1]
 * ```
 */
export function trapezoid(y: GPUArray, options?: TrapezoidOptions): GPUArray | number;
/** `trapezoid(y, x, dx, axis)`, NumPy's positions, then the other options. */
export function trapezoid(
  y: GPUArray,
  x: GPUArray | undefined,
  dx?: number | TrapezoidOptions,
  axis?: number | TrapezoidOptions,
  options?: TrapezoidOptions,
): GPUArray | number;
export function trapezoid(y: GPUArray, ...args: unknown[]): GPUArray | number {
  checkArray(y, "trapezoid");
  const options = optionsOf<TrapezoidOptions>(
    "trapezoid",
    args,
    [
      { name: "x", takes: (v) => v instanceof GPUArray, what: "the coordinates (a GPUArray)" },
      numberSlot("dx"),
      AXIS,
    ],
    ["x", "dx", "axis"],
    "{ dx: 0.5 }",
  );
  const x = options.x;
  const ax = normalizeAxis(options.axis ?? -1, y.ndim, "trapezoid");
  const n = y.shape[ax]!;
  let d: GPUArray | number = options.dx ?? 1;
  if (x !== undefined) {
    checkArray(x, "trapezoid with coordinates");
    if (x.ndim === 1 && x.size === n) {
      using dx = diff(x);
      d = reshape(dx, y.shape.map((e, k) => (k === ax ? Math.max(e - 1, 0) : 1)));
    } else if (x.ndim === y.ndim && x.shape.every((e, k) => e === y.shape[k])) d = diff(x, 1, ax);
    else {
      throw new RangeError(
        `Cannot trapezoid samples of shape ${showShape(y.shape)} at coordinates of shape ${
          showShape(x.shape)
        }: give 1-D coordinates of length ${n}, or the samples' shape`,
      );
    }
  }
  using hi = slice(y, ...at(y.ndim, ax, [1, null])), lo = slice(y, ...at(y.ndim, ax, [null, -1]));
  using pair = add(hi, lo);
  using scaled = mul(pair, d);
  using area = div(scaled, 2);
  if (d instanceof GPUArray) d.free();
  return y.ndim === 1 ? Number(sum(area)) : sum(area, ax);
}

/**
 * Options of {@link gradient}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.GradientOptions = { axis: 0, edgeOrder: 2 };
 * ```
 */
export interface GradientOptions {
  /** The axis (a number) or axes (a list) to differentiate along; absent: every axis. Default: every axis. */
  readonly axis?: number | readonly number[];
  /** The order of the one-sided differences at the ends: 1 (default) or 2. */
  readonly edgeOrder?: 1 | 2;
}

/** The spacing along one axis: a step, or the samples' coordinates (1-D, the axis's length). */
type Spacing = number | GPUArray;

/** The elements of `f` at `[from, to)` along `ax` (a view). */
function part(f: GPUArray, ax: number, from: number | null, to: number | null): GPUArray {
  return slice(f, ...at(f.ndim, ax, [from, to]));
}

/** `coefficients` (host numbers) as an array that broadcasts along axis `ax` of an `ndim`-array. */
function along(f: GPUArray, ax: number, values: readonly number[], dtype: "float32" | "float64"): GPUArray {
  const host = dtype === "float64" ? Float64Array.from(values) : Float32Array.from(values);
  const shape = f.shape.map((_, k) => (k === ax ? values.length : 1));
  return new GPUArray(f.backend, shape, dtype).set(host);
}

/** `Σ c_k · f_k` for coefficient arrays (or numbers) `c` and views `f`. */
function combine(c: readonly (GPUArray | number)[], f: readonly GPUArray[]): GPUArray {
  let total: GPUArray | undefined;
  c.forEach((ck, k) => {
    using term = mul(f[k]!, ck);
    const next = total === undefined ? term.copy() : add(total, term);
    total?.free();
    total = next;
  });
  return total!;
}

/** The gradient of `f` (of its own float dtype) along `ax`, written into `out`. */
function gradientAlong(f: GPUArray, out: GPUArray, ax: number, h: Spacing, edgeOrder: 1 | 2): void {
  const n = f.shape[ax]!;
  const v = (from: number | null, to: number | null) => part(f, ax, from, to);
  const o = (from: number | null, to: number | null) => part(out, ax, from, to);
  let dx: number | number[] = h as number, ctype: "float32" | "float64" = "float64";
  if (h instanceof GPUArray) {
    const xs = Array.from(h.get() as ArrayLike<number | bigint>, Number);
    const steps = xs.slice(1).map((x, i) => x - xs[i]!);
    ctype = h.dtype === "float32" || h.dtype === "float16" || h.dtype === "bfloat16" ? "float32" : "float64";
    const r = ctype === "float32" ? Math.fround : (x: number) => x;
    dx = steps.every((s) => s === steps[0]) ? r(steps[0]!) : steps.map(r);
  }
  using interior = o(1, -1), f0 = v(null, -2), f1 = v(1, -1), f2 = v(2, null);
  using first = o(0, 1), last = o(n - 1, null);
  using a0 = v(0, 1),
    a1 = v(1, 2),
    a2 = v(2, 3),
    z0 = v(n - 3, n - 2),
    z1 = v(n - 2, n - 1),
    z2 = v(n - 1, n);
  if (typeof dx === "number") {
    using centred = sub(f2, f0);
    using inner = div(centred, 2 * dx);
    assign(interior, inner);
    if (edgeOrder === 1) {
      using d0 = sub(a1, a0), d1 = sub(z2, z1);
      using e0 = div(d0, dx), e1 = div(d1, dx);
      assign(first, e0);
      assign(last, e1);
    } else {
      using e0 = combine([-1.5 / dx, 2 / dx, -0.5 / dx], [a0, a1, a2]);
      using e1 = combine([0.5 / dx, -2 / dx, 1.5 / dx], [z0, z1, z2]);
      assign(first, e0);
      assign(last, e1);
    }
    return;
  }
  const s = dx;
  const d1 = s.slice(0, -1), d2 = s.slice(1);
  using ca = along(f, ax, d1.map((p, i) => -d2[i]! / (p * (p + d2[i]!))), ctype);
  using cb = along(f, ax, d1.map((p, i) => (d2[i]! - p) / (p * d2[i]!)), ctype);
  using cc = along(f, ax, d1.map((p, i) => p / (d2[i]! * (p + d2[i]!))), ctype);
  using inner = combine([ca, cb, cc], [f0, f1, f2]);
  assign(interior, inner);
  const m = s.length;
  if (edgeOrder === 1) {
    using g0 = sub(a1, a0), g1 = sub(z2, z1);
    using e0 = div(g0, s[0]!), e1 = div(g1, s[m - 1]!);
    assign(first, e0);
    assign(last, e1);
    return;
  }
  const [p, q] = [s[0]!, s[1]!], [u, w] = [s[m - 2]!, s[m - 1]!];
  using e0 = combine([-(2 * p + q) / (p * (p + q)), (p + q) / (p * q), -p / (q * (p + q))], [a0, a1, a2]);
  using e1 = combine([w / (u * (u + w)), -(w + u) / (u * w), (2 * w + u) / (w * (u + w))], [z0, z1, z2]);
  assign(first, e0);
  assign(last, e1);
}

/**
 * The gradient of the samples `f` (NumPy's `gradient`): second-order central differences inside,
 * one-sided differences of order `edgeOrder` at the ends, along every axis (an array per axis) or
 * those in `axis` (one array for one axis). `spacing` gives the step along every axis, or one per
 * axis: a number, or the samples' coordinates (1-D, of the axis's length; equal steps count as one
 * step). Floats keep their dtype, integers give float64.
 *
 * @throws {RangeError} for an axis shorter than `edgeOrder + 1`, or spacings that do not match the axes.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log((ga.gradient(ga.asarray([1, 2, 4, 7, 11])) as ga.GPUArray).get()); // [1, 1.5, 2.5, 3.5, 4]
 * const [dy, dx] = ga.gradient(ga.asarray([[1, 2, 6], [3, 4, 5]])) as ga.GPUArray[];
 * const g = ga.gradient(ga.asarray([1, 4, 9]), ga.asarray([0, 1, 3]), { edgeOrder: 2 });
 * ```
 */
export function gradient(
  f: GPUArray,
  ...spacing: (number | GPUArray | GradientOptions)[]
): GPUArray | GPUArray[] {
  checkArray(f, "take the gradient of");
  const last = spacing[spacing.length - 1];
  const options = last !== undefined && typeof last === "object" && !(last instanceof GPUArray)
    ? (spacing.pop() as GradientOptions)
    : undefined;
  checkOptions(options, "gradient", "{ axis: 0, edgeOrder: 2 }", ["axis", "edgeOrder"]);
  const axes = normalizeAxes(options?.axis, f.ndim, "gradient");
  const edgeOrder = options?.edgeOrder ?? 1;
  if (edgeOrder !== 1 && edgeOrder !== 2) {
    throw new RangeError(`Cannot take the gradient with edgeOrder ${edgeOrder}: use 1 or 2`);
  }
  const steps = spacing as Spacing[];
  if (steps.length !== 0 && steps.length !== 1 && steps.length !== axes.length) {
    throw new RangeError(
      `Cannot take the gradient along ${axes.length} axes with ${steps.length} spacings: give none, one, or one per axis`,
    );
  }
  const single = steps.length === 1 && typeof steps[0] === "number";
  if (steps.length === 1 && !single && axes.length !== 1) {
    throw new RangeError(
      "Cannot take the gradient along several axes with one array of coordinates: give one per axis",
    );
  }
  const dtype: DType = isFloat(f.dtype) ? f.dtype : "float64";
  using x = astype(f, dtype);
  const out = axes.map((ax, k) => {
    const n = f.shape[ax]!;
    if (n < edgeOrder + 1) {
      throw new RangeError(
        `Cannot take the gradient along axis ${ax} of an array of shape ${
          showShape(f.shape)
        }: it needs at least ${edgeOrder + 1} elements along it`,
      );
    }
    const h = steps.length === 0 ? 1 : steps[single ? 0 : k]!;
    if (h instanceof GPUArray && (h.ndim !== 1 || h.size !== n)) {
      throw new RangeError(
        `Cannot take the gradient along axis ${ax} with coordinates of shape ${
          showShape(h.shape)
        }: give 1-D coordinates of length ${n}`,
      );
    }
    const g = new GPUArray(f.backend, f.shape, dtype);
    gradientAlong(x, g, ax, h, edgeOrder);
    return g;
  });
  return out.length === 1 ? out[0]! : out;
}
