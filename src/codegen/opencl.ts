/**
 * OpenCL C 1.2: the {@link Target} of OpenCL devices.
 *
 * @module
 */

import { type DType, DTYPES } from "../kernel/dtype.ts";
import type { AtomicFn, BuiltinName } from "../jit/ir.ts";
import { complexLibrary } from "./complex.ts";
import { literalIn, mathCall, type Target, threadIdsOf, VECTOR_WIDTH } from "./target.ts";

const ATOMIC: Readonly<Record<AtomicFn, string>> = {
  add: "atomic_add",
  sub: "atomic_sub",
  max: "atomic_max",
  min: "atomic_min",
  exch: "atomic_xchg",
  cas: "atomic_cmpxchg",
};

const GEOMETRY: Readonly<Record<BuiltinName, string>> = {
  threadIdx: "get_local_id",
  blockIdx: "get_group_id",
  blockDim: "get_local_size",
  gridDim: "get_num_groups",
};

const NO_CONTRACT = "#pragma OPENCL FP_CONTRACT OFF";

const cType = (dtype: DType): string => DTYPES[dtype].opencl;

const builtin = (name: BuiltinName, axis: 0 | 1 | 2) => ({
  text: `${GEOMETRY[name]}(${axis})`,
  unsigned: false,
});

function globalPointer(type: string, name: string, readOnly: boolean): string {
  return `__global ${readOnly ? "const " : ""}${type} *${name}`;
}

/**
 * OpenCL C 1.2.
 *
 * @example
 * ```ts
 * import { OPENCL } from "./opencl.ts";
 * console.log(OPENCL.pointerParam("float32", "x", true)); // __global const float *x
 * ```
 */
export const OPENCL: Target = {
  name: "opencl",
  language: "OpenCL C",
  warpShuffle: false,
  decoupledLookback: false,
  vectorLoads: false,

  cType,
  indexType: "long",
  complexValue: (re, im, dtype) => `((${cType(dtype)})(${re}, ${im}))`,
  castTo(expr, dtype) {
    if (DTYPES[dtype].kind === "complex") return expr;
    if (dtype === "bool") return `(${cType("bool")})((${expr}) != 0)`;
    return `(${cType(dtype)})(${expr})`;
  },
  load: (expr, dtype) => (dtype === "bool" ? `(int)(${expr})` : expr),
  mathFn: (name) => name,
  infinity: (dtype, negative = false) =>
    DTYPES[dtype].kind === "complex"
      ? OPENCL.complexValue(negative ? "(-INFINITY)" : "INFINITY", "0", dtype)
      : negative
      ? "(-INFINITY)"
      : "INFINITY",
  literal: (value, dtype) => literalIn(OPENCL, "NAN", value, dtype),
  unsignedHex: (value, bits) => `0x${value.toString(16)}${bits === 64 ? "UL" : "u"}`,
  sinCosPi: (dtype, x) => `const ${cType(dtype)} sn = sinpi(${x}), cs = cospi(${x});`,
  mulhi: "mul_hi",
  roundedOps: () => undefined,

  preamble(dtypes) {
    const lines: string[] = [];
    if (dtypes.includes("float64") || dtypes.includes("complex128")) {
      lines.push("#pragma OPENCL EXTENSION cl_khr_fp64 : enable");
    }
    if (dtypes.includes("float16")) lines.push("#pragma OPENCL EXTENSION cl_khr_fp16 : enable");
    if (dtypes.includes("complex64") || dtypes.includes("complex128")) {
      lines.push(complexLibrary(OPENCL, "complex64"));
    }
    if (dtypes.includes("complex128")) lines.push(complexLibrary(OPENCL, "complex128"));
    return lines.join("\n");
  },
  noContract: NO_CONTRACT,
  kernelHead: "__kernel void",
  kernelHeadSized: (x, y) => `__kernel __attribute__((reqd_work_group_size(${x}, ${y}, 1))) void`,
  launchBounds: () => "",
  inline: "inline",
  globalPointer,
  pointerParam: (dtype, name, readOnly = false) => globalPointer(cType(dtype), name, readOnly),
  globalSpace: "__global ",
  sharedSpace: "__local ",
  sharedQualifier: "__local",
  sharedArray: (dtype, name, size) => `__local ${cType(dtype)} ${name}[${size}];`,
  barrier: "barrier(CLK_LOCAL_MEM_FENCE);",
  unroll: () => "",
  threadIds: threadIdsOf({ builtin }),
  builtin,

  hasVector: (dtype) => dtype !== "float16" && dtype !== "bfloat16" && DTYPES[dtype].kind !== "complex",
  vectorTypes: () => "",
  vectorLoad: (dtype, name, at) =>
    `const ${cType(dtype)}${VECTOR_WIDTH} ${name} = vload${VECTOR_WIDTH}(0, ${at});`,
  vectorPart: (name, j) => `${name}.s${j}`,
  vectorStore: (dtype, parts, at) =>
    `vstore${VECTOR_WIDTH}((${cType(dtype)}${VECTOR_WIDTH})(${parts.join(", ")}), 0, ${at});`,

  syncthreads: "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);",
  helper: "",
  kernel: (name, params) => `__kernel void ${name}(${params.join(", ")})`,
  device: (returns, name, params) => `${returns} ${name}(${params.join(", ")})`,
  special(value, type) {
    const text = Number.isNaN(value) ? "NAN" : "INFINITY";
    const signed = value < 0 ? `-${text}` : text;
    return type === "f32" ? signed : `(double)${value < 0 ? `(${signed})` : signed}`;
  },
  math(fn, type, args, need) {
    const call = mathCall(fn, type, args, need, "", "abs");
    return fn === "abs" && type === "i32" ? `(int)${call}` : call;
  },
  atomic(fn, element, space, ptr, args, need) {
    if (element === "f32" && fn === "add") {
      need(`atomic_add_f32_${space}`);
      return `cudeno_atomic_add_f32_${space}(${ptr}, ${args[0]})`;
    }
    return `${ATOMIC[fn]}(${[ptr, ...args].join(", ")})`;
  },
  prelude: (usesF64) => [NO_CONTRACT, ...(usesF64 ? ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable"] : [])],
};
