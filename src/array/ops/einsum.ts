/**
 * Contractions lowered to one matrix product: `tensordot`, and `einsum` for the two-operand forms
 * whose every index is in both operands or in the output (and the one-operand transposes, diagonal,
 * trace and sum). The operands' axes are permuted (views) into batch, free and summed groups, each
 * group merged into one axis (a view where the layout allows, else a copy, as NumPy's reshape), and
 * `matmul` does the rest, reading transposed operands in place.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { normalizeAxis, showShape } from "../core/layout.ts";
import type { ResultType } from "../core/dtypes.ts";
import { diagonal, reshape, transpose } from "./views.ts";
import { matmul } from "./matmul.ts";
import { flatDot } from "./norm.ts";
import { sum } from "../api/reductions.ts";

function product(extents: readonly number[]): number {
  return extents.reduce((p, d) => p * d, 1);
}

/**
 * `a` and `b` multiplied and summed over the paired axes `summed` (an axis of `a`, one of `b`, of equal
 * extents), matched along the paired axes `batch`: the result's axes are the batch axes, then `a`'s
 * other axes, then `b`'s, each group in its operand's order. The caller checks the extents.
 */
export function contract(
  a: GPUArray,
  b: GPUArray,
  batch: readonly (readonly [number, number])[],
  summed: readonly (readonly [number, number])[],
): GPUArray {
  const bA = batch.map(([i]) => i), bB = batch.map(([, j]) => j);
  const sA = summed.map(([i]) => i), sB = summed.map(([, j]) => j);
  const freeA = a.shape.map((_, i) => i).filter((i) => !bA.includes(i) && !sA.includes(i));
  const freeB = b.shape.map((_, i) => i).filter((i) => !bB.includes(i) && !sB.includes(i));
  const extents = (x: GPUArray, axes: readonly number[]) => axes.map((i) => x.shape[i]!);
  const lead = batch.length > 0 ? [product(extents(a, bA))] : [];
  const s = product(extents(a, sA));
  const views: GPUArray[] = [];
  const view = (x: GPUArray) => (views.push(x), x);
  try {
    const x = view(
      reshape(view(transpose(a, [...bA, ...freeA, ...sA])), [...lead, product(extents(a, freeA)), s]),
    );
    const y = view(
      reshape(view(transpose(b, [...bB, ...sB, ...freeB])), [...lead, s, product(extents(b, freeB))]),
    );
    const flat = view(matmul(x, y));
    return reshape(flat, [...extents(a, bA), ...extents(a, freeA), ...extents(b, freeB)]);
  } finally {
    for (const v of views) v.free();
  }
}

function axisList(axes: number | readonly number[], ndim: number, what: string): number[] {
  if (typeof axes !== "number" && !Array.isArray(axes)) {
    throw new TypeError(`Cannot ${what}: axes ${describe(axes)} are neither an axis nor a list of them`);
  }
  return (typeof axes === "number" ? [axes] : [...axes]).map((x) => normalizeAxis(x, ndim, what));
}

/**
 * The sum of products over the listed axes of `a` and `b` (NumPy's `tensordot`): `axes = n` pairs the
 * last `n` axes of `a` with the first `n` of `b`; `axes = [axesOfA, axesOfB]` pairs them in order.
 * The result has `a`'s other axes, then `b`'s.
 *
 * @throws {RangeError} naming both shapes when paired axes differ in extent, or an axis is out of range.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.ones([3, 4, 5]), b = ga.ones([4, 5, 2]);
 * console.log(ga.tensordot(a, b).shape); // [3, 2], each element 20
 * console.log(ga.tensordot(a, b, [[1], [0]]).shape); // [3, 5, 5, 2]
 * ```
 */
