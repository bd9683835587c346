import assert from "node:assert/strict";
import {
  atomicMax,
  device,
  f32,
  grid,
  jit,
  JitError,
  shared,
  syncthreads,
  threadIdx,
} from "../../src/jit/mod.ts";
import type { JitParam } from "../../src/jit/mod.ts";
import { objectLiteralBody } from "./_elsewhere.ts";

type Body = (...args: JitParam[]) => void;

const THIS_FILE = Deno.readTextFileSync(new URL(import.meta.url));

/** This file's text from a 1-based line and column on. */
function textAt(line: number, column: number): string {
  const lines = THIS_FILE.split("\n");
  return [lines[line - 1]!.slice(column - 1), ...lines.slice(line)].join("\n");
}

/**
 * Asserts that jit() rejects `fn` with a JitError whose message matches `message`, and that the
 * position it reports is in this file (the TypeScript as written, not the text Deno runs) where the
 * construct starts: `needle` from `skip` characters in.
 */
function rejects(
  signature: Record<string, string>,
  fn: Body,
  where: string | [string, number],
  message: RegExp,
  options = {},
): void {
  let caught: unknown;
  try {
    jit(signature as never, fn, { name: "k", ...options });
  } catch (e) {
    caught = e;
  }
  assert.ok(
    caught instanceof JitError && caught instanceof SyntaxError,
    `expected a JitError, got ${caught}`,
  );
  const [needle, skip] = typeof where === "string" ? [where, 0] : where;
  assert.match(caught.message, /^Cannot compile kernel "k": /);
  assert.match(caught.message, message);
  assert.equal(caught.file, "tests/jit/errors_test.ts");
  assert.ok(caught.message.endsWith(`(at ${caught.file}:${caught.line}:${caught.column})`), caught.message);
  const text = textAt(caught.line, caught.column);
  assert.ok(
    text.startsWith(needle.slice(skip)),
    `line ${caught.line}, column ${caught.column} is "${text.split("\n")[0]}"`,
  );
  assert.equal(caught.function, "k");
}

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

Deno.test("jit() rejects a variable from outside the kernel and says how to pass it", () => {
  const scale = 2;
  const fn: Body = (out) => {
    out[0] = scale;
  };
  rejects(
    { out: "f32[]" },
    fn,
    ["scale", 0],
    /scale is not defined in the kernel: .*parameter.*options\.constants/,
  );
});

Deno.test("jit() rejects a string", () => {
  const fn: Body = (out) => {
    const s = "text";
    out[0] = s.length;
  };
  rejects({ out: "f32[]" }, fn, ['"text"', 0], /strings are not supported/);
});

Deno.test("jit() rejects console.log with the list of callable functions", () => {
  const fn: Body = (out) => {
    console.log(out[0]);
  };
  rejects(
    { out: "f32[]" },
    fn,
    ["console", 0],
    /console\.log\(\) is not supported: kernels can call Math functions/,
  );
});

Deno.test("jit() rejects a function expression inside the kernel and points to device()", () => {
  const fn: Body = (out) => {
    const f = (x: number) => x + 1;
    out[0] = f(1);
  };
  rejects(
    { out: "f32[]" },
    fn,
    ["(x", 0],
    /function expressions are not supported: define a device function with device\(\)/,
  );
});

Deno.test("jit() rejects this", () => {
  const fn = function (this: { v: number }, out: JitParam) {
    out[0] = this.v;
  } as Body;
  rejects({ out: "f32[]" }, fn, ["this", 0], /`this` is not supported/);
});

Deno.test("jit() rejects a spread argument", () => {
  const fn: Body = (out) => {
    out[0] = Math.max(...[1, 2]);
  };
  rejects({ out: "f32[]" }, fn, ["...", 0], /spread \(\.\.\.\) is not supported/);
});

Deno.test("jit() rejects try, throw, switch, class and new", () => {
  const tries: Body = (out) => {
    try {
      out[0] = 1;
    } catch {
      out[0] = 2;
    }
  };
  rejects({ out: "f32[]" }, tries, ["try", 0], /try is not supported/);
  const throws: Body = (out) => {
    if (out[0] > 1) throw new Error("no");
  };
  rejects({ out: "f32[]" }, throws, ["throw", 0], /throw is not supported/);
  const switches: Body = (out) => {
    switch (out[0]) {
      case 1:
        out[0] = 2;
    }
  };
  rejects({ out: "f32[]" }, switches, ["switch", 0], /switch is not supported: use if\/else/);
  const classes: Body = (out) => {
    class P {}
    out[0] = P.length;
  };
  rejects({ out: "f32[]" }, classes, ["class", 0], /classes are not supported/);
  const news: Body = (out) => {
    const a = new Float32Array(4);
    out[0] = a[0];
  };
  rejects({ out: "f32[]" }, news, ["new", 0], /`new` is not supported: allocate arrays on the host/);
});

