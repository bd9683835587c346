/**
 * The check shared by the JIT's error tests (`errors_*_test.ts`): that jit() threw a JitError whose
 * message names kernel "k" and the mistake, and whose position is where the construct starts in the
 * test file as written. jit() is called here, in another file than the kernel's: the JIT finds the
 * kernel in the file of the call's next frame, as it does for a user's helper around jit().
 */

import assert from "node:assert/strict";
import { jit, JitError, type JitParam } from "../../src/jit/mod.ts";

/** A kernel body as the tests write it. */
export type Body = (...args: JitParam[]) => void;

/** A file's text (`source`) from a 1-based line and column on. */
export function textAt(source: string, line: number, column: number): string {
  const lines = source.split("\n");
  return [lines[line - 1]!.slice(column - 1), ...lines.slice(line)].join("\n");
}

/**
 * Asserts that `caught` is a JitError for kernel "k" whose message matches `message`, and that the
 * position it reports is in `file` (the test file's path as the JIT shows it, `source` its text: the
 * TypeScript as written, not the text Deno runs) where the construct starts: `needle` from `skip`
 * characters in.
 */
export function assertRejected(
  caught: unknown,
  file: string,
  source: string,
  where: string | [string, number],
  message: RegExp,
): void {
  assert.ok(
    caught instanceof JitError && caught instanceof SyntaxError,
    `expected a JitError, got ${caught}`,
  );
  const [needle, skip] = typeof where === "string" ? [where, 0] : where;
  assert.match(caught.message, /^Cannot compile kernel "k": /);
  assert.match(caught.message, message);
  assert.equal(caught.file, file);
  assert.ok(caught.message.endsWith(`(at ${caught.file}:${caught.line}:${caught.column})`), caught.message);
  const text = textAt(source, caught.line, caught.column);
  assert.ok(
    text.startsWith(needle.slice(skip)),
    `line ${caught.line}, column ${caught.column} is "${text.split("\n")[0]}"`,
  );
  assert.equal(caught.function, "k");
}

/**
 * The `rejects(signature, fn, where, message, options?)` of the test file `file` (its path as the JIT
 * shows it; `url` its `import.meta.url`): asserts that jit() rejects `fn` with a JitError whose message
 * matches `message`, at the position in that file where the construct starts: `needle` from `skip`
 * characters in.
 */
export function rejecter(
  file: string,
  url: string,
): (
  signature: Record<string, string>,
  fn: Body,
  where: string | [string, number],
  message: RegExp,
  options?: Record<string, unknown>,
) => void {
  const source = Deno.readTextFileSync(new URL(url));
  return (signature, fn, where, message, options = {}) => {
    let caught: unknown;
    try {
      jit(signature as never, fn, { name: "k", ...options });
    } catch (e) {
      caught = e;
    }
    assertRejected(caught, file, source, where, message);
  };
}
