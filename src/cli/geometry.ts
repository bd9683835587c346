/**
 * Launch sizes: `--grid`/`--block` (CUDA's blocks and threads; for OpenCL, global = grid × block and
 * local = block), `--global`/`--local` (OpenCL), and the default of one thread per element of the
 * largest array in blocks of 256. Each size may be an expression over the scalar arguments
 * (`--grid (N+15)>>4,(M+15)>>4`).
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { UsageError } from "./usage_error.ts";
import { type ArgEnv, parseArgValue } from "./values.ts";
import { evaluateScalar } from "./evaluate.ts";

/** Threads per block when no size is given. */
export const DEFAULT_BLOCK = 256;

/**
 * Where a launch runs: CUDA's grid of blocks, or OpenCL's global size with an optional local size
 * (null lets the driver choose).
 *
 * @example
 * ```ts
 * import type { Launch } from "./geometry.ts";
 * const launch: Launch = { backend: "cuda", grid: [4096], block: [256] };
 * console.log(launch.backend); // "cuda"
 * ```
 */
export type Launch =
  | { readonly backend: "cuda"; readonly grid: readonly number[]; readonly block: readonly number[] }
  | {
    readonly backend: "opencl";
    readonly global: readonly number[];
    readonly local: readonly number[] | null;
  };

/** The size flags as given. */
export interface SizeFlags {
  /** `--grid`. */
  readonly grid?: string;
  /** `--block`. */
  readonly block?: string;
  /** `--global`. */
  readonly global?: string;
  /** `--local`. */
  readonly local?: string;
}

/**
 * Evaluates a comma-separated list of sizes (`64`, `n/16,m/16`, `h,w`), each a scalar expression over
 * the arguments in `env`.
 *
 * @param text The list.
 * @param option The flag it came from, for messages (`--grid`).
 * @param env The scalar arguments the sizes may use.
 * @param limits The most sizes allowed and the smallest value allowed.
 * @returns The sizes.
 * @throws {UsageError} If a size does not parse, is not an integer, or is out of range.
 *
 * @example
 * ```ts
 * import { evaluateSizes } from "./geometry.ts";
 * console.log(evaluateSizes("n/16, 4", "--grid", new Map([["n", 256]]))); // [16, 4]
 * ```
 */
export function evaluateSizes(
  text: string,
  option: string,
  env: ArgEnv,
  limits: { most: number; least: number } = { most: 3, least: 1 },
): number[] {
  const parts = text.split(",");
  if (parts.length > limits.most) {
    throw new UsageError(
      `Cannot use ${option} ${text}: give at most ${limits.most} sizes separated by commas, such as 64,64`,
    );
  }
  return parts.map((part) => {
    const value = Number(
      evaluateScalar(parseArgValue(part, option), env, { dtype: "uint32", param: option, ctype: "a size" }),
    );
    if (value < limits.least) {
      throw new UsageError(`Cannot use ${option} ${text}: every size must be at least ${limits.least}`);
    }
    return value;
  });
}

function needs(option: string, other: string, example: string): never {
  throw new UsageError(`Cannot use ${option} without ${other}: give both, e.g. ${example}`);
}

/**
 * Works out the launch from the size flags. With none, one thread per element of the largest array
 * (`elements`), in blocks of {@link DEFAULT_BLOCK}. A 1-D `--block` alone gets just enough blocks for
 * `elements`; `--grid` needs `--block`. For OpenCL, `--grid`/`--block` mean global = grid × block,
 * local = block, and `--global` may come without `--local`.
 *
 * @param flags The size flags.
 * @param dialect Which backend the launch is for.
 * @param env The scalar arguments the sizes may use.
 * @param elements Elements of the largest array argument.
 * @returns The launch.
 * @throws {UsageError} If the flags do not fit together or a size is not valid.
 *
 * @example
 * ```ts
 * import { resolveLaunch } from "./geometry.ts";
 * console.log(resolveLaunch({}, "opencl", new Map(), 1000)); // { backend: "opencl", global: [1024], local: [256] }
 * ```
 */
export function resolveLaunch(flags: SizeFlags, dialect: Dialect, env: ArgEnv, elements: number): Launch {
  const sizes = (text: string | undefined, option: string) =>
    text === undefined ? undefined : evaluateSizes(text, option, env);
  const grid = sizes(flags.grid, "--grid");
  const block = sizes(flags.block, "--block");
  const global = sizes(flags.global, "--global");
  const local = sizes(flags.local, "--local");
  if (grid !== undefined && block === undefined) needs("--grid", "--block", "--grid 64 --block 256");
  let cuda: { grid: number[]; block: number[] } | undefined;
  if (block !== undefined) {
    if (grid === undefined && block.length > 1) {
      needs("a 2-D or 3-D --block", "--grid", "--grid 16,16 --block 16,16");
    }
    cuda = { grid: grid ?? [Math.max(1, Math.ceil(elements / block[0]!))], block };
  }
  if (dialect === "cuda") {
    if (global !== undefined || local !== undefined) {
      throw new UsageError(
        `Cannot use ${global !== undefined ? "--global" : "--local"} with a CUDA kernel: ` +
          "they size OpenCL launches; give --grid (blocks) and --block (threads per block)",
      );
    }
    const chosen = cuda ??
      { grid: [Math.max(1, Math.ceil(elements / DEFAULT_BLOCK))], block: [DEFAULT_BLOCK] };
    return { backend: "cuda", ...chosen };
  }
  if (cuda !== undefined) {
    if (global !== undefined || local !== undefined) {
      throw new UsageError(
        "Cannot use --grid/--block together with --global/--local: give one pair (global = grid × block, local = block)",
      );
    }
    const dims = Math.max(cuda.grid.length, cuda.block.length);
    const at = (list: number[], i: number) => list[i] ?? 1;
    const localSize = Array.from({ length: dims }, (_, i) => at(cuda.block, i));
    return {
      backend: "opencl",
      global: localSize.map((b, i) => at(cuda.grid, i) * b),
      local: localSize,
    };
  }
  if (local !== undefined && global === undefined) needs("--local", "--global", "--global 1024 --local 64");
  if (global !== undefined) {
    if (local !== undefined && local.length !== global.length) {
      throw new UsageError(
        `Cannot use --global ${flags.global} with --local ${flags.local}: give both the same number of sizes`,
      );
    }
    return { backend: "opencl", global, local: local ?? null };
  }
  const groups = Math.max(1, Math.ceil(elements / DEFAULT_BLOCK));
  return { backend: "opencl", global: [groups * DEFAULT_BLOCK], local: [DEFAULT_BLOCK] };
}
