/**
 * The host reference's linear algebra: `matmul` with NumPy's rules (1-D operands promoted and the
 * added axis removed, batch axes broadcast), `dot`, `vdot`, `inner`, `outer`, `tensordot`, `trace`
 * and `einsum`. Products are summed exactly for integers (wrapped to the result dtype), in float64
 * for floats (rounded once), and as "any of and" for bool, as NumPy does.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { fromFn, type Ref } from "./_reference.ts";
import { cast, isBig, kind, resultType, type Value } from "./_reference_dtype.ts";
import { axesOf, broadcastShapes, indices } from "./_reference_shape.ts";
import { mul } from "./_reference_ufunc.ts";
import { type Host, sum } from "./_reference_reduce.ts";

/** The sum of `a_k * b_k` (or of products of several factors) in dtype `d`. */
function sumOfProducts(terms: Value[][], d: DType): Value | boolean {
  if (d === "bool") return terms.some((t) => t.every((v) => v !== 0));
  if (kind(d) === "float") return terms.reduce((s, t) => s + t.reduce<number>((p, v) => p * Number(v), 1), 0);
  return terms.reduce((s, t) => s + t.reduce<bigint>((p, v) => p * BigInt(v), 1n), 0n);
}

function mismatch(what: string, a: Ref, b: Ref): never {
  throw new RangeError(`Cannot ${what} arrays of shapes [${a.shape.join(", ")}] and [${b.shape.join(", ")}]`);
}

/** NumPy's `matmul`: 1-D operands become a row (left) or a column (right), batch axes broadcast. */
export function matmul(a: Ref, b: Ref): Ref {
  if (a.ndim === 0 || b.ndim === 0) throw new RangeError("Cannot matmul a 0-d array: use mul()");
  const x = a.ndim === 1 ? a.expandDims(0) : a, y = b.ndim === 1 ? b.expandDims(-1) : b;
  const [n, k] = x.shape.slice(-2) as [number, number], [k2, m] = y.shape.slice(-2) as [number, number];
  if (k !== k2) mismatch("matmul", a, b);
  const batch = broadcastShapes(x.shape.slice(0, -2), y.shape.slice(0, -2));
  const at = (z: Ref, bi: number[], r: number, c: number) => {
    const lead = batch.length - (z.ndim - 2);
    return z.get([...z.shape.slice(0, -2).map((d, j) => (d === 1 ? 0 : bi[lead + j]!)), r, c]);
  };
  const d = resultType(a.dtype, b.dtype);
  const full = fromFn(d, [...batch, n, m], (i) => {
    const bi = i.slice(0, -2), r = i.at(-2)!, c = i.at(-1)!;
    return sumOfProducts(Array.from({ length: k }, (_, j) => [at(x, bi, r, j), at(y, bi, j, c)]), d);
  });
  const drop = [...(a.ndim === 1 ? [full.ndim - 2] : []), ...(b.ndim === 1 ? [full.ndim - 1] : [])];
  return drop.length === 0 ? full : full.squeeze(drop).copy();
}

/** Sums products over axis `ia` of `a` and axis `ib` of `b`; the result's axes are a's others then b's. */
function contract(a: Ref, b: Ref, ia: number[], ib: number[], what: string): Ref {
  if (ia.some((p, j) => a.shape[p] !== b.shape[ib[j]!])) mismatch(what, a, b);
  const fa = [...a.shape.keys()].filter((p) => !ia.includes(p)),
    fb = [...b.shape.keys()].filter((p) => !ib.includes(p));
  const shared = ia.map((p) => a.shape[p]!);
  const d = resultType(a.dtype, b.dtype);
  const inner = indices(shared);
  return fromFn(d, [...fa.map((p) => a.shape[p]!), ...fb.map((p) => b.shape[p]!)], (i) => {
    const terms = inner.map((s) => {
      const ja = new Array<number>(a.ndim), jb = new Array<number>(b.ndim);
      fa.forEach((p, o) => (ja[p] = i[o]!));
      fb.forEach((p, o) => (jb[p] = i[fa.length + o]!));
      ia.forEach((p, o) => (ja[p] = s[o]!));
      ib.forEach((p, o) => (jb[p] = s[o]!));
      return [a.get(ja), b.get(jb)];
    });
    return sumOfProducts(terms, d);
  });
}

