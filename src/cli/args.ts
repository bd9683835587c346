/**
 * The flags of each command, read with `node:util`'s `parseArgs` in strict mode; every mistake becomes
 * a {@link UsageError} that names the flag and points to the command's `--help`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "./usage_error.ts";

/**
 * The flags of `cudeno run`, as given (values are parsed later, against the kernel's parameters).
 *
 * @example
 * ```ts
 * import { parseRunFlags, type RunFlags } from "./args.ts";
 * const flags: RunFlags = parseRunFlags(["--kernel", "saxpy", "--arg", "n=1024"], "the command line").flags;
 * console.log(flags.kernel, flags.arg); // "saxpy" ["n=1024"]
 * ```
 */
export interface RunFlags {
  /** `--list`: list the kernels instead of running one. */
  readonly list: boolean;
  /** `--json`: print one JSON object. */
  readonly json: boolean;
  /** `--help`. */
  readonly help: boolean;
  /** `--kernel NAME`. */
  readonly kernel?: string;
  /** Each `--arg NAME=VALUE`, in order. */
  readonly arg: readonly string[];
  /** Each `--out NAME=PATH`, in order. */
  readonly out: readonly string[];
  /** Each `--shape [NAME=]D,D,...`, in order. */
  readonly shape: readonly string[];
  /** `--grid X[,Y[,Z]]`, blocks (CUDA) or work-groups (OpenCL). */
  readonly grid?: string;
  /** `--block X[,Y[,Z]]`, threads per block (work-items per work-group). */
  readonly block?: string;
  /** `--global X[,Y[,Z]]`, OpenCL's global size in work-items. */
  readonly global?: string;
  /** `--local X[,Y[,Z]]`, OpenCL's local size. */
  readonly local?: string;
  /** `--repeat N`. */
  readonly repeat?: string;
  /** `--device cuda:N` or `--device opencl:P:D`. */
  readonly device?: string;
  /** `--seed N`, the seed of `rand` and `randn`. */
  readonly seed?: string;
  /** `--colormap NAME` for PNG outputs. */
  readonly colormap?: string;
  /** `--log`: colour PNG outputs by the logarithm of the values. */
  readonly log: boolean;
  /** `--warnings`: print the compiler's log (its warnings) after a build that succeeds. */
  readonly warnings: boolean;
}

/**
 * The flags of `cudeno info`.
 *
 * @example
 * ```ts
 * import { type InfoFlags, parseInfoFlags } from "./args.ts";
 * const flags: InfoFlags = parseInfoFlags(["--json", "--require", "opencl"]);
 * console.log(flags.require); // "opencl"
 * ```
 */
export interface InfoFlags {
  /** `--json`: print one JSON object. */
  readonly json: boolean;
  /** `--help`. */
  readonly help: boolean;
  /** `--require cuda|opencl`: fail (status 1) when that backend has no usable device. */
  readonly require?: "cuda" | "opencl";
}

/**
 * The flags of `cudeno types`.
 *
 * @example
 * ```ts
 * import { parseTypesFlags, type TypesFlags } from "./args.ts";
 * const flags: TypesFlags = parseTypesFlags(["kernels/saxpy.cu", "-o", "saxpy_kernels.ts"]);
 * console.log(flags.file, flags.output); // "kernels/saxpy.cu" "saxpy_kernels.ts"
 * ```
 */
export interface TypesFlags {
  /** `--help`. */
  readonly help: boolean;
  /** The kernel file. */
  readonly file: string;
  /** `-o OUT.ts`; the module goes to standard output without it. */
  readonly output?: string;
  /** `--import SPEC`: where the generated module imports cudeno from. */
  readonly import?: string;
}

/** Turns `parseArgs`'s errors (`ERR_PARSE_ARGS_*`) into a one-line UsageError. */
function parsing<T>(command: string, where: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const code = error instanceof TypeError && "code" in error ? String(error.code) : "";
    if (!code.startsWith("ERR_PARSE_ARGS")) throw error;
    const message = (error as TypeError).message;
    const option = /'(--?[\w-]+)/.exec(message)?.[1] ?? "";
    const detail = /^Unknown option/.test(message)
      ? `there is no option ${option}`
      : /argument missing/.test(message)
      ? `option ${option} needs a value`
      : /argument is ambiguous/.test(message)
      ? `option ${option} has no value; to give a value that starts with '-', write ${option}=VALUE`
      : /does not take an argument/.test(message)
      ? `option ${option} takes no value`
      : message.split("\n")[0]!.replace(/\.$/, "");
    throw new UsageError(`Cannot parse ${where}: ${detail}; see cudeno ${command} --help`, { cause: error });
  }
}

