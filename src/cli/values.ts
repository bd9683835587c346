/**
 * The `--arg NAME=VALUE` language of `cudeno run`: scalar expressions (`1 << 20`, `n/2`, `1e-3`), lists of
 * them for vector parameters (`0.5,n/2,1` for a `float3`), array generators (`rand(n)`, `zeros(h, w)`,
 * `linspace(0, 1, n)`) and NumPy files (`@x.npy`), parsed by hand (nothing is evaluated as JavaScript)
 * and converted to the kernel parameter's C type.
 *
 * Arithmetic is exact on integers (arbitrary precision, so `2**64 - 1` is exact) and float64 otherwise;
 * `/` divides exactly, so `7/2` is 3.5 (which an int parameter rejects) and `8/2` is the integer 4.
 * Precedence is C's, from loosest: `|`, `^`, `&`, `<< >>`, `+ -`, `* / %`, unary `- + ~`, then `**`
 * (right-associative and tighter than a unary minus on its left, as in Python: `-2**2` is -4).
 *
 * @module
 */

import { type DType, DTYPES, type TypedArray } from "../kernel/dtype.ts";
import { bfloat16Bits, fromBfloat16Bits, roundBfloat16 } from "../kernel/bfloat16.ts";
import { whereRelative } from "./kernel_file.ts";
import { NpyError, readNpy } from "../kernel/npy.ts";
import { UsageError } from "./usage_error.ts";

export type { DType, TypedArray } from "../kernel/dtype.ts";

/** A binary operator of the scalar language. */
export type BinaryOperator = "|" | "^" | "&" | "<<" | ">>" | "+" | "-" | "*" | "/" | "%" | "**";

/** A unary operator of the scalar language. */
export type UnaryOperator = "-" | "+" | "~";

/** The array generators, with their arguments: sizes, then `full`'s value or `linspace`'s range. */
export type GeneratorName = "rand" | "randn" | "zeros" | "ones" | "arange" | "full" | "linspace";

/** What every node records: the whole value text it came from and the 1-based column it starts at. */
export interface NodeBase {
  /** The whole value text, for error messages. */
  readonly source: string;
  /** Where the node (for operators: the operator) starts in `source`, counting from 1. */
  readonly column: number;
}

/** An integer literal (a bigint: `1048576`, `0x10`) or a float literal (a number: `2.5`, `1e-3`). */
export interface NumberNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "number";
  /** The literal's value. */
  readonly value: number | bigint;
}

/** A reference to another scalar argument (`n` in `n/2`). */
export interface NameNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "name";
  /** The argument's name. */
  readonly name: string;
}

/** A unary operation (`-x`, `~mask`). */
export interface UnaryNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "unary";
  /** The operator. */
  readonly op: UnaryOperator;
  /** The operand. */
  readonly operand: ScalarExpr;
}

/** A binary operation (`n / 2`). */
export interface BinaryNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "binary";
  /** The operator. */
  readonly op: BinaryOperator;
  /** The left operand. */
  readonly left: ScalarExpr;
  /** The right operand. */
  readonly right: ScalarExpr;
}

/** A scalar expression: a literal, an argument name or an operation on them. */
export type ScalarExpr = NumberNode | NameNode | UnaryNode | BinaryNode;

/** An array generator call (`rand(n)`, `full(h, w, 0.5)`), which must be the whole value. */
export interface GeneratorNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "generator";
  /** The generator. */
  readonly name: GeneratorName;
  /** Its arguments, each a scalar expression. */
  readonly args: readonly ScalarExpr[];
}

/** A list of scalar expressions separated by commas (`1,2,n/2`): the value of a vector parameter. */
export interface ListNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "list";
  /** The values, in order. */
  readonly items: readonly ScalarExpr[];
}

/** A NumPy file to load (`@data/x.npy`), relative to the current directory. */
export interface FileNode extends NodeBase {
  /** Discriminant. */
  readonly kind: "file";
  /** The path after the `@`. */
  readonly path: string;
}

/**
 * A parsed `--arg` value: a scalar expression, a generator call or a file.
 *
 * @example
 * ```ts
 * import { type ArgExpr, parseArgValue } from "./values.ts";
 * const expr: ArgExpr = parseArgValue("rand(n)");
 * console.log(expr.kind); // "generator"
 * ```
 */
