import assert from "node:assert/strict";
import { UsageError } from "../../src/cli/usage_error.ts";
import { parseArgValue } from "../../src/cli/values.ts";

Deno.test("UsageError is an Error named UsageError that keeps its cause", () => {
  const cause = new Error("underneath");
  const error = new UsageError("Cannot do it: because", { cause });
  assert.ok(error instanceof Error);
  assert.equal(error.name, "UsageError");
  assert.equal(error.cause, cause);
});

Deno.test("UsageError shows control characters and line breaks from the input as pictures", () => {
  assert.equal(new UsageError("a\nb\tc\r\u0000\u007f\u2028").message, "a␊b␉c␍␀␡␤");
  // One picture per character, so the column still points at the right place.
  assert.throws(() => parseArgValue("1 +\n$", "v"), {
    message: 'Cannot parse v=1 +␊$: unexpected "$" (column 7)',
  });
});
