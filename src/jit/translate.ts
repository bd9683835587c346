/**
 * Translates a parsed kernel or device function (acorn's AST) into typed IR, checking every construct
 * against the supported subset and reporting the first one outside it as a {@link JitError}. This file
 * translates the function's parameters and statements; `expressions.ts` translates its expressions and
 * calls.
 *
 * @module
 */

import type * as acorn from "npm:acorn@^8.14.0";
import { INTRINSIC_NAMES, UNSUPPORTED } from "./builtins.ts";
import { assignable, constant, literal, settle, storable } from "./coerce.ts";
import type { Entity, Node, TranslateInput } from "./context.ts";
import { ExpressionTranslator, gridArity, gridIndex, isProperty } from "./expressions.ts";
import { type Binding, children, type Expr, type FunctionIR, isEffect, type Stmt } from "./ir.ts";
import { binary } from "./operators.ts";
import { ELEMENTS, type ElementType, isFloat, isInt, type ValueType } from "./types.ts";

/** Translates a kernel or device function, or throws the {@link JitError} for its first unsupported construct. */
export function translate(input: TranslateInput): FunctionIR {
  return new Translator(input).run();
}

/** The most shared memory a block may declare statically, as on every CUDA device. */
const SHARED_LIMIT = 48 * 1024;

class Translator extends ExpressionTranslator {
  #sharedBytes = 0;

  run(): FunctionIR {
    const { node } = this.parsed;
    const globals = new Map<string, Entity>();
    for (const [name, value] of Object.entries(this.input.constants)) {
      const c = typeof value === "boolean"
        ? constant(value, "bool")
        : literal(value, Number.isInteger(value) ? "int" : "float");
      globals.set(name, { kind: "const", value: c });
    }
    for (const [name, fn] of Object.entries(this.input.use)) globals.set(name, { kind: "device", fn });
    this.scopes.push(globals);
    const params = this.#params(node);
    let body: Stmt[];
    if (node.body.type === "BlockStatement") {
      body = this.#block(node.body.body);
    } else if (this.input.kind === "device" && this.input.returns !== "void") {
      body = this.#return(node.body, node.body);
    } else {
      body = this.#effect(node.body, false);
    }
    if (this.input.kind === "device" && this.input.returns !== "void" && !alwaysReturns(body)) {
      this.fail(
        node,
        `it can reach its end without returning a ${this.input.returns}: end it with a return`,
      );
    }
    return {
      kind: this.input.kind,
      name: this.input.name,
      params,
      returns: this.input.returns,
      body,
      slots: this.slots,
      barriers: this.barriers,
      locate: this.locate,
    };
  }

  #params(node: acorn.Function): Binding[] {
    const signature = this.input.params;
    if (node.params.length !== signature.length) {
      const names = signature.map((p) => p.name).join(", ");
      this.fail(
        node,
        `the function has ${node.params.length} parameters but the signature lists ${signature.length} (${names}): ` +
          "give one signature entry per parameter, in order",
      );
    }
    this.scopes.push(new Map());
    return node.params.map((p, i) => {
      if (p.type !== "Identifier") this.fail(p, UNSUPPORTED[p.type] ?? "parameters must be plain names");
      const { name, type } = signature[i];
      if (p.name !== name) {
        this.fail(
          p,
          `parameter ${
            i + 1
          } is named ${p.name} but the signature names it ${name}: use the same names in the same order`,
        );
      }
      return type.kind === "scalar"
        ? this.scalar(name, type.type, true)
        : this.array(name, type.element, "global", 0);
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
    this.scopes.push(scope);
    const out = statements.flatMap((s) => this.#statement(s));
    this.scopes.pop();
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
          test: this.condition(node.test),
          then: this.#body(node.consequent),
          otherwise: node.alternate ? this.#body(node.alternate) : [],
        }];
      case "WhileStatement":
        return [{
          kind: "loop",
          form: "while",
          init: [],
          test: this.condition(node.test),
          update: [],
          body: this.#body(node.body),
        }];
      case "DoWhileStatement": {
        const body = this.#body(node.body);
        return [{ kind: "loop", form: "do", init: [], test: this.condition(node.test), update: [], body }];
      }
      case "ForStatement":
        return [this.#for(node)];
      case "BreakStatement":
      case "ContinueStatement":
        if (node.label) this.fail(node, UNSUPPORTED.LabeledStatement);
        return [{ kind: node.type === "BreakStatement" ? "break" : "continue" }];
      case "ReturnStatement":
        return this.#return(node, node.argument);
      default:
        return this.fail(node, UNSUPPORTED[node.type] ?? `${node.type} is not supported`);
    }
  }

