/**
 * `ga.compile(step)`: a function of arrays run twice eagerly, traced at its third call into the
 * device work it queues (a CUDA graph, a list of OpenCL commands), and replayed from then on with no
 * JavaScript of its own: a training step's forward, backward and optimizer update become one graph
 * launch, and the host time of its hundreds of operations goes away.
 *
 * @module
 */

import { activeBackend } from "../../device/active.ts";
import type { Backend, Recorded } from "../../device/backend.ts";
import { type DeferredCheck, traced } from "../../device/compiling.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { copyInto, copyOf } from "../exec/loop.ts";

/** {@link compile}'s options. */
export interface CompileOptions {
  /** Run the step eagerly at every call, as if it were not compiled (to compare, or to debug). Default false. */
  readonly disable?: boolean;
}

/**
 * A compiled step: called as the function it was made from, with {@link traces} (how many times it
 * was traced) and an idempotent {@link free}.
 */
export interface Compiled<A extends unknown[], R> {
  /** Runs the step: the first two calls of a signature eagerly, the third traces and replays, later ones replay. */
  (...args: A): R;
  /** How many signatures were traced so far (a call with new arrays of a traced signature does not trace). */
  readonly traces: number;
  /** Gives back the graphs, recordings and input copies of every signature. Idempotent. */
  free(): void;
  /** Same as {@link free}. */
  [Symbol.dispose](): void;
}

/**
 * The calls of a signature that run eagerly before it is traced: the first compiles kernels and makes
 * an optimizer's state, and the second runs the kernels of a step that is not the first (SGD's
 * momentum starts from the gradient at its first step), which a CUDA capture cannot compile.
 */
const EAGER_CALLS = 2;

/** How many random draws one compiled step may make (each reads its first counter from a word of its own). */
const COUNTERS = 1024;

/** One signature of a compiled step. */
interface Entry {
  /** How many of its eager calls (the first {@link EAGER_CALLS}) have run. */
  calls: number;
  /** The step's own copies of the arguments' arrays, which the recording reads. */
  inputs?: GPUArray[];
  /** The words its random draws read their first counters from, and the views of them handed out. */
  counters?: GPUArray[];
  recorded?: Recorded;
  hooks?: (() => void)[];
  checks?: DeferredCheck[];
  /** Whether a replay ran whose checks were not made yet. */
  unchecked?: boolean;
  /** The result of the traced call: its arrays hold each replay's results. */
  output?: unknown;
}

/** Appends `value`'s part of a signature to `key`, and its arrays to `arrays`. */
function signature(value: unknown, path: string, arrays: GPUArray[]): string {
  if (value instanceof GPUArray) {
    arrays.push(value);
    return `a(${value.backend.device},${value.dtype},${value.shape.join("x")})`;
  }
  if (value === null || value === undefined || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value) ?? "u";
  }
  if (typeof value === "number" || typeof value === "bigint") return `${typeof value}:${String(value)}`;
  if (Array.isArray(value)) {
    return `[${value.map((v, i) => signature(v, `${path}[${i}]`, arrays)).join(",")}]`;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const keys = Object.keys(value).sort();
    return `{${
      keys.map((k) =>
        `${JSON.stringify(k)}:${signature((value as Record<string, unknown>)[k], `${path}.${k}`, arrays)}`
      )
        .join(",")
    }}`;
  }
  throw new TypeError(
    `Cannot call a compiled step with ${
      describe(value)
    } at ${path}: pass arrays, numbers, strings, booleans, and lists or plain objects of them (other values are closed over by the step)`,
  );
}

/** `value` with each array replaced by the next of `arrays`, in the order {@link signature} found them. */
function substitute(value: unknown, arrays: readonly GPUArray[], at: { i: number }): unknown {
  if (value instanceof GPUArray) return arrays[at.i++];
  if (Array.isArray(value)) return value.map((v) => substitute(v, arrays, at));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      out[k] = substitute((value as Record<string, unknown>)[k], arrays, at);
    }
    return out;
  }
  return value;
}

