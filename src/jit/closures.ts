/**
 * Compiles translated IR into closures for the simulator, once per function: each statement becomes a
 * function of a thread's frame (its locals and indices) that says what comes next (the next statement,
 * break, continue or return), and each expression one that computes its value with exact i32, u32 and
 * f32 arithmetic. A function that calls `syncthreads()` compiles into generators that yield the
 * barrier's id at every barrier. An array access out of bounds throws a {@link Fault}.
 *
 * @module
 */

import { MATH_JS } from "./builtins.ts";
import { describePosition, type SourcePosition } from "./errors.ts";
import { atomicAdd, atomicCAS, atomicExch, atomicMax, atomicMin, atomicSub } from "./intrinsics.ts";
import type { ArrayBinding, AtomicFn, BinaryExpr, Binding, Expr, FunctionIR, LoopStmt, Stmt } from "./ir.ts";
import { type HostArray, isInt, type ScalarType } from "./types.ts";

/** An x, y, z triple. */
export type Triple = [number, number, number];

/** A thread's indices and the launch's dimensions. */
export interface Thread {
  readonly threadIdx: Readonly<Triple>;
  readonly blockIdx: Readonly<Triple>;
  readonly blockDim: Readonly<Triple>;
  readonly gridDim: Readonly<Triple>;
}

/** A running function's locals by slot, its thread, and its return value. */
export interface Frame {
  readonly v: unknown[];
  readonly t: Thread;
  ret: number;
}

type Num = (f: Frame) => number;
type Bool = (f: Frame) => boolean;

// What a statement tells the statements around it.
const NEXT = 0, BREAK = 1, CONTINUE = 2, RETURN = 3;
type Signal = typeof NEXT | typeof BREAK | typeof CONTINUE | typeof RETURN;

/** A compiled statement without barriers. */
export type Run = (f: Frame) => Signal;
/** A compiled statement with barriers: a generator that yields the id of each barrier it reaches. */
export type Gen = (f: Frame) => Generator<number, Signal, void>;
type Compiled = { readonly run: Run; readonly gen?: undefined } | {
  readonly run?: undefined;
  readonly gen: Gen;
};

/** A fault inside a thread; the scheduler adds the kernel, thread and block. */
export class Fault extends Error {}

const ATOMIC_JS: Readonly<Record<Exclude<AtomicFn, "cas">, (a: HostArray, i: number, v: number) => number>> =
  {
    add: atomicAdd,
    sub: atomicSub,
    max: atomicMax,
    min: atomicMin,
    exch: atomicExch,
  };

const compiledFunctions = new WeakMap<FunctionIR, Compiled>();

/** A function's body compiled into closures, once per function. */
export function compiled(fn: FunctionIR): Compiled {
  let c = compiledFunctions.get(fn);
  if (c === undefined) {
    c = new Compiler(fn).list(fn.body);
    compiledFunctions.set(fn, c);
  }
  return c;
}

/** Where a position is, in the user's file if it can be found, for messages. */
export function place(at: SourcePosition, fn: FunctionIR): string {
  const where = fn.locate(at);
  return `${describePosition(at, where)}${
    fn.kind === "device" && where === undefined ? ` of device function "${fn.name}"` : ""
  }`;
}

class Compiler {
  readonly #fn: FunctionIR;

  constructor(fn: FunctionIR) {
    this.#fn = fn;
  }

  // ---- statements ----

  list(body: readonly Stmt[]): Compiled {
    const items = body.map((s) => this.#statement(s));
    if (items.every((c) => c.run)) {
      const runs = items.map((c) => c.run as Run);
      if (runs.length === 1) return { run: runs[0] };
      return {
        run: (f) => {
          for (const run of runs) {
            const r = run(f);
            if (r !== NEXT) return r;
          }
          return NEXT;
        },
      };
    }
    return {
      gen: function* (f) {
        for (const c of items) {
          const r = c.run ? c.run(f) : yield* c.gen(f);
          if (r !== NEXT) return r;
        }
        return NEXT;
      },
    };
  }

  #statement(s: Stmt): Compiled {
    switch (s.kind) {
      case "let":
      case "assign": {
        const slot = s.binding.slot;
        const value = this.#value(s.kind === "let" ? s.init : s.value);
        return {
          run: (f) => {
            f.v[slot] = value(f);
            return NEXT;
          },
        };
      }
      case "shared":
        return { run: () => NEXT };
      case "store": {
        const slot = s.array.slot, index = this.#index(s.array, s.index, s.at), value = this.#num(s.value);
        return {
          run: (f) => {
            const a = f.v[slot] as HostArray;
            a[index(f, a)] = value(f);
            return NEXT;
          },
        };
      }
      case "expr": {
        const value = this.#value(s.expr);
        return {
          run: (f) => {
            value(f);
            return NEXT;
          },
        };
      }
      case "if":
        return this.#if(s.test, this.list(s.then), this.list(s.otherwise));
      case "loop":
        return this.#loop(s);
      case "break":
        return { run: () => BREAK };
      case "continue":
        return { run: () => CONTINUE };
      case "return": {
        if (s.value === null) return { run: () => RETURN };
        const value = this.#num(s.value);
        return {
          run: (f) => {
            f.ret = value(f);
            return RETURN;
          },
        };
      }
      case "barrier": {
        const id = s.id;
        return {
          gen: function* () {
            yield id;
            return NEXT;
          },
        };
      }
      case "block":
        return this.list(s.body);
    }
  }

