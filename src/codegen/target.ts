/**
 * What differs between the C dialects kernels are generated in, as one object per dialect
 * ({@link Target}): the array kernels (`src/array`) and the JIT (`src/jit`) both write through it,
 * and nothing outside the targets names a dialect. Spellings (types, qualifiers, kernel heads, thread
 * geometry, barriers, math names, literals), capability flags (warp shuffles, look-back across
 * blocks, vector loads) and the small pieces the two dialects write differently (dtype conversions,
 * vectors, rounded arithmetic). `cuda.ts` and `opencl.ts` hold the two targets, `targets.ts` looks
 * one up by name; a new dialect is a new file there.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import type { AtomicFn, BuiltinName, MathFn } from "../jit/ir.ts";
import type { ElementType, ScalarType } from "../jit/types.ts";

/**
 * Registers a helper function that the generated code calls, by name.
 *
 * @example
 * ```ts
 * import type { Need } from "./target.ts";
 * const needed = new Set<string>();
 * const need: Need = (helper) => void needed.add(helper);
 * ```
 */
export type Need = (helper: string) => void;

/** Elements in one vector load or store of {@link Target.vectorLoad} and {@link Target.vectorStore}. */
export const VECTOR_WIDTH = 4;

/**
 * Thread-geometry expressions along x: the thread within its block, the block, threads per block,
 * blocks in the grid.
 *
 * @example
 * ```ts
 * import { targetOf } from "./targets.ts";
 * const { local, group }: import("./target.ts").ThreadIds = targetOf("cuda").threadIds;
 * console.log(local, group); // threadIdx.x blockIdx.x
 * ```
 */
export interface ThreadIds {
  /** The thread's index within its block. */
  readonly local: string;
  /** The block's index. */
  readonly group: string;
  /** Threads per block. */
  readonly groupSize: string;
  /** Blocks in the grid. */
  readonly groups: string;
}

/**
 * Arithmetic rounded after each operation, which the compiler may not contract into a multiply-add.
 *
 * @example
 * ```ts
 * import { targetOf } from "./targets.ts";
 * const ops = targetOf("cuda").roundedOps("float32");
 * console.log(ops?.mul("a", "b")); // __fmul_rn(a, b)
 * ```
 */
export interface RoundedOps {
  /** `a + b`, rounded. */
  add(a: string, b: string): string;
  /** `a * b`, rounded. */
  mul(a: string, b: string): string;
}

/**
 * One target language: everything generated C differs in between dialects.
 *
 * @example
 * ```ts
 * import { targetOf } from "./targets.ts";
 * const t = targetOf("opencl");
 * console.log(`${t.kernelHead} k(${t.pointerParam("float32", "x")}) { ${t.barrier} }`);
 * // __kernel void k(__global float *x) { barrier(CLK_LOCAL_MEM_FENCE); }
 * ```
 */
export interface Target {
  /** The dialect. */
  readonly name: Dialect;
  /** The language as messages name it: `CUDA C`, `OpenCL C`. */
  readonly language: string;

  // ---- capabilities ----
  /** Whether threads of a warp exchange values and votes directly (`__shfl_*_sync`, `__ballot_sync`, 32 lanes). */
  readonly warpShuffle: boolean;
  /**
   * Whether a block may wait for results other blocks publish (single-pass scans and sorts with a
   * decoupled look-back, Onesweep); else such work runs as several passes.
   */
  readonly decoupledLookback: boolean;
  /** Whether elementwise loops read and write aligned {@link VECTOR_WIDTH}-element structs in place (the loop's vector paths). */
  readonly vectorLoads: boolean;

