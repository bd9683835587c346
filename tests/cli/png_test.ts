import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { COLOR_MAPS, colorize, encodePng, type Image } from "../../src/cli/png.ts";

interface Chunk {
  type: string;
  body: Uint8Array;
  crc: number;
}

function chunks(png: Uint8Array): Chunk[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: Chunk[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    out.push({
      type,
      body: png.subarray(offset + 8, offset + 8 + length),
      crc: view.getUint32(offset + 8 + length),
    });
    offset += 12 + length;
  }
  return out;
}

/** CRC-32 bit by bit, straight from the PNG specification's definition (no table). */
function slowCrc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** Decodes the PNGs encodePng() writes: one IDAT, filter type 0 on every row. */
function decode(png: Uint8Array): Image {
  const [header, ...rest] = chunks(png);
  const view = new DataView(header.body.buffer, header.body.byteOffset);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const channels = ({ 0: 1, 2: 3, 6: 4 } as const)[header.body[9] as 0 | 2 | 6];
  const raw = new Uint8Array(inflateSync(rest.find((chunk) => chunk.type === "IDAT")!.body));
  const stride = width * channels;
  assert.equal(raw.length, (stride + 1) * height);
  const data = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    assert.equal(raw[y * (stride + 1)], 0, `filter type of row ${y}`);
    data.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { width, height, channels, data };
}

const pixel = (image: Image, i: number) =>
  Array.from(image.data.subarray(i * image.channels, (i + 1) * image.channels));

