/**
 * Conversions between numbers and bfloat16 bit patterns, which cudeno keeps in Uint16Arrays: the one
 * conversion every part of cudeno uses (kernel arguments, the command line's values and arrays). Numbers
 * are rounded once, from their full float64 value, to the nearest bfloat16 (ties to even); rounding
 * through float32 first would round twice and disagree, as for 1 + 2^-8 + 2^-30.
 *
 * @module
 */

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
/** The largest finite bfloat16, 0x7f7f. */
const MAX = 3.3895313892515355e38;

/**
 * Rounds a number to the nearest bfloat16 (ties to even, from the full float64 value), or to ±Infinity
 * beyond the largest finite one.
 *
 * @example
 * ```ts
 * import { roundBfloat16 } from "./bfloat16.ts";
 * console.log(roundBfloat16(1 / 3)); // 0.333984375
 * ```
 */
export function roundBfloat16(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.abs(value);
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent--;
  if (2 ** (exponent + 1) <= magnitude) exponent++;
  const ulp = 2 ** Math.max(exponent - 7, -133); // 8 significant bits; subnormals below 2^-126
  const scaled = magnitude / ulp;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  const units = fraction > 0.5 || (fraction === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  const rounded = units * ulp;
  return Math.sign(value) * (rounded > MAX ? Infinity : rounded);
}

/**
 * The bfloat16 bit pattern nearest to a number (NaN becomes the quiet NaN 0x7fc0).
 *
 * @example
 * ```ts
 * import { bfloat16Bits } from "./bfloat16.ts";
 * console.log(bfloat16Bits(1).toString(16), bfloat16Bits(-2).toString(16)); // "3f80" "c000"
 * ```
 */
export function bfloat16Bits(value: number): number {
  if (Number.isNaN(value)) return 0x7fc0;
  F32[0] = roundBfloat16(value);
  return U32[0] >>> 16;
}

/**
 * The number a bfloat16 bit pattern stands for.
 *
 * @example
 * ```ts
 * import { fromBfloat16Bits } from "./bfloat16.ts";
 * console.log(fromBfloat16Bits(0x3f80), fromBfloat16Bits(0xc040)); // 1 -3
 * ```
 */
export function fromBfloat16Bits(bits: number): number {
  U32[0] = (bits & 0xffff) << 16;
  return F32[0];
}
