/**
 * The transposed convolution (PyTorch's `conv_transpose2d`, the gradient of `conv2d` with respect to
 * its input): the input spread out by the stride (zeros between its elements, by reshapes and a pad),
 * padded by `dilation·(k - 1) - padding`, and convolved with stride 1 by the weight flipped in space
 * and with its channel axes exchanged. Array operations throughout, so it differentiates with
 * `ga.grad` and runs on every backend.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { floatArg, optionalFloat, options, showShape, tupleArg } from "./_check.ts";
import { convolution, padSpatial } from "./functional_conv.ts";

/** Options of {@link convTranspose2d}. */
export interface ConvTransposeOptions {
  /** The step of the convolution this one transposes, per axis or one for both. Default 1. */
  readonly stride?: number | readonly number[];
  /** That convolution's zero padding: `dilation·(k - 1) - padding` is added around the spread input. Default 0. */
  readonly padding?: number | readonly number[];
  /** Extra rows and columns added after the output, below `max(stride, dilation)`. Default 0. */
  readonly outputPadding?: number | readonly number[];
  /** Splits the channels into independent groups. Default 1. */
  readonly groups?: number;
  /** The spacing between kernel elements. Default 1. */
  readonly dilation?: number | readonly number[];
}

/** `x` (`[N, C, ...spatial]`) with `s - 1` zeros between neighbours along each spatial axis. */
function spread(x: ga.GPUArray, stride: readonly number[]): ga.GPUArray {
  if (stride.every((s) => s === 1)) return x;
  const [n, c] = x.shape as [number, number];
  const spatial = x.shape.slice(2);
  const split = x.reshape([n, c, ...spatial.flatMap((d) => [d, 1])]);
  const widths: [number, number][] = [
    [0, 0],
    [0, 0],
    ...stride.flatMap((s) => [[0, 0], [0, s - 1]] as [number, number][]),
  ];
  const filled = ga.pad(split, widths).reshape([n, c, ...spatial.map((d, i) => d * stride[i]!)]);
  return ga.slice(
    filled,
    [],
    [],
    ...spatial.map((d, i) => [0, (d - 1) * stride[i]! + 1] as [number, number]),
  );
}

/**
 * A 2-D transposed convolution (PyTorch's `conv_transpose2d`): `input` `[N, inChannels, H, W]` (or
 * `[inChannels, H, W]`), `weight` `[inChannels, outChannels / groups, kH, kW]` (PyTorch's layout),
 * `bias` `[outChannels]`; the output is `[N, outChannels, H', W']` with
 * `H' = (H - 1)·stride - 2·padding + dilation·(kH - 1) + outputPadding + 1`.
 *
 * @throws {RangeError} naming the shapes or the parameter when they do not fit (channels, groups, an
 *   `outputPadding` not below the stride or dilation, an empty output).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const x = ga.random.normal([1, 4, 5, 5], { seed: 1 }), w = ga.random.normal([4, 2, 3, 3], { seed: 2 });
 * const up = nn.convTranspose2d(x, w, null, { stride: 2, padding: 1, outputPadding: 1 }); // [1, 2, 10, 10]
 * ```
 */
export function convTranspose2d(
  input: ga.GPUArray,
  weight: ga.GPUArray,
  bias?: ga.GPUArray | null,
  opts?: ConvTransposeOptions,
): ga.GPUArray {
  const what = "convTranspose2d";
  let x = floatArg(input, what, "input");
  const w = floatArg(weight, what, "weight");
  const b = optionalFloat(bias, what, "bias");
  const o = options(opts, what, "{ stride: 2, padding: 1, outputPadding: 1 }", [
    "stride",
    "padding",
    "outputPadding",
    "groups",
    "dilation",
  ]);
  const unbatched = x.ndim === 3;
  if (unbatched) x = x.expandDims(0);
  if (x.ndim !== 4) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)}: it must be [N, C, H, W] (or [C, H, W])`,
    );
  }
  if (w.ndim !== 4) {
    throw new RangeError(
      `Cannot ${what} with weight of shape ${
        showShape(w.shape)
      }: it must be [inChannels, outChannels / groups, kH, kW]`,
    );
  }
  const groups = o.groups ?? 1;
  const c = x.shape[1]!, [inChannels, perGroup, kh, kw] = w.shape as [number, number, number, number];
  if (!Number.isInteger(groups) || groups < 1 || inChannels % groups !== 0) {
    throw new RangeError(
      `Cannot ${what} with groups ${groups}: the weight's ${inChannels} input channels must split evenly into the groups`,
    );
  }
  if (c !== inChannels) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} with weight of shape ${
        showShape(w.shape)
      }: the input's ${c} channels must be the weight's first extent`,
    );
  }
  const stride = tupleArg(o.stride ?? 1, 2, what, "stride", 1);
  const padding = tupleArg(o.padding ?? 0, 2, what, "padding", 0);
  const dilation = tupleArg(o.dilation ?? 1, 2, what, "dilation", 1);
  const extra = tupleArg(o.outputPadding ?? 0, 2, what, "outputPadding", 0);
  extra.forEach((e, i) => {
    if (e >= Math.max(stride[i]!, dilation[i]!)) {
      throw new RangeError(
        `Cannot ${what} with outputPadding ${
          JSON.stringify(o.outputPadding)
        }: it must be below the stride or the dilation (${Math.max(stride[i]!, dilation[i]!)} along axis ${
          i + 2
        })`,
      );
    }
  });
  const kernel = [kh, kw];
  const size = x.shape.slice(2).map((d, i) =>
    (d - 1) * stride[i]! - 2 * padding[i]! + dilation[i]! * (kernel[i]! - 1) + extra[i]! + 1
  );
  if (size.some((d) => d < 1)) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} with padding ${
        showShape(padding)
      }: the output would be ${showShape(size)}`,
    );
  }
  const pads = kernel.map((k, i) => {
    const p = dilation[i]! * (k - 1) - padding[i]!;
    return [p, p + extra[i]!] as [number, number];
  });
  const spreadOut = padSpatial(spread(x, stride), pads);
  // [G·Cg, Og, kh, kw] → [G, Og, Cg, kh, kw], flipped in space → [G·Og, Cg, kh, kw].
  const cg = inChannels / groups;
  const flipped = w.reshape([groups, cg, perGroup, kh, kw]).transpose([0, 2, 1, 3, 4]).flip([3, 4])
    .reshape([groups * perGroup, cg, kh, kw]);
  const y = convolution(what, spreadOut, flipped, b, { dilation, groups }, 2);
  return unbatched ? y.squeeze(0) : y;
}
