/**
 * Differential tests of linear algebra (array-api.md "Linear algebra"): matmul with 1-D operands and
 * broadcast batch axes on transposed and strided views, dot, vdot, inner, outer, tensordot, trace,
 * diagonal and einsum's forms, against the host reference.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { kind } from "./_reference_dtype.ts";
import {
  ALL_DTYPES,
  broadcastable,
  randomInput,
  randomShape,
  type Rng,
  type ValueOptions,
} from "./_cases.ts";
import { Arg, type Case, differential, EXACT, type OpSpec, SUMS } from "./_differential.ts";

const lone = ALL_DTYPES.map((d) => [d]);
const pairs = [...ALL_DTYPES.map((d) => [d, d]), ...ALL_DTYPES.flatMap((a) => ALL_DTYPES.map((b) => [a, b]))];
const fn: OpSpec["forms"] = ["function"];

/** Small values: float sums of products stay exact in any order half the time; integers stay small enough not to wrap often. */
const small = (rng: Rng, d: DType): ValueOptions =>
  kind(d) === "float"
    ? (rng.chance(0.5)
      ? { dyadic: true, extremes: false, specials: rng.chance(0.1) }
      : { extremes: false, specials: false })
    : rng.chance(0.8)
    ? { range: kind(d) === "uint" ? [0, 7] : [-7, 7] }
    : {};
const extent = (rng: Rng) => rng.pick([0, 1, 1, 2, 3, 4, 5, 7, 8, 16]);

function matmulCase(rng: Rng, [da, db]: readonly DType[]): Case {
  const [n, k, m] = [extent(rng), extent(rng), extent(rng)];
  const batch = randomShape(rng, { maxRank: 3, maxSize: 12 });
  const a = rng.chance(0.15) ? [k] : [...broadcastable(rng, batch), n, k];
  const b = rng.chance(0.15) ? [k] : [...broadcastable(rng, batch), k, m];
  if (rng.chance(0.03)) b[b.length - (b.length === 1 ? 1 : 2)] = k + 1; // inner extents differ: RangeError
  return {
    inputs: [randomInput(rng, da!, a, small(rng, da!)), randomInput(rng, db!, b, small(rng, db!))],
    args: [new Arg(0), new Arg(1)],
  };
}

/** Two operands of random rank 0-3 whose contracted axes agree for `dot` or `inner`. */
function dotCase(inner: boolean) {
  return (rng: Rng, [da, db]: readonly DType[]): Case => {
    const k = extent(rng);
    const shape = (rank: number, at: number) =>
      Array.from({ length: rank }, (_, j) => (j === at ? k : rng.int(0, 4)));
    const ra = rng.int(0, 3), rb = rng.int(0, 3);
    const a = shape(ra, ra - 1), b = shape(rb, inner ? rb - 1 : Math.max(0, rb - 2));
    return {
      inputs: [randomInput(rng, da!, a, small(rng, da!)), randomInput(rng, db!, b, small(rng, db!))],
      args: [new Arg(0), new Arg(1)],
    };
  };
}

function flatPairCase(sameSize: boolean) {
  return (rng: Rng, [da, db]: readonly DType[]): Case => {
    const a = randomShape(rng, { maxRank: 3, maxSize: 40 });
    const b = sameSize ? [...a].reverse() : randomShape(rng, { maxRank: 3, maxSize: 40 });
    return {
      inputs: [randomInput(rng, da!, a, small(rng, da!)), randomInput(rng, db!, b, small(rng, db!))],
      args: [new Arg(0), new Arg(1)],
    };
  };
}

function tensordotCase(rng: Rng, [da, db]: readonly DType[]): Case {
  const shared = Array.from({ length: rng.int(0, 2) }, () => rng.int(0, 4));
  const fa = Array.from({ length: rng.int(0, 2) }, () => rng.int(0, 4)),
    fb = Array.from({ length: rng.int(0, 2) }, () => rng.int(0, 4));
  const numbered = rng.chance(0.5);
  const perm = numbered ? [...shared.keys()] : rng.shuffle([...shared.keys()]);
  const a = [...fa, ...shared], b = numbered ? [...shared, ...fb] : [...perm.map((p) => shared[p]!), ...fb];
  const axes = numbered
    ? (rng.chance(0.5) && shared.length === 2 ? [] : [shared.length])
    : [[perm.map((p) => fa.length + p), perm.map((_, j) => j)]];
  return {
    inputs: [randomInput(rng, da!, a, small(rng, da!)), randomInput(rng, db!, b, small(rng, db!))],
    args: [new Arg(0), new Arg(1), ...axes],
  };
}

function diagonalOptions(rng: Rng, ndim: number): Record<string, number>[] {
  if (rng.chance(0.3)) return [];
  const a1 = rng.int(0, ndim - 1), a2 = (a1 + rng.int(1, ndim - 1)) % ndim;
  return [{ offset: rng.int(-3, 3), axis1: a1, axis2: a2 }];
}

function traceCase(rng: Rng, [d]: readonly DType[]): Case {
  const shape = randomShape(rng, { minRank: 2, maxRank: 4, maxSize: 200 });
  return {
    inputs: [randomInput(rng, d!, shape, small(rng, d!))],
    args: [new Arg(0), ...diagonalOptions(rng, shape.length)],
  };
}

/** The einsum forms issue 19 lists, with operands of agreeing extents. */
function einsumCase(rng: Rng, [da, db]: readonly DType[]): Case {
  const size: Record<string, number> = { i: extent(rng), j: extent(rng), k: extent(rng), b: rng.int(0, 4) };
  const form = rng.pick(["ij,jk->ik", "bij,bjk->bik", "i,i->", "ij->ji", "ij,j->i"]);
  const operands = form.split("->")[0]!.split(",");
  const inputs = operands.map((s, k) => {
    const d = k === 0 ? da! : db!;
    return randomInput(rng, d, [...s].map((c) => size[c]!), small(rng, d));
  });
  return { inputs, args: [form, ...inputs.map((_, k) => new Arg(k))] };
}

differential(
  "linear algebra: matmul, dot, vdot, inner, outer, tensordot, trace, diagonal and einsum on random views",
  [
    { op: "matmul", forms: fn, dtypes: pairs, tol: SUMS, make: matmulCase },
    { op: "dot", dtypes: pairs, tol: SUMS, looseHost: true, make: dotCase(false) },
    { op: "vdot", forms: fn, dtypes: pairs, tol: SUMS, looseHost: true, make: flatPairCase(true) },
    { op: "inner", forms: fn, dtypes: pairs, tol: SUMS, looseHost: true, make: dotCase(true) },
    { op: "outer", forms: fn, dtypes: pairs, tol: SUMS, make: flatPairCase(false) },
    { op: "tensordot", forms: fn, dtypes: pairs, tol: SUMS, looseHost: true, make: tensordotCase },
    { op: "trace", dtypes: lone, tol: SUMS, looseHost: true, make: traceCase },
    {
      op: "diagonal",
      dtypes: lone,
      tol: EXACT,
      make: (rng, [d]) => {
        const shape = randomShape(rng, { minRank: 2, maxRank: 4, maxSize: 200 });
        return {
          inputs: [randomInput(rng, d!, shape)],
          args: [new Arg(0), ...diagonalOptions(rng, shape.length)],
        };
      },
    },
    { op: "einsum", forms: fn, dtypes: pairs, tol: SUMS, looseHost: true, make: einsumCase },
  ],
  { cases: 180 },
);
