/**
 * The error class for expected failures that are not mistakes in the command line.
 *
 * @module
 */

/**
 * An expected failure that is not a mistake in what the user typed: a kernel that does not compile, a
 * backend or device that is not there. The runner prints its message (which may span several lines,
 * such as a compiler's log) and exits with status 1, never with a stack trace.
 *
 * @example
 * ```ts
 * import { CliFailure } from "./failure.ts";
 * try {
 *   throw new CliFailure("Cannot run saxpy.cu: CUDA is not available here");
 * } catch (error) {
 *   if (error instanceof CliFailure) console.error(error.message);
 * }
 * ```
 */
export class CliFailure extends Error {
  /** Creates the failure; `options.cause` keeps the underlying error, if any. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "CliFailure";
  }
}
