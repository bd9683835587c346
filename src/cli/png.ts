/**
 * Writing 8-bit PNG images (https://www.w3.org/TR/png-3/) and turning arrays of numbers into colour images.
 *
 * @module
 */

import { deflateSync } from "node:zlib";

/** An 8-bit image: rows top to bottom, each pixel's channels interleaved (grey, RGB or RGBA). */
export interface Image {
  /** Pixels per row, at least 1. */
  width: number;
  /** Rows, at least 1. */
  height: number;
  /** 1 for grey, 3 for RGB, 4 for RGBA. */
  channels: 1 | 3 | 4;
  /** `width * height * channels` bytes. */
  data: Uint8Array;
}

/** The colour maps {@linkcode colorize} knows. */
export type ColorMap = "grey" | "viridis" | "magma" | "inferno" | "plasma" | "turbo";

/** How {@linkcode colorize} maps values to colours. */
export interface ColorizeOptions {
  /** The colour map (default `"viridis"`). */
  map?: ColorMap;
  /** The value shown as the map's first colour; defaults to the smallest finite value (positive, for log). */
  min?: number;
  /** The value shown as the map's last colour; defaults to the largest finite value. */
  max?: number;
  /** `"log"` spaces colours by the logarithm of the value; values <= 0 are then drawn black, like NaN. */
  scale?: "linear" | "log";
}

/**
 * The names of the colour maps, for checking and listing a user's choice.
 *
 * @example
 * ```ts
 * import { COLOR_MAPS } from "./png.ts";
 * console.log(COLOR_MAPS.join(", ")); // "grey, viridis, magma, inferno, plasma, turbo"
 * ```
 */
export const COLOR_MAPS: readonly ColorMap[] = Object.freeze([
  "grey",
  "viridis",
  "magma",
  "inferno",
  "plasma",
  "turbo",
]);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const COLOR_TYPE = { 1: 0, 3: 2, 4: 6 } as const;
const MAX_SIDE = 2 ** 31 - 1;

/**
 * Encodes an 8-bit grey, RGB or RGBA image as a PNG file (filter type 0 on every row, zlib-compressed).
 *
 * @param image The image.
 * @returns The PNG file's bytes.
 * @throws {RangeError} If the size is not positive integers or the data is not `width * height * channels`
 * bytes.
 *
 * @example
 * ```ts
 * import { encodePng } from "./png.ts";
 * const png = encodePng({ width: 2, height: 1, channels: 3, data: new Uint8Array([255, 0, 0, 0, 0, 255]) });
 * console.log(png.subarray(1, 4)); // Uint8Array(3) [80, 78, 71]: "PNG"
 * ```
 */
export function encodePng(image: Image): Uint8Array {
  const { width, height, channels, data } = image;
  if (!isSide(width) || !isSide(height)) {
    throw new RangeError(
      `Cannot encode a ${width}x${height} PNG: width and height must be integers from 1 to 2^31-1`,
    );
  }
  if (!(channels in COLOR_TYPE)) {
    throw new RangeError(`Cannot encode a PNG with ${channels} channels: use 1, 3 or 4`);
  }
  const stride = width * channels;
  if (data.length !== stride * height) {
    throw new RangeError(
      `Cannot encode a ${width}x${height}x${channels} PNG: it needs ${
        stride * height
      } bytes but data has ${data.length}`,
    );
  }
  const rows = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    rows.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, COLOR_TYPE[channels], 0, 0, 0], 8); // bit depth, colour type, compression, filter, interlace
  const chunks = [
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(rows))),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(PNG_SIGNATURE.length + chunks.reduce((sum, part) => sum + part.length, 0));
  out.set(PNG_SIGNATURE);
  let offset = PNG_SIGNATURE.length;
  for (const part of chunks) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Maps numbers to an RGB image through a colour map: `min` gets the first colour, `max` the last, values
 * between are interpolated and values beyond are clamped, so ±Infinity gets an end colour; NaN (and, on a
 * log scale, values <= 0) is black. When `min` equals `max`, values up to it get the first colour and
 * values above it the last.
 *
 * @param values `width * height` numbers, row by row from the top.
 * @param width Pixels per row.
 * @param height Rows.
 * @param options The colour map, the range and the scale.
 * @returns An RGB image for {@linkcode encodePng}.
 * @throws {RangeError} If `values` does not hold `width * height` numbers, `min`/`max` are not finite (or
 * not positive, for a log scale), `min` exceeds `max`, or the map is not one of {@linkcode COLOR_MAPS}.
 *
 * @example
 * ```ts
 * import { colorize, encodePng } from "./png.ts";
 * const ramp = Float32Array.from({ length: 256 * 16 }, (_, i) => i % 256);
 * const png = encodePng(colorize(ramp, 256, 16, { map: "magma" }));
 * console.log(png.length > 0); // true
 * ```
 */