  #if(test: Expr, then: Compiled, otherwise: Compiled): Compiled {
    const t = this.#bool(test);
    if (then.run && otherwise.run) {
      const [a, b] = [then.run, otherwise.run];
      return { run: (f) => (t(f) ? a(f) : b(f)) };
    }
    const [a, b] = [generator(then), generator(otherwise)];
    return {
      gen: function* (f) {
        return t(f) ? yield* a(f) : yield* b(f);
      },
    };
  }

  #loop(s: LoopStmt): Compiled {
    const init = this.list(s.init), body = this.list(s.body), update = this.list(s.update);
    const test: Bool = s.test ? this.#bool(s.test) : () => true;
    const first = s.form === "do";
    if (init.run && body.run) {
      const [start, run, next] = [init.run, body.run, update.run as Run];
      return {
        run: (f) => {
          start(f);
          for (let pass = first; pass || test(f); pass = false) {
            const r = run(f);
            if (r === BREAK) break;
            if (r === RETURN) return RETURN;
            next(f);
          }
          return NEXT;
        },
      };
    }
    const [start, run, next] = [generator(init), generator(body), update.run as Run];
    return {
      gen: function* (f) {
        yield* start(f);
        for (let pass = first; pass || test(f); pass = false) {
          const r = yield* run(f);
          if (r === BREAK) break;
          if (r === RETURN) return RETURN;
          next(f);
        }
        return NEXT;
      },
    };
  }

  // ---- expressions ----

  #value(e: Expr): (f: Frame) => unknown {
    return e.type === "bool" ? this.#bool(e) : this.#num(e);
  }

  /** An index into an array, checked against its length, for loads, stores and atomics. */
  #index(array: ArrayBinding, index: Expr, at: SourcePosition): (f: Frame, a: HostArray) => number {
    const i = this.#num(index), fn = this.#fn, name = array.name;
    return (f, a) => {
      const n = i(f);
      if (n >= 0 && n < a.length) return n;
      throw new Fault(`${name}[${n}] is out of bounds (length ${a.length}) at ${place(at, fn)}`);
    };
  }

  #num(e: Expr): Num {
    switch (e.op) {
      case "const": {
        const v = e.value as number;
        return () => v;
      }
      case "local": {
        const slot = e.binding.slot;
        return (f) => f.v[slot] as number;
      }
      case "builtin": {
        const { name, axis } = e;
        return (f) => f.t[name][axis];
      }
      case "load": {
        const slot = e.array.slot, index = this.#index(e.array, e.index, e.at);
        return (f) => {
          const a = f.v[slot] as HostArray;
          return a[index(f, a)];
        };
      }
      case "cast":
        return convert(this.#num(e.value), e.type);
      case "neg": {
        const v = this.#num(e.value);
        return e.type === "i32" ? (f) => -v(f) | 0 : (f) => -v(f);
      }
      case "bitnot": {
        const v = this.#num(e.value);
        return (f) => ~v(f);
      }
      case "binary":
        return this.#binary(e);
      case "select": {
        const t = this.#bool(e.test), a = this.#num(e.then), b = this.#num(e.otherwise);
        return (f) => (t(f) ? a(f) : b(f));
      }
      case "math":
        return this.#math(e.fn, e.type, e.args.map((a) => this.#num(a)));
      case "atomic": {
        const slot = e.array.slot, index = this.#index(e.array, e.index, e.at);
        const [v, w] = e.args.map((a) => this.#num(a));
        if (e.fn === "cas") {
          return (f) => {
            const a = f.v[slot] as HostArray;
            return atomicCAS(a, index(f, a), v(f), w(f));
          };
        }
        const op = ATOMIC_JS[e.fn];
        return (f) => {
          const a = f.v[slot] as HostArray;
          return op(a, index(f, a), v(f));
        };
      }
      case "call": {
        const callee = e.callee;
        const args = e.args.map((a) => ("op" in a ? this.#value(a) : arrayOf(a)));
        return (f) => {
          const frame: Frame = { v: new Array(callee.slots), t: f.t, ret: 0 };
          callee.params.forEach((p: Binding, i) => (frame.v[p.slot] = args[i](f)));
          (compiled(callee).run as Run)(frame);
          return frame.ret;
        };
      }
      default:
        throw new TypeError(`Cannot simulate a ${e.op} expression as a number`);
    }
  }

  #bool(e: Expr): Bool {
    switch (e.op) {
      case "const": {
        const v = e.value as boolean;
        return () => v;
      }
      case "local": {
        const slot = e.binding.slot;
        return (f) => f.v[slot] as boolean;
      }
      case "not": {
        const v = this.#bool(e.value);
        return (f) => !v(f);
      }
      case "logical": {
        const a = this.#bool(e.left), b = this.#bool(e.right);
        return e.operator === "&&" ? (f) => a(f) && b(f) : (f) => a(f) || b(f);
      }
      case "select": {
        const t = this.#bool(e.test), a = this.#bool(e.then), b = this.#bool(e.otherwise);
        return (f) => (t(f) ? a(f) : b(f));
      }
      case "compare": {
        const [a, b] = [this.#value(e.left), this.#value(e.right)] as [Num, Num];
        switch (e.operator) {
          case "<":
            return (f) => a(f) < b(f);
          case "<=":
            return (f) => a(f) <= b(f);
          case ">":
            return (f) => a(f) > b(f);
          case ">=":
            return (f) => a(f) >= b(f);
          case "==":
            return (f) => a(f) === b(f);
          case "!=":
            return (f) => a(f) !== b(f);
        }
      }
    }
    throw new TypeError(`Cannot simulate a ${e.op} expression as a boolean`);
  }

  #binary(e: BinaryExpr): Num {
    const a = this.#num(e.left), b = this.#num(e.right);
    const op = arithmetic(e.operator, a, b);
    switch (e.type) {
      case "i32":
        if (e.operator === "*") return (f) => Math.imul(a(f), b(f));
        if (e.operator === "floordiv") return (f) => Math.floor(a(f) / b(f)) | 0;
        return (f) => op(f) | 0;
      case "u32":
        if (e.operator === "*") return (f) => Math.imul(a(f), b(f)) >>> 0;
        return (f) => op(f) >>> 0;
      case "f32":
        return (f) => Math.fround(op(f));
      case "f64":
        return op;
    }
  }

  #math(fn: keyof typeof MATH_JS, type: ScalarType, args: Num[]): Num {
    const g = MATH_JS[fn];
    const [a, b] = args;
    const call: Num = args.length === 1 ? (f) => g(a(f)) : (f) => g(a(f), b(f));
    if (type === "f32") return (f) => Math.fround(call(f));
    if (fn === "abs" && isInt(type)) return (f) => call(f) | 0;
    return call;
  }
}

