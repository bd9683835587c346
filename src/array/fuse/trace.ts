/**
 * Tracing for `ga.fuse()`: the stand-ins a fused function is called with (a {@link Traced} for each
 * array argument, a {@link TracedScalar} for each number or bigint) and the {@link Program} of nodes
 * that calling it records. The array module's entry points — the elementwise functions (`apply`),
 * `where`, `clip`, `astype` and the reductions — take the same path for stand-ins as for arrays, with
 * the same dtype rules and checks, and at its end record a node instead of running a kernel.
 *
 * @module
 */

import { type DType, DTYPES, isDType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import { type ReduceOp, REDUCTIONS } from "../ops/reduction_defs.ts";
import type { UfuncDef, UfuncTypes } from "../ops/elementwise.ts";

/** What kind of JS value a scalar argument is: NumPy's weak-scalar promotion depends on it. */
export type ScalarKind = "integer" | "number" | "bigint" | "boolean";

/** Where a scalar operand's value comes from: an argument of the call, or a constant of the function. */
export type ScalarRef = { readonly arg: number } | { readonly value: number | bigint };

/** The checks an argument scalar gets at each call (its value is not known when tracing). */
export interface ScalarCheck {
  /** The dtype of the operation's arrays (undefined: none). */
  readonly base: DType | undefined;
  /** The operation, as errors name it. */
  readonly what: string;
  /** Whether an integer must fit the dtype it takes. */
  readonly range: boolean;
}

/** An operand of an elementwise node: another node's value, or a scalar parameter of `dtype`. */
export type MapOperand =
  | { readonly node: Node }
  | { readonly scalar: ScalarRef; readonly dtype: DType; readonly check?: ScalarCheck };

interface NodeBase {
  /** Its place in the program (the order it was recorded in). */
  readonly id: number;
  /** The dtype of its value. */
  readonly dtype: DType;
  /** The rank of its value. */
  readonly rank: number;
}

/** An array argument. */
export interface InputNode extends NodeBase {
  readonly kind: "input";
  readonly arg: number;
}

/** An array the function uses without being passed it (a closure's, or one made while tracing). */
export interface CapturedNode extends NodeBase {
  readonly kind: "captured";
  readonly array: GPUArray;
}

/** An elementwise function of the ufunc table (or `where`, `clip`). */
export interface MapNode extends NodeBase {
  readonly kind: "map";
  /** The function's name in kernel keys. */
  readonly name: string;
  readonly def: UfuncDef;
  readonly types: UfuncTypes;
  readonly operands: readonly MapOperand[];
  /** The operation, as errors name it. */
  readonly what: string;
}

/** `astype`. */
export interface CastNode extends NodeBase {
  readonly kind: "cast";
  readonly from: Node;
}

/** A built-in reduction. */
export interface ReduceNode extends NodeBase {
  readonly kind: "reduce";
  readonly op: ReduceOp;
  readonly from: Node;
  /** The reduced axes, sorted. */
  readonly axes: readonly number[];
  readonly keepdims: boolean;
  /** Over every axis with no keepdims: a host value. */
  readonly host: boolean;
  /** No axis was given (it reduces the whole array). */
  readonly everyAxis: boolean;
  /** Its scalar parameters (ddof). */
  readonly values: readonly number[];
}

/** One step of a traced function. */
export type Node = InputNode | CapturedNode | MapNode | CastNode | ReduceNode;

/** Distributes `Omit` over the node kinds. */
type NewNode = Node extends infer N ? N extends Node ? Omit<N, "id"> : never : never;

/** The nodes one trace of a function recorded, in order. */
export class Program {
  readonly nodes: Node[] = [];
  readonly #captured = new Map<GPUArray, CapturedNode>();

  /** Records `node`. */
  add<N extends NewNode>(node: N): N & { readonly id: number } {
    const made = { ...node, id: this.nodes.length };
    this.nodes.push(made as Node);
    return made;
  }

  /** The node of an array the function uses without being passed it. */
  capture(array: GPUArray): CapturedNode {
    let node = this.#captured.get(array);
    if (node === undefined) {
      node = this.add({ kind: "captured", array, dtype: array.dtype, rank: array.ndim });
      this.#captured.set(array, node);
    }
    return node;
  }
}

/** Errors that tracing passes on as they are: the eager checks' own, and fuse's about unsupported steps. */
const known = new WeakSet<object>();

/** Whether `e` is an error to pass on unchanged (see {@link asEager}). */
export function isKnownError(e: unknown): boolean {
  return typeof e === "object" && e !== null && known.has(e);
}

/** A TypeError about a step a fused function cannot take, passed on as it is. */
export function fuseError(message: string): TypeError {
  const e = new TypeError(message);
  known.add(e);
  return e;
}

let eagerDepth = 0;

/** Whether an entry point called with `operands` must run through {@link asEager} first. */
export function needsTag(operands: readonly unknown[]): boolean {
  return eagerDepth === 0 && operands.some(isTraced);
}

/**
 * Runs an entry point of the array module on traced operands: an error it throws is the eager call's
 * own (a dtype or scalar check), which tracing passes on unchanged.
 */
export function asEager<T>(work: () => T): T {
  eagerDepth++;
  try {
    return work();
  } catch (e) {
    if (typeof e === "object" && e !== null) known.add(e);
    throw e;
  } finally {
    eagerDepth--;
  }
}

let current: Program | undefined;

/** Runs `fn` with `program` recording. */
export function tracing<T>(program: Program, fn: () => T): T {
  const before = current;
  current = program;
  try {
    return fn();
  } finally {
    current = before;
  }
}

/** The program stand-ins of this trace record into. */
function programOf(operands: readonly unknown[]): Program {
  const program = current;
  for (const x of operands) {
    if ((x instanceof Traced || x instanceof TracedScalar) && x.program !== program) {
      throw fuseError(
        "Cannot use an array or scalar of a ga.fuse() trace outside it: the stand-ins a fused function is called with exist only while it is traced; do not keep them",
      );
    }
  }
  return program!;
}

/**
 * The stand-in for an array argument while a fused function is traced: it has the argument's dtype
 * and rank, and the methods fused functions support (its shape is known only when the function runs).
 */
export class Traced {
  /** The node whose value it stands for. */
  readonly node: Node;
  /** The program it belongs to. */
  readonly program: Program;

  constructor(node: Node, program: Program) {
    this.node = node;
    this.program = program;
  }

  /** The dtype. */
  get dtype(): DType {
    return this.node.dtype;
  }

  /** The number of dimensions. */
  get ndim(): number {
    return this.node.rank;
  }

  /** What `console.log` shows. */
  [Symbol.for("Deno.customInspect")](): string {
    return `<a traced ${this.dtype} array of ${this.ndim} dimensions>`;
  }
}

/** A value of each kind, for the promotion rules (which depend on the kind alone). */
const SAMPLES: Record<ScalarKind, number | bigint | boolean> = {
  integer: 0,
  number: 0.5,
  bigint: 0n,
  boolean: false,
};

/**
 * The stand-in for a number or bigint argument (a kernel parameter, so that other values need no new
 * kernel), or for the host value a whole-array reduction gives while tracing. It cannot take part in
 * JS arithmetic.
 */
export class TracedScalar {
  /** What kind of value it stands for. */
  readonly kind: ScalarKind;
  /** The argument it stands for, or the reduction whose host value it is. */
  readonly source: { readonly arg: number } | { readonly node: ReduceNode };
  /** The program it belongs to. */
  readonly program: Program;

  constructor(kind: ScalarKind, source: TracedScalar["source"], program: Program) {
    this.kind = kind;
    this.source = source;
    this.program = program;
  }

  /** A value of its kind, for the dtype rules. */
  get sample(): number | bigint | boolean {
    return SAMPLES[this.kind];
  }

  /** Refused: its value is not known while tracing. */
  valueOf(): never {
    throw fuseError(
      `Cannot use ${this.#what()} as a JS value inside ga.fuse(): its value is known only when the fused function runs, so it takes part in array operations only (x.mul(a), not a * 2); compute host values outside the fused function`,
    );
  }

  /** Refused, as {@link valueOf}. */
  [Symbol.toPrimitive](): never {
    return this.valueOf();
  }

  #what(): string {
    return "arg" in this.source
      ? `scalar argument ${this.source.arg}`
      : `the host value of ${this.source.node.op}()`;
  }
}

