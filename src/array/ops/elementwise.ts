/**
 * How an elementwise operation (a NumPy ufunc) is defined, once: its name and NumPy's other names for
 * it, its dtype rule, its scalar expression in the IR of `src/codegen/expr.ts`, whether it is also a
 * method, and its doc line and example. The tables `unary_ops.ts` and `binary_ops.ts` hold one entry
 * per operation; the module's functions, `GPUArray`'s methods and their result types
 * (`src/array/api/`, written by `deno task gen`) and the eager and traced paths (`ufunc.ts`, `fuse`)
 * all come from the entry.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { computeType } from "../../codegen/c.ts";
import { type Expr, ExprBuilder, renderExpr } from "../../codegen/expr.ts";
import { complexOf, realOf, resultType } from "../core/dtypes.ts";
import { conjugated, type GradOps, type Vjp } from "../grad/tape.ts";
import type { GPUArray } from "../core/gpuarray.ts";

/** The dtypes of one application: what the operands are read as, what is computed in, what comes out. */
export interface UfuncTypes {
  /** The dtype each operand is converted to before the expression (a compute type). */
  readonly inputs: readonly DType[];
  /** The dtype of the expression's value (a compute type). */
  readonly compute: DType;
  /** The dtype of the result. */
  readonly out: DType;
}

/** What the loop and fuse generators need of an elementwise function. */
export interface UfuncDef {
  /** How many operands. */
  readonly arity: number;
  /** The dtypes for operands of these dtypes (after NumPy's promotion of scalars), or an error's detail. */
  readonly types: (operands: readonly DType[], what?: string) => UfuncTypes | string;
  /** The C expression of the result, in the compute dtype, from the operands' expressions. */
  readonly source: (x: readonly string[], compute: DType, dialect: Dialect, out: DType) => string;
  /** C helper functions the expression calls, for this compute dtype (each defines a unique name). */
  readonly helpers?: (compute: DType, dialect: Dialect) => string;
}

/**
 * The result-dtype rules, by name: the generator writes a function's TypeScript result type from its
 * rule's name (`RuleResult` in `core/dtypes.ts` is the same table at the type level).
 */
export type RuleName = "same" | "int8ForBool" | "float" | "division" | "bool" | "abs" | "real" | "complex";

/** A dtype rule: its name (for the types) and the dtypes it gives for operands' dtypes. */
export interface Rule {
  /** The rule's name, for the generated result types. */
  readonly name: RuleName;
  /** The dtypes, or an error's detail. */
  readonly types: (operands: readonly DType[], name: string) => UfuncTypes | string;
}

const isFloat = (d: DType) => DTYPES[d].kind === "float";
const isComplex = (d: DType) => DTYPES[d].kind === "complex";

/**
 * The float dtype math functions of `d` give: floats and complex dtypes keep theirs, bool and
 * 8/16-bit integers float32, else float64.
 */
export function mathType(d: DType): DType {
  if (isFloat(d) || isComplex(d)) return d;
  return DTYPES[d].size <= 2 ? "float32" : "float64";
}

const promoted = (operands: readonly DType[]) => operands.reduce(resultType);
const all = (operands: readonly DType[], compute: DType, out: DType): UfuncTypes => ({
  inputs: operands.map(() => compute),
  compute,
  out,
});

/** Arithmetic in the common dtype; `boolAs` is what bool operands become (NumPy gives int8 for some). */
export function arithmetic(boolAs: "bool" | "int8" | "error"): Rule {
  return {
    name: boolAs === "int8" ? "int8ForBool" : "same",
    types: (operands, name) => {
      let common = promoted(operands);
      if (common === "bool") {
        if (boolAs === "error") return `${name} is not defined for bool arrays`;
        common = boolAs;
      }
      return all(operands, computeType(common), common);
    },
  };
}

/** Float math: floats keep their dtype, integers and bools become a float wide enough. */
export const floatRule: Rule = {
  name: "float",
  types: (operands) => {
    const out = mathType(promoted(operands));
    return all(operands, computeType(out), out);
  },
};

/** True division: floats keep their dtype, integers and bools give float64. */
export const divisionRule: Rule = {
  name: "division",
  types: (operands) => {
    const common = promoted(operands);
    const out = isFloat(common) || isComplex(common) ? common : "float64";
    return all(operands, computeType(out), out);
  },
};

