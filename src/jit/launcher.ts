/**
 * The hook through which a GPU back end runs JIT kernels: the back end registers a
 * {@link JitLauncher}, and `kernel.launch()` hands it the kernel, the configuration and the arguments.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { LaunchConfig } from "./config.ts";
import type { JitDialect } from "./dialect.ts";

/**
 * One parameter of a generated kernel, as a launcher needs it to pass an argument.
 *
 * @example
 * ```ts
 * import { jit } from "@cudeno/cudeno/jit";
 * const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
 *   a[0] = n;
 * });
 * console.log(k.params); // [{ name: "a", type: "float *", dtype: "float32", array: true }, { name: "n", ... }]
 * ```
 */
export interface JitParamInfo {
  /** The parameter's name in the generated code. */
  readonly name: string;
  /** Its CUDA C type: `"float *"` for an f32[] array, `"int"` for an i32. */
  readonly type: string;
  /** The element type of an array, or the type of a scalar. */
  readonly dtype: DType;
  /** Whether it is a pointer to an array in global memory (else a scalar passed by value). */
  readonly array: boolean;
}

/**
 * What a launcher sees of a kernel: its name, its parameters and its generated source.
 *
 * @example
 * ```ts
 * import { type CompiledJitKernel, jit } from "@cudeno/cudeno/jit";
 * const k: CompiledJitKernel = jit({ a: "f32[]" }, (a) => {
 *   a[0] = 1;
 * }, { name: "one" });
 * console.log(k.name, k.source("cuda").includes('extern "C" __global__ void one')); // one true
 * ```
 */
export interface CompiledJitKernel {
  /** The kernel's C name: the symbol to look up after compiling the source. */
  readonly name: string;
  /** The kernel's parameters, in order. */
  readonly params: readonly JitParamInfo[];
  /** The generated CUDA C or OpenCL C. */
  source(dialect: JitDialect): string;
}

/**
 * Runs kernels on a GPU. A back end implements it and registers it with {@link setJitLauncher};
 * it compiles `kernel.source(...)` (caching as it sees fit), and launches it with `args` in
 * parameter order.
 *
 * @example
 * ```ts
 * import { type JitLauncher, setJitLauncher } from "@cudeno/cudeno/jit";
 * const logging: JitLauncher = {
 *   launch(kernel, config, args) {
 *     console.log(`would launch ${kernel.name} on`, config, "with", args.length, "arguments");
 *   },
 * };
 * const previous = setJitLauncher(logging);
 * setJitLauncher(previous);
 * ```
 */
export interface JitLauncher {
  /**
   * Launches a kernel over a grid with its arguments. `args` is reused by the next launch: read it
   * during the call, do not keep it.
   */
  launch(kernel: CompiledJitKernel, config: LaunchConfig, args: readonly unknown[]): void;
  /**
   * Optional: the launch of one kernel, made once and then called for each `kernel.launch()`, for
   * launchers that keep per-kernel state (compilations, bound arguments). Without it, `launch` is
   * called. During a launch, the prepared launch may hand `replace` a launch that then *is*
   * `kernel.launch` from the next call on, while this launcher stays registered (say, one made for the
   * backend the arguments live on, which hands back when they move). Being called directly, it gets
   * whatever the caller passes, and must check the count itself: the config and one value per
   * parameter.
   */
  prepare?(kernel: CompiledJitKernel, replace: (next: PreparedLaunch) => void): PreparedLaunch;
}

/**
 * One kernel's launch from {@link JitLauncher.prepare}, called as `kernel.launch()` was: the launch
 * config, then the arguments in parameter order, exactly as many as the kernel has parameters (the
 * count is checked before). The values are passed on as they came, with no list made for them, so a
 * launch that reads them as formal parameters allocates nothing.
 *
 * @example
 * ```ts
 * import { type JitLauncher, type PreparedLaunch } from "@cudeno/cudeno/jit";
 * const counting: JitLauncher = {
 *   launch: () => {},
 *   prepare(kernel): PreparedLaunch {
 *     let launches = 0;
 *     return (config, ...args) => console.log(kernel.name, "launch", ++launches, config, args.length);
 *   },
 * };
 * ```
 */
export type PreparedLaunch = (config: LaunchConfig, ...args: unknown[]) => void;

let current: JitLauncher | undefined;

/**
 * Registers the launcher that `kernel.launch()` uses, and returns the one it replaces. Pass
 * `undefined` to unregister.
 *
 * @example
 * ```ts
 * import { type JitLauncher, setJitLauncher } from "@cudeno/cudeno/jit";
 * const counting: JitLauncher = { launch: () => {} };
 * const previous = setJitLauncher(counting);
 * // ... kernel.launch() calls go to `counting` ...
 * setJitLauncher(previous);
 * ```
 */
export function setJitLauncher(launcher: JitLauncher | undefined): JitLauncher | undefined {
  const previous = current;
  current = launcher;
  if (launcher !== previous) { for (const ref of watchers) ref.deref()?.(); }
  return previous;
}

// Each kernel's way back to its own launch, called when another launcher is registered. Held weakly
// (the kernel holds it), so a dropped kernel is not kept; a collected one leaves the set.
const watchers = new Set<WeakRef<() => void>>();
const unwatched = new FinalizationRegistry<WeakRef<() => void>>((ref) => watchers.delete(ref));

/**
 * Has `forget` called whenever {@link setJitLauncher} registers another launcher. The caller keeps
 * `forget` alive for as long as it wants the calls: it is held weakly here.
 */
export function onLauncherChange(forget: () => void): void {
  const ref = new WeakRef(forget);
  watchers.add(ref);
  unwatched.register(forget, ref);
}

/** The registered launcher, if any. */
export function jitLauncher(): JitLauncher | undefined {
  return current;
}

/** The error for a launch of `given` values (the config and the arguments) that are not one per parameter. */
export function launchArity(kernel: CompiledJitKernel, given: number): TypeError {
  const n = kernel.params.length;
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": it takes a launch config and then ${n} argument${
      n === 1 ? "" : "s"
    } (${kernel.params.map((p) => p.name).join(", ")}), got ${Math.max(0, given - 1)}`,
  );
}
