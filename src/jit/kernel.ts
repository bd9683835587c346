/**
 * `jit()` and `device()`: the entry points that turn TypeScript functions into kernels and device
 * functions, with their generated sources, simulator and launch hook.
 *
 * @module
 */

import { DTYPES } from "../kernel/dtype.ts";
import { checkArgs } from "./args.ts";
import { INTRINSIC_NAMES } from "./builtins.ts";
import { checkLaunchConfig, geometry } from "./config.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import { emit } from "./emit.ts";
import type { JitArg, JitParam } from "./intrinsics.ts";
import type { Binding, FunctionIR } from "./ir.ts";
import { type JitParamInfo, type LaunchMemo, launchOnGpu } from "./gpu.ts";
import { sha256Hex } from "../kernel/cache.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import { dialectNames, isDialect } from "../codegen/targets.ts";
import { sanitizeName } from "./names.ts";
import { invokeDevice, simulateKernel } from "./simulate.ts";
import { translate } from "./translate.ts";
import {
  ELEMENTS,
  type HostArray,
  type JitType,
  type ParsedType,
  parseType,
  type ReturnType,
  SCALAR_DTYPES,
  type ScalarType,
  TYPE_NAMES,
} from "./types.ts";

/**
 * A kernel's or device function's parameters, in order, each with its type: `{ a: "f32[]", n: "i32" }`.
 * The keys must be the function's parameter names.
 *
 * @example
 * ```ts
 * import { jit, type Signature } from "@cudeno/cudeno/jit";
 * const signature: Signature = { x: "f32[]", n: "i32" };
 * const k = jit(signature, (x, n) => {
 *   x[0] = n;
 * });
 * ```
 */
export type Signature = Readonly<Record<string, JitType>>;

/**
 * What {@link jit} and {@link device} accept in common.
 *
 * @example
 * ```ts
 * import { device, type FunctionOptions } from "@cudeno/cudeno/jit";
 * const options: FunctionOptions = { name: "quarter" };
 * const quarter = device({ x: "f32" }, "f32", (x) => x * 0.25, options);
 * ```
 */
export interface FunctionOptions {
  /** The C name (sanitized); else the function's name. Default: the function's name. */
  readonly name?: string;
  /** Compile-time constants the body may use by name, as literals: `{ TILE: 16 }`. Default: none. */
  readonly constants?: Readonly<Record<string, number | boolean>>;
  /** Device functions the body may call, by the name it calls them: `{ sq }`. Default: none. */
  readonly use?: Readonly<Record<string, DeviceFunction<number | void>>>;
}

/**
 * Options of {@link jit}.
 *
 * @example
 * ```ts
 * import { jit, type JitOptions } from "@cudeno/cudeno/jit";
 * const options: JitOptions = { name: "fill", simulate: true };
 * const fill = jit({ a: "f32[]" }, (a) => {
 *   a[0] = 1;
 * }, options);
 * ```
 */
export interface JitOptions extends FunctionOptions {
  /** Make `launch()` simulate (as `CUDENO_JIT_SIMULATE=1` does for every kernel). Default false (or `CUDENO_JIT_SIMULATE=1`). */
  readonly simulate?: boolean;
}

/**
 * A kernel made by {@link jit}: its generated CUDA C and OpenCL C, a simulator, and `launch()`.
 *
 * @example
 * ```ts
 * import { grid, jit } from "@cudeno/cudeno/jit";
 * const double = jit({ x: "f32[]", n: "i32" }, (x, n) => {
 *   const i = grid(1);
 *   if (i < n) x[i] = x[i] * 2;
 * });
 * const x = new Float32Array([1, 2, 3]);
 * double.simulate({ grid: 1, block: 32 }, x, x.length);
 * console.log(x); // Float32Array [2, 4, 6]
 * ```
 */
export interface JitKernel {
  /** The kernel's C name. */
  readonly name: string;
  /** The kernel's parameters, in order. */
  readonly params: readonly JitParamInfo[];
  /** The generated CUDA C or OpenCL C. */
  source(dialect: Dialect): string;
  /** Whether `launch()` runs the simulator instead of a GPU. */
  readonly simulated: boolean;
  /**
   * Runs the kernel over the grid in JavaScript, on host typed arrays (a Float32Array for `"f32[]"`,
   * and so on) and numbers, in parameter order.
   */
  simulate(config: LaunchConfig, ...args: (number | HostArray)[]): void;
  /**
   * Runs the kernel: in the simulator when `simulated`, else on the GPU its arrays live on (GPU arrays
   * or device buffers, and numbers, in parameter order; compiled once per backend). `config` may name a
   * CUDA `stream`.
   */
  launch(config: LaunchConfig, ...args: unknown[]): void;
}

