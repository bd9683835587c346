/**
 * Binding `--arg NAME=VALUE` to a kernel's parameters: every parameter needs a value, values are
 * evaluated in dependency order (`x=rand(n)` after `n`), scalars are converted to the parameter's C
 * type, vectors (`float3 v`) take a list of values (`v=1,2,3`) and pointers get arrays of the type they
 * point to.
 *
 * @module
 */

import type { KernelParam, KernelSignature } from "../kernel/signature.ts";
import { DTYPES, type TypedArray } from "../kernel/dtype.ts";
import { UsageError } from "./usage_error.ts";
import { type ArgEnv, type ArgExpr, parseArgValue, referencedArgs, splitAssignment } from "./values.ts";
import { evaluateScalar, evaluateVector } from "./evaluate.ts";
import { materializeArray } from "./materialize.ts";

/**
 * One parameter with its value: a scalar, a vector's values, an array (copied to the device and back)
 * or, for an OpenCL `__local` pointer, the bytes of local memory to reserve per work-group.
 *
 * @example
 * ```ts
 * import { type BoundArg, bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__global__ void fill(float *x, int n) {}", "cuda");
 * const [x]: readonly BoundArg[] = bindArgs(k, ["n=4", "x=zeros(n)"]).args;
 * console.log(x.kind); // "array"
 * ```
 */
export type BoundArg =
  | { readonly kind: "scalar"; readonly param: KernelParam; readonly value: number | bigint }
  | { readonly kind: "vector"; readonly param: KernelParam; readonly values: readonly (number | bigint)[] }
  | {
    readonly kind: "array";
    readonly param: KernelParam;
    readonly data: TypedArray;
    readonly shape: readonly number[];
  }
  | { readonly kind: "local"; readonly param: KernelParam; readonly bytes: number };

/**
 * The kernel's arguments in parameter order, and every value by name (for sizes that refer to them).
 *
 * @example
 * ```ts
 * import { type BoundArgs, bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__kernel void f(__global float *x, int n) {}", "opencl");
 * const bound: BoundArgs = bindArgs(k, ["n=8", "x=ones(n)"]);
 * console.log(bound.env.get("n")); // 8
 * ```
 */
export interface BoundArgs {
  /** One per parameter, in order. */
  readonly args: readonly BoundArg[];
  /** The values by parameter name: scalars as numbers or bigints, arrays as typed arrays. */
  readonly env: ArgEnv;
}

function kindOf(param: KernelParam): BoundArg["kind"] {
  if (param.pointer && param.addressSpace === "local") return "local";
  if (!param.pointer && param.vector !== undefined) return "vector";
  return param.pointer ? "array" : "scalar";
}

function example(param: KernelParam): string {
  const element = param.dtype ?? param.vector?.element;
  const float = element !== undefined && DTYPES[element].kind === "float";
  switch (kindOf(param)) {
    case "vector":
      return `--arg ${param.name}=${
        Array.from({ length: param.vector!.lanes }, () => float ? "1.5" : "1").join(",")
      }`;
    case "local":
      return `--arg ${param.name}=256`;
    case "array":
      return `--arg ${param.name}=${float ? "rand" : "zeros"}(1024)`;
    case "scalar":
      return `--arg ${param.name}=${float ? "1.5" : "1024"}`;
  }
}

function checkSupported(kernel: KernelSignature): void {
  if (kernel.template) {
    throw new UsageError(
      `Cannot run ${kernel.name}: it is a template, so its parameter types depend on an instantiation; ` +
        "add a non-template __global__ kernel that calls it, and run that",
    );
  }
  for (const p of kernel.params) {
    if (p.dtype === undefined && kindOf(p) !== "vector") {
      const what = p.pointer ? `a pointer to ${p.base}` : `${p.base} by value`;
      throw new UsageError(
        `Cannot run ${kernel.name}: parameter ${p.name} (${p.text}) is ${what}, which cudeno run cannot make; ` +
          "declare it with a scalar type such as float or int, a vector type such as float4, or a pointer to a scalar",
      );
    }
  }
}

/** What a parameter's value must be, for messages: "an integer", "a number", "an array (...)". */
function needs(param: KernelParam): string {
  const kind = kindOf(param);
  if (kind === "array") return "an array, such as rand(1024), zeros(n) or @file.npy";
  if (kind === "local") return "a count of elements, such as 256";
  if (kind === "vector") return `${param.vector!.lanes} values, as ${example(param).slice(6)}`;
  const info = DTYPES[param.dtype!];
  return info.kind === "float" ? "a number" : info.kind === "bool" ? "0 or 1" : "an integer";
}

/** The error for a value that uses a name that is no parameter: most often a typo for a literal. */
function unknownName(kernel: KernelSignature, param: KernelParam, expr: ArgExpr, name: string): UsageError {
  const shown = expr.source.trim();
  const which = shown === name ? "which" : `where ${name}`;
  return new UsageError(
    `Cannot use --arg ${param.name}=${expr.source}: ${param.name} (${param.text}) needs ${
      needs(param)
    } and got ${shown}, ${which} is neither a number nor one of ${kernel.name}'s parameters (${
      kernel.params.map((p) => p.name).join(", ")
    })`,
  );
}

