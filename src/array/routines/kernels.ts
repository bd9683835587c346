/**
 * PyCUDA's `ElementwiseKernel` and `ReductionKernel`: kernels from a C argument list and a snippet,
 * generated as CUDA C or OpenCL C for the backend they run on.
 *
 * @module
 */

import type { Backend } from "../../device/backend.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { reduceToHost } from "../exec/reduction.ts";
import { cType, indexType, preamble as dtypePreamble } from "../../codegen/c.ts";
import { broadcastShapes } from "../core/layout.ts";
import { runLoop } from "../exec/loop.ts";
import { type KernelParam, parseParameterList } from "../../kernel/signature.ts";
import type { DType } from "../../kernel/dtype.ts";
import { sha256Hex } from "../../kernel/cache.ts";
import { withProperties } from "../../kernel/callable.ts";
import { Placements, Snippet } from "./snippet.ts";
import { checkElementwiseArguments, readReductionOptions } from "./kernel_arguments.ts";

function readParams(args: string, what: string): KernelParam[] {
  const params = parseParameterList(args, "cuda");
  for (const p of params) {
    if (p.dtype === undefined) {
      throw new TypeError(
        `Cannot build ${what}: parameter ${p.name} has type "${p.base}", which has no dtype; use float, double, int, ...`,
      );
    }
  }
  if (!params.some((p) => p.pointer)) {
    throw new TypeError(`Cannot build ${what}: it needs at least one pointer (array) argument`);
  }
  return params;
}

function identifier(name: string, what: string): string {
  if (!/^[A-Za-z_]\w*$/.test(name)) {
    throw new SyntaxError(`Cannot build ${what}: "${name}" is not a C identifier`);
  }
  return name;
}

/** Checks a call's values against the declared parameters; returns the arrays' backend and the arrays. */
function checkArguments(
  params: readonly KernelParam[],
  args: readonly unknown[],
  what: string,
): { backend: Backend; arrays: GPUArray[] } {
  if (args.length !== params.length) {
    throw new TypeError(
      `Cannot call ${what}: it takes ${params.length} arguments (${
        params.map((p) => p.name).join(", ")
      }), got ${args.length}`,
    );
  }
  const arrays: GPUArray[] = [];
  params.forEach((p, i) => {
    const arg = args[i];
    if (!p.pointer) return;
    if (!(arg instanceof GPUArray)) {
      throw new TypeError(`Cannot call ${what}: argument ${p.name} must be a GPUArray of ${p.dtype}`);
    }
    if (arg.dtype !== p.dtype) {
      throw new TypeError(`Cannot call ${what}: argument ${p.name} is ${arg.dtype}, declared ${p.text}`);
    }
    if (arrays.length > 0 && arg.backend !== arrays[0]!.backend) {
      throw new TypeError(`Cannot call ${what}: its arrays live on different backends`);
    }
    arrays.push(arg);
  });
  return { backend: arrays[0]?.backend ?? activeBackend(), arrays };
}

/** The scalar arguments of a call, with their declared dtypes. */
function scalarArguments(params: readonly KernelParam[], args: readonly unknown[]) {
  return params.filter((p) => !p.pointer).map((p) => ({
    value: args[p.index] as number | bigint,
    dtype: p.dtype!,
  }));
}

class ElementwiseImpl {
  /** The kernel's name. */
  readonly name: string;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
  readonly #operation: Snippet;
  readonly #preamble: string;
  readonly #key: string;

  /**
   * Declares the kernel (named `elementwise_kernel` unless `name` is given); it is generated and compiled
   * for a backend on first call.
   *
   * @throws {TypeError} for a parameter type without a dtype, or no array parameter.
   */
  constructor(
    args: string,
    operation: string,
    name = "elementwise_kernel",
    options: { preamble?: string } = {},
  ) {
    checkElementwiseArguments(args, operation, name, options);
    this.name = identifier(name, "an ElementwiseKernel");
    this.params = readParams(args, `ElementwiseKernel ${name}`);
    this.#operation = new Snippet(this.params, operation, "operation");
    this.#preamble = options.preamble ?? "";
    this.#key = `ek:${this.name}:${sha256Hex(args, operation, this.#preamble).slice(0, 16)}`;
  }

  /** Runs the kernel over the arrays' broadcast shape. */
  call(args: readonly unknown[]): void {
    const what = `call ElementwiseKernel ${this.name}`;
    const { arrays } = checkArguments(this.params, args, `ElementwiseKernel ${this.name}`);
    const shape = broadcastShapes(arrays.map((a) => a.shape), what);
    this.#operation.checkRaw(arrays, shape, what);
    const dialect = arrays[0]!.backend.dialect;
    const placements = new Placements();
    try {
      runLoop(
        {
          key: this.#key,
          arrays,
          written: this.#operation.written,
          scalars: scalarArguments(this.params, args),
          helpers: `${dtypePreamble(this.params.map((p) => p.dtype!), dialect)}\n${
            this.#preamble === "" ? "" : placements.place("preamble", this.#preamble)
          }`,
          statement: (ref, scalar) => {
            const pointer = ref.map((r) => r.slice(0, r.indexOf("[")));
            const { locals, code } = this.#operation.bind(ref, scalar, pointer, dialect, placements);
            return `{ ${locals} ${code}; }`;
          },
        },
        shape,
        what,
      );
    } catch (e) {
      throw placements.explain(e, `ElementwiseKernel ${this.name}`);
    }
  }
}

