/**
 * The JIT's GPU launcher: compiles a kernel's generated source for the backend its arrays live on
 * (CUDA or OpenCL, through the array layer's backends, so results share the SourceModule disk cache
 * and the OpenCL program cache) and launches it. Registered as the default launcher by `jit/mod.ts`.
 *
 * @module
 */

import { activeBackend, type Backend, type BackendKernel, type LaunchShape } from "../array/backend.ts";
import { GPUArray } from "../array/gpuarray.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import type { CompiledJitKernel, JitLauncher, JitParamInfo } from "./launcher.ts";
import type { LaunchConfig } from "./config.ts";

function shown(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value;
  return value.constructor?.name ?? "object";
}

/** What a launcher keeps per kernel: its compilations, the last one used, and a reused value list. */
interface Launches {
  readonly byBackend: Map<Backend, BackendKernel>;
  lastBackend: Backend | undefined;
  lastCompiled: BackendKernel | undefined;
  readonly values: unknown[];
}

/** Launches JIT kernels on the array layer's backends. */
export class BackendLauncher implements JitLauncher {
  readonly #launches = new WeakMap<CompiledJitKernel, Launches>();
  // The last kernel launched and its state: a loop launching one kernel skips the WeakMap.
  #lastKernel: CompiledJitKernel | undefined;
  #lastState: Launches | undefined;

  /** Compiles (once per kernel and backend) and launches `kernel` with GPU arrays or device buffers and scalars. */
  launch(kernel: CompiledJitKernel, config: LaunchConfig, args: readonly unknown[]): void {
    const params = kernel.params;
    if (args.length !== params.length) {
      throw new TypeError(
        `Cannot launch kernel "${kernel.name}": it takes ${params.length} arguments (${
          params.map((p) => p.name).join(", ")
        }), got ${args.length}`,
      );
    }
    let state = kernel === this.#lastKernel ? this.#lastState : this.#launches.get(kernel);
    if (state === undefined) {
      state = {
        byBackend: new Map(),
        lastBackend: undefined,
        lastCompiled: undefined,
        values: Array.from({ length: params.length }, () => undefined), // packed, not holey
      };
      this.#launches.set(kernel, state);
    }
    this.#lastKernel = kernel;
    this.#lastState = state;
    const values = state.values;
    let backend: Backend | undefined;
    for (let i = 0; i < args.length; i++) {
      const p = params[i]!, arg = args[i];
      if (!p.array) {
        values[i] = arg;
      } else if (arg instanceof GPUArray) {
        if (arg.dtype !== p.dtype) throw dtypeMismatch(kernel, p, arg);
        if (backend !== undefined && arg.backend !== backend) {
          throw new TypeError(
            `Cannot launch kernel "${kernel.name}": its arrays live on ${backend.device} and ${arg.backend.device}`,
          );
        }
        backend = arg.backend;
        values[i] = arg.buffer;
      } else if (arg instanceof DeviceAllocation) {
        values[i] = arg;
      } else {
        throw new TypeError(
          `Cannot launch kernel "${kernel.name}": ${p.name} must be a GPUArray or a device allocation, not a ${
            shown(arg)
          }; copy host data with toGpu(), or run the kernel with simulate()`,
        );
      }
    }
    const target = backend ?? activeBackend();
    let compiled = state.lastCompiled;
    if (target !== state.lastBackend || compiled === undefined) {
      compiled = state.byBackend.get(target);
      if (compiled === undefined) {
        compiled = target.kernel(kernel.source(target.dialect), kernel.name);
        state.byBackend.set(target, compiled);
      }
      state.lastBackend = target;
      state.lastCompiled = compiled;
    }
    try {
      compiled.launch(config as LaunchShape, values);
    } finally {
      // Hold no argument past the launch, so dropped arrays stay collectable.
      for (let i = 0; i < values.length; i++) values[i] = undefined;
    }
  }
}

function dtypeMismatch(kernel: CompiledJitKernel, p: JitParamInfo, arg: GPUArray): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": ${p.name} is ${
      /^[aeiou]/.test(arg.dtype) ? "an" : "a"
    } ${arg.dtype} array, declared ${p.dtype}`,
  );
}
