/**
 * How each reduction of the op table (`reduction_defs.ts`) appears in the API: its doc, example and
 * result types, from which `deno task gen` (scripts/gen_api.ts) writes the module's function
 * (`api/reductions.ts`) and `GPUArray`'s method (`api/reduction_methods.ts`). A new reduction is its
 * entry in `REDUCTIONS` and one here; the type of this table makes the second one required.
 *
 * @module
 */

import type { ReduceOp } from "./reduction_defs.ts";

/** A reduction's place in the API. */
export interface ReductionApi {
  /** The doc comment's text. */
  readonly doc: string;
  /** The method's doc, a phrase after the link to the function. */
  readonly brief: string;
  /** The example's body, after `import * as ga from "@cudeno/cudeno/array"`. */
  readonly example: string;
  /** The doc's `@throws` lines. */
  readonly throws?: readonly string[];
  /** The host value over every axis, a type of the array's dtype `D`. */
  readonly value: string;
  /** The dtype of the result along axes, a type of `D`. */
  readonly dtype: string;
  /** The options, `ReduceOptions` where left out (`ArgOptions`: one axis, by position a number). */
  readonly options?: "VarOptions" | "ArgOptions";
  /** NumPy's other names for it, module functions only (`amax` for `max`). */
  readonly aliases?: readonly string[];
}