export function tensordot<A extends DType, B extends DType>(
  a: GPUArray<A>,
  b: GPUArray<B>,
  axes: number | readonly [number | readonly number[], number | readonly number[]] = 2,
): GPUArray<ResultType<A, B>> {
  if (!(a instanceof GPUArray) || !(b instanceof GPUArray)) {
    throw new TypeError("Cannot tensordot a non-array: pass two GPUArrays");
  }
  const shapes = `Cannot tensordot arrays of shapes ${showShape(a.shape)} and ${showShape(b.shape)}`;
  let pa: number[], pb: number[];
  if (typeof axes === "number") {
    if (!Number.isInteger(axes) || axes < 0 || axes > a.ndim || axes > b.ndim) {
      throw new RangeError(
        `${shapes}: axes = ${describe(axes)} must be an integer from 0 to the smaller rank`,
      );
    }
    pa = a.shape.map((_, i) => i).slice(a.ndim - axes);
    pb = b.shape.map((_, i) => i).slice(0, axes);
  } else {
    if (!Array.isArray(axes) || axes.length !== 2) {
      throw new TypeError(
        `${shapes}: axes = ${describe(axes)} must be a count or a pair of axis lists, as [[1], [0]]`,
      );
    }
    pa = axisList(axes[0], a.ndim, "tensordot");
    pb = axisList(axes[1], b.ndim, "tensordot");
    if (pa.length !== pb.length || new Set(pa).size !== pa.length || new Set(pb).size !== pb.length) {
      throw new RangeError(`${shapes}: give as many distinct axes of each, in pairs`);
    }
  }
  pa.forEach((i, p) => {
    const j = pb[p]!;
    if (a.shape[i] !== b.shape[j]) {
      throw new RangeError(
        `${shapes}: axis ${i} of the first (${a.shape[i]}) and axis ${j} of the second (${
          b.shape[j]
        }) differ`,
      );
    }
  });
  return contract(a, b, [], pa.map((i, p) => [i, pb[p]!])) as GPUArray<ResultType<A, B>>;
}

const FORMS =
  'the supported forms are two operands where each index is in both or in the output ("ij,jk->ik", ' +
  '"bij,bjk->bik", "bij,bkj->bik", "ij,j->i", "i,j->ij", "i,i->"), and one operand transposed ("ij->ji"), ' +
  'its diagonal ("ii->i"), its trace ("ii->") or its sum ("ij->")';

/**
 * Einstein summation (NumPy's `einsum`, explicit `->` form) for the forms that lower to one matrix
 * product, a view or a whole-array sum:
 *
 * - two operands where every index is in both operands or in the output: `"ij,jk->ik"` (matmul),
 *   `"bij,bjk->bik"` and `"bij,bkj->bik"` (batched), `"ij,j->i"`, `"i,j->ij"` (outer), `"ij,kj->ik"`;
 *   an empty output (`"i,i->"`, `"ij,ij->"`) gives the host number `vdot` gives;
 * - one operand: a permutation (`"ij->ji"`, a view), its diagonal (`"ii->i"`, a view), its trace
 *   (`"ii->"`) or the sum of all its elements (`"ij->"`), those two host values as `sum` gives.
 *
 * Indices are letters; any letters may be used (`"ab,bc->ac"` is `"ij,jk->ik"`).
 *
 * @throws {RangeError} for another form (the message lists the supported ones), a malformed
 *   subscript, or extents that differ for one index.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const q = ga.random.normal([8, 64, 32], { seed: 1 }), k = ga.random.normal([8, 48, 32], { seed: 2 });
 * const scores = ga.einsum("bij,bkj->bik", q, k); // [8, 64, 48], k read transposed in place
 * const t = ga.einsum("ij->ji", scores.slice(0)); // a view
 * const total = ga.einsum("i,i->", ga.ones(4), ga.arange(4)); // 6
 * ```
 */
export function einsum(
  subscripts: `${string}->`,
  ...operands: GPUArray[]
): number | bigint | [number, number];
/**
 * {@link einsum} with an output that has indices: an array (a view for the one-operand transposes and
 * diagonal).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const c = ga.einsum("ij,jk->ik", ga.ones([2, 3]), ga.ones([3, 4])); // [2, 4], each 3
 * ```
 */
export function einsum(subscripts: `${string}->${string}`, ...operands: GPUArray[]): GPUArray;
/**
 * {@link einsum} with subscripts known only when it runs: an array, or a host value where the output
 * has no indices (`[re, im]` for complex operands).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const form: string = "ij->ji";
 * const t = ga.einsum(form, ga.ones([2, 3]));
 * if (t instanceof ga.GPUArray) console.log(t.shape); // [3, 2]
 * ```
 */