  // ---- types and values ----
  /** The C spelling of `dtype`. */
  cType(dtype: DType): string;
  /** The 64-bit signed integer type, used for element indices. */
  readonly indexType: string;
  /** A complex value of `dtype` (complex64, complex128) from its real and imaginary parts. */
  complexValue(re: string, im: string, dtype: DType): string;
  /** Converts `expr` (of a compute type; a complex `dtype`'s must be of that dtype already) to a value stored as `dtype`. */
  castTo(expr: string, dtype: DType): string;
  /** Reads a stored value of `dtype` as its compute type. */
  load(expr: string, dtype: DType): string;
  /** The name of the C math function `name` for compute type `dtype`. */
  mathFn(name: string, dtype: DType): string;
  /** Positive or negative infinity of a floating compute type. */
  infinity(dtype: DType, negative?: boolean): string;
  /** A literal of `value` in a compute type (`2.5f`, `3`, `1.0e+300`, infinities and NaN). */
  literal(value: number, dtype: DType): string;
  /** An unsigned literal of `bits` bits in hexadecimal. */
  unsignedHex(value: bigint, bits: 32 | 64): string;
  /** `sn = sin(πx)` and `cs = cos(πx)` declared, of float `dtype`. */
  sinCosPi(dtype: DType, x: string): string;
  /** The high 32 bits of a 32-bit unsigned product, as a function name. */
  readonly mulhi: string;
  /** Rounded `+` and `*` of a float dtype; undefined where plain operators are ({@link noContract} turns contraction off). */
  roundedOps(dtype: DType): RoundedOps | undefined;

  // ---- declarations ----
  /** What a kernel source must start with to use these dtypes (headers, extension pragmas). */
  preamble(dtypes: readonly DType[]): string;
  /** A line that keeps the compiler from contracting `a * b + c` into one rounding ("" where no line is needed). */
  readonly noContract: string;
  /** What starts a kernel's definition, before its name: `__global__ void`. */
  readonly kernelHead: string;
  /** A kernel head for blocks of exactly `x × y` threads. */
  kernelHeadSized(x: number, y: number): string;
  /** A hint of `threads` per block (and at least `minBlocks` blocks per multiprocessor) after {@link kernelHead}; "" where there is none. */
  launchBounds(threads: number, minBlocks?: number): string;
  /** The qualifiers of a device function that should be inlined. */
  readonly inline: string;
  /** A global-memory pointer parameter to elements of C type `type`. */
  globalPointer(type: string, name: string, readOnly: boolean, restrict: boolean): string;
  /** A global-memory pointer parameter of `dtype`, not aliased by another. */
  pointerParam(dtype: DType, name: string, readOnly?: boolean): string;
  /** What a pointer type into global memory starts with ("" or `__global `). */
  readonly globalSpace: string;
  /** What a pointer type into shared (local) memory starts with ("" or `__local `). */
  readonly sharedSpace: string;
  /** The qualifier of a shared (local) array declaration. */
  readonly sharedQualifier: string;
  /** A shared (local) memory array of `dtype` declared inside a kernel. */
  sharedArray(dtype: DType, name: string, size: number): string;
  /** A block-wide barrier over shared memory. */
  readonly barrier: string;
  /** A `#pragma unroll` line before a loop (then `indent`), or "". */
  unroll(indent?: string): string;
  /** Thread and block indices and counts along x. */
  readonly threadIds: ThreadIds;
  /** A thread-geometry value (a primary expression), and whether its C type is unsigned int already. */
  builtin(name: BuiltinName, axis: 0 | 1 | 2): { readonly text: string; readonly unsigned: boolean };

  // ---- vectors of VECTOR_WIDTH elements ----
  /** Whether `dtype` has vector loads and stores. */
  hasVector(dtype: DType): boolean;
  /** The declarations vector access to these dtypes needs ("" where the language has the types). */
  vectorTypes(dtypes: readonly DType[]): string;
  /** Declares `name`, the elements of `dtype` from `at` (aligned to the vector). */
  vectorLoad(dtype: DType, name: string, at: string): string;
  /** Element `j` of a loaded vector. */
  vectorPart(name: string, j: number): string;
  /** Stores the values `parts` (of `dtype`) at `at`. */
  vectorStore(dtype: DType, parts: readonly string[], at: string): string;

