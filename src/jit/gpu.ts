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
import type { CompiledJitKernel, JitLauncher } from "./launcher.ts";
import type { LaunchConfig } from "./config.ts";

function shown(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value;
  return value.constructor?.name ?? "object";
}

/** Launches JIT kernels on the array layer's backends. */
export class BackendLauncher implements JitLauncher {
  readonly #compiled = new WeakMap<CompiledJitKernel, Map<Backend, BackendKernel>>();

  /** Compiles (once per kernel and backend) and launches `kernel` with GPU arrays or device buffers and scalars. */
  launch(kernel: CompiledJitKernel, config: LaunchConfig, args: unknown[]): void {
    const params = kernel.params;
    if (args.length !== params.length) {
      throw new TypeError(
        `Cannot launch kernel "${kernel.name}": it takes ${params.length} arguments (${
          params.map((p) => p.name).join(", ")
        }), got ${args.length}`,
      );
    }
    let backend: Backend | undefined;
    const values = new Array<unknown>(args.length);
    for (let i = 0; i < args.length; i++) {
      const p = params[i]!, arg = args[i];
      if (!p.array) {
        values[i] = arg;
      } else if (arg instanceof GPUArray) {
        if (arg.dtype !== p.dtype) {
          throw new TypeError(
            `Cannot launch kernel "${kernel.name}": ${p.name} is ${
              /^[aeiou]/.test(arg.dtype) ? "an" : "a"
            } ${arg.dtype} array, declared ${p.dtype}`,
          );
        }
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
    let byBackend = this.#compiled.get(kernel);
    if (byBackend === undefined) this.#compiled.set(kernel, byBackend = new Map());
    let compiled = byBackend.get(target);
    if (compiled === undefined) {
      compiled = target.kernel(kernel.source(target.dialect), kernel.name);
      byBackend.set(target, compiled);
    }
    compiled.launch(config as LaunchShape, values);
  }
}
