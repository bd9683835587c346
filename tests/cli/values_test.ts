import assert from "node:assert/strict";
import { writeNpy } from "../../src/kernel/npy.ts";
import { UsageError } from "../../src/cli/usage_error.ts";
import {
  type ArgEnv,
  type ArgExpr,
  parseArgValue,
  referencedArgs,
  type ScalarTarget,
  splitAssignment,
} from "../../src/cli/values.ts";
import { evaluateScalar } from "../../src/cli/evaluate.ts";
import { materializeArray } from "../../src/cli/materialize.ts";
import { summarize } from "../../src/cli/summary.ts";
import type { DType } from "../../src/kernel/dtype.ts";

const env: ArgEnv = new Map<string, number | bigint | Float32Array>([
  ["n", 1048576],
  ["m", 5],
  ["half", 0.5],
  ["big", 2n ** 63n],
  ["x", new Float32Array(4)],
]);

function scalar(text: string, dtype: DType = "float64", param = "v"): number | bigint {
  return evaluateScalar(parseArgValue(text, param), env, { dtype, param });
}

function array(text: string, dtype: DType = "float32", options = {}) {
  return materializeArray(parseArgValue(text, "a"), env, { dtype, param: "a" }, options);
}

function assertUsageError(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

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

Deno.test("referencedArgs() lists the names a value uses, once each, in order", () => {
  assert.deepEqual(referencedArgs(parseArgValue("full(h, w, scale * h)")), ["h", "w", "scale"]);
  assert.deepEqual(referencedArgs(parseArgValue("-(a + ~b) ** c")), ["a", "b", "c"]);
  assert.deepEqual(referencedArgs(parseArgValue("@n.npy")), []);
});

Deno.test("materializeArray() makes zeros, ones, full, arange and linspace arrays", () => {
  assert.deepEqual(array("zeros(2, 3)", "int32"), { data: new Int32Array(6), shape: [2, 3] });
  assert.deepEqual(array("ones(3)", "bool"), { data: new Uint8Array([1, 1, 1]), shape: [3] });
  assert.deepEqual(array("ones(2)", "uint64").data, new BigUint64Array([1n, 1n]));
  assert.deepEqual(array("full(2, 2, half * 3)", "float16"), {
    data: new Float16Array(4).fill(1.5),
    shape: [2, 2],
  });
  assert.deepEqual(array("full(1, -1)", "bfloat16").data, new Uint16Array([0xbf80]));
  assert.deepEqual(array("arange(m)", "int64").data, new BigInt64Array([0n, 1n, 2n, 3n, 4n]));
  assert.deepEqual(array("arange(256)", "uint8").data[255], 255);
  assert.deepEqual(array("linspace(0, 1, 5)").data, new Float32Array([0, 0.25, 0.5, 0.75, 1]));
  assert.deepEqual(array("linspace(0, 4, m)", "int32").data, new Int32Array([0, 1, 2, 3, 4]));
  assert.deepEqual(array("linspace(3, 7, 1)", "float64").data, new Float64Array([3]));
  assert.deepEqual(array("zeros(0)", "float64"), { data: new Float64Array(0), shape: [0] });
  assert.deepEqual(array("zeros(3, 0)").shape, [3, 0]);
});

Deno.test("materializeArray() matches numpy.linspace, ends included", () => {
  // numpy.linspace(-1, 2, 7) and numpy.linspace(0, 1, 11)[3], printed with repr().
  assert.deepEqual(Array.from(array("linspace(-1, 2, 7)", "float64").data as Float64Array), [
    -1,
    -0.5,
    0,
    0.5,
    1,
    1.5,
    2,
  ]);
  assert.equal(array("linspace(0, 1, 11)", "float64").data[3], 0.30000000000000004);
});

Deno.test("materializeArray() makes the same random numbers for the same seed and parameter", () => {
  // Checked against the reference C code of splitmix64 and xoshiro128** (prng.di.unimi.it).
  const golden = [0.70079092567881296, 0.39260802609084577, 0.5661271208530857, 0.3004880254696024];
  assert.deepEqual(Array.from(array("rand(4)", "float64").data as Float64Array), golden);
  assert.deepEqual(array("rand(100)").data, array("rand(100)").data);
  assert.deepEqual(array("randn(100)").data, array("randn(100)", "float32", { seed: 0 }).data);
  assert.notDeepEqual(array("rand(100)").data, array("rand(100)", "float32", { seed: 1 }).data);
  assert.deepEqual(
    array("rand(100)", "float32", { seed: -1 }).data,
    array("rand(100)", "float32", { seed: 2n ** 64n - 1n }).data,
  );
  const other = materializeArray(parseArgValue("rand(100)"), env, { dtype: "float32", param: "b" });
  assert.notDeepEqual(array("rand(100)").data, other.data);
});

Deno.test("materializeArray() draws rand() uniformly from [0, 1) in every float type", () => {
  for (const dtype of ["float64", "float32", "float16", "bfloat16"] as const) {
    const { data } = array("rand(20000)", dtype);
    const values = Array.from(
      data as ArrayLike<number>,
      (v) => dtype === "bfloat16" ? summarize(new Uint16Array([v]), dtype).first[0] : v,
    );
    assert.ok(values.every((v) => v >= 0 && v < 1), dtype);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.ok(Math.abs(mean - 0.5) < 0.01, `${dtype} mean ${mean}`);
  }
});

Deno.test("materializeArray() draws randn() from the standard normal distribution", () => {
  const { data, shape } = array("randn(201, 100)", "float64");
  assert.deepEqual(shape, [201, 100]);
  const values = Array.from(data as Float64Array);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  assert.ok(Math.abs(mean) < 0.02, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 0.03, `variance ${variance}`);
  assert.ok(values.every(Number.isFinite));
});

Deno.test("materializeArray() loads a .npy file of the parameter's dtype", () => {
  const files = new Map([["in.npy", writeNpy(new Float32Array([1, 2, 3, 4]), [2, 2])]]);
  const readFile = (path: string) => files.get(path) ?? Deno.readFileSync(path);
  assert.deepEqual(array("@in.npy", "float32", { readFile }), {
    data: new Float32Array([1, 2, 3, 4]),
    shape: [2, 2],
  });
  assertUsageError(
    () => array("@in.npy", "float64", { readFile }),
    "Cannot use a=@in.npy: in.npy holds float32, but parameter a points to double (float64); " +
      "convert it with np.save(path, array.astype(np.float64))",
  );
  assertUsageError(
    () => array("@missing.npy", "float32", { readFile }),
    `Cannot use a=@missing.npy: there is no file missing.npy (paths are relative to the current directory, ${Deno.cwd()})`,
  );
  assertUsageError(
    () => array("@broken.npy", "float32", { readFile: () => new Uint8Array(3) }),
    /^Cannot read broken\.npy: not a \.npy file/,
  );
  assertUsageError(
    () =>
      array("@x.npy", "float32", {
        readFile: () => {
          throw new Error("disk on fire");
        },
      }),
    "Cannot use a=@x.npy: cannot read x.npy: disk on fire",
  );
});

Deno.test("materializeArray() rejects bad sizes, elements that do not fit and scalars", () => {
  const cases: [string, DType, string][] = [
    [
      "zeros(-1)",
      "float32",
      "Cannot use a=zeros(-1): a size must be a non-negative integer, but this one is -1 (column 9)",
    ],
    [
      "zeros(m / 2)",
      "float32",
      "Cannot use a=zeros(m / 2): a size must be a non-negative integer, but this one is 2.5 (column 11)",
    ],
    [
      "ones(2**60, 2**60)",
      "uint8",
      "Cannot use a=ones(2**60, 2**60): the size 1152921504606846976 is too large (column 9)",
    ],
    [
      "zeros(2**40, 2**20)",
      "uint8",
      "Cannot use a=zeros(2**40, 2**20): 1152921504606846976 elements of 1 byte do not fit in memory (column 3)",
    ],
    [
      "rand(4)",
      "int32",
      "Cannot use a=rand(4): rand makes floats, but parameter a points to int, which is not a float type; use arange, full or @file.npy (column 3)",
    ],
    [
      "full(3, 2.5)",
      "int32",
      "Cannot use a=full(3, 2.5): parameter a points to int, which needs an integer (column 11)",
    ],
    // Checked before allocating, so a huge array is not made only to be thrown away.
    [
      "full(2**40, 2**20, -1)",
      "uint8",
      "Cannot use a=full(2**40, 2**20, -1): parameter a points to unsigned char, which cannot be negative (column 22)",
    ],
    [
      "full(3, -1)",
      "uint16",
      "Cannot use a=full(3, -1): parameter a points to unsigned short, which cannot be negative (column 11)",
    ],
    [
      "arange(300)",
      "uint8",
      "Cannot use a=arange(300): arange(300) reaches 299, but parameter a points to unsigned char, which holds 0 to 255 (column 3)",
    ],
    [
      "arange(70000)",
      "float16",
      "Cannot use a=arange(70000): arange(70000) reaches 69999, but parameter a points to __half, which holds at most ±65504 (column 3)",
    ],
    [
      "linspace(0, 1, 5)",
      "int32",
      "Cannot use a=linspace(0, 1, 5): element 1 is 0.25, but parameter a points to int, which needs an integer (column 3)",
    ],
    [
      "zeros(q)",
      "int32",
      "Cannot use a=zeros(q): there is no scalar argument 'q'; give it with --arg q=VALUE (column 9)",
    ],
    [
      "3",
      "float32",
      "Cannot use a=3: parameter a is a pointer to float, so it needs an array, such as full(n, 3), rand(n) or @file.npy",
    ],
  ];
  for (const [text, dtype, message] of cases) assertUsageError(() => array(text, dtype), message);
  assertUsageError(
    () => array("rand(2)", "float32", { seed: 0.5 }),
    "Cannot use seed 0.5: the seed must be an integer",
  );
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

Deno.test("summarize() gives the first elements, the range, the mean and an FNV-1a checksum", () => {
  const summary = summarize(new Float32Array([3, -1, 4, 1, 5, 9, 2, 6, 5, 3]));
  assert.deepEqual(summary.first, [3, -1, 4, 1, 5, 9, 2, 6]);
  assert.deepEqual([summary.min, summary.max, summary.mean, summary.nans], [-1, 9, 3.7, 0]);
  // FNV-1a test vectors: "" is 811c9dc5, "a" is e40c292c, "foobar" is bf9cf968.
  assert.equal(summarize(new Uint8Array()).checksum, "811c9dc5");
  assert.equal(summarize(new Uint8Array([0x61])).checksum, "e40c292c");
  assert.equal(summarize(new TextEncoder().encode("foobar")).checksum, "bf9cf968");
  assert.equal(summarize(new Int32Array([3, -1, 4])).checksum, "dfb8bd86");
});

Deno.test("summarize() skips NaN in the range and mean, and counts it", () => {
  const summary = summarize(new Float64Array([NaN, 1, 2, NaN, 6]));
  assert.deepEqual([summary.min, summary.max, summary.mean, summary.nans], [1, 6, 3, 2]);
  const empty = summarize(new Float32Array([NaN]));
  assert.ok(Number.isNaN(empty.min) && Number.isNaN(empty.max) && Number.isNaN(empty.mean));
});

Deno.test("summarize() reads bigint arrays as numbers and bfloat16 bits when asked", () => {
  assert.deepEqual(summarize(new BigInt64Array([-5n, 7n])).first, [-5, 7]);
  const bf16 = summarize(new Uint16Array([0x3f80, 0xc040]), "bfloat16");
  assert.deepEqual([bf16.first, bf16.min, bf16.max], [[1, -3], -3, 1]);
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

Deno.test("every parsed value carries its source text", () => {
  const visit = (node: ArgExpr, source: string): void => {
    assert.equal(node.source, source);
    if (node.kind === "binary") [node.left, node.right].forEach((child) => visit(child, source));
    if (node.kind === "unary") visit(node.operand, source);
    if (node.kind === "generator") node.args.forEach((child) => visit(child, source));
  };
  for (const text of ["-(n + 1) * 2 ** m", "full(h, w, ~3)", "@a.npy", "7"]) visit(parseArgValue(text), text);
});
