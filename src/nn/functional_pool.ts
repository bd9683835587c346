/**
 * Pooling of NCHW images (PyTorch's `max_pool2d`, `avg_pool2d`, `adaptive_avg_pool2d`), as array
 * operations: the windows of the max and average pools are strided slices of the padded input (one per
 * kernel offset) combined with `ga.maximum` or added, and the adaptive average is two products with
 * averaging matrices. All differentiate with `ga.grad` and run on every backend.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { maxPoolWindows } from "./max_pool_kernels.ts";
import { floatArg, options, showShape, tupleArg } from "./_check.ts";
import { padSpatial } from "./functional_conv.ts";

/** Options of {@link maxPool2d}. */
export interface MaxPool2dOptions {
  /** The step between windows. Default: the kernel size. */
  readonly stride?: number | readonly number[];
  /** -∞ added on each side, at most half the (dilated) kernel. Default 0. */
  readonly padding?: number | readonly number[];
  /** The spacing between a window's elements. Default 1. */
  readonly dilation?: number | readonly number[];
  /** Round the output size up (a last, partial window that starts inside the input). Default false. */
  readonly ceilMode?: boolean;
}

/** Options of {@link avgPool2d}. */
export interface AvgPool2dOptions {
  /** The step between windows. Default: the kernel size. */
  readonly stride?: number | readonly number[];
  /** Zeros added on each side, at most half the kernel. Default 0. */
  readonly padding?: number | readonly number[];
  /** Round the output size up. Default false. */
  readonly ceilMode?: boolean;
  /** Count the padding zeros in each window's divisor. Default true. */
  readonly countIncludePad?: boolean;
  /** Divide every window's sum by this instead. Default none. */
  readonly divisorOverride?: number | null;
}

/** One pooled axis: input extent, kernel, stride, padding, dilation, and the output extent. */
interface PoolAxis {
  readonly size: number;
  readonly k: number;
  readonly s: number;
  readonly p: number;
  readonly d: number;
  readonly out: number;
}

/** PyTorch's `pooling_output_shape`, per axis, after checking the input and the parameters. */
function poolAxes(
  what: string,
  x: ga.GPUArray,
  kernelSize: unknown,
  o: { stride?: unknown; padding?: unknown; dilation?: unknown; ceilMode?: boolean },
): PoolAxis[] {
  if (x.ndim !== 4) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)}: it must be [N, C, H, W] (or [C, H, W])`,
    );
  }
  const k = tupleArg(kernelSize, 2, what, "kernelSize", 1);
  const s = o.stride === undefined || o.stride === null ? k : tupleArg(o.stride, 2, what, "stride", 1);
  const p = tupleArg(o.padding ?? 0, 2, what, "padding", 0);
  const d = tupleArg(o.dilation ?? 1, 2, what, "dilation", 1);
  return [0, 1].map((i) => {
    const size = x.shape[i + 2]!, span = d[i]! * (k[i]! - 1) + 1;
    if (2 * p[i]! > span) {
      throw new RangeError(
        `Cannot ${what} with padding ${JSON.stringify(o.padding)} and kernelSize ${
          JSON.stringify(kernelSize)
        }: the padding must be at most half the kernel`,
      );
    }
    const room = size + 2 * p[i]! - span;
    let out = (o.ceilMode ? Math.ceil(room / s[i]!) : Math.floor(room / s[i]!)) + 1;
    // The last window must start inside the input or the padding before it.
    if (o.ceilMode && (out - 1) * s[i]! >= size + p[i]!) out--;
    if (room < 0 || out < 1) {
      throw new RangeError(
        `Cannot ${what} an input of shape ${showShape(x.shape)} with kernelSize ${
          JSON.stringify(kernelSize)
        }: the window is larger than the padded input`,
      );
    }
    return { size, k: k[i]!, s: s[i]!, p: p[i]!, d: d[i]!, out };
  });
}

/** The input padded by `value` so that every window of `axes` lies inside it. */
function padded(x: ga.GPUArray, axes: readonly PoolAxis[], value: number): ga.GPUArray {
  const pads = axes.map((a) => {
    const end = (a.out - 1) * a.s + a.d * (a.k - 1) + 1;
    return [a.p, Math.max(a.p, end - a.size - a.p)] as [number, number];
  });
  return padSpatial(x, pads, value);
}

/** The strided slice of `xp` that kernel offset `(i, j)` reads for every output position. */
function window(xp: ga.GPUArray, axes: readonly PoolAxis[], at: readonly number[]): ga.GPUArray {
  return ga.slice(
    xp,
    [],
    [],
    ...axes.map((a, n) => {
      const start = at[n]! * a.d;
      return [start, start + (a.out - 1) * a.s + 1, a.s] as [number, number, number];
    }),
  );
}

/** `f` with an unbatched `[C, H, W]` input given a batch axis and its result's taken off again. */
function batched(x: ga.GPUArray, f: (x: ga.GPUArray) => ga.GPUArray): ga.GPUArray {
  return x.ndim === 3 ? f(x.expandDims(0)).squeeze(0) : f(x);
}

/**
 * 2-D max pooling (PyTorch's `max_pool2d`): the maximum of each `kernelSize` window of an
 * `[N, C, H, W]` (or `[C, H, W]`) input, with `stride` (default the kernel), `padding` (-∞),
 * `dilation` and `ceilMode` as PyTorch's. The gradient goes to the first maximum of each window, and a
 * NaN in a window is its maximum, as in PyTorch.
 *
 * @throws {RangeError} naming the shape or the parameter: a 4-D (or 3-D) input, padding at most half
 *   the kernel, a window no larger than the padded input.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([1, 3, 8, 8], { seed: 1 });
 * const y = nn.maxPool2d(x, 2); // [1, 3, 4, 4]
 * const z = nn.maxPool2d(x, 3, { stride: 2, padding: 1 }); // [1, 3, 4, 4]
 * ```
 */