/** NumPy's `dot`: products of 0-d operands, the inner product of vectors, else a sum over a's last and b's second-to-last axis. */
export function dot(a: Ref, b: Ref): Ref {
  if (a.ndim === 0 || b.ndim === 0) return mul(a, b);
  return contract(a, b, [a.ndim - 1], [Math.max(0, b.ndim - 2)], "dot");
}

/** The sum of products of the flattened arrays, as a host value. */
export function vdot(a: Ref, b: Ref): Host {
  if (a.size !== b.size) mismatch("vdot", a, b);
  const d = resultType(a.dtype, b.dtype), x = a.values(), y = b.values();
  const v = cast(sumOfProducts(x.map((v, k) => [v, y[k]!]), d), d);
  return d === "bool" ? v === 1 : isBig(d) ? BigInt(v) : Number(v);
}

/** Sums products over the last axes of both. */
export function inner(a: Ref, b: Ref): Ref {
  if (a.ndim === 0 || b.ndim === 0) return mul(a, b);
  return contract(a, b, [a.ndim - 1], [b.ndim - 1], "inner");
}

/** Every product of an element of flattened `a` with one of flattened `b`. */
export const outer = (a: Ref, b: Ref): Ref => mul(a.ravel().expandDims(1), b.ravel().expandDims(0));

/** Sums products over `axes`: N (a's last N with b's first N) or [a's axes, b's axes]. */
export function tensordot(a: Ref, b: Ref, axes: number | readonly (number | readonly number[])[] = 2): Ref {
  let ia: number[], ib: number[];
  if (typeof axes === "number") {
    if (axes > a.ndim || axes > b.ndim) mismatch("tensordot", a, b);
    ia = [...Array(axes).keys()].map((k) => a.ndim - axes + k);
    ib = [...Array(axes).keys()];
  } else {
    ia = axesOf(axes[0] as number | number[], a.ndim, "tensordot");
    ib = axesOf(axes[1] as number | number[], b.ndim, "tensordot");
    if (ia.length !== ib.length) mismatch("tensordot", a, b);
  }
  return contract(a, b, ia, ib, "tensordot");
}

/** The sum along a diagonal (the dtype is `sum`'s). */
export function trace(a: Ref, options: { offset?: number; axis1?: number; axis2?: number } = {}): Ref {
  return sum(a.diagonal(options), { axis: -1 }) as Ref;
}

/** `einsum` for any subscripts without ellipses: explicit (`ij,jk->ik`) or implicit (`ij,jk`) output. */
export function einsum(subscripts: string, ...operands: Ref[]): Ref {
  const [lhs, rhs] = subscripts.replaceAll(" ", "").split("->") as [string, string | undefined];
  const inputs = lhs.split(",");
  if (inputs.length !== operands.length) {
    throw new RangeError(`Cannot einsum "${subscripts}" of ${operands.length} operands`);
  }
  const size = new Map<string, number>();
  inputs.forEach((s, k) => {
    if (s.length !== operands[k]!.ndim) {
      throw new RangeError(`Cannot einsum "${subscripts}": operand ${k} has ${operands[k]!.ndim} axes`);
    }
    [...s].forEach((c, j) => {
      const n = operands[k]!.shape[j]!;
      if (size.has(c) && size.get(c) !== n) {
        throw new RangeError(`Cannot einsum "${subscripts}": "${c}" has two extents`);
      }
      size.set(c, n);
    });
  });
  const out = rhs ??
    [...size.keys()].filter((c) => [...lhs].filter((x) => x === c).length === 1).sort().join("");
  const summed = [...size.keys()].filter((c) => !out.includes(c));
  const sums = indices(summed.map((c) => size.get(c)!));
  const d = operands.map((x) => x.dtype).reduce(resultType);
  return fromFn(d, [...out].map((c) => size.get(c)!), (i) => {
    const letter = new Map<string, number>();
    [...out].forEach((c, k) => letter.set(c, i[k]!));
    const terms = sums.map((s) => {
      summed.forEach((c, k) => letter.set(c, s[k]!));
      return operands.map((x, k) => x.get([...inputs[k]!].map((c) => letter.get(c)!)));
    });
    return sumOfProducts(terms, d);
  });
}
