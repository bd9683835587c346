/**
 * The fused functions the differential test of `ga.fuse()` runs, each with the inputs it takes: how
 * many arrays (of which dtypes), which scalars, the ranks and values it needs. Each is written as
 * ordinary eager code; the test runs it eagerly and fused on the same random inputs.
 */

import * as ga from "../../src/array/mod.ts";
import type { DType } from "../../src/kernel/dtype.ts";
import type { ValueOptions } from "./_cases.ts";

type A = ga.GPUArray;

/** A scalar argument's kind. */
export type ScalarKind = "int" | "small" | "float" | "bigint";

/** One fused function under test. */
export interface FusedFunction {
  readonly name: string;
  /** The dtype tuples its array arguments are drawn with (the first array has the full shape). */
  readonly dtypes: readonly (readonly DType[])[];
  /** Its scalar arguments, after the arrays. */
  readonly scalars?: readonly ScalarKind[];
  /** Ranks of the first array (default 0..4). */
  readonly rank?: readonly [number, number];
  /** The values to draw (default any, NaN and infinities included). */
  readonly values?: ValueOptions;
  /** A host number it returns is an index, compared exactly. */
  readonly exactHost?: boolean;
  /** Whether the other arrays broadcast to the first's shape (default) or have it exactly. */
  readonly sameShape?: boolean;
  readonly fn: (...args: never[]) => unknown;
}

const keep = { keepdims: true } as const;
/** Sums of floats in another order: no extremes, so that no order overflows where another does not. */
const SUMMABLE: ValueOptions = { extremes: false };

