/**
 * The JIT's GPU launcher: compiles a kernel's generated source for the backend its arrays live on
 * (CUDA or OpenCL, through the array layer's backends, so results share the SourceModule disk cache
 * and the OpenCL program cache) and launches it. Registered as the default launcher by `jit/mod.ts`.
 *
 * @module
 */

import { activeBackend, type Backend, type BackendKernel } from "../array/backend.ts";
import { GPUArray } from "../array/gpuarray.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import type { CompiledJitKernel, JitLauncher, JitParamInfo, PreparedLaunch } from "./launcher.ts";
import type { LaunchConfig } from "./config.ts";

function shown(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value;
  return value.constructor?.name ?? "object";
}

function dtypeMismatch(kernel: CompiledJitKernel, p: JitParamInfo, arg: GPUArray): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": ${p.name} is ${
      /^[aeiou]/.test(arg.dtype) ? "an" : "a"
    } ${arg.dtype} array, declared ${p.dtype}`,
  );
}

function argumentCount(kernel: CompiledJitKernel, given: number): TypeError {
  const names = kernel.params.map((p) => p.name).join(", ");
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": it takes ${kernel.params.length} arguments (${names}), got ${
      Math.max(0, given)
    }`,
  );
}

function backendMismatch(kernel: CompiledJitKernel, backend: Backend, arg: GPUArray): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": its arrays live on ${backend.device} and ${arg.backend.device}`,
  );
}

function notAnArray(kernel: CompiledJitKernel, p: JitParamInfo, arg: unknown): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": ${p.name} must be a GPUArray or a device allocation, not a ${
      shown(arg)
    }; copy host data with toGpu(), or run the kernel with simulate()`,
  );
}

/** Launches JIT kernels on the array layer's backends. */
export class BackendLauncher implements JitLauncher {
  readonly #prepared = new WeakMap<CompiledJitKernel, { run: PreparedLaunch; values: unknown[] }>();

  /** Compiles (once per kernel and backend) and launches `kernel` with GPU arrays or device buffers and scalars. */
  launch(kernel: CompiledJitKernel, config: LaunchConfig, args: readonly unknown[]): void {
    let known = this.#prepared.get(kernel);
    if (known === undefined) {
      known = { run: this.prepare(kernel), values: [] };
      this.#prepared.set(kernel, known);
    }
    const values = known.values;
    values.length = 0;
    values.push(...args, config);
    try {
      known.run(values);
    } finally {
      values.length = 0;
    }
  }

  /**
   * The launch of one kernel, keeping what it needs between launches: its compilations by backend and
   * the last one used. It maps arrays to their buffers in the kernel's own list and launches from that
   * list, so a launch allocates nothing and copies nothing.
   */
  prepare(kernel: CompiledJitKernel): PreparedLaunch {
    const params = kernel.params;
    const n = params.length;
    const isArray = params.map((p) => p.array), dtypes = params.map((p) => p.dtype);
    const byBackend = new Map<Backend, BackendKernel>();
    let lastBackend: Backend | undefined;
    let lastCompiled: BackendKernel | undefined;
    // `values`: the arguments, then the launch shape, the list the backend kernel launches from.
    return (values) => {
      if (values.length !== n + 1) throw argumentCount(kernel, values.length - 1);
      let backend: Backend | undefined;
      for (let i = 0; i < n; i++) {
        if (!isArray[i]) continue;
        const arg = values[i];
        if (arg instanceof GPUArray) {
          if (arg.dtype !== dtypes[i]) throw dtypeMismatch(kernel, params[i]!, arg);
          if (arg.backend !== backend) {
            if (backend !== undefined) throw backendMismatch(kernel, backend, arg);
            backend = arg.backend;
          }
          values[i] = arg.buffer;
        } else if (!(arg instanceof DeviceAllocation)) {
          throw notAnArray(kernel, params[i]!, arg);
        }
      }
      const target = backend ?? activeBackend();
      let compiled = lastCompiled;
      if (target !== lastBackend || compiled === undefined) {
        compiled = byBackend.get(target);
        if (compiled === undefined) {
          compiled = target.kernel(kernel.source(target.dialect), kernel.name);
          byBackend.set(target, compiled);
        }
        lastBackend = target;
        lastCompiled = compiled;
      }
      compiled.launchList(values);
    };
  }
}