function arithmetic(operator: BinaryExpr["operator"], a: Num, b: Num): Num {
  switch (operator) {
    case "+":
      return (f) => a(f) + b(f);
    case "-":
      return (f) => a(f) - b(f);
    case "*":
      return (f) => a(f) * b(f);
    case "/":
    case "idiv":
    case "floordiv":
      return (f) => a(f) / b(f);
    case "%":
      return (f) => a(f) % b(f);
    case "&":
      return (f) => a(f) & b(f);
    case "|":
      return (f) => a(f) | b(f);
    case "^":
      return (f) => a(f) ^ b(f);
    case "<<":
      return (f) => a(f) << b(f);
    case ">>":
      return (f) => a(f) >> b(f);
    case ">>>":
      return (f) => a(f) >>> b(f);
  }
}

function convert(v: Num, type: ScalarType): Num {
  switch (type) {
    case "i32":
      return (f) => v(f) | 0;
    case "u32":
      return (f) => v(f) >>> 0;
    case "f32":
      return (f) => Math.fround(v(f));
    case "f64":
      return v;
  }
}

function arrayOf(binding: ArrayBinding): (f: Frame) => unknown {
  const slot = binding.slot;
  return (f) => f.v[slot];
}

function generator(c: Compiled): Gen {
  if (c.gen) return c.gen;
  const run = c.run;
  // deno-lint-ignore require-yield
  return function* (f) {
    return run(f);
  };
}