/** Whether `x` is a stand-in of a trace. */
export function isTraced(x: unknown): x is Traced | TracedScalar {
  return x instanceof Traced || x instanceof TracedScalar;
}

/** Whether `x` is an array or an array's stand-in. */
export function isArrayLike(x: unknown): x is GPUArray | Traced {
  return x instanceof GPUArray || x instanceof Traced;
}

/** `typeof x` as eager errors say it, a stand-in scalar named as the JS value it stands for. */
export function kindOf(x: unknown): string {
  if (x instanceof TracedScalar) return x.kind === "integer" ? "number" : x.kind;
  return x === null ? "null" : typeof x;
}

function isFloat(d: DType | undefined): boolean {
  return d !== undefined && DTYPES[d].kind === "float";
}

/**
 * Records an elementwise function whose dtypes are already decided (`types`): `operands` are arrays,
 * stand-ins and scalars, `base` the dtype of the operation's arrays a scalar argument is promoted
 * against, and `range` whether its value must fit.
 */
export function recordMap(
  name: string,
  def: UfuncDef,
  types: UfuncTypes,
  operands: readonly unknown[],
  options: { readonly out?: unknown } | undefined,
  what: string,
  base: DType | undefined,
  range: boolean,
): Traced {
  const program = programOf(operands);
  if (options?.out !== undefined) {
    throw fuseError(
      `Cannot ${what} into out inside ga.fuse(): a fused function makes its result; write it where you want it after the call (ga.assign())`,
    );
  }
  let rank = 0;
  const ops = operands.map((x, k): MapOperand => {
    if (x instanceof Traced) return { node: x.node };
    if (x instanceof GPUArray) return { node: program.capture(x) };
    if (x instanceof TracedScalar) {
      if ("arg" in x.source) {
        return { scalar: { arg: x.source.arg }, dtype: types.inputs[k]!, check: { base, what, range } };
      }
      if (!isFloat(base)) {
        throw fuseError(
          `Cannot ${what} the host value of ${x.source.node.op}() and ${
            base === undefined ? "another scalar" : `a ${base} array`
          } inside ga.fuse(): the result's dtype would depend on the value (a weak scalar); reduce with keepdims: true to keep an array, or convert with astype() to a float dtype first`,
        );
      }
      return { node: x.source.node };
    }
    return { scalar: { value: x as number | bigint }, dtype: types.inputs[k]! };
  });
  for (const op of ops) if ("node" in op) rank = Math.max(rank, op.node.rank);
  return new Traced(
    program.add({ kind: "map", name, def, types, operands: ops, what, dtype: types.out, rank }),
    program,
  );
}

