/**
 * The CUDA side of `cudeno run`: compile with NVRTC (through the compile cache), copy the arrays to
 * the device, launch, time each run with a pair of CUDA events, and copy every array back.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import { checkedLaunch, defaultCudaOrdinal, dim3, type JobResult, type KernelJob } from "./backend.ts";
import { CliFailure } from "./failure.ts";
import { UsageError } from "./usage_error.ts";

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Where `file` (a .cu file) has an OpenCL twin beside it, a line pointing to it; else an empty string. */
function twinNote(file: string): string {
  if (!file.endsWith(".cu")) return "";
  const twin = `${file.slice(0, -3)}.cl`;
  try {
    if (!Deno.statSync(twin).isFile) return "";
  } catch {
    return "";
  }
  return `\nNo GPU? ${twin} is this kernel's OpenCL twin, which runs on any OpenCL device (PoCL on the CPU): cudeno run ${twin}`;
}

function openDevice(job: KernelJob): { context: cuda.Context; ordinal: number } {
  const why = cuda.unavailableReason();
  if (why !== undefined) {
    throw new CliFailure(`Cannot run ${job.file}: CUDA is not usable here: ${why}${twinNote(job.file)}`);
  }
  const ordinal = job.device?.backend === "cuda" ? job.device.ordinal : defaultCudaOrdinal();
  try {
    return { context: cuda.useDevice(ordinal), ordinal };
  } catch (error) {
    if (error instanceof RangeError) {
      throw new UsageError(
        `Cannot use CUDA device ${ordinal}: ${error.message}; cudeno info lists the devices`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

async function compile(job: KernelJob): Promise<cuda.SourceModule> {
  try {
    return await cuda.SourceModule.compile(job.source, { name: basename(job.file) });
  } catch (error) {
    if (error instanceof cuda.CompileError) {
      throw new CliFailure(`Cannot compile ${job.file}: NVRTC reported errors\n${error.log.trimEnd()}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Runs a job on a CUDA device (`--device cuda:N`, else `CUDENO_DEVICE`, else 0).
 *
 * @param job The kernel, its arguments and launch (`backend: "cuda"`), and the repeat count.
 * @returns Once done: the device, whether the module came from the compile cache, and each run's kernel time.
 * @throws {CliFailure} If CUDA is not usable here or the source does not compile (with NVRTC's log).
 * @throws {UsageError} If the device does not exist or the launch sizes exceed its limits.
 *
 * @example
 * ```ts
 * import { runCuda } from "./run_cuda.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const source = "__global__ void twice(float *x) { x[threadIdx.x] *= 2; }";
 * const [kernel] = parseKernels(source, "cuda");
 * const { args } = bindArgs(kernel, ["x=ones(32)"]);
 * const result = await runCuda({ file: "twice.cu", source, kernel, args, launch: { backend: "cuda", grid: [1], block: [32] }, repeat: 1 });
 * console.log(result.timesMs[0]);
 * ```
 */
export async function runCuda(job: KernelJob): Promise<JobResult> {
  if (job.launch.backend !== "cuda") throw new TypeError("Cannot run a CUDA job with an OpenCL launch");
  const config = { grid: dim3(job.launch.grid), block: dim3(job.launch.block) };
  const { context, ordinal } = openDevice(job);
  const mod = await compile(job); // NVRTC runs on a worker thread
  const buffers = new Map<number, cuda.DeviceAllocation>();
  const start = new cuda.Event();
  const end = new cuda.Event();
  try {
    const fn = mod.getFunction(job.kernel.name);
    const values = job.args.map((a, i) => {
      if (a.kind === "scalar") return a.value;
      if (a.kind === "vector") return a.values;
      if (a.kind === "local") {
        throw new TypeError(`Cannot pass ${a.param.name}: __local parameters exist only in OpenCL C`);
      }
      const buffer = cuda.memAlloc(Math.max(1, a.data.byteLength));
      buffers.set(i, buffer);
      return buffer;
    });
    const upload = () => {
      for (const [i, buffer] of buffers) {
        const a = job.args[i]!;
        if (a.kind === "array" && a.data.byteLength > 0) cuda.memcpyHtoD(buffer, a.data);
      }
    };
    const timesMs: number[] = [];
    for (let run = 0; run < job.repeat; run++) {
      upload();
      start.record();
      checkedLaunch(() => fn(...values, config));
      end.record();
      end.synchronize();
      timesMs.push(start.elapsedTime(end));
    }
    for (const [i, buffer] of buffers) {
      const a = job.args[i]!;
      if (a.kind === "array" && a.data.byteLength > 0) cuda.memcpyDtoH(a.data, buffer);
    }
    return {
      device: { id: `cuda:${ordinal}`, name: context.device.name },
      compile: mod.cache,
      timesMs,
      buildLog: mod.log.trim(),
    };
  } finally {
    for (const buffer of buffers.values()) buffer.free();
    start.destroy();
    end.destroy();
    mod.unload();
  }
}