export type ArgExpr = ScalarExpr | ListNode | GeneratorNode | FileNode;

/**
 * The arguments already known, by name: scalars as {@linkcode evaluateScalar} returned them, arrays as
 * typed arrays (which a scalar expression may not use).
 *
 * @example
 * ```ts
 * import type { ArgEnv } from "./values.ts";
 * const env: ArgEnv = new Map<string, number | Float32Array>([["n", 1024], ["x", new Float32Array(1024)]]);
 * console.log(env.size); // 2
 * ```
 */
export type ArgEnv = ReadonlyMap<string, number | bigint | TypedArray>;

/**
 * The kernel parameter a value is for: its element type, its name, and optionally its C spelling as the
 * kernel writes it (defaults to the CUDA spelling of the type), all for messages.
 *
 * @example
 * ```ts
 * import type { ScalarTarget } from "./values.ts";
 * const target: ScalarTarget = { dtype: "uint32", param: "n", ctype: "uint" };
 * console.log(target.param); // "n"
 * ```
 */
export interface ScalarTarget {
  /** The parameter's type (for a pointer parameter, the type it points to). */
  dtype: DType;
  /** The parameter's name. */
  param: string;
  /** The type as the kernel spells it (`uint`, `unsigned int`); defaults to `DTYPES[dtype].cuda`. */
  ctype?: string;
}

/**
 * How {@linkcode materializeArray} makes random numbers and reads files.
 *
 * @example
 * ```ts
 * import type { MaterializeOptions } from "./values.ts";
 * const options: MaterializeOptions = { seed: 42, readFile: (path) => Deno.readFileSync(path) };
 * console.log(options.seed); // 42
 * ```
 */
export interface MaterializeOptions {
  /** The seed of `rand` and `randn` (default 0), an integer taken modulo 2^64. */
  seed?: number | bigint;
  /** Reads a file for `@path`; defaults to `Deno.readFileSync`. */
  readFile?: (path: string) => Uint8Array;
}

/**
 * An array made from a value: its elements (bfloat16 as bits) and its shape.
 *
 * @example
 * ```ts
 * import { type Materialized, materializeArray, parseArgValue } from "./values.ts";
 * const target = { dtype: "int32", param: "a" } as const;
 * const array: Materialized = materializeArray(parseArgValue("ones(2, 3)"), new Map(), target);
 * console.log(array.shape); // [2, 3]
 * ```
 */
export interface Materialized {
  /** The elements in C order. */
  data: TypedArray;
  /** The shape, outermost first. */
  shape: number[];
}

const GENERATORS: Readonly<Record<GeneratorName, { min: number; max: number; usage: string }>> = {
  rand: { min: 1, max: Infinity, usage: "rand(n) or rand(h, w)" },
  randn: { min: 1, max: Infinity, usage: "randn(n) or randn(h, w)" },
  zeros: { min: 1, max: Infinity, usage: "zeros(n) or zeros(h, w)" },
  ones: { min: 1, max: Infinity, usage: "ones(n) or ones(h, w)" },
  arange: { min: 1, max: 1, usage: "arange(n), which gives 0, 1, ..., n-1" },
  full: { min: 2, max: Infinity, usage: "full(n, value) or full(h, w, value)" },
  linspace: { min: 3, max: 3, usage: "linspace(start, stop, n), which includes both ends" },
};
const GENERATOR_LIST = "rand, randn, zeros, ones, arange, full and linspace";
const MAX_TOKENS = 1000;
const MAX_NESTING = 64;
/** Integers beyond ±2^1024 become floats (±Infinity): past every C type and float64's range. */
const MAX_BITS = 1024n;
const LIMIT = 1n << MAX_BITS;

// ---------------------------------------------------------------------------------------------------------
// Parsing

/** Throws a UsageError about a column of the value. */
type Fail = (detail: string, column: number) => never;

interface Token {
  type: "number" | "name" | "op" | "end";
  text: string;
  column: number;
  value?: number | bigint;
}

/**
 * Parses an `--arg` value: a scalar expression, a generator call such as `rand(n)` or `zeros(h, w)`, or
 * `@path.npy`. Checks the syntax and each generator's number of arguments; names are resolved later.
 *
 * @param text The value, after `NAME=`.
 * @param name The argument's name, to show `NAME=VALUE` in messages (columns then count from `NAME`).
 * @returns The value's syntax tree.
 * @throws {UsageError} On a syntax error, with its column, or a wrong number of generator arguments.
 *
 * @example
 * ```ts
 * import { parseArgValue } from "./values.ts";
 * const expr = parseArgValue("n / 2 + 1");
 * console.log(expr.kind, expr.kind === "binary" && expr.op); // "binary" "+"
 * ```
 */
