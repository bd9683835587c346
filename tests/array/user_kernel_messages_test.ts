/**
 * ElementwiseKernel and ReductionKernel say what was wrong in the user's terms: PyCUDA's spellings
 * (positional ReductionKernel arguments, reduce_expr, map_expr, dtype_out) and other wrong declarations
 * are TypeErrors showing the call to write, and a C error in the user's operation, map, reduce, neutral
 * or preamble quotes that text with a caret under the column the compiler gave, never the generated
 * source's `<source>:9:38`.
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { Placements, Snippet } from "../../src/array/routines/snippet.ts";
import { parseParameterList } from "../../src/kernel/signature.ts";

// deno-lint-ignore no-explicit-any
const untyped = (v: unknown) => v as any;
/** ReductionKernel as JavaScript sees it: any arguments. */
const AnyReductionKernel = ga.ReductionKernel as unknown as new (...args: unknown[]) => unknown;

/** The error a call throws, failing the test where it throws none. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Error, `threw ${String(e)}`);
    return e;
  }
  assert.fail("it threw nothing");
}

/** Asserts that `message` quotes `line` and puts its caret under `column` (1-based) of it. */
function assertCaret(message: string, line: string, column: number): void {
  const lines = message.split("\n");
  const at = lines.indexOf(`  ${line}`);
  assert.ok(at >= 0, `the message does not quote ${JSON.stringify(line)}:\n${message}`);
  assert.equal(lines[at + 1], `  ${line.slice(0, column - 1).replace(/[^\t]/g, " ")}^`, message);
  assert.doesNotMatch(message, /<source>|<generated>|<\w+\.\d+>|cudeno_/);
}

