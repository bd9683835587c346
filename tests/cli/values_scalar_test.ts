/**
 * Values of scalar parameters: evaluateScalar()'s literals, C's precedence (with ** above unary minus,
 * as in Python, checked also on seeded random expressions), exact integers and division, conversion to
 * the parameter's C type, and its errors: values that do not fit, arithmetic errors, unknown names and
 * arrays given for a scalar.
 */

import assert from "node:assert/strict";
import { UsageError } from "../../src/cli/usage_error.ts";
import { parseArgValue, type ScalarTarget } from "../../src/cli/values.ts";
import { evaluateScalar } from "../../src/cli/evaluate.ts";
import type { DType } from "../../src/kernel/dtype.ts";
import { assertUsageError, env, scalar } from "./_values.ts";

Deno.test("evaluateScalar() reads integer and float literals", () => {
  assert.equal(scalar("1048576", "int32"), 1048576);
  assert.equal(scalar("2.5"), 2.5);
  assert.equal(scalar("1e-3"), 0.001);
  assert.equal(scalar(".5"), 0.5);
  assert.equal(scalar("5."), 5);
  assert.equal(scalar("0x10", "int32"), 16);
  assert.equal(scalar("0XfF", "int32"), 255);
  assert.equal(scalar("-4", "int32"), -4);
  assert.equal(scalar("1e6", "int32"), 1000000);
  assert.equal(scalar("0", "uint8"), 0);
});

Deno.test("evaluateScalar() follows C's precedence, with ** above unary minus as in Python", () => {
  const cases: [string, number][] = [
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["2 * 3 % 4", 2],
    ["1 + 2 << 3", 24],
    ["1 << 2 + 3", 32],
    ["6 & 3 | 8", 10],
    ["6 | 3 & 8", 6],
    ["5 ^ 3 & 1", 4],
    ["1 | 6 ^ 3", 5],
    ["2 ** 3 ** 2", 512],
    ["-2 ** 2", -4],
    ["(-2) ** 2", 4],
    ["2 ** -1", 0.5],
    ["-~0", 1],
    ["~5 & 0xff", 250],
    ["+-+3", -3],
    ["64 >> 2 >> 1", 8],
  ];
  for (const [text, value] of cases) assert.equal(scalar(text, "float64"), value, text);
});

Deno.test("evaluateScalar() keeps integers exact and divides exactly", () => {
  assert.equal(scalar("n/2", "int32"), 524288);
  assert.equal(scalar("7/2", "float32"), 3.5);
  assert.equal(scalar("2**64 - 1", "uint64"), 18446744073709551615n);
  assert.equal(scalar("2**63 - 1", "int64"), 9223372036854775807n);
  assert.equal(scalar("-2**63", "int64"), -9223372036854775808n);
  assert.equal(scalar("big - 1", "int64"), 9223372036854775807n);
  assert.equal(scalar("(2**62 + 1) * 2 / 2", "int64"), 2n ** 62n + 1n);
  assert.equal(scalar("-7 % 3", "int32"), -1); // C truncates toward zero
  assert.equal(scalar("7.5 % 2"), 1.5);
  assert.equal(scalar("-7 >> 1", "int32"), -4); // arithmetic shift
  assert.equal(scalar("half * 4", "int32"), 2);
  assert.equal(scalar("0.1 + 0.2"), 0.30000000000000004);
  assert.equal(scalar("m", "int64"), 5n);
});

Deno.test("evaluateScalar() converts to the parameter's C type", () => {
  assert.equal(scalar("1/3", "float32"), Math.fround(1 / 3));
  assert.equal(scalar("1/3", "float16"), Math.f16round(1 / 3));
  assert.equal(scalar("1/3", "bfloat16"), 0.333984375);
  assert.equal(scalar("65519", "float16"), 65504);
  assert.equal(scalar("1", "bool"), 1);
  assert.equal(scalar("0", "bool"), 0);
  assert.equal(scalar("1 << 31", "uint32"), 2147483648);
  assert.equal(typeof scalar("1", "int64"), "bigint");
  assert.equal(typeof scalar("1", "uint64"), "bigint");
  assert.equal(typeof scalar("1", "uint32"), "number");
  assert.equal(scalar("-128", "int8"), -128);
  assert.equal(scalar("255", "uint8"), 255);
  assert.equal(scalar("-32768", "int16"), -32768);
  assert.equal(scalar("65535", "uint16"), 65535);
});

