/**
 * What differs between CUDA C and OpenCL C in the generated code: type spellings, qualifiers, thread
 * geometry, barriers, math and atomic calls, literals, and the small helper functions that give C the
 * JavaScript semantics it lacks (integer division by zero, Math.round, NaN-propagating min/max, float
 * atomicAdd in OpenCL).
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { DTYPES } from "../kernel/dtype.ts";
import type { AtomicFn, BuiltinName, MathFn } from "../jit/ir.ts";
import { ELEMENTS, type ElementType, SCALAR_DTYPES, type ScalarType, type ValueType } from "../jit/types.ts";

/** Registers a helper function that the generated code calls, by name. */
export type Need = (helper: string) => void;

/** One target language. */
export interface Target {
  /** The language. */
  readonly name: Dialect;
  /** The unsigned 32-bit type. */
  readonly unsigned: string;
  /** The signed 64-bit type. */
  readonly long: string;
  /** The barrier statement. */
  readonly barrier: string;
  /** What starts a helper function's definition. */
  readonly helper: string;
  /** The C spelling of a value type. */
  type(type: ValueType): string;
  /** The C spelling of an element type. */
  element(element: ElementType): string;
  /** A pointer parameter. */
  pointer(element: ElementType, name: string): string;
  /** A kernel's head. */
  kernel(name: string, params: readonly string[]): string;
  /** A device function's head. */
  device(returns: string, name: string, params: readonly string[]): string;
  /** A shared array's declaration. */
  shared(element: ElementType, name: string, length: number): string;
  /** A thread-geometry value (a primary expression), and whether its C type is unsigned int already. */
  builtin(name: BuiltinName, axis: 0 | 1 | 2): { readonly text: string; readonly unsigned: boolean };
  /** A non-finite float constant. */
  special(value: number, type: "f32" | "f64"): string;
  /** A math call on arguments of `type`. */
  math(fn: MathFn, type: ScalarType, args: readonly string[], need: Need): string;
  /** An atomic call on `&array[index]` (f32 atomicSub arrives as atomicAdd of the negated value). */
  atomic(
    fn: AtomicFn,
    element: ElementType,
    space: "global" | "shared",
    ptr: string,
    args: readonly string[],
    need: Need,
  ): string;
  /** Lines before everything else. */
  prelude(usesF64: boolean): string[];
}

const ATOMIC_CUDA: Readonly<Record<AtomicFn, string>> = {
  add: "atomicAdd",
  sub: "atomicSub",
  max: "atomicMax",
  min: "atomicMin",
  exch: "atomicExch",
  cas: "atomicCAS",
};

const ATOMIC_OPENCL: Readonly<Record<AtomicFn, string>> = {
  add: "atomic_add",
  sub: "atomic_sub",
  max: "atomic_max",
  min: "atomic_min",
  exch: "atomic_xchg",
  cas: "atomic_cmpxchg",
};

const GEOMETRY_OPENCL: Readonly<Record<BuiltinName, string>> = {
  threadIdx: "get_local_id",
  blockIdx: "get_group_id",
  blockDim: "get_local_size",
  gridDim: "get_num_groups",
};

function mathCall(
  fn: MathFn,
  type: ScalarType,
  args: readonly string[],
  need: Need,
  suffix: string,
  abs: string,
): string {
  if (fn === "round" || ((fn === "min" || fn === "max") && (type === "f32" || type === "f64"))) {
    need(`${fn}_${type}`);
    return `cudeno_${fn}_${type}(${args.join(", ")})`;
  }
  if (type === "i32" || type === "u32") return `${fn === "abs" ? abs : fn}(${args.join(", ")})`;
  return `${fn === "abs" ? "fabs" : fn}${type === "f32" ? suffix : ""}(${args.join(", ")})`;
}

/** CUDA C, for NVRTC. */
export const CUDA: Target = {
  name: "cuda",
  unsigned: "unsigned int",
  long: "long long",
  barrier: "__syncthreads();",
  helper: "__device__ __forceinline__ ",
  type: (type) => type === "bool" ? "bool" : DTYPES[SCALAR_DTYPES[type]].cuda,
  element: (element) => DTYPES[ELEMENTS[element].dtype].cuda,
  pointer: (element, name) => `${CUDA.element(element)} *${name}`,
  kernel: (name, params) => `extern "C" __global__ void ${name}(${params.join(", ")})`,
  device: (returns, name, params) => `__device__ ${returns} ${name}(${params.join(", ")})`,
  shared: (element, name, length) => `__shared__ ${CUDA.element(element)} ${name}[${length}];`,
  builtin: (name, axis) => ({ text: `${name}.${"xyz"[axis]}`, unsigned: true }),
  special(value, type) {
    const nan = Number.isNaN(value);
    const text = type === "f32"
      ? `__int_as_float(0x${nan ? "7fc00000" : "7f800000"})`
      : `__longlong_as_double(0x${nan ? "7ff8" : "7ff0"}000000000000LL)`;
    return value < 0 ? `-${text}` : text;
  },
  math: (fn, type, args, need) => mathCall(fn, type, args, need, "f", "abs"),
  atomic: (fn, _element, _space, ptr, args) => `${ATOMIC_CUDA[fn]}(${[ptr, ...args].join(", ")})`,
  prelude: () => [],
};

