/**
 * Pictures of arrays for `deno jupyter` and for files: `image` (an image-like array as a PNG) and the
 * {@link Picture} that `image` and `plot` return, which a notebook displays by its MIME type.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { encodePng } from "../../kernel/png.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { checkOptions } from "../../kernel/options.ts";

/**
 * A picture: a PNG or an SVG file's bytes. As the last value of a `deno jupyter` cell it is drawn (its
 * `Jupyter.display` gives the MIME bundle); `save(path)` writes the file.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const picture = ga.image(ga.linspace(0, 1, 64 * 64).reshape(64, 64));
 * picture.save("/tmp/ramp.png");
 * ```
 */
export class Picture {
  /** `"image/png"` or `"image/svg+xml"`. */
  readonly type: "image/png" | "image/svg+xml";
  /** The file's bytes. */
  readonly bytes: Uint8Array;

  /** A picture of `type` made of `bytes`. */
  constructor(type: "image/png" | "image/svg+xml", bytes: Uint8Array) {
    this.type = type;
    this.bytes = bytes;
  }

  /** Writes the file to `path`. */
  save(path: string | URL): void {
    Deno.writeFileSync(path, this.bytes);
  }

  /** What `deno jupyter` displays: the PNG in base64, or the SVG's text. */
  [Symbol.for("Jupyter.display")](): Record<string, string> {
    return {
      [this.type]: this.type === "image/png"
        ? Buffer.from(this.bytes).toString("base64")
        : new TextDecoder().decode(this.bytes),
    };
  }
}

/** Options of {@link image}. */
export interface ImageOptions {
  /** The value drawn black (the first channel's 0); default: see {@link image}. */
  readonly vmin?: number;
  /** The value drawn white (255); default: see {@link image}. */
  readonly vmax?: number;
}

/**
 * An image-like array as a PNG (matplotlib's `imshow` for a notebook): `[H, W]` gray, `[H, W, 3]` RGB or
 * `[H, W, 4]` RGBA. uint8 values are the pixels; bool is black and white; other values are scaled to 0–255
 * between `vmin` and `vmax`, which default to 0 and 1 for floats that all lie in [0, 1], to 0 and 255 for
 * integers that do, and to the smallest and largest finite value otherwise. NaN is drawn black.
 *
 * @throws {RangeError} for another shape, naming it; for `vmax` not above `vmin`.
 * @throws {TypeError} for something other than a GPUArray.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.random.uniform([28, 28], { seed: 1 });
 * ga.image(x); // in deno jupyter, the last value of a cell draws it
 * ```
 */
export function image(x: GPUArray, options?: ImageOptions): Picture {
  if (!(x instanceof GPUArray)) {
    throw new TypeError(`Cannot draw ${describe(x)} as an image: pass a GPUArray`);
  }
  checkOptions(options, "image", "{ vmin: 0, vmax: 1 }", ["vmin", "vmax"]);
  const [height, width, channels = 1] = x.shape;
  if (!(x.ndim === 2 || (x.ndim === 3 && (channels === 3 || channels === 4))) || x.size === 0) {
    throw new RangeError(
      `Cannot draw an array of shape ${
        showShape(x.shape)
      } as an image: it must be [H, W] (gray), [H, W, 3] (RGB) or [H, W, 4] (RGBA), not empty`,
    );
  }
  const pixels = new Uint8Array(x.size);
  if (x.dtype === "uint8") pixels.set(x.get() as Uint8Array);
  else {
    const values = x.dtype === "bool"
      ? Float32Array.from(x.get() as Uint8Array)
      : x.astype("float32").get() as Float32Array;
    const finite = values.filter(Number.isFinite);
    let lo = finite.reduce((m, v) => Math.min(m, v), Infinity),
      hi = finite.reduce((m, v) => Math.max(m, v), -Infinity);
    const float = x.dtype.startsWith("float") || x.dtype === "bfloat16";
    if (x.dtype === "bool") [lo, hi] = [0, 1];
    else if (float && lo >= 0 && hi <= 1) [lo, hi] = [0, 1];
    else if (!float && lo >= 0 && hi <= 255) [lo, hi] = [0, 255];
    lo = options?.vmin ?? lo;
    hi = options?.vmax ?? hi;
    if (!(hi > lo)) {
      if (options?.vmin !== undefined || options?.vmax !== undefined) {
        throw new RangeError(`Cannot draw an image with vmin ${lo} and vmax ${hi}: vmax must be above vmin`);
      }
      hi = lo + 1; // a constant image
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      pixels[i] = Number.isNaN(v) ? 0 : Math.round(255 * Math.min(1, Math.max(0, (v - lo) / (hi - lo))));
    }
  }
  return new Picture("image/png", encodePng(pixels, width!, height!, channels as 1 | 3 | 4));
}
