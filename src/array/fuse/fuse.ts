/**
 * Kernel fusion: `ga.fuse(fn)` turns a function of arrays into a few kernels. The function is traced
 * once per signature (its arguments' dtypes and ranks, and the kind of each scalar) by calling it on
 * stand-ins (`trace.ts`) that take the eager code paths — same promotion, same errors — and record
 * what they would compute; each call then runs the recorded program (`fuse_exec.ts`), elementwise
 * work composed into the kernels of the reductions and loops that consume it (`fuse_expr.ts`).
 *
 * @module
 */

import { isTracked } from "../grad/tape.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import type { LaunchConfig } from "../../kernel/dims.ts";
import type {
  Backend,
  BackendBuffer,
  BackendKernel,
  BackendName,
  KernelSource,
  Recorded,
} from "../../device/backend.ts";
import { dialectNames, isDialect } from "../../codegen/targets.ts";
import { GPUArray, viewOf } from "../core/gpuarray.ts";
import { extent, type Layout } from "../core/layout.ts";
import { installTraceable } from "../core/methods.ts";
import { execute, type Output, type RunNames, type Trace } from "./exec.ts";
import {
  fuseError,
  isKnownError,
  isTraced,
  kindOf,
  Program,
  Traced,
  TracedScalar,
  tracing,
} from "./trace.ts";
import { checkOptions } from "../../kernel/options.ts";

/**
 * Options of {@link fuse}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const norm = ga.fuse((x: ga.GPUArray) => x.div(x.square().sum({ axis: 1, keepdims: true }).sqrt()), {
 *   name: "rownorm",
 * });
 * ```
 */
export interface FuseOptions {
  /** The function's name in errors and in its kernels' names (default: the function's own name). */
  readonly name?: string;
}

/**
 * A fused function: called as the function it was made from, and able to show its kernels' source.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const f: ga.Fused<(x: ga.GPUArray) => ga.GPUArray> = ga.fuse((x: ga.GPUArray) => x.mul(2).add(1));
 * ```
 */
export type Fused<F extends (...args: never[]) => unknown> = F & {
  /**
   * The source of the kernels the last call ran (for its dtypes, ranks and layouts), generated for
   * `dialect` ("cuda" or "opencl"), each after a comment with its name.
   *
   * @throws {TypeError} before the first call.
   */
  source(dialect: Dialect): string;
};

const SUPPORTED =
  "inside ga.fuse(), arrays support the elementwise functions and their methods (arithmetic, comparisons, math functions, where, clip, astype), broadcasting, number and bigint scalars, and the reductions (sum, prod, mean, min, max, ptp, argmin, argmax, any, all, var, std, countNonzero, nansum, nanmean, nanmin, nanmax, logsumexp) over every axis or along axes; views, copies, matmul, indexing, scans, sorting and host reads run before or after the fused function";

const VIEWS = new Set([
  "reshape",
  "transpose",
  "T",
  "swapaxes",
  "moveaxis",
  "squeeze",
  "expandDims",
  "broadcastTo",
  "ravel",
  "flatten",
  "flip",
  "slice",
  "diagonal",
  "copy",
]);
const HOST = new Set(["get", "getAsync", "set", "item", "tolist", "toString", "norm"]);

function refusal(name: string): string {
  if (VIEWS.has(name)) return "views and copies are not traced; make them of the arguments before the call";
  if (HOST.has(name)) {
    return "a traced array has no values on the host; return the array and read it after the call";
  }
  return SUPPORTED;
}

// The stand-in's methods: the traceable ones from the same table as GPUArray's, and for every other
// member of GPUArray one that says why it cannot be used while tracing.
installTraceable(Traced.prototype);

/**
 * Gives the stand-in, for every other member of GPUArray, one that says why it cannot be used while
 * tracing; called by the module once GPUArray's methods are defined.
 */
export function installRefusals(): void {
  for (const name of Object.getOwnPropertyNames(GPUArray.prototype)) {
    if (name === "constructor" || Object.hasOwn(Traced.prototype, name)) continue;
    const getter = Object.getOwnPropertyDescriptor(GPUArray.prototype, name)!.get !== undefined;
    Object.defineProperty(Traced.prototype, name, {
      configurable: true,
      ...(getter
        ? {
          get(): never {
            throw fuseError(`Cannot read x.${name} inside ga.fuse(): ${refusal(name)}`);
          },
        }
        : {
          value(): never {
            throw fuseError(`Cannot call x.${name}() inside ga.fuse(): ${refusal(name)}`);
          },
          writable: true,
        }),
    });
  }
  for (const name of ["shape", "strides", "offset", "size", "base", "backend"]) {
    Object.defineProperty(Traced.prototype, name, {
      configurable: true,
      get(): never {
        throw fuseError(
          `Cannot read x.${name} inside ga.fuse(): a traced array has a dtype and a number of dimensions (ndim) only; its shape and memory are known when the fused function runs (it is traced once per dtype and rank of its arguments)`,
        );
      },
    });
  }
}

