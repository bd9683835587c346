/**
 * The names a kernel may use without declaring them (`Math.*`, casts, atomics, thread geometry), and
 * what to tell the user about each JavaScript construct the JIT does not translate.
 *
 * @module
 */

import type { AtomicFn, BuiltinName, MathFn } from "./ir.ts";
import type { ElementType, ScalarType } from "./types.ts";

/** The `Math` functions, with how many arguments each takes (`Infinity`: two or more). */
export const MATH_FUNCTIONS: Readonly<Record<string, { readonly fn: MathFn; readonly arity: number }>> = {
  sqrt: { fn: "sqrt", arity: 1 },
  exp: { fn: "exp", arity: 1 },
  log: { fn: "log", arity: 1 },
  sin: { fn: "sin", arity: 1 },
  cos: { fn: "cos", arity: 1 },
  tan: { fn: "tan", arity: 1 },
  tanh: { fn: "tanh", arity: 1 },
  pow: { fn: "pow", arity: 2 },
  abs: { fn: "abs", arity: 1 },
  min: { fn: "min", arity: Infinity },
  max: { fn: "max", arity: Infinity },
  floor: { fn: "floor", arity: 1 },
  ceil: { fn: "ceil", arity: 1 },
  round: { fn: "round", arity: 1 },
  hypot: { fn: "hypot", arity: 2 },
  atan2: { fn: "atan2", arity: 2 },
};

/** JavaScript's implementation of each Math function, for constant folding and the simulator. */
export const MATH_JS: Readonly<Record<MathFn, (...args: number[]) => number>> = {
  sqrt: Math.sqrt,
  exp: Math.exp,
  log: Math.log,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  tanh: Math.tanh,
  pow: Math.pow,
  abs: Math.abs,
  min: Math.min,
  max: Math.max,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  hypot: Math.hypot,
  atan2: Math.atan2,
};

/** The `Math` constants, which act as float literals. */
export const MATH_CONSTANTS: Readonly<Record<string, number>> = {
  PI: Math.PI,
  E: Math.E,
  LN2: Math.LN2,
  LN10: Math.LN10,
  LOG2E: Math.LOG2E,
  LOG10E: Math.LOG10E,
  SQRT2: Math.SQRT2,
  SQRT1_2: Math.SQRT1_2,
};

/** The casts: `i32(x)` and friends. */
export const CASTS: Readonly<Record<string, ScalarType>> = { i32: "i32", u32: "u32", f32: "f32", f64: "f64" };

/** The atomics, with the element types each works on. */
export const ATOMICS: Readonly<
  Record<
    string,
    { readonly fn: AtomicFn; readonly operands: 1 | 2; readonly elements: readonly ElementType[] }
  >
> = {
  atomicAdd: { fn: "add", operands: 1, elements: ["i32", "u32", "f32"] },
  atomicSub: { fn: "sub", operands: 1, elements: ["i32", "u32", "f32"] },
  atomicMax: { fn: "max", operands: 1, elements: ["i32", "u32"] },
  atomicMin: { fn: "min", operands: 1, elements: ["i32", "u32"] },
  atomicExch: { fn: "exch", operands: 1, elements: ["i32", "u32", "f32"] },
  atomicCAS: { fn: "cas", operands: 2, elements: ["i32", "u32"] },
};

/** The thread-geometry variables. */
export const GEOMETRY: ReadonlySet<string> = new Set<BuiltinName>([
  "threadIdx",
  "blockIdx",
  "blockDim",
  "gridDim",
]);

/** Every name the JIT gives a meaning without a declaration. */
export const INTRINSIC_NAMES: ReadonlySet<string> = new Set([
  ...GEOMETRY,
  ...Object.keys(CASTS),
  ...Object.keys(ATOMICS),
  "Math",
  "grid",
  "shared",
  "syncthreads",
  "Infinity",
  "NaN",
]);

const FUNCTION_FIX = "define a device function with device() and pass it in options.use";

/** What to say about each unsupported node type: the construct, then the fix. */
export const UNSUPPORTED: Readonly<Record<string, string>> = {
  ObjectExpression: "object literals are not supported: kernels work on numbers and typed-array parameters",
  ObjectPattern: "object destructuring is not supported: declare each value with its own const",
  ArrayExpression:
    "array literals are not supported: declare block memory with shared.array(type, size) or pass an array parameter",
  ArrayPattern: "array destructuring is only supported as `const [x, y] = grid(2)`",
  FunctionExpression: `function expressions are not supported: ${FUNCTION_FIX}`,
  ArrowFunctionExpression: `function expressions are not supported: ${FUNCTION_FIX}`,
  FunctionDeclaration: `nested functions are not supported: ${FUNCTION_FIX}`,
  ThisExpression: "`this` is not supported: pass what the kernel needs as parameters",
  Super: "`super` is not supported: pass what the kernel needs as parameters",
  SpreadElement: "spread (...) is not supported: pass each argument",
  RestElement: "rest parameters are not supported: list each parameter",
  TemplateLiteral: "strings are not supported: kernels work on numbers",
  TaggedTemplateExpression: "strings are not supported: kernels work on numbers",
  NewExpression: "`new` is not supported: allocate arrays on the host and pass them as parameters",
  ClassExpression: "classes are not supported: kernels work on numbers and typed-array parameters",
  ClassDeclaration: "classes are not supported: kernels work on numbers and typed-array parameters",
  TryStatement: "try is not supported: kernels cannot throw; check conditions with if and return early",
  ThrowStatement: "throw is not supported: kernels cannot throw; check conditions with if and return early",
  SwitchStatement: "switch is not supported: use if/else",
  ForInStatement: "for...in is not supported: use a counting for loop",
  ForOfStatement: "for...of is not supported: use a counting for loop",
  LabeledStatement: "labeled statements are not supported: restructure the loops or use a flag",
  DebuggerStatement: "debugger is not supported: remove it",
  AwaitExpression: "await is not supported: kernels are synchronous",
  YieldExpression: "yield is not supported: kernels are plain functions",
  ChainExpression: "optional chaining (?.) is not supported: index arrays directly",
  MetaProperty: "new.target and import.meta are not supported: remove them",
  ImportExpression: "import() is not supported: kernels cannot load modules",
  AssignmentPattern: "default values are not supported: pass every argument",
};
