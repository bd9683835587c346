/**
 * Translates a parsed kernel or device function (acorn's AST) into typed IR, checking every construct
 * against the supported subset and reporting the first one outside it as a {@link JitError}.
 *
 * @module
 */

import type * as acorn from "acorn";
import {
  ATOMICS,
  CASTS,
  GEOMETRY,
  INTRINSIC_NAMES,
  MATH_CONSTANTS,
  MATH_FUNCTIONS,
  MATH_JS,
  UNSUPPORTED,
} from "./builtins.ts";
import {
  adopt,
  assignable,
  cast,
  constant,
  type Fail,
  isWeakConst,
  literal,
  settle,
  storable,
  unify,
  weakness,
} from "./coerce.ts";
import { JitError, type SourcePosition } from "./errors.ts";
import { type Locate, locator } from "./locate.ts";
import {
  type ArrayBinding,
  type BinaryOp,
  type Binding,
  type BuiltinName,
  children,
  type CompareOp,
  type ConstExpr,
  type Expr,
  type FunctionIR,
  isEffect,
  type MathFn,
  type ScalarBinding,
  type Stmt,
} from "./ir.ts";
import { type ParsedFunction, parseFunction } from "./parse.ts";
import {
  convert,
  ELEMENTS,
  type ElementType,
  isFloat,
  isInt,
  type ParsedType,
  promote,
  type ReturnType,
  type ScalarType,
  type ValueType,
} from "./types.ts";

/** What to translate. */
export interface TranslateInput {
  /** A kernel or a device function. */
  readonly kind: "kernel" | "device";
  /** Its (sanitized) name, for messages and the generated code. */
  readonly name: string;
  /** The function's JavaScript source, as `Function.prototype.toString` gives it. */
  readonly source: string;
  /** The signature, in parameter order. */
  readonly params: readonly { readonly name: string; readonly type: ParsedType }[];
  /** What it returns; kernels return void. */
  readonly returns: ReturnType;
  /** Compile-time constants by name. */
  readonly constants: Readonly<Record<string, number | boolean>>;
  /** Device functions it may call, by the name it calls them. */
  readonly use: Readonly<Record<string, FunctionIR>>;
}

/** The most shared memory a block may declare statically, as on every CUDA device. */
const SHARED_LIMIT = 48 * 1024;

type Entity =
  | { readonly kind: "scalar"; readonly binding: ScalarBinding }
  | { readonly kind: "array"; readonly binding: ArrayBinding }
  | { readonly kind: "const"; readonly value: ConstExpr }
  | { readonly kind: "device"; readonly fn: FunctionIR }
  | { readonly kind: "pending" };

type Node = acorn.Node;
type Expression =
  | acorn.Expression
  | acorn.SpreadElement
  | acorn.Super
  | acorn.PrivateIdentifier
  | acorn.Pattern;

const COMPARE: Readonly<Record<string, CompareOp>> = {
  "<": "<",
  "<=": "<=",
  ">": ">",
  ">=": ">=",
  "==": "==",
  "===": "==",
  "!=": "!=",
  "!==": "!=",
};

const ARITHMETIC = new Set(["+", "-", "*", "/", "%", "**"]);
const BITWISE = new Set(["&", "|", "^", "<<", ">>", ">>>"]);

/** Translates a kernel or device function, or throws the {@link JitError} for its first unsupported construct. */
export function translate(input: TranslateInput): FunctionIR {
  return new Translator(input).run();
}

class Translator {
  readonly #input: TranslateInput;
  readonly #what: string;
  readonly #parsed: ParsedFunction;
  readonly #locate: Locate;
  readonly #scopes: Map<string, Entity>[] = [];
  readonly #barriers: SourcePosition[] = [];
  #slots = 0;
  #sharedBytes = 0;

