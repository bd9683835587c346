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
import { toGpu } from "./creation.ts";

/** NumPy's rule: a string path without the `.npy` extension gets it. */
function npyPath(path: string | URL): string | URL {
  return typeof path === "string" && !path.endsWith(".npy") ? `${path}.npy` : path;
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
  check(a);
  await Deno.writeFile(npyPath(path), writeNpy(await a.getAsync(), [...a.shape], a.dtype));
}

/**
 * Reads a `.npy` file into a new array on the active backend (NumPy's `load` of one array): format
 * versions 1.0 to 3.0, C or Fortran order, every dtype cudeno has.
 *
 * @throws {NpyError} when the file is not a `.npy` file cudeno can read; the message says why.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * ga.save("x.npy", ga.arange(3));
 * console.log(ga.load("x.npy").get()); // Float32Array [0, 1, 2]
 * ```
 */
export function load<D extends DType = DType>(path: string | URL): GPUArray<D> {
  return fromFile(Deno.readFileSync(path), path) as GPUArray<D>;
}

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
export async function loadAsync<D extends DType = DType>(path: string | URL): Promise<GPUArray<D>> {
  return fromFile(await Deno.readFile(path), path) as GPUArray<D>;
}
