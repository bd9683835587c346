/**
 * Translates expressions and calls into typed IR: literals, names, array elements, thread geometry,
 * operators, conditions, Math functions and constants, casts, atomics and calls of device functions.
 *
 * @module
 */

import type * as acorn from "npm:acorn@^8.14.0";
import {
  ATOMICS,
  CASTS,
  GEOMETRY,
  INTRINSIC_NAMES,
  MATH_CONSTANTS,
  MATH_FUNCTIONS,
  UNSUPPORTED,
} from "./builtins.ts";
import {
  adopt,
  assignable,
  cast,
  constant,
  isWeakConst,
  literal,
  settle,
  unify,
  weakness,
} from "./coerce.ts";
import { Context, type Node } from "./context.ts";
import type { ArrayBinding, BuiltinName, Expr, FunctionIR } from "./ir.ts";
import { binary, math, toInt } from "./operators.ts";
import { convert, ELEMENTS, isInt, promote, type ScalarType, type ValueType } from "./types.ts";

/** What acorn types an operand as: an expression, or a node that cannot be one here (a spread, a pattern). */
export type Expression =
  | acorn.Expression
  | acorn.SpreadElement
  | acorn.Super
  | acorn.PrivateIdentifier
  | acorn.Pattern;

/** Translates expressions and calls; the statement translator extends it. */
export class ExpressionTranslator extends Context {
  /** An expression whose value is used. */
  protected value(node: Expression): Expr {
    const e = this.#expression(node);
    if (e.type === "void") this.fail(node, "this device function returns nothing: call it as a statement");
    return e;
  }

  protected condition(node: acorn.Expression): Expr {
    const e = this.value(node);
    if (e.type === "bool") return e;
    if (isWeakConst(e) && weakness(e) === "int") return constant(e.value !== 0, "bool");
    return this.#againstZero(node, e, "!=", "a float is not a condition: compare it explicitly, x !== 0");
  }