Deno.test("evaluateScalar() rejects values that do not fit, naming the parameter and its type", () => {
  const cases: [string, DType, string][] = [
    ["2.5", "int32", "Cannot use n=2.5: parameter n is int, which needs an integer"],
    ["m/2", "int32", "Cannot use n=m/2: parameter n is int, which needs an integer (the value is 2.5)"],
    ["-1", "uint32", "Cannot use n=-1: parameter n is unsigned int, which cannot be negative"],
    [
      "~0",
      "uint8",
      "Cannot use n=~0: parameter n is unsigned char, which cannot be negative (the value is -1)",
    ],
    [
      "1 << 31",
      "int32",
      "Cannot use n=1 << 31: parameter n is int, which holds -2147483648 to 2147483647 (the value is 2147483648)",
    ],
    ["-129", "int8", "Cannot use n=-129: parameter n is signed char, which holds -128 to 127"],
    ["256", "uint8", "Cannot use n=256: parameter n is unsigned char, which holds 0 to 255"],
    ["40000", "int16", "Cannot use n=40000: parameter n is short, which holds -32768 to 32767"],
    [
      "2**63",
      "int64",
      "Cannot use n=2**63: parameter n is long long, which holds -9223372036854775808 to 9223372036854775807 (the value is 9223372036854775808)",
    ],
    [
      "2**64",
      "uint64",
      "Cannot use n=2**64: parameter n is unsigned long long, which holds 0 to 18446744073709551615 (the value is 18446744073709551616)",
    ],
    ["2", "bool", "Cannot use n=2: parameter n is bool, which needs 0 or 1"],
    ["0.5", "bool", "Cannot use n=0.5: parameter n is bool, which needs an integer"],
    [
      "1e39",
      "float32",
      "Cannot use n=1e39: parameter n is float, which holds at most ±3.4028234663852886e+38",
    ],
    ["65520", "float16", "Cannot use n=65520: parameter n is __half, which holds at most ±65504"],
    [
      "1e400",
      "float64",
      "Cannot use n=1e400: parameter n is double, which holds at most ±1.7976931348623157e+308",
    ],
    [
      "1e400 - 1e400",
      "float64",
      "Cannot use n=1e400 - 1e400: parameter n is double, which cannot be NaN (the value is NaN)",
    ],
    [
      "9**9**9",
      "int64",
      "Cannot use n=9**9**9: parameter n is long long, which holds -9223372036854775808 to 9223372036854775807 (the value is Infinity)",
    ],
    [
      "1 << 5000",
      "int32",
      "Cannot use n=1 << 5000: parameter n is int, which holds -2147483648 to 2147483647 (the value is Infinity)",
    ],
  ];
  for (const [text, dtype, message] of cases) {
    assertUsageError(() => evaluateScalar(parseArgValue(text, "n"), env, { dtype, param: "n" }), message);
  }
  const target: ScalarTarget = { dtype: "uint32", param: "count", ctype: "uint" };
  assertUsageError(
    () => evaluateScalar(parseArgValue("-1"), env, target),
    "Cannot use count=-1: parameter count is uint, which cannot be negative",
  );
});

