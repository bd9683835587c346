/**
 * Reading a kernel file: its backend from the extension (`.cu` is CUDA C++ for NVRTC, `.cl` is
 * OpenCL C), its text, and the kernels it declares.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type KernelSignature, parseKernels } from "../kernel/signature.ts";
import { UsageError } from "./usage_error.ts";

/**
 * A kernel file's path, dialect, text and kernels.
 *
 * @example
 * ```ts
 * import { type KernelFile, readKernelFile } from "./kernel_file.ts";
 * const file: KernelFile = readKernelFile("kernels/saxpy.cu");
 * console.log(file.dialect, file.kernels.map((k) => k.name)); // "cuda" ["saxpy"]
 * ```
 */
export interface KernelFile {
  /** The path as given. */
  readonly path: string;
  /** `"cuda"` for `.cu`, `"opencl"` for `.cl`. */
  readonly dialect: Dialect;
  /** The file's text. */
  readonly source: string;
  /** The kernels it declares, in order. */
  readonly kernels: readonly KernelSignature[];
}

/**
 * The dialect a file's extension names.
 *
 * @throws {UsageError} For an extension other than `.cu` or `.cl`.
 *
 * @example
 * ```ts
 * import { dialectOf } from "./kernel_file.ts";
 * console.log(dialectOf("k.cl")); // "opencl"
 * ```
 */
export function dialectOf(path: string): Dialect {
  if (/\.cu$/i.test(path)) return "cuda";
  if (/\.cl$/i.test(path)) return "opencl";
  throw new UsageError(
    `Cannot read ${path}: cudeno reads CUDA C++ files ending in .cu and OpenCL C files ending in .cl; rename it to say which`,
  );
}

/**
 * For a message about a file that is not there: where a relative `path` was looked for (the current
 * directory, named where it can be read), or nothing for an absolute path.
 *
 * @example
 * ```ts
 * import { whereRelative } from "./kernel_file.ts";
 * console.log(`there is no file x.npy${whereRelative("x.npy")}`); // " (paths are relative to the current directory, /home/me)"
 * ```
 */
export function whereRelative(path: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return "";
  try {
    return ` (paths are relative to the current directory, ${Deno.cwd()})`;
  } catch {
    return " (paths are relative to the current directory)";
  }
}

/**
 * Reads a kernel file and finds its kernels.
 *
 * @param path The file, relative to the current directory.
 * @returns The file's dialect, text and kernels.
 * @throws {UsageError} If the extension is neither `.cu` nor `.cl`, the file cannot be read, or a kernel
 * declaration does not parse.
 *
 * @example
 * ```ts
 * import { readKernelFile } from "./kernel_file.ts";
 * console.log(readKernelFile("kernels/matmul.cl").kernels[0].params.length); // 6
 * ```
 */
export function readKernelFile(path: string): KernelFile {
  const dialect = dialectOf(path);
  let source: string;
  try {
    source = Deno.readTextFileSync(path);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotFound
      ? `there is no such file${whereRelative(path)}`
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder; give a .cu or .cl file"
      : error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
      ? "reading it is not permitted; run with --allow-read (or -A)"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new UsageError(`Cannot read ${path}: ${detail}`, { cause: error });
  }
  let kernels: KernelSignature[];
  try {
    kernels = parseKernels(source, dialect);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new UsageError(`Cannot read the kernels of ${path}: ${error.message}`, { cause: error });
  }
  return { path, dialect, source, kernels };
}