  constructor(input: TranslateInput) {
    this.#input = input;
    this.#what = input.kind === "kernel" ? "kernel" : "device function";
    this.#locate = locator(input.source);
    this.#parsed = parseFunction(
      input.source,
      (detail, at, inFile = true) =>
        inFile ? this.#error(detail, at) : new JitError(this.#what, input.name, detail, at),
    );
  }

  run(): FunctionIR {
    const { node } = this.#parsed;
    const globals = new Map<string, Entity>();
    for (const [name, value] of Object.entries(this.#input.constants)) {
      const c = typeof value === "boolean"
        ? constant(value, "bool")
        : literal(value, Number.isInteger(value) ? "int" : "float");
      globals.set(name, { kind: "const", value: c });
    }
    for (const [name, fn] of Object.entries(this.#input.use)) globals.set(name, { kind: "device", fn });
    this.#scopes.push(globals);
    const params = this.#params(node);
    let body: Stmt[];
    if (node.body.type === "BlockStatement") {
      body = this.#block(node.body.body);
    } else if (this.#input.kind === "device" && this.#input.returns !== "void") {
      body = this.#return(node.body, node.body);
    } else {
      body = this.#effect(node.body, false);
    }
    if (this.#input.kind === "device" && this.#input.returns !== "void" && !alwaysReturns(body)) {
      this.#fail(
        node,
        `it can reach its end without returning a ${this.#input.returns}: end it with a return`,
      );
    }
    return {
      kind: this.#input.kind,
      name: this.#input.name,
      params,
      returns: this.#input.returns,
      body,
      slots: this.#slots,
      barriers: this.#barriers,
      locate: this.#locate,
    };
  }

  // ---- errors, scopes, bindings ----

  #error(detail: string, at: SourcePosition): JitError {
    return new JitError(this.#what, this.#input.name, detail, at, this.#locate(at));
  }

  #fail(node: Node, detail: string): never {
    throw this.#error(detail, this.#parsed.at(node));
  }

  #failer(node: Node): Fail {
    return (detail) => this.#fail(node, detail);
  }

  #lookup(name: string, node: Node): Entity | undefined {
    for (let i = this.#scopes.length - 1; i >= 0; i--) {
      const entity = this.#scopes[i].get(name);
      if (entity?.kind === "pending") {
        this.#fail(node, `${name} is used before its declaration: move the declaration up`);
      }
      if (entity) return entity;
    }
    return undefined;
  }

  #define(name: string, entity: Entity): void {
    this.#scopes[this.#scopes.length - 1].set(name, entity);
  }

  #scalar(name: string, type: ValueType, mutable: boolean): ScalarBinding {
    const binding: ScalarBinding = { kind: "scalar", name, slot: this.#slots++, type, mutable };
    this.#define(name, { kind: "scalar", binding });
    return binding;
  }

  #array(name: string, element: ElementType, space: "global" | "shared", length: number): ArrayBinding {
    const binding: ArrayBinding = { kind: "array", name, slot: this.#slots++, element, space, length };
    this.#define(name, { kind: "array", binding });
    return binding;
  }

  #params(node: acorn.Function): Binding[] {
    const signature = this.#input.params;
    if (node.params.length !== signature.length) {
      const names = signature.map((p) => p.name).join(", ");
      this.#fail(
        node,
        `the function has ${node.params.length} parameters but the signature lists ${signature.length} (${names}): ` +
          "give one signature entry per parameter, in order",
      );
    }
    this.#scopes.push(new Map());
    return node.params.map((p, i) => {
      if (p.type !== "Identifier") this.#fail(p, UNSUPPORTED[p.type] ?? "parameters must be plain names");
      const { name, type } = signature[i];
      if (p.name !== name) {
        this.#fail(
          p,
          `parameter ${
            i + 1
          } is named ${p.name} but the signature names it ${name}: use the same names in the same order`,
        );
      }
      return type.kind === "scalar"
        ? this.#scalar(name, type.type, true)
        : this.#array(name, type.element, "global", 0);
    });
  }

  // ---- statements ----

  #block(statements: readonly acorn.Statement[]): Stmt[] {
    const scope = new Map<string, Entity>();
    for (const s of statements) {
      if (s.type === "VariableDeclaration") {
        for (const d of s.declarations) {
          for (const name of declaredNames(d.id)) scope.set(name, { kind: "pending" });
        }
      }
    }
    this.#scopes.push(scope);
    const out = statements.flatMap((s) => this.#statement(s));
    this.#scopes.pop();
    return out;
  }

  #body(node: acorn.Statement): Stmt[] {
    return node.type === "BlockStatement" ? this.#block(node.body) : this.#block([node]);
  }

  #statement(node: acorn.Statement): Stmt[] {
    switch (node.type) {
      case "ExpressionStatement":
        return node.directive !== undefined ? [] : this.#effect(node.expression, true);
      case "VariableDeclaration":
        return this.#declaration(node);
      case "BlockStatement":
        return [{ kind: "block", body: this.#block(node.body) }];
      case "EmptyStatement":
        return [];
      case "IfStatement":
        return [{
          kind: "if",
          test: this.#condition(node.test),
          then: this.#body(node.consequent),
          otherwise: node.alternate ? this.#body(node.alternate) : [],
        }];
      case "WhileStatement":
        return [{
          kind: "loop",
          form: "while",
          init: [],
          test: this.#condition(node.test),
          update: [],
          body: this.#body(node.body),
        }];
      case "DoWhileStatement": {
        const body = this.#body(node.body);
        return [{ kind: "loop", form: "do", init: [], test: this.#condition(node.test), update: [], body }];
      }
      case "ForStatement":
        return [this.#for(node)];
      case "BreakStatement":
      case "ContinueStatement":
        if (node.label) this.#fail(node, UNSUPPORTED.LabeledStatement);
        return [{ kind: node.type === "BreakStatement" ? "break" : "continue" }];
      case "ReturnStatement":
        return this.#return(node, node.argument);
      default:
        return this.#fail(node, UNSUPPORTED[node.type] ?? `${node.type} is not supported`);
    }
  }

  #for(node: acorn.ForStatement): Stmt {
    const scope = new Map<string, Entity>();
    if (node.init?.type === "VariableDeclaration") {
      for (const d of node.init.declarations) {
        for (const name of declaredNames(d.id)) scope.set(name, { kind: "pending" });
      }
    }
    this.#scopes.push(scope);
    const init = node.init === null || node.init === undefined
      ? []
      : node.init.type === "VariableDeclaration"
      ? this.#declaration(node.init)
      : this.#effect(node.init, false);
    const test = node.test ? this.#condition(node.test) : null;
    const update = node.update ? this.#effect(node.update, false).filter(isEffect) : [];
    const body = this.#body(node.body);
    this.#scopes.pop();
    return { kind: "loop", form: "for", init, test, update, body };
  }

  #return(node: Node, argument: acorn.Expression | null | undefined): Stmt[] {
    const { kind, returns, name } = this.#input;
    if (kind === "kernel") {
      if (argument) {
        this.#fail(argument, "a kernel cannot return a value: write results into an array parameter");
      }
      return [{ kind: "return", value: null }];
    }
    if (returns === "void") {
      if (argument) {
        this.#fail(argument, `${name} is declared "void" and cannot return a value: declare its return type`);
      }
      return [{ kind: "return", value: null }];
    }
    if (!argument) this.#fail(node, `${name} must return a ${returns}: add the value`);
    return [{
      kind: "return",
      value: assignable(this.#value(argument), returns, "the return value", this.#failer(argument)),
    }];
  }

  #declaration(node: acorn.VariableDeclaration): Stmt[] {
    if (node.kind !== "let" && node.kind !== "const") {
      this.#fail(node, `${node.kind} is not supported: use let or const`);
    }
    const out: Stmt[] = [];
    for (const d of node.declarations) {
      if (d.id.type === "ArrayPattern") {
        out.push(...this.#gridDeclaration(d, d.id, node.kind));
        continue;
      }
      if (d.id.type !== "Identifier") {
        this.#fail(d.id, UNSUPPORTED[d.id.type] ?? "declare one name at a time");
      }
      const name = d.id.name;
      if (!d.init) {
        this.#fail(
          d,
          `${node.kind} ${name} needs an initial value to give it a type: = 0 (i32), = 0.0 (f64) or = f32(0)`,
        );
      }
      if (this.#isIntrinsicCall(d.init, "shared", "array")) {
        out.push(this.#sharedArray(d, d.init as acorn.CallExpression, node.kind));
        continue;
      }
      if (d.init.type === "Identifier" && this.#lookup(d.init.name, d.init)?.kind === "array") {
        this.#fail(d.init, `arrays cannot be copied into locals: index ${d.init.name} directly`);
      }
      const init = this.#value(d.init);
      if (node.kind === "const" && init.op === "const") {
        this.#define(name, { kind: "const", value: init });
        continue;
      }
      const settled = settle(init, this.#failer(d.init));
      out.push({
        kind: "let",
        binding: this.#scalar(name, settled.type as ValueType, node.kind === "let"),
        init: settled,
      });
    }
    return out;
  }

  #gridDeclaration(d: acorn.VariableDeclarator, pattern: acorn.ArrayPattern, kind: string): Stmt[] {
    const init = d.init;
    const n = init && this.#isIntrinsicCall(init, "grid") ? gridArity(init as acorn.CallExpression) : 0;
    if (n < 2) this.#fail(pattern, UNSUPPORTED.ArrayPattern);
    if (pattern.elements.length > n) {
      this.#fail(pattern, `grid(${n}) gives ${n} indices, not ${pattern.elements.length}`);
    }
    return pattern.elements.map((element, axis) => {
      if (element?.type !== "Identifier") {
        this.#fail(element ?? pattern, "name each index: const [x, y] = grid(2)");
      }
      const binding = this.#scalar(element.name, "i32", kind === "let");
      return { kind: "let", binding, init: gridIndex(axis as 0 | 1 | 2) };
    });
  }

  #sharedArray(d: acorn.VariableDeclarator, init: acorn.CallExpression, kind: string): Stmt {
    if (this.#input.kind !== "kernel") {
      this.#fail(
        init,
        "shared arrays can only be declared in a kernel: declare it there and pass values to device functions",
      );
    }
    if (kind !== "const") this.#fail(d, "a shared array must be declared with const");
    const [typeNode, sizeNode] = init.arguments;
    if (init.arguments.length !== 2) {
      this.#fail(init, 'shared.array() takes a type and a size: shared.array("f32", 256)');
    }
    const element = typeNode.type === "Literal" && typeof typeNode.value === "string" ? typeNode.value : "";
    if (!Object.hasOwn(ELEMENTS, element)) {
      this.#fail(
        typeNode,
        `the type of a shared array must be a string naming one of ${Object.keys(ELEMENTS).join(", ")}`,
      );
    }
    const size = this.#value(sizeNode);
    if (
      size.op !== "const" || typeof size.value !== "number" || !Number.isInteger(size.value) || size.value < 1
    ) {
      this.#fail(
        sizeNode,
        "the size of a shared array must be a positive integer constant: use a literal or options.constants",
      );
    }
    this.#sharedBytes += size.value * ELEMENTS[element as ElementType].size;
    if (this.#sharedBytes > SHARED_LIMIT) {
      this.#fail(
        init,
        `the shared arrays take ${this.#sharedBytes} bytes, more than the ${SHARED_LIMIT} a block can have`,
      );
    }
    const name = (d.id as acorn.Identifier).name;
    return { kind: "shared", binding: this.#array(name, element as ElementType, "shared", size.value) };
  }

  /** A statement made of an expression: assignments, ++/--, calls with effects, `syncthreads()`. */
  #effect(node: acorn.Expression, barrierAllowed: boolean): Stmt[] {
    switch (node.type) {
      case "AssignmentExpression":
        return [this.#assignment(node.left, node.operator, node.right, node)];
      case "UpdateExpression":
        return [this.#assignment(node.argument, node.operator === "++" ? "+=" : "-=", null, node)];
      case "SequenceExpression":
        return node.expressions.flatMap((e) => this.#effect(e, false));
      case "CallExpression": {
        if (this.#isIntrinsicCall(node, "syncthreads")) {
          if (this.#input.kind !== "kernel") {
            this.#fail(node, "syncthreads() is only supported in a kernel body");
          }
          if (!barrierAllowed) this.#fail(node, "syncthreads() must be a statement of its own");
          if (node.arguments.length !== 0) this.#fail(node, "syncthreads() takes no arguments");
          this.#barriers.push(this.#parsed.at(node));
          return [{ kind: "barrier", id: this.#barriers.length - 1, at: this.#parsed.at(node) }];
        }
        const expr = this.#call(node);
        if (expr.op !== "call" && expr.op !== "atomic") {
          this.#fail(node, "this call has no effect: use its value or remove it");
        }
        return [{ kind: "expr", expr }];
      }
      default:
        return this.#fail(
          node,
          UNSUPPORTED[node.type] ??
            "this expression has no effect: a statement must be an assignment, ++, -- or a call",
        );
    }
  }

  #assignment(
    target: acorn.Pattern | acorn.Expression,
    operator: string,
    valueNode: acorn.Expression | null,
    node: Node,
  ): Stmt {
    if (operator === "&&=" || operator === "||=" || operator === "??=") {
      this.#fail(node, `${operator} is not supported: write the assignment out with if`);
    }
    const rhs = (): Expr => valueNode ? this.#value(valueNode) : literal(1, "int");
    const op = operator === "=" ? undefined : operator.slice(0, -1);
    if (target.type === "Identifier") {
      const name = target.name;
      const entity = this.#lookup(name, target);
      if (entity === undefined) {
        if (INTRINSIC_NAMES.has(name)) this.#fail(target, `${name} cannot be assigned`);
        this.#value(target);
      }
      if (entity?.kind === "array") {
        this.#fail(target, `${name} is an array: assign to its elements, ${name}[i] = ...`);
      }
      if (entity?.kind !== "scalar") this.#fail(target, `${name} is a constant and cannot be assigned`);
      const binding = entity.binding;
      if (!binding.mutable) this.#fail(target, `${name} is a const: declare it with let to assign to it`);
      const current: Expr = { op: "local", type: binding.type, binding };
      const value = op ? this.#binary(op, current, rhs(), node) : rhs();
      const hint = isInt(binding.type as ValueType) && isFloat(value.type as ValueType)
        ? `, or start ${name} as a float: let ${name} = f32(0)`
        : "";
      return {
        kind: "assign",
        binding,
        value: assignable(value, binding.type, name, (d) => this.#fail(node, d + hint)),
      };
    }
    if (target.type === "MemberExpression") {
      if (!target.computed) {
        const array = target.object.type === "Identifier"
          ? this.#lookup(target.object.name, target.object)
          : undefined;
        if (array?.kind === "array" && isProperty(target, "length")) {
          this.#fail(
            target,
            "the length of an array cannot be assigned: arrays keep the size the host gave them",
          );
        }
        this.#fail(target, "only locals and array elements can be assigned");
      }
      const array = this.#arrayOf(target.object);
      const index = this.#index(target.property);
      let value: Expr;
      if (op) {
        if (hasCall(index)) {
          this.#fail(
            target.property,
            "an index that calls a function cannot take a compound assignment: compute it into a const first",
          );
        }
        value = this.#binary(op, this.#load(array, index, target), rhs(), node);
      } else {
        value = rhs();
      }
      return {
        kind: "store",
        array,
        index,
        value: storable(value, array.element, this.#failer(node)),
        at: this.#parsed.at(target),
      };
    }
    return this.#fail(target, UNSUPPORTED[target.type] ?? "only locals and array elements can be assigned");
  }

  // ---- expressions ----

  /** An expression whose value is used. */
  #value(node: Expression): Expr {
    const e = this.#expression(node);
    if (e.type === "void") this.#fail(node, "this device function returns nothing: call it as a statement");
    return e;
  }

  #condition(node: acorn.Expression): Expr {
    const e = this.#value(node);
    if (e.type === "bool") return e;
    if (isWeakConst(e) && weakness(e) === "int") return constant(e.value !== 0, "bool");
    const settled = settle(e, this.#failer(node));
    if (!isInt(settled.type as ValueType)) {
      this.#fail(node, "a float is not a condition: compare it explicitly, x !== 0");
    }
    return {
      op: "compare",
      type: "bool",
      operator: "!=",
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
        if (this.#isIntrinsicCall(node, "syncthreads")) {
          this.#fail(node, "syncthreads() must be a statement of its own");
        }
        return this.#call(node);
      case "UnaryExpression":
        return this.#unary(node);
      case "BinaryExpression":
        return this.#binaryExpression(node);
      case "LogicalExpression": {
        if (node.operator === "??") {
          this.#fail(node, "?? is not supported: numbers in kernels are never null");
        }
        const left = this.#boolean(node.left, node.operator),
          right = this.#boolean(node.right, node.operator);
        return { op: "logical", type: "bool", operator: node.operator, left, right };
      }
      case "ConditionalExpression":
        return this.#select(node);
      case "AssignmentExpression":
      case "UpdateExpression":
        return this.#fail(
          node,
          "assignments inside expressions are not supported: make it a statement of its own",
        );
      case "SequenceExpression":
        return this.#fail(
          node,
          "the comma operator is only supported in for-loop updates: write separate statements",
        );
      default:
        return this.#fail(node, UNSUPPORTED[node.type] ?? `${node.type} is not supported`);
    }
  }

  #literal(node: acorn.Literal): Expr {
    const { value } = node;
    if (typeof value === "number") {
      const raw = node.raw ?? "";
      return literal(value, /^0[xob]/i.test(raw) || !/[.eE]/.test(raw) ? "int" : "float");
    }
    if (typeof value === "boolean") return constant(value, "bool");
    if (typeof value === "string") this.#fail(node, UNSUPPORTED.TemplateLiteral);
    if (typeof value === "bigint") {
      this.#fail(node, "BigInt literals are not supported: use numbers (i32, u32, f32, f64)");
    }
    if (value === null) this.#fail(node, "null is not supported: kernels work on numbers");
    return this.#fail(node, "regular expressions are not supported: kernels work on numbers");
  }

  #identifier(node: acorn.Identifier): Expr {
    const name = node.name;
    const entity = this.#lookup(name, node);
    switch (entity?.kind) {
      case "scalar":
        return { op: "local", type: entity.binding.type, binding: entity.binding };
      case "array":
        return this.#fail(node, `${name} is an array: index it, ${name}[i]`);
      case "const":
        return entity.value;
      case "device":
        return this.#fail(node, `${name} is a device function: call it`);
    }
    if (name === "Infinity" || name === "NaN") return literal(name === "NaN" ? NaN : Infinity, "float");
    if (GEOMETRY.has(name)) this.#fail(node, `${name} is not a number: read ${name}.x, .y or .z`);
    if (name === "Math") {
      this.#fail(node, "Math is not a value: call Math.sqrt(x) and the like, or read Math.PI");
    }
    if (INTRINSIC_NAMES.has(name)) this.#fail(node, `${name} is a function: call it`);
    if (name === "undefined") this.#fail(node, "undefined is not supported: kernels work on numbers");
    return this.#fail(
      node,
      `${name} is not defined in the kernel: kernels cannot read variables from outside; ` +
        "pass it as a parameter, in options.constants, or as a device function in options.use",
    );
  }

  #member(node: acorn.MemberExpression): Expr {
    if (node.computed) return this.#load(this.#arrayOf(node.object), this.#index(node.property), node);
    const object = node.object.type === "Identifier" ? node.object.name : undefined;
    const property = node.property.type === "Identifier" ? node.property.name : "";
    if (object !== undefined) {
      const entity = this.#lookup(object, node.object);
      if (entity?.kind === "array" && property === "length") {
        if (entity.binding.space === "shared") return literal(entity.binding.length, "int");
        this.#fail(node, `the length of ${object} is not known on the GPU: pass it as an i32 parameter`);
      }
      if (entity === undefined && GEOMETRY.has(object)) {
        const axis = ["x", "y", "z"].indexOf(property);
        if (axis < 0) this.#fail(node.property, `${object} has only .x, .y and .z`);
        return { op: "builtin", type: "i32", name: object as BuiltinName, axis: axis as 0 | 1 | 2 };
      }
      if (entity === undefined && object === "Math") {
        if (Object.hasOwn(MATH_CONSTANTS, property)) return literal(MATH_CONSTANTS[property], "float");
        if (Object.hasOwn(MATH_FUNCTIONS, property) || property === "fround") {
          this.#fail(node, `Math.${property} is a function: call it`);
        }
        this.#fail(
          node,
          `Math.${property} is not supported: the constants are ${Object.keys(MATH_CONSTANTS).join(", ")}`,
        );
      }
    }
    if (object === undefined) this.#value(node.object);
    return this.#fail(
      node,
      "property access is not supported: kernels read array elements (a[i]), threadIdx.x and the like, Math constants " +
        "and the .length of shared arrays",
    );
  }

  #arrayOf(node: Expression): ArrayBinding {
    if (node.type === "Identifier") {
      const entity = this.#lookup(node.name, node);
      if (entity?.kind === "array") return entity.binding;
      const e = this.#value(node);
      this.#fail(node, `${node.name} is ${e.type === "i32" ? "an" : "a"} ${e.type}, not an array`);
    }
    if (node.type === "MemberExpression" && node.computed) {
      this.#fail(node, "arrays are 1-D: index a flattened array, a[row * width + col]");
    }
    this.#value(node);
    return this.#fail(node, "only array parameters and shared arrays can be indexed");
  }

  #index(node: Expression): Expr {
    const e = settle(this.#value(node), this.#failer(node));
    if (!isInt(e.type as ValueType)) {
      this.#fail(
        node,
        `an array index must be an integer, not ${e.type === "bool" ? "a bool" : e.type}: convert with i32()`,
      );
    }
    return e;
  }

  #load(array: ArrayBinding, index: Expr, node: Node): Expr {
    return { op: "load", type: ELEMENTS[array.element].value, array, index, at: this.#parsed.at(node) };
  }

  #boolean(node: acorn.Expression, operator: string): Expr {
    const e = this.#value(node);
    if (e.type !== "bool") {
      this.#fail(node, `the operands of ${operator} must be booleans (comparisons): write x !== 0`);
    }
    return e;
  }

  #select(node: acorn.ConditionalExpression): Expr {
    const test = this.#condition(node.test);
    const then = this.#value(node.consequent), otherwise = this.#value(node.alternate);
    if (then.type === "bool" || otherwise.type === "bool") {
      if (then.type !== otherwise.type) {
        this.#fail(node, "one branch is a boolean and the other a number: make both the same");
      }
      return { op: "select", type: "bool", test, then, otherwise };
    }
    const wt = weakness(then), wo = weakness(otherwise);
    if (wt && wo) {
      const weak = wt === "int" && wo === "int" ? "int" : "float";
      return { op: "select", type: weak === "int" ? "i32" : "f64", test, then, otherwise, weak };
    }
    const [a, b, type] = unify(then, otherwise, this.#failer(node));
    return { op: "select", type, test, then: a, otherwise: b };
  }

  #unary(node: acorn.UnaryExpression): Expr {
    const { operator } = node;
    if (operator === "typeof" || operator === "void" || operator === "delete") {
      this.#fail(node, `${operator} is not supported: kernels work on numbers`);
    }
    const v = this.#value(node.argument);
    const fail = this.#failer(node);
    if (v.type === "bool" && operator !== "!") {
      this.#fail(node, `${operator} needs a number, not a boolean: write cond ? 1 : 0`);
    }
    switch (operator) {
      case "+":
        return v;
      case "-": {
        if (isWeakConst(v)) return literal(-v.value, v.weak!);
        const s = settle(v, fail);
        if (s.type === "u32") {
          this.#fail(
            node,
            "a u32 cannot be negated: JavaScript would give a negative number; convert with i32() or f64() first",
          );
        }
        return { op: "neg", type: s.type as ScalarType, value: s };
      }
      case "!": {
        if (v.type === "bool") return { op: "not", type: "bool", value: v };
        if (isWeakConst(v) && v.weak === "int") return constant(v.value === 0, "bool");
        const s = settle(v, fail);
        if (!isInt(s.type as ValueType)) {
          this.#fail(node, "! needs a boolean or an integer: compare a float explicitly, x === 0");
        }
        return {
          op: "compare",
          type: "bool",
          operator: "==",
          left: s,
          right: constant(0, s.type as ScalarType),
        };
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
      this.#fail(node, `${operator} is not supported: kernels work on numbers`);
    }
    if ((operator === "|" || operator === ">>>") && isZero(node.right)) {
      const type = operator === "|" ? "i32" : "u32";
      const division = node.left.type === "BinaryExpression" && node.left.operator === "/"
        ? this.#intDivision(node.left, "idiv")
        : undefined;
      if (division) return cast(division, type);
      const v = this.#value(node.left as acorn.Expression);
      if (isWeakConst(v)) return literal(convert(v.value, type), "int");
      return toInt(v, type, this.#failer(node));
    }
    return this.#binary(operator, this.#value(node.left as acorn.Expression), this.#value(node.right), node);
  }

  /** `(a / b) | 0` and `Math.floor(a / b)` on integers of one type: integer division, or undefined. */
  #intDivision(node: acorn.BinaryExpression, kind: "idiv" | "floordiv"): Expr | undefined {
    const left = this.#value(node.left as acorn.Expression), right = this.#value(node.right);
    const integer = (e: Expr) =>
      weakness(e) === "int" || (weakness(e) === undefined && isInt(e.type as ValueType));
    if (!integer(left) || !integer(right) || (isWeakConst(left) && isWeakConst(right))) return undefined;
    if (
      !weakness(left) && !weakness(right) &&
      promote(left.type as ScalarType, right.type as ScalarType) === undefined
    ) {
      return undefined;
    }
    const [a, b, type] = unify(left, right, this.#failer(node));
    return { op: "binary", type, operator: type === "u32" ? "idiv" : kind, left: a, right: b };
  }

  /** A binary operator on translated operands (also the operator of a compound assignment). */
  #binary(operator: string, left: Expr, right: Expr, node: Node): Expr {
    const fail = this.#failer(node);
    if (Object.hasOwn(COMPARE, operator)) return this.#compare(COMPARE[operator], left, right, node);
    if (isWeakConst(left) && isWeakConst(right)) {
      const value = fold(operator, left.value, right.value);
      const whole = (left.weak === "int" && right.weak === "int") || BITWISE.has(operator);
      return literal(value, whole && Number.isInteger(value) ? "int" : "float");
    }
    if (ARITHMETIC.has(operator)) {
      if (operator === "**") return this.#math("pow", [left, right], node);
      if (operator === "/" && integral(left) && integral(right)) {
        left = toF64(left, fail);
        right = toF64(right, fail);
      }
      const [a, b, type] = unify(left, right, fail);
      return { op: "binary", type, operator: operator as BinaryOp, left: a, right: b };
    }
    if (BITWISE.has(operator)) {
      const type = operator === ">>>" ? "u32" : "i32";
      return {
        op: "binary",
        type,
        operator: operator as BinaryOp,
        left: toInt(left, type, fail),
        right: toInt(right, "i32", fail),
      };
    }
    return this.#fail(node, `${operator} is not supported`);
  }

  #compare(operator: CompareOp, left: Expr, right: Expr, node: Node): Expr {
    if (left.type === "bool" || right.type === "bool") {
      if (left.type !== right.type) {
        this.#fail(node, "a boolean is compared with a number: compare like with like");
      }
      if (operator !== "==" && operator !== "!=") {
        this.#fail(node, `booleans cannot be ordered with ${operator}`);
      }
      return { op: "compare", type: "bool", operator, left, right };
    }
    if (isWeakConst(left) && isWeakConst(right)) {
      return constant(fold(operator, left.value, right.value) !== 0, "bool");
    }
    const [a, b] = unify(left, right, this.#failer(node));
    return { op: "compare", type: "bool", operator, left: a, right: b };
  }

  #call(node: acorn.CallExpression): Expr {
    const callee = node.callee;
    for (const arg of node.arguments) {
      if (arg.type === "SpreadElement") this.#fail(arg, UNSUPPORTED.SpreadElement);
    }
    const args = node.arguments as acorn.Expression[];
    if (callee.type === "Identifier") {
      const name = callee.name;
      const entity = this.#lookup(name, callee);
      if (entity?.kind === "device") return this.#deviceCall(name, entity.fn, args, node);
      if (entity) this.#fail(callee, `${name} is not a function`);
      if (Object.hasOwn(CASTS, name)) return this.#cast(CASTS[name], name, args, node);
      if (Object.hasOwn(ATOMICS, name)) return this.#atomic(name, args, node);
      if (name === "grid") {
        const n = gridArity(node);
        if (n === 1) return gridIndex(0);
        this.#fail(
          node,
          n ? `grid(${n}) gives ${n} indices: write const [x, y] = grid(${n})` : "grid() takes 1, 2 or 3",
        );
      }
      this.#fail(
        callee,
        `${name}() is not defined in the kernel: pass device functions in options.use, ` +
          `jit(signature, fn, { use: { ${name} } })`,
      );
    }
    if (callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier") {
      const object = callee.object.name,
        property = callee.property.type === "Identifier" ? callee.property.name : "";
      if (this.#lookup(object, callee.object) === undefined) {
        if (object === "Math" && property === "fround") return this.#cast("f32", "Math.fround", args, node);
        if (object === "Math" && Object.hasOwn(MATH_FUNCTIONS, property)) {
          return this.#mathCall(property, args, node);
        }
        if (object === "Math") {
          this.#fail(
            callee,
            `Math.${property}() is not supported: the kernel can call Math.${
              Object.keys(MATH_FUNCTIONS).join(", ")
            }, fround`,
          );
        }
        if (object === "shared" && property === "array") {
          this.#fail(
            node,
            'shared.array() must initialize a const in the kernel body: const tile = shared.array("f32", 256)',
          );
        }
        this.#fail(
          callee,
          `${object}.${property}() is not supported: kernels can call Math functions, casts, atomics, syncthreads(), ` +
            "grid() and device functions passed in options.use",
        );
      }
    }
    return this.#fail(
      callee,
      "only named functions can be called: Math functions, casts, atomics and device functions",
    );
  }

  #isIntrinsicCall(node: acorn.Expression, name: string, property?: string): boolean {
    if (node.type !== "CallExpression") return false;
    const callee = node.callee;
    if (property === undefined) {
      return callee.type === "Identifier" && callee.name === name && !this.#lookup(name, callee);
    }
    return callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier" &&
      callee.object.name === name && isProperty(callee, property) && !this.#lookup(name, callee.object);
  }

  #arity(name: string, args: readonly acorn.Expression[], count: number, node: Node): void {
    if (args.length !== count) {
      this.#fail(node, `${name}() takes ${count} argument${count === 1 ? "" : "s"}, not ${args.length}`);
    }
  }

  #cast(type: ScalarType, name: string, args: acorn.Expression[], node: Node): Expr {
    this.#arity(name, args, 1, node);
    const v = this.#value(args[0]);
    if (v.type === "bool") this.#fail(args[0], `${name}() needs a number, not a boolean: write cond ? 1 : 0`);
    if (isWeakConst(v)) return constant(v.value, type);
    return cast(settle(v, this.#failer(args[0])), type);
  }

  #mathCall(name: string, args: acorn.Expression[], node: Node): Expr {
    const { fn, arity } = MATH_FUNCTIONS[name];
    if (arity === Infinity && args.length < 2) {
      this.#fail(node, `Math.${name}() takes two or more arguments here`);
    }
    if (arity !== Infinity) this.#arity(`Math.${name}`, args, arity, node);
    const [first] = args;
    if (fn === "floor" && first.type === "BinaryExpression" && first.operator === "/") {
      const division = this.#intDivision(first, "floordiv");
      if (division) return division;
    }
    return this.#math(fn, args.map((a) => this.#value(a)), node);
  }

  #math(fn: MathFn, values: Expr[], node: Node): Expr {
    const fail = this.#failer(node);
    if (values.some((v) => v.type === "bool")) this.#fail(node, `Math.${fn}() needs numbers, not booleans`);
    if (values.every(isWeakConst)) {
      const result = MATH_JS[fn](...values.map((v) => (v as ConstExpr).value as number));
      const integral = values.every((v) => weakness(v) === "int") && Number.isInteger(result);
      return literal(result, integral ? "int" : "float");
    }
    if (fn === "min" || fn === "max") {
      return values.reduce((acc, next) => {
        const [a, b, type] = unify(acc, next, fail);
        return { op: "math", type, fn, args: [a, b] };
      });
    }
    if (values.length === 2) {
      let [a, b, type] = unify(values[0], values[1], fail);
      if (isInt(type)) [a, b, type] = [cast(a, "f64"), cast(b, "f64"), "f64"];
      return { op: "math", type, fn, args: [a, b] };
    }
    const v = settle(values[0], fail);
    if (isInt(v.type as ValueType)) {
      if (fn === "floor" || fn === "ceil" || fn === "round" || (fn === "abs" && v.type === "u32")) return v;
      if (fn === "abs") return { op: "math", type: "i32", fn, args: [v] };
      return { op: "math", type: "f64", fn, args: [cast(v, "f64")] };
    }
    return { op: "math", type: v.type as ScalarType, fn, args: [v] };
  }

  #atomic(name: string, args: acorn.Expression[], node: Node): Expr {
    const { fn, operands, elements } = ATOMICS[name];
    this.#arity(name, args, 2 + operands, node);
    const array = this.#arrayOf(args[0]);
    if (!elements.includes(array.element)) {
      this.#fail(
        args[0],
        `${name}() works on ${elements.map((e) => `${e}[]`).join(", ")} arrays, not ${array.element}[]`,
      );
    }
    const index = this.#index(args[1]);
    const type = ELEMENTS[array.element].value;
    const values = args.slice(2).map((a) => {
      const v = this.#value(a);
      if (weakness(v)) return adopt(v, type, this.#failer(a));
      if (v.type !== type) {
        this.#fail(
          a,
          `${name}() on a ${array.element}[] array needs a ${type} value, not ${v.type}: convert with ${type}()`,
        );
      }
      return v;
    });
    return { op: "atomic", type, fn, array, index, args: values, at: this.#parsed.at(node) };
  }

  #deviceCall(name: string, fn: FunctionIR, args: acorn.Expression[], node: Node): Expr {
    if (args.length !== fn.params.length) {
      const names = fn.params.map((p) => p.name).join(", ");
      this.#fail(node, `${name}() takes ${fn.params.length} arguments (${names}), not ${args.length}`);
    }
    const values = args.map((a, i) => {
      const p = fn.params[i];
      if (p.kind === "scalar") {
        return assignable(this.#value(a), p.type, `parameter ${p.name} of ${name}()`, this.#failer(a));
      }
      const array = this.#arrayOf(a);
      if (array.space !== "global") {
        this.#fail(
          a,
          `${name}() takes arrays in global memory: shared arrays cannot be passed to device functions`,
        );
      }
      if (array.element !== p.element) {
        this.#fail(a, `parameter ${p.name} of ${name}() is ${p.element}[], not ${array.element}[]`);
      }
      return array;
    });
    return { op: "call", type: fn.returns, callee: fn, args: values };
  }
}