/** Each reduction's place in the API. */
export const REDUCTION_API: Readonly<Record<ReduceOp, ReductionApi>> = {
  sum: {
    doc:
      "The sum of the elements (NumPy's `sum`): over every axis a host value (a number for floats, an exact bigint for integers and bools, which sum in 64 bits), along axes an array.",
    brief: "the sum (a host value without axis; integers exact as bigints)",
    example:
      "const x = ga.asarray([[1, 2], [3, 4]]);\nconsole.log(ga.sum(x), ga.sum(x, 0).get()); // 10 Float32Array [4, 6]\nconst rows = x.sum({ axis: 1, keepdims: true }); // shape [2, 1]; also x.sum(1, { keepdims: true })",
    value: "SumValue<D>",
    dtype: "SumType<D>",
  },
  prod: {
    doc: "The product of the elements (integers multiply in 64 bits; the product of none is 1).",
    brief: "the product",
    example: 'console.log(ga.prod(ga.arange(1, 6, 1, "int32"))); // 120n',
    value: "SumValue<D>",
    dtype: "SumType<D>",
  },
  mean: {
    doc: "The arithmetic mean (float64 for integers; NaN for no elements).",
    brief: "the arithmetic mean",
    example: "const colMeans = ga.mean(ga.ones([3, 4]), { axis: 0 }); // shape [4]",
    value: "number",
    dtype: "MeanType<D>",
  },
  min: {
    doc: "The smallest element; a NaN wins.",
    brief: "the smallest element, NaN propagating",
    example: "console.log(ga.min(ga.asarray([3, 1, 2]))); // 1",
    throws: ["{RangeError} when a reduced axis is empty."],
    value: "HostValue<D>",
    dtype: "D",
    aliases: ["amin"],
  },
  max: {
    doc: "The largest element; a NaN wins.",
    brief: "the largest element, NaN propagating",
    example: "const rowMax = ga.max(ga.asarray([[1, 5], [7, 2]]), { axis: 1 }); // [5, 7]",
    throws: ["{RangeError} when a reduced axis is empty."],
    value: "HostValue<D>",
    dtype: "D",
    aliases: ["amax"],
  },
  ptp: {
    doc: 'The range, `max - min` ("peak to peak"), in the input\'s dtype.',
    brief: "`max - min`",
    example: "console.log(ga.ptp(ga.asarray([4, 9, 1]))); // 8",
    throws: ["{RangeError} when a reduced axis is empty.", "{TypeError} for bool arrays."],
    value: "HostValue<D>",
    dtype: "D",
  },
  argmin: {
    doc:
      "The index of the smallest element (the first one; the first NaN where there is one): along an axis an int64 array, else the flat index as a number.",
    brief: "the index of the smallest element",
    example: "console.log(ga.argmin(ga.asarray([3, 1, 1]))); // 1",
    throws: ["{RangeError} when the axis is empty."],
    value: "number",
    dtype: '"int64"',
    options: "ArgOptions",
  },
  argmax: {
    doc:
      "The index of the largest element (the first one; the first NaN where there is one): along an axis an int64 array, else the flat index as a number.",
    brief: "the index of the largest element",
    example: "const pred = ga.argmax(ga.asarray([[0.1, 0.9], [0.8, 0.2]]), { axis: 1 }); // int64 [1, 0]",
    throws: ["{RangeError} when the axis is empty."],
    value: "number",
    dtype: '"int64"',
    options: "ArgOptions",
  },
  any: {
    doc: "Whether any element is non-zero (NaN counts as non-zero).",
    brief: "whether any element is non-zero",
    example: "console.log(ga.any(ga.asarray([0, 0, 2]))); // true",
    value: "boolean",
    dtype: '"bool"',
  },
  all: {
    doc: "Whether every element is non-zero (true for no elements).",
    brief: "whether every element is non-zero",
    example:
      "const rowsAllPositive = ga.all(ga.asarray([[1, 2], [0, 3]]).gt(0), { axis: 1 }); // [true, false]",
    value: "boolean",
    dtype: '"bool"',
  },
  "var": {
    doc:
      "The variance, the mean of squared deviations from the mean, divided by `n - ddof` (one pass, Welford's and Chan's formulas; float64 for integers).",
    brief: "the variance, divided by `n - ddof`",
    example: "console.log(ga.var(ga.asarray([1, 2, 3, 4]))); // 1.25",
    value: "number",
    dtype: "MeanType<D>",
    options: "VarOptions",
  },
  std: {
    doc: "The standard deviation, the square root of the variance (`var`).",
    brief: "the standard deviation",
    example:
      "const x = ga.random.normal([100, 8], { seed: 1 });\nconst z = x.sub(ga.mean(x, 0, { keepdims: true })).div(ga.std(x, 0, { keepdims: true }));",
    value: "number",
    dtype: "MeanType<D>",
    options: "VarOptions",
  },
  countNonzero: {
    doc: "How many elements are non-zero: int64 along axes, a number over every axis.",
    brief: "how many elements are non-zero",
    example: "console.log(ga.countNonzero(ga.asarray([0, 1, 2, 0]))); // 2",
    value: "number",
    dtype: '"int64"',
  },
  nansum: {
    doc: "The sum with NaNs counted as zero.",
    brief: "the sum, NaNs counted as zero",
    example: "console.log(ga.nansum(ga.asarray([1, NaN, 2]))); // 3",
    value: "SumValue<D>",
    dtype: "SumType<D>",
  },
  nanmean: {
    doc: "The mean of the elements that are not NaN (NaN where all are).",
    brief: "the mean of the elements that are not NaN",
    example: "console.log(ga.nanmean(ga.asarray([1, NaN, 3]))); // 2",
    value: "number",
    dtype: "MeanType<D>",
  },
  nanmin: {
    doc: "The smallest element that is not NaN (NaN where all are).",
    brief: "the smallest element that is not NaN",
    example: "console.log(ga.nanmin(ga.asarray([NaN, 4, 2]))); // 2",
    throws: ["{RangeError} when a reduced axis is empty."],
    value: "HostValue<D>",
    dtype: "D",
  },
  nanmax: {
    doc: "The largest element that is not NaN (NaN where all are).",
    brief: "the largest element that is not NaN",
    example: "console.log(ga.nanmax(ga.asarray([NaN, 4, 2]))); // 4",
    throws: ["{RangeError} when a reduced axis is empty."],
    value: "HostValue<D>",
    dtype: "D",
  },
  logsumexp: {
    doc:
      "`log(sum(exp(a)))`, computed stably in one pass (a running maximum, as SciPy's `logsumexp` subtracts it): float64 for integers, -Infinity for no elements.",
    brief: "`log(sum(exp(this)))`, computed stably",
    example:
      "const lse = ga.logsumexp(ga.asarray([[1000, 1000], [0, 0]]), { axis: 1 }); // [1000.693, 0.693]",
    value: "number",
    dtype: "MeanType<D>",
  },
};