/** The catalogue: elementwise chains, reductions over every axis and along axes, and row work. */
export const FUNCTIONS: readonly FusedFunction[] = [
  {
    name: "exp(x * a + y) * 0.5",
    dtypes: [["float32", "float32"]],
    scalars: ["float"],
    fn: (x: A, y: A, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5),
  },
  {
    name: "x * x + 3y - x * y, wrapping for integers",
    dtypes: [["float32", "float32"], ["int8", "int8"], ["int32", "uint8"], ["float16", "float16"], [
      "bfloat16",
      "float32",
    ]],
    fn: (x: A, y: A) => x.mul(x).add(y.mul(3)).sub(x.mul(y)),
  },
  {
    name: "where(x > y, x - y, 2y)",
    dtypes: [["float32", "float32"], ["int16", "int32"]],
    fn: (x: A, y: A) => ga.where(x.gt(y), x.sub(y), y.mul(2)),
  },
  {
    name: "where with scalars on both sides",
    dtypes: [["float32"], ["int8"]],
    scalars: ["int", "float"],
    fn: (c: A, a: number, b: number) => ga.where(c.gt(0), a, b),
  },
  {
    name: "logical and comparisons",
    dtypes: [["float32", "float32"], ["int32", "bool"]],
    fn: (x: A, y: A) => x.gt(0).logicalAnd(y.lt(1)).logicalOr(x.eq(y)).logicalXor(x.ne(0)),
  },
  {
    name: "bitwise work and shifts",
    dtypes: [["int32", "int32"], ["uint8", "uint8"], ["int64", "int16"]],
    scalars: ["small"],
    fn: (x: A, y: A, s: number) => x.bitwiseAnd(y).bitwiseXor(x.leftShift(s)).bitwiseOr(y.rightShift(1)),
  },
  {
    name: "math functions",
    dtypes: [["float32"], ["float64"], ["int16"]],
    fn: (x: A) => x.abs().add(1).log().sqrt().mul(x.sign()).add(x.tanh()),
  },
  {
    name: "astype between float and integer dtypes",
    dtypes: [["float32"]],
    values: { range: [-1000, 1000] },
    fn: (x: A) => x.mul(3.7).astype("int16").add(1).astype("float32").div(3).astype("uint8"),
  },
  {
    name: "clip by a scalar argument and a constant",
    dtypes: [["float32"], ["int32"]],
    scalars: ["int"],
    fn: (x: A, lo: number) => x.clip(lo, null).sub(x.clip(null, 1)),
  },
  {
    name: "floorDivide and mod",
    dtypes: [["int32", "int32"], ["float32", "float32"]],
    values: { nonzero: true },
    fn: (x: A, y: A) => x.floorDivide(y).add(x.mod(y)),
  },
  {
    name: "pow, maximum, fmin and hypot",
    dtypes: [["float32", "float32"], ["float64", "float32"]],
    fn: (x: A, y: A) => x.abs().pow(0.5).maximum(y).fmin(x.hypot(y)),
  },
  {
    name: "the sum of squared differences (a host value)",
    dtypes: [["float32", "float32"], ["int32", "int32"], ["int8", "uint8"]],
    values: SUMMABLE,
    fn: (x: A, y: A) => x.sub(y).square().sum(),
  },
  {
    name: "mean along the last axis, then more work",
    dtypes: [["float32"], ["int16"]],
    rank: [1, 4],
    values: SUMMABLE,
    fn: (x: A) => x.mean({ axis: -1 }).add(1).mul(2),
  },
  {
    name: "rows normalised by their Euclidean norm",
    dtypes: [["float32"], ["float64"], ["float16"]],
    rank: [1, 4],
    values: SUMMABLE,
    fn: (x: A) => x.div(x.square().sum({ axis: -1, ...keep }).sqrt()),
  },
  {
    name: "softmax written out with max, exp and sum",
    dtypes: [["float32"], ["int16"]],
    rank: [1, 4],
    values: SUMMABLE,
    fn: (x: A) => {
      const e = x.sub(x.max({ axis: -1, ...keep })).exp();
      return e.div(e.sum({ axis: -1, ...keep }));
    },
  },
  {
    name: "columns standardised by mean and std (two stages along axis 0)",
    dtypes: [["float32"], ["int32"]],
    rank: [1, 3],
    values: SUMMABLE,
    fn: (x: A) => x.sub(x.mean({ axis: 0, ...keep })).div(x.std({ axis: 0, ...keep }).add(1e-3)),
  },
  {
    name: "rows scaled by another operand's row sums",
    dtypes: [["float32", "float32"]],
    rank: [1, 3],
    values: SUMMABLE,
    sameShape: true,
    fn: (x: A, y: A) => x.mul(y.abs().sum({ axis: -1, ...keep })).add(y),
  },
  {
    name: "var along axis 0 with ddof 1",
    dtypes: [["float32"], ["uint8"]],
    rank: [1, 4],
    values: SUMMABLE,
    fn: (x: A) => x.var({ axis: 0, ddof: 1 }),
  },
  {
    name: "argmax along the last axis, plus one",
    dtypes: [["float32"], ["int8"]],
    rank: [1, 4],
    fn: (x: A) => x.argmax({ axis: -1, ...keep }).add(1),
  },
  {
    name: "argmin of everything (a host number)",
    dtypes: [["float32", "float32"], ["int8", "int8"]],
    exactHost: true,
    fn: (x: A, y: A) => x.sub(y).abs().argmin(),
  },
  {
    name: "any along axis 0 and all along axis 0",
    dtypes: [["float32", "float32"], ["int32", "int8"]],
    rank: [1, 4],
    fn: (x: A, y: A) => x.gt(y).any({ axis: 0 }).logicalAnd(x.ne(0).all({ axis: 0 })),
  },
  {
    name: "all of everything (a host boolean)",
    dtypes: [["float32"], ["int16"]],
    fn: (x: A) => x.ne(0).logicalOr(x.isnan()).all(),
  },
  {
    name: "max minus min over two axes, broadcast back",
    dtypes: [["float32"], ["int32"]],
    rank: [2, 4],
    fn: (x: A) => x.sub(x.min({ axis: [0, -1], ...keep })).div(x.max({ axis: [0, -1], ...keep }).add(1)),
  },
  {
    name: "prod along axis 0 of x + 1",
    dtypes: [["float32"], ["int32"]],
    rank: [1, 3],
    values: { range: [-3, 3] },
    fn: (x: A) => x.add(1).prod({ axis: 0 }),
  },
  {
    name: "centred by the host mean, scaled by the host std",
    dtypes: [["float32"], ["float64"]],
    values: SUMMABLE,
    fn: (x: A) => x.sub(x.mean()).div(x.std()),
  },
  {
    name: "the mean of squared deviations from row means (nested reductions)",
    dtypes: [["float32"], ["int16"]],
    rank: [1, 4],
    values: SUMMABLE,
    fn: (x: A) => x.sub(x.mean({ axis: -1, ...keep })).square().mean(),
  },
  {
    name: "row sums broadcast against a larger operand",
    dtypes: [["float32", "float32"], ["int32", "int64"]],
    rank: [1, 3],
    values: SUMMABLE,
    fn: (x: A, y: A) => x.sum({ axis: -1, ...keep }).add(y),
  },
  {
    name: "rounding and float predicates",
    dtypes: [["float32"], ["float64"]],
    fn: (x: A) =>
      x.round().add(x.floor()).sub(x.ceil().mul(x.trunc())).add(x.isinf()).add(x.isfinite().logicalNot()),
  },
  {
    name: "rows centred by nanmean and scaled by nanmax - nanmin (NaNs skipped)",
    dtypes: [["float32"], ["float64"]],
    rank: [1, 3],
    values: SUMMABLE,
    fn: (x: A) =>
      x.sub(x.nanmean({ axis: -1, ...keep })).div(
        x.nanmax({ axis: -1, ...keep }).sub(x.nanmin({ axis: -1, ...keep })).add(1),
      ),
  },
  {
    name: "columns less their logsumexp, plus their ptp",
    dtypes: [["float32"], ["int16"]],
    rank: [1, 3],
    values: SUMMABLE,
    fn: (x: A) => x.sub(x.logsumexp({ axis: 0, ...keep })).add(x.ptp({ axis: 0, ...keep })),
  },
  {
    name: "invert, reciprocal and countNonzero of integers",
    dtypes: [["int32"], ["uint8"], ["int64"]],
    rank: [1, 3],
    fn: (x: A) => x.invert().add(x.reciprocal()).add(x.countNonzero({ axis: 0, ...keep })),
  },
  {
    name: "bigint scalars with 64-bit integers",
    dtypes: [["int64"], ["uint64"]],
    scalars: ["bigint"],
    fn: (x: A, b: bigint) => x.add(b).mul(x).sub(x.floorDivide(3)),
  },
];
