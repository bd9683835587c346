/**
 * The one error class for mistakes in what a user gave the command line.
 *
 * @module
 */

import { oneLine } from "../kernel/one_line.ts";

/**
 * A mistake in the user's input (an `--arg` value, a `.npy` file, a flag) rather than a bug: the runner
 * prints its message on one line and exits with status 2. Messages say what failed, then after a colon
 * what is wrong and how to fix it. Control characters and line breaks that a message quotes from the
 * input are shown as their Unicode pictures (`␊` for a newline), one for one, so the message stays on
 * one line and columns still line up.
 *
 * @example
 * ```ts
 * import { UsageError } from "./usage_error.ts";
 * try {
 *   throw new UsageError("Cannot use n=-1: parameter n is unsigned int, which cannot be negative");
 * } catch (error) {
 *   if (error instanceof UsageError) console.error(error.message);
 * }
 * ```
 */
export class UsageError extends Error {
  /** Creates the error; `options.cause` keeps the underlying error, if any. */
  constructor(message: string, options?: ErrorOptions) {
    super(oneLine(message), options);
    this.name = "UsageError";
  }
}