/** Throws unless `value` is a result a replay can give: arrays, nothing, and lists or plain objects of them. */
function checkOutput(value: unknown, path: string, arrays: GPUArray[]): void {
  if (value instanceof GPUArray) arrays.push(value);
  else if (Array.isArray(value)) value.forEach((v, i) => checkOutput(v, `${path}[${i}]`, arrays));
  else if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) checkOutput(v, `${path}.${k}`, arrays);
  } else if (value !== undefined && value !== null) {
    throw new TypeError(
      `Cannot compile a step that returns ${
        describe(value)
      } at ${path}: a replay gives only what the device computes, so return arrays (a number computed on the host would keep its first value)`,
    );
  }
}

/** `value` with each array replaced by a copy of it. */
function copied(value: unknown): unknown {
  if (value instanceof GPUArray) return copyOf(value);
  if (Array.isArray(value)) return value.map(copied);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copied(v)]));
  }
  return value;
}

/** The one backend of `arrays` (the active one where there are none). */
function backendOf(arrays: readonly GPUArray[]): Backend {
  const backend = arrays[0]?.backend ?? activeBackend();
  for (const a of arrays) {
    if (a.backend !== backend) {
      throw new TypeError(
        `Cannot compile a step over arrays of ${backend.device} and ${a.backend.device}: move them to one device first`,
      );
    }
  }
  return backend;
}

/** Records the step over copies of `arrays`, filling `entry`. */
function trace(entry: Entry, fn: (...args: never[]) => unknown, args: unknown[], arrays: GPUArray[]): void {
  const backend = backendOf(arrays);
  const inputs = arrays.map((a) => new GPUArray(backend, a.shape, a.dtype));
  const own = substitute(args, inputs, { i: 0 }) as never[];
  const words = new GPUArray(backend, [COUNTERS], "uint64");
  const counters = [words];
  let drawn = 0;
  const counter = (): [GPUArray, number] => {
    if (drawn === COUNTERS) {
      throw new RangeError(
        `Cannot draw random numbers more than ${COUNTERS} times in one step being compiled by ga.compile(): draw larger arrays at once`,
      );
    }
    return [words, drawn++];
  };
  let output: unknown, hooks: (() => void)[] = [], checks: DeferredCheck[] = [];
  try {
    entry.recorded = backend.record(() => {
      ({ hooks, checks } = traced(() => {
        output = fn(...own);
      }, counter));
    });
  } catch (e) {
    for (const a of [...inputs, ...counters]) a.free();
    throw e;
  }
  const results: GPUArray[] = [];
  try {
    if (output instanceof Promise) {
      throw new TypeError(
        "Cannot compile an async step: a compiled step replays device work, so it must run synchronously (await outside it)",
      );
    }
    checkOutput(output, "the result", results);
  } catch (e) {
    entry.recorded.free();
    entry.recorded = undefined;
    for (const a of [...inputs, ...counters]) a.free();
    throw e;
  }
  entry.inputs = inputs;
  entry.counters = counters;
  entry.hooks = hooks;
  entry.checks = checks;
  entry.output = output;
}

/**
 * Makes the checks of the last replay (waiting for it): an index out of range there is reported now.
 *
 * @throws {RangeError} with the failed check's message.
 */
function check(entry: Entry): void {
  if (!entry.unchecked) return;
  entry.unchecked = false;
  for (const c of entry.checks!) {
    if (c.failed()) throw new RangeError(`${c.message}, in the previous call of this compiled step`);
  }
}

/** Fills the step's inputs from `arrays`, runs the hooks and the recording, and copies the results out. */
function replay(entry: Entry, arrays: readonly GPUArray[]): unknown {
  check(entry);
  const inputs = entry.inputs!;
  arrays.forEach((a, i) => copyInto(inputs[i]!, a, "call a compiled step"));
  for (const hook of entry.hooks!) hook();
  entry.recorded!.run();
  entry.unchecked = entry.checks!.length > 0;
  return copied(entry.output);
}

/** Frees what `entry` holds. */
function release(entry: Entry): void {
  const results: GPUArray[] = [];
  if (entry.recorded !== undefined) checkOutput(entry.output, "", results);
  for (const a of results) a.free();
  for (const a of [...entry.inputs ?? [], ...entry.counters ?? []]) a.free();
  entry.recorded?.free();
  entry.recorded = undefined;
}

