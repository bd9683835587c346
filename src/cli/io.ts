/**
 * Where the command line's output goes, so that it can run inside another program or a test.
 *
 * @module
 */

/**
 * The two streams the command line writes to: results on `out`, errors and notes on `err`. Each call
 * receives whole lines, without the final newline.
 *
 * @example
 * ```ts
 * import type { CliIO } from "./io.ts";
 * const lines: string[] = [];
 * const io: CliIO = { out: (text) => lines.push(text), err: (text) => lines.push(`! ${text}`) };
 * io.out("hello");
 * ```
 */
export interface CliIO {
  /** Writes results (tables, JSON, generated code). */
  out(text: string): void;
  /** Writes errors and notes. */
  err(text: string): void;
}

/**
 * Standard output and standard error, through `console`.
 *
 * @example
 * ```ts
 * import { consoleIO } from "./io.ts";
 * consoleIO.out("to stdout");
 * consoleIO.err("to stderr");
 * ```
 */
export const consoleIO: CliIO = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
};
