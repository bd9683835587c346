/**
 * Writes a translated kernel and the device functions it calls as CUDA C or OpenCL C.
 *
 * i32 `+`, `-`, `*`, `<<` and negation are computed in unsigned arithmetic and cast back, so that they
 * wrap as in the simulator instead of overflowing into C's undefined behaviour; the one exception is
 * a `for` loop's `i++` when the loop runs while `i < limit` and the body never assigns `i`, which
 * cannot overflow and is written as `i++`. Shift counts are masked with `& 31` as JavaScript masks them.
 *
 * @module
 */

import { helperSource, type Target } from "../codegen/target.ts";
import { targetOf } from "../codegen/targets.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import {
  type BinaryExpr,
  type Binding,
  type EffectStmt,
  type Expr,
  type FunctionIR,
  isEffect,
  type LoopStmt,
  type ScalarBinding,
  type Stmt,
  walk,
} from "./ir.ts";
import { Names } from "./names.ts";
import { ELEMENTS, type ElementType, SCALAR_DTYPES, type ValueType } from "./types.ts";

// C operator precedence, higher binds tighter.
const ASSIGN = 2,
  COND = 3,
  OR = 4,
  AND = 5,
  BITOR = 6,
  XOR = 7,
  BITAND = 8,
  EQ = 9,
  REL = 10,
  SHIFT = 11,
  ADD = 12,
  MUL = 13,
  UNARY = 15,
  POSTFIX = 16;

const PRECEDENCE: Readonly<Record<string, number>> = {
  "+": ADD,
  "-": ADD,
  "*": MUL,
  "/": MUL,
  "%": MUL,
  "&": BITAND,
  "|": BITOR,
  "^": XOR,
  "<<": SHIFT,
  ">>": SHIFT,
  ">>>": SHIFT,
  "<": REL,
  "<=": REL,
  ">": REL,
  ">=": REL,
  "==": EQ,
  "!=": EQ,
  "&&": AND,
  "||": OR,
};

const WRAPPING = new Set(["+", "-", "*", "<<"]);

interface Out {
  readonly text: string;
  readonly prec: number;
}

function wrap(out: Out, min: number): string {
  return out.prec < min ? `(${out.text})` : out.text;
}

/** The C source of a kernel, the device functions it calls (callees first) and the helpers they need. */
export function emit(kernel: FunctionIR, dialect: Dialect): string {
  return new Emitter(targetOf(dialect)).program(kernel);
}

class Emitter {
  readonly #d: Target;
  readonly #helpers = new Set<string>();
  readonly #functions = new Map<FunctionIR, string>();
  #usesF64 = false;
  #names = new Names();
  #locals = new Map<Binding, string>();

  constructor(dialect: Target) {
    this.#d = dialect;
  }

  program(kernel: FunctionIR): string {
    const global = new Names();
    this.#functions.set(kernel, global.take(kernel.name));
    const devices = callees(kernel);
    for (const device of devices) this.#functions.set(device, global.take(device.name));
    const functions = [...devices, kernel].map((f) => this.#function(f));
    const helpers = [...this.#helpers].map((h) => helperSource(this.#d, h));
    const prelude = this.#d.prelude(this.#usesF64);
    return [...(prelude.length ? [prelude.join("\n")] : []), ...helpers, ...functions].join("\n\n") + "\n";
  }

  #function(f: FunctionIR): string {
    this.#names = new Names(this.#functions.values());
    this.#locals = new Map();
    const d = this.#d;
    const params = f.params.map((p) =>
      p.kind === "array"
        ? d.globalPointer(this.#element(p.element), this.#name(p), false, false)
        : `${this.#type(p.type)} ${this.#name(p)}`
    );
    const name = this.#functions.get(f)!;
    const head = f.kind === "kernel"
      ? d.kernel(name, params)
      : d.device(f.returns === "void" ? "void" : this.#type(f.returns), name, params);
    const lines: string[] = [];
    walk(f.body, {
      stmt: (s) => {
        if (s.kind === "shared") {
          lines.push(
            `  ${d.sharedArray(ELEMENTS[s.binding.element].dtype, this.#name(s.binding), s.binding.length)}`,
          );
        }
      },
    });
    this.#statements(f.body, 1, lines);
    return `${head} {\n${lines.map((l) => `${l}\n`).join("")}}`;
  }

  #name(binding: Binding): string {
    let name = this.#locals.get(binding);
    if (name === undefined) {
      name = this.#names.take(binding.name);
      this.#locals.set(binding, name);
    }
    return name;
  }

  #type(type: ValueType): string {
    if (type === "f64") this.#usesF64 = true;
    return type === "bool" ? "bool" : this.#d.cType(SCALAR_DTYPES[type]);
  }

  #element(element: ElementType): string {
    return this.#d.cType(ELEMENTS[element].dtype);
  }