/** OpenCL C 1.2. */
export const OPENCL: Target = {
  name: "opencl",
  unsigned: "uint",
  long: "long",
  barrier: "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);",
  helper: "",
  type: (type) => type === "bool" ? "bool" : DTYPES[SCALAR_DTYPES[type]].opencl,
  element: (element) => DTYPES[ELEMENTS[element].dtype].opencl,
  pointer: (element, name) => `__global ${OPENCL.element(element)} *${name}`,
  kernel: (name, params) => `__kernel void ${name}(${params.join(", ")})`,
  device: (returns, name, params) => `${returns} ${name}(${params.join(", ")})`,
  shared: (element, name, length) => `__local ${OPENCL.element(element)} ${name}[${length}];`,
  builtin: (name, axis) => ({ text: `${GEOMETRY_OPENCL[name]}(${axis})`, unsigned: false }),
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
    return `${ATOMIC_OPENCL[fn]}(${[ptr, ...args].join(", ")})`;
  },
  prelude: (usesF64) => [
    "#pragma OPENCL FP_CONTRACT OFF",
    ...(usesF64 ? ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable"] : []),
  ],
};

/** The dialect for a language name. */
export const DIALECTS: Readonly<Record<Dialect, Target>> = { cuda: CUDA, opencl: OPENCL };

/**
 * The C text of a helper function. Each keeps a JavaScript result where C would trap or differ:
 * integer division and remainder by 0 give 0 (JavaScript's `(a / 0) | 0`), `INT_MIN / -1` wraps,
 * `Math.round` rounds halves up, min and max propagate NaN.
 */
export function helperSource(d: Target, helper: string): string {
  const u = d.unsigned;
  const fn = (returns: string, params: string, body: string[]) =>
    `${d.helper}${returns} cudeno_${helper}(${params}) {\n${body.map((line) => `  ${line}`).join("\n")}\n}`;
  const float = helper.endsWith("f32") ? "float" : "double";
  const one = float === "float" ? "f" : "";
  switch (helper) {
    case "div_i32":
      return fn("int", "int a, int b", [`return b == 0 ? 0 : b == -1 ? (int)(0u - (${u})a) : a / b;`]);
    case "rem_i32":
      return fn("int", "int a, int b", ["return b == 0 || b == -1 ? 0 : a % b;"]);
    case "div_u32":
      return fn(u, `${u} a, ${u} b`, ["return b == 0u ? 0u : a / b;"]);
    case "rem_u32":
      return fn(u, `${u} a, ${u} b`, ["return b == 0u ? 0u : a % b;"]);
    case "floordiv_i32":
      return fn("int", "int a, int b", [
        "if (b == 0) return 0;",
        `if (b == -1) return (int)(0u - (${u})a);`,
        "int q = a / b;",
        "return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;",
      ]);
    case "round_f32":
    case "round_f64":
      return fn(float, `${float} x`, [
        `${float} r = ${d.math("floor", float === "float" ? "f32" : "f64", ["x"], () => {})};`,
        `return x - r >= 0.5${one} ? r + 1.0${one} : r;`,
      ]);
    case "min_f32":
    case "min_f64":
      return fn(float, `${float} a, ${float} b`, ["return (a < b || a != a) ? a : b;"]);
    case "max_f32":
    case "max_f64":
      return fn(float, `${float} a, ${float} b`, ["return (a > b || a != a) ? a : b;"]);
    default: {
      const space = helper.endsWith("shared") ? "__local" : "__global";
      return fn("float", `volatile ${space} float *p, float v`, [
        "uint old = as_uint(*p);",
        "for (;;) {",
        `  uint seen = atomic_cmpxchg((volatile ${space} uint *)p, old, as_uint(as_float(old) + v));`,
        "  if (seen == old) return as_float(old);",
        "  old = seen;",
        "}",
      ]);
    }
  }
}
