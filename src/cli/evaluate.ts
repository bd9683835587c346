/**
 * Evaluation of the `--arg` language (`values.ts` parses it): exact integer arithmetic (arbitrary
 * precision, float64 otherwise) and the conversion of a value to a kernel parameter's C type.
 *
 * @module
 */

import { type DType, DTYPES } from "../kernel/dtype.ts";
import { roundBfloat16 } from "../kernel/bfloat16.ts";
import { UsageError } from "./usage_error.ts";
import type { ArgEnv, ArgExpr, BinaryNode, Fail, ScalarExpr, ScalarTarget } from "./values.ts";

/** Integers beyond ±2^1024 become floats (±Infinity): past every C type and float64's range. */
const MAX_BITS = 1024n;
const LIMIT = 1n << MAX_BITS;

/** Reports a problem at a column of `param=source`. */
export function failer(target: ScalarTarget, source: string): Fail {
  return (detail, column) => {
    throw new UsageError(
      `Cannot use ${target.param}=${source}: ${detail} (column ${column + target.param.length + 1})`,
    );
  };
}

/**
 * Evaluates a scalar value and converts it to the parameter's C type: integers come back as numbers,
 * or as bigints for 64-bit types; floats are rounded to the type (float16 and bfloat16 too); bool is 0 or 1.
 *
 * @param expr The parsed value.
 * @param env The arguments it may refer to.
 * @param target The parameter.
 * @returns The value, ready to pass to the kernel.
 * @throws {UsageError} If the value is an array, refers to an unknown or array argument, divides by zero,
 * is NaN, or does not fit the type (a fraction for an integer, a negative for an unsigned type, out of
 * range).
 *
 * @example
 * ```ts
 * import { evaluateScalar } from "./evaluate.ts";
 * import { parseArgValue } from "./values.ts";
 * const env = new Map([["n", 1048576]]);
 * console.log(evaluateScalar(parseArgValue("n / 2"), env, { dtype: "int32", param: "half" })); // 524288
 * const big = evaluateScalar(parseArgValue("2**63"), env, { dtype: "uint64", param: "big" });
 * console.log(big); // 9223372036854775808n
 * ```
 */
export function evaluateScalar(expr: ArgExpr, env: ArgEnv, target: ScalarTarget): number | bigint {
  const ctype = target.ctype ?? DTYPES[target.dtype].cuda;
  const fail = failer(target, expr.source);
  if (expr.kind === "generator" || expr.kind === "file" || expr.kind === "list") {
    const what = expr.kind === "file"
      ? `@${expr.path} is an array`
      : expr.kind === "list"
      ? `${expr.source.trim()} lists ${expr.items.length} values`
      : `${expr.name}(...) makes an array`;
    throw new UsageError(
      `Cannot use ${target.param}=${expr.source}: parameter ${target.param} is ${ctype}, a scalar, but ${what}; ` +
        "give a number or an expression",
    );
  }
  const value = evaluate(expr, env, fail);
  return convert(value, target.dtype, (problem) => {
    const shown = expr.kind === "number" || String(value) === expr.source.trim()
      ? ""
      : ` (the value is ${value})`;
    throw new UsageError(
      `Cannot use ${target.param}=${expr.source}: parameter ${target.param} is ${ctype}, which ${problem}${shown}`,
    );
  });
}

/**
 * Evaluates the value of a vector parameter (a CUDA `float3`, an OpenCL `int4`): a list of exactly
 * `lanes` scalar expressions, each converted to the element type as {@linkcode evaluateScalar} does.
 *
 * @param expr The parsed value (`1,2,n/2`).
 * @param env The arguments it may refer to.
 * @param target The parameter: `dtype` is the element type, `ctype` the vector's C name.
 * @param lanes How many values the vector holds.
 * @returns The values, ready to pass to the kernel.
 * @throws {UsageError} If the value is an array or lists another number of values, or a value does not
 * fit the element type.
 *
 * @example
 * ```ts
 * import { evaluateVector } from "./evaluate.ts";
 * import { parseArgValue } from "./values.ts";
 * const v = evaluateVector(parseArgValue("1, n/2, 0.5"), new Map([["n", 8]]), { dtype: "float32", param: "v", ctype: "float3" }, 3);
 * console.log(v); // [1, 4, 0.5]
 * ```
 */
export function evaluateVector(
  expr: ArgExpr,
  env: ArgEnv,
  target: ScalarTarget,
  lanes: number,
): (number | bigint)[] {
  const ctype = target.ctype ?? DTYPES[target.dtype].cuda;
  const example = `${target.param}=${Array.from({ length: lanes }, (_, i) => i + 1).join(",")}`;
  if (expr.kind === "generator" || expr.kind === "file") {
    const what = expr.kind === "file" ? `@${expr.path} is an array` : `${expr.name}(...) makes an array`;
    throw new UsageError(
      `Cannot use ${target.param}=${expr.source}: parameter ${target.param} is ${ctype}, a vector of ${lanes} values, but ${what}; give its values as ${example}`,
    );
  }
  const items = expr.kind === "list" ? expr.items : [expr];
  if (items.length !== lanes) {
    throw new UsageError(
      `Cannot use ${target.param}=${expr.source}: parameter ${target.param} is ${ctype}, which takes ${lanes} values, as ${example}; got ${items.length}`,
    );
  }
  const element = DTYPES[target.dtype].cuda;
  return items.map((item, i) =>
    evaluateScalar(item, env, {
      dtype: target.dtype,
      param: target.param,
      ctype: `${ctype} (element ${i}: ${element})`,
    })
  );
}

