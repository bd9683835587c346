/**
 * Convolutions on the backend's neural-network library (cuDNN on CUDA): the forward convolution and the
 * two products of its backward pass as three operations, each recording its vector-Jacobian rule in
 * terms of the other two (all three are bilinear), so the gradient of a cuDNN convolution is cuDNN
 * convolutions, and so are its higher derivatives. `functional_conv.ts` sends a convolution here when
 * {@link useDnn} says so, else to its own im2col kernels.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { record } from "../array/grad/tape.ts";
import type { ConvDescription, Dnn, DnnOperand } from "../device/dnn.ts";
import { libcudnn } from "../../ffi/cudnn.ts";

/**
 * Where convolutions run on CUDA (PyTorch's `torch.backends.cudnn`): `enabled` (default true) sends them
 * to cuDNN where it loads, else to cudeno's own kernels; `allowTf32` (default true, as PyTorch) lets
 * float32 convolutions run on tensor cores in TF32 (10-bit mantissa products, float32 sums); set it to
 * false for full float32 products. `isAvailable()` says whether cuDNN loads, and `problem()`, where it
 * does not, why: the message names the library and every path tried.
 *
 * @example
 * ```ts
 * import * as nn from "@cudeno/cudeno/nn";
 * if (!nn.cudnn.isAvailable()) console.log(nn.cudnn.problem());
 * nn.cudnn.allowTf32 = false; // exact float32 convolutions
 * ```
 */
export const cudnn: {
  enabled: boolean;
  allowTf32: boolean;
  isAvailable(): boolean;
  problem(): string | undefined;
} = {
  enabled: true,
  allowTf32: true,
  isAvailable: () => libcudnn.available(),
  problem(): string | undefined {
    try {
      libcudnn.load();
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  },
};

/** The geometry of a 2-D convolution, padding the same on both sides of each axis. */
export interface DnnGeometry {
  readonly pad: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly dilation: readonly [number, number];
  readonly groups: number;
}

/** The library that runs a convolution of `x` by `w`, where one does (the same float dtype, one it takes). */
export function useDnn(x: ga.GPUArray, w: ga.GPUArray): Dnn | undefined {
  if (!cudnn.enabled || x.backend !== w.backend || x.dtype !== w.dtype) return undefined;
  const dnn = x.backend.dnn;
  return dnn !== undefined && dnn.dtypes.includes(x.dtype) ? dnn : undefined;
}

const four = (s: readonly number[]) => s as unknown as readonly [number, number, number, number];

function describe(
  g: DnnGeometry,
  x: readonly number[],
  w: readonly number[],
  y: readonly number[],
  dtype: ga.DType,
) {
  return {
    dtype,
    x: four(x),
    w: four(w),
    y: four(y),
    pad: g.pad,
    stride: g.stride,
    dilation: g.dilation,
    groups: g.groups,
    tf32: cudnn.allowTf32,
  } satisfies ConvDescription;
}

/** `a` contiguous, in `dtype` (a gradient may come strided, or broadcast, or in another float dtype). */
function operand(a: ga.GPUArray, dtype: ga.DType): [ga.GPUArray, DnnOperand] {
  const c = ga.ascontiguousarray(a.dtype === dtype ? a : a.astype(dtype));
  return [c, { buffer: c.buffer, offset: c.offset }];
}

/** The output extents of a convolution of `x` `[N, C, H, W]` by `w` `[K, C/g, kH, kW]`. */
function outShape(g: DnnGeometry, x: readonly number[], w: readonly number[]): number[] {
  return [
    x[0]!,
    w[0]!,
    ...[0, 1].map((i) =>
      Math.floor((x[2 + i]! + 2 * g.pad[i]! - g.dilation[i]! * (w[2 + i]! - 1) - 1) / g.stride[i]!) + 1
    ),
  ];
}

/** `conv(x, w)` on `dnn`, `x` `[N, C, H, W]`, `w` `[K, C/groups, kH, kW]`. */
export function dnnConv(dnn: Dnn, x: ga.GPUArray, w: ga.GPUArray, g: DnnGeometry): ga.GPUArray {
  const [xc, xo] = operand(x, x.dtype), [wc, wo] = operand(w, x.dtype);
  const y = new ga.GPUArray(x.backend, outShape(g, x.shape, w.shape), x.dtype);
  dnn.convForward(describe(g, xc.shape, wc.shape, y.shape, x.dtype), xo, wo, { buffer: y.buffer, offset: 0 });
  record("conv2d", [xc, wc], y, (dy, c) => [
    c.need[0] ? dnnConvInput(dnn, dy, wc, xc.shape, g) : undefined,
    c.need[1] ? dnnConvWeight(dnn, xc, dy, wc.shape, g) : undefined,
  ]);
  return y;
}

/** The gradient of a convolution's input `[N, C, H, W]` (`xShape`) from its output's gradient `dy` and `w`. */
export function dnnConvInput(
  dnn: Dnn,
  dy: ga.GPUArray,
  w: ga.GPUArray,
  xShape: readonly number[],
  g: DnnGeometry,
): ga.GPUArray {
  const [wc, wo] = operand(w, w.dtype), [dyc, dyo] = operand(dy, w.dtype);
  const dx = new ga.GPUArray(w.backend, xShape, w.dtype);
  dnn.convBackwardData(describe(g, xShape, wc.shape, dyc.shape, w.dtype), wo, dyo, {
    buffer: dx.buffer,
    offset: 0,
  });
  record("conv2d's input gradient", [dyc, wc], dx, (h, c) => [
    c.need[0] ? dnnConv(dnn, h, wc, g) : undefined,
    c.need[1] ? dnnConvWeight(dnn, h, dyc, wc.shape, g) : undefined,
  ]);
  return dx;
}

/** The gradient of a convolution's weight (`wShape`) from its input `x` and its output's gradient `dy`. */
export function dnnConvWeight(
  dnn: Dnn,
  x: ga.GPUArray,
  dy: ga.GPUArray,
  wShape: readonly number[],
  g: DnnGeometry,
): ga.GPUArray {
  const [xc, xo] = operand(x, x.dtype), [dyc, dyo] = operand(dy, x.dtype);
  const dw = new ga.GPUArray(x.backend, wShape, x.dtype);
  dnn.convBackwardFilter(describe(g, xc.shape, wShape, dyc.shape, x.dtype), xo, dyo, {
    buffer: dw.buffer,
    offset: 0,
  });
  record("conv2d's weight gradient", [xc, dyc], dw, (h, c) => [
    c.need[0] ? dnnConvInput(dnn, dyc, h, xc.shape, g) : undefined,
    c.need[1] ? dnnConv(dnn, xc, h, g) : undefined,
  ]);
  return dw;
}
