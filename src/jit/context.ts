/**
 * What translating one kernel or device function keeps track of: its input and parsed source, the
 * scopes of names, the bindings and their slots, the barriers, and the {@link JitError}s that point
 * into the user's file. The expression and statement translators extend it.
 *
 * @module
 */

import type * as acorn from "npm:acorn@^8.14.0";
import type { Fail } from "./coerce.ts";
import { JitError, type SourcePosition } from "./errors.ts";
import { type Locate, locator } from "./locate.ts";
import type { ArrayBinding, ConstExpr, FunctionIR, ScalarBinding } from "./ir.ts";
import { type ParsedFunction, parseFunction } from "./parse.ts";
import type { ElementType, ParsedType, ReturnType, ValueType } from "./types.ts";

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

/** What a name in scope stands for. */
export type Entity =
  | { readonly kind: "scalar"; readonly binding: ScalarBinding }
  | { readonly kind: "array"; readonly binding: ArrayBinding }
  | { readonly kind: "const"; readonly value: ConstExpr }
  | { readonly kind: "device"; readonly fn: FunctionIR }
  | { readonly kind: "pending" };

/** A node of acorn's AST. */
export type Node = acorn.Node;

/** The state of one translation, its errors, scopes and bindings. */
export class Context {
  protected readonly input: TranslateInput;
  readonly #what: string;
  protected readonly parsed: ParsedFunction;
  protected readonly locate: Locate;
  protected readonly scopes: Map<string, Entity>[] = [];
  protected readonly barriers: SourcePosition[] = [];
  protected slots = 0;

  constructor(input: TranslateInput) {
    this.input = input;
    this.#what = input.kind === "kernel" ? "kernel" : "device function";
    this.locate = locator(input.source);
    this.parsed = parseFunction(
      input.source,
      (detail, at, inFile = true) =>
        inFile ? this.#error(detail, at) : new JitError(this.#what, input.name, detail, at),
    );
  }

  #error(detail: string, at: SourcePosition): JitError {
    return new JitError(this.#what, this.input.name, detail, at, this.locate(at));
  }

  protected fail(node: Node, detail: string): never {
    throw this.#error(detail, this.parsed.at(node));
  }

  protected failer(node: Node): Fail {
    return (detail) => this.fail(node, detail);
  }

  protected lookup(name: string, node: Node): Entity | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const entity = this.scopes[i].get(name);
      if (entity?.kind === "pending") {
        this.fail(node, `${name} is used before its declaration: move the declaration up`);
      }
      if (entity) return entity;
    }
    return undefined;
  }

  protected define(name: string, entity: Entity): void {
    this.scopes[this.scopes.length - 1].set(name, entity);
  }

  protected scalar(name: string, type: ValueType, mutable: boolean): ScalarBinding {
    const binding: ScalarBinding = { kind: "scalar", name, slot: this.slots++, type, mutable };
    this.define(name, { kind: "scalar", binding });
    return binding;
  }

  protected array(
    name: string,
    element: ElementType,
    space: "global" | "shared",
    length: number,
  ): ArrayBinding {
    const binding: ArrayBinding = { kind: "array", name, slot: this.slots++, element, space, length };
    this.define(name, { kind: "array", binding });
    return binding;
  }
}
