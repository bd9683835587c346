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
 * A kernel or device function uses JavaScript outside the subset the JIT translates. The message
 * names the construct and the fix; `line` and `column` locate it in the function's source text
 * (`fn.toString()`: for a TypeScript file, the text Deno ran after stripping types).
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
  /** The 1-based line of the construct, relative to the function's source. */
  readonly line: number;
  /** The 1-based column of the construct. */
  readonly column: number;
  /** The name of the kernel or device function. */
  readonly function: string;

  /**
   * Builds the message from its parts.
   *
   * @param what `"kernel"` or `"device function"`
   * @param name the function's name
   * @param detail what is not supported and how to fix it
   * @param at where it is
   */
  constructor(what: string, name: string, detail: string, at: SourcePosition) {
    super(`Cannot compile ${what} "${name}": ${detail} (line ${at.line}, column ${at.column})`);
    this.name = "JitError";
    this.line = at.line;
    this.column = at.column;
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
