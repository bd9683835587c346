/**
 * Reading `--arg` values: parseArgValue()'s trees of numbers, names, operators, generators and files,
 * each node with its column and source text; its syntax errors, counted from NAME=; its bounds on
 * nesting and length; referencedArgs(); and splitAssignment() of NAME=VALUE. What the values evaluate
 * to is in `values_scalar_test.ts` and `values_array_test.ts`.
 */

import assert from "node:assert/strict";
import { type ArgExpr, parseArgValue, referencedArgs, splitAssignment } from "../../src/cli/values.ts";
import { assertUsageError, scalar } from "./_values.ts";

Deno.test("parseArgValue() builds a tree with the operators' columns", () => {
  const tree = parseArgValue("n / 2 + 1");
  assert.equal(tree.kind, "binary");
  assert.ok(tree.kind === "binary" && tree.op === "+" && tree.column === 7);
  assert.ok(tree.left.kind === "binary" && tree.left.op === "/" && tree.left.column === 3);
  assert.deepEqual(tree.left.left, { kind: "name", name: "n", source: "n / 2 + 1", column: 1 });
  assert.deepEqual(parseArgValue(" 0x1F "), { kind: "number", value: 31n, source: " 0x1F ", column: 2 });
  assert.deepEqual(parseArgValue("2.5"), { kind: "number", value: 2.5, source: "2.5", column: 1 });
});

Deno.test("parseArgValue() reads generators and files", () => {
  const gen = parseArgValue("zeros(h, w)");
  assert.ok(gen.kind === "generator" && gen.name === "zeros" && gen.args.length === 2);
  assert.deepEqual(parseArgValue(" @data/x.npy "), {
    kind: "file",
    path: "data/x.npy",
    source: " @data/x.npy ",
    column: 2,
  });
});

Deno.test("parseArgValue() reports syntax errors with the column, counting from NAME=", () => {
  const cases: [string, string][] = [
    ["2*(3", "Cannot parse v=2*(3: expected ')', found the end (column 7)"],
    ["2 3", "Cannot parse v=2 3: expected an operator or the end, found '3' (column 5)"],
    ["1 +", "Cannot parse v=1 +: expected a number, a name or '(', found the end (column 6)"],
    ["a == b", 'Cannot parse v=a == b: unexpected "=" (there are no comparisons) (column 5)'],
    ["5 $ 2", 'Cannot parse v=5 $ 2: unexpected "$" (column 5)'],
    [
      "2.5f",
      'Cannot parse v=2.5f: unexpected "f" after the number 2.5; C suffixes are not needed, the value takes the parameter\'s type (column 6)',
    ],
    [
      "010",
      "Cannot parse v=010: 010 has a leading zero, which C would read as octal: write it without, or as hex (0x...) (column 3)",
    ],
    ["1..2", 'Cannot parse v=1..2: unexpected "." after the number 1. (column 5)'],
    [
      "rand(3) + 1",
      "Cannot parse v=rand(3) + 1: rand(...) makes an array, so it must be the whole value, not part of an expression (column 11)",
    ],
    [
      "2 * zeros(4)",
      "Cannot parse v=2 * zeros(4): zeros(...) makes an array, so it must be the whole value, not part of an expression (column 7)",
    ],
    [
      "sqrt(2)",
      "Cannot parse v=sqrt(2): there is no function sqrt(); the array generators are rand, randn, zeros, ones, arange, full and linspace (column 3)",
    ],
    [
      "linspace(0, 1)",
      "Cannot parse v=linspace(0, 1): linspace takes 3 arguments, got 2: write linspace(start, stop, n), which includes both ends (column 3)",
    ],
    [
      "arange(2, 5)",
      "Cannot parse v=arange(2, 5): arange takes 1 argument, got 2: write arange(n), which gives 0, 1, ..., n-1 (column 3)",
    ],
    [
      "full(4)",
      "Cannot parse v=full(4): full takes at least 2 arguments, got 1: write full(n, value) or full(h, w, value) (column 3)",
    ],
    [
      "rand()",
      "Cannot parse v=rand(): rand takes at least 1 argument, got 0: write rand(n) or rand(h, w) (column 3)",
    ],
    ["rand(4,)", "Cannot parse v=rand(4,): expected a number, a name or '(', found ')' (column 10)"],
    ["rand(4", "Cannot parse v=rand(4: expected ',' or ')' to close rand(, found the end (column 9)"],
    ["@", "Cannot parse v=@: expected a file path after '@', such as @x.npy (column 3)"],
    [
      "",
      "Cannot parse v=: the value is empty; give a number, an expression such as n/2, a generator such as rand(n), or @file.npy",
    ],
  ];
  for (const [text, message] of cases) assertUsageError(() => parseArgValue(text, "v"), message);
  assertUsageError(
    () => parseArgValue("2*(3"),
    "Cannot parse \"2*(3\": expected ')', found the end (column 5)",
  );
});

