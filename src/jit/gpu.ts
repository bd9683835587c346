/**
 * The JIT's GPU launcher: compiles a kernel's generated source for the backend its arrays live on
 * (CUDA or OpenCL, through the array layer's backends, so results share the SourceModule disk cache
 * and the OpenCL program cache) and launches it. Registered as the default launcher by `jit/mod.ts`.
 *
 * @module
 */

import { activeBackend, type Backend, type BoundLaunch, type RefusedLaunch } from "../array/backend.ts";
import { GPUArray } from "../array/gpuarray.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import { Buffer as CLBuffer } from "../opencl/buffer.ts";
import {
  type CompiledJitKernel,
  type JitLauncher,
  type JitParamInfo,
  launchArity,
  type PreparedLaunch,
} from "./launcher.ts";
import type { LaunchConfig } from "./config.ts";
import { fixedArity } from "../kernel/fixed_arity.ts";

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
  readonly #prepared = new WeakMap<CompiledJitKernel, { run: PreparedLaunch }>();

  /** Compiles (once per kernel and backend) and launches `kernel` with GPU arrays or device buffers and scalars. */
  launch(kernel: CompiledJitKernel, config: LaunchConfig, args: readonly unknown[]): void {
    // The prepared launch, and any bound launch it hands on, checks the count.
    let known = this.#prepared.get(kernel);
    if (known === undefined) {
      const entry: { run: PreparedLaunch } = { run: () => {} };
      entry.run = this.prepare(kernel, (next) => entry.run = next);
      this.#prepared.set(kernel, entry);
      known = entry;
    }
    known.run(config, ...args);
  }

  /**
   * The launch of one kernel, keeping what it needs between launches: a bound launch per backend
   * (`BackendKernel.bind()`, which writes the arrays' addresses straight into the compiled kernel's
   * arguments). The first launch finds the backend and hands its bound launch to `replace`, so later
   * launches are calls of it (it checks their count); one it refuses (arrays of another backend, or of
   * the wrong type) comes back here, to find the backend or say what is wrong.
   */
  prepare(kernel: CompiledJitKernel, replace: (next: PreparedLaunch) => void): PreparedLaunch {
    const params = kernel.params;
    const n = params.length;
    const arrays = params.map((p) => p.array ? p.dtype : undefined);
    const hasArrays = params.some((p) => p.array);
    const byBackend = new Map<Backend, BoundLaunch>();
    // The backend whose bound launch this is calling: its refusal is final.
    let calling: Backend | undefined;
    const miscount = (given: number): never => {
      throw launchArity(kernel, given);
    };
    // A refusal comes with the launch's values (and maybe unused slots after them).
    const refusedOn = (target: Backend): RefusedLaunch => (i, shape, ...args) => {
      if (calling === target) throw foreignBuffer(kernel, params[i]!, args[i], target);
      args.length = n;
      dispatch(shape as LaunchConfig, ...args);
    };
    // The values in one reused list, the config first: `values[1 + i]` is argument i.
    const dispatch = fixedArity(n, n + 1, (values, given) => {
      if (given !== n + 1) throw launchArity(kernel, given);
      // A kernel with no arrays runs on the backend in use, which may change between launches, so
      // each of its launches comes here; a kernel with arrays runs where they live.
      const target = (hasArrays ? backendOf(kernel, values) : undefined) ?? activeBackend();
      let bound = byBackend.get(target);
      if (bound === undefined) {
        bound = target.kernel(kernel.source(target.dialect), kernel.name).bind(
          arrays,
          refusedOn(target),
          miscount,
        );
        byBackend.set(target, bound);
      }
      if (hasArrays) replace(bound as PreparedLaunch);
      calling = target;
      try {
        Reflect.apply(bound, undefined, values);
      } finally {
        calling = undefined;
      }
    }) as PreparedLaunch;
    return dispatch;
  }
}

/** The backend of the kernel's array arguments in `values` (after the config; undefined when all are buffers), checking each. */
function backendOf(kernel: CompiledJitKernel, values: readonly unknown[]): Backend | undefined {
  let backend: Backend | undefined;
  kernel.params.forEach((p, i) => {
    if (!p.array) return;
    const arg = values[1 + i];
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