export function maxPool2d(
  input: ga.GPUArray,
  kernelSize: number | readonly number[],
  opts?: MaxPool2dOptions,
): ga.GPUArray {
  const what = "maxPool2d";
  const o = options(opts, what, "{ stride: 2, padding: 1 }", ["stride", "padding", "dilation", "ceilMode"]);
  return batched(floatArg(input, what, "input"), (x) => {
    const axes = poolAxes(what, x, kernelSize, o);
    // Windows side by side, each input element in at most one: the kernels of max_pool_kernels.ts.
    if (axes.every((a) => a.s === a.k && a.p === 0 && a.d === 1 && a.out * a.k <= a.size)) {
      const [v, h] = axes as [PoolAxis, PoolAxis];
      return maxPoolWindows(x, { h: v.size, w: h.size, kh: v.k, kw: h.k, oh: v.out, ow: h.out });
    }
    const xp = padded(x, axes, -Infinity);
    let y: ga.GPUArray | undefined;
    for (let i = 0; i < axes[0]!.k; i++) {
      for (let j = 0; j < axes[1]!.k; j++) {
        const w = window(xp, axes, [i, j]);
        y = y === undefined ? w : ga.maximum(y, w);
      }
    }
    // A 1×1 window reads the input itself: return an array of its own, as PyTorch does.
    return axes[0]!.k * axes[1]!.k === 1 ? y!.copy() : y!;
  });
}

/** PyTorch's divisor of each avgPool2d window along one axis: the window's length in the padded input, and inside the input. */
function divisors(a: PoolAxis): { padded: number[]; inside: number[] } {
  const padded: number[] = [], inside: number[] = [];
  for (let o = 0; o < a.out; o++) {
    const start = o * a.s - a.p, end = Math.min(start + a.k, a.size + a.p);
    padded.push(end - start);
    inside.push(Math.min(end, a.size) - Math.max(start, 0));
  }
  return { padded, inside };
}

/**
 * 2-D average pooling (PyTorch's `avg_pool2d`): the mean of each `kernelSize` window of an
 * `[N, C, H, W]` (or `[C, H, W]`) input, with zero `padding`, `ceilMode`, `countIncludePad` (count the
 * padding's zeros in the divisor) and `divisorOverride` as PyTorch's.
 *
 * @throws {RangeError} naming the shape or the parameter: a 4-D (or 3-D) input, padding at most half
 *   the kernel, a window no larger than the padded input, a divisorOverride that is not a positive number.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([1, 3, 8, 8], { seed: 1 });
 * const y = nn.avgPool2d(x, 2); // [1, 3, 4, 4]
 * const z = nn.avgPool2d(x, 3, { stride: 2, padding: 1, countIncludePad: false });
 * ```
 */