Deno.test("encodePng() writes the PNG signature, then IHDR, IDAT and IEND chunks", () => {
  const png = encodePng({ width: 3, height: 2, channels: 3, data: new Uint8Array(18) });
  assert.deepEqual(Array.from(png.subarray(0, 8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.deepEqual(chunks(png).map((chunk) => chunk.type), ["IHDR", "IDAT", "IEND"]);
  assert.deepEqual(Array.from(png.subarray(-12)), [
    0,
    0,
    0,
    0,
    0x49,
    0x45,
    0x4e,
    0x44,
    0xae,
    0x42,
    0x60,
    0x82,
  ]);
});

Deno.test("encodePng() fills IHDR with the size, bit depth 8 and the colour type of the channels", () => {
  for (const [channels, colorType] of [[1, 0], [3, 2], [4, 6]] as const) {
    const png = encodePng({ width: 300, height: 2, channels, data: new Uint8Array(600 * channels) });
    const header = chunks(png)[0].body;
    assert.deepEqual(Array.from(header), [0, 0, 1, 44, 0, 0, 0, 2, 8, colorType, 0, 0, 0]);
  }
});

Deno.test("encodePng() ends every chunk with the CRC-32 of its type and body", () => {
  assert.equal(slowCrc(new TextEncoder().encode("123456789")), 0xcbf43926); // the standard check value
  const data = Uint8Array.from({ length: 64 * 64 * 4 }, (_, i) => (i * 7) & 0xff);
  const png = encodePng({ width: 64, height: 64, channels: 4, data });
  for (const chunk of chunks(png)) {
    const typed = new Uint8Array([...new TextEncoder().encode(chunk.type), ...chunk.body]);
    assert.equal(chunk.crc, slowCrc(typed), chunk.type);
  }
});

Deno.test("encodePng() stores the pixels row by row, each row with filter type 0", () => {
  for (const channels of [1, 3, 4] as const) {
    const data = Uint8Array.from({ length: 5 * 3 * channels }, (_, i) => (i * 37) & 0xff);
    assert.deepEqual(decode(encodePng({ width: 5, height: 3, channels, data })), {
      width: 5,
      height: 3,
      channels,
      data,
    });
  }
});

Deno.test("encodePng() rejects a size, channel count or data length that does not fit", () => {
  const data = new Uint8Array(12);
  assert.throws(() => encodePng({ width: 0, height: 4, channels: 3, data }), {
    name: "RangeError",
    message: "Cannot encode a 0x4 PNG: width and height must be integers from 1 to 2^31-1",
  });
  assert.throws(() => encodePng({ width: 1.5, height: 4, channels: 1, data }), RangeError);
  assert.throws(
    () => encodePng({ width: 2, height: 2, channels: 2 as 1, data }),
    /with 2 channels: use 1, 3 or 4/,
  );
  assert.throws(() => encodePng({ width: 2, height: 2, channels: 4, data }), {
    name: "RangeError",
    message: "Cannot encode a 2x2x4 PNG: it needs 16 bytes but data has 12",
  });
});

Deno.test("colorize() spreads the data's range over the map, first colour to last", () => {
  const grey = colorize([10, 15, 20], 3, 1, { map: "grey" });
  assert.equal(grey.channels, 3);
  assert.deepEqual([pixel(grey, 0), pixel(grey, 1), pixel(grey, 2)], [[0, 0, 0], [128, 128, 128], [
    255,
    255,
    255,
  ]]);
  // viridis runs from #440154 through #21918c (at 0.5) to #fde725, as matplotlib's table does.
  const viridis = colorize(new Float32Array([0, 0.5, 1]), 3, 1);
  assert.deepEqual([pixel(viridis, 0), pixel(viridis, 1), pixel(viridis, 2)], [[68, 1, 84], [33, 145, 140], [
    253,
    231,
    37,
  ]]);
});

Deno.test("colorize() starts and ends each map at its table's end colours", () => {
  const ends: Record<string, [number[], number[]]> = {
    grey: [[0, 0, 0], [255, 255, 255]],
    viridis: [[68, 1, 84], [253, 231, 37]],
    magma: [[0, 0, 4], [252, 253, 191]],
    inferno: [[0, 0, 4], [252, 255, 164]],
    plasma: [[13, 8, 135], [240, 249, 33]],
    turbo: [[48, 18, 59], [122, 4, 3]],
  };
  assert.deepEqual([...COLOR_MAPS].sort(), Object.keys(ends).sort());
  for (const map of COLOR_MAPS) {
    const image = colorize([0, 1], 2, 1, { map });
    assert.deepEqual([pixel(image, 0), pixel(image, 1)], ends[map], map);
  }
});

Deno.test("colorize() draws NaN black and clamps infinities and values outside min and max", () => {
  const image = colorize([NaN, -Infinity, Infinity, -5, 5, 0.5], 6, 1, { map: "grey", min: 0, max: 1 });
  assert.deepEqual(
    Array.from({ length: 6 }, (_, i) => pixel(image, i)[0]),
    [0, 0, 255, 0, 255, 128],
  );
  const defaults = colorize([NaN, 2, Infinity, 4], 2, 2, { map: "grey" }); // range from the finite values
  assert.deepEqual(Array.from({ length: 4 }, (_, i) => pixel(defaults, i)[0]), [0, 0, 255, 255]);
});

Deno.test("colorize() spaces colours by the logarithm on a log scale", () => {
  const image = colorize([1, 10, 100, 0, -1], 5, 1, { map: "grey", scale: "log" });
  assert.deepEqual(Array.from({ length: 5 }, (_, i) => pixel(image, i)[0]), [0, 128, 255, 0, 0]);
  assert.deepEqual(pixel(colorize([1000], 1, 1, { map: "grey", scale: "log", min: 10, max: 100 }), 0), [
    255,
    255,
    255,
  ]);
});

Deno.test("colorize() handles a constant image, one-sided ranges and bigint values", () => {
  assert.deepEqual(pixel(colorize([3, 3], 2, 1, { map: "turbo" }), 1), [48, 18, 59]);
  const above = colorize([1, 2], 2, 1, { map: "grey", min: 5 }); // every value at or below min
  assert.deepEqual([pixel(above, 0), pixel(above, 1)], [[0, 0, 0], [0, 0, 0]]);
  const below = colorize([1, 2], 2, 1, { map: "grey", max: 0 }); // every value above max
  assert.deepEqual([pixel(below, 0), pixel(below, 1)], [[255, 255, 255], [255, 255, 255]]);
  assert.deepEqual(pixel(colorize([NaN], 1, 1, { map: "grey", max: 3 }), 0), [0, 0, 0]);
  assert.deepEqual(pixel(colorize(new BigInt64Array([0n, 2n ** 40n]), 2, 1, { map: "grey" }), 1), [
    255,
    255,
    255,
  ]);
  assert.deepEqual(pixel(colorize([NaN], 1, 1), 0), [0, 0, 0]);
});

Deno.test("colorize() rejects a wrong value count, a non-finite range and an unknown map", () => {
  assert.throws(() => colorize([1, 2, 3], 2, 2), {
    name: "RangeError",
    message: "Cannot colorize 3 values as a 2x2 image: give width * height values",
  });
  assert.throws(() => colorize([1], 1, 1, { min: NaN }), /give finite numbers$/);
  assert.throws(() => colorize([1], 1, 1, { min: 0, scale: "log" }), /give finite numbers > 0$/);
  assert.throws(() => colorize([1], 1, 1, { min: 2, max: 1 }), {
    name: "RangeError",
    message: "Cannot colorize with min 2 and max 1: min must not exceed max",
  });
  assert.throws(() => colorize([1], 1, 1, { map: "jet" as "grey" }), {
    name: "RangeError",
    message: 'Cannot colorize with map "jet": use one of grey, viridis, magma, inferno, plasma, turbo',
  });
});

Deno.test("colorize() output encodes as a PNG that decodes to the same pixels", () => {
  const values = Float64Array.from({ length: 40 * 30 }, (_, i) => Math.sin(i / 17));
  const image = colorize(values, 40, 30, { map: "magma" });
  assert.deepEqual(decode(encodePng(image)), image);
});
