/**
 * What a backend's vendor neural-network library (cuDNN on CUDA) does for the layers of `nn`: 2-D
 * convolutions (NCHW, cross-correlation, symmetric padding, stride, dilation, groups) and the two
 * products of their backward pass, on buffers. `nn` decides when to use it and keeps the shapes, the
 * checks and the gradient rules; the own kernels run wherever a backend has none.
 *
 * @module
 */

import type { BackendBuffer } from "./backend.ts";
import type { DType } from "../kernel/dtype.ts";

/**
 * One 2-D convolution's geometry and element type: `x` `[N, C, H, W]`, `w` `[K, C / groups, kH, kW]`,
 * `y` `[N, K, H', W']`, every operand contiguous (NCHW).
 *
 * @example
 * ```ts
 * import type { ConvDescription } from "@cudeno/cudeno/array";
 * const d: ConvDescription = {
 *   dtype: "float32", x: [8, 3, 32, 32], w: [16, 3, 3, 3], y: [8, 16, 32, 32],
 *   pad: [1, 1], stride: [1, 1], dilation: [1, 1], groups: 1, tf32: true,
 * };
 * ```
 */
export interface ConvDescription {
  /** The element type of every operand. */
  readonly dtype: DType;
  /** The input's extents `[N, C, H, W]`. */
  readonly x: readonly [number, number, number, number];
  /** The weight's extents `[K, C / groups, kH, kW]`. */
  readonly w: readonly [number, number, number, number];
  /** The output's extents `[N, K, H', W']`. */
  readonly y: readonly [number, number, number, number];
  /** Zeros before and after each spatial axis (the same on both sides). */
  readonly pad: readonly [number, number];
  /** The step between windows along each spatial axis. */
  readonly stride: readonly [number, number];
  /** The spacing of kernel elements along each spatial axis. */
  readonly dilation: readonly [number, number];
  /** Independent channel groups. */
  readonly groups: number;
  /** Whether float32 products may run on tensor cores in TF32 (PyTorch's `cudnn.allow_tf32`). */
  readonly tf32: boolean;
}

/** A contiguous operand: its buffer and the elements before its first. */
export interface DnnOperand {
  /** The device memory. */
  readonly buffer: BackendBuffer;
  /** Elements before the operand's first. */
  readonly offset: number;
}

/**
 * A backend's neural-network library.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.zeros(1).backend.dnn?.dtypes); // ["float32", "float64", "float16", "bfloat16"] with cuDNN
 * ```
 */
export interface Dnn {
  /** What it is, for messages and `nn.cudnn`: `cuDNN 9.14.0`. */
  readonly name: string;
  /** The element types its convolutions take. */
  readonly dtypes: readonly DType[];
  /** `y = conv(x, w)`. */
  convForward(d: ConvDescription, x: DnnOperand, w: DnnOperand, y: DnnOperand): void;
  /** `dx`, the gradient of the input, from the output's gradient `dy` and the weight. */
  convBackwardData(d: ConvDescription, w: DnnOperand, dy: DnnOperand, dx: DnnOperand): void;
  /** `dw`, the gradient of the weight, from the input and the output's gradient `dy`. */
  convBackwardFilter(d: ConvDescription, x: DnnOperand, dy: DnnOperand, dw: DnnOperand): void;
}
