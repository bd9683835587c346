/**
 * Arrays in NumPy `.npy` files: `save`, `load` and their async forms, through the one reader and writer
 * the command line also uses (`src/kernel/npy.ts`). Every dtype is kept, bool as `|b1` and bfloat16 as
 * `<V2` (raw 2-byte values, as `ml_dtypes` saves it); a view is saved in C order.
 *
 * @module
 */

import { readNpy, writeNpy } from "../../kernel/npy.ts";
import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { toGpu } from "./creation.ts";
import { fromNpz, type NpzArrays } from "./npz.ts";

/** NumPy's rule: a string path without the `.npy` extension gets it. */
function npyPath(path: string | URL): string | URL {
  return typeof path === "string" && !path.endsWith(".npy") ? `${path}.npy` : path;
}

/** `path`, checked to be a file path (a string or a URL). */
function checkPath(path: unknown, what: string): string | URL {
  if (typeof path !== "string" && !(path instanceof URL)) {
    throw new TypeError(`Cannot ${what} ${describe(path)}: pass a file path (a string or a URL)`);
  }
  return path;
}

function check(a: unknown): GPUArray {
  if (!(a instanceof GPUArray)) {
    throw new TypeError(`Cannot save ${a === null ? "null" : typeof a} to .npy: pass a GPUArray`);
  }
  return a;
}

function fromFile(bytes: Uint8Array, path: string | URL): GPUArray {
  const { dtype, shape, data } = readNpy(bytes, String(path));
  return toGpu(data, shape, dtype);
}

/**
 * Writes `a` to a `.npy` file (NumPy's `save`; `.npy` is appended to a string path without it), as
 * `numpy.save` writes it, in C order whatever the view's layout.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.save("x.npy", ga.arange(6).reshape(2, 3));
 * ```
 */
export function save(path: string | URL, a: GPUArray): void {
  checkPath(path, "save to");
  check(a);
  Deno.writeFileSync(npyPath(path), writeNpy(a.get(), [...a.shape], a.dtype));
}

/**
 * Like {@link save}, without blocking Deno's event loop while the device and the disk work.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * await ga.saveAsync("x.npy", ga.ones([4, 4]));
 * ```
 */
export async function saveAsync(path: string | URL, a: GPUArray): Promise<void> {
  checkPath(path, "save to");
  check(a);
  await Deno.writeFile(npyPath(path), writeNpy(await a.getAsync(), [...a.shape], a.dtype));
}

/**
 * Reads a `.npz` file (a path ending in `.npz`) into its arrays by name, each a new array on the
 * active backend (NumPy's `load` of an archive that `savez`, `savezCompressed`, `numpy.savez` or
 * `numpy.savez_compressed` wrote).
 *
 * @throws {NpyError} when the file is not a `.npz` archive of `.npy` files cudeno can read; the
 * message says why and names the member.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.savez("xy.npz", { x: ga.arange(3), y: ga.ones([2, 2]) });
 * const { x, y } = ga.load("xy.npz");
 * ```
 */
export function load(path: `${string}.npz`): NpzArrays;
/**
 * Reads a `.npy` file into a new array on the active backend (NumPy's `load` of one array): format
 * versions 1.0 to 3.0, C or Fortran order, every dtype cudeno has.
 *
 * @throws {NpyError} when the file is not a `.npy` file cudeno can read; the message says why.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.save("x.npy", ga.arange(3));
 * console.log(ga.load("x.npy").get()); // Int32Array [0, 1, 2]
 * ```
 */
export function load<D extends DType = DType>(path: string | URL): GPUArray<D>;
export function load(path: string | URL): GPUArray | NpzArrays {
  checkPath(path, "load from");
  const bytes = Deno.readFileSync(path);
  return typeof path === "string" && path.endsWith(".npz") ? fromNpz(bytes, path) : fromFile(bytes, path);
}

/** Like {@link load} of a `.npz` file, reading it without blocking Deno's event loop. */
export function loadAsync(path: `${string}.npz`): Promise<NpzArrays>;
/**
 * Like {@link load}, reading the file without blocking Deno's event loop.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * await ga.saveAsync("x.npy", ga.arange(3));
 * const x = await ga.loadAsync("x.npy");
 * ```
 */
export function loadAsync<D extends DType = DType>(path: string | URL): Promise<GPUArray<D>>;
export async function loadAsync(path: string | URL): Promise<GPUArray | NpzArrays> {
  checkPath(path, "load from");
  const bytes = await Deno.readFile(path);
  return typeof path === "string" && path.endsWith(".npz") ? fromNpz(bytes, path) : fromFile(bytes, path);
}