/**
 * Reads `cudeno run`'s flags from the command line or from a kernel file's `// cudeno:` line.
 *
 * @param args The words after `run`.
 * @param where What the words are, for messages (`"the command line"`).
 * @returns The flags and the positional words (the kernel file).
 * @throws {UsageError} For an unknown flag or a flag without its value.
 *
 * @example
 * ```ts
 * import { parseRunFlags } from "./args.ts";
 * const { flags, positionals } = parseRunFlags(["k.cl", "--grid", "64", "--block", "256"], "the command line");
 * console.log(positionals, flags.grid, flags.block); // ["k.cl"] "64" "256"
 * ```
 */
export function parseRunFlags(
  args: readonly string[],
  where: string,
): { flags: RunFlags; positionals: string[] } {
  const { values, positionals } = parsing("run", where, () =>
    parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: {
        list: { type: "boolean" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        kernel: { type: "string" },
        arg: { type: "string", multiple: true },
        out: { type: "string", multiple: true },
        shape: { type: "string", multiple: true },
        grid: { type: "string" },
        block: { type: "string" },
        global: { type: "string" },
        local: { type: "string" },
        repeat: { type: "string" },
        device: { type: "string" },
        seed: { type: "string" },
        colormap: { type: "string" },
        log: { type: "boolean" },
        warnings: { type: "boolean" },
      },
    }));
  const flags: RunFlags = {
    list: values.list === true,
    json: values.json === true,
    help: values.help === true,
    kernel: values.kernel,
    arg: values.arg ?? [],
    out: values.out ?? [],
    shape: values.shape ?? [],
    grid: values.grid,
    block: values.block,
    global: values.global,
    local: values.local,
    repeat: values.repeat,
    device: values.device,
    seed: values.seed,
    colormap: values.colormap,
    log: values.log === true,
    warnings: values.warnings === true,
  };
  return { flags, positionals };
}

/**
 * Reads `cudeno info`'s flags.
 *
 * @throws {UsageError} For an unknown flag, a stray word, or `--require` naming neither cuda nor opencl.
 *
 * @example
 * ```ts
 * import { parseInfoFlags } from "./args.ts";
 * console.log(parseInfoFlags([]).json); // false
 * ```
 */
export function parseInfoFlags(args: readonly string[]): InfoFlags {
  const { values, positionals } = parsing("info", "the command line", () =>
    parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        require: { type: "string" },
      },
    }));
  if (positionals.length > 0) {
    throw new UsageError(
      `Cannot parse the command line: cudeno info takes no file, but got ${JSON.stringify(positionals[0])}`,
    );
  }
  const require = values.require;
  if (require !== undefined && require !== "cuda" && require !== "opencl") {
    throw new UsageError(`Cannot use --require ${require}: give --require cuda or --require opencl`);
  }
  return { json: values.json === true, help: values.help === true, require };
}

/**
 * Reads `cudeno types`'s flags.
 *
 * @throws {UsageError} For an unknown flag, or not exactly one kernel file.
 *
 * @example
 * ```ts
 * import { parseTypesFlags } from "./args.ts";
 * console.log(parseTypesFlags(["k.cl", "--import", "./cudeno/opencl.ts"]).import); // "./cudeno/opencl.ts"
 * ```
 */
export function parseTypesFlags(args: readonly string[]): TypesFlags {
  const { values, positionals } = parsing("types", "the command line", () =>
    parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: "boolean", short: "h" },
        output: { type: "string", short: "o" },
        import: { type: "string" },
      },
    }));
  const help = values.help === true;
  if (!help && positionals.length !== 1) {
    throw new UsageError(
      `Cannot parse the command line: cudeno types takes one kernel file (.cu or .cl), got ${positionals.length}; ` +
        "write cudeno types FILE [-o OUT.ts]",
    );
  }
  return { help, file: positionals[0] ?? "", output: values.output, import: values.import };
}