Deno.test("jit() rejects an assignment to a parameter array's length", () => {
  const fn: Body = (a) => {
    (a as unknown as { length: number }).length = 0;
  };
  // Deno runs `a.length = 0`; the position is that of `a` in the file as written.
  rejects({ a: "f32[]" }, fn, ["a as unknown", 0], /the length of an array cannot be assigned/);
});

Deno.test("jit() rejects reading a parameter array's length, which the GPU does not know", () => {
  const fn: Body = (a) => {
    a[0] = a.length;
  };
  rejects(
    { a: "f32[]" },
    fn,
    ["a.length", 0],
    /the length of a is not known on the GPU: pass it as an i32 parameter/,
  );
});

Deno.test("jit() rejects mixing i32 and u32 and names the casts that fix it", () => {
  const fn: Body = (out, i, u) => {
    out[0] = i + u;
  };
  rejects(
    { out: "f32[]", i: "i32", u: "u32" },
    fn,
    "i + u",
    /it mixes i32 and u32: convert one side with i32\(\) or u32\(\)/,
  );
});

Deno.test("jit() rejects a shared array of non-constant size", () => {
  const fn: Body = (out, n) => {
    const tile = shared.array("f32", n);
    out[0] = tile[0];
  };
  rejects(
    { out: "f32[]", n: "i32" },
    fn,
    [", n);", 2],
    /the size of a shared array must be a positive integer constant/,
  );
});

Deno.test("jit() rejects shared arrays larger than a block's 48 KiB", () => {
  const fn: Body = (out) => {
    const big = shared.array("f64", 4096);
    const more = shared.array("f64", 4096);
    out[0] = big[0] + more[0];
  };
  rejects(
    { out: "f64[]" },
    fn,
    ['shared.array("f64", 4096);\n    out', 0],
    /65536 bytes, more than the 49152/,
  );
});

Deno.test("jit() rejects var, a let without a value and an assignment to a const", () => {
  const vars: Body = (out) => {
    // deno-lint-ignore no-var
    var x = 1;
    out[0] = x;
  };
  rejects({ out: "f32[]" }, vars, ["var x", 0], /var is not supported: use let or const/);
  const bare: Body = (out) => {
    // deno-lint-ignore prefer-const
    let x;
    x = 1;
    out[0] = x;
  };
  rejects({ out: "f32[]" }, bare, ["x;", 0], /let x needs an initial value to give it a type/);
  const consts: Body = (out, n) => {
    const x = n;
    // @ts-expect-error: the JIT is what rejects this in a JavaScript file
    // deno-lint-ignore no-const-assign
    x = 2;
    out[0] = x;
  };
  rejects({ out: "f32[]", n: "i32" }, consts, "x = 2", /x is a const: declare it with let/);
});

Deno.test("jit() rejects a float assigned to an i32 local and names the cast", () => {
  const fn: Body = (out, x) => {
    let i = 0;
    i = x * 2;
    out[0] = i;
  };
  rejects(
    { out: "f32[]", x: "f32" },
    fn,
    "i = x",
    /i is i32 and cannot hold a f32: convert with i32\(\), or start i as a float: let i = f32\(0\)/,
  );
});

Deno.test("jit() rejects true division assigned to an i32 and accepts the integer-division idiom", () => {
  const fn: Body = (out, n) => {
    let half = 0;
    half = n / 2;
    out[0] = half;
  };
  rejects({ out: "i32[]", n: "i32" }, fn, "half = n", /half is i32 and cannot hold a f64/);
  jit({ out: "i32[]", n: "i32" }, (out, n) => {
    let half = 0;
    half = (n / 2) | 0;
    out[0] = half;
  });
});

Deno.test("jit() rejects a float array index, a boolean in arithmetic and a u32 negation", () => {
  const index: Body = (out, x) => {
    out[x] = 1;
  };
  rejects(
    { out: "f32[]", x: "f32" },
    index,
    "x]",
    /an array index must be an integer, not f32: convert with i32\(\)/,
  );
  const bools: Body = (out, n) => {
    out[0] = (n > 1 as unknown as number) + 1;
  };
  rejects(
    { out: "f32[]", n: "i32" },
    bools,
    "(n > 1",
    /booleans cannot be used as numbers: write cond \? 1 : 0/,
  );
  const neg: Body = (out, u) => {
    out[0] = -u;
  };
  rejects({ out: "f32[]", u: "u32" }, neg, "-u", /a u32 cannot be negated/);
});

