/**
 * The pieces of CUDA C and OpenCL C that generated array kernels are assembled from, so each
 * generator is written once for both dialects.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";

/** A C spelling of `dtype` in `dialect`. */
export function cType(dtype: DType, dialect: Dialect): string {
  return dialect === "cuda" ? DTYPES[dtype].cuda : DTYPES[dtype].opencl;
}

/** The type arithmetic on `dtype` is done in: float for the 16-bit floats, bool as int, else itself. */
export function computeType(dtype: DType): DType {
  if (dtype === "float16" || dtype === "bfloat16") return "float32";
  if (dtype === "bool") return "int32";
  return dtype;
}

/** What a kernel source must start with to use these dtypes (half and bfloat16 headers, fp64/fp16 pragmas). */
export function preamble(dtypes: readonly DType[], dialect: Dialect): string {
  const lines: string[] = [];
  if (dialect === "cuda") {
    if (dtypes.includes("float16")) lines.push("#include <cuda_fp16.h>");
    if (dtypes.includes("bfloat16")) lines.push("#include <cuda_bf16.h>");
    // NVRTC has no math.h: give snippets the macros OpenCL C has.
    lines.push("#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif");
    lines.push("#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif");
  } else {
    if (dtypes.includes("float64")) lines.push("#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
    if (dtypes.includes("float16")) lines.push("#pragma OPENCL EXTENSION cl_khr_fp16 : enable");
  }
  return lines.join("\n");
}

/** `__global__ void` or `__kernel void`. */
export function kernelHead(dialect: Dialect): string {
  return dialect === "cuda" ? "__global__ void" : "__kernel void";
}

/** A pointer parameter declaration. */
export function pointerParam(dtype: DType, name: string, dialect: Dialect, readOnly = false): string {
  const t = cType(dtype, dialect);
  if (dialect === "cuda") return `${readOnly ? "const " : ""}${t} *__restrict__ ${name}`;
  return `__global ${readOnly ? "const " : ""}${t} *${name}`;
}

/** A shared (local) memory array declared inside a kernel. */
export function sharedArray(dtype: DType, name: string, size: number, dialect: Dialect): string {
  return `${dialect === "cuda" ? "__shared__" : "__local"} ${cType(dtype, dialect)} ${name}[${size}];`;
}

/** A block-wide barrier. */
export function barrier(dialect: Dialect): string {
  return dialect === "cuda" ? "__syncthreads();" : "barrier(CLK_LOCAL_MEM_FENCE);";
}

/** The 64-bit integer type used for element indices. */
export function indexType(dialect: Dialect): string {
  return dialect === "cuda" ? "long long" : "long";
}

/** Thread index within the block, block index and block size along x. */
export function threadIds(
  dialect: Dialect,
): { local: string; group: string; groupSize: string; groups: string } {
  return dialect === "cuda"
    ? { local: "threadIdx.x", group: "blockIdx.x", groupSize: "blockDim.x", groups: "gridDim.x" }
    : {
      local: "get_local_id(0)",
      group: "get_group_id(0)",
      groupSize: "get_local_size(0)",
      groups: "get_num_groups(0)",
    };
}

/** Converts `expr` (of `from`'s compute type) to a value stored as `to`. */
export function castTo(expr: string, to: DType, dialect: Dialect): string {
  if (dialect === "cuda" && to === "float16") return `__float2half((float)(${expr}))`;
  if (dialect === "cuda" && to === "bfloat16") return `__float2bfloat16((float)(${expr}))`;
  if (to === "bool") return `(${cType("bool", dialect)})((${expr}) != 0)`;
  return `(${cType(to, dialect)})(${expr})`;
}

/** Reads a stored value of `dtype` as its compute type. */
export function load(expr: string, dtype: DType, dialect: Dialect): string {
  if (dialect === "cuda" && dtype === "float16") return `__half2float(${expr})`;
  if (dialect === "cuda" && dtype === "bfloat16") return `__bfloat162float(${expr})`;
  if (dtype === "bool") return `(int)(${expr})`;
  return expr;
}

/** The name of a C math function for `dtype` (CUDA spells float versions with an `f`). */
export function mathFn(name: string, dtype: DType, dialect: Dialect): string {
  if (dialect === "opencl") return name;
  return dtype === "float32" ? `${name}f` : name;
}

/** Positive or negative infinity of a floating compute type, as a C expression. */
export function infinity(dtype: DType, dialect: Dialect, negative = false): string {
  if (dialect === "opencl") return negative ? "(-INFINITY)" : "INFINITY";
  if (dtype === "float64") {
    return `__longlong_as_double(${negative ? "0xfff0000000000000LL" : "0x7ff0000000000000LL"})`;
  }
  return `__int_as_float(${negative ? "0xff800000" : "0x7f800000"})`;
}

const INT_RANGE: Partial<Record<DType, readonly [string, string]>> = {
  int8: ["-128", "127"],
  uint8: ["0", "255"],
  bool: ["0", "1"],
  int16: ["-32768", "32767"],
  uint16: ["0", "65535"],
  int32: ["(-2147483647 - 1)", "2147483647"],
  uint32: ["0u", "4294967295u"],
  int64: ["(-9223372036854775807LL - 1)", "9223372036854775807LL"],
  uint64: ["0ULL", "18446744073709551615ULL"],
};

/** The largest value of a compute type (+infinity for floats), as a C expression: the neutral element of min. */
export function highest(dtype: DType, dialect: Dialect): string {
  return DTYPES[dtype].kind === "float" ? infinity(dtype, dialect) : INT_RANGE[dtype]![1];
}

/** The lowest value of a compute type (-infinity for floats), as a C expression: the neutral element of max. */
export function lowest(dtype: DType, dialect: Dialect): string {
  return DTYPES[dtype].kind === "float" ? infinity(dtype, dialect, true) : INT_RANGE[dtype]![0];
}

/** A literal of `value` in a compute type (`2.5f`, `3`, `1.0e+300`). */
export function literal(value: number, dtype: DType, dialect: Dialect): string {
  if (DTYPES[dtype].kind === "float") {
    if (Number.isNaN(value)) {
      return dialect === "cuda"
        ? (dtype === "float64" ? "__longlong_as_double(0x7ff8000000000000LL)" : "__int_as_float(0x7fc00000)")
        : "NAN";
    }
    if (!Number.isFinite(value)) return infinity(dtype, dialect, value < 0);
    const text = Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : value.toExponential(17);
    return dtype === "float64" ? text : `${text}f`;
  }
  return String(Math.trunc(value));
}