/**
 * A device function made by {@link device}: kernels and other device functions that list it in
 * `options.use` can call it. Called from JavaScript, it runs in the simulator as one thread.
 *
 * @example
 * ```ts
 * import { device } from "@cudeno/cudeno/jit";
 * const sq = device({ x: "f32" }, "f32", (x) => x * x);
 * console.log(sq(1.5), sq.returns); // 2.25 "f32"
 * ```
 */
export interface DeviceFunction<R extends number | void = number> {
  /** Runs the device function in the simulator. */
  (...args: JitArg[]): R;
  /** Its C name. */
  readonly name: string;
  /** What it returns. */
  readonly returns: ReturnType;
  /** Its parameters, in order. */
  readonly params: readonly JitParamInfo[];
}

const deviceIR = new WeakMap<object, FunctionIR>();

function simulationRequested(): boolean {
  const variable = "CUDENO_JIT_SIMULATE";
  if (Deno.permissions.querySync({ name: "env", variable }).state !== "granted") return false;
  const value = Deno.env.get(variable)?.toLowerCase();
  return value === "1" || value === "true";
}

function paramInfo(p: Binding): JitParamInfo {
  if (p.kind === "array") {
    const dtype = ELEMENTS[p.element].dtype;
    return Object.freeze({ name: p.name, type: `${DTYPES[dtype].cuda} *`, dtype, array: true });
  }
  const dtype = SCALAR_DTYPES[p.type as ScalarType];
  return Object.freeze({ name: p.name, type: DTYPES[dtype].cuda, dtype, array: false });
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Checks a signature and options, then translates. */
function build(
  kind: "kernel" | "device",
  signature: Signature,
  returns: ReturnType,
  fn: (...args: JitParam[]) => unknown,
  options: JitOptions,
  allowed: readonly string[],
): FunctionIR {
  const what = kind === "kernel" ? "kernel" : "device function";
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Cannot compile a ${what}: options must be an object`);
  }
  if (options.name !== undefined && (typeof options.name !== "string" || options.name === "")) {
    throw new TypeError(`Cannot compile a ${what}: options.name must be a non-empty string`);
  }
  const name = sanitizeName(options.name ?? (fn?.name || (kind === "kernel" ? "jit_kernel" : "jit_device")));
  const failure = `Cannot compile ${what} "${name}"`;
  if (typeof fn !== "function") {
    throw new TypeError(`${failure}: pass the function to translate, got ${typeof fn}`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${failure}: options.${key} is not an option: use ${allowed.join(", ")}`);
    }
  }
  if (typeof signature !== "object" || signature === null || Array.isArray(signature)) {
    throw new TypeError(
      `${failure}: the signature must be an object of parameter types, { a: "f32[]", n: "i32" }`,
    );
  }
  const params = Object.entries(signature).map(([param, text]): { name: string; type: ParsedType } => {
    const type = parseType(text);
    if (type === undefined) {
      throw new TypeError(
        `${failure}: parameter ${param} has type ${JSON.stringify(text)}: use one of ${TYPE_NAMES}`,
      );
    }
    return { name: param, type };
  });
  const taken = new Set([...INTRINSIC_NAMES, ...params.map((p) => p.name)]);
  const names = (field: "constants" | "use", valid: (value: unknown) => boolean, expected: string) => {
    const table = options[field] ?? {};
    if (typeof table !== "object" || table === null) {
      throw new TypeError(`${failure}: options.${field} must be an object`);
    }
    for (const [key, value] of Object.entries(table)) {
      if (!IDENTIFIER.test(key) || taken.has(key)) {
        throw new TypeError(
          `${failure}: options.${field}.${key} clashes with a parameter or built-in name: rename it`,
        );
      }
      if (!valid(value)) throw new TypeError(`${failure}: options.${field}.${key} must be ${expected}`);
      taken.add(key);
    }
    return table;
  };
  const constants = names(
    "constants",
    (v) => typeof v === "number" || typeof v === "boolean",
    "a number or a boolean",
  );
  const use = names("use", (v) => deviceIR.has(v as object), "a device function made by device()");
  return translate({
    kind,
    name,
    source: Function.prototype.toString.call(fn),
    params,
    returns,
    constants: constants as Readonly<Record<string, number | boolean>>,
    use: Object.fromEntries(Object.entries(use).map(([key, d]) => [key, deviceIR.get(d as object)!])),
  });
}