  /** Integer `e` (settled) compared with zero by `operator`; `message` is the error for a float. */
  #againstZero(node: Node, e: Expr, operator: "!=" | "==", message: string): Expr {
    const settled = settle(e, this.failer(node));
    if (!isInt(settled.type as ValueType)) this.fail(node, message);
    return {
      op: "compare",
      type: "bool",
      operator,
      left: settled,
      right: constant(0, settled.type as ScalarType),
    };
  }

  #expression(node: Expression): Expr {
    switch (node.type) {
      case "Literal":
        return this.#literal(node);
      case "Identifier":
        return this.#identifier(node);
      case "MemberExpression":
        return this.#member(node);
      case "CallExpression":
        if (this.isIntrinsicCall(node, "syncthreads")) {
          this.fail(node, "syncthreads() must be a statement of its own");
        }
        return this.call(node);
      case "UnaryExpression":
        return this.#unary(node);
      case "BinaryExpression":
        return this.#binaryExpression(node);
      case "LogicalExpression": {
        if (node.operator === "??") {
          this.fail(node, "?? is not supported: numbers in kernels are never null");
        }
        const left = this.#boolean(node.left, node.operator),
          right = this.#boolean(node.right, node.operator);
        return { op: "logical", type: "bool", operator: node.operator, left, right };
      }
      case "ConditionalExpression":
        return this.#select(node);
      case "AssignmentExpression":
      case "UpdateExpression":
        return this.fail(
          node,
          "assignments inside expressions are not supported: make it a statement of its own",
        );
      case "SequenceExpression":
        return this.fail(
          node,
          "the comma operator is only supported in for-loop updates: write separate statements",
        );
      default:
        return this.fail(node, UNSUPPORTED[node.type] ?? `${node.type} is not supported`);
    }
  }

  #literal(node: acorn.Literal): Expr {
    const { value } = node;
    if (typeof value === "number") {
      const raw = node.raw ?? "";
      return literal(value, /^0[xob]/i.test(raw) || !/[.eE]/.test(raw) ? "int" : "float");
    }
    if (typeof value === "boolean") return constant(value, "bool");
    if (typeof value === "string") this.fail(node, UNSUPPORTED.TemplateLiteral);
    if (typeof value === "bigint") {
      this.fail(node, "BigInt literals are not supported: use numbers (i32, u32, f32, f64)");
    }
    if (value === null) this.fail(node, "null is not supported: kernels work on numbers");
    return this.fail(node, "regular expressions are not supported: kernels work on numbers");
  }

  #identifier(node: acorn.Identifier): Expr {
    const name = node.name;
    const entity = this.lookup(name, node);
    switch (entity?.kind) {
      case "scalar":
        return { op: "local", type: entity.binding.type, binding: entity.binding };
      case "array":
        return this.fail(node, `${name} is an array: index it, ${name}[i]`);
      case "const":
        return entity.value;
      case "device":
        return this.fail(node, `${name} is a device function: call it`);
    }
    if (name === "Infinity" || name === "NaN") return literal(name === "NaN" ? NaN : Infinity, "float");
    if (GEOMETRY.has(name)) this.fail(node, `${name} is not a number: read ${name}.x, .y or .z`);
    if (name === "Math") {
      this.fail(node, "Math is not a value: call Math.sqrt(x) and the like, or read Math.PI");
    }
    if (INTRINSIC_NAMES.has(name)) this.fail(node, `${name} is a function: call it`);
    if (name === "undefined") this.fail(node, "undefined is not supported: kernels work on numbers");
    return this.fail(
      node,
      `${name} is not defined in the kernel: kernels cannot read variables from outside; ` +
        "pass it as a parameter, in options.constants, or as a device function in options.use",
    );
  }

  #member(node: acorn.MemberExpression): Expr {
    if (node.computed) return this.load(this.arrayOf(node.object), this.index(node.property), node);
    const object = node.object.type === "Identifier" ? node.object.name : undefined;
    const property = node.property.type === "Identifier" ? node.property.name : "";
    if (object !== undefined) {
      const entity = this.lookup(object, node.object);
      if (entity?.kind === "array" && property === "length") {
        if (entity.binding.space === "shared") return literal(entity.binding.length, "int");
        this.fail(node, `the length of ${object} is not known on the GPU: pass it as an i32 parameter`);
      }
      if (entity === undefined && GEOMETRY.has(object)) {
        const axis = ["x", "y", "z"].indexOf(property);
        if (axis < 0) this.fail(node.property, `${object} has only .x, .y and .z`);
        return { op: "builtin", type: "i32", name: object as BuiltinName, axis: axis as 0 | 1 | 2 };
      }
      if (entity === undefined && object === "Math") {
        if (Object.hasOwn(MATH_CONSTANTS, property)) return literal(MATH_CONSTANTS[property], "float");
        if (Object.hasOwn(MATH_FUNCTIONS, property) || property === "fround") {
          this.fail(node, `Math.${property} is a function: call it`);
        }
        this.fail(
          node,
          `Math.${property} is not supported: the constants are ${Object.keys(MATH_CONSTANTS).join(", ")}`,
        );
      }
    }
    if (object === undefined) this.value(node.object);
    return this.fail(
      node,
      "property access is not supported: kernels read array elements (a[i]), threadIdx.x and the like, Math constants " +
        "and the .length of shared arrays",
    );
  }

  protected arrayOf(node: Expression): ArrayBinding {
    if (node.type === "Identifier") {
      const entity = this.lookup(node.name, node);
      if (entity?.kind === "array") return entity.binding;
      const e = this.value(node);
      this.fail(node, `${node.name} is ${e.type === "i32" ? "an" : "a"} ${e.type}, not an array`);
    }
    if (node.type === "MemberExpression" && node.computed) {
      this.fail(node, "arrays are 1-D: index a flattened array, a[row * width + col]");
    }
    this.value(node);
    return this.fail(node, "only array parameters and shared arrays can be indexed");
  }

  protected index(node: Expression): Expr {
    const e = settle(this.value(node), this.failer(node));
    if (!isInt(e.type as ValueType)) {
      this.fail(
        node,
        `an array index must be an integer, not ${e.type === "bool" ? "a bool" : e.type}: convert with i32()`,
      );
    }
    return e;
  }

  protected load(array: ArrayBinding, index: Expr, node: Node): Expr {
    return { op: "load", type: ELEMENTS[array.element].value, array, index, at: this.parsed.at(node) };
  }

  #boolean(node: acorn.Expression, operator: string): Expr {
    const e = this.value(node);
    if (e.type !== "bool") {
      this.fail(node, `the operands of ${operator} must be booleans (comparisons): write x !== 0`);
    }
    return e;
  }

  #select(node: acorn.ConditionalExpression): Expr {
    const test = this.condition(node.test);
    const then = this.value(node.consequent), otherwise = this.value(node.alternate);
    if (then.type === "bool" || otherwise.type === "bool") {
      if (then.type !== otherwise.type) {
        this.fail(node, "one branch is a boolean and the other a number: make both the same");
      }
      return { op: "select", type: "bool", test, then, otherwise };
    }
    const wt = weakness(then), wo = weakness(otherwise);
    if (wt && wo) {
      const weak = wt === "int" && wo === "int" ? "int" : "float";
      return { op: "select", type: weak === "int" ? "i32" : "f64", test, then, otherwise, weak };
    }
    const [a, b, type] = unify(then, otherwise, this.failer(node));
    return { op: "select", type, test, then: a, otherwise: b };
  }

  #unary(node: acorn.UnaryExpression): Expr {
    const { operator } = node;
    if (operator === "typeof" || operator === "void" || operator === "delete") {
      this.fail(node, `${operator} is not supported: kernels work on numbers`);
    }
    const v = this.value(node.argument);
    const fail = this.failer(node);
    if (v.type === "bool" && operator !== "!") {
      this.fail(node, `${operator} needs a number, not a boolean: write cond ? 1 : 0`);
    }
    switch (operator) {
      case "+":
        return v;
      case "-": {
        if (isWeakConst(v)) return literal(-v.value, v.weak!);
        const s = settle(v, fail);
        if (s.type === "u32") {
          this.fail(
            node,
            "a u32 cannot be negated: JavaScript would give a negative number; convert with i32() or f64() first",
          );
        }
        return { op: "neg", type: s.type as ScalarType, value: s };
      }
      case "!": {
        if (v.type === "bool") return { op: "not", type: "bool", value: v };
        if (isWeakConst(v) && v.weak === "int") return constant(v.value === 0, "bool");
        return this.#againstZero(
          node,
          v,
          "==",
          "! needs a boolean or an integer: compare a float explicitly, x === 0",
        );
      }
      default: {
        if (isWeakConst(v)) return literal(~v.value, "int");
        return { op: "bitnot", type: "i32", value: toInt(v, "i32", fail) };
      }
    }
  }

  #binaryExpression(node: acorn.BinaryExpression): Expr {
    const { operator } = node;
    if (operator === "in" || operator === "instanceof") {
      this.fail(node, `${operator} is not supported: kernels work on numbers`);
    }
    if ((operator === "|" || operator === ">>>") && isZero(node.right)) {
      const type = operator === "|" ? "i32" : "u32";
      const division = node.left.type === "BinaryExpression" && node.left.operator === "/"
        ? this.#intDivision(node.left, "idiv")
        : undefined;
      if (division) return cast(division, type);
      const v = this.value(node.left as acorn.Expression);
      if (isWeakConst(v)) return literal(convert(v.value, type), "int");
      return toInt(v, type, this.failer(node));
    }
    const left = this.value(node.left as acorn.Expression), right = this.value(node.right);
    return binary(operator, left, right, this.failer(node));
  }

  /** `(a / b) | 0` and `Math.floor(a / b)` on integers of one type: integer division, or undefined. */
  #intDivision(node: acorn.BinaryExpression, kind: "idiv" | "floordiv"): Expr | undefined {
    const left = this.value(node.left as acorn.Expression), right = this.value(node.right);
    const integer = (e: Expr) =>
      weakness(e) === "int" || (weakness(e) === undefined && isInt(e.type as ValueType));
    if (!integer(left) || !integer(right) || (isWeakConst(left) && isWeakConst(right))) return undefined;
    if (
      !weakness(left) && !weakness(right) &&
      promote(left.type as ScalarType, right.type as ScalarType) === undefined
    ) {
      return undefined;
    }
    const [a, b, type] = unify(left, right, this.failer(node));
    return { op: "binary", type, operator: type === "u32" ? "idiv" : kind, left: a, right: b };
  }

  protected call(node: acorn.CallExpression): Expr {
    const callee = node.callee;
    for (const arg of node.arguments) {
      if (arg.type === "SpreadElement") this.fail(arg, UNSUPPORTED.SpreadElement);
    }
    const args = node.arguments as acorn.Expression[];
    if (callee.type === "Identifier") {
      const name = callee.name;
      const entity = this.lookup(name, callee);
      if (entity?.kind === "device") return this.#deviceCall(name, entity.fn, args, node);
      if (entity) this.fail(callee, `${name} is not a function`);
      if (Object.hasOwn(CASTS, name)) return this.#cast(CASTS[name], name, args, node);
      if (Object.hasOwn(ATOMICS, name)) return this.#atomic(name, args, node);
      if (name === "grid") {
        const n = gridArity(node);
        if (n === 1) return gridIndex(0);
        this.fail(
          node,
          n ? `grid(${n}) gives ${n} indices: write const [x, y] = grid(${n})` : "grid() takes 1, 2 or 3",
        );
      }
      this.fail(
        callee,
        `${name}() is not defined in the kernel: pass device functions in options.use, ` +
          `jit(signature, fn, { use: { ${name} } })`,
      );
    }
    if (callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier") {
      const object = callee.object.name,
        property = callee.property.type === "Identifier" ? callee.property.name : "";
      if (this.lookup(object, callee.object) === undefined) {
        if (object === "Math" && property === "fround") return this.#cast("f32", "Math.fround", args, node);
        if (object === "Math" && Object.hasOwn(MATH_FUNCTIONS, property)) {
          return this.#mathCall(property, args, node);
        }
        if (object === "Math") {
          this.fail(
            callee,
            `Math.${property}() is not supported: the kernel can call Math.${
              Object.keys(MATH_FUNCTIONS).join(", ")
            }, fround`,
          );
        }
        if (object === "shared" && property === "array") {
          this.fail(
            node,
            'shared.array() must initialize a const in the kernel body: const tile = shared.array("f32", 256)',
          );
        }
        this.fail(
          callee,
          `${object}.${property}() is not supported: kernels can call Math functions, casts, atomics, syncthreads(), ` +
            "grid() and device functions passed in options.use",
        );
      }
    }
    return this.fail(
      callee,
      "only named functions can be called: Math functions, casts, atomics and device functions",
    );
  }

  protected isIntrinsicCall(node: acorn.Expression, name: string, property?: string): boolean {
    if (node.type !== "CallExpression") return false;
    const callee = node.callee;
    if (property === undefined) {
      return callee.type === "Identifier" && callee.name === name && !this.lookup(name, callee);
    }
    return callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier" &&
      callee.object.name === name && isProperty(callee, property) && !this.lookup(name, callee.object);
  }

  #arity(name: string, args: readonly acorn.Expression[], count: number, node: Node): void {
    if (args.length !== count) {
      this.fail(node, `${name}() takes ${count} argument${count === 1 ? "" : "s"}, not ${args.length}`);
    }
  }

  #cast(type: ScalarType, name: string, args: acorn.Expression[], node: Node): Expr {
    this.#arity(name, args, 1, node);
    const v = this.value(args[0]);
    if (v.type === "bool") this.fail(args[0], `${name}() needs a number, not a boolean: write cond ? 1 : 0`);
    if (isWeakConst(v)) return constant(v.value, type);
    return cast(settle(v, this.failer(args[0])), type);
  }

  #mathCall(name: string, args: acorn.Expression[], node: Node): Expr {
    const { fn, arity } = MATH_FUNCTIONS[name];
    if (arity === Infinity && args.length < 2) {
      this.fail(node, `Math.${name}() takes two or more arguments here`);
    }
    if (arity !== Infinity) this.#arity(`Math.${name}`, args, arity, node);
    const [first] = args;
    if (fn === "floor" && first.type === "BinaryExpression" && first.operator === "/") {
      const division = this.#intDivision(first, "floordiv");
      if (division) return division;
    }
    return math(fn, args.map((a) => this.value(a)), this.failer(node));
  }

  #atomic(name: string, args: acorn.Expression[], node: Node): Expr {
    const { fn, operands, elements } = ATOMICS[name];
    this.#arity(name, args, 2 + operands, node);
    const array = this.arrayOf(args[0]);
    if (!elements.includes(array.element)) {
      this.fail(
        args[0],
        `${name}() works on ${elements.map((e) => `${e}[]`).join(", ")} arrays, not ${array.element}[]`,
      );
    }
    const index = this.index(args[1]);
    const type = ELEMENTS[array.element].value;
    const values = args.slice(2).map((a) => {
      const v = this.value(a);
      if (weakness(v)) return adopt(v, type, this.failer(a));
      if (v.type !== type) {
        this.fail(
          a,
          `${name}() on a ${array.element}[] array needs a ${type} value, not ${v.type}: convert with ${type}()`,
        );
      }
      return v;
    });
    return { op: "atomic", type, fn, array, index, args: values, at: this.parsed.at(node) };
  }

  #deviceCall(name: string, fn: FunctionIR, args: acorn.Expression[], node: Node): Expr {
    if (args.length !== fn.params.length) {
      const names = fn.params.map((p) => p.name).join(", ");
      this.fail(node, `${name}() takes ${fn.params.length} arguments (${names}), not ${args.length}`);
    }
    const values = args.map((a, i) => {
      const p = fn.params[i];
      if (p.kind === "scalar") {
        return assignable(this.value(a), p.type, `parameter ${p.name} of ${name}()`, this.failer(a));
      }
      const array = this.arrayOf(a);
      if (array.space !== "global") {
        this.fail(
          a,
          `${name}() takes arrays in global memory: shared arrays cannot be passed to device functions`,
        );
      }
      if (array.element !== p.element) {
        this.fail(a, `parameter ${p.name} of ${name}() is ${p.element}[], not ${array.element}[]`);
      }
      return array;
    });
    return { op: "call", type: fn.returns, callee: fn, args: values };
  }
}

/** Whether a member expression reads the property `name`, as `a.name` does. */
export function isProperty(node: acorn.MemberExpression, name: string): boolean {
  return node.property.type === "Identifier" && node.property.name === name;
}

function isZero(node: Expression): boolean {
  return node.type === "Literal" && node.value === 0;
}

/** The n of `grid(n)` called with the literal 1, 2 or 3, else 0. */
export function gridArity(node: acorn.CallExpression): number {
  const [arg] = node.arguments;
  const n = node.arguments.length === 1 && arg.type === "Literal" ? arg.value : 0;
  return n === 1 || n === 2 || n === 3 ? n : 0;
}

/** `threadIdx.a + blockIdx.a * blockDim.a`, in wrapping i32 arithmetic. */
export function gridIndex(axis: 0 | 1 | 2): Expr {
  const builtin = (name: BuiltinName): Expr => ({ op: "builtin", type: "i32", name, axis });
  return {
    op: "binary",
    type: "i32",
    operator: "+",
    left: builtin("threadIdx"),
    right: {
      op: "binary",
      type: "i32",
      operator: "*",
      left: builtin("blockIdx"),
      right: builtin("blockDim"),
    },
  };
}