/** What a {@link ReductionKernel} computes. */
export interface ReductionOptions {
  /** The neutral element of `reduce`, a C expression (`"0"`, `"-INFINITY"`). */
  readonly neutral: string;
  /** Folds two partial results `a` and `b` (`"a + b"`). */
  readonly reduce: string;
  /** The value element `i` contributes (`"x[i] * y[i]"`). Default: the first argument's `[i]`. */
  readonly map?: string;
  /** The C argument list (`"float *x, float *y"`). */
  readonly arguments: string;
  /** The kernel's name. Default `reduce_kernel`. */
  readonly name?: string;
  /** C code placed before the kernel (helper functions). Default: none. */
  readonly preamble?: string;
}

class ReductionImpl {
  /** The result's dtype (also the accumulator's). */
  readonly dtype: DType;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
  readonly #name: string;
  readonly #options: ReductionOptions;
  readonly #map: Snippet;
  readonly #key: string;

  /**
   * Declares the reduction; it is generated and compiled for a backend on first call.
   *
   * @throws {TypeError} for an unknown dtype or an argument without a dtype.
   */
  constructor(dtype: DType, options: ReductionOptions) {
    const name = identifier(options.name ?? "reduce_kernel", "a ReductionKernel");
    this.dtype = dtype;
    this.#name = name;
    this.params = readParams(options.arguments, `ReductionKernel ${name}`);
    this.#options = options;
    this.#map = new Snippet(
      this.params,
      options.map ?? `${this.params.find((p) => p.pointer)!.name}[i]`,
      "map",
    );
    const hash = sha256Hex(
      dtype,
      options.neutral,
      options.reduce,
      options.map ?? "",
      options.arguments,
      options.preamble ?? "",
    );
    this.#key = `rk:${name}_${hash.slice(0, 12)}`;
  }

  /**
   * Maps and folds the elements of the array arguments, broadcast together (each indexed through its
   * layout, with no copy); returns the result as a host number.
   */
  call(args: readonly unknown[]): number {
    const what = `call ReductionKernel ${this.#name}`;
    const { arrays } = checkArguments(this.params, args, `ReductionKernel ${this.#name}`);
    const shape = broadcastShapes(arrays.map((a) => a.shape), what);
    this.#map.checkRaw(arrays, shape, what);
    const dialect = arrays[0]!.backend.dialect;
    const scalars = scalarArguments(this.params, args);
    const acc = cType(this.dtype, dialect), index = indexType(dialect);
    const options = this.#options, placements = new Placements();
    let value;
    try {
      value = reduceToHost(
        {
          key: this.#key,
          arrays,
          values: scalars.map((s) => s.value),
          scalars: scalars.map((s) => s.dtype),
          acc: { dtype: this.dtype, identity: placements.place("neutral", options.neutral) },
          combine: `return (${placements.place("reduce", options.reduce)});`,
          helpers: options.preamble === undefined ? "" : placements.place("preamble", options.preamble),
          out: this.dtype,
          indexed: true,
          prologue: (ref, scalar, i, into, pointer) => {
            const { locals, code } = this.#map.bind(ref, scalar, pointer, dialect, placements);
            return `{ ${locals} const ${index} i = ${i}; ${into} = (${acc})(${code}); }`;
          },
          epilogue: (a) => a,
        },
        shape,
        what,
        `ReductionKernel ${this.#name}()`,
      );
    } catch (e) {
      throw placements.explain(e, `ReductionKernel ${this.#name}`);
    }
    return Number(value);
  }
}

/**
 * An elementwise kernel from a C argument list and an operation on element `i` (PyCUDA's
 * `ElementwiseKernel`): call it with the arguments; the element count is the first array's size.
 */
export interface ElementwiseKernel {
  /** Runs the kernel over the first array argument's elements. */
  (...args: unknown[]): void;
  /** The kernel's name. */
  readonly kernelName: string;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
}

/**
 * Declares an elementwise kernel; it is generated and compiled for a backend on first call.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const lin = new ga.ElementwiseKernel("float *x, float *y, float *z, float a, float b", "z[i] = a*x[i] + b*y[i]", "lin_comb");
 * const x = ga.ones(8), y = ga.arange(8, "float32"), z = ga.emptyLike(x);
 * lin(x, y, z, 3, -1);
 * ```
 */
export const ElementwiseKernel: new (
  args: string,
  operation: string,
  name?: string,
  options?: { preamble?: string },
) => ElementwiseKernel = function (
  args: string,
  operation: string,
  name?: string,
  options?: { preamble?: string },
) {
  const impl = new ElementwiseImpl(args, operation, name, options);
  return withProperties((...values: unknown[]) => impl.call(values), {
    kernelName: impl.name,
    params: impl.params,
  });
} as unknown as new (
  args: string,
  operation: string,
  name?: string,
  options?: { preamble?: string },
) => ElementwiseKernel;

/**
 * A reduction from C snippets (PyCUDA's `ReductionKernel`): maps each element, folds with a tree
 * reduction, and returns the result to the host when called.
 */
export interface ReductionKernel {
  /** Reduces over the first array argument's elements; returns the result as a host number. */
  (...args: unknown[]): number;
  /** The result's dtype. */
  readonly dtype: DType;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
}

/**
 * Declares a reduction; it is generated and compiled for a backend on first call.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const dot = new ga.ReductionKernel("float32", { neutral: "0", reduce: "a+b", map: "x[i]*y[i]", arguments: "float *x, float *y" });
 * console.log(dot(ga.ones(4), ga.arange(4, "float32"))); // 6
 * ```
 */
export const ReductionKernel: new (dtype: DType, options: ReductionOptions) => ReductionKernel = function (
  dtype: DType,
  options: ReductionOptions,
  ...more: unknown[]
) {
  const impl = new ReductionImpl(dtype, readReductionOptions(dtype, options, more));
  return withProperties((...values: unknown[]) => impl.call(values), {
    dtype: impl.dtype,
    params: impl.params,
  });
} as unknown as new (dtype: DType, options: ReductionOptions) => ReductionKernel;