/** Records `astype`. */
export function recordCast(a: Traced, dtype: DType): Traced {
  const program = programOf([a]);
  if (!isDType(dtype)) {
    throw new TypeError(
      `Cannot make an array of dtype "${dtype}": use one of ${Object.keys(DTYPES).join(", ")}`,
    );
  }
  return new Traced(program.add({ kind: "cast", from: a.node, dtype, rank: a.node.rank }), program);
}

/** Records reduction `op` of `a`: an array along axes, or a host value's stand-in over every axis. */
export function recordReduce(
  op: ReduceOp,
  a: Traced,
  out: DType,
  options:
    | { readonly axis?: number | readonly number[]; readonly keepdims?: boolean; readonly out?: unknown }
    | undefined,
  values: readonly number[],
): Traced | TracedScalar {
  const program = programOf([a]);
  if (options?.out !== undefined) {
    throw fuseError(
      `Cannot ${op} into out inside ga.fuse(): a fused function makes its result; write it where you want it after the call (ga.assign())`,
    );
  }
  const axes = normalizeAxes(options?.axis, a.ndim, op);
  const keepdims = options?.keepdims === true;
  const host = options?.axis === undefined && !keepdims;
  const rank = host ? 0 : keepdims ? a.ndim : a.ndim - axes.length;
  const node = program.add({
    kind: "reduce",
    op,
    from: a.node,
    axes,
    keepdims,
    host,
    everyAxis: options?.axis === undefined,
    values,
    dtype: out,
    rank,
  });
  if (!host) return new Traced(node, program);
  const kind = REDUCTIONS[op].host === "boolean"
    ? "boolean"
    : REDUCTIONS[op].host === "value" && DTYPES[out].size === 8 && DTYPES[out].kind !== "float"
    ? "bigint"
    : "number";
  return new TracedScalar(kind, { node }, program);
}
