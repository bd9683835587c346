/**
 * Reading and writing NumPy `.npz` files: a ZIP archive (`zip.ts`) of `.npy` files (`npy.ts`), one
 * per named array, member `<name>.npy`, as `numpy.savez` (stored) and `numpy.savez_compressed`
 * (deflated) write them.
 *
 * @module
 */

import { type NpyArray, NpyError, readNpy, writeNpy } from "./npy.ts";
import type { DType, TypedArray } from "./dtype.ts";
import { readZip, writeZip } from "./zip.ts";

/** An array to write: its elements in C order, its shape and its dtype. */
export interface NpzMember {
  /** The elements in C order. */
  readonly data: TypedArray;
  /** The shape. */
  readonly shape: readonly number[];
  /** The element type (needed for bool and bfloat16, whose typed arrays are shared). */
  readonly dtype: DType;
}

/**
 * Reads a `.npz` file into its arrays by name (the member's name less `.npy`), in the archive's order.
 *
 * @param bytes The whole file.
 * @param name The file's name, used in error messages.
 * @throws {NpyError} If the file is not a ZIP archive, is truncated or corrupt, or holds a member
 * that is not a `.npy` file cudeno can read (the message names the member).
 * @example
 * ```ts
 * import { readNpz, writeNpz } from "./npz.ts";
 * const file = writeNpz({ x: { data: Float32Array.of(1, 2), shape: [2], dtype: "float32" } }, false);
 * console.log(readNpz(file).get("x")?.data); // Float32Array [1, 2]
 * ```
 */
export function readNpz(bytes: Uint8Array, name = ".npz data"): Map<string, NpyArray> {
  const fail = (detail: string): never => {
    throw new NpyError(`Cannot read ${name}: ${detail}`);
  };
  if (bytes[0] === 0x93 && bytes[1] === 0x4e) {
    fail("this is a .npy file, not a .npz archive; load it through a path ending in .npy");
  }
  const arrays = new Map<string, NpyArray>();
  for (const entry of readZip(bytes, fail)) {
    if (entry.name.endsWith("/")) continue; // a directory
    if (!entry.name.endsWith(".npy")) {
      fail(`member "${entry.name}" is not a .npy file; a .npz archive holds arrays saved by numpy.savez`);
    }
    const key = entry.name.slice(0, -4);
    if (arrays.has(key)) fail(`it holds two members named "${entry.name}"`);
    arrays.set(key, readNpy(entry.data, `${name}'s member "${entry.name}"`));
  }
  return arrays;
}

/**
 * Writes arrays as a `.npz` file: member `<name>.npy` for each, stored (`numpy.savez`) or deflated
 * (`compress`, `numpy.savez_compressed`).
 *
 * @throws {RangeError} If a name is empty, or an array's shape does not match its data.
 * @example
 * ```ts
 * import { writeNpz } from "./npz.ts";
 * const file = writeNpz({ w: { data: new Float64Array(6), shape: [2, 3], dtype: "float64" } }, true);
 * ```
 */
export function writeNpz(arrays: Readonly<Record<string, NpzMember>>, compress: boolean): Uint8Array {
  const entries = Object.entries(arrays).map(([key, { data, shape, dtype }]) => {
    if (key === "") throw new RangeError("Cannot write an array named '' to .npz: give every array a name");
    return { name: `${key}.npy`, data: writeNpy(data, [...shape], dtype) };
  });
  return writeZip(entries, { compress });
}