Deno.test("jit() rejects && on numbers and a float used as a condition", () => {
  const and: Body = (out, a, b) => {
    if (a && b) out[0] = 1;
  };
  rejects(
    { out: "f32[]", a: "i32", b: "i32" },
    and,
    "a &&",
    /the operands of && must be booleans \(comparisons\): write x !== 0/,
  );
  const cond: Body = (out, x) => {
    if (x) out[0] = 1;
  };
  rejects({ out: "f32[]", x: "f32" }, cond, ["(x)", 1], /a float is not a condition: compare it explicitly/);
});

Deno.test("jit() rejects an assignment inside an expression", () => {
  const fn: Body = (out) => {
    let i = 0;
    out[i++] = 1;
  };
  rejects(
    { out: "f32[]" },
    fn,
    ["i++", 0],
    /assignments inside expressions are not supported: make it a statement of its own/,
  );
});

Deno.test("jit() rejects a literal that does not fit the other operand's type", () => {
  const fn: Body = (out, i) => {
    out[0] = i + 3000000000;
  };
  rejects({ out: "f32[]", i: "i32" }, fn, "i + 3", /3000000000 does not fit in i32/);
});

Deno.test("jit() rejects a variable used before its declaration", () => {
  const fn: Body = (out) => {
    // deno-lint-ignore no-unused-vars
    const a = 1;
    {
      // @ts-expect-error: TypeScript sees it too
      out[0] = a;
      const a = 2;
      out[1] = a;
    }
  };
  rejects({ out: "f32[]" }, fn, ["a;\n      const a = 2", 0], /a is used before its declaration/);
});

Deno.test("jit() rejects labels, for...of, 2-D indexing and assigning threadIdx", () => {
  const labels: Body = (out) => {
    outer: for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) if (j > i) continue outer;
      out[i] = 1;
    }
  };
  rejects({ out: "f32[]" }, labels, ["outer", 0], /labeled statements are not supported/);
  const forOf: Body = (out) => {
    for (const v of [1, 2]) out[0] = v;
  };
  rejects({ out: "f32[]" }, forOf, ["for", 0], /for\.\.\.of is not supported: use a counting for loop/);
  const twoD: Body = (out) => {
    // @ts-expect-error: TypeScript sees it too
    out[0][1] = 1;
  };
  rejects({ out: "f32[]" }, twoD, ["out[0]", 0], /arrays are 1-D: index a flattened array/);
  const geometry: Body = (out) => {
    (threadIdx as { x: number }).x = 1;
    out[0] = 1;
  };
  rejects(
    { out: "f32[]" },
    geometry,
    ["threadIdx as", 0],
    /only locals and array elements can be assigned/,
  );
});

Deno.test("jit() rejects a kernel that returns a value", () => {
  const fn = ((out: JitParam) => {
    out[0] = 1;
    return 1;
  }) as Body;
  rejects(
    { out: "f32[]" },
    fn,
    ["return 1", 7],
    /a kernel cannot return a value: write results into an array parameter/,
  );
});

Deno.test("jit() rejects syncthreads() inside an expression and grid(2) without destructuring", () => {
  const inExpr: Body = (out) => {
    out[0] = (syncthreads() as unknown as number) + 1;
  };
  rejects({ out: "f32[]" }, inExpr, ["syncthreads", 0], /syncthreads\(\) must be a statement of its own/);
  const grid2: Body = (out) => {
    out[0] = grid(2)[0];
  };
  rejects(
    { out: "f32[]" },
    grid2,
    ["grid(2)", 0],
    /grid\(2\) gives 2 indices: write const \[x, y\] = grid\(2\)/,
  );
});

Deno.test("jit() rejects an unknown Math function and atomicMax on an f32 array", () => {
  const math: Body = (out) => {
    out[0] = Math.cbrt(8);
  };
  rejects(
    { out: "f32[]" },
    math,
    ["Math.cbrt", 0],
    /Math\.cbrt\(\) is not supported: the kernel can call Math\.sqrt/,
  );
  const atomic: Body = (out) => {
    atomicMax(out, 0, 1);
  };
  rejects(
    { out: "f32[]" },
    atomic,
    ["out, 0", 0],
    /atomicMax\(\) works on i32\[\], u32\[\] arrays, not f32\[\]/,
  );
});

Deno.test("jit() rejects an atomic value of the wrong type and names the cast", () => {
  const fn: Body = (bins, v) => {
    atomicMax(bins, 0, v);
  };
  rejects(
    { bins: "u32[]", v: "i32" },
    fn,
    ["0, v", 3],
    /atomicMax\(\) on a u32\[\] array needs a u32 value, not i32: convert with u32\(\)/,
  );
});

Deno.test("jit() rejects parameter names that differ from the signature's, and a wrong count", () => {
  const renamed: Body = (a, m) => {
    a[0] = m;
  };
  rejects({ a: "f32[]", n: "i32" }, renamed, "m)", /parameter 2 is named m but the signature names it n/);
  const fewer: Body = (a) => {
    a[0] = 1;
  };
  rejects(
    { a: "f32[]", n: "i32" },
    fewer,
    "(a)",
    /the function has 1 parameters but the signature lists 2 \(a, n\)/,
  );
  const defaults = ((a: JitParam, n = 1) => {
    a[0] = n;
  }) as Body;
  rejects({ a: "f32[]", n: "i32" }, defaults, "n = 1", /default values are not supported/);
});