export function parseArgValue(text: string, name?: string): ArgExpr {
  const offset = name === undefined ? 0 : name.length + 1;
  const shown = name === undefined ? JSON.stringify(text) : `${name}=${text}`;
  const fail = (detail: string, column: number): never => {
    throw new UsageError(`Cannot parse ${shown}: ${detail} (column ${column + offset})`);
  };
  const start = text.search(/\S/);
  if (start < 0) {
    throw new UsageError(
      `Cannot parse ${shown}: the value is empty; give a number, an expression such as n/2, ` +
        "a generator such as rand(n), or @file.npy",
    );
  }
  if (text[start] === "@") {
    const path = text.slice(start + 1).trim();
    if (path === "") fail("expected a file path after '@', such as @x.npy", start + 1);
    return { kind: "file", path, source: text, column: start + 1 };
  }
  return new Parser(text, tokenize(text, fail), fail).value();
}

function tokenize(text: string, fail: Fail): Token[] {
  const tokens: Token[] = [];
  const number = /0[xX][0-9a-fA-F]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.source;
  const pattern = new RegExp(
    String.raw`\s+|(${number})|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|<<|>>|[-+*/%&|^~(),])`,
    "y",
  );
  let pos = 0;
  while (pos < text.length) {
    pattern.lastIndex = pos;
    const match = pattern.exec(text);
    if (match === null) {
      const char = String.fromCodePoint(text.codePointAt(pos)!);
      return fail(
        `unexpected ${JSON.stringify(char)}${char === "=" ? " (there are no comparisons)" : ""}`,
        pos + 1,
      );
    }
    const [whole, number, name, op] = match;
    const column = pos + 1;
    pos += whole.length;
    if (tokens.length >= MAX_TOKENS) fail(`the expression has more than ${MAX_TOKENS} tokens`, column);
    if (number !== undefined) {
      const next = text[pos];
      if (next !== undefined && /[A-Za-z0-9_.]/.test(next)) {
        const hint = /[fFuUlL]/.test(next)
          ? "; C suffixes are not needed, the value takes the parameter's type"
          : "";
        fail(`unexpected ${JSON.stringify(next)} after the number ${number}${hint}`, pos + 1);
      }
      const isFloat = !/^0[xX]/.test(number) && /[.eE]/.test(number);
      if (!isFloat && /^0[0-9]/.test(number)) {
        fail(
          `${number} has a leading zero, which C would read as octal: write it without, or as hex (0x...)`,
          column,
        );
      }
      tokens.push({ type: "number", text: number, column, value: isFloat ? Number(number) : BigInt(number) });
    } else if (name !== undefined) {
      tokens.push({ type: "name", text: name, column });
    } else if (op !== undefined) {
      tokens.push({ type: "op", text: op, column });
    }
  }
  tokens.push({ type: "end", text: "", column: text.length + 1 });
  return tokens;
}

/** The binary operators by precedence, loosest first; `**` is handled with the unary operators. */
const LEVELS: readonly (readonly string[])[] = [
  ["|"],
  ["^"],
  ["&"],
  ["<<", ">>"],
  ["+", "-"],
  ["*", "/", "%"],
];

class Parser {
  #pos = 0;
  #nesting = 0;
  constructor(
    readonly source: string,
    readonly tokens: Token[],
    readonly fail: Fail,
  ) {}

  value(): ArgExpr {
    const first = this.tokens[0];
    if (first.type === "name" && this.tokens[1].text === "(" && Object.hasOwn(GENERATORS, first.text)) {
      const node = this.generator();
      const rest = this.peek();
      if (rest.type !== "end") {
        this.fail(
          `${node.name}(...) makes an array, so it must be the whole value, not part of an expression`,
          rest.column,
        );
      }
      return node;
    }
    const expr = this.expression();
    if (this.peek().text !== ",") {
      this.expectEnd();
      return expr;
    }
    const items = [expr];
    while (this.accept(",")) items.push(this.expression());
    this.expectEnd();
    return { kind: "list", items, source: this.source, column: expr.column };
  }

