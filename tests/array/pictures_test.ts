import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { inflateSync } from "node:zlib";
import * as ga from "../../src/array/mod.ts";
import { crc32 } from "../../src/kernel/zip.ts";
import { eachBackend } from "./_each_backend.ts";

/** A PNG read back independently: the header's fields, every chunk's CRC, and the rows' pixels. */
function readPng(
  bytes: Uint8Array,
): { width: number; height: number; colorType: number; pixels: number[][] } {
  assert.deepEqual(
    [...bytes.subarray(0, 8)],
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    "the signature",
  );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks = new Map<string, Uint8Array>();
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at), type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    assert.equal(
      view.getUint32(at + 8 + length),
      crc32(bytes.subarray(at + 4, at + 8 + length)),
      `${type}'s CRC`,
    );
    chunks.set(type, data);
    at += 12 + length;
  }
  assert.ok(chunks.has("IEND"));
  const h = new DataView(chunks.get("IHDR")!.buffer, chunks.get("IHDR")!.byteOffset);
  const width = h.getUint32(0), height = h.getUint32(4), colorType = h.getUint8(9);
  assert.equal(h.getUint8(8), 8, "bit depth");
  const channels = { 0: 1, 2: 3, 6: 4 }[colorType]!;
  const raw = new Uint8Array(inflateSync(chunks.get("IDAT")!));
  const pixels = Array.from({ length: height }, (_, y) => {
    const row = raw.subarray(y * (width * channels + 1), (y + 1) * (width * channels + 1));
    assert.equal(row[0], 0, "filter 0");
    return [...row.subarray(1)];
  });
  return { width, height, colorType, pixels };
}

eachBackend(
  "image() draws gray, RGB and RGBA arrays as PNGs whose pixels read back as the scaled values",
  () => {
    const gray = readPng(ga.image(ga.asarray([[0, 128, 255], [7, 8, 9]], "uint8")).bytes);
    assert.deepEqual([gray.width, gray.height, gray.colorType], [3, 2, 0]);
    assert.deepEqual(gray.pixels, [[0, 128, 255], [7, 8, 9]]);
    // Floats in [0, 1] scale by 255; others from their smallest to their largest finite value; NaN is black.
    assert.deepEqual(readPng(ga.image(ga.asarray([[0, 0.5, 1]])).bytes).pixels, [[0, 128, 255]]);
    assert.deepEqual(readPng(ga.image(ga.asarray([[-2, 0, NaN, 2]])).bytes).pixels, [[0, 128, 0, 255]]);
    assert.deepEqual(readPng(ga.image(ga.asarray([[0, 5, 10]]), { vmin: 0, vmax: 20 }).bytes).pixels, [[
      0,
      64,
      128,
    ]]);
    assert.deepEqual(readPng(ga.image(ga.asarray([[true, false]])).bytes).pixels, [[255, 0]]);
    assert.deepEqual(readPng(ga.image(ga.asarray([[1000, 3000]], "int32")).bytes).pixels, [[0, 255]]);
    const rgb = readPng(ga.image(ga.asarray([[[255, 0, 0], [0, 255, 0]]], "uint8")).bytes);
    assert.deepEqual([rgb.colorType, rgb.pixels], [2, [[255, 0, 0, 0, 255, 0]]]);
    const rgba = readPng(ga.image(ga.full([1, 1, 4], 1)).bytes);
    assert.deepEqual([rgba.colorType, rgba.pixels], [6, [[255, 255, 255, 255]]]);
    // A transposed view draws as its values are, not as its memory is.
    const t = readPng(ga.image(ga.asarray([[1, 2], [3, 4]], "uint8").T).bytes);
    assert.deepEqual(t.pixels, [[1, 3], [2, 4]]);
  },
);

eachBackend("a Picture displays in deno jupyter by its MIME type and saves its file", () => {
  const png = ga.image(ga.zeros([2, 2]));
  const display = (p: ga.Picture) =>
    (p as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")]!.call(p);
  const shown = display(png);
  assert.deepEqual(Object.keys(shown), ["image/png"]);
  assert.deepEqual(new Uint8Array(Buffer.from(shown["image/png"]!, "base64")), png.bytes);
  const path = Deno.makeTempFileSync({ suffix: ".png" });
  png.save(path);
  assert.deepEqual(Deno.readFileSync(path), png.bytes);
  Deno.removeSync(path);
  const svg = ga.plot([1, 2]);
  assert.match(display(svg)["image/svg+xml"]!, /^<svg /);
});

eachBackend(
  "plot() draws one line per series through every finite point, with title, labels and legend",
  () => {
    const text = (p: ga.Picture) => new TextDecoder().decode(p.bytes);
    const svg = text(ga.plot(ga.asarray([3, 1, 2]), [0, 1, NaN, 3, 4], {
      title: "loss <train>",
      xlabel: "step",
      ylabel: "value",
      labels: ["a", "b & c"],
    }));
    const lines = [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) => m[1]!.split(" ").length);
    assert.deepEqual(lines, [3, 2, 2], "series a whole; series b split at its NaN");
    for (const t of ["loss &lt;train&gt;", ">step<", ">value<", ">a<", ">b &amp; c<"]) {
      assert.ok(
        svg.includes(t),
        t,
      );
    }
    // The first series' points: x spread over the plot, y from the top (3 highest) to the bottom.
    const first = svg.match(/points="([^"]*)"/)![1]!.split(" ").map((p) => p.split(",").map(Number));
    assert.ok(first[0]![1]! < first[2]![1]! && first[2]![1]! < first[1]![1]!, "3 above 2 above 1");
    assert.ok(first[0]![0]! < first[1]![0]! && first[1]![0]! < first[2]![0]!);
    assert.match(text(ga.plot([1, 10, 100], { logy: true })), />1e1</);
  },
);

eachBackend("image() and plot() name the shape or argument that cannot be drawn", () => {
  assert.throws(() => ga.image(ga.zeros([4])), {
    name: "RangeError",
    message: /shape \[4\] as an image: it must be \[H, W\]/,
  });
  assert.throws(() => ga.image(ga.zeros([2, 2, 5])), { name: "RangeError", message: /\[2, 2, 5\]/ });
  assert.throws(() => ga.image(ga.zeros([2, 2]), { vmin: 1, vmax: 1 }), /vmax must be above vmin/);
  assert.throws(() => ga.image([[1]] as never), { name: "TypeError", message: /pass a GPUArray/ });
  assert.throws(() => ga.plot(), { name: "TypeError", message: /plot nothing/ });
  assert.throws(() => ga.plot(ga.zeros([2, 2])), {
    name: "RangeError",
    message: /series 0 of shape \[2, 2\]: it must be 1-D/,
  });
  assert.throws(() => ga.plot([1, 0], { logy: true }), /values ≤ 0/);
  assert.throws(() => ga.plot([NaN]), /no finite value/);
  assert.throws(() => ga.plot([1], [2], { labels: ["one"] }), /2 series with 1 labels/);
  assert.throws(() => ga.plot([1], { titel: "x" } as never), /titel/);
});