  #for(node: acorn.ForStatement): Stmt {
    const scope = new Map<string, Entity>();
    if (node.init?.type === "VariableDeclaration") {
      for (const d of node.init.declarations) {
        for (const name of declaredNames(d.id)) scope.set(name, { kind: "pending" });
      }
    }
    this.scopes.push(scope);
    const init = node.init === null || node.init === undefined
      ? []
      : node.init.type === "VariableDeclaration"
      ? this.#declaration(node.init)
      : this.#effect(node.init, false);
    const test = node.test ? this.condition(node.test) : null;
    const update = node.update ? this.#effect(node.update, false).filter(isEffect) : [];
    const body = this.#body(node.body);
    this.scopes.pop();
    return { kind: "loop", form: "for", init, test, update, body };
  }

  #return(node: Node, argument: acorn.Expression | null | undefined): Stmt[] {
    const { kind, returns, name } = this.input;
    if (kind === "kernel") {
      if (argument) {
        this.fail(argument, "a kernel cannot return a value: write results into an array parameter");
      }
      return [{ kind: "return", value: null }];
    }
    if (returns === "void") {
      if (argument) {
        this.fail(argument, `${name} is declared "void" and cannot return a value: declare its return type`);
      }
      return [{ kind: "return", value: null }];
    }
    if (!argument) this.fail(node, `${name} must return a ${returns}: add the value`);
    return [{
      kind: "return",
      value: assignable(this.value(argument), returns, "the return value", this.failer(argument)),
    }];
  }

  #declaration(node: acorn.VariableDeclaration): Stmt[] {
    if (node.kind !== "let" && node.kind !== "const") {
      this.fail(node, `${node.kind} is not supported: use let or const`);
    }
    const out: Stmt[] = [];
    for (const d of node.declarations) {
      if (d.id.type === "ArrayPattern") {
        out.push(...this.#gridDeclaration(d, d.id, node.kind));
        continue;
      }
      if (d.id.type !== "Identifier") {
        this.fail(d.id, UNSUPPORTED[d.id.type] ?? "declare one name at a time");
      }
      const name = d.id.name;
      if (!d.init) {
        this.fail(
          d,
          `${node.kind} ${name} needs an initial value to give it a type: = 0 (i32), = 0.0 (f64) or = f32(0)`,
        );
      }
      if (this.isIntrinsicCall(d.init, "shared", "array")) {
        out.push(this.#sharedArray(d, d.init as acorn.CallExpression, node.kind));
        continue;
      }
      if (d.init.type === "Identifier" && this.lookup(d.init.name, d.init)?.kind === "array") {
        this.fail(d.init, `arrays cannot be copied into locals: index ${d.init.name} directly`);
      }
      const init = this.value(d.init);
      if (node.kind === "const" && init.op === "const") {
        this.define(name, { kind: "const", value: init });
        continue;
      }
      const settled = settle(init, this.failer(d.init));
      out.push({
        kind: "let",
        binding: this.scalar(name, settled.type as ValueType, node.kind === "let"),
        init: settled,
      });
    }
    return out;
  }

  #gridDeclaration(d: acorn.VariableDeclarator, pattern: acorn.ArrayPattern, kind: string): Stmt[] {
    const init = d.init;
    const n = init && this.isIntrinsicCall(init, "grid") ? gridArity(init as acorn.CallExpression) : 0;
    if (n < 2) this.fail(pattern, UNSUPPORTED.ArrayPattern);
    if (pattern.elements.length > n) {
      this.fail(pattern, `grid(${n}) gives ${n} indices, not ${pattern.elements.length}`);
    }
    return pattern.elements.map((element, axis) => {
      if (element?.type !== "Identifier") {
        this.fail(element ?? pattern, "name each index: const [x, y] = grid(2)");
      }
      const binding = this.scalar(element.name, "i32", kind === "let");
      return { kind: "let", binding, init: gridIndex(axis as 0 | 1 | 2) };
    });
  }

  #sharedArray(d: acorn.VariableDeclarator, init: acorn.CallExpression, kind: string): Stmt {
    if (this.input.kind !== "kernel") {
      this.fail(
        init,
        "shared arrays can only be declared in a kernel: declare it there and pass values to device functions",
      );
    }
    if (kind !== "const") this.fail(d, "a shared array must be declared with const");
    const [typeNode, sizeNode] = init.arguments;
    if (init.arguments.length !== 2) {
      this.fail(init, 'shared.array() takes a type and a size: shared.array("f32", 256)');
    }
    const element = typeNode.type === "Literal" && typeof typeNode.value === "string" ? typeNode.value : "";
    if (!Object.hasOwn(ELEMENTS, element)) {
      this.fail(
        typeNode,
        `the type of a shared array must be a string naming one of ${Object.keys(ELEMENTS).join(", ")}`,
      );
    }
    const size = this.value(sizeNode);
    if (
      size.op !== "const" || typeof size.value !== "number" || !Number.isInteger(size.value) || size.value < 1
    ) {
      this.fail(
        sizeNode,
        "the size of a shared array must be a positive integer constant: use a literal or options.constants",
      );
    }
    this.#sharedBytes += size.value * ELEMENTS[element as ElementType].size;
    if (this.#sharedBytes > SHARED_LIMIT) {
      this.fail(
        init,
        `the shared arrays take ${this.#sharedBytes} bytes, more than the ${SHARED_LIMIT} a block can have`,
      );
    }
    const name = (d.id as acorn.Identifier).name;
    return { kind: "shared", binding: this.array(name, element as ElementType, "shared", size.value) };
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
        if (this.isIntrinsicCall(node, "syncthreads")) {
          if (this.input.kind !== "kernel") {
            this.fail(node, "syncthreads() is only supported in a kernel body");
          }
          if (!barrierAllowed) this.fail(node, "syncthreads() must be a statement of its own");
          if (node.arguments.length !== 0) this.fail(node, "syncthreads() takes no arguments");
          this.barriers.push(this.parsed.at(node));
          return [{ kind: "barrier", id: this.barriers.length - 1, at: this.parsed.at(node) }];
        }
        const expr = this.call(node);
        if (expr.op !== "call" && expr.op !== "atomic") {
          this.fail(node, "this call has no effect: use its value or remove it");
        }
        return [{ kind: "expr", expr }];
      }
      default:
        return this.fail(
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
      this.fail(node, `${operator} is not supported: write the assignment out with if`);
    }
    const rhs = (): Expr => valueNode ? this.value(valueNode) : literal(1, "int");
    const op = operator === "=" ? undefined : operator.slice(0, -1);
    if (target.type === "Identifier") {
      const name = target.name;
      const entity = this.lookup(name, target);
      if (entity === undefined) {
        if (INTRINSIC_NAMES.has(name)) this.fail(target, `${name} cannot be assigned`);
        this.value(target);
      }
      if (entity?.kind === "array") {
        this.fail(target, `${name} is an array: assign to its elements, ${name}[i] = ...`);
      }
      if (entity?.kind !== "scalar") this.fail(target, `${name} is a constant and cannot be assigned`);
      const binding = entity.binding;
      if (!binding.mutable) this.fail(target, `${name} is a const: declare it with let to assign to it`);
      const current: Expr = { op: "local", type: binding.type, binding };
      const value = op ? binary(op, current, rhs(), this.failer(node)) : rhs();
      const hint = isInt(binding.type as ValueType) && isFloat(value.type as ValueType)
        ? `, or start ${name} as a float: let ${name} = f32(0)`
        : "";
      return {
        kind: "assign",
        binding,
        value: assignable(value, binding.type, name, (d) => this.fail(node, d + hint)),
      };
    }
    if (target.type === "MemberExpression") {
      if (!target.computed) {
        const array = target.object.type === "Identifier"
          ? this.lookup(target.object.name, target.object)
          : undefined;
        if (array?.kind === "array" && isProperty(target, "length")) {
          this.fail(
            target,
            "the length of an array cannot be assigned: arrays keep the size the host gave them",
          );
        }
        this.fail(target, "only locals and array elements can be assigned");
      }
      const array = this.arrayOf(target.object);
      const index = this.index(target.property);
      let value: Expr;
      if (op) {
        if (hasCall(index)) {
          this.fail(
            target.property,
            "an index that calls a function cannot take a compound assignment: compute it into a const first",
          );
        }
        value = binary(op, this.load(array, index, target), rhs(), this.failer(node));
      } else {
        value = rhs();
      }
      return {
        kind: "store",
        array,
        index,
        value: storable(value, array.element, this.failer(node)),
        at: this.parsed.at(target),
      };
    }
    return this.fail(target, UNSUPPORTED[target.type] ?? "only locals and array elements can be assigned");
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

function hasCall(e: Expr): boolean {
  return e.op === "call" || e.op === "atomic" || children(e).some(hasCall);
}

function alwaysReturns(body: readonly Stmt[]): boolean {
  return body.some((s) =>
    s.kind === "return" || (s.kind === "if" && alwaysReturns(s.then) && alwaysReturns(s.otherwise)) ||
    (s.kind === "block" && alwaysReturns(s.body))
  );
}
