/**
 * PNG encoding of 8-bit pixels (gray, RGB, RGBA): the signature, an `IHDR`, one zlib-deflated `IDAT` of
 * the rows (each with filter 0), and `IEND`, each chunk with its CRC-32 (`zip.ts`'s).
 *
 * @module
 */

import { deflateSync } from "node:zlib";
import { crc32 } from "./zip.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** PNG colour types by channels: gray, RGB, RGBA. */
const COLOR_TYPES: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const body = out.subarray(4, 8 + data.length);
  body.set(new TextEncoder().encode(type), 0);
  body.set(data, 4);
  view.setUint32(8 + data.length, crc32(body));
  return out;
}

/**
 * The PNG file of `pixels` (`height` rows of `width` pixels of `channels` bytes each: 1 gray, 3 RGB,
 * 4 RGBA, row by row).
 *
 * @example
 * ```ts
 * import { encodePng } from "./png.ts";
 * const png = encodePng(new Uint8Array([0, 255, 255, 0]), 2, 2, 1); // a 2×2 checkerboard
 * ```
 */
export function encodePng(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: 1 | 3 | 4,
): Uint8Array {
  const header = new Uint8Array(13);
  const h = new DataView(header.buffer);
  h.setUint32(0, width);
  h.setUint32(4, height);
  header.set([8, COLOR_TYPES[channels]!, 0, 0, 0], 8); // depth, colour type, compression, filter, interlace
  const stride = width * channels;
  const rows = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    rows.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const parts = [
    new Uint8Array(SIGNATURE),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(rows))),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