class Kernel implements JitKernel {
  readonly name: string;
  readonly params: readonly JitParamInfo[];
  readonly simulated: boolean;
  readonly #ir: FunctionIR;
  readonly #sources = new Map<Dialect, { source: string; key: string }>();
  readonly #memo: LaunchMemo = {};

  constructor(ir: FunctionIR, simulated: boolean) {
    this.#ir = ir;
    this.name = ir.name;
    this.params = Object.freeze(ir.params.map(paramInfo));
    this.simulated = simulated;
  }

  #generated(dialect: Dialect): { source: string; key: string } {
    let made = this.#sources.get(dialect);
    if (made === undefined) {
      if (!isDialect(dialect)) {
        throw new TypeError(
          `Cannot generate kernel "${this.name}": the dialect must be ${dialectNames()}, got ${
            String(dialect)
          }`,
        );
      }
      const source = emit(this.#ir, dialect);
      made = { source, key: `jit:${this.name}:${sha256Hex(source).slice(0, 24)}` };
      this.#sources.set(dialect, made);
    }
    return made;
  }

  source(dialect: Dialect): string {
    return this.#generated(dialect).source;
  }

  key(dialect: Dialect): string {
    return this.#generated(dialect).key;
  }

  simulate(config: LaunchConfig, ...args: (number | HostArray)[]): void {
    const failure = `Cannot simulate kernel "${this.name}"`;
    checkLaunchConfig(config, failure, "simulate");
    simulateKernel(this.#ir, geometry(config, failure), checkArgs(this.#ir.params, args, failure), failure);
  }

  /** Bound to the kernel, so `const run = kernel.launch` works too. */
  readonly launch = (config: LaunchConfig, ...args: unknown[]): void => {
    if (this.simulated) return this.simulate(config, ...(args as (number | HostArray)[]));
    checkLaunchConfig(config, `Cannot launch kernel "${this.name}"`);
    const n = this.params.length;
    if (args.length !== n) {
      throw new TypeError(
        `Cannot launch kernel "${this.name}": it takes a launch config and then ${n} argument${
          n === 1 ? "" : "s"
        } (${this.params.map((p) => p.name).join(", ")}), got ${args.length}`,
      );
    }
    launchOnGpu(this, config, args, this.#memo);
  };
}

/**
 * Translates a TypeScript function into a GPU kernel, generating CUDA C and OpenCL C, and checks it
 * against the subset the JIT supports (see the module's README for the whole subset and the typing
 * rules). Throws a {@link JitError} with the line and column of the first unsupported construct.
 *
 * The subset: `const`/`let` locals of inferred type (i32, u32, f32, f64 or boolean); arithmetic, bit and
 * comparison operators; `&&`, `||`, `!`; `if`/`else`, `for`, `while`, `do`/`while`, `break`,
 * `continue`, `return`; ternaries; compound assignment and `++`/`--`; array reads and writes;
 * `Math.sqrt`, `exp`, `log`, `sin`, `cos`, `tan`, `tanh`, `pow` (and `**`), `abs`, `min`, `max`,
 * `floor`, `ceil`, `round`, `fround`, `hypot`, `atan2` and the `Math` constants; casts `i32()`, `u32()`,
 * `f32()`, `f64()`; `threadIdx`, `blockIdx`, `blockDim`, `gridDim` (`.x .y .z`), `grid(1)` and
 * `const [x, y] = grid(2)`; `shared.array(type, size)` with a constant size; `syncthreads()`; the
 * atomics `atomicAdd`, `atomicSub`, `atomicMax`, `atomicMin`, `atomicExch`, `atomicCAS`; calls of
 * device functions passed in `options.use`; constants from `options.constants`.
 *
 * Types follow JavaScript where the GPU can: i32 and u32 arithmetic wraps; `/` is true division, so
 * i32 / i32 is f64, while `(a / b) | 0`, `(a / b) >>> 0` and `Math.floor(a / b)` on integers are integer
 * divisions; f32 results are rounded as `Math.fround` rounds; bit operators give i32 (`>>>` gives u32);
 * an integer meeting a float becomes that float, f32 meeting f64 becomes f64, and i32 meeting u32 needs
 * a cast; literals take the type of the other operand (`x * 2.5` stays f32).
 *
 * @param signature the parameter types in order: `{ a: "f32[]", n: "i32" }`
 * @param fn the kernel body; its parameter names must be the signature's keys
 * @param options `name`, `constants`, `use` (device functions), `simulate`
 *
 * @example
 * ```ts
 * import { blockDim, blockIdx, jit, threadIdx } from "@cudeno/cudeno/jit";
 * const add = jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
 *   const idx = threadIdx.x + blockIdx.x * blockDim.x;
 *   if (idx < n) c[idx] = a[idx] + b[idx];
 * }, { name: "add" });
 * console.log(add.source("cuda")); // extern "C" __global__ void add(float *a, float *b, float *c, int n) { ...
 * const [a, b, c] = [new Float32Array([1, 2]), new Float32Array([3, 4]), new Float32Array(2)];
 * add.simulate({ grid: 1, block: 64 }, a, b, c, 2);
 * console.log(c); // Float32Array [4, 6]
 * ```
 */
export function jit(
  signature: Signature,
  fn: (...args: JitParam[]) => void,
  options: JitOptions = {},
): JitKernel {
  const ir = build("kernel", signature, "void", fn, options, ["name", "constants", "use", "simulate"]);
  if (options.simulate !== undefined && typeof options.simulate !== "boolean") {
    throw new TypeError(`Cannot compile kernel "${ir.name}": options.simulate must be a boolean`);
  }
  return new Kernel(ir, options.simulate ?? simulationRequested());
}

/**
 * Translates a TypeScript function into a device function that kernels (and other device functions)
 * call, emitted once as a `__device__` function in CUDA and a plain function in OpenCL. Its body uses
 * the kernel subset, except `shared.array()` and `syncthreads()`; `returns` is its return type, or
 * `"void"`.
 *
 * @param signature the parameter types in order: `{ x: "f32" }`
 * @param returns the return type
 * @param fn the body
 * @param options `name`, `constants`, `use`
 *
 * @example
 * ```ts
 * import { device, grid, jit } from "@cudeno/cudeno/jit";
 * const sq = device({ x: "f32" }, "f32", (x) => x * x);
 * const squares = jit({ a: "f32[]", n: "i32" }, (a, n) => {
 *   const i = grid(1);
 *   if (i < n) a[i] = sq(a[i]);
 * }, { use: { sq } });
 * ```
 */
export function device(
  signature: Signature,
  returns: "void",
  fn: (...args: JitParam[]) => void,
  options?: FunctionOptions,
): DeviceFunction<void>;
/** A device function that returns a scalar. */
export function device(
  signature: Signature,
  returns: ScalarType,
  fn: (...args: JitParam[]) => number,
  options?: FunctionOptions,
): DeviceFunction<number>;
export function device(
  signature: Signature,
  returns: ReturnType,
  fn: (...args: JitParam[]) => number | void,
  options: FunctionOptions = {},
): DeviceFunction<number | void> {
  if (returns !== "void" && !Object.hasOwn(SCALAR_DTYPES, returns)) {
    throw new TypeError(
      `Cannot compile a device function: it returns ${
        JSON.stringify(returns)
      }: use "void", i32, u32, f32 or f64`,
    );
  }
  const ir = build("device", signature, returns, fn, options, ["name", "constants", "use"]);
  const failure = `Cannot simulate device function "${ir.name}"`;
  const call = (...args: JitArg[]): number | void => {
    const result = invokeDevice(ir, checkArgs(ir.params, args, failure), failure);
    return returns === "void" ? undefined : result;
  };
  Object.defineProperties(call, {
    name: { value: ir.name },
    returns: { value: returns, enumerable: true },
    params: { value: Object.freeze(ir.params.map(paramInfo)), enumerable: true },
  });
  deviceIR.set(call, ir);
  return call as DeviceFunction<number | void>;
}
