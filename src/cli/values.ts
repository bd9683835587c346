/**
 * The `--arg NAME=VALUE` language of `cudeno run`: scalar expressions (`1 << 20`, `n/2`, `1e-3`), lists of
 * them for vector parameters (`0.5,n/2,1` for a `float3`), array generators (`rand(n)`, `zeros(h, w)`,
 * `linspace(0, 1, n)`) and NumPy files (`@x.npy`), parsed by hand (nothing is evaluated as JavaScript):
 * this file parses them, `evaluate.ts` computes a value and converts it to the kernel parameter's C type,
 * and `materialize.ts` makes the arrays.
 *
 * Arithmetic is exact on integers (arbitrary precision, so `2**64 - 1` is exact) and float64 otherwise;
 * `/` divides exactly, so `7/2` is 3.5 (which an int parameter rejects) and `8/2` is the integer 4.
 * Precedence is C's, from loosest: `|`, `^`, `&`, `<< >>`, `+ -`, `* / %`, unary `- + ~`, then `**`
 * (right-associative and tighter than a unary minus on its left, as in Python: `-2**2` is -4).
 *
 * @module
 */

import type { DType, TypedArray } from "../kernel/dtype.ts";
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

// ---------------------------------------------------------------------------------------------------------
// Parsing

/** Throws a UsageError about a column of the value. */
export type Fail = (detail: string, column: number) => never;

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