Deno.test("parseArgValue() bounds nesting and length, so no input can exhaust the stack", () => {
  assert.equal(scalar(`${"(".repeat(60)}1${")".repeat(60)}`), 1);
  assertUsageError(
    () => parseArgValue(`${"(".repeat(70)}1${")".repeat(70)}`),
    /nests deeper than 64 levels \(column 66\)/,
  );
  assertUsageError(() => parseArgValue(`${"-".repeat(70)}1`), /nests deeper than 64 levels/);
  assertUsageError(() => parseArgValue(`2${"**2".repeat(70)}`), /nests deeper than 64 levels/);
  assertUsageError(() => parseArgValue(`1${"+1".repeat(600)}`), /has more than 1000 tokens \(column 1001\)/);
  assert.equal(scalar(`1${"+1".repeat(400)}`), 401);
});

Deno.test("referencedArgs() lists the names a value uses, once each, in order", () => {
  assert.deepEqual(referencedArgs(parseArgValue("full(h, w, scale * h)")), ["h", "w", "scale"]);
  assert.deepEqual(referencedArgs(parseArgValue("-(a + ~b) ** c")), ["a", "b", "c"]);
  assert.deepEqual(referencedArgs(parseArgValue("@n.npy")), []);
});

Deno.test("splitAssignment() splits NAME=VALUE at the first '='", () => {
  assert.deepEqual(splitAssignment("x=rand(n)"), { name: "x", value: "rand(n)" });
  assert.deepEqual(splitAssignment(" n = 5 "), { name: "n", value: "5" });
  assert.deepEqual(splitAssignment("out=a=b.npy", "--out"), { name: "out", value: "a=b.npy" });
  assert.deepEqual(splitAssignment("_x1="), { name: "_x1", value: "" });
  assertUsageError(() => splitAssignment("x"), 'Cannot parse --arg "x": expected NAME=VALUE, such as n=1024');
  assertUsageError(
    () => splitAssignment("1x=3", "--out"),
    'Cannot parse --out "1x=3": "1x" is not a parameter name (letters, digits and _, not starting with a digit)',
  );
  assertUsageError(() => splitAssignment("=3"), /"" is not a parameter name/);
  assertUsageError(() => splitAssignment("a b=3"), /"a b" is not a parameter name/);
});

Deno.test("every parsed value carries its source text", () => {
  const visit = (node: ArgExpr, source: string): void => {
    assert.equal(node.source, source);
    if (node.kind === "binary") [node.left, node.right].forEach((child) => visit(child, source));
    if (node.kind === "unary") visit(node.operand, source);
    if (node.kind === "generator") node.args.forEach((child) => visit(child, source));
  };
  for (const text of ["-(n + 1) * 2 ** m", "full(h, w, ~3)", "@a.npy", "7"]) visit(parseArgValue(text), text);
});