// ---- helpers ----

function declaredNames(pattern: acorn.Pattern): string[] {
  if (pattern.type === "Identifier") return [pattern.name];
  if (pattern.type === "ArrayPattern") {
    return pattern.elements.flatMap((e) => (e?.type === "Identifier" ? [e.name] : []));
  }
  return [];
}

function isProperty(node: acorn.MemberExpression, name: string): boolean {
  return node.property.type === "Identifier" && node.property.name === name;
}

function isZero(node: Expression): boolean {
  return node.type === "Literal" && node.value === 0;
}

function gridArity(node: acorn.CallExpression): number {
  const [arg] = node.arguments;
  const n = node.arguments.length === 1 && arg.type === "Literal" ? arg.value : 0;
  return n === 1 || n === 2 || n === 3 ? n : 0;
}

/** `threadIdx.a + blockIdx.a * blockDim.a`, in wrapping i32 arithmetic. */
function gridIndex(axis: 0 | 1 | 2): Expr {
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

function integral(e: Expr): boolean {
  return weakness(e) === "int" || (weakness(e) === undefined && isInt(e.type as ValueType));
}

function toF64(e: Expr, fail: Fail): Expr {
  return weakness(e) ? adopt(e, "f64", fail) : cast(e, "f64");
}

/** JavaScript's ToInt32 or ToUint32 of an operand, as the bit operators apply them. */
function toInt(e: Expr, type: "i32" | "u32", fail: Fail): Expr {
  if (e.type === "bool") fail("bit operators need numbers, not booleans: write cond ? 1 : 0");
  if (isWeakConst(e)) return constant(e.value, type);
  return cast(settle(e, fail), type);
}

/** JavaScript's result of a binary operator on two constants. */
function fold(operator: string, a: number, b: number): number {
  switch (operator) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return a / b;
    case "%":
      return a % b;
    case "**":
      return a ** b;
    case "&":
      return a & b;
    case "|":
      return a | b;
    case "^":
      return a ^ b;
    case "<<":
      return a << b;
    case ">>":
      return a >> b;
    case ">>>":
      return a >>> b;
    case "<":
      return Number(a < b);
    case "<=":
      return Number(a <= b);
    case ">":
      return Number(a > b);
    case ">=":
      return Number(a >= b);
    case "==":
      return Number(a === b);
    default:
      return Number(a !== b);
  }
}

function hasCall(e: Expr): boolean {
  return e.op === "call" || e.op === "atomic" || children(e).some(hasCall);
}

function alwaysReturns(body: readonly Stmt[]): boolean {
  return body.some((s) =>
    s.kind === "return" || (s.kind === "if" && alwaysReturns(s.then) && alwaysReturns(s.otherwise)) ||
    (s.kind === "block" && alwaysReturns(s.body))
  );
}
