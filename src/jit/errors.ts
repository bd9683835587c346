/**
 * The errors the JIT throws: {@link JitError} for code outside the supported subset, found when a
 * kernel is defined, and {@link JitSimulationError} for what goes wrong while a kernel is simulated.
 *
 * @module
 */

/**
 * A position in a kernel's source: line 1 is where the function text starts, columns count from 1.
 *
 * @example
 * ```ts
 * import type { SourcePosition } from "@cudeno/cudeno/jit";
 * const start: SourcePosition = { line: 1, column: 1 };
 * ```
 */
export interface SourcePosition {
  /** 1-based line, relative to the function's source text. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/**
 * Where a position of a kernel's text is, for messages: `file.ts:12:5` in the user's file where it is
 * known, else `line 3, column 13` of the function's text.
 *
 * @example
 * ```ts
 * import { describePosition } from "./errors.ts";
 * console.log(describePosition({ line: 3, column: 13 }, undefined)); // "line 3, column 13"
 * console.log(describePosition({ line: 3, column: 13 }, { file: "k.ts", line: 12, column: 5 })); // "k.ts:12:5"
 * ```
 */
export function describePosition(
  at: SourcePosition,
  where: { readonly file: string; readonly line: number; readonly column: number } | undefined,
): string {
  return where === undefined
    ? `line ${at.line}, column ${at.column}`
    : `${where.file}:${where.line}:${where.column}`;
}

/**
 * A kernel or device function uses JavaScript outside the subset the JIT translates. The message
 * names the construct and the fix, and where it is: `file`, `line` and `column` locate it in the file
 * that called `jit()` or `device()` (the file you wrote, types and all), as `(at kernels.ts:12:5)`.
 * Where that file cannot be read or the function is not found in it, `file` is undefined and `line`
 * and `column` count from the start of the function's source text (`fn.toString()`), as
 * `(line 3, column 13)`.
 *
 * @example
 * ```ts
 * import { jit, JitError } from "@cudeno/cudeno/jit";
 * try {
 *   jit({ out: "f32[]" }, (out) => {
 *     out[0] = { x: 1 }.x;
 *   }, { name: "bad" });
 * } catch (e) {
 *   if (e instanceof JitError) console.log(e.line, e.column); // where the object literal starts
 * }
 * ```
 */
export class JitError extends SyntaxError {
  /** The 1-based line of the construct: in {@link file}, or in the function's source text without one. */
  readonly line: number;
  /** The 1-based column of the construct. */
  readonly column: number;
  /** The file the kernel was written in (relative to the current directory when inside it), if known. */
  readonly file: string | undefined;
  /** The name of the kernel or device function. */
  readonly function: string;

  /**
   * Builds the message from its parts.
   *
   * @param what `"kernel"` or `"device function"`
   * @param name the function's name
   * @param detail what is not supported and how to fix it
   * @param at where it is in the function's source text
   * @param where where that is in the user's file, when known
   */
  constructor(
    what: string,
    name: string,
    detail: string,
    at: SourcePosition,
    where?: { readonly file: string; readonly line: number; readonly column: number },
  ) {
    const place = describePosition(at, where);
    super(`Cannot compile ${what} "${name}": ${detail} (${where === undefined ? place : `at ${place}`})`);
    this.name = "JitError";
    this.line = where?.line ?? at.line;
    this.column = where?.column ?? at.column;
    this.file = where?.file;
    this.function = name;
  }
}

/**
 * A simulated kernel did something a GPU would not survive or could not do: read or wrote outside
 * an array, or left some threads of a block waiting at a `syncthreads()` that others never reached.
 * `thread` and `block` name the thread that failed.
 *
 * @example
 * ```ts
 * import { jit, JitSimulationError } from "@cudeno/cudeno/jit";
 * const k = jit({ a: "f32[]" }, (a) => {
 *   a[16] = 1;
 * });
 * try {
 *   k.simulate({ grid: 1, block: 1 }, new Float32Array(4));
 * } catch (e) {
 *   if (e instanceof JitSimulationError) console.log(e.thread, e.block); // [0, 0, 0] [0, 0, 0]
 * }
 * ```
 */
export class JitSimulationError extends Error {
  /** The failing thread's index in its block. */
  readonly thread: readonly [number, number, number];
  /** The failing thread's block index. */
  readonly block: readonly [number, number, number];

  /**
   * Records the failing thread.
   *
   * @param message the whole message
   * @param thread the thread index
   * @param block the block index
   */
  constructor(
    message: string,
    thread: readonly [number, number, number],
    block: readonly [number, number, number],
  ) {
    super(message);
    this.name = "JitSimulationError";
    this.thread = thread;
    this.block = block;
  }
}
