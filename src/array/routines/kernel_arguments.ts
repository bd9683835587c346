/**
 * The checks `ElementwiseKernel` and `ReductionKernel` make of what they are declared with, before
 * anything is parsed: PyCUDA's habits (positional `ReductionKernel` arguments, `reduce_expr`,
 * `map_expr`, `dtype_out`) and other mistakes are TypeErrors that show the call to write.
 *
 * @module
 */

import { isDType } from "../../kernel/dtype.ts";
import { checkOptions } from "../../kernel/options.ts";
import { parseParameterList } from "../../kernel/signature.ts";
import type { ReductionOptions } from "./kernels.ts";

const EXAMPLE = `new ga.ReductionKernel("float32", { neutral: "0", reduce: "a + b", map: "x[i] * y[i]", ` +
  `arguments: "float *x, float *y" })`;
const KNOWN = ["neutral", "reduce", "map", "arguments", "name", "preamble"];
/** PyCUDA's keyword arguments that cudeno spells otherwise. */
const PYCUDA: Record<string, string> = { reduce_expr: "reduce", map_expr: "map" };
const REQUIRED: Record<string, string> = {
  neutral: 'the neutral element of reduce, as "0"',
  reduce: 'a C expression folding two partial results a and b, as "a + b"',
  arguments: 'the C argument list, as "float *x, float *y"',
};

function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(shown).join(", ")}]`;
  if (value === null || typeof value !== "object") return String(value);
  return value.constructor === Object ? "an object" : `a ${value.constructor?.name ?? "object"}`;
}

/** What a dtype argument should have been, where it names a C type (`"float"`), else an empty string. */
function dtypeOfCType(text: string): string {
  try {
    const dtype = parseParameterList(`${text} x`, "cuda")[0]?.dtype;
    return dtype === undefined ? "" : `: "${text}" is a C type, whose dtype is "${dtype}"`;
  } catch {
    return "";
  }
}

/**
 * Checks a `ReductionKernel`'s dtype and options (and that no PyCUDA positional arguments follow, in
 * `more`), and returns the options.
 *
 * @example
 * ```ts
 * import { readReductionOptions } from "./kernel_arguments.ts";
 * const options = readReductionOptions("float32", { neutral: "0", reduce: "a + b", arguments: "float *x" }, []);
 * try {
 *   readReductionOptions("float32", { neutral: "0", reduce_expr: "a + b", arguments: "float *x" }, []);
 * } catch (e) {
 *   console.log((e as TypeError).message); // ... option "reduce_expr", PyCUDA's name: cudeno's is reduce ...
 * }
 * ```
 *
 * @throws {TypeError} naming what is wrong and the call to write instead.
 */
export function readReductionOptions(
  dtype: unknown,
  options: unknown,
  more: readonly unknown[],
): ReductionOptions {
  if (typeof options === "string") {
    // PyCUDA's ReductionKernel(dtype_out, neutral, reduce_expr, map_expr, arguments, name).
    const names = ["neutral", "reduce", "map", "arguments", "name"];
    const given = [options, ...more].slice(0, names.length).map((v, i) =>
      typeof v === "string" ? `${names[i]}: ${JSON.stringify(v)}` : ""
    ).filter((s) => s !== "");
    throw new TypeError(
      `Cannot build a ReductionKernel from positional arguments (PyCUDA's order): pass them as options, ` +
        `new ga.ReductionKernel(${JSON.stringify(dtype)}, { ${given.join(", ")} })`,
    );
  }
  if (typeof dtype !== "string") {
    throw new TypeError(
      `Cannot build a ReductionKernel with ${shown(dtype)} as its dtype: the first argument is the ` +
        `result's dtype, then the options, as ${EXAMPLE}`,
    );
  }
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot build a ReductionKernel of dtype "${dtype}": unknown dtype${dtypeOfCType(dtype)}; ` +
        `dtypes are written as NumPy's, as "float32", "float64", "int32"`,
    );
  }
  if (options === undefined) {
    throw new TypeError(`Cannot build a ReductionKernel without its options: write ${EXAMPLE}`);
  }
  if (typeof options === "object" && options !== null && !Array.isArray(options)) {
    for (const key of Object.keys(options)) {
      if (key in PYCUDA) {
        throw new TypeError(
          `Cannot build a ReductionKernel with option "${key}", PyCUDA's name: cudeno's is ${
            PYCUDA[key]
          } (the options are ${KNOWN.join(", ")}), as ${EXAMPLE}`,
        );
      }
      if (key === "dtype_out" || key === "dtype") {
        throw new TypeError(
          `Cannot build a ReductionKernel with option "${key}": the result's dtype is the first argument, as ${EXAMPLE}`,
        );
      }
    }
  }
  checkOptions(options, "build a ReductionKernel", EXAMPLE, KNOWN);
  const o = options as Record<string, unknown>;
  for (const key of KNOWN) {
    if (o[key] === undefined) {
      if (key in REQUIRED) {
        throw new TypeError(
          `Cannot build a ReductionKernel without option ${key} (${REQUIRED[key]}): write ${EXAMPLE}`,
        );
      }
    } else if (typeof o[key] !== "string") {
      throw new TypeError(
        `Cannot build a ReductionKernel with ${key} ${shown(o[key])} (a ${typeof o[key]}): ` +
          `options are strings of C, as ${key}: ${JSON.stringify(String(o[key]))}`,
      );
    }
  }
  return o as unknown as ReductionOptions;
}

/**
 * Checks an `ElementwiseKernel`'s declaration: the argument list and operation are strings, the name a
 * string, the options an object of known keys.
 *
 * @example
 * ```ts
 * import { checkElementwiseArguments } from "./kernel_arguments.ts";
 * checkElementwiseArguments("float *x, float *z", "z[i] = 2 * x[i]", "twice", undefined); // fine
 * ```
 *
 * @throws {TypeError} naming the argument and what to pass.
 */
export function checkElementwiseArguments(
  args: unknown,
  operation: unknown,
  name: unknown,
  options: unknown,
): void {
  const example = `new ga.ElementwiseKernel("float *x, float *z, float a", "z[i] = a * x[i]", "scale")`;
  if (typeof args !== "string") {
    const joined = Array.isArray(args) && args.every((a) => typeof a === "string")
      ? `: ${JSON.stringify(args.join(", "))}`
      : `, as ${example}`;
    throw new TypeError(
      `Cannot build an ElementwiseKernel with ${shown(args)} as its arguments: ` +
        `the first argument is the C argument list as one string${joined}`,
    );
  }
  if (typeof operation !== "string") {
    throw new TypeError(
      `Cannot build an ElementwiseKernel with ${shown(operation)} as its operation: ` +
        `the second argument is C statements on element i as a string, as ${example}`,
    );
  }
  if (name !== undefined && typeof name !== "string") {
    throw new TypeError(
      `Cannot build an ElementwiseKernel with ${shown(name)} as its name: the third argument is the ` +
        `kernel's name, and options ({ preamble }) come fourth`,
    );
  }
  checkOptions(options, "build an ElementwiseKernel", '{ preamble: "#define SQ(v) ((v) * (v))" }', [
    "preamble",
  ]);
}
