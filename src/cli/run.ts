/**
 * `cudeno run`: read the kernel file and its `// cudeno:` defaults, list its kernels or bind the
 * arguments, check the launch and outputs, run on the file's backend, then write or summarize the
 * arrays and report the kernel time.
 *
 * @module
 */

import { parseRunFlags, type RunFlags } from "./args.ts";
import { type JobResult, type KernelJob, parseDevice } from "./backend.ts";
import { bindArgs } from "./bind.ts";
import { defaultWords, mergeFlags } from "./defaults.ts";
import { type Launch, resolveLaunch } from "./geometry.ts";
import { RUN_HELP } from "./help.ts";
import type { CliIO } from "./io.ts";
import { type KernelFile, readKernelFile } from "./kernel_file.ts";
import { formatKernelList, kernelListJson } from "./list.ts";
import { formatNumber, formatOutput, type OutputReport, planOutputs, writeOutputs } from "./outputs.ts";
import { runCuda } from "./run_cuda.ts";
import { runOpenCL } from "./run_opencl.ts";
import { UsageError } from "./usage_error.ts";
import type { KernelSignature } from "../kernel/signature.ts";

/**
 * Everything `cudeno run --json` prints: the kernel, device, launch, compile source, kernel times
 * (milliseconds) and outputs.
 *
 * @example
 * ```ts
 * import type { RunReport } from "./run.ts";
 * function slowest(report: RunReport): number {
 *   return report.timeMs.max;
 * }
 * ```
 */
export interface RunReport {
  /** The kernel file. */
  readonly file: string;
  /** The kernel's name. */
  readonly kernel: string;
  /** `"cuda"` or `"opencl"`. */
  readonly backend: "cuda" | "opencl";
  /** The device's id (`cuda:0`, `opencl:0:0`) and name. */
  readonly device: JobResult["device"];
  /** The launch sizes. */
  readonly launch: Launch;
  /** Where the compiled kernel came from: `none` (NVRTC now), `memory`, `disk`, or `driver` (OpenCL). */
  readonly compile: JobResult["compile"];
  /** Kernel time over the runs, milliseconds. */
  readonly timeMs: {
    readonly runs: number;
    readonly min: number;
    readonly median: number;
    readonly max: number;
  };
  /** The arrays written or summarized. */
  readonly outputs: readonly OutputReport[];
}

function chooseKernel(file: KernelFile, name: string | undefined): KernelSignature {
  const names = file.kernels.map((k) => k.name);
  if (names.length === 0) {
    throw new UsageError(
      `Cannot run ${file.path}: it declares no kernels (no ${
        file.dialect === "cuda" ? "__global__" : "__kernel"
      } function was found)`,
    );
  }
  if (name === undefined) {
    if (names.length === 1) return file.kernels[0]!;
    throw new UsageError(
      `Cannot run ${file.path}: it declares ${names.length} kernels (${
        names.join(", ")
      }); choose one with --kernel NAME`,
    );
  }
  const kernel = file.kernels.find((k) => k.name === name);
  if (kernel === undefined) {
    throw new UsageError(
      `Cannot run kernel ${name}: ${file.path} declares no such kernel; choose one of ${
        names.join(", ")
      } with --kernel`,
    );
  }
  return kernel;
}

function positiveInteger(text: string | undefined, option: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(
      `Cannot use ${option} ${text}: give a whole number of at least 1, such as ${option} 10`,
    );
  }
  return Number(text);
}

