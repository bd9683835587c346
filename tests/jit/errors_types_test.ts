/**
 * The JIT's type errors, each rejected with a JitError that points at the expression and names the
 * cast that fixes it: i32 mixed with u32, floats assigned to i32 locals (true division among them),
 * float indices, booleans as numbers, u32 negation, && on numbers, floats as conditions, literals that
 * do not fit, and atomic values of the wrong type.
 */

import { atomicMax, jit } from "../../src/jit/mod.ts";
import { type Body, rejecter } from "./_rejects.ts";

/** jit() rejecting a kernel of this file (see `rejecter`). */
const rejects = rejecter("tests/jit/errors_types_test.ts", import.meta.url);

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

Deno.test("jit() rejects a literal that does not fit the other operand's type", () => {
  const fn: Body = (out, i) => {
    out[0] = i + 3000000000;
  };
  rejects({ out: "f32[]", i: "i32" }, fn, "i + 3", /3000000000 does not fit in i32/);
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