Deno.test("evaluateScalar() reports arithmetic errors and bad names at their column", () => {
  const cases: [string, string][] = [
    ["1/0", "Cannot use v=1/0: division by zero (column 4)"],
    ["n % (m - 5)", "Cannot use v=n % (m - 5): division by zero (column 5)"],
    ["2.5 / 0.0", "Cannot use v=2.5 / 0.0: division by zero (column 7)"],
    ["0 ** -1", "Cannot use v=0 ** -1: 0 cannot be raised to a negative power (column 5)"],
    ["0.0 ** -1", "Cannot use v=0.0 ** -1: 0 cannot be raised to a negative power (column 7)"],
    ["1 << -1", "Cannot use v=1 << -1: cannot shift by a negative count (-1) (column 5)"],
    ["1.5 & 1", "Cannot use v=1.5 & 1: operator & needs integers, but got 1.5 (column 7)"],
    ["~half", "Cannot use v=~half: operator ~ needs integers, but got 0.5 (column 3)"],
    ["q + 1", "Cannot use v=q + 1: there is no scalar argument 'q'; give it with --arg q=VALUE (column 3)"],
    [
      "x * 2",
      "Cannot use v=x * 2: 'x' is an array argument, and an expression can only use scalars (column 3)",
    ],
  ];
  for (const [text, message] of cases) assertUsageError(() => scalar(text), message);
});

Deno.test("evaluateScalar() rejects an array value for a scalar parameter", () => {
  assertUsageError(
    () => scalar("rand(4)", "float32"),
    "Cannot use v=rand(4): parameter v is float, a scalar, but rand(...) makes an array; give a number or an expression",
  );
  assertUsageError(() => scalar("@x.npy", "int32"), /parameter v is int, a scalar, but @x\.npy is an array/);
});

// A seeded check of precedence: expressions printed with as few parentheses as precedence allows
// must mean the same as the fully parenthesized ones.
Deno.test("evaluateScalar() gives minimally and fully parenthesized expressions the same value", () => {
  let state = 12345;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const ops = ["|", "^", "&", "<<", ">>", "+", "-", "*", "/", "%", "**"] as const;
  const rank = (op: string) =>
    ({ "|": 0, "^": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5 })[op] ?? 7;
  type Tree = { leaf: string } | { unary: string; operand: Tree } | {
    op: (typeof ops)[number];
    left: Tree;
    right: Tree;
  };
  const build = (depth: number): Tree => {
    if (depth === 0 || random() < 0.25) {
      return { leaf: ["1", "2", "3", "7", "m", "0x10", "2.5"][Math.floor(random() * 7)] };
    }
    if (random() < 0.15) {
      return { unary: ["-", "~", "+"][Math.floor(random() * 3)], operand: build(depth - 1) };
    }
    return { op: ops[Math.floor(random() * ops.length)], left: build(depth - 1), right: build(depth - 1) };
  };
  const full = (tree: Tree): string =>
    "leaf" in tree
      ? tree.leaf
      : "unary" in tree
      ? `(${tree.unary}${full(tree.operand)})`
      : `(${full(tree.left)} ${tree.op} ${full(tree.right)})`;
  const level = (tree: Tree) => "leaf" in tree ? 8 : "unary" in tree ? 6 : rank(tree.op);
  const minimal = (tree: Tree): string => {
    if ("leaf" in tree) return tree.leaf;
    if ("unary" in tree) {
      const inner = minimal(tree.operand);
      return `${tree.unary} ${level(tree.operand) < 6 ? `(${inner})` : inner}`;
    }
    const p = rank(tree.op);
    const left = minimal(tree.left);
    const right = minimal(tree.right);
    const leftParens = tree.op === "**" ? level(tree.left) < 8 : level(tree.left) < p;
    const rightParens = tree.op === "**" ? level(tree.right) < 6 : level(tree.right) <= p;
    return `${leftParens ? `(${left})` : left} ${tree.op} ${rightParens ? `(${right})` : right}`;
  };
  const outcome = (text: string) => {
    try {
      return String(scalar(text, "float64", "v"));
    } catch (error) {
      assert.ok(error instanceof UsageError, `${text}: ${error}`);
      return error.message.slice(`Cannot use v=${text}: `.length).replace(/ \(column \d+\)$/, "");
    }
  };
  let different = 0;
  for (let i = 0; i < 3000; i++) {
    const tree = build(4);
    const a = minimal(tree);
    const b = full(tree);
    if (a !== b) different++;
    assert.equal(outcome(a), outcome(b), `${a}  vs  ${b}`);
  }
  assert.ok(different > 2000);
});
