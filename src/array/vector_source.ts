/**
 * The C of {@link VEC}-element vector access, shared by the generators that read or write
 * neighbouring elements together: aligned structs on CUDA (one wide load or store), the built-in
 * vector types with `vload`/`vstore` on OpenCL.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import { cType } from "./codegen.ts";

/** Elements per vector load. */
export const VEC = 4;

/** Whether `dtype` has {@link VEC}-element vector loads and stores in `d` (OpenCL has no half or bfloat16 vectors here). */
export function hasVectors(dtype: DType, d: Dialect): boolean {
  return d === "cuda" || (dtype !== "float16" && dtype !== "bfloat16");
}

function vecName(dtype: DType, d: Dialect): string {
  return d === "cuda" ? `cudeno_v${VEC}_${dtype}` : `${cType(dtype, d)}${VEC}`;
}

/** The declarations vector access to these dtypes needs (CUDA's aligned structs; OpenCL has its vector types). */
export function vectorTypes(dtypes: readonly DType[], d: Dialect): string {
  if (d === "opencl") return "";
  return [...new Set(dtypes)].map((dtype) => {
    const align = Math.min(16, DTYPES[dtype].size * VEC);
    return `struct __align__(${align}) ${vecName(dtype, d)} { ${cType(dtype, d)} v[${VEC}]; };`;
  }).join("\n");
}

/** Declares `name`, the {@link VEC} elements of `dtype` from `at` (a pointer aligned to the vector on CUDA). */
export function vectorLoad(dtype: DType, name: string, at: string, d: Dialect): string {
  const t = vecName(dtype, d);
  return d === "cuda"
    ? `const ${t} ${name} = *reinterpret_cast<const ${t} *>(${at});`
    : `const ${t} ${name} = vload${VEC}(0, ${at});`;
}

/** Element `j` of a loaded vector. */
export function vectorPart(name: string, j: number, d: Dialect): string {
  return d === "cuda" ? `${name}.v[${j}]` : `${name}.s${j}`;
}

/** Stores the {@link VEC} values `parts` (already of `dtype`) at `at`. */
export function vectorStore(dtype: DType, parts: readonly string[], at: string, d: Dialect): string {
  const t = vecName(dtype, d);
  return d === "cuda"
    ? `{ ${t} w; ${
      parts.map((p, j) => `w.v[${j}] = ${p};`).join(" ")
    } *reinterpret_cast<${t} *>(${at}) = w; }`
    : `vstore${VEC}((${t})(${parts.join(", ")}), 0, ${at});`;
}
