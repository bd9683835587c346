/**
 * Running a traced function: each call first walks the whole program to find every node's shape from
 * the arguments' shapes and to make the eager calls' checks (broadcasting, scalar ranges, empty axes,
 * the device's dtypes), then computes the result with as few kernels as the program allows:
 *
 * - elementwise work is composed into the kernel that consumes it (`fuse_expr.ts`), so the elementwise
 *   part of the function is one `Loop`;
 * - each reduction is one `Reduction` whose prologue is the elementwise work over its operands;
 * - reductions along one axis with `keepdims` whose results feed elementwise work over the same
 *   shape are stages of one row kernel (`rows.ts`), which reads each row, reduces it and writes the
 *   outputs in one pass;
 * - a reduction whose result is used otherwise is computed first into a temporary array, which the
 *   work after it reads.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { Backend } from "../../device/backend.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { broadcastShapes } from "../core/layout.ts";
import { runLoop } from "../exec/loop.ts";
import { reduceArray, reduceToHost } from "../exec/reduction.ts";
import {
  builtinReduction,
  checkElements,
  type ElementSource,
  foldElement,
  REDUCTIONS,
} from "../ops/reduction_defs.ts";
import { accDTypes } from "../exec/reduction_source.ts";
import type { RowStage } from "../exec/row_source.ts";
import { runRows } from "../exec/rows.ts";
import { Region } from "./expr.ts";
import type { CapturedNode, InputNode, Node, Program, ReduceNode, ScalarRef } from "./trace.ts";
import { scalarType, scalarValue } from "../ops/ufunc.ts";

/** What a traced function returned: a node's value, one of its scalar arguments, or a value it made while tracing. */
export type Output = { readonly node: Node } | { readonly arg: number } | { readonly value: unknown };

/** One trace of a fused function: its program, what it returns, and its regions (kept across calls). */
export interface Trace {
  readonly program: Program;
  readonly output: Output;
  readonly regions: Map<Node, Region>;
}

/** How a run names its kernels and its errors. */
export interface RunNames {
  /** The function's name in errors. */
  readonly what: string;
  /** A C identifier for its kernels. */
  readonly kernel: string;
}

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((d, i) => d === b[i]);

/** Runs `trace` on `args` (checked to match its signature) and returns what the function returns. */
export function execute(
  trace: Trace,
  args: readonly unknown[],
  backend: Backend,
  names: RunNames,
  arrayOf: (node: InputNode | CapturedNode) => GPUArray,
): unknown {
  using run = new Run(trace, args, backend, names, arrayOf);
  return run.result();
}

class Run {
  readonly #trace: Trace;
  readonly #args: readonly unknown[];
  readonly #backend: Backend;
  readonly #names: RunNames;
  readonly #arrayOf: (node: InputNode | CapturedNode) => GPUArray;
  readonly #shapes: (readonly number[])[] = [];
  readonly #memo = new Map<Node, GPUArray>();
  readonly #temps: GPUArray[] = [];

  constructor(
    trace: Trace,
    args: readonly unknown[],
    backend: Backend,
    names: RunNames,
    arrayOf: (node: InputNode | CapturedNode) => GPUArray,
  ) {
    this.#trace = trace;
    this.#args = args;
    this.#backend = backend;
    this.#names = names;
    this.#arrayOf = arrayOf;
    for (const n of trace.program.nodes) this.#shapes[n.id] = this.#check(n);
  }

  [Symbol.dispose](): void {
    for (const t of this.#temps) t.free();
  }

  #value(ref: ScalarRef): number | bigint {
    return "arg" in ref ? this.#args[ref.arg] as number | bigint : ref.value;
  }