/** Comparisons: both operands in their common compute dtype, a bool result. */
export const comparisonRule: Rule = {
  name: "bool",
  types: (operands) => all(operands, computeType(promoted(operands)), "bool"),
};

/** A float test (`isclose`): operands compared as the float dtype of their common dtype, a bool result. */
export const floatComparisonRule: Rule = {
  name: "bool",
  types: (operands) => all(operands, computeType(mathType(promoted(operands))), "bool"),
};

/** Logic: each operand tested in its own dtype (`!= 0`), a bool result. */
export const logicalRule: Rule = {
  name: "bool",
  types: (operands) => ({ inputs: operands.map(computeType), compute: "int32", out: "bool" }),
};

/** A predicate of one operand in its own dtype (`isnan`). */
export const predicateRule: Rule = {
  name: "bool",
  types: ([a]) => ({ inputs: [computeType(a!)], compute: computeType(a!), out: "bool" }),
};

/** `abs`: every dtype keeps its own, but a complex number's magnitude is real (complex64 gives float32). */
export const absRule: Rule = {
  name: "abs",
  types: ([a]) => ({ inputs: [computeType(a!)], compute: computeType(a!), out: realOf(a!) }),
};

/** A real part of float math (`angle`, `real`): complex dtypes give their parts' float dtype, others {@link floatRule}'s. */
export const realRule: Rule = {
  name: "real",
  types: ([a]) => {
    const out = realOf(mathType(a!));
    return { inputs: [computeType(mathType(a!))], compute: computeType(mathType(a!)), out };
  },
};

/** `complex(re, im)`: two real operands, in the float dtype of their common one, make a complex number. */
export const complexRule: Rule = {
  name: "complex",
  types: (operands, name) => {
    if (operands.some(isComplex)) return `${name} takes real parts, not ${operands.join(" and ")}`;
    const out = complexOf(promoted(operands));
    return { inputs: operands.map(() => realOf(out)), compute: out, out };
  },
};

/** Unary functions that keep integers and bools as they are (`abs`, `floor`). */
export const keepsDtype: Rule = {
  name: "same",
  types: ([a]) => ({ inputs: [computeType(a!)], compute: computeType(a!), out: a! }),
};

/** Bitwise functions: integers and bools only (bools become `boolAs`). */
export function bitwise(boolAs: "bool" | "int8"): Rule {
  return {
    name: boolAs === "int8" ? "int8ForBool" : "same",
    types: (operands, name) => {
      let common = promoted(operands);
      if (isFloat(common)) return `${name} needs integer or bool arrays, not ${common}`;
      if (common === "bool") common = boolAs;
      return all(operands, computeType(common), common);
    },
  };
}

/** One elementwise operation, as its table entry defines it. */
export interface OpEntry {
  /** NumPy's other names for it (`multiply` for `mul`): functions and methods of the same entry. */
  readonly aliases?: readonly string[];
  /** The dtype rule. */
  readonly rule: Rule;
  /** The result from the operands, in the compute dtype (`out` is the result's dtype). */
  readonly expr: (e: ExprBuilder, x: readonly Expr[], out: DType) => Expr;
  /** Scalar parameters taken from the options object after the operands, with their defaults (`isclose`'s `rtol`). */
  readonly params?: Readonly<Record<string, number | boolean>>;
  /**
   * Whether it is defined on complex numbers: `true` where {@link expr} serves them too (the IR
   * renders complex arithmetic and math calls through the complex library), or the expression for a
   * complex compute dtype. Without it, complex operands are a clear error.
   */
  readonly complex?: true | ((e: ExprBuilder, x: readonly Expr[], out: DType) => Expr);
  /** Whether `GPUArray` has it as a method too (default true). */
  readonly method?: boolean;
  /** The doc line. */
  readonly doc: string;
  /** The body of the doc's example (`ga` is the array module). */
  readonly example: string;
  /**
   * The vector-Jacobian rule (see `grad/tape.ts`), written with array operations; `"zero"` where the
   * result is piecewise constant (`floor`, `sign`). An entry with a float result and neither cannot be
   * differentiated through (a clear error says so). Bool and integer results need none.
   */
  readonly vjp?: Vjp | "zero";
  /**
   * Operands the operation refuses though their dtypes fit (an integer to a negative power): given the
   * operands and the result's dtype, a message to throw now, or for an array that only the device can
   * look into, a 0-d bool array (true: refused) and the message that reading the result throws.
   */
  readonly check?: (
    operands: readonly unknown[],
    out: DType,
  ) => string | readonly [GPUArray, string] | undefined;
}