function seedOf(text: string | undefined): bigint {
  if (text === undefined) return 0n;
  if (!/^\d+$/.test(text.trim())) {
    throw new UsageError(`Cannot use --seed ${text}: give a non-negative whole number, such as --seed 42`);
  }
  return BigInt(text.trim());
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function sizes(list: readonly number[]): string {
  return `[${list.join(", ")}]`;
}

function describeLaunch(launch: Launch): string {
  if (launch.backend === "cuda") return `grid ${sizes(launch.grid)} block ${sizes(launch.block)}`;
  return `global ${sizes(launch.global)} local ${
    launch.local === null ? "chosen by the driver" : sizes(launch.local)
  }`;
}

const COMPILE_TEXT: Record<JobResult["compile"], string> = {
  none: "compiled with NVRTC (now in the compile cache)",
  memory: "taken from the compile cache in memory",
  disk: "loaded from the compile cache on disk, not compiled",
  driver: "built by the OpenCL driver (which may keep its own cache; cudeno cannot tell)",
};

function ms(value: number): string {
  return `${formatNumber(value)} ms`;
}

/**
 * The report as text: what ran where, the compile source, the kernel time and one line per output.
 *
 * @example
 * ```ts
 * import { formatRunReport, type RunReport } from "./run.ts";
 * declare const report: RunReport;
 * console.log(formatRunReport(report));
 * ```
 */
export function formatRunReport(report: RunReport): string {
  const t = report.timeMs;
  const time = t.runs === 1
    ? `kernel time ${ms(t.min)}`
    : `kernel time over ${t.runs} runs: min ${ms(t.min)}, median ${ms(t.median)}, max ${ms(t.max)}`;
  return [
    `${report.kernel} on ${report.device.id} (${report.device.name}), ${describeLaunch(report.launch)}`,
    COMPILE_TEXT[report.compile],
    time,
    ...report.outputs.map(formatOutput),
  ].join("\n");
}

/** What `--warnings` prints: the build log, or why there is none. */
function warningsNote(path: string, result: JobResult): string {
  if (result.buildLog !== "") return result.buildLog;
  return result.compile === "memory" || result.compile === "disk"
    ? `${path}: no compiler log: the kernel came from the compile cache (CUDENO_DISABLE_CACHE=1 compiles it afresh)`
    : `${path}: the compiler reported no warnings`;
}

/**
 * Reads the command line of `cudeno run` (the words after `run`), merges the file's defaults, and
 * lists or runs.
 *
 * @param args The words after `run`.
 * @param io Where to print.
 * @returns The exit status (0), once the run is done.
 * @throws {UsageError} For any mistake in the flags, the file or the values.
 * @throws {CliFailure} If the backend is not usable or the kernel does not compile.
 *
 * @example
 * ```ts
 * import { runCommand } from "./run.ts";
 * import { consoleIO } from "./io.ts";
 * await runCommand(["kernels/saxpy.cl", "--arg", "n=1000"], consoleIO);
 * ```
 */
export async function runCommand(args: readonly string[], io: CliIO): Promise<number> {
  const { flags: given, positionals } = parseRunFlags(args, "the command line");
  if (given.help) {
    io.out(RUN_HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      `Cannot parse the command line: cudeno run takes one kernel file (.cu or .cl), got ${positionals.length}${
        positionals.length > 1 ? ` (${positionals.join(" ")})` : ""
      }; write cudeno run FILE --kernel NAME --arg NAME=VALUE ...`,
    );
  }
  const file = readKernelFile(positionals[0]!);
  if (given.list) {
    io.out(given.json ? JSON.stringify(kernelListJson(file)) : formatKernelList(file));
    return 0;
  }
  const where = `the // cudeno: line of ${file.path}`;
  const defaults = parseRunFlags(defaultWords(file.source, file.path), where);
  if (defaults.positionals.length > 0) {
    throw new UsageError(
      `Cannot use ${where}: ${
        JSON.stringify(defaults.positionals[0])
      } is not a flag; write flags such as --arg n=1024`,
    );
  }
  const flags: RunFlags = mergeFlags(defaults.flags, given);
  const kernel = chooseKernel(file, flags.kernel);
  const repeat = positiveInteger(flags.repeat, "--repeat", 1);
  const device = flags.device === undefined ? undefined : parseDevice(flags.device, file.dialect);
  const bound = bindArgs(kernel, flags.arg, seedOf(flags.seed));
  const plan = planOutputs(flags, bound);
  const largest = Math.max(0, ...bound.args.map((a) => a.kind === "array" ? a.data.length : 0));
  const launch = resolveLaunch(flags, file.dialect, bound.env, largest);
  const job: KernelJob = {
    file: file.path,
    source: file.source,
    kernel,
    args: bound.args,
    launch,
    repeat,
    device,
  };
  const result = await (file.dialect === "cuda" ? runCuda(job) : runOpenCL(job));
  const report: RunReport = {
    file: file.path,
    kernel: kernel.name,
    backend: file.dialect,
    device: result.device,
    launch,
    compile: result.compile,
    timeMs: {
      runs: result.timesMs.length,
      min: Math.min(...result.timesMs),
      median: median(result.timesMs),
      max: Math.max(...result.timesMs),
    },
    outputs: writeOutputs(plan, bound),
  };
  if (flags.warnings) io.err(warningsNote(file.path, result));
  io.out(flags.json ? JSON.stringify(report) : formatRunReport(report));
  return 0;
}
