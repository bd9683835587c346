/**
 * Running JIT kernels on a GPU: the kernel's generated source is compiled for the backend its arrays
 * live on (CUDA or OpenCL, through the array layer's backends and so their caches) and launched with
 * the arrays' buffers.
 *
 * @module
 */

import { activeBackend } from "../array/active.ts";
import type { Backend } from "../array/backend.ts";
import { GPUArray } from "../array/gpuarray.ts";
import { DeviceAllocation } from "../cuda/memory.ts";
import { Buffer as CLBuffer } from "../opencl/buffer.ts";
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

/** The backend the arguments' arrays live on (the active one for a kernel of scalars only). */
function backendOf(kernel: LaunchableKernel, args: readonly unknown[]): Backend {
  let found: Backend | undefined;
  kernel.params.forEach((p, i) => {
    const arg = args[i];
    if (!p.array) return;
    if (arg instanceof GPUArray) {
      if (arg.dtype !== p.dtype) {
        throw new TypeError(
          `Cannot launch kernel "${kernel.name}": ${p.name} is ${
            /^[aeiou]/.test(arg.dtype) ? "an" : "a"
          } ${arg.dtype} array, declared ${p.dtype}`,
        );
      }
      if (found !== undefined && arg.backend !== found) {
        throw new TypeError(
          `Cannot launch kernel "${kernel.name}": its arrays live on ${found.device} and ${arg.backend.device}`,
        );
      }
      found = arg.backend;
    } else if (!(arg instanceof DeviceAllocation) && !(arg instanceof CLBuffer)) {
      throw new TypeError(
        `Cannot launch kernel "${kernel.name}": ${p.name} must be a GPUArray or a device buffer (a DeviceAllocation or an OpenCL Buffer), not a ${
          shown(arg)
        }; copy host data with toGpu(), or run the kernel with simulate()`,
      );
    }
  });
  if (found !== undefined) return found;
  const active = activeBackend();
  kernel.params.forEach((p, i) => {
    const arg = args[i];
    if (
      p.array && (active.name === "cuda" ? !(arg instanceof DeviceAllocation) : !(arg instanceof CLBuffer))
    ) {
      throw new TypeError(
        `Cannot launch kernel "${kernel.name}": ${p.name} is a ${
          shown(arg)
        } of another backend than ${active.device}, where it runs; pass GPU arrays, or buffers of the backend in use`,
      );
    }
  });
  return active;
}

/**
 * Compiles `kernel` for the backend its arrays live on (once per source and backend) and launches it;
 * arrays pass as their memory (a contiguous view passes from its first element).
 *
 * @throws {TypeError} for an argument that is not of the kernel's backend or type.
 */
export function launchOnGpu(kernel: LaunchableKernel, config: LaunchConfig, args: readonly unknown[]): void {
  const backend = backendOf(kernel, args);
  const dialect = backend.dialect;
  // A whole array passes as its buffer; the core resolves a view to its first element, or says why not.
  const values = args.map((
    arg,
  ) => (arg instanceof GPUArray && arg.offset === 0 && arg.isContiguous ? arg.buffer : arg));
  const compiled = backend.kernel(
    kernel.key(dialect),
    () => ({ name: kernel.name, source: kernel.source(dialect) }),
  );
  compiled.launch(config, values);
}
