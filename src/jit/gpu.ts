/**
 * The JIT's GPU launcher: compiles a kernel's generated source for the backend its arrays live on
 * (CUDA or OpenCL, through the array layer's backends, so results share the SourceModule disk cache
 * and the OpenCL program cache) and launches it. Registered as the default launcher by `jit/mod.ts`.
 *
 * @module
 */

import { activeBackend, type Backend, type BoundLaunch } from "../array/backend.ts";
import { GPUArray } from "../array/gpuarray.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import { Buffer as CLBuffer } from "../opencl/buffer.ts";
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
    `Cannot launch kernel "${kernel.name}": ${p.name} must be a GPUArray or a device buffer (a DeviceAllocation or an OpenCL Buffer), not a ${
      shown(arg)
    }; copy host data with toGpu(), or run the kernel with simulate()`,
  );
}

function foreignBuffer(
  kernel: CompiledJitKernel,
  p: JitParamInfo,
  arg: unknown,
  backend: Backend,
): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": ${p.name} is a ${
      shown(arg)
    } of another backend than ${backend.device}, where it runs; pass GPU arrays, or buffers of the backend in use`,
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
   * The launch of one kernel, keeping what it needs between launches: a bound launch per backend
   * (`BackendKernel.bind()`, which writes the arrays' addresses straight into the compiled kernel's
   * arguments) and the last one used, tried first. Only a launch that one refuses (the first, or one
   * with arrays of another backend) looks for the backend, or says what is wrong.
   */
  prepare(kernel: CompiledJitKernel): PreparedLaunch {
    const params = kernel.params;
    const n = params.length;
    const arrays = params.map((p) => p.array ? p.dtype : undefined);
    const hasArrays = params.some((p) => p.array);
    const byBackend = new Map<Backend, BoundLaunch>();
    let lastBackend: Backend | undefined;
    let last: BoundLaunch | undefined;
    // `values`: the arguments, then the launch shape.
    return (values) => {
      if (values.length !== n + 1) throw argumentCount(kernel, values.length - 1);
      // A kernel with no arrays runs on the backend in use, which may have changed since.
      if (last !== undefined && (hasArrays || activeBackend() === lastBackend) && last(values) === -1) return;
      const target = backendOf(kernel, values) ?? activeBackend();
      let bound = byBackend.get(target);
      if (bound === undefined) {
        bound = target.kernel(kernel.source(target.dialect), kernel.name).bind(arrays);
        byBackend.set(target, bound);
      }
      lastBackend = target;
      last = bound;
      const refused = bound(values);
      if (refused !== -1) throw foreignBuffer(kernel, params[refused]!, values[refused], target);
    };
  }
}

/** The backend of the kernel's array arguments (undefined when all are buffers), checking each. */
function backendOf(kernel: CompiledJitKernel, values: readonly unknown[]): Backend | undefined {
  let backend: Backend | undefined;
  kernel.params.forEach((p, i) => {
    if (!p.array) return;
    const arg = values[i];
    if (arg instanceof GPUArray) {
      if (arg.dtype !== p.dtype) throw dtypeMismatch(kernel, p, arg);
      if (backend !== undefined && arg.backend !== backend) throw backendMismatch(kernel, backend, arg);
      backend = arg.backend;
    } else if (!(arg instanceof DeviceAllocation) && !(arg instanceof CLBuffer)) {
      throw notAnArray(kernel, p, arg);
    }
  });
  return backend;
}
