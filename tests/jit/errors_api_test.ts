/**
 * Misuses of the kernel API, each rejected with a JitError (or a TypeError for the signature and the
 * options): shared arrays of non-constant size or over a block's 48 KiB, syncthreads() in an
 * expression, grid(2) without destructuring, unknown Math functions, atomics on f32 arrays, parameters
 * that differ from the signature, device functions' own errors and wrong calls to them, bad
 * signatures, unknown options and clashing names.
 */

import assert from "node:assert/strict";
import { atomicMax, device, f32, grid, jit, shared, syncthreads } from "../../src/jit/mod.ts";
import type { JitParam } from "../../src/jit/mod.ts";
import { type Body, rejecter } from "./_rejects.ts";

/** jit() rejecting a kernel of this file (see `rejecter`). */
const rejects = rejecter("tests/jit/errors_api_test.ts", import.meta.url);

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