export function colorize(
  values: ArrayLike<number | bigint>,
  width: number,
  height: number,
  options: ColorizeOptions = {},
): Image & { channels: 3 } {
  const count = width * height;
  if (!isSide(width) || !isSide(height) || values.length !== count) {
    throw new RangeError(
      `Cannot colorize ${values.length} values as a ${width}x${height} image: give width * height values`,
    );
  }
  const log = options.scale === "log";
  const transform = (value: number) => log ? (value > 0 ? Math.log(value) : NaN) : value;
  let low = Infinity;
  let high = -Infinity;
  const numbers = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const value = transform(Number(values[i]));
    numbers[i] = value;
    if (Number.isFinite(value)) {
      low = Math.min(low, value);
      high = Math.max(high, value);
    }
  }
  if (low === Infinity) [low, high] = [0, 0]; // no finite values: infinities still clamp to the ends
  const { min, max } = options;
  if (min !== undefined) low = transform(min);
  if (max !== undefined) high = transform(max);
  const positive = log ? " > 0" : "";
  if (!Number.isFinite(low) || !Number.isFinite(high)) {
    throw new RangeError(`Cannot colorize with min ${min} and max ${max}: give finite numbers${positive}`);
  }
  if (low > high) {
    if (min !== undefined && max !== undefined) {
      throw new RangeError(`Cannot colorize with min ${min} and max ${max}: min must not exceed max`);
    }
    // One bound given beyond the data's other end: every value is on one side of it.
    if (min !== undefined) high = low;
    else low = high;
  }
  const map = options.map ?? "viridis";
  if (!COLOR_MAPS.includes(map)) {
    throw new RangeError(`Cannot colorize with map "${map}": use one of ${COLOR_MAPS.join(", ")}`);
  }
  const stops = STOPS[map];
  const segments = stops.length / 3 - 1;
  const span = high - low;
  const data = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) {
    const value = numbers[i];
    if (Number.isNaN(value)) continue;
    const t = span > 0 ? Math.min(Math.max((value - low) / span, 0), 1) : value > high ? 1 : 0;
    const x = t * segments;
    const k = Math.min(Math.floor(x), segments - 1);
    const f = x - k;
    for (let c = 0; c < 3; c++) {
      const a = stops[k * 3 + c];
      data[i * 3 + c] = Math.round(a + (stops[k * 3 + 3 + c] - a) * f);
    }
  }
  return { width, height, channels: 3, data };
}

function isSide(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= MAX_SIDE;
}

function chunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** The CRC-32 of ISO 3309 / ITU-T V.42 that PNG chunks end with (PNG spec, annex D). */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Each map as 33 colours evenly spaced from 0 to 1 (entries round(i * 255 / 32) of the 256-entry tables),
 * interpolated linearly in between; within 3/255 of the full tables. viridis, magma, inferno and plasma
 * are by Stéfan van der Walt and Nathaniel Smith (CC0), from matplotlib's `_cm_listed.py` as rounded to
 * bytes in d3-scale-chromatic's `src/sequential-multi/viridis.js`; turbo is by Anton Mikhailov, Google
 * (Apache-2.0), from his `turbo_srgb_bytes` table
 * (https://gist.github.com/mikhailov-work/6a308c20e494d9e0ccc29036b28faa7a,
 * https://research.google/blog/turbo-an-improved-rainbow-colormap-for-visualization/).
 */
const STOPS: Readonly<Record<ColorMap, Uint8Array>> = {
  grey: hex("000000ffffff"),
  viridis: hex(
    "440154470d6048186a482374472d7b4537814240863e49893b528b375b8d33638d2f6b8e2c728e297a8e26828e23898e21918c" +
      "1f978b1f9f8821a68527ad8131b57b3dbc744cc26c5cc8636ece5881d34d95d840aadc32c0df25d5e21aeae51afde725",
  ),
  magma: hex(
    "0000040303120a0822130d341d114729115a36106b440f7651127c5d177f6a1c81762181832681902a819c2e7faa337db73779" +
      "c23b75cf4070db476ae55064ee5b5ef4695cf9785dfb8761fd9668fea571feb47bfec287fed194fde0a1fceeb0fcfdbf",
  ),
  inferno: hex(
    "0000040403120b0724150b37210c4a2f0a5b3d09654a0c6b57106e64156e71196e7d1e6d8a226a972766a32c61b0315bbc3754" +
      "c63d4dd04545da4e3ce35933eb6429f1711ff67e14f98c0afb9b06fcaa0ffbba1ff9c932f5d949f2e865f3f586fcffa4",
  ),
  plasma: hex(
    "0d08872206903105973f049c4c02a15901a56600a77201a87e03a88a09a59511a1a01a9caa2395b32c8ebc3587c43e7fcc4778" +
      "d24f71d9586adf6263e56b5deb7556f07f4ff48948f89441fb9f3afdab33feb72dfdc328fcd025f9dd25f5eb27f0f921",
  ),
  turbo: hex(
    "30123b392a734040a24456c7466be34680f64294ff37a8fa28bceb1ccdd818ddc21fe9af32f2984ef97d6dfe628bff4ba4fc3c" +
      "b7f735cbed34dde037ecd13af7c13afdae35fe992cfb8122f56918ec530fe14109d23105c12302ac1701950d017a0403",
  ),
};

function hex(digits: string): Uint8Array {
  return Uint8Array.from(
    { length: digits.length / 2 },
    (_, i) => Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16),
  );
}
