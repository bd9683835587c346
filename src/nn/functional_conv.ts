/**
 * Convolutions (PyTorch's `conv1d`, `conv2d`), channels first, as im2col over array operations: the
 * input is padded (`ga.pad`), each kernel offset reads a strided slice of it (a view), the slices are
 * stacked into columns, and one batched matrix product with the weight makes the output. Every step
 * has a gradient rule, so the convolution differentiates with `ga.grad` and runs on every backend; on
 * CUDA the product is cuBLAS. Where the backend has a neural-network library (cuDNN on CUDA, while
 * `nn.cudnn.enabled`), a convolution of one float dtype runs there instead (`cudnn_conv.ts`).
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { floatArg, optionalFloat, options, showShape, tupleArg } from "./_check.ts";
import { dnnConv, useDnn } from "./cudnn_conv.ts";
import { forProduct } from "./autocast.ts";

/** Options of {@link conv1d} and {@link conv2d}. */
export interface ConvOptions {
  /** The step between windows, per spatial axis or one for all. Default 1. */
  readonly stride?: number | readonly number[];
  /**
   * Zeros added before and after each spatial axis (one number or one per axis), `"valid"` (none) or
   * `"same"` (the output as large as the input; stride 1 only; an odd total puts the extra zero after,
   * as PyTorch). Default 0.
   */
  readonly padding?: number | readonly number[] | "valid" | "same";
  /** The spacing between kernel elements. Default 1. */
  readonly dilation?: number | readonly number[];
  /** Splits the input and output channels into this many independent groups. Default 1. */
  readonly groups?: number;
}

const CONV_OPTIONS = ["stride", "padding", "dilation", "groups"];

/** The checked geometry of one convolution. */
export interface ConvGeometry {
  /** The padding before and after each spatial axis. */
  readonly pads: readonly (readonly [number, number])[];
  readonly stride: readonly number[];
  readonly dilation: readonly number[];
  readonly kernel: readonly number[];
  /** The output's spatial extents. */
  readonly out: readonly number[];
}

/**
 * `x` (`[N, C, ...spatial]`, already padded) as columns `[N, C, K, ...out]`, `K` the kernel's elements in
 * C order: column `k` holds the elements that kernel offset `k` multiplies, for every output position.
 */
export function im2col(
  x: ga.GPUArray,
  kernel: readonly number[],
  stride: readonly number[],
  dilation: readonly number[],
  out: readonly number[],
): ga.GPUArray {
  const offsets: number[][] = [[]];
  for (const k of kernel) {
    const next: number[][] = [];
    for (const o of offsets) for (let i = 0; i < k; i++) next.push([...o, i]);
    offsets.splice(0, offsets.length, ...next);
  }
  const windows = offsets.map((at) =>
    ga.slice(
      x,
      [],
      [],
      ...at.map((i, a) => {
        const start = i * dilation[a]!;
        return [start, start + (out[a]! - 1) * stride[a]! + 1, stride[a]!] as [number, number, number];
      }),
    )
  );
  return ga.stack(windows, 2);
}

/** `x` with `pads` zeros before and after each spatial axis (axes 2 onwards); a negative count crops. */
export function padSpatial(
  x: ga.GPUArray,
  pads: readonly (readonly [number, number])[],
  value = 0,
): ga.GPUArray {
  let y = x;
  if (pads.some(([a, b]) => a < 0 || b < 0)) {
    y = ga.slice(
      y,
      [],
      [],
      ...pads.map(([a, b], i) => [Math.max(0, -a), x.shape[i + 2]! - Math.max(0, -b)] as [number, number]),
    );
  }
  if (pads.every(([a, b]) => a <= 0 && b <= 0)) return y;
  const widths: [number, number][] = [
    [0, 0],
    [0, 0],
    ...pads.map(([a, b]) => [Math.max(0, a), Math.max(0, b)] as [number, number]),
  ];
  return ga.pad(y, widths, { constantValues: value });
}

