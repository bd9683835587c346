/**
 * The C of a fused function's elementwise work: a {@link Region} is the elementwise nodes (ufuncs,
 * `where`, `clip`, `astype`) between a root and its leaves (array arguments, captured arrays,
 * reductions), composed into one run of C statements over the leaves' elements. Each node's value is
 * kept in a local of its dtype, converted as storing it would convert it, and read back as the next
 * function reads an operand, so the composed statements give the eager calls' values bit for bit
 * (float16 rounding and integer wrapping included); a node used twice is computed once.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { castTo, computeType, convert, cType, load, preamble } from "../../codegen/c.ts";
import { realOf } from "../core/dtypes.ts";
import type { MapNode, MapOperand, Node, ScalarRef } from "./trace.ts";

/** A scalar parameter of a region: where its value comes from and the dtype it is passed as. */
export interface ScalarUse {
  readonly ref: ScalarRef;
  readonly dtype: DType;
}

/** The composed statements of a region and the C expression of its root's value (as stored). */
export interface Rendered {
  readonly statements: string;
  readonly value: string;
}

/** The elementwise nodes from `root` down to its leaves, which are read as operands. */
export class Region {
  /** The node whose value the region computes. */
  readonly root: Node;
  /** The arrays and reductions the region reads, in order: operand k of its kernels. */
  readonly leaves: readonly Node[];
  /** Its scalar parameters, in order. */
  readonly scalars: readonly ScalarUse[];
  readonly #inner: readonly (MapNode | (Node & { kind: "cast" }))[];
  readonly #slots = new Map<MapOperand, number>();
  #key: string | undefined;
  readonly #helpers = new Map<Dialect, string[]>();

  constructor(root: Node) {
    this.root = root;
    const leaves = new Set<Node>(), inner = new Set<Node>();
    const scalars: ScalarUse[] = [];
    const seen = new Map<string, number>();
    const visit = (n: Node): void => {
      if (leaves.has(n) || inner.has(n)) return;
      if (n.kind !== "map" && n.kind !== "cast") {
        leaves.add(n);
        return;
      }
      inner.add(n);
      if (n.kind === "cast") return visit(n.from);
      for (const op of n.operands) {
        if ("node" in op) visit(op.node);
        else {
          // A JS number is real: a complex operand's is passed as its real dtype and made complex inside.
          const dtype = realOf(op.dtype);
          const id = `${"arg" in op.scalar ? `a${op.scalar.arg}` : scalarText(op.scalar.value)}:${dtype}`;
          let slot = seen.get(id);
          if (slot === undefined) {
            slot = scalars.push({ ref: op.scalar, dtype }) - 1;
            seen.set(id, slot);
          }
          this.#slots.set(op, slot);
        }
      }
    };
    visit(root);
    this.leaves = [...leaves];
    this.scalars = scalars;
    this.#inner = ([...inner] as (MapNode | (Node & { kind: "cast" }))[]).sort((a, b) => a.id - b.id);
  }

  /**
   * The statements computing the root over `leaf[k]` (a C expression of leaf k's stored value, an
   * array element or a row's result) and the scalar parameters `scalar[j]`.
   */
  render(d: Dialect, leaf: readonly string[], scalar: readonly string[]): Rendered {
    const value = new Map<Node, string>();
    this.leaves.forEach((n, k) => value.set(n, leaf[k]!));
    const lines: string[] = [];
    for (const n of this.#inner) {
      let expr: string;
      if (n.kind === "cast") {
        const from = computeType(n.from.dtype);
        expr = castTo(
          convert(load(value.get(n.from)!, n.from.dtype, d), from, computeType(n.dtype), d),
          n.dtype,
          d,
        );
      } else {
        const { types } = n;
        const x = n.operands.map((op, k) =>
          "node" in op
            ? convert(
              load(value.get(op.node)!, op.node.dtype, d),
              computeType(op.node.dtype),
              types.inputs[k]!,
              d,
            )
            : convert(scalar[this.#slots.get(op)!]!, realOf(types.inputs[k]!), types.inputs[k]!, d)
        );
        expr = castTo(n.def.source(x, types.compute, d, types.out), types.out, d);
      }
      lines.push(`const ${cType(n.dtype, d)} f${n.id} = ${expr};`);
      value.set(n, `f${n.id}`);
    }
    return { statements: lines.join(" "), value: value.get(this.root)! };
  }

  /** The headers and helper functions the statements need. */
  helpers(d: Dialect): string {
    return this.helperParts(d).join("\n");
  }

  /** {@link helpers} as separate pieces (the headers, then one piece per helper), so that several regions can share them. */
  helperParts(d: Dialect): string[] {
    const known = this.#helpers.get(d);
    if (known !== undefined) return known;
    const dtypes: DType[] = [];
    const parts = new Set<string>();
    for (const n of this.#inner) {
      dtypes.push(n.dtype);
      if (n.kind === "map") {
        dtypes.push(n.types.compute, ...n.types.inputs);
        const h = n.def.helpers?.(n.types.compute, d);
        if (h) parts.add(h);
      }
    }
    const made = [preamble(dtypes, d), ...parts];
    this.#helpers.set(d, made);
    return made;
  }

  /**
   * Names the statements for kernel keys, from the nodes alone (cheaper than the C they give): each
   * inner node's function, dtypes and operands — leaves as `@k`, scalars as `$j` — and the root.
   */
  get key(): string {
    if (this.#key === undefined) {
      const at = new Map<Node, string>();
      this.leaves.forEach((n, k) => at.set(n, `@${k}`));
      const parts = this.#inner.map((n, i) => {
        const args = n.kind === "cast"
          ? at.get(n.from)!
          : n.operands.map((op) => ("node" in op ? at.get(op.node)! : `$${this.#slots.get(op)}`)).join(",");
        const what = n.kind === "cast"
          ? `cast>${n.dtype}`
          : `${n.name}:${n.types.inputs.join(",")}>${n.types.compute}>${n.types.out}`;
        at.set(n, `%${i}`);
        return `${what}(${args})`;
      });
      this.#key = `${parts.join(";")}=${at.get(this.root)}`;
    }
    return this.#key;
  }
}

function scalarText(v: number | bigint): string {
  return typeof v === "bigint" ? `${v}n` : Object.is(v, -0) ? "-0" : String(v);
}