  generator(): GeneratorNode {
    const token = this.tokens[this.#pos];
    const name = token.text as GeneratorName;
    this.#pos += 2;
    const args: ScalarExpr[] = [];
    if (this.peek().text !== ")") {
      do args.push(this.expression()); while (this.accept(","));
    }
    this.expect(")", `',' or ')' to close ${name}(`);
    const { min, max, usage } = GENERATORS[name];
    if (args.length < min || args.length > max) {
      const count = min === max ? `${min}` : `at least ${min}`;
      this.fail(
        `${name} takes ${count} argument${min === 1 ? "" : "s"}, got ${args.length}: write ${usage}`,
        token.column,
      );
    }
    return { kind: "generator", name, args, source: this.source, column: token.column };
  }

  expression(level = 0): ScalarExpr {
    if (level === LEVELS.length) return this.unary();
    let left = this.expression(level + 1);
    for (;;) {
      const token = this.peek();
      if (token.type !== "op" || !LEVELS[level].includes(token.text)) return left;
      this.#pos++;
      const right = this.expression(level + 1);
      left = {
        kind: "binary",
        op: token.text as BinaryOperator,
        left,
        right,
        source: this.source,
        column: token.column,
      };
    }
  }

  unary(): ScalarExpr {
    const token = this.peek();
    if (token.type === "op" && (token.text === "-" || token.text === "+" || token.text === "~")) {
      this.#pos++;
      const operand = this.nested(() => this.unary());
      return { kind: "unary", op: token.text, operand, source: this.source, column: token.column };
    }
    const base = this.primary();
    const op = this.peek();
    if (op.text !== "**") return base;
    this.#pos++;
    const right = this.nested(() => this.unary());
    return { kind: "binary", op: "**", left: base, right, source: this.source, column: op.column };
  }

  primary(): ScalarExpr {
    const token = this.peek();
    this.#pos++;
    if (token.type === "number") {
      return { kind: "number", value: token.value!, source: this.source, column: token.column };
    }
    if (token.type === "name") {
      if (this.peek().text === "(") {
        return this.fail(
          Object.hasOwn(GENERATORS, token.text)
            ? `${token.text}(...) makes an array, so it must be the whole value, not part of an expression`
            : `there is no function ${token.text}(); the array generators are ${GENERATOR_LIST}`,
          token.column,
        );
      }
      return { kind: "name", name: token.text, source: this.source, column: token.column };
    }
    if (token.text === "(") {
      const inner = this.nested(() => this.expression());
      this.expect(")", "')'");
      return inner;
    }
    return this.fail(`expected a number, a name or '(', found ${describe(token)}`, token.column);
  }

  nested<T>(parse: () => T): T {
    if (++this.#nesting > MAX_NESTING) {
      this.fail(`the expression nests deeper than ${MAX_NESTING} levels`, this.peek().column);
    }
    const result = parse();
    this.#nesting--;
    return result;
  }

  peek(): Token {
    return this.tokens[this.#pos];
  }

  accept(text: string): boolean {
    if (this.peek().text !== text) return false;
    this.#pos++;
    return true;
  }

  expect(text: string, what: string): void {
    if (!this.accept(text)) this.fail(`expected ${what}, found ${describe(this.peek())}`, this.peek().column);
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.type !== "end") {
      this.fail(`expected an operator or the end, found ${describe(token)}`, token.column);
    }
  }
}

function describe(token: Token): string {
  return token.type === "end" ? "the end" : `'${token.text}'`;
}

/**
 * The names of the other arguments a value uses, in order of first use, so a runner can evaluate
 * arguments in dependency order.
 *
 * @example
 * ```ts
 * import { parseArgValue, referencedArgs } from "./values.ts";
 * console.log(referencedArgs(parseArgValue("full(h, w, scale * 2)"))); // ["h", "w", "scale"]
 * ```
 */
export function referencedArgs(expr: ArgExpr): string[] {
  const names = new Set<string>();
  const visit = (node: ArgExpr): void => {
    if (node.kind === "name") names.add(node.name);
    else if (node.kind === "unary") visit(node.operand);
    else if (node.kind === "binary") [node.left, node.right].forEach(visit);
    else if (node.kind === "generator") node.args.forEach(visit);
    else if (node.kind === "list") node.items.forEach(visit);
  };
  visit(expr);
  return [...names];
}

// ---------------------------------------------------------------------------------------------------------
// Evaluation

/** Reports a problem at a column of `param=source`. */
function failer(target: ScalarTarget, source: string): Fail {
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
 * import { evaluateScalar, parseArgValue } from "./values.ts";
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
 * import { evaluateVector, parseArgValue } from "./values.ts";
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

type Value = number | bigint;

function evaluate(node: ScalarExpr, env: ArgEnv, fail: Fail): Value {
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
const FLOATS: Partial<Record<DType, { round: (value: number) => number; max: number; bits: number }>> = {
  float64: { round: (value) => value, max: Number.MAX_VALUE, bits: 53 },
  float32: { round: Math.fround, max: 3.4028234663852886e38, bits: 24 },
  float16: { round: Math.f16round, max: 65504, bits: 11 },
  bfloat16: { round: roundBfloat16, max: 3.3895313892515355e38, bits: 8 },
};

/**
 * Converts a value to a DType's host value (bigint for 64-bit integers), or calls `problem` with what is
 * wrong, phrased to follow "which" ("needs an integer").
 */
function convert(value: Value, dtype: DType, problem: (what: string) => never): number | bigint {
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

// ---------------------------------------------------------------------------------------------------------
// Arrays

/**
 * Makes the array a value describes, for a pointer parameter: runs a generator (seeded, so runs repeat)
 * or loads a `.npy` file, whose dtype must be the parameter's.
 *
 * `rand` is uniform in [0, 1) on the type's grid (53, 24, 11 or 8 bits), `randn` standard normal
 * (Box–Muller), both from xoshiro128** seeded through splitmix64 by the seed and the parameter's name, so
 * two arguments get different numbers and reordering arguments changes nothing. `linspace` includes
 * both ends, like NumPy's.
 *
 * @param expr The parsed value.
 * @param env The scalar arguments sizes may refer to.
 * @param target The parameter (`dtype` is the type it points to).
 * @param options The seed and a file reader.
 * @returns The elements and the shape.
 * @throws {UsageError} If the value is a scalar, a size is not a non-negative integer, an element does not
 * fit the type, `rand`/`randn` target an integer type, the file cannot be read or its dtype differs.
 *
 * @example
 * ```ts
 * import { materializeArray, parseArgValue } from "./values.ts";
 * const env = new Map([["h", 2], ["w", 3]]);
 * const target = { dtype: "float32", param: "x" } as const;
 * const { data, shape } = materializeArray(parseArgValue("rand(h, w)"), env, target);
 * console.log(shape, data.length); // [2, 3] 6
 * ```
 */
export function materializeArray(
  expr: ArgExpr,
  env: ArgEnv,
  target: ScalarTarget,
  options: MaterializeOptions = {},
): Materialized {
  const ctype = target.ctype ?? DTYPES[target.dtype].cuda;
  const prefix = `Cannot use ${target.param}=${expr.source}: `;
  if (expr.kind === "file") return load(expr, target, ctype, prefix, options.readFile ?? Deno.readFileSync);
  if (expr.kind !== "generator") {
    throw new UsageError(
      `${prefix}parameter ${target.param} is a pointer to ${ctype}, so it needs an array, such as ${
        expr.kind === "list" ? "" : `full(n, ${expr.source.trim()}), `
      }rand(n) or @file.npy`,
    );
  }
  const fail = failer(target, expr.source);
  const holds = `parameter ${target.param} points to ${ctype}, which`;
  const element = (value: Value, column: number, what = ""): number | bigint =>
    convert(value, target.dtype, (problem) => fail(`${what}${holds} ${problem}`, column));
  const size = (node: ScalarExpr): number => {
    const value = evaluate(node, env, fail);
    const n = typeof value === "bigint" ? value : Number.isInteger(value) ? BigInt(value) : -1n;
    if (n < 0n) fail(`a size must be a non-negative integer, but this one is ${value}`, node.column);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) fail(`the size ${value} is too large`, node.column);
    return Number(n);
  };
  const { name, args } = expr;
  const shape = (name === "full" ? args.slice(0, -1) : name === "linspace" ? args.slice(2) : args).map(size);
  const count = shape.includes(0) ? 0 : shape.reduce((product, n) => product * n, 1);
  const float = FLOATS[target.dtype];

  // Check everything that can fail before allocating.
  let fill: (i: number) => number | bigint;
  if (name === "zeros" || name === "ones" || name === "full") {
    const last = args[args.length - 1];
    const value = name === "full" ? element(evaluate(last, env, fail), last.column) : name === "ones" ? 1 : 0;
    fill = () => value;
  } else if (name === "arange") {
    if (count > 0) element(BigInt(count - 1), expr.column, `arange(${count}) reaches ${count - 1}, but `);
    fill = (i) => i;
  } else if (name === "linspace") {
    const start = Number(evaluate(args[0], env, fail));
    const stop = Number(evaluate(args[1], env, fail));
    const step = (stop - start) / Math.max(count - 1, 1);
    // As numpy.linspace computes it, with the last element exactly `stop`.
    fill = (i) => {
      const value = i === count - 1 && count > 1 ? stop : i * step + start;
      return element(value, expr.column, `element ${i} is ${value}, but `);
    };
  } else if (float === undefined) {
    return fail(
      `${name} makes floats, but ${holds} is not a float type; use arange, full or @file.npy`,
      expr.column,
    );
  } else if (name === "rand") {
    const random = new Random(options.seed ?? 0, target.param);
    fill = () => random.uniform(float.bits);
  } else {
    const random = new Random(options.seed ?? 0, target.param);
    let spare = NaN;
    fill = (i) => {
      if (i % 2 === 1) return spare;
      const radius = Math.sqrt(-2 * Math.log(1 - random.uniform(53)));
      const angle = 2 * Math.PI * random.uniform(53);
      spare = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    };
  }

  const info = DTYPES[target.dtype];
  let data: TypedArray;
  try {
    data = new info.array(count);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const total = shape.reduce((product, n) => product * BigInt(n), 1n);
    return fail(
      `${total} elements of ${info.size} byte${info.size === 1 ? "" : "s"} do not fit in memory`,
      expr.column,
    );
  }
  if (name !== "zeros") {
    const store = storer(data, target.dtype);
    for (let i = 0; i < count; i++) store(i, fill(i));
  }
  return { data, shape };
}

function storer(data: TypedArray, dtype: DType): (i: number, value: number | bigint) => void {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    return (i, value) => {
      data[i] = BigInt(value);
    };
  }
  const numbers = data as Exclude<TypedArray, BigInt64Array | BigUint64Array>;
  const encode = dtype === "bfloat16" ? bfloat16Bits : (value: number) => value;
  return (i, value) => {
    numbers[i] = encode(Number(value));
  };
}

function load(
  expr: FileNode,
  target: ScalarTarget,
  ctype: string,
  prefix: string,
  readFile: (path: string) => Uint8Array,
): Materialized {
  let bytes: Uint8Array;
  try {
    bytes = readFile(expr.path);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotFound
      ? `there is no file ${expr.path}${whereRelative(expr.path)}`
      : error instanceof Deno.errors.PermissionDenied
      ? `reading ${expr.path} is not permitted; run with --allow-read`
      : `cannot read ${expr.path}: ${error instanceof Error ? error.message : String(error)}`;
    throw new UsageError(prefix + detail, { cause: error });
  }
  const array = readNpyFile(bytes, expr.path);
  if (array.dtype !== target.dtype) {
    const numpy = target.dtype === "bfloat16"
      ? "ml_dtypes.bfloat16"
      : target.dtype === "bool"
      ? "np.bool_"
      : `np.${target.dtype}`;
    throw new UsageError(
      `${prefix}${expr.path} holds ${array.dtype}, but parameter ${target.param} points to ${ctype} ` +
        `(${target.dtype}); convert it with np.save(path, array.astype(${numpy}))`,
    );
  }
  return { data: array.data, shape: array.shape };
}

/** {@link readNpy}, its refusals as the command line's UsageError. */
function readNpyFile(bytes: Uint8Array, path: string): ReturnType<typeof readNpy> {
  try {
    return readNpy(bytes, path);
  } catch (error) {
    if (error instanceof NpyError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

/** xoshiro128** (Blackman and Vigna, https://prng.di.unimi.it/xoshiro128starstar.c), seeded by splitmix64. */
class Random {
  #s = new Uint32Array(4);

  constructor(seed: number | bigint, stream: string) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) {
      throw new UsageError(`Cannot use seed ${seed}: the seed must be an integer`);
    }
    let state = BigInt.asUintN(64, BigInt(seed) ^ (BigInt(fnv1a(new TextEncoder().encode(stream))) << 32n));
    for (let i = 0; i < 4; i += 2) {
      state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
      let z = state;
      z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
      z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
      z ^= z >> 31n;
      this.#s[i] = Number(z & 0xffffffffn);
      this.#s[i + 1] = Number(z >> 32n);
    }
    if (this.#s.every((word) => word === 0)) this.#s[0] = 1; // the one state xoshiro cannot leave
  }

  next(): number {
    const s = this.#s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** A uniform number in [0, 1) on a grid of 2^-bits, so it is exact in a type with that many bits. */
  uniform(bits: number): number {
    if (bits <= 32) return (this.next() >>> (32 - bits)) / 2 ** bits;
    return ((this.next() >>> 5) * 2 ** 26 + (this.next() >>> 6)) / 2 ** 53;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

// ---------------------------------------------------------------------------------------------------------
// Assignments and summaries

/**
 * Splits `NAME=VALUE` at the first `=`, trimming both sides, and checks that NAME is an identifier.
 *
 * @param text The option's argument.
 * @param option The option, for messages.
 * @throws {UsageError} If there is no `=` or the name is not an identifier.
 *
 * @example
 * ```ts
 * import { splitAssignment } from "./values.ts";
 * console.log(splitAssignment("x=rand(n)")); // { name: "x", value: "rand(n)" }
 * ```
 */
export function splitAssignment(text: string, option = "--arg"): { name: string; value: string } {
  const equals = text.indexOf("=");
  if (equals < 0) {
    throw new UsageError(
      `Cannot parse ${option} ${JSON.stringify(text)}: expected NAME=VALUE, such as n=1024`,
    );
  }
  const name = text.slice(0, equals).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `Cannot parse ${option} ${JSON.stringify(text)}: ${JSON.stringify(name)} is not a parameter name ` +
        "(letters, digits and _, not starting with a digit)",
    );
  }
  return { name, value: text.slice(equals + 1).trim() };
}

/**
 * A short description of an output array.
 *
 * @example
 * ```ts
 * import { type Summary, summarize } from "./values.ts";
 * const summary: Summary = summarize(new Float32Array([1, 2, 3]));
 * console.log(summary.mean); // 2
 * ```
 */
export interface Summary {
  /** Up to the first 8 elements. */
  first: number[];
  /** The smallest element other than NaN (NaN if there is none). */
  min: number;
  /** The largest element other than NaN (NaN if there is none). */
  max: number;
  /** The mean of the elements other than NaN (NaN if there are none). */
  mean: number;
  /** How many elements are NaN. */
  nans: number;
  /** FNV-1a (32-bit) of the array's bytes as stored (little-endian), as 8 lowercase hex digits. */
  checksum: string;
}

/**
 * Summarizes an array for printing: its first elements, range, mean, NaN count and a checksum of its bytes
 * (32-bit FNV-1a, so equal outputs are easy to spot). Pass `"bfloat16"` to read a Uint16Array as bfloat16.
 *
 * @example
 * ```ts
 * import { summarize } from "./values.ts";
 * const { first, min, max, checksum } = summarize(new Int32Array([3, -1, 4]));
 * console.log(first, min, max, checksum); // [3, -1, 4] -1 4 "dfb8bd86"
 * ```
 */
export function summarize(data: TypedArray, dtype?: DType): Summary {
  const read = dtype === "bfloat16"
    ? (i: number) => fromBfloat16Bits(Number(data[i]))
    : (i: number) => Number(data[i]);
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let nans = 0;
  for (let i = 0; i < data.length; i++) {
    const value = read(i);
    if (Number.isNaN(value)) {
      nans++;
      continue;
    }
    if (value < min) min = value;
    if (value > max) max = value;
    sum += value;
  }
  const counted = data.length - nans;
  const first = Array.from({ length: Math.min(8, data.length) }, (_, i) => read(i));
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return {
    first,
    min: counted > 0 ? min : NaN,
    max: counted > 0 ? max : NaN,
    mean: counted > 0 ? sum / counted : NaN,
    nans,
    checksum: fnv1a(bytes).toString(16).padStart(8, "0"),
  };
}

/** 32-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/). */
function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}
