/**
 * Differential tests of reductions, scans and softmax (array-api.md "Reductions", "Scans etc."):
 * random views, dtypes, axes (a number, a list, none), keepdims, ddof and NaNs against the host reference.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { kind } from "./_reference_dtype.ts";
import { ALL_DTYPES, randomInput, randomShape, type Rng, type ValueOptions } from "./_cases.ts";
import {
  Arg,
  ARITH,
  type Case,
  differential,
  EXACT,
  MATH,
  type OpSpec,
  SUMS,
  type Tolerance,
} from "./_differential.ts";

const lone = ALL_DTYPES.map((d) => [d]);
const NON_BOOL = lone.filter(([d]) => d !== "bool");
const FLOATS = lone.filter(([d]) => kind(d!) === "float");
const PRODUCTS: Tolerance = { ulps: 256, scaled: true };
const SPREAD: Tolerance = { ulps: 512, global: "squares" };

/** Values that keep float sums exact in any order half the time, with NaN and ±inf now and then. */
function values(rng: Rng, d: DType, small: boolean): ValueOptions {
  if (kind(d) === "float") {
    return rng.chance(0.5)
      ? { dyadic: true, extremes: false }
      : small
      ? { range: [-2, 2] }
      : { extremes: false };
  }
  return small ? { range: kind(d) === "uint" ? [0, 3] : [-3, 3] } : {};
}

/** An axis argument: absent, a number, a list of distinct axes (maybe empty), negative ones included. */
function axisArg(rng: Rng, ndim: number, single: boolean): number | number[] | undefined {
  if (ndim === 0 || rng.chance(0.3)) return undefined;
  const pick = () => rng.int(-ndim, ndim - 1);
  if (single || rng.chance(0.5)) return pick();
  const axes = rng.shuffle([...Array(ndim).keys()]).slice(0, rng.int(0, ndim));
  return axes.map((a) => (rng.chance(0.3) ? a - ndim : a));
}

/** A reduction case: a random view, and `{ axis, keepdims, ddof }` drawn to suit the op. */
function reductionCase(options: { single?: boolean; ddof?: boolean; small?: boolean; nan?: boolean } = {}) {
  return (rng: Rng, [d]: readonly DType[]): Case => {
    const shape = randomShape(rng, { maxSize: 300 });
    const base = values(rng, d!, options.small ?? false);
    const input = randomInput(rng, d!, shape, {
      ...base,
      specials: (options.nan ?? false) || rng.chance(0.3),
    });
    const axis = axisArg(rng, shape.length, options.single ?? false);
    const o: Record<string, unknown> = {};
    if (axis !== undefined) o.axis = axis;
    if (axis !== undefined && rng.chance(0.3)) o.keepdims = true;
    if (options.ddof && rng.chance(0.5)) o.ddof = rng.int(0, 2);
    return {
      inputs: [input],
      args: Object.keys(o).length === 0 && rng.chance(0.5) ? [new Arg(0)] : [new Arg(0), o],
    };
  };
}

function reduction(
  op: string,
  dtypes: readonly (readonly DType[])[],
  tol: Tolerance,
  options?: Parameters<typeof reductionCase>[0],
  forms?: OpSpec["forms"],
): OpSpec {
  return { op, dtypes, tol, make: reductionCase(options), forms };
}
const fn: OpSpec["forms"] = ["function"];

differential("reductions along axes with keepdims on random views", [
  reduction("sum", lone, SUMS),
  reduction("prod", lone, PRODUCTS, { small: true }),
  reduction("mean", lone, SUMS),
  reduction("min", lone, EXACT),
  reduction("max", lone, EXACT),
  reduction("ptp", NON_BOOL, EXACT),
  reduction("argmin", lone, EXACT, { single: true }),
  reduction("argmax", lone, EXACT, { single: true }),
  reduction("any", lone, EXACT),
  reduction("all", lone, EXACT),
  reduction("var", lone, SPREAD, { ddof: true }),
  reduction("std", lone, SPREAD, { ddof: true }),
  reduction("countNonzero", lone, EXACT, {}, fn),
  reduction("nansum", lone, SUMS, { nan: true }, fn),
  reduction("nanmean", lone, SUMS, { nan: true }, fn),
  reduction("nanmin", lone, EXACT, { nan: true }, fn),
  reduction("nanmax", lone, EXACT, { nan: true }, fn),
  reduction("logsumexp", lone, { ...MATH, global: "inputs" }, {}, fn),
], { cases: 300 });

/** A scan case: a random view and an axis (sometimes absent: the op's default). */
function scanCase(options: { minRank: number; small?: boolean; n?: boolean; specials?: boolean }) {
  return (rng: Rng, [d]: readonly DType[]): Case => {
    const shape = randomShape(rng, { minRank: options.minRank, maxSize: 300 });
    const base = values(rng, d!, options.small ?? false);
    const input = randomInput(rng, d!, shape, { ...base, specials: options.specials ?? rng.chance(0.3) });
    const o: Record<string, unknown> = {};
    if (shape.length > 0 && rng.chance(0.7)) o.axis = rng.int(-shape.length, shape.length - 1);
    if (options.n) o.n = rng.int(0, 3);
    return { inputs: [input], args: Object.keys(o).length === 0 ? [new Arg(0)] : [new Arg(0), o] };
  };
}

differential("scans, diff, softmax and logSoftmax along axes of random views", [
  { op: "cumsum", dtypes: lone, tol: SUMS, make: scanCase({ minRank: 0 }) },
  { op: "cumprod", dtypes: lone, tol: PRODUCTS, make: scanCase({ minRank: 0, small: true }) },
  { op: "diff", forms: fn, dtypes: lone, tol: ARITH, make: scanCase({ minRank: 1, n: true }) },
  { op: "softmax", forms: fn, dtypes: FLOATS, tol: MATH, make: scanCase({ minRank: 1, specials: false }) },
  {
    op: "logSoftmax",
    forms: fn,
    dtypes: FLOATS,
    tol: { ...MATH, global: "inputs" },
    make: scanCase({ minRank: 1, specials: false }),
  },
], { cases: 100 });

// What predates views: whole-array sum, min and max, as functions and methods, on contiguous arrays.
// Integer sums (bigint results) are left to the test above: before issue 19 they came back as numbers.
differential(
  "whole-array sum, min and max that predate views (contiguous)",
  [
    reduction("sum", FLOATS, SUMS),
    ...["min", "max"].map((op) =>
      reduction(op, lone.filter(([d]) => !["int64", "uint64"].includes(d!)), EXACT)
    ),
  ].map((spec) => ({ ...spec, make: contiguousWhole })),
  { cases: 50, contiguous: true },
);

function contiguousWhole(rng: Rng, [d]: readonly DType[]): Case {
  const shape = randomShape(rng, { maxSize: 300, empty: false });
  return {
    inputs: [randomInput(rng, d!, shape, { ...values(rng, d!, false), view: false })],
    args: [new Arg(0)],
  };
}
