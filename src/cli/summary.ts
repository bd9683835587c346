/**
 * What `cudeno run` prints of an output array: its first elements, range, mean and a checksum.
 *
 * @module
 */

import type { DType, TypedArray } from "../kernel/dtype.ts";
import { fromBfloat16Bits } from "../kernel/bfloat16.ts";

/**
 * A short description of an output array.
 *
 * @example
 * ```ts
 * import { type Summary, summarize } from "./summary.ts";
 * const summary: Summary = summarize(new Float32Array([1, 2, 3]));
 * console.log(summary.mean); // 2
 * ```
 */
export interface Summary {
  /** Up to the first 8 elements. */
  first: number[];
  /** The smallest element other than NaN (NaN if there is none). */
  min: number;
  /** The largest element other than NaN (NaN if there is none). */
  max: number;
  /** The mean of the elements other than NaN (NaN if there are none). */
  mean: number;
  /** How many elements are NaN. */
  nans: number;
  /** FNV-1a (32-bit) of the array's bytes as stored (little-endian), as 8 lowercase hex digits. */
  checksum: string;
}

/**
 * Summarizes an array for printing: its first elements, range, mean, NaN count and a checksum of its bytes
 * (32-bit FNV-1a, so equal outputs are easy to spot). Pass `"bfloat16"` to read a Uint16Array as bfloat16.
 *
 * @example
 * ```ts
 * import { summarize } from "./summary.ts";
 * const { first, min, max, checksum } = summarize(new Int32Array([3, -1, 4]));
 * console.log(first, min, max, checksum); // [3, -1, 4] -1 4 "dfb8bd86"
 * ```
 */
export function summarize(data: TypedArray, dtype?: DType): Summary {
  const read = dtype === "bfloat16"
    ? (i: number) => fromBfloat16Bits(Number(data[i]))
    : (i: number) => Number(data[i]);
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let nans = 0;
  for (let i = 0; i < data.length; i++) {
    const value = read(i);
    if (Number.isNaN(value)) {
      nans++;
      continue;
    }
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
  }
  const counted = data.length - nans;
  const first = Array.from({ length: Math.min(8, data.length) }, (_, i) => read(i));
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return {
    first,
    min: counted > 0 ? min : NaN,
    max: counted > 0 ? max : NaN,
    mean: counted > 0 ? sum / counted : NaN,
    nans,
    checksum: fnv1a(bytes).toString(16).padStart(8, "0"),
  };
}

/** 32-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/). */
export function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}