Deno.test("ReductionKernel given PyCUDA's reduce_expr and map_expr names cudeno's reduce and map", () => {
  const pycuda = { neutral: "0", reduce_expr: "a+b", map_expr: "x[i]*y[i]", arguments: "float *x, float *y" };
  const e = thrown(() => new ga.ReductionKernel("float32", untyped(pycuda)));
  assert.equal(e.name, "TypeError");
  assert.match(
    e.message,
    /option "reduce_expr", PyCUDA's name: cudeno's is reduce \(the options are neutral, reduce, map/,
  );
  const map = thrown(() =>
    new ga.ReductionKernel(
      "float32",
      untyped({ neutral: "0", reduce: "a+b", map_expr: "x[i]", arguments: "float *x" }),
    )
  );
  assert.match(map.message, /option "map_expr", PyCUDA's name: cudeno's is map/);
  const out = thrown(() =>
    new ga.ReductionKernel(
      "float32",
      untyped({ dtype_out: "float32", neutral: "0", reduce: "a+b", arguments: "float *x" }),
    )
  );
  assert.match(
    out.message,
    /option "dtype_out": the result's dtype is the first argument, as new ga.ReductionKernel\("float32", \{/,
  );
});

Deno.test("ReductionKernel called in PyCUDA's positional order shows the options object to write", () => {
  const e = thrown(() => new AnyReductionKernel("float32", "0", "a+b", "x[i]*y[i]", "float *x, float *y"));
  assert.equal(e.name, "TypeError");
  assert.match(
    e.message,
    /pass them as options, new ga.ReductionKernel\("float32", \{ neutral: "0", reduce: "a\+b", map: "x\[i\]\*y\[i\]", arguments: "float \*x, float \*y" \}\)$/,
  );
});

Deno.test("ReductionKernel without options, without reduce, or with a C type as its dtype says what to pass", () => {
  assert.throws(() => new AnyReductionKernel("float32"), {
    name: "TypeError",
    message:
      /without its options: write new ga.ReductionKernel\("float32", \{ neutral: "0", reduce: "a \+ b"/,
  });
  assert.throws(() => new ga.ReductionKernel("float32", untyped({ neutral: "0", arguments: "float *x" })), {
    name: "TypeError",
    message: /without option reduce \(a C expression folding two partial results a and b, as "a \+ b"\)/,
  });
  assert.throws(
    () => new ga.ReductionKernel("float32", untyped({ neutral: 0, reduce: "a+b", arguments: "float *x" })),
    {
      name: "TypeError",
      message: /with neutral 0 \(a number\): options are strings of C, as neutral: "0"/,
    },
  );
  assert.throws(
    () => new ga.ReductionKernel(untyped("float"), { neutral: "0", reduce: "a+b", arguments: "float *x" }),
    {
      name: "TypeError",
      message: /dtype "float": unknown dtype: "float" is a C type, whose dtype is "float32"/,
    },
  );
  assert.throws(
    () =>
      new ga.ReductionKernel(
        "float32",
        untyped({ neutral: "0", reduce: "a+b", arguments: "float *x", keep: true }),
      ),
    {
      name: "TypeError",
      message: /option "keep": the options are neutral, reduce, map, arguments, name, preamble/,
    },
  );
});

Deno.test("ElementwiseKernel given a list of arguments, or options in the name's place, says what to pass", () => {
  assert.throws(() => new ga.ElementwiseKernel(untyped(["float *x", "float *y"]), "y[i] = x[i]"), {
    name: "TypeError",
    message: /the first argument is the C argument list as one string: "float \*x, float \*y"/,
  });
  assert.throws(
    () => new ga.ElementwiseKernel("float *x, float *y", "y[i] = x[i]", untyped({ preamble: "" })),
    {
      name: "TypeError",
      message:
        /with an object as its name: the third argument is the kernel's name, and options \(\{ preamble \}\) come fourth/,
    },
  );
  assert.throws(
    () => new ga.ElementwiseKernel("float *x, float *y", "y[i] = x[i]", "copy", untyped({ loop_prep: "" })),
    {
      name: "TypeError",
      message: /option "loop_prep": the only option is preamble/,
    },
  );
});

eachBackend("an ElementwiseKernel compile error quotes the operation with a caret under the column", () => {
  const lin = new ga.ElementwiseKernel(
    "float *x, float *y, float *z, float a, float b",
    "z[i] = a*x[i] + b*yy[i]",
    "lin",
  );
  using x = ga.ones([8]), z = ga.zeros([8]);
  const e = thrown(() => lin(x, x, z, 3, -1));
  assert.equal(e.name, "SyntaxError");
  assert.match(
    e.message,
    /^Cannot compile ElementwiseKernel lin: error in its operation at line 1, column 19: .*\byy\b/,
  );
  assertCaret(e.message, "z[i] = a*x[i] + b*yy[i]", 19);
  assert.match(String((e.cause as { log?: string }).log), /error/, "the compiler's own error is the cause");
  const multi = new ga.ElementwiseKernel(
    "float *x, float *z",
    "float t = x[i] * 2;\n\tz[i] = t + nope;",
    "multi",
  );
  const m = thrown(() => multi(x, z));
  assert.match(m.message, /error in its operation at line 2, column 13: .*\bnope\b/);
  assertCaret(m.message, "\tz[i] = t + nope;", 13);
});

eachBackend("a ReductionKernel compile error quotes its map, reduce or neutral with a caret", () => {
  using x = ga.ones([8]);
  const map = new ga.ReductionKernel("float32", {
    neutral: "0",
    reduce: "a+b",
    map: "x[i] * y[i] + w",
    arguments: "float *x, float *y",
  });
  const m = thrown(() => map(x, x));
  assert.match(
    m.message,
    /^Cannot compile ReductionKernel reduce_kernel: error in its map at line 1, column 15: .*\bw\b/,
  );
  assertCaret(m.message, "x[i] * y[i] + w", 15);
  const reduce = new ga.ReductionKernel("float32", {
    neutral: "0",
    reduce: "a + c",
    arguments: "float *x",
    name: "r",
  });
  const r = thrown(() => reduce(x));
  assert.match(
    r.message,
    /^Cannot compile ReductionKernel r: error in its reduce at line 1, column 5: .*\bc\b/,
  );
  assertCaret(r.message, "a + c", 5);
  const neutral = new ga.ReductionKernel("float32", {
    neutral: "-INFINTY",
    reduce: "fmax(a, b)",
    arguments: "float *x",
  });
  const n = thrown(() => neutral(x));
  assert.match(n.message, /error in its neutral at line 1, column 2: .*\bINFINTY\b/);
  assertCaret(n.message, "-INFINTY", 2);
});

eachBackend("an error in a kernel's preamble is quoted from the preamble", () => {
  const k = new ga.ElementwiseKernel("float *x, float *z", "z[i] = twice(x[i])", "pre", {
    preamble: "float twice(float v) {\n  return v * undefined_factor;\n}",
  });
  using x = ga.ones([4]), z = ga.zeros([4]);
  const e = thrown(() => k(x, z));
  assert.match(e.message, /error in its preamble at line 2, column 14: .*\bundefined_factor\b/);
  assertCaret(e.message, "  return v * undefined_factor;", 14);
});

Deno.test("a compile error from a driver that ignores #line (NVIDIA's OpenCL) is quoted from the user's text too", () => {
  const snippet = new Snippet(parseParameterList("float *x, float *y", "opencl"), "x[i] * y[i] + w", "map");
  const placements = new Placements();
  const { code } = snippet.bind(["p0[b0 + a0]", "p1[b1 + a1]"], [], ["p0", "p1"], "opencl", placements);
  const source = `__kernel void k(__global float *p0, __global float *p1) {\n  float v = (${code});\n}`;
  const lines = source.split("\n");
  const line = lines.findIndex((l) => l.startsWith("p0[")) + 1;
  const column = lines[line - 1]!.indexOf("w") + 1;
  const log = `<source>:${line}:${column}: error: use of undeclared identifier 'w'\n` +
    `<source>:${lines.length}:1: error: expected ';'`;
  const error = Object.assign(new Error("clBuildProgram failed"), { log, source });
  const e = placements.explain(error, "ReductionKernel r") as Error;
  assert.equal(e.name, "SyntaxError");
  assert.match(
    e.message,
    /^Cannot compile ReductionKernel r: error in its map at line 1, column 15: use of undeclared/,
  );
  assertCaret(e.message, "x[i] * y[i] + w", 15);
  assert.match(
    e.message,
    /\(and 1 error in the code generated around it: the compiler's log is this error's cause.log\)$/,
  );
  assert.equal(e.cause, error);
  const unrelated = Object.assign(new Error("other"), { log: "<source>:1:1: error: x", source });
  assert.equal(
    placements.explain(unrelated, "ReductionKernel r"),
    unrelated,
    "no piece named: the error as it was",
  );
});