/** Checks a convolution's input and weight and works out its geometry (`nd` spatial axes). */
function geometry(
  what: string,
  x: ga.GPUArray,
  w: ga.GPUArray,
  o: Partial<ConvOptions>,
  nd: number,
): ConvGeometry & { groups: number } {
  const axes = nd === 1 ? "[N, C, L]" : "[N, C, H, W]";
  if (x.ndim !== nd + 2) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)}: it must be ${axes} (or without N)`,
    );
  }
  if (w.ndim !== nd + 2) {
    throw new RangeError(
      `Cannot ${what} with weight of shape ${
        showShape(w.shape)
      }: it must be [outChannels, inChannels / groups, ${nd === 1 ? "kL" : "kH, kW"}]`,
    );
  }
  const groups = o.groups ?? 1;
  const c = x.shape[1]!, [outChannels, perGroup] = w.shape as [number, number];
  if (!Number.isInteger(groups) || groups < 1 || c % groups !== 0 || outChannels % groups !== 0) {
    throw new RangeError(
      `Cannot ${what} with groups ${groups}: the input's ${c} channels and the weight's ${outChannels} output channels must both split evenly into the groups`,
    );
  }
  if (perGroup !== c / groups) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} with weight of shape ${
        showShape(w.shape)
      }: the weight's second extent must be inChannels / groups = ${c / groups}`,
    );
  }
  const kernel = w.shape.slice(2);
  const stride = tupleArg(o.stride ?? 1, nd, what, "stride", 1);
  const dilation = tupleArg(o.dilation ?? 1, nd, what, "dilation", 1);
  const span = kernel.map((k, i) => dilation[i]! * (k - 1));
  let pads: [number, number][];
  const padding = o.padding ?? 0;
  if (padding === "valid") pads = span.map(() => [0, 0]);
  else if (padding === "same") {
    if (stride.some((s) => s !== 1)) {
      throw new RangeError(
        `Cannot ${what} with padding "same" and stride ${JSON.stringify(o.stride)}: "same" needs stride 1`,
      );
    }
    pads = span.map((t) => [Math.floor(t / 2), t - Math.floor(t / 2)]);
  } else pads = tupleArg(padding, nd, what, "padding", 0).map((p) => [p, p]);
  const out = x.shape.slice(2).map((d, i) =>
    Math.floor((d + pads[i]![0] + pads[i]![1] - span[i]! - 1) / stride[i]!) + 1
  );
  if (out.some((d) => d < 1)) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} with a kernel of ${
        showShape(kernel)
      } (dilation ${showShape(dilation)}, padding ${
        JSON.stringify(padding)
      }): the padded input is smaller than the kernel`,
    );
  }
  return { pads, stride, dilation, kernel, out, groups };
}

/**
 * A convolution with `nd` spatial axes: `x` `[N, C, ...]` (or unbatched), weight `[O, C/groups, ...k]`,
 * bias `[O]`.
 */
export function convolution(
  what: string,
  input: ga.GPUArray,
  weight: ga.GPUArray,
  bias: ga.GPUArray | null | undefined,
  opts: ConvOptions | undefined,
  nd: number,
): ga.GPUArray {
  let x = forProduct(floatArg(input, what, "input"));
  const w = forProduct(floatArg(weight, what, "weight"));
  const b = forProduct(optionalFloat(bias, what, "bias"));
  const o = options(opts, what, '{ stride: 2, padding: "same" }', CONV_OPTIONS);
  const unbatched = x.ndim === nd + 1;
  if (unbatched) x = x.expandDims(0);
  const g = geometry(what, x, w, o, nd);
  const [n, c] = x.shape as [number, number];
  const outChannels = w.shape[0]!;
  if (b !== undefined && (b.ndim !== 1 || b.shape[0] !== outChannels)) {
    throw new RangeError(`Cannot ${what}: bias has shape ${showShape(b.shape)}; it must be [${outChannels}]`);
  }
  const dnn = useDnn(x, w);
  if (dnn !== undefined) {
    // The library pads both sides of an axis alike: the extra zeros of an odd "same" go in first.
    const extra = g.pads.map(([before, after]) => [0, after - before] as [number, number]);
    const padded = extra.some(([, e]) => e !== 0) ? padSpatial(x, extra) : x;
    const two = <T>(v: readonly T[], one: T) => (nd === 1 ? [one, v[0]!] : [v[0]!, v[1]!]) as [T, T];
    const as2d = (a: ga.GPUArray) => (nd === 1 ? a.reshape([a.shape[0]!, a.shape[1]!, 1, a.shape[2]!]) : a);
    let y = dnnConv(dnn, as2d(padded), as2d(w), {
      pad: two(g.pads.map(([before]) => before), 0),
      stride: two(g.stride, 1),
      dilation: two(g.dilation, 1),
      groups: g.groups,
    });
    if (nd === 1) y = y.reshape([n, outChannels, g.out[0]!]);
    if (b !== undefined) y = y.add(b.reshape([outChannels, ...g.out.map(() => 1)]));
    return unbatched ? y.squeeze(0) : y;
  }
  const cols = im2col(padSpatial(x, g.pads), g.kernel, g.stride, g.dilation, g.out);
  const positions = g.out.reduce((p, d) => p * d, 1);
  const k = g.kernel.reduce((p, d) => p * d, 1);
  const grouped = cols.reshape([n, g.groups, (c / g.groups) * k, positions]);
  const kernels = w.reshape([g.groups, outChannels / g.groups, (c / g.groups) * k]);
  let y = ga.matmul(kernels, grouped).reshape([n, outChannels, ...g.out]);
  if (b !== undefined) y = y.add(b.reshape([outChannels, ...g.out.map(() => 1)]));
  return unbatched ? y.squeeze(0) : y;
}

/**
 * A 1-D convolution (PyTorch's `conv1d`, a cross-correlation): `input` `[N, C, L]` (or `[C, L]`),
 * `weight` `[outChannels, C / groups, kL]`, `bias` `[outChannels]`; the result is `[N, outChannels,
 * L']`, `L' = floor((L + padding·2 - dilation·(kL - 1) - 1) / stride) + 1`.
 *
 * @throws {RangeError} naming the shapes and the parameter when they do not fit (channels, groups, a
 *   kernel larger than the padded input, "same" with a stride).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([2, 4, 16], { seed: 1 }), w = ga.random.normal([8, 4, 3], { seed: 2 });
 * const y = nn.conv1d(x, w, null, { padding: "same" }); // shape [2, 8, 16]
 * ```
 */
export function conv1d(
  input: ga.GPUArray,
  weight: ga.GPUArray,
  bias?: ga.GPUArray | null,
  opts?: ConvOptions,
): ga.GPUArray {
  return convolution("conv1d", input, weight, bias, opts, 1);
}

/**
 * A 2-D convolution of NCHW images (PyTorch's `conv2d`, a cross-correlation): `input` `[N, C, H, W]`
 * (or `[C, H, W]`), `weight` `[outChannels, C / groups, kH, kW]`, `bias` `[outChannels]`, with `stride`,
 * `padding` (numbers, `"valid"` or `"same"`), `dilation` and `groups` as PyTorch's; the result is
 * `[N, outChannels, H', W']`.
 *
 * @throws {RangeError} naming the shapes and the parameter when they do not fit (channels, groups, a
 *   kernel larger than the padded input, "same" with a stride).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([2, 3, 8, 8], { seed: 1 });
 * const w = ga.random.normal([4, 3, 3, 3], { seed: 2 }), b = ga.zeros([4]);
 * const y = nn.conv2d(x, w, b, { stride: 2, padding: 1 }); // shape [2, 4, 4, 4]
 * const depthwise = nn.conv2d(x, ga.ones([3, 1, 3, 3]), null, { padding: "same", groups: 3 });
 * ```
 */
export function conv2d(
  input: ga.GPUArray,
  weight: ga.GPUArray,
  bias?: ga.GPUArray | null,
  opts?: ConvOptions,
): ga.GPUArray {
  return convolution("conv2d", input, weight, bias, opts, 2);
}
