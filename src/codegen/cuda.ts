/**
 * CUDA C, for NVRTC: the {@link Target} of CUDA devices.
 *
 * @module
 */

import { type DType, DTYPES } from "../kernel/dtype.ts";
import type { AtomicFn, BuiltinName } from "../jit/ir.ts";
import { complexLibrary } from "./complex.ts";
import { literalIn, mathCall, type Target, threadIdsOf, VECTOR_WIDTH } from "./target.ts";

const ATOMIC: Readonly<Record<AtomicFn, string>> = {
  add: "atomicAdd",
  sub: "atomicSub",
  max: "atomicMax",
  min: "atomicMin",
  exch: "atomicExch",
  cas: "atomicCAS",
};

const cType = (dtype: DType): string => DTYPES[dtype].cuda;

const builtin = (name: BuiltinName, axis: 0 | 1 | 2) => ({ text: `${name}.${"xyz"[axis]}`, unsigned: true });

const vecName = (dtype: DType): string => `cudeno_v${VECTOR_WIDTH}_${dtype}`;

function infinity(dtype: DType, negative = false): string {
  if (DTYPES[dtype].kind === "complex") {
    return CUDA.complexValue(infinity(dtype === "complex64" ? "float32" : "float64", negative), "0", dtype);
  }
  if (dtype === "float64") {
    return `__longlong_as_double(${negative ? "0xfff0000000000000LL" : "0x7ff0000000000000LL"})`;
  }
  return `__int_as_float(${negative ? "0xff800000" : "0x7f800000"})`;
}

function globalPointer(type: string, name: string, readOnly: boolean, restrict: boolean): string {
  return `${readOnly ? "const " : ""}${type} *${restrict ? "__restrict__ " : ""}${name}`;
}

/**
 * CUDA C, for NVRTC.
 *
 * @example
 * ```ts
 * import { CUDA } from "./cuda.ts";
 * console.log(CUDA.castTo("x", "float16")); // __float2half((float)(x))
 * ```
 */
export const CUDA: Target = {
  name: "cuda",
  language: "CUDA C",
  warpShuffle: true,
  decoupledLookback: true,
  vectorLoads: true,

  cType,
  indexType: "long long",
  complexValue: (re, im, dtype) => `make_${cType(dtype)}(${re}, ${im})`,
  castTo(expr, dtype) {
    if (DTYPES[dtype].kind === "complex") return expr;
    if (dtype === "float16") return `__float2half((float)(${expr}))`;
    if (dtype === "bfloat16") return `__float2bfloat16((float)(${expr}))`;
    if (dtype === "bool") return `(${cType("bool")})((${expr}) != 0)`;
    return `(${cType(dtype)})(${expr})`;
  },
  load(expr, dtype) {
    if (dtype === "float16") return `__half2float(${expr})`;
    if (dtype === "bfloat16") return `__bfloat162float(${expr})`;
    if (dtype === "bool") return `(int)(${expr})`;
    return expr;
  },
  mathFn: (name, dtype) => (dtype === "float32" ? `${name}f` : name),
  infinity,
  literal: (value, dtype) =>
    literalIn(
      CUDA,
      dtype === "float64" ? "__longlong_as_double(0x7ff8000000000000LL)" : "__int_as_float(0x7fc00000)",
      value,
      dtype,
    ),
  unsignedHex: (value, bits) => `0x${value.toString(16)}${bits === 64 ? "ULL" : "u"}`,
  sinCosPi: (dtype, x) =>
    `${cType(dtype)} sn, cs; ${dtype === "float32" ? "sincospif" : "sincospi"}(${x}, &sn, &cs);`,
  mulhi: "__umulhi",
  roundedOps(dtype) {
    const s = dtype === "float32" ? "f" : "d";
    return { add: (a, b) => `__${s}add_rn(${a}, ${b})`, mul: (a, b) => `__${s}mul_rn(${a}, ${b})` };
  },

  preamble(dtypes) {
    const lines: string[] = [];
    if (dtypes.includes("float16")) lines.push("#include <cuda_fp16.h>");
    if (dtypes.includes("bfloat16")) lines.push("#include <cuda_bf16.h>");
    // NVRTC has no math.h: give snippets the macros OpenCL C has.
    lines.push("#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif");
    lines.push("#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif");
    if (dtypes.includes("complex64") || dtypes.includes("complex128")) {
      lines.push(complexLibrary(CUDA, "complex64"));
    }
    if (dtypes.includes("complex128")) lines.push(complexLibrary(CUDA, "complex128"));
    return lines.join("\n");
  },
  noContract: "",
  kernelHead: "__global__ void",
  kernelHeadSized: (x, y) => `__global__ void __launch_bounds__(${x * y})`,
  launchBounds: (threads, minBlocks) =>
    `__launch_bounds__(${threads}${minBlocks === undefined ? "" : `, ${minBlocks}`})`,
  inline: "__device__ __forceinline__",
  globalPointer,
  pointerParam: (dtype, name, readOnly = false) => globalPointer(cType(dtype), name, readOnly, true),
  globalSpace: "",
  sharedSpace: "",
  sharedQualifier: "__shared__",
  sharedArray: (dtype, name, size) => `__shared__ ${cType(dtype)} ${name}[${size}];`,
  barrier: "__syncthreads();",
  unroll: (indent = "") => `#pragma unroll\n${indent}`,
  threadIds: threadIdsOf({ builtin }),
  builtin,

  hasVector: (dtype) => DTYPES[dtype].kind !== "complex",
  vectorTypes: (dtypes) =>
    [...new Set(dtypes)].map((dtype) => {
      const align = Math.min(16, DTYPES[dtype].size * VECTOR_WIDTH);
      return `struct __align__(${align}) ${vecName(dtype)} { ${cType(dtype)} v[${VECTOR_WIDTH}]; };`;
    }).join("\n"),
  vectorLoad: (dtype, name, at) =>
    `const ${vecName(dtype)} ${name} = *reinterpret_cast<const ${vecName(dtype)} *>(${at});`,
  vectorPart: (name, j) => `${name}.v[${j}]`,
  vectorStore: (dtype, parts, at) =>
    `{ ${vecName(dtype)} w; ${parts.map((p, j) => `w.v[${j}] = ${p};`).join(" ")} *reinterpret_cast<${
      vecName(dtype)
    } *>(${at}) = w; }`,

  syncthreads: "__syncthreads();",
  helper: "__device__ __forceinline__ ",
  kernel: (name, params) => `extern "C" __global__ void ${name}(${params.join(", ")})`,
  device: (returns, name, params) => `__device__ ${returns} ${name}(${params.join(", ")})`,
  special(value, type) {
    const nan = Number.isNaN(value);
    const text = type === "f32"
      ? `__int_as_float(0x${nan ? "7fc00000" : "7f800000"})`
      : `__longlong_as_double(0x${nan ? "7ff8" : "7ff0"}000000000000LL)`;
    return value < 0 ? `-${text}` : text;
  },
  math: (fn, type, args, need) => mathCall(fn, type, args, need, "f", "abs"),
  atomic: (fn, _element, _space, ptr, args) => `${ATOMIC[fn]}(${[ptr, ...args].join(", ")})`,
  prelude: () => [],
};