/**
 * Compiles `fn`, a function of arrays (and numbers, strings, booleans, lists and plain objects of
 * them) that queues device work and returns arrays: a training step (forward, `valueAndGrad`, an
 * optimizer's `step`), or any run of array operations. For each signature (the arguments' shapes,
 * dtypes and devices, and their other values), the first two calls run `fn` eagerly (compiling its
 * kernels and making an optimizer's state; an optimizer's first step may differ from later ones); the
 * third traces it, recording the device work it queues over the compiled step's own copies of the
 * array arguments, without running it (on CUDA a graph captured on a stream, whose memory is its own;
 * on OpenCL the list of commands, whose memory is reused within it); that call and every later one
 * copy their array arguments in, run the host work the trace registered, and replay the recording on
 * the current stream as one launch. `fn`'s JavaScript does not run again: arrays it closes over
 * (parameters, optimizer state) are read and updated in place at every replay, so the compiled step
 * gives what the eager one gives (to float rounding), and returns copies of its results.
 *
 * The host work a replay runs first: an optimizer advances its step counts and writes its scalars
 * (the learning rate a scheduler set included), and each random draw takes its counters from its
 * stream, so a `Generator`'s, `nn.dropout`'s or a `Dropout` layer's numbers move on at every call as
 * they do eagerly (a draw from a seed given in the call, `{ seed }`, gives that seed's numbers every
 * time). A check that reads the device (whether an index of `take()` or `nn.embedding` is in range)
 * is made at the next call of the same signature, which then waits for the step before and throws the
 * error it found, saying so. Other reads of the device are refused when traced, naming the call
 * (`get()`, `item()`, a whole-array `sum()` read as a number, a result whose size depends on values),
 * as is making an optimizer's state for a parameter the first calls did not update. A step that
 * branches on values read outside it must be compiled per branch. Arrays closed over must stay the
 * same arrays: replacing one (loading a state dict, reassigning a parameter) needs a new `compile`.
 * Array arguments are copied in, so updating one inside the step does not reach the caller's array.
 *
 * @param fn The step: synchronous, returning arrays (or lists or plain objects of them, or nothing).
 * @param options `{ disable: true }` runs it eagerly at every call.
 * @throws {TypeError} for something other than a function; at a call, for arguments it cannot take
 * and for what the trace refuses (above).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const w = ga.zeros([3]);
 * const opt = new optim.Adam([w], { lr: 0.1 });
 * const loss = (w: ga.GPUArray, x: ga.GPUArray) => ga.mean(ga.square(w.sub(x)));
 * const step = ga.compile((x: ga.GPUArray) => {
 *   const [value, dw] = ga.valueAndGrad(loss)(w, x);
 *   opt.step([dw]);
 *   return value;
 * });
 * for (let i = 0; i < 100; i++) step(ga.asarray([1, 2, 3])); // traced at the third call, replayed after
 * console.log(step.traces, w.get()); // 1, close to [1, 2, 3]
 * step.free();
 * ```
 */
export function compile<A extends unknown[], R>(
  fn: (...args: A) => R,
  options?: CompileOptions,
): Compiled<A, R> {
  if (typeof fn !== "function") {
    throw new TypeError(`Cannot compile ${describe(fn)}: pass the step as a function of arrays`);
  }
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError(
      `Cannot compile with options ${describe(options)}: pass an object such as { disable: true }`,
    );
  }
  const disable = options?.disable ?? false;
  const entries = new Map<string, Entry>();
  let traces = 0;
  const step = (...args: A): R => {
    if (disable) return fn(...args);
    const arrays: GPUArray[] = [];
    const key = signature(args, "argument list", arrays);
    for (const a of arrays) {
      if (a.freed) {
        throw new TypeError(`Cannot call a compiled step with a freed array of shape ${showShape(a.shape)}`);
      }
    }
    let entry = entries.get(key);
    if (entry === undefined) entries.set(key, entry = { calls: 0 });
    if (entry.recorded === undefined) {
      if (entry.calls < EAGER_CALLS) {
        const result = fn(...args);
        entry.calls++;
        return result;
      }
      trace(entry, fn as (...args: never[]) => unknown, args, arrays);
      traces++;
    }
    return replay(entry, arrays) as R;
  };
  const free = () => {
    for (const entry of entries.values()) release(entry);
    entries.clear();
  };
  return Object.defineProperties(step, {
    traces: { get: () => traces },
    free: { value: free },
    [Symbol.dispose]: { value: free },
  }) as unknown as Compiled<A, R>;
}