export type Value = number | bigint;

export function evaluate(node: ScalarExpr, env: ArgEnv, fail: Fail): Value {
  switch (node.kind) {
    case "number":
      return node.value;
    case "name": {
      const value = env.get(node.name);
      if (value === undefined) {
        return fail(
          `there is no scalar argument '${node.name}'; give it with --arg ${node.name}=VALUE`,
          node.column,
        );
      }
      if (typeof value !== "number" && typeof value !== "bigint") {
        return fail(
          `'${node.name}' is an array argument, and an expression can only use scalars`,
          node.column,
        );
      }
      return typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
    }
    case "unary": {
      const operand = evaluate(node.operand, env, fail);
      if (node.op === "+") return operand;
      if (node.op === "-") return -operand;
      return ~integer(operand, "~", node.column, fail);
    }
    case "binary":
      return binary(node, evaluate(node.left, env, fail), evaluate(node.right, env, fail), fail);
  }
}

function binary(node: BinaryNode, a: Value, b: Value, fail: Fail): Value {
  const { op, column } = node;
  if (op === "&" || op === "|" || op === "^" || op === "<<" || op === ">>") {
    const x = integer(a, op, column, fail);
    const y = integer(b, op, column, fail);
    if (op === "&") return x & y;
    if (op === "|") return x | y;
    if (op === "^") return x ^ y;
    if (y < 0n) fail(`cannot shift by a negative count (${y})`, column);
    if (op === ">>") return x >> (y > MAX_BITS ? MAX_BITS + 1n : y);
    return y > MAX_BITS ? (x === 0n ? 0n : x > 0n ? Infinity : -Infinity) : bound(x << y);
  }
  if ((op === "/" || op === "%") && (b === 0n || b === 0)) fail("division by zero", column);
  if (typeof a === "bigint" && typeof b === "bigint") {
    switch (op) {
      case "+":
        return bound(a + b);
      case "-":
        return bound(a - b);
      case "*":
        return bound(a * b);
      case "/":
        return a % b === 0n ? a / b : Number(a) / Number(b);
      case "%":
        return a % b;
      case "**":
        return power(a, b, column, fail);
    }
  }
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case "+":
      return x + y;
    case "-":
      return x - y;
    case "*":
      return x * y;
    case "/":
      return x / y;
    case "%":
      return x % y;
    case "**":
      if (x === 0 && y < 0) fail("0 cannot be raised to a negative power", column);
      return x ** y;
  }
}

function power(base: bigint, exponent: bigint, column: number, fail: Fail): Value {
  if (exponent < 0n) {
    if (base === 0n) fail("0 cannot be raised to a negative power", column);
    return Number(base) ** Number(exponent);
  }
  const magnitude = base < 0n ? -base : base;
  // |base| >= 2^(bits - 1), so the result has at least (bits - 1) * exponent bits.
  if (magnitude > 1n && BigInt(magnitude.toString(2).length - 1) * exponent >= MAX_BITS) {
    return base < 0n && exponent % 2n === 1n ? -Infinity : Infinity;
  }
  return bound(base ** exponent);
}

/** Keeps integers exact up to ±2^1024 and lets larger ones become ±Infinity, as float64 would. */
function bound(value: bigint): Value {
  return value >= LIMIT || value <= -LIMIT ? Number(value) : value;
}

function integer(value: Value, op: string, column: number, fail: Fail): bigint {
  if (typeof value === "bigint") return value;
  if (!Number.isInteger(value)) fail(`operator ${op} needs integers, but got ${value}`, column);
  return BigInt(value);
}

const INT_RANGES: Partial<Record<DType, [bigint, bigint]>> = {};
for (const info of Object.values(DTYPES)) {
  if (info.kind === "int" || info.kind === "uint") {
    const bits = BigInt(info.size * 8);
    INT_RANGES[info.name] = info.kind === "int"
      ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n]
      : [0n, (1n << bits) - 1n];
  }
}
/** For each float DType: rounding to it, its largest finite value and the bits of its significand. */
export const FLOATS: Partial<Record<DType, { round: (value: number) => number; max: number; bits: number }>> =
  {
    float64: { round: (value) => value, max: Number.MAX_VALUE, bits: 53 },
    float32: { round: Math.fround, max: 3.4028234663852886e38, bits: 24 },
    float16: { round: Math.f16round, max: 65504, bits: 11 },
    bfloat16: { round: roundBfloat16, max: 3.3895313892515355e38, bits: 8 },
  };

/**
 * Converts a value to a DType's host value (bigint for 64-bit integers), or calls `problem` with what is
 * wrong, phrased to follow "which" ("needs an integer").
 */
export function convert(value: Value, dtype: DType, problem: (what: string) => never): number | bigint {
  if (typeof value === "number" && Number.isNaN(value)) problem("cannot be NaN");
  const float = FLOATS[dtype];
  if (float !== undefined) {
    const rounded = float.round(Number(value));
    if (!Number.isFinite(rounded)) problem(`holds at most ±${float.max}`);
    return rounded;
  }
  const info = DTYPES[dtype];
  const [min, max] = INT_RANGES[dtype] ?? [0n, 1n];
  const range = info.kind === "bool" ? "needs 0 or 1" : `holds ${min} to ${max}`;
  if (typeof value === "number" && !Number.isInteger(value)) {
    problem(Number.isFinite(value) ? "needs an integer" : range);
  }
  const integral = BigInt(value);
  if (integral < 0n && info.kind === "uint") problem("cannot be negative");
  if (integral < min || integral > max) problem(range);
  return info.size === 8 ? integral : Number(integral);
}
