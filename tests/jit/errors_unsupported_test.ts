/**
 * The JavaScript a kernel cannot use, each rejected with a JitError that points at it and says what to
 * write instead: variables from outside the kernel, strings, console.log, function expressions, `this`,
 * spread, try/throw/switch/class/new, a parameter array's length, var and let without a value, const
 * assignment, assignments inside expressions, use before declaration, labels, for...of, 2-D indexing,
 * a returned value, async functions and functions without source.
 */

import assert from "node:assert/strict";
import { jit, threadIdx } from "../../src/jit/mod.ts";
import type { JitParam } from "../../src/jit/mod.ts";
import { type Body, rejecter } from "./_rejects.ts";

/** jit() rejecting a kernel of this file (see `rejecter`). */
const rejects = rejecter("tests/jit/errors_unsupported_test.ts", import.meta.url);

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

Deno.test("jit() rejects async functions and functions whose source is not available", () => {
  assert.throws(
    () => jit({}, (async () => {}) as unknown as Body, { name: "k" }),
    /async functions are not supported/,
  );
  assert.throws(() => jit({}, Math.max as unknown as Body, { name: "k" }), /its source is not available/);
});