Deno.test("jit() rejects async functions and functions whose source is not available", () => {
  assert.throws(
    () => jit({}, (async () => {}) as unknown as Body, { name: "k" }),
    /async functions are not supported/,
  );
  assert.throws(() => jit({}, Math.max as unknown as Body, { name: "k" }), /its source is not available/);
});

Deno.test("jit() reports positions in an object method in the file, though Deno adds parentheses", () => {
  const holder = {
    method(out: JitParam) {
      out[0] = { v: 1 }.v;
    },
  };
  rejects({ out: "f32[]" }, holder.method as Body, ["({", 1], /object literals are not supported/);
});

Deno.test("device() reports its errors as a device function's", () => {
  const fn = (x: JitParam) => {
    syncthreads();
    return x;
  };
  assert.throws(
    () => device({ x: "f32" }, "f32", fn, { name: "sq" }),
    {
      name: "JitError",
      message: /^Cannot compile device function "sq": syncthreads\(\) is only supported in a kernel body/,
    },
  );
  assert.throws(
    () =>
      device(
        { x: "f32" },
        "f32",
        ((x: JitParam) => {
          if (x > 0) return x;
        }) as (x: JitParam) => number,
        { name: "pos" },
      ),
    /it can reach its end without returning a f32: end it with a return/,
  );
  assert.throws(
    () =>
      device({ x: "f32" }, "f32", (x) => {
        const t = shared.array("f32", 4);
        return t[0] + x;
      }),
    /shared arrays can only be declared in a kernel/,
  );
});

Deno.test("jit() rejects a device call with the wrong arguments or a shared array argument", () => {
  const sq = device({ x: "f32" }, "f32", (x) => x * x, { name: "sq" });
  const fill = device({ a: "f32[]", v: "f32" }, "void", (a, v) => {
    a[0] = v;
  });
  const count: Body = (out) => {
    out[0] = (sq as (...a: number[]) => number)(1, 2);
  };
  rejects({ out: "f32[]" }, count, ["sq as", 0], /sq\(\) takes 1 arguments \(x\), not 2/, {
    use: { sq },
  });
  const narrow: Body = (out, d) => {
    out[0] = sq(d);
  };
  rejects(
    { out: "f32[]", d: "f64" },
    narrow,
    ["(d)", 1],
    /parameter x of sq\(\) is f32 and cannot hold a f64: convert with f32\(\)/,
    {
      use: { sq },
    },
  );
  const sharedArg: Body = (out) => {
    const t = shared.array("f32", 4);
    fill(t, 1);
    out[0] = t[0];
  };
  rejects({ out: "f32[]" }, sharedArg, ["t, 1", 0], /shared arrays cannot be passed to device functions/, {
    use: { fill },
  });
  const voidValue: Body = (out) => {
    out[0] = fill(out, 1) as unknown as number;
  };
  rejects(
    { out: "f32[]" },
    voidValue,
    ["fill", 0],
    /this device function returns nothing: call it as a statement/,
    {
      use: { fill },
    },
  );
});

Deno.test("jit() rejects a bad signature, unknown options and clashing names with a TypeError", () => {
  const ok: Body = (a) => {
    a[0] = 1;
  };
  assert.throws(() => jit({ a: "f16[]" } as never, ok, { name: "k" }), {
    name: "TypeError",
    message:
      /^Cannot compile kernel "k": parameter a has type "f16\[\]": use one of i32, u32, f32, f64, f32\[\]/,
  });
  assert.throws(
    () => jit({ a: "f32[]" }, ok, { name: "k", blocks: 4 } as never),
    /options\.blocks is not an option/,
  );
  assert.throws(() => jit({ a: "f32[]" }, ok, { constants: { a: 1 } }), /options\.constants\.a clashes/);
  assert.throws(
    () => jit({ a: "f32[]" }, ok, { constants: { threadIdx: 1 } }),
    /options\.constants\.threadIdx clashes/,
  );
  assert.throws(
    () => jit({ a: "f32[]" }, ok, { constants: { T: "x" as never } }),
    /must be a number or a boolean/,
  );
  assert.throws(
    () => jit({ a: "f32[]" }, ok, { use: { f: f32 as never } }),
    /must be a device function made by device\(\)/,
  );
  assert.throws(
    () => device({}, "f16" as never, () => 1),
    /it returns "f16": use "void", i32, u32, f32 or f64/,
  );
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
    textAt(written, 1).indexOf("{ n") + 1,
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
