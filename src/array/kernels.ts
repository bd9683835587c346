/**
 * PyCUDA's `ElementwiseKernel` and `ReductionKernel`: kernels from a C argument list and a snippet,
 * generated as CUDA C or OpenCL C for the backend they run on.
 *
 * @module
 */

import { activeBackend, type Backend } from "./backend.ts";
import { GPUArray } from "./gpuarray.ts";
import { type ReductionPlan, runReduction } from "./ops.ts";
import { cType, indexType, kernelHead, pointerParam, preamble as dtypePreamble } from "./codegen.ts";
import { type KernelParam, parseParameterList } from "../kernel/signature.ts";
import { type DType, isDType } from "../kernel/dtype.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import { sha256Hex } from "../kernel/cache.ts";
import { withProperties } from "../kernel/callable.ts";

function declare(p: KernelParam, dialect: Dialect): string {
  return p.pointer
    ? pointerParam(p.dtype!, p.name, dialect, p.isConst)
    : `${cType(p.dtype!, dialect)} ${p.name}`;
}

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

/** Checks the call's arguments against the declared parameters; returns the element count (the first array's size). */
function bindArguments(
  params: readonly KernelParam[],
  args: readonly unknown[],
  what: string,
): { backend: Backend; n: number; values: unknown[] } {
  if (args.length !== params.length) {
    throw new TypeError(
      `Cannot call ${what}: it takes ${params.length} arguments (${
        params.map((p) => p.name).join(", ")
      }), got ${args.length}`,
    );
  }
  let backend: Backend | undefined;
  let n: number | undefined;
  const values = params.map((p, i) => {
    const arg = args[i];
    if (!p.pointer) return arg;
    if (!(arg instanceof GPUArray)) {
      throw new TypeError(`Cannot call ${what}: argument ${p.name} must be a GPUArray of ${p.dtype}`);
    }
    if (arg.dtype !== p.dtype) {
      throw new TypeError(`Cannot call ${what}: argument ${p.name} is ${arg.dtype}, declared ${p.text}`);
    }
    backend ??= arg.backend;
    if (arg.backend !== backend) {
      throw new TypeError(`Cannot call ${what}: its arrays live on different backends`);
    }
    n ??= arg.size;
    if (arg.size < n) {
      throw new RangeError(
        `Cannot call ${what}: argument ${p.name} has ${arg.size} elements, fewer than the first array's ${n}`,
      );
    }
    return arg.buffer;
  });
  return { backend: backend ?? activeBackend(), n: n!, values };
}

class ElementwiseImpl {
  /** The kernel's name. */
  readonly name: string;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
  readonly #operation: string;
  readonly #preamble: string;

  /**
   * Declares the kernel; it is generated and compiled for a backend on first call.
   *
   * @throws {TypeError} for a parameter type without a dtype, or no array parameter.
   */
  constructor(
    args: string,
    operation: string,
    name = "elementwise_kernel",
    options: { preamble?: string } = {},
  ) {
    this.name = identifier(name, "an ElementwiseKernel");
    this.params = readParams(args, `ElementwiseKernel ${name}`);
    this.#operation = operation;
    this.#preamble = options.preamble ?? "";
  }

  /** The kernel's source for `dialect`. */
  source(dialect: Dialect): string {
    const ix = indexType(dialect);
    const params = [...this.params.map((p) => declare(p, dialect)), `${ix} n`];
    const [start, stride] = dialect === "cuda"
      ? [`(${ix})blockIdx.x * blockDim.x + threadIdx.x`, `(${ix})blockDim.x * gridDim.x`]
      : ["get_global_id(0)", "get_global_size(0)"];
    return `${dtypePreamble(this.params.map((p) => p.dtype!), dialect)}
${this.#preamble}
${kernelHead(dialect)} ${this.name}(${params.join(", ")}) {
  for (${ix} i = ${start}; i < n; i += ${stride}) { ${this.#operation}; }
}`;
  }

  /** Runs the kernel over the first array argument's elements. */
  call(args: readonly unknown[]): void {
    const { backend, n, values } = bindArguments(this.params, args, `ElementwiseKernel ${this.name}`);
    if (n === 0) return;
    const kernel = backend.kernel(this.source(backend.dialect), this.name);
    const groups = Math.min(Math.ceil(n / 256), 65536);
    kernel.launch({ grid: [groups, 1], block: [256, 1] }, [...values, n]);
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
  /** C code placed before the kernel (helper functions). */
  readonly preamble?: string;
}

class ReductionImpl {
  /** The result's dtype (also the accumulator's). */
  readonly dtype: DType;
  /** The declared parameters. */
  readonly params: readonly KernelParam[];
  readonly #options: ReductionOptions;
  readonly #key: string;

  /**
   * Declares the reduction; it is generated and compiled for a backend on first call.
   *
   * @throws {TypeError} for an unknown dtype or an argument without a dtype.
   */
  constructor(dtype: DType, options: ReductionOptions) {
    if (!isDType(dtype)) {
      throw new TypeError(`Cannot build a ReductionKernel of dtype "${dtype}": unknown dtype`);
    }
    const name = identifier(options.name ?? "reduce_kernel", "a ReductionKernel");
    this.dtype = dtype;
    this.params = readParams(options.arguments, `ReductionKernel ${name}`);
    this.#options = options;
    const hash = sha256Hex(
      dtype,
      options.neutral,
      options.reduce,
      options.map ?? "",
      options.arguments,
      options.preamble ?? "",
    );
    this.#key = `${name}_${hash.slice(0, 12)}`;
  }

  #plan(dialect: Dialect): ReductionPlan {
    const first = this.params.find((p) => p.pointer)!;
    return {
      key: this.#key,
      params: this.params.map((p) => declare(p, dialect)),
      acc: this.dtype,
      neutral: this.#options.neutral,
      reduce: this.#options.reduce,
      map: this.#options.map ?? `${first.name}[i]`,
      preamble: `${dtypePreamble([this.dtype, ...this.params.map((p) => p.dtype!)], dialect)}\n${
        this.#options.preamble ?? ""
      }`,
    };
  }

  /** Reduces over the first array argument's elements; returns the result as a host number. */
  call(args: readonly unknown[]): number {
    const { backend, n, values } = bindArguments(this.params, args, `ReductionKernel ${this.#key}`);
    if (n === 0) throw new RangeError("Cannot reduce zero elements: the first array argument is empty");
    const result = runReduction(backend, this.#plan(backend.dialect), values, n);
    return Number(result);
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
  /** The generated source for `dialect`. */
  source(dialect: Dialect): string;
}

/**
 * Declares an elementwise kernel; it is generated and compiled for a backend on first call.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const lin = new ga.ElementwiseKernel("float *x, float *y, float *z, float a, float b", "z[i] = a*x[i] + b*y[i]", "lin_comb");
 * const x = ga.ones(8), y = ga.arange(8), z = ga.emptyLike(x);
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
    source: (dialect: Dialect) => impl.source(dialect),
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
 * console.log(dot(ga.ones(4), ga.arange(4))); // 6
 * ```
 */
export const ReductionKernel: new (dtype: DType, options: ReductionOptions) => ReductionKernel = function (
  dtype: DType,
  options: ReductionOptions,
) {
  const impl = new ReductionImpl(dtype, options);
  return withProperties((...values: unknown[]) => impl.call(values), {
    dtype: impl.dtype,
    params: impl.params,
  });
} as unknown as new (dtype: DType, options: ReductionOptions) => ReductionKernel;
