/**
 * `cudeno run FILE --list`: the kernels a file declares, each parameter with its C type as written.
 *
 * @module
 */

import type { KernelFile } from "./kernel_file.ts";

/**
 * The kernels as JSON: `{"kernels": [{"name": ..., "params": [{"name": ..., "type": ...}, ...]}, ...]}`,
 * each `type` the C type as the source writes it (`const float *`, `__global float *`, `unsigned int`).
 *
 * @example
 * ```ts
 * import { kernelListJson } from "./list.ts";
 * import { readKernelFile } from "./kernel_file.ts";
 * console.log(kernelListJson(readKernelFile("kernels/saxpy.cu")).kernels[0].params[0]); // { name: "n", type: "int" }
 * ```
 */
export function kernelListJson(
  file: KernelFile,
): { kernels: { name: string; params: { name: string; type: string }[] }[] } {
  return {
    kernels: file.kernels.map((k) => ({
      name: k.name,
      params: k.params.map((p) => ({ name: p.name, type: p.text })),
    })),
  };
}

/**
 * The kernels as a readable table: a line per kernel, then one per parameter with its C type.
 *
 * @example
 * ```ts
 * import { formatKernelList } from "./list.ts";
 * import { readKernelFile } from "./kernel_file.ts";
 * console.log(formatKernelList(readKernelFile("kernels/saxpy.cl")));
 * ```
 */
export function formatKernelList(file: KernelFile): string {
  const language = file.dialect === "cuda" ? "CUDA" : "OpenCL";
  const count = file.kernels.length;
  const lines = [`${file.path}: ${count} ${language} kernel${count === 1 ? "" : "s"}`];
  for (const k of file.kernels) {
    lines.push("");
    lines.push(`${k.name}  (line ${k.line}${k.template ? ", a template" : ""})`);
    const width = Math.max(0, ...k.params.map((p) => p.name.length));
    if (k.params.length === 0) lines.push("  no parameters");
    for (const p of k.params) lines.push(`  ${p.name.padEnd(width)}  ${p.text}`);
  }
  return lines.join("\n");
}
