/**
 * The typed intermediate representation that the parser produces and the emitters and the simulator
 * consume. Every expression carries its type; every implicit conversion is an explicit `cast`.
 *
 * @module
 */

import type { SourcePosition } from "./errors.ts";
import type { Locate } from "./locate.ts";
import type { ElementType, ReturnType, ScalarType, ValueType } from "./types.ts";

/** A scalar parameter or local. */
export interface ScalarBinding {
  /** Scalar or array. */
  readonly kind: "scalar";
  /** The JavaScript name. */
  readonly name: string;
  /** The index of its value in a simulated frame. */
  readonly slot: number;
  /** Its type. */
  readonly type: ValueType;
  /** Whether it can be assigned (`let` locals and scalar parameters). */
  readonly mutable: boolean;
}

/** An array parameter or a shared array. */
export interface ArrayBinding {
  /** Scalar or array. */
  readonly kind: "array";
  /** The JavaScript name. */
  readonly name: string;
  /** The index of the array in a simulated frame. */
  readonly slot: number;
  /** The element type. */
  readonly element: ElementType;
  /** A parameter in global memory or a block's shared array. */
  readonly space: "global" | "shared";
  /** The element count of a shared array; 0 for parameters, whose length the kernel does not know. */
  readonly length: number;
}

/** A parameter, local or shared array. */
export type Binding = ScalarBinding | ArrayBinding;

/** The thread-geometry variables. */
export type BuiltinName = "threadIdx" | "blockIdx" | "blockDim" | "gridDim";

/** Arithmetic and bit operators, with both operands of the node's type (except shift counts). */
export type BinaryOp =
  | "+"
  | "-"
  | "*"
  | "/" // float division
  | "%" // integer remainder or float fmod
  | "idiv" // integer division truncating toward zero: `(a / b) | 0`
  | "floordiv" // integer division rounding down: `Math.floor(a / b)`
  | "&"
  | "|"
  | "^"
  | "<<"
  | ">>" // on i32
  | ">>>"; // on u32

/** Comparison operators, on two operands of one type. */
export type CompareOp = "<" | "<=" | ">" | ">=" | "==" | "!=";

/** The `Math` functions kernels can call. */
export type MathFn =
  | "sqrt"
  | "exp"
  | "log"
  | "sin"
  | "cos"
  | "tan"
  | "tanh"
  | "pow"
  | "abs"
  | "min"
  | "max"
  | "floor"
  | "ceil"
  | "round"
  | "hypot"
  | "atan2";

/** The atomics. */
export type AtomicFn = "add" | "sub" | "max" | "min" | "exch" | "cas";

/** A typed expression. */
export type Expr =
  | ConstExpr
  | { readonly op: "local"; readonly type: ValueType; readonly binding: ScalarBinding }
  | { readonly op: "builtin"; readonly type: "i32"; readonly name: BuiltinName; readonly axis: 0 | 1 | 2 }
  | LoadExpr
  | { readonly op: "cast"; readonly type: ScalarType; readonly value: Expr }
  | { readonly op: "neg"; readonly type: ScalarType; readonly value: Expr }
  | { readonly op: "bitnot"; readonly type: "i32"; readonly value: Expr }
  | { readonly op: "not"; readonly type: "bool"; readonly value: Expr }
  | BinaryExpr
  | CompareExpr
  | {
    readonly op: "logical";
    readonly type: "bool";
    readonly operator: "&&" | "||";
    readonly left: Expr;
    readonly right: Expr;
  }
  | SelectExpr
  | { readonly op: "math"; readonly type: ScalarType; readonly fn: MathFn; readonly args: readonly Expr[] }
  | AtomicExpr
  | CallExpr;

/**
 * A constant. `weak` marks a literal (or compile-time constant) whose type is not settled yet: it
 * adopts the type of the other operand, as `2.5` does in `x * 2.5`.
 */
export interface ConstExpr {
  /** The node kind. */
  readonly op: "const";
  /** Its type (for a weak constant, the type it gets standing alone). */
  readonly type: ValueType;
  /** The value. */
  readonly value: number | boolean;
  /** `"int"` or `"float"` for a literal that adopts the other operand's type. */
  readonly weak?: "int" | "float";
}

/** An array element read. */
export interface LoadExpr {
  /** The node kind. */
  readonly op: "load";
  /** The element's read type. */
  readonly type: ScalarType;
  /** The array. */
  readonly array: ArrayBinding;
  /** The index, i32 or u32. */
  readonly index: Expr;
  /** Where the read is, for out-of-bounds reports. */
  readonly at: SourcePosition;
}

/** A binary arithmetic or bit operation. */
export interface BinaryExpr {
  /** The node kind. */
  readonly op: "binary";
  /** The result type. */
  readonly type: ScalarType;
  /** The operator. */
  readonly operator: BinaryOp;
  /** The left operand. */
  readonly left: Expr;
  /** The right operand. */
  readonly right: Expr;
}

/** A comparison. */
export interface CompareExpr {
  /** The node kind. */
  readonly op: "compare";
  /** Always bool. */
  readonly type: "bool";
  /** The operator. */
  readonly operator: CompareOp;
  /** The left operand. */
  readonly left: Expr;
  /** The right operand, of the left's type. */
  readonly right: Expr;
}

/** A conditional (`test ? then : otherwise`); `weak` when both branches are weak constants. */
export interface SelectExpr {
  /** The node kind. */
  readonly op: "select";
  /** The type of both branches. */
  readonly type: ValueType;
  /** The condition, bool. */
  readonly test: Expr;
  /** The value when true. */
  readonly then: Expr;
  /** The value when false. */
  readonly otherwise: Expr;
  /** Set when both branches are weak, so that the whole adopts the other operand's type. */
  readonly weak?: "int" | "float";
}

