/**
 * Running JIT kernels on a GPU: the kernel's generated source is compiled for the backend its arrays
 * live on (CUDA or OpenCL, through the array layer's backends and so their caches) and launched with
 * the arrays' buffers.
 *
 * @module
 */

import { activeBackend, isDeviceBuffer } from "../device/active.ts";
import { type Backend, type BackendKernel, isDeviceArray, LAUNCH_ARGUMENT } from "../device/backend.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import type { LaunchConfig } from "../kernel/dims.ts";
import type { DType } from "../kernel/dtype.ts";

/**
 * One parameter of a generated kernel, as a launch needs it to pass an argument.
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

/** What a launch needs of a kernel: its name, its parameters and its source in each dialect. */
export interface LaunchableKernel {
  /** The kernel's C name. */
  readonly name: string;
  /** The parameters, in order. */
  readonly params: readonly JitParamInfo[];
  /** The cache key of its compiled form for a dialect (the same for kernels of the same source). */
  key(dialect: Dialect): string;
  /** The generated CUDA C or OpenCL C. */
  source(dialect: Dialect): string;
}

function shown(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value;
  return value.constructor?.name ?? "object";
}

function notAnArray(kernel: LaunchableKernel, p: JitParamInfo, arg: unknown): TypeError {
  return new TypeError(
    `Cannot launch kernel "${kernel.name}": ${p.name} must be a GPUArray or a device buffer (a DeviceAllocation or an OpenCL Buffer), not a ${
      shown(arg)
    }; copy host data with toGpu(), or run the kernel with simulate()`,
  );
}

/** The last backend a kernel launched on and its compiled form there. */
export interface LaunchMemo {
  /** The backend. */
  backend?: Backend;
  /** The kernel compiled for it. */
  compiled?: BackendKernel;
}

/**
 * Compiles `kernel` for the backend its arrays live on (once per source and backend) and launches it;
 * a whole array passes as its buffer, a contiguous view from its first element.
 *
 * @throws {TypeError} for an argument that is not of the kernel's backend or type.
 */
export function launchOnGpu(
  kernel: LaunchableKernel,
  config: LaunchConfig,
  args: unknown[],
  memo: LaunchMemo,
): void {
  const params = kernel.params, n = params.length;
  let backend: Backend | undefined, buffers = false;
  for (let i = 0; i < n; i++) {
    const p = params[i]!;
    if (!p.array) continue;
    const arg = args[i];
    if (isDeviceArray(arg)) {
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
      args[i] = arg[LAUNCH_ARGUMENT];
    } else if (isDeviceBuffer(arg)) {
      buffers = true;
    } else {
      throw notAnArray(kernel, p, arg);
    }
  }
  backend ??= activeBackend();
  if (buffers) {
    for (let i = 0; i < n; i++) {
      const arg = args[i];
      if (params[i]!.array && !isDeviceArray(arg) && !backend.owns(arg)) {
        throw new TypeError(
          `Cannot launch kernel "${kernel.name}": ${params[i]!.name} is a ${
            shown(arg)
          } of another backend than ${backend.device}, where it runs; pass GPU arrays, or buffers of the backend in use`,
        );
      }
    }
  }
  let compiled = memo.compiled;
  if (memo.backend !== backend || compiled === undefined) {
    const dialect = backend.dialect;
    compiled = backend.kernel(
      kernel.key(dialect),
      () => ({ name: kernel.name, source: kernel.source(dialect) }),
    );
    memo.backend = backend;
    memo.compiled = compiled;
  }
  compiled.launch(config, args);
}