/** The signature a call is traced for: each argument's dtype and rank, or its scalar kind. */
function signatureOf(args: readonly unknown[], label: string): string {
  return args.map((a, i) => {
    if (a instanceof GPUArray) return `${a.dtype}:${a.ndim}`;
    if (typeof a === "bigint") return "n";
    if (typeof a === "number") return Number.isInteger(a) ? "i" : "f";
    throw new TypeError(
      `Cannot call ${label} with ${
        kindOf(a)
      } as argument ${i}: a fused function takes GPUArrays, numbers and bigints (other values belong in its closure)`,
    );
  }).join(",");
}

/** An error thrown while tracing, as the caller sees it: the eager checks' and fuse's own as they are, others explained. */
function explain(e: unknown, label: string): unknown {
  if (isKnownError(e) || !(e instanceof TypeError || e instanceof RangeError)) return e;
  const Error = e instanceof RangeError ? RangeError : TypeError;
  return new Error(`Cannot trace ${label}: ${e.message}; ${SUPPORTED}`, { cause: e });
}

function outputOf(result: unknown, program: Program, label: string): Output {
  if (result instanceof Traced && result.program === program) return { node: result.node };
  if (result instanceof TracedScalar && result.program === program) {
    return "arg" in result.source ? { arg: result.source.arg } : { node: result.source.node };
  }
  if (
    result === undefined || result === null || result instanceof GPUArray ||
    ["number", "bigint", "boolean", "string"].includes(typeof result)
  ) return { value: result };
  throw new TypeError(
    `Cannot fuse ${label}: it returned ${
      Array.isArray(result) ? "a list" : kindOf(result)
    }; a fused function returns one array or one host value (a whole-array reduction's)`,
  );
}

function traceCall(fn: (...args: never[]) => unknown, args: readonly unknown[], label: string): Trace {
  const program = new Program();
  const standins = args.map((a, i) =>
    a instanceof GPUArray
      ? new Traced(program.add({ kind: "input", arg: i, dtype: a.dtype, rank: a.ndim }), program)
      : new TracedScalar(
        typeof a === "bigint" ? "bigint" : Number.isInteger(a) ? "integer" : "number",
        { arg: i },
        program,
      )
  );
  let result: unknown;
  try {
    result = tracing(program, () => fn(...(standins as never[])));
  } catch (e) {
    throw explain(e, label);
  }
  return { program, output: outputOf(result, program, label), regions: new Map() };
}

/** What source() needs of an argument: an array's dtype and layout, or a scalar's value. */
type Described = { readonly dtype: DType; readonly layout: Layout } | { readonly value: unknown };

function layoutOf(a: GPUArray): Layout {
  return { shape: a.shape, strides: a.strides, offset: a.offset };
}

/** A backend that compiles and runs nothing: it keeps the source of each kernel asked for. */
class SourceRecorder implements Backend {
  readonly name: BackendName;
  readonly dialect: Dialect;
  readonly device = "the source recorder";
  readonly kernels = new Map<string, KernelSource>();

  constructor(dialect: Dialect) {
    this.dialect = dialect;
    this.name = dialect;
  }
  supports(): boolean {
    return true;
  }
  owns(): boolean {
    return false;
  }
  alloc(bytes: number): BackendBuffer {
    let freed = false;
    return {
      size: bytes,
      get freed() {
        return freed;
      },
      free: () => void (freed = true),
    };
  }
  write(): void {}
  checkHostRead(): void {}
  read(): void {}
  readAsync(): Promise<void> {
    return Promise.resolve();
  }
  copy(): void {}
  kernel(key: string, make: () => KernelSource): BackendKernel {
    if (!this.kernels.has(key)) this.kernels.set(key, make());
    return { launch: (_config: LaunchConfig, _args: readonly unknown[]) => {} };
  }
  synchronize(): void {}
  record(): Recorded {
    throw new TypeError("Cannot record work on the source recorder: it only collects kernel sources");
  }

  /** An array of `dtype` with `layout` over memory of its own. */
  array(dtype: DType, layout: Layout): GPUArray {
    const [, hi] = extent(layout.shape, layout.strides);
    const base = new GPUArray(this, [layout.offset + hi + 1], dtype);
    return viewOf(base, layout);
  }
}