/** An operation of the table, ready to run: the entry with its name, arity and generators. */
export interface ElementwiseOp extends UfuncDef, OpEntry {
  /** The name (a function of the module). */
  readonly name: string;
  /** How many array operands (parameters come after them). */
  readonly arity: number;
  /** The parameters' names, in the order they follow the operands. */
  readonly paramNames: readonly string[];
}

/** The op `entry` defines, named `name`, of `arity` array operands. */
export function defineOp(name: string, arity: number, entry: OpEntry): ElementwiseOp {
  const helperMemo = new Map<string, string>();
  const build = (compute: DType, out: DType) => {
    const e = new ExprBuilder(compute);
    const count = arity + Object.keys(entry.params ?? {}).length;
    const expr = e.complex && typeof entry.complex === "function" ? entry.complex : entry.expr;
    return expr(e, Array.from({ length: count }, (_, i) => e.operand(i)), out);
  };
  return {
    ...entry,
    name,
    arity,
    paramNames: Object.keys(entry.params ?? {}),
    types: (operands, what = name) => {
      if (entry.complex === undefined && operands.some(isComplex)) {
        return `${what} is not defined for complex numbers (${
          operands.join(", ")
        }); take ga.real(), ga.imag() or ga.abs() first`;
      }
      return entry.rule.types(operands, what);
    },
    source: (x, compute, dialect, out) => renderExpr(build(compute, out), x, dialect, new Set()),
    helpers: (compute, dialect) => {
      const key = `${compute}|${dialect}`;
      let h = helperMemo.get(key);
      if (h === undefined) {
        const found = new Set<string>();
        renderExpr(build(compute, compute), [], dialect, found);
        helperMemo.set(key, h = [...found].join("\n"));
      }
      return h;
    },
  };
}

/** Defines each entry of `table` as an op of `arity` operands named by its key. */
export function defineOps<K extends string>(
  arity: 1 | 2,
  table: Readonly<Record<K, OpEntry>>,
): Readonly<Record<K, ElementwiseOp>> {
  const ops = {} as Record<K, ElementwiseOp>;
  for (const name of Object.keys(table) as K[]) ops[name] = defineOp(name, arity, table[name]);
  return ops;
}

/** An operand as a rule sees it: an array, or a scalar (as a number). */
export type RuleOperand = GPUArray | number;

/**
 * A unary op's rule from the gradient `g`, the operand `x` and the result `y` (their conjugates where
 * complex, see `conjugated` in `grad/tape.ts`; only those the rule declares are made).
 */
export function unaryVjp(rule: (g: GPUArray, x: GPUArray, y: GPUArray, ops: GradOps) => GPUArray): Vjp {
  const reads = rule.length;
  return (g, c) => {
    const x = c.inputs[0] as GPUArray;
    return [rule(g, reads > 1 ? conjugated(x) : x, reads > 2 ? conjugated(c.output) : c.output, c.ops)];
  };
}

/**
 * A binary op's rule from the gradient `g`, the operands (scalars as numbers) and the result `y`; it
 * computes the gradients `need` asks for (the others may be undefined). Complex operands and result come
 * conjugated (see `conjugated` in `grad/tape.ts`), those the rule declares only.
 */
export function binaryVjp(
  rule: (
    g: GPUArray,
    a: RuleOperand,
    b: RuleOperand,
    y: GPUArray,
    need: readonly boolean[],
    ops: GradOps,
  ) => readonly (GPUArray | undefined)[],
): Vjp {
  const operand = (x: unknown) =>
    (typeof x === "bigint" || typeof x === "boolean" ? Number(x) : x) as RuleOperand;
  const reads = rule.length;
  return (g, c) =>
    rule(
      g,
      reads > 1 ? conjugated(operand(c.inputs[0])) : operand(c.inputs[0]),
      reads > 2 ? conjugated(operand(c.inputs[1])) : operand(c.inputs[1]),
      reads > 3 ? conjugated(c.output) : c.output,
      c.need,
      c.ops,
    );
}