  #supports(dtypes: readonly DType[], what: string): void {
    for (const d of dtypes) {
      if (!this.#backend.supports(d)) {
        throw new TypeError(
          `Cannot ${what} on ${this.#backend.device}: it needs ${d} arithmetic, which the device lacks`,
        );
      }
    }
  }

  /** The shape of `n`'s value, after the checks its eager call makes. */
  #check(n: Node): readonly number[] {
    const shape = (m: Node) => this.#shapes[m.id]!;
    switch (n.kind) {
      case "input":
      case "captured":
        return this.#arrayOf(n).shape;
      case "map": {
        for (const op of n.operands) {
          if ("check" in op && op.check !== undefined) {
            scalarType(this.#value(op.scalar), op.check.base, op.check.what, op.check.range);
          }
        }
        const result = broadcastShapes(
          n.operands.flatMap((op) => ("node" in op ? [shape(op.node)] : [])),
          n.what,
        );
        this.#supports([n.types.compute, n.types.out], n.what);
        return result;
      }
      case "cast":
        if (!this.#backend.supports(n.dtype)) {
          throw new TypeError(
            `Cannot make a ${n.dtype} array on ${this.#backend.device}: the device does not support ${n.dtype}`,
          );
        }
        return shape(n.from);
      case "reduce": {
        const from = shape(n.from);
        checkElements(n.op, from, n.axes, n.everyAxis);
        const pieces = REDUCTIONS[n.op].pieces(n.from.dtype, n.dtype, this.#backend.dialect);
        this.#supports([...accDTypes(pieces.acc), n.dtype], n.op);
        if (n.host) return [];
        return n.keepdims
          ? from.map((d, i) => (n.axes.includes(i) ? 1 : d))
          : from.filter((_, i) => !n.axes.includes(i));
      }
    }
  }

  #region(root: Node): Region {
    let r = this.#trace.regions.get(root);
    if (r === undefined) {
      r = new Region(root);
      this.#trace.regions.set(root, r);
    }
    return r;
  }

  /** `node`'s value as an array: an argument, a captured array, or a reduction computed now (once a call). */
  #array(node: Node): GPUArray {
    if (node.kind === "input" || node.kind === "captured") return this.#arrayOf(node);
    let a = this.#memo.get(node);
    if (a === undefined) {
      if (node.kind !== "reduce") throw new Error(`internal: elementwise node ${node.id} read as an array`);
      a = this.#reduce(node);
      this.#temps.push(a);
      this.#memo.set(node, a);
    }
    return a;
  }

  /** The elements `region` computes, over its leaves as arrays, for a reduction. */
  #source(region: Region): ElementSource {
    const d = this.#backend.dialect;
    return {
      key: `|fuse:${region.key}`,
      name: `${this.#names.kernel}_reduce`,
      arrays: region.leaves.map((l) => this.#array(l)),
      values: region.scalars.map((s) => scalarValue(this.#value(s.ref), s.dtype)),
      scalars: region.scalars.map((s) => s.dtype),
      helpers: region.helpers(d),
      dtype: region.root.dtype,
      element: (ref, scalar) => region.render(d, ref, scalar),
    };
  }

  /** Reduction `n` into a new array (0-d for a host value that later work reads). */
  #reduce(n: ReduceNode): GPUArray {
    const red = builtinReduction(n.op, this.#source(this.#region(n.from)), n.dtype, n.values);
    return reduceArray(red, this.#shapes[n.from.id]!, n.axes, n.keepdims, undefined, n.op);
  }

  result(): unknown {
    const output = this.#trace.output;
    if ("value" in output) return output.value;
    if ("arg" in output) return this.#args[output.arg];
    const n = output.node;
    if (n.kind === "input" || n.kind === "captured") return this.#arrayOf(n);
    if (n.kind === "reduce" && n.host) {
      this.#backend.checkHostRead(`${n.op}()`); // before any kernel is queued
      const red = builtinReduction(n.op, this.#source(this.#region(n.from)), n.dtype, n.values);
      const value = reduceToHost(red, this.#shapes[n.from.id]!, n.op);
      const host = REDUCTIONS[n.op].host;
      return host === "number" ? Number(value) : host === "boolean" ? value !== 0 : value;
    }
    if (n.kind === "reduce") return this.#reduce(n);
    return this.#rows(n) ?? this.#loop(n);
  }

  /** Elementwise work `root` as one loop over its leaves. */
  #loop(root: Node): GPUArray {
    const d = this.#backend.dialect;
    const region = this.#region(root);
    const arrays = region.leaves.map((l) => this.#array(l));
    const out = new GPUArray(this.#backend, this.#shapes[root.id]!, root.dtype);
    const k = arrays.length;
    runLoop(
      {
        key: `fuse:${region.key}:${this.#names.kernel}`,
        name: this.#names.kernel,
        arrays: [...arrays, out],
        written: [...arrays.map(() => false), true],
        scalars: region.scalars.map((s) => ({
          value: scalarValue(this.#value(s.ref), s.dtype),
          dtype: s.dtype,
        })),
        helpers: region.helpers(d),
        pure: true,
        statement: (ref, scalar) => {
          const r = region.render(d, ref.slice(0, k), scalar);
          return `{ ${r.statements} ${ref[k]} = ${r.value}; }`;
        },
      },
      out.shape,
      this.#names.what,
    );
    return out;
  }

  /**
   * Elementwise work `root` that reads reductions along one axis (with keepdims) of operands of its
   * own shape, as one row kernel whose stages are those reductions; undefined where there are none.
   */
  #rows(root: Node): GPUArray | undefined {
    const shape = this.#shapes[root.id]!;
    let axis: number | undefined;
    const found: ReduceNode[] = [];
    const candidate = (n: Node): n is ReduceNode =>
      n.kind === "reduce" && !n.host && n.keepdims && n.axes.length === 1 &&
      (axis === undefined || n.axes[0] === axis) && same(this.#shapes[n.from.id]!, shape);
    const visit = (region: Region): void => {
      for (const leaf of region.leaves) {
        if (!candidate(leaf) || found.includes(leaf)) continue;
        axis ??= leaf.axes[0];
        visit(this.#region(leaf.from));
        found.push(leaf);
      }
    };
    visit(this.#region(root));
    if (found.length === 0) return undefined;
    // Other reductions run first; one that needs a stage's result makes that stage an array too.
    for (const n of [root, ...found.map((s) => s.from)]) {
      for (const leaf of this.#region(n).leaves) if (!found.includes(leaf as ReduceNode)) this.#array(leaf);
    }
    const stages = found.filter((s) => !this.#memo.has(s));
    if (stages.length === 0) return undefined;
    const out = new GPUArray(this.#backend, shape, root.dtype);
    runRows(this.#rowWork(root, stages), shape, axis!, out, this.#names.what);
    return out;
  }

  #rowWork(root: Node, stages: readonly ReduceNode[]): Parameters<typeof runRows>[0] {
    const d = this.#backend.dialect;
    const arrays: GPUArray[] = [];
    const at = new Map<Node, number>();
    const values: (number | bigint)[] = [], scalars: DType[] = [];
    const param = (value: number | bigint, dtype: DType) => {
      values.push(scalarValue(value, dtype));
      return scalars.push(dtype) - 1;
    };
    const helpers = new Set<string>();
    // The key names every piece of C the work contributes: each region's own key, where its leaves and
    // scalars go (operand `@k`, stage result `#s` of a dtype, parameter `$j`), the stages' reductions.
    const key: string[] = [`fuse-rows:${this.#names.kernel}`];
    /** The region of `n` with its leaves' places among the operands and its scalars' among the parameters. */
    const bind = (n: Node) => {
      const region = this.#region(n);
      for (const leaf of region.leaves) {
        if (!stages.includes(leaf as ReduceNode) && !at.has(leaf)) {
          at.set(leaf, arrays.push(this.#array(leaf)) - 1);
        }
      }
      const slots = region.scalars.map((s) => param(this.#value(s.ref), s.dtype));
      for (const part of region.helperParts(d)) helpers.add(part);
      const places = region.leaves.map((l) => {
        const s = stages.indexOf(l as ReduceNode);
        return s >= 0 ? `#${s}:${l.dtype}` : `@${at.get(l)}`;
      });
      key.push(`[${places.join(",")}|$${slots.join(",$")}]${region.key}`);
      return (ref: readonly string[], scalar: readonly string[], results: readonly string[]) =>
        region.render(
          d,
          region.leaves.map((l) => {
            const s = stages.indexOf(l as ReduceNode);
            return s >= 0 ? results[s]! : ref[at.get(l)!]!;
          }),
          slots.map((j) => scalar[j]!),
        );
    };
    const rowStages = stages.map((n): RowStage => {
      const pieces = REDUCTIONS[n.op].pieces(n.from.dtype, n.dtype, d);
      const own = (pieces.scalars ?? []).map((t, k) => param(n.values[k]!, t));
      key.push(`${n.op}:${n.from.dtype}>${n.dtype}($${own.join(",$")})`);
      const element = bind(n.from);
      const epilogue = pieces.epilogue ?? ((acc: string) => acc);
      if (pieces.helpers) helpers.add(pieces.helpers);
      return {
        acc: pieces.acc,
        combine: pieces.combine,
        out: n.dtype,
        prologue: (ref, scalar, index, value, results) =>
          foldElement(pieces, n.from.dtype, d, element(ref, scalar, results), index, value),
        epilogue: (acc, scalar, count) => epilogue(acc, own.map((j) => scalar[j]!), count),
      };
    });
    const output = bind(root);
    const code = {
      name: `${this.#names.kernel}_rows`,
      stages: rowStages,
      out: root.dtype,
      scalars,
      helpers: [...helpers].join("\n"),
      output: (
        ref: readonly string[],
        scalar: readonly string[],
        results: readonly string[],
        target: string,
      ) => {
        const r = output(ref, scalar, results);
        return `${r.statements} ${target} = ${r.value};`;
      },
    };
    return { ...code, key: key.join(";"), arrays, values };
  }
}