export function avgPool2d(
  input: ga.GPUArray,
  kernelSize: number | readonly number[],
  opts?: AvgPool2dOptions,
): ga.GPUArray {
  const what = "avgPool2d";
  const o = options(opts, what, "{ stride: 2, padding: 1, countIncludePad: false }", [
    "stride",
    "padding",
    "ceilMode",
    "countIncludePad",
    "divisorOverride",
  ]);
  const override = o.divisorOverride ?? null;
  if (override !== null && !(typeof override === "number" && override > 0 && Number.isFinite(override))) {
    throw new RangeError(`Cannot ${what} with divisorOverride ${String(override)}: pass a number above 0`);
  }
  return batched(floatArg(input, what, "input"), (x) => {
    const axes = poolAxes(what, x, kernelSize, o);
    const xp = padded(x, axes, 0);
    let sum: ga.GPUArray | undefined;
    for (let i = 0; i < axes[0]!.k; i++) {
      for (let j = 0; j < axes[1]!.k; j++) {
        const w = window(xp, axes, [i, j]);
        sum = sum === undefined ? w : sum.add(w);
      }
    }
    if (override !== null) return sum!.div(override);
    const [rows, cols] = axes.map(divisors) as [ReturnType<typeof divisors>, ReturnType<typeof divisors>];
    const pick = o.countIncludePad === false ? "inside" : "padded";
    const table = rows[pick].map((r) => cols[pick].map((c) => r * c));
    return sum!.div(ga.asarray(table, x.dtype));
  });
}

/** The `[out, size]` matrix whose row `i` averages PyTorch's adaptive window `i` of `size` elements. */
function averaging(size: number, out: number, dtype: ga.DType): ga.GPUArray {
  const rows = Array.from({ length: out }, (_, i) => {
    const start = Math.floor((i * size) / out), end = Math.ceil(((i + 1) * size) / out);
    return Array.from({ length: size }, (_, j) => (j >= start && j < end ? 1 / (end - start) : 0));
  });
  return ga.asarray(rows, dtype);
}

/**
 * 2-D adaptive average pooling (PyTorch's `adaptive_avg_pool2d`): the `[N, C, H, W]` (or `[C, H, W]`)
 * input averaged over windows that tile it into `outputSize` (`oh` or `[oh, ow]`; `null` keeps that
 * extent), window `i` of an axis covering `floor(i·H/oh)` up to `ceil((i+1)·H/oh)`. Computed as two
 * products with averaging matrices.
 *
 * @throws {RangeError} naming the shape or the output size.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([2, 8, 7, 9], { seed: 1 });
 * const y = nn.adaptiveAvgPool2d(x, [3, 4]); // [2, 8, 3, 4]
 * const pooled = nn.adaptiveAvgPool2d(x, 1); // global average: [2, 8, 1, 1]
 * ```
 */
export function adaptiveAvgPool2d(
  input: ga.GPUArray,
  outputSize: number | readonly (number | null)[],
): ga.GPUArray {
  const what = "adaptiveAvgPool2d";
  return batched(floatArg(input, what, "input"), (x) => {
    if (x.ndim !== 4) {
      throw new RangeError(
        `Cannot ${what} an input of shape ${showShape(x.shape)}: it must be [N, C, H, W] (or [C, H, W])`,
      );
    }
    const given = typeof outputSize === "number" ? [outputSize, outputSize] : outputSize;
    const [h, w] = [x.shape[2]!, x.shape[3]!];
    const sizes = Array.isArray(given) && given.length === 2
      ? given.map((s, i) => (s === null ? [h, w][i]! : s))
      : undefined;
    if (sizes === undefined || sizes.some((s) => !Number.isInteger(s) || s < 1)) {
      throw new RangeError(
        `Cannot ${what} to outputSize ${
          JSON.stringify(outputSize)
        }: give a positive integer or two (null keeps an extent)`,
      );
    }
    const [oh, ow] = sizes as [number, number];
    const alongW = ga.matmul(x, averaging(w, ow, x.dtype).T);
    return ga.matmul(averaging(h, oh, x.dtype), alongW);
  });
}