/**
 * Fuses `fn`, a function of arrays (and numbers or bigints), into as few kernels as its work allows:
 * all its elementwise work is one kernel; a reduction is one kernel with the elementwise work before
 * it; a reduction along an axis with `keepdims` whose result feeds elementwise work over the same
 * rows (normalising rows, softmax written out) is one kernel with that work, which reads each row
 * once. The result is what calling `fn` gives — the same dtypes, broadcasting, values (within float
 * rounding) and errors — on CUDA or OpenCL.
 *
 * `fn` is traced once per signature (each argument's dtype and rank, or whether a scalar is an
 * integer, another number or a bigint) by calling it with stand-ins; scalars are passed to the
 * kernels, so other values need no new kernel, and kernels are cached (on disk too, on CUDA) by
 * their code. Inside `fn`, arrays support the elementwise functions and their methods, comparisons,
 * `where`, `clip`, `astype`, broadcasting and the reductions (over every axis, giving a host value as
 * eagerly, or along axes); anything else (views, `matmul`, indexing, host reads such as `get()`) is a
 * TypeError naming it. Arrays `fn` uses from its closure are read at each call; work on them alone
 * runs once, when tracing. `fn` returns one array or one host value.
 *
 * @throws {TypeError} when `fn` is not a function; each call throws what the eager call would.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const step = ga.fuse((x: ga.GPUArray, y: ga.GPUArray, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5));
 * const loss = ga.fuse((p: ga.GPUArray, q: ga.GPUArray) => p.sub(q).square().sum());
 * const x = ga.random.normal([1000, 64], { seed: 1 }), y = ga.random.normal([64], { seed: 2 });
 * const z = step(x, y, 2); // one kernel, y broadcast along the rows
 * console.log(loss(z, x), step.source("cuda").length > 0);
 * ```
 */
export function fuse<F extends (...args: never[]) => unknown>(fn: F, options: FuseOptions = {}): Fused<F> {
  if (typeof fn !== "function") throw new TypeError(`Cannot fuse ${kindOf(fn)}: pass a function`);
  checkOptions(options, "fuse", '{ name: "step" }', ["name"]);
  const label = options.name ?? (fn.name || "the fused function");
  const ident = (options.name ?? fn.name).replace(/[^A-Za-z0-9_]/g, "_");
  const names: RunNames = { what: `run ${label}`, kernel: `cudeno_fuse${ident ? `_${ident}` : ""}` };
  const traces = new Map<string, Trace>();
  let last: { trace: Trace; args: Described[] } | undefined;
  const fused = (...args: unknown[]): unknown => {
    if (args.some(isTraced)) return fn(...(args as never[])); // called while tracing another: inlined
    // Differentiated: run eagerly so each operation records its gradient rule.
    if (args.some(isTracked)) return fn(...(args as never[]));
    const signature = signatureOf(args, label);
    let trace = traces.get(signature);
    if (trace === undefined) {
      trace = traceCall(fn, args, label);
      traces.set(signature, trace);
    }
    const t = trace;
    last = {
      trace: t,
      args: args.map((a) => (a instanceof GPUArray ? { dtype: a.dtype, layout: layoutOf(a) } : { value: a })),
    };
    const array = args.find((a): a is GPUArray => a instanceof GPUArray) ??
      t.program.nodes.find((n) => n.kind === "captured")?.array;
    if (array === undefined) {
      return "arg" in t.output ? args[t.output.arg] : (t.output as { value: unknown }).value;
    }
    return execute(
      t,
      args,
      array.backend,
      names,
      (n) => (n.kind === "input" ? args[n.arg] as GPUArray : n.array),
    );
  };
  const source = (dialect: Dialect): string => {
    if (!isDialect(dialect)) {
      throw new TypeError(`Cannot show ${label}'s source in ${String(dialect)}: pass ${dialectNames()}`);
    }
    if (last === undefined) {
      throw new TypeError(
        `Cannot show the source of ${label}: it has not run yet; call it once (its kernels depend on its arguments' dtypes, ranks and layouts)`,
      );
    }
    const recorder = new SourceRecorder(dialect);
    const args = last.args.map((a) => ("layout" in a ? recorder.array(a.dtype, a.layout) : a.value));
    const captured = new Map<GPUArray, GPUArray>();
    const arrayOf = (n: Parameters<Parameters<typeof execute>[4]>[0]) => {
      if (n.kind === "input") return args[n.arg] as GPUArray;
      let a = captured.get(n.array);
      if (a === undefined) captured.set(n.array, a = recorder.array(n.array.dtype, layoutOf(n.array)));
      return a;
    };
    if (last.trace.program.nodes.length > 0) execute(last.trace, args, recorder, names, arrayOf);
    return [...recorder.kernels.values()].map((k) => `// ${k.name}\n${k.source}`).join("\n");
  };
  return Object.assign(fused, { source }) as unknown as Fused<F>;
}
