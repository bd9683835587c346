/**
 * The `cudeno` command line: `cudeno info`, `cudeno run FILE.cu|FILE.cl ...` and `cudeno types FILE`.
 * Run it as `deno run -A jsr:@cudeno/cudeno/cli <command>` (or `deno task cudeno <command>` in the
 * repository). Exit status: 0 done; 1 an expected failure (a compile error, with the compiler's log;
 * no CUDA or OpenCL device; a kernel fault); 2 bad input, reported as one line `cudeno: ...` on
 * standard error. Stack traces are printed only for internal errors, and only with `CUDENO_DEBUG=1`.
 *
 * @example
 * ```ts
 * import { main } from "@cudeno/cudeno/cli";
 * const status = await main(["run", "kernels/saxpy.cl", "--arg", "n=1000"]);
 * ```
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import * as cl from "../opencl/mod.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { CliFailure } from "./failure.ts";
import { MAIN_HELP } from "./help.ts";
import { infoCommand } from "./info.ts";
import { type CliIO, consoleIO } from "./io.ts";
import { runCommand } from "./run.ts";
import { typesCommand } from "./types.ts";
import { UsageError } from "./usage_error.ts";

export type { CliIO } from "./io.ts";

/** Errors that describe a condition of this machine or of the user's kernel, not a bug in cudeno. */
function isExpected(error: unknown): error is Error {
  return error instanceof CliFailure || error instanceof cuda.CudaError ||
    error instanceof cuda.CompileError ||
    error instanceof cuda.NvrtcError || error instanceof cl.OpenCLError ||
    error instanceof cuda.LibraryNotFoundError ||
    error instanceof Deno.errors.NotCapable;
}

function report(error: unknown, io: CliIO): number {
  if (error instanceof UsageError) {
    io.err(`cudeno: ${error.message}`);
    return 2;
  }
  if (isExpected(error)) {
    io.err(`cudeno: ${error.message}`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (tryGetEnv("CUDENO_DEBUG") === "1") {
    io.err(`cudeno: internal error: ${error instanceof Error && error.stack ? error.stack : message}`);
  } else {
    io.err(`cudeno: internal error: ${message.split("\n")[0]} (set CUDENO_DEBUG=1 to see where it happened)`);
  }
  return 1;
}

/**
 * Runs one `cudeno` command line and returns its exit status; nothing is thrown.
 *
 * @param args The command and its words, as `Deno.args` holds them (`["run", "k.cl", "--list"]`).
 * @param io Where to print: standard output and standard error by default.
 * @returns 0 when done, 1 for an expected failure, 2 for bad input.
 *
 * @example
 * ```ts
 * import { main } from "@cudeno/cudeno/cli";
 * const lines: string[] = [];
 * const status = await main(["info", "--json"], { out: (t) => lines.push(t), err: (t) => lines.push(t) });
 * console.log(status, JSON.parse(lines[0]).best);
 * ```
 */
export async function main(args: readonly string[], io: CliIO = consoleIO): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "run":
        return await runCommand(rest, io);
      case "info":
        return infoCommand(rest, io);
      case "types":
        return typesCommand(rest, io);
      case "help":
      case "--help":
      case "-h":
        io.out(MAIN_HELP);
        return 0;
      case undefined:
        io.err(MAIN_HELP);
        return 2;
      default:
        throw new UsageError(
          `Cannot run cudeno ${command}: there is no such command; use info, run or types (see cudeno --help)`,
        );
    }
  } catch (error) {
    return report(error, io);
  }
}

/**
 * `deno task` runs a task in the folder of deno.json and says where the user was in `INIT_CWD` (as npm
 * does), which is that folder or one inside it: go back there, so that the paths the user typed mean
 * what they meant. An `INIT_CWD` elsewhere was inherited from some other task, and is not ours.
 */
function enterUsersFolder(): void {
  const initial = tryGetEnv("INIT_CWD");
  if (initial === undefined) return;
  try {
    const here = Deno.cwd().replace(/[\\/]$/, "");
    if (initial.startsWith(`${here}/`) || initial.startsWith(`${here}\\`)) Deno.chdir(initial);
  } catch {
    // Gone, or not permitted: paths stay relative to where the task runs.
  }
}

if (import.meta.main) {
  enterUsersFolder();
  Deno.exit(await main(Deno.args));
}
