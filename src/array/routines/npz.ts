/**
 * Named arrays in NumPy `.npz` files: `savez` (members stored), `savezCompressed` (deflated), and the
 * reading `load` does for a path ending in `.npz`, through `src/kernel/npz.ts` (a ZIP archive of the
 * `.npy` files `save` writes).
 *
 * @module
 */

import { type NpzMember, readNpz, writeNpz } from "../../kernel/npz.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { toGpu } from "./creation.ts";

/** The arrays of a `.npz` file by name, as `ga.load("file.npz")` returns them. */
export type NpzArrays = Record<string, GPUArray>;

/** NumPy's rule: a string path without the `.npz` extension gets it. */
function npzPath(path: string | URL, what: string): string | URL {
  if (typeof path === "string") return path.endsWith(".npz") ? path : `${path}.npz`;
  if (path instanceof URL) return path;
  throw new TypeError(`Cannot ${what} to ${describe(path)}: pass a file path (a string or a URL)`);
}

/** The arrays to write, by name: an object's, or `arr_0`, `arr_1`, ... for a list (NumPy's names). */
function members(arrays: unknown, what: string): Record<string, NpzMember> {
  if (typeof arrays !== "object" || arrays === null || arrays instanceof GPUArray) {
    throw new TypeError(
      `Cannot ${what} ${arrays instanceof GPUArray ? "one bare array" : describe(arrays)}: ` +
        "pass the arrays by name, as { x, y }, or in a list",
    );
  }
  const named = Array.isArray(arrays)
    ? arrays.map((a, i) => [`arr_${i}`, a] as const)
    : Object.entries(arrays as Record<string, unknown>);
  const out: Record<string, NpzMember> = {};
  for (const [key, a] of named) {
    if (!(a instanceof GPUArray)) {
      throw new TypeError(
        `Cannot ${what} "${key}", which is ${a === null ? "null" : typeof a}: pass a GPUArray`,
      );
    }
    out[key] = { data: a.get(), shape: a.shape, dtype: a.dtype };
  }
  return out;
}

/**
 * Writes named arrays to a `.npz` file (NumPy's `savez`; `.npz` is appended to a string path without
 * it): member `<name>.npy` for each, stored uncompressed. A list names them `arr_0`, `arr_1`, ...
 * `load` reads the file back, as does `numpy.load`.
 *
 * @throws {TypeError} for something other than arrays by name or in a list.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.savez("data.npz", { x: ga.arange(5), w: ga.ones([2, 2]) });
 * const { x, w } = ga.load("data.npz");
 * ```
 */
export function savez(
  path: string | URL,
  arrays: Readonly<Record<string, GPUArray>> | readonly GPUArray[],
): void {
  const file = npzPath(path, "savez");
  Deno.writeFileSync(file, writeNpz(members(arrays, "savez"), false));
}

/**
 * Like {@link savez}, with each member compressed by DEFLATE (NumPy's `savez_compressed`).
 *
 * @throws {TypeError} for something other than arrays by name or in a list.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.savezCompressed("sparse.npz", { mask: ga.zeros([1000, 1000], "bool") });
 * ```
 */
export function savezCompressed(
  path: string | URL,
  arrays: Readonly<Record<string, GPUArray>> | readonly GPUArray[],
): void {
  const file = npzPath(path, "savezCompressed");
  Deno.writeFileSync(file, writeNpz(members(arrays, "savezCompressed"), true));
}

/** The arrays of the `.npz` file `bytes` (read from `path`), on the active backend. */
export function fromNpz(bytes: Uint8Array, path: string | URL): NpzArrays {
  const arrays: NpzArrays = {};
  for (const [key, { dtype, shape, data }] of readNpz(bytes, String(path))) {
    Object.defineProperty(arrays, key, {
      value: toGpu(data, shape, dtype),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return arrays;
}
