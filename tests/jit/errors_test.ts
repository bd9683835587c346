/**
 * How the JIT reports a kernel it cannot compile: a JitError whose message names the kernel, the
 * construct and the position, which is in the TypeScript file as written (not in the text Deno runs),
 * also in an object method; for a kernel written in another file than jit()'s call, relative to the
 * function's text. The kinds of mistakes are tested beside: `errors_unsupported_test.ts`,
 * `errors_types_test.ts` and `errors_api_test.ts`.
 */

import assert from "node:assert/strict";
import { jit, JitError } from "../../src/jit/mod.ts";
import type { JitParam } from "../../src/jit/mod.ts";
import { objectLiteralBody } from "./_elsewhere.ts";
import { type Body, rejecter, textAt } from "./_rejects.ts";

/** jit() rejecting a kernel of this file (see `rejecter`). */
const rejects = rejecter("tests/jit/errors_test.ts", import.meta.url);

Deno.test("jit() rejects an object literal with its line and column", () => {
  const fn: Body = (out) => {
    const p = { x: 1 };
    out[0] = p.x;
  };
  rejects({ out: "f32[]" }, fn, ["= {", 2], /object literals are not supported/);
});

Deno.test("jit() names the kernel and the construct in the message, as the issue's example does", () => {
  const fn: Body = (a) => {
    a[0] = 1;
    a[1] = { y: 2 }.y;
  };
  assert.throws(
    () => jit({ a: "f32[]" }, fn, { name: "add" }),
    {
      name: "JitError",
      message:
        /^Cannot compile kernel "add": object literals are not supported.*\(at tests\/jit\/errors_test\.ts:\d+:\d+\)$/,
    },
  );
});

Deno.test("jit() reports positions in an object method in the file, though Deno adds parentheses", () => {
  const holder = {
    method(out: JitParam) {
      out[0] = { v: 1 }.v;
    },
  };
  rejects({ out: "f32[]" }, holder.method as Body, ["({", 1], /object literals are not supported/);
});

/** The line of this file it is called on. */
function line(): number {
  return Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split("\n")[2]!)![1]);
}

Deno.test("a JitError's line and column are those of the TypeScript file as written, not of the text Deno runs", () => {
  const start = line();
  const fn = (out: JitParam, n: JitParam): void => {
    // Deno drops blank lines and types and prints the code anew: the kernel's text is laid out
    // differently from this file.

    const scale: number = 2 as number;
    out[0] = ({ n, scale } as { n: number }).n;
  };
  let caught: unknown;
  try {
    jit({ out: "f32[]", n: "i32" }, fn, { name: "k" });
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof JitError);
  const written = start + 6;
  assert.deepEqual([caught.file, caught.line, caught.column], [
    "tests/jit/errors_test.ts",
    written,
    textAt(Deno.readTextFileSync(new URL(import.meta.url)), written, 1).indexOf("{ n") + 1,
  ]);
  assert.ok(caught.message.endsWith(`(at tests/jit/errors_test.ts:${written}:${caught.column})`));
  const ran = fn.toString().split("\n").findIndex((l) => l.includes("{")) + 1;
  assert.notEqual(ran, written - start, "the kernel's own text should be laid out differently");
});

Deno.test("a JitError for a kernel written in another file than jit()'s call counts from the function's text", () => {
  let caught: unknown;
  try {
    jit({ out: "f32[]" }, objectLiteralBody, { name: "k" });
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof JitError);
  assert.equal(caught.file, undefined);
  const text = objectLiteralBody.toString().split("\n");
  const row = text.findIndex((l) => l.includes("{ v") || l.includes("({"));
  assert.equal(caught.line, row + 1);
  assert.match(caught.message, /\(line \d+, column \d+\)$/);
});