/** An atomic read-modify-write; its value is the old element. */
export interface AtomicExpr {
  /** The node kind. */
  readonly op: "atomic";
  /** The element's read type. */
  readonly type: ScalarType;
  /** Which atomic. */
  readonly fn: AtomicFn;
  /** The array. */
  readonly array: ArrayBinding;
  /** The index. */
  readonly index: Expr;
  /** The operand (for `cas`: the compare value, then the new value), of the element's type. */
  readonly args: readonly Expr[];
  /** Where it is, for out-of-bounds reports. */
  readonly at: SourcePosition;
}

/** A call of a device function. */
export interface CallExpr {
  /** The node kind. */
  readonly op: "call";
  /** What the device function returns. */
  readonly type: ScalarType | "void";
  /** The device function. */
  readonly callee: FunctionIR;
  /** One argument per parameter: a converted scalar, or an array parameter of the caller. */
  readonly args: readonly (Expr | ArrayBinding)[];
}

/** A statement. */
export type Stmt =
  | { readonly kind: "let"; readonly binding: ScalarBinding; readonly init: Expr }
  | { readonly kind: "shared"; readonly binding: ArrayBinding }
  | { readonly kind: "assign"; readonly binding: ScalarBinding; readonly value: Expr }
  | StoreStmt
  | { readonly kind: "expr"; readonly expr: Expr }
  | {
    readonly kind: "if";
    readonly test: Expr;
    readonly then: readonly Stmt[];
    readonly otherwise: readonly Stmt[];
  }
  | LoopStmt
  | { readonly kind: "break" }
  | { readonly kind: "continue" }
  | { readonly kind: "return"; readonly value: Expr | null }
  | { readonly kind: "barrier"; readonly id: number; readonly at: SourcePosition }
  | { readonly kind: "block"; readonly body: readonly Stmt[] };

/** A statement that is one C expression: an assignment, a store or a call. */
export type EffectStmt = Extract<Stmt, { readonly kind: "assign" | "store" | "expr" }>;

/** Whether a statement is one C expression. */
export function isEffect(s: Stmt): s is EffectStmt {
  return s.kind === "assign" || s.kind === "store" || s.kind === "expr";
}

/** An array element write. */
export interface StoreStmt {
  /** The statement kind. */
  readonly kind: "store";
  /** The array. */
  readonly array: ArrayBinding;
  /** The index, i32 or u32. */
  readonly index: Expr;
  /** The value; the array's conversion (rounding, wrapping) applies. */
  readonly value: Expr;
  /** Where the write is. */
  readonly at: SourcePosition;
}

/** A `while`, `do`/`while` or `for` loop. */
export interface LoopStmt {
  /** The statement kind. */
  readonly kind: "loop";
  /** Which loop it was in the source (a `for` runs `update` after the body and after `continue`). */
  readonly form: "while" | "do" | "for";
  /** A `for` loop's initializers. */
  readonly init: readonly Stmt[];
  /** The condition, bool; null for `for (;;)`. */
  readonly test: Expr | null;
  /** A `for` loop's updates: assignments, stores and calls. */
  readonly update: readonly EffectStmt[];
  /** The body. */
  readonly body: readonly Stmt[];
}

/** A translated kernel or device function. */
export interface FunctionIR {
  /** Kernel or device function. */
  readonly kind: "kernel" | "device";
  /** The C name (sanitized). */
  readonly name: string;
  /** The parameters in order. */
  readonly params: readonly Binding[];
  /** What it returns (void for kernels). */
  readonly returns: ReturnType;
  /** The body. */
  readonly body: readonly Stmt[];
  /** Simulated frame size: one slot per binding. */
  readonly slots: number;
  /** The source position of each barrier, by id. */
  readonly barriers: readonly SourcePosition[];
  /** Where a source position is in the user's file, when that can be known (for messages). */
  readonly locate: Locate;
}

/** The direct subexpressions of an expression (array arguments of calls are not expressions). */
export function children(e: Expr): readonly Expr[] {
  switch (e.op) {
    case "load":
      return [e.index];
    case "cast":
    case "neg":
    case "bitnot":
    case "not":
      return [e.value];
    case "binary":
    case "compare":
    case "logical":
      return [e.left, e.right];
    case "select":
      return [e.test, e.then, e.otherwise];
    case "math":
      return e.args;
    case "atomic":
      return [e.index, ...e.args];
    case "call":
      return e.args.filter((a): a is Expr => "op" in a);
    default:
      return [];
  }
}

/** Visits every statement of a body, nested ones included, and every expression in them. */
export function walk(body: readonly Stmt[], visit: { stmt?(s: Stmt): void; expr?(e: Expr): void }): void {
  const expr = (e: Expr): void => {
    visit.expr?.(e);
    children(e).forEach(expr);
  };
  for (const s of body) {
    visit.stmt?.(s);
    switch (s.kind) {
      case "let":
        expr(s.init);
        break;
      case "assign":
        expr(s.value);
        break;
      case "store":
        expr(s.index);
        expr(s.value);
        break;
      case "expr":
        expr(s.expr);
        break;
      case "return":
        if (s.value) expr(s.value);
        break;
      case "if":
        expr(s.test);
        walk(s.then, visit);
        walk(s.otherwise, visit);
        break;
      case "loop":
        walk(s.init, visit);
        if (s.test) expr(s.test);
        walk(s.update, visit);
        walk(s.body, visit);
        break;
      case "block":
        walk(s.body, visit);
        break;
    }
  }
}