  // ---- the JIT's pieces ----
  /** The JIT's barrier statement (`syncthreads()`: shared and global memory). */
  readonly syncthreads: string;
  /** What starts a JIT helper function's definition. */
  readonly helper: string;
  /** A JIT kernel's head. */
  kernel(name: string, params: readonly string[]): string;
  /** A JIT device function's head. */
  device(returns: string, name: string, params: readonly string[]): string;
  /** A JIT float constant that is not finite. */
  special(value: number, type: "f32" | "f64"): string;
  /** A JIT math call on arguments of `type`. */
  math(fn: MathFn, type: ScalarType, args: readonly string[], need: Need): string;
  /** A JIT atomic call on `&array[index]` (f32 atomicSub arrives as atomicAdd of the negated value). */
  atomic(
    fn: AtomicFn,
    element: ElementType,
    space: "global" | "shared",
    ptr: string,
    args: readonly string[],
    need: Need,
  ): string;
  /** Lines before everything else in a JIT source. */
  prelude(usesF64: boolean): string[];
}

/**
 * A JIT math call: helpers for round and the NaN-propagating float min and max, the integer
 * functions as they are, the float ones with `suffix` for f32.
 *
 * @example
 * ```ts
 * import { mathCall } from "./target.ts";
 * console.log(mathCall("sqrt", "f32", ["x"], () => {}, "f", "abs")); // sqrtf(x)
 * ```
 */
export function mathCall(
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

/**
 * A literal of `value` in compute type `dtype`, with `t`'s spellings of NaN and the infinities.
 *
 * @example
 * ```ts
 * import { literalIn } from "./target.ts";
 * import { targetOf } from "./targets.ts";
 * console.log(literalIn(targetOf("cuda"), "NAN", 2.5, "float32")); // 2.5f
 * ```
 */
export function literalIn(t: Target, nan: string, value: number, dtype: DType): string {
  if (dtype === "complex64" || dtype === "complex128") {
    const real = dtype === "complex64" ? "float32" : "float64";
    return t.complexValue(literalIn(t, nan, value, real), literalIn(t, nan, 0, real), dtype);
  }
  if (DTYPES[dtype].kind === "float") {
    if (Number.isNaN(value)) return nan;
    if (!Number.isFinite(value)) return t.infinity(dtype, value < 0);
    const text = Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : value.toExponential(17);
    return dtype === "float64" ? text : `${text}f`;
  }
  return String(Math.trunc(value));
}

/**
 * The thread-geometry expressions along x of a target, from its {@link Target.builtin}.
 *
 * @example
 * ```ts
 * import { threadIdsOf } from "./target.ts";
 * import { targetOf } from "./targets.ts";
 * console.log(threadIdsOf(targetOf("opencl")).local); // get_local_id(0)
 * ```
 */
export function threadIdsOf(t: Pick<Target, "builtin">): ThreadIds {
  return {
    local: t.builtin("threadIdx", 0).text,
    group: t.builtin("blockIdx", 0).text,
    groupSize: t.builtin("blockDim", 0).text,
    groups: t.builtin("gridDim", 0).text,
  };
}

/**
 * The C text of a helper function. Each keeps a JavaScript result where C would trap or differ:
 * integer division and remainder by 0 give 0 (JavaScript's `(a / 0) | 0`), `INT_MIN / -1` wraps,
 * `Math.round` rounds halves up, min and max propagate NaN.
 *
 * @example
 * ```ts
 * import { helperSource } from "./target.ts";
 * import { targetOf } from "./targets.ts";
 * console.log(helperSource(targetOf("cuda"), "div_i32"));
 * ```
 */
export function helperSource(d: Target, helper: string): string {
  const u = d.cType("uint32");
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