  // ---- statements ----

  #statements(body: readonly Stmt[], depth: number, out: string[]): void {
    for (const s of body) this.#statement(s, depth, out);
  }

  #statement(s: Stmt, depth: number, out: string[]): void {
    const pad = "  ".repeat(depth);
    switch (s.kind) {
      case "let":
        out.push(`${pad}${this.#declaration(s.binding, s.init)};`);
        break;
      case "shared":
        break;
      case "assign":
      case "store":
      case "expr":
        out.push(`${pad}${this.#effect(s)};`);
        break;
      case "if":
        this.#if(s, depth, out);
        break;
      case "loop":
        this.#loop(s, depth, out);
        break;
      case "break":
      case "continue":
        out.push(`${pad}${s.kind};`);
        break;
      case "return":
        out.push(`${pad}return${s.value ? ` ${this.#expr(s.value).text}` : ""};`);
        break;
      case "barrier":
        out.push(`${pad}${this.#d.syncthreads}`);
        break;
      case "block":
        out.push(`${pad}{`);
        this.#statements(s.body, depth + 1, out);
        out.push(`${pad}}`);
        break;
    }
  }

  #declaration(binding: ScalarBinding, init: Expr): string {
    return `${binding.mutable ? "" : "const "}${this.#type(binding.type)} ${this.#name(binding)} = ${
      this.#expr(init).text
    }`;
  }

  /** An assignment, store or call as a C expression. */
  #effect(s: EffectStmt): string {
    switch (s.kind) {
      case "assign":
        return `${this.#name(s.binding)} = ${this.#expr(s.value).text}`;
      case "store": {
        const element = this.#element(s.array.element);
        const value = element === this.#type(s.value.type as ValueType)
          ? this.#expr(s.value).text
          : `(${element})${this.#operand(s.value)}`;
        return `${this.#name(s.array)}[${this.#expr(s.index).text}] = ${value}`;
      }
      case "expr":
        return this.#expr(s.expr).text;
    }
  }

  #if(s: Extract<Stmt, { kind: "if" }>, depth: number, out: string[]): void {
    const pad = "  ".repeat(depth);
    out.push(`${pad}if (${this.#expr(s.test).text}) {`);
    this.#statements(s.then, depth + 1, out);
    let otherwise = s.otherwise;
    while (otherwise.length === 1 && otherwise[0].kind === "if") {
      const next: Extract<Stmt, { kind: "if" }> = otherwise[0];
      out.push(`${pad}} else if (${this.#expr(next.test).text}) {`);
      this.#statements(next.then, depth + 1, out);
      otherwise = next.otherwise;
    }
    if (otherwise.length) {
      out.push(`${pad}} else {`);
      this.#statements(otherwise, depth + 1, out);
    }
    out.push(`${pad}}`);
  }

  #loop(s: LoopStmt, depth: number, out: string[]): void {
    const pad = "  ".repeat(depth);
    const test = s.test ? this.#expr(s.test).text : "";
    if (s.form === "while") {
      out.push(`${pad}while (${test}) {`);
    } else if (s.form === "do") {
      out.push(`${pad}do {`);
    } else {
      const [first] = s.init;
      if (!(s.init.length === 1 && first.kind === "let") && !s.init.every(isEffect)) {
        // Several declarations, or declarations and assignments: C's for-init holds one declaration.
        out.push(`${pad}{`);
        this.#statements(s.init, depth + 1, out);
        this.#loop({ ...s, init: [] }, depth + 1, out);
        out.push(`${pad}}`);
        return;
      }
      const init = first?.kind === "let"
        ? this.#declaration(first.binding, first.init)
        : s.init.filter(isEffect).map((i) => this.#effect(i)).join(", ");
      const update = s.update.map((u) => this.#update(u, s)).join(", ");
      const header = init || test || update
        ? `${init};${test ? ` ${test}` : ""};${update ? ` ${update}` : ""}`
        : ";;";
      out.push(`${pad}for (${header}) {`);
    }
    this.#statements(s.body, depth + 1, out);
    out.push(s.form === "do" ? `${pad}} while (${test});` : `${pad}}`);
  }

  /** A for-loop update; `i = i + 1` is written `i++` where it cannot overflow. */
  #update(u: EffectStmt, loop: LoopStmt): string {
    if (u.kind === "assign" && isIncrement(u.binding, u.value)) {
      const b = u.binding;
      const counts = loop.test?.op === "compare" && loop.test.operator === "<" &&
        loop.test.left.op === "local" &&
        loop.test.left.binding === b;
      if (b.type === "u32" || (counts && !assigns(loop.body, b))) return `${this.#name(b)}++`;
    }
    return this.#effect(u);
  }

  // ---- expressions ----

  #expr(e: Expr): Out {
    const d = this.#d;
    switch (e.op) {
      case "const":
        return this.#constant(e.value, e.type);
      case "local":
        return { text: this.#name(e.binding), prec: POSTFIX };
      case "builtin":
        return { text: `(int)${d.builtin(e.name, e.axis).text}`, prec: UNARY };
      case "load":
        return { text: `${this.#name(e.array)}[${this.#expr(e.index).text}]`, prec: POSTFIX };
      case "cast":
        return this.#cast(e.value, e.type);
      case "neg":
        if (e.type === "i32") return this.#wrapped(e);
        return { text: `-${this.#operand(e.value)}`, prec: UNARY };
      case "bitnot":
        return { text: `~${this.#operand(e.value)}`, prec: UNARY };
      case "not":
        return { text: `!${this.#operand(e.value)}`, prec: UNARY };
      case "binary":
        return this.#binary(e);
      case "compare":
      case "logical": {
        const p = PRECEDENCE[e.operator];
        return {
          text: `${wrap(this.#expr(e.left), p)} ${e.operator} ${wrap(this.#expr(e.right), p + 1)}`,
          prec: p,
        };
      }
      case "select":
        return {
          text: `${wrap(this.#expr(e.test), OR)} ? ${wrap(this.#expr(e.then), ASSIGN)} : ${
            wrap(this.#expr(e.otherwise), COND)
          }`,
          prec: COND,
        };
      case "math":
        return {
          text: d.math(e.fn, e.type, e.args.map((a) => this.#expr(a).text), this.#need),
          prec: POSTFIX,
        };
      case "atomic": {
        const ptr = `&${this.#name(e.array)}[${this.#expr(e.index).text}]`;
        const negate = e.fn === "sub" && e.type === "f32";
        const args = e.args.map((a) => negate ? `-${this.#operand(a)}` : this.#expr(a).text);
        return {
          text: d.atomic(negate ? "add" : e.fn, e.array.element, e.array.space, ptr, args, this.#need),
          prec: POSTFIX,
        };
      }
      case "call": {
        const args = e.args.map((a) => "op" in a ? this.#expr(a).text : this.#name(a));
        return { text: `${this.#functions.get(e.callee)}(${args.join(", ")})`, prec: POSTFIX };
      }
    }
  }

  readonly #need = (helper: string): void => {
    this.#helpers.add(helper);
  };

  /** The operand of a unary operator, parenthesized where it needs it (and where it starts with a sign). */
  #operand(e: Expr): string {
    const out = this.#expr(e);
    return out.prec < UNARY || /^[-+]/.test(out.text) ? `(${out.text})` : out.text;
  }

  #constant(value: number | boolean, type: ValueType): Out {
    if (typeof value === "boolean") return { text: String(value), prec: POSTFIX };
    if (type === "i32") {
      if (value === -0x80000000) return { text: "(-2147483647 - 1)", prec: POSTFIX };
      return { text: String(value), prec: value < 0 ? UNARY : POSTFIX };
    }
    if (type === "u32") return { text: `${value}u`, prec: POSTFIX };
    if (type === "f64") this.#usesF64 = true;
    const float = type as "f32" | "f64";
    if (!Number.isFinite(value)) {
      const text = this.#d.special(value, float);
      return { text, prec: /^[-(]/.test(text) ? UNARY : POSTFIX };
    }
    let text = Object.is(value, -0) ? "-0.0" : String(value);
    if (/^-?\d+$/.test(text)) text += ".0";
    return {
      text: float === "f32" ? `${text}f` : text,
      prec: value < 0 || Object.is(value, -0) ? UNARY : POSTFIX,
    };
  }

  #cast(value: Expr, to: ValueType): Out {
    const from = value.type;
    const operand = this.#operand(value);
    const float = from === "f32" || from === "f64";
    const target = to === "u32" ? this.#d.cType("uint32") : this.#type(to);
    const via = (to === "i32" || to === "u32") && float ? `(${this.#d.indexType})` : "";
    return { text: `(${target})${via}${operand}`, prec: UNARY };
  }

  #binary(e: BinaryExpr): Out {
    const { operator, type } = e;
    if (type === "i32" && WRAPPING.has(operator)) return this.#wrapped(e);
    const left = this.#expr(e.left), right = this.#expr(e.right);
    if (operator === "%" && (type === "f32" || type === "f64")) {
      const fmod = this.#d.mathFn("fmod", SCALAR_DTYPES[type]);
      return { text: `${fmod}(${left.text}, ${right.text})`, prec: POSTFIX };
    }
    if (
      operator === "idiv" || operator === "floordiv" ||
      (operator === "%" && (type === "i32" || type === "u32"))
    ) {
      const divisor = e.right.op === "const" ? e.right.value as number : 0;
      if (operator !== "floordiv" && divisor !== 0 && (type === "u32" || divisor !== -1)) {
        return {
          text: `${wrap(left, MUL)} ${operator === "%" ? "%" : "/"} ${wrap(right, MUL + 1)}`,
          prec: MUL,
        };
      }
      const helper = operator === "floordiv" ? "floordiv_i32" : `${operator === "%" ? "rem" : "div"}_${type}`;
      this.#need(helper);
      return { text: `cudeno_${helper}(${left.text}, ${right.text})`, prec: POSTFIX };
    }
    const p = PRECEDENCE[operator];
    const r = operator === ">>" || operator === ">>>" ? this.#count(e.right) : wrap(right, p + 1);
    return { text: `${wrap(left, p)} ${operator === ">>>" ? ">>" : operator} ${r}`, prec: p };
  }

  /** A shift count, masked as JavaScript masks it. */
  #count(e: Expr): string {
    if (e.op === "const") return String((e.value as number) & 31);
    return `(${wrap(this.#expr(e), BITAND)} & 31)`;
  }

  /** An i32 operation computed in unsigned arithmetic and cast back, so that it wraps. */
  #wrapped(e: Expr): Out {
    return { text: `(int)(${this.#unsigned(e).text})`, prec: UNARY };
  }

  /** An i32 expression as an unsigned int with the same bits. */
  #unsigned(e: Expr): Out {
    const u = this.#d.cType("uint32");
    if (e.op === "binary" && e.type === "i32" && WRAPPING.has(e.operator)) {
      const p = PRECEDENCE[e.operator];
      const left = wrap(this.#unsigned(e.left), p);
      const right = e.operator === "<<" ? this.#count(e.right) : wrap(this.#unsigned(e.right), p + 1);
      return { text: `${left} ${e.operator} ${right}`, prec: p };
    }
    if (e.op === "neg" && e.type === "i32") {
      return { text: `0u - ${wrap(this.#unsigned(e.value), ADD + 1)}`, prec: ADD };
    }
    if (e.op === "const") return { text: `${(e.value as number) >>> 0}u`, prec: POSTFIX };
    if (e.op === "builtin") {
      const b = this.#d.builtin(e.name, e.axis);
      return b.unsigned ? { text: b.text, prec: POSTFIX } : { text: `(${u})${b.text}`, prec: UNARY };
    }
    if (e.op === "cast" && e.value.type === "u32") return this.#expr(e.value);
    return { text: `(${u})${this.#operand(e)}`, prec: UNARY };
  }
}

/** The device functions a kernel calls, directly or not, each once, callees before callers. */
function callees(kernel: FunctionIR): FunctionIR[] {
  const order: FunctionIR[] = [];
  const seen = new Set<FunctionIR>([kernel]);
  const visit = (f: FunctionIR): void => {
    walk(f.body, {
      expr: (e) => {
        if (e.op === "call" && !seen.has(e.callee)) {
          seen.add(e.callee);
          visit(e.callee);
          order.push(e.callee);
        }
      },
    });
  };
  visit(kernel);
  return order;
}

function isIncrement(b: ScalarBinding, value: Expr): boolean {
  return value.op === "binary" && value.operator === "+" && value.left.op === "local" &&
    value.left.binding === b &&
    value.right.op === "const" && value.right.value === 1;
}

function assigns(body: readonly Stmt[], b: ScalarBinding): boolean {
  let found = false;
  walk(body, { stmt: (s) => (found ||= s.kind === "assign" && s.binding === b) });
  return found;
}