export function einsum(
  subscripts: string,
  ...operands: GPUArray[]
): GPUArray | number | bigint | [number, number];
export function einsum(
  subscripts: string,
  ...operands: GPUArray[]
): GPUArray | number | bigint | [number, number] {
  if (typeof subscripts !== "string") throw new TypeError("Cannot einsum: pass the subscripts as a string");
  const text = subscripts.replace(/\s+/g, "");
  const fail = (reason: string) => new RangeError(`Cannot einsum "${subscripts}": ${reason}; ${FORMS}`);
  const parts = text.split("->");
  if (parts.length !== 2) throw fail('write the output after one "->"');
  const [inputs, out] = parts as [string, string];
  const terms = inputs.split(",");
  if (![...terms, out].every((t) => /^[A-Za-z]*$/.test(t))) throw fail("indices must be letters");
  if (terms.length !== operands.length) {
    throw new RangeError(
      `Cannot einsum "${subscripts}": it names ${terms.length} operand(s) and ${operands.length} were given`,
    );
  }
  operands.forEach((x, i) => {
    if (!(x instanceof GPUArray)) throw new TypeError(`Cannot einsum: operand ${i} is not a GPUArray`);
    if (x.ndim !== terms[i]!.length) {
      throw new RangeError(
        `Cannot einsum "${subscripts}": operand ${i} has shape ${showShape(x.shape)}, but "${
          terms[i]
        }" names ${terms[i]!.length} axes`,
      );
    }
  });
  const distinct = (t: string) => new Set(t).size === t.length;
  if (!distinct(out) || [...out].some((c) => !inputs.includes(c))) {
    throw fail("each output index must appear once, and in an operand");
  }
  if (terms.length === 1) {
    const [t] = terms as [string];
    const a = operands[0]!;
    if (distinct(t) && out.length === t.length) return transpose(a, [...out].map((c) => t.indexOf(c)));
    if (distinct(t) && out === "") return sum(a);
    if (t.length === 2 && t[0] === t[1] && out.length <= 1) {
      if (a.shape[0] !== a.shape[1]) {
        throw new RangeError(
          `Cannot einsum "${subscripts}" on an array of shape ${showShape(a.shape)}: index ${t[0]} is ${
            a.shape[0]
          } and ${a.shape[1]}`,
        );
      }
      if (out !== "") return diagonal(a);
      using d = diagonal(a);
      return sum(d);
    }
    throw fail("this one-operand form is not one of them");
  }
  if (terms.length !== 2) throw fail(`it has ${terms.length} operands`);
  const [ta, tb] = terms as [string, string];
  const [a, b] = operands as [GPUArray, GPUArray];
  if (!distinct(ta) || !distinct(tb)) throw fail("an operand repeats an index");
  for (const c of new Set(ta + tb)) {
    const i = ta.indexOf(c), j = tb.indexOf(c);
    if (i >= 0 && j >= 0 && a.shape[i] !== b.shape[j]) {
      throw new RangeError(
        `Cannot einsum "${subscripts}" on arrays of shapes ${showShape(a.shape)} and ${
          showShape(b.shape)
        }: index ${c} is ${a.shape[i]} in the first and ${b.shape[j]} in the second`,
      );
    }
    if ((i < 0 || j < 0) && !out.includes(c)) {
      throw fail(`index ${c} is in one operand only and not in the output`);
    }
  }
  if (out === "") {
    using aligned = transpose(b, [...ta].map((c) => tb.indexOf(c)));
    return flatDot(a, aligned);
  }
  const batch = [...out].filter((c) => ta.includes(c) && tb.includes(c));
  const summed = [...ta].filter((c) => tb.includes(c) && !out.includes(c));
  const result = contract(
    a,
    b,
    batch.map((c) => [ta.indexOf(c), tb.indexOf(c)]),
    summed.map((c) => [ta.indexOf(c), tb.indexOf(c)]),
  );
  const order = [
    ...batch,
    ...[...ta].filter((c) => !tb.includes(c)),
    ...[...tb].filter((c) => !ta.includes(c)),
  ];
  if (order.join("") === out) return result;
  try {
    return transpose(result, [...out].map((c) => order.indexOf(c)));
  } finally {
    result.free();
  }
}
