/**
 * The OpenCL side of `cudeno run`: build the program for the chosen device, copy the arrays into
 * buffers, launch on a profiling queue, time each run from its event's profile, and copy every
 * array back.
 *
 * @module
 */

import * as cl from "../opencl/mod.ts";
import { checkedLaunch, dim3, type JobResult, type KernelJob } from "./backend.ts";
import { CliFailure } from "./failure.ts";
import { UsageError } from "./usage_error.ts";

function unusable(job: KernelJob, error: unknown): never {
  if (error instanceof cl.LibraryNotFoundError || error instanceof cl.OpenCLError) {
    throw new CliFailure(`Cannot run ${job.file}: OpenCL is not usable here: ${error.message}`, {
      cause: error,
    });
  }
  throw error;
}

function pickDevice(job: KernelJob): cl.Device {
  let platforms: cl.Platform[];
  try {
    platforms = cl.getPlatforms();
  } catch (error) {
    unusable(job, error);
  }
  const choice = job.device;
  if (choice?.backend !== "opencl") {
    try {
      return cl.chooseDevice();
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message, { cause: error });
      throw error;
    }
  }
  const device = platforms[choice.platform]?.getDevices()[choice.device];
  if (device === undefined) {
    const known = platforms.flatMap((p) =>
      p.getDevices().map((d) => `opencl:${p.index}:${d.index} (${d.name})`)
    );
    throw new UsageError(
      `Cannot use --device opencl:${choice.platform}:${choice.device}: there is no such device; the OpenCL devices are ${
        known.join(", ") || "none"
      }`,
    );
  }
  return device;
}

function build(job: KernelJob, context: cl.Context): cl.Program {
  const program = new cl.Program(context, job.source, { filename: job.file });
  try {
    return program.build();
  } catch (error) {
    program.release();
    if (error instanceof cl.OpenCLError && error.log !== "") {
      throw new CliFailure(
        `Cannot build ${job.file}: the OpenCL compiler reported errors\n${error.log.trimEnd()}`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Runs a job on an OpenCL device (`--device opencl:P:D`, else the one `chooseDevice()` picks:
 * `CUDENO_OPENCL_DEVICE`, else the first GPU, else the first device).
 *
 * @param job The kernel, its arguments and launch (`backend: "opencl"`), and the repeat count.
 * @returns Once done: the device, `"driver"` as the compile source, and each run's kernel time.
 * @throws {CliFailure} If OpenCL is not usable here or the program does not build (with the build log).
 * @throws {UsageError} If the device does not exist or the launch sizes do not suit it.
 *
 * @example
 * ```ts
 * import { runOpenCL } from "./run_opencl.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const source = "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }";
 * const [kernel] = parseKernels(source, "opencl");
 * const { args } = bindArgs(kernel, ["x=ones(32)"]);
 * const launch = { backend: "opencl", global: [32], local: null } as const;
 * console.log((await runOpenCL({ file: "twice.cl", source, kernel, args, launch, repeat: 1 })).timesMs);
 * ```
 */
export async function runOpenCL(job: KernelJob): Promise<JobResult> {
  if (job.launch.backend !== "opencl") throw new TypeError("Cannot run an OpenCL job with a CUDA launch");
  const global = dim3(job.launch.global);
  const local = job.launch.local === null ? null : dim3(job.launch.local);
  const device = pickDevice(job);
  const context = new cl.Context([device]);
  const queue = new cl.CommandQueue(context, { profiling: true });
  const buffers = new Map<number, cl.Buffer>();
  let program: cl.Program | undefined;
  try {
    program = build(job, context);
    const kernel = program.getKernel(job.kernel.name);
    const values = job.args.map((a, i) => {
      if (a.kind === "scalar") return a.value;
      if (a.kind === "vector") return a.values;
      if (a.kind === "local") return new cl.LocalMemory(a.bytes);
      const buffer = new cl.Buffer(context, Math.max(1, a.data.byteLength));
      buffers.set(i, buffer);
      return buffer;
    });
    const timesMs: number[] = [];
    for (let run = 0; run < job.repeat; run++) {
      for (const [i, buffer] of buffers) {
        const a = job.args[i]!;
        if (a.kind === "array" && a.data.byteLength > 0) cl.enqueueCopy(queue, buffer, a.data);
      }
      const event = checkedLaunch(() => kernel(queue, global, local, ...values));
      await event.completed();
      const { start, end } = event.profile;
      timesMs.push(Number(end - start) / 1e6);
      event.release();
    }
    for (const [i, buffer] of buffers) {
      const a = job.args[i]!;
      if (a.kind === "array" && a.data.byteLength > 0) cl.enqueueCopy(queue, a.data, buffer);
    }
    return {
      device: { id: `opencl:${device.platform.index}:${device.index}`, name: device.name },
      compile: "driver",
      timesMs,
      buildLog: program.buildLog(device).trim(),
    };
  } finally {
    queue.release();
    for (const buffer of buffers.values()) buffer.free();
    program?.release();
    context.release();
  }
}