/** The parameters in an order where each comes after those its value refers to. */
function evaluationOrder(kernel: KernelSignature, exprs: ReadonlyMap<string, ArgExpr>): KernelParam[] {
  const byName = new Map(kernel.params.map((p) => [p.name, p]));
  const order: KernelParam[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (param: KernelParam, path: string[]): void => {
    const seen = state.get(param.name);
    if (seen === "done") return;
    if (seen === "visiting") {
      const cycle = [...path.slice(path.indexOf(param.name)), param.name].join(" → ");
      throw new UsageError(
        `Cannot evaluate --arg ${param.name}: its value depends on itself (${cycle}); give one of them a value that uses neither`,
      );
    }
    state.set(param.name, "visiting");
    for (const name of referencedArgs(exprs.get(param.name)!)) {
      const used = byName.get(name);
      if (used === undefined) throw unknownName(kernel, param, exprs.get(param.name)!, name);
      visit(used, [...path, param.name]);
    }
    state.set(param.name, "done");
    order.push(param);
  };
  for (const p of kernel.params) visit(p, []);
  return order;
}

/**
 * Binds `NAME=VALUE` assignments to `kernel`'s parameters. Scalars are evaluated and converted to the
 * parameter's type; pointers become arrays of their element type (generators or `@file.npy`, whose
 * dtype must match); an OpenCL `__local T *` parameter takes an element count and reserves that many
 * `T` per work-group. A later assignment to the same name replaces an earlier one.
 *
 * @param kernel The kernel.
 * @param assignments The `--arg` texts.
 * @param seed The seed of `rand` and `randn`.
 * @returns The arguments in parameter order, and the values by name.
 * @throws {UsageError} If a name is not a parameter, a parameter has no value, values refer to each other
 * in a cycle, or a value does not parse or fit its parameter.
 *
 * @example
 * ```ts
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__global__ void saxpy(int n, float a, const float *x, float *y) {}", "cuda");
 * const { args } = bindArgs(k, ["n=1<<10", "a=2", "x=rand(n)", "y=rand(n)"]);
 * console.log(args.map((a) => a.kind)); // ["scalar", "scalar", "array", "array"]
 * ```
 */
export function bindArgs(
  kernel: KernelSignature,
  assignments: readonly string[],
  seed: bigint = 0n,
): BoundArgs {
  checkSupported(kernel);
  const names = new Set(kernel.params.map((p) => p.name));
  const texts = new Map<string, string>();
  for (const text of assignments) {
    const { name, value } = splitAssignment(text, "--arg");
    if (!names.has(name)) {
      const list = kernel.params.map((p) => p.name).join(", ") || "none";
      throw new UsageError(
        `Cannot use --arg ${text}: ${kernel.name} has no parameter ${name} (its parameters are ${list})`,
      );
    }
    texts.set(name, value);
  }
  const missing = kernel.params.filter((p) => !texts.has(p.name));
  if (missing.length > 0) {
    const plural = missing.length > 1;
    throw new UsageError(
      `Cannot run ${kernel.name}: no value for ${missing.map((p) => `${p.name} (${p.text})`).join(", ")}; ` +
        `give ${plural ? "each" : "it"} with --arg, e.g. ${missing.map(example).join(" ")}`,
    );
  }
  const exprs = new Map<string, ArgExpr>();
  for (const [name, value] of texts) exprs.set(name, parseArgValue(value, name));
  const env = new Map<string, number | bigint | TypedArray>();
  const bound = new Map<string, BoundArg>();
  for (const param of evaluationOrder(kernel, exprs)) {
    const expr = exprs.get(param.name)!;
    const kind = kindOf(param);
    if (kind === "vector") {
      const { element, lanes } = param.vector!;
      const values = evaluateVector(
        expr,
        env,
        { dtype: element, param: param.name, ctype: param.text },
        lanes,
      );
      const held = new DTYPES[element].array(lanes);
      values.forEach((v, i) => held[i] = v as never);
      env.set(param.name, held);
      bound.set(param.name, { kind, param, values });
      continue;
    }
    const dtype = param.dtype!;
    if (kind === "scalar") {
      const value = evaluateScalar(expr, env, { dtype, param: param.name, ctype: param.text });
      env.set(param.name, value);
      bound.set(param.name, { kind, param, value });
    } else if (kind === "array") {
      const { data, shape } = materializeArray(expr, env, { dtype, param: param.name, ctype: param.base }, {
        seed,
      });
      env.set(param.name, data);
      bound.set(param.name, { kind, param, data, shape });
    } else {
      const ctype = `${param.text}, given as a count of ${param.base} elements per work-group,`;
      const count = Number(evaluateScalar(expr, env, { dtype: "uint32", param: param.name, ctype }));
      if (count === 0) {
        throw new UsageError(
          `Cannot use ${param.name}=${expr.source}: a __local parameter needs at least 1 element; give a count such as ${param.name}=256`,
        );
      }
      env.set(param.name, count);
      bound.set(param.name, { kind, param, bytes: count * DTYPES[dtype].size });
    }
  }
  return { args: kernel.params.map((p) => bound.get(p.name)!), env };
}
