/**
 * `random.Generator`'s draws built from others and from array routines: permutations (the order of
 * random 64-bit keys, by the radix sort), `choice` (uniform integers, the inverse of the cumulative
 * probabilities by `searchsorted`, or — without replacement — the first of a random order:
 * Efraimidis and Spirakis's keys `E/p` where there are probabilities), `multivariateNormal` (standard
 * normal numbers times a host Cholesky factor of the covariance), `dirichlet` (the softmax of log-gamma
 * numbers, so that small concentrations never underflow to 0/0) and `multinomial`'s checks.
 *
 * @module
 */

import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { checkShape, normalizeAxis, type Shape, showShape } from "../core/layout.ts";
import { add, div } from "../api/elementwise.ts";
import { assign } from "../ops/assign.ts";
import { take } from "../ops/indexing.ts";
import { matmul } from "../ops/matmul.ts";
import { softmax } from "../ops/softmax.ts";
import { argsort } from "../ops/sorting.ts";
import { reshape, slice } from "../ops/views.ts";
import { checkOptions } from "../../kernel/options.ts";
import type { FloatType } from "../exec/philox_source.ts";
import {
  drawContinuous,
  drawGamma,
  drawIntegers,
  drawMultinomial,
  type PhiloxState,
} from "./distributions.ts";
import type { AxisOption, ChoiceOptions } from "./generator_options.ts";
import { hostList, param } from "./generator_options.ts";
import { searchsorted } from "./search.ts";
import { toGpu } from "./creation.ts";

const ALL64 = (1n << 64n) - 1n;

/** A random order of `0..n-1` (int64): the indices that sort `n` random 64-bit keys. */
export function permutationIndices(state: PhiloxState, n: number): GPUArray<"int64"> {
  const keys = drawIntegers(state, [n], "uint64", 0n, ALL64);
  try {
    return argsort(keys);
  } finally {
    keys.free();
  }
}

function population(a: unknown, what: string): { n: number; array?: GPUArray } {
  if (a instanceof GPUArray) return { n: 0, array: a };
  if (typeof a !== "number" || !Number.isSafeInteger(a) || a < 0) {
    throw new RangeError(
      `Cannot ${what} ${describe(a)}: pass a GPUArray or a count, an integer of 0 or more`,
    );
  }
  return { n: a };
}

/** The axis of `a` a permutation or choice goes along, and its extent. */
function along(a: GPUArray, axis: unknown, what: string): { axis: number; extent: number } {
  if (a.ndim === 0) {
    throw new RangeError(`Cannot ${what} a 0-d array: pass an array of at least one dimension, or a count`);
  }
  if (axis !== undefined && typeof axis !== "number") {
    throw new TypeError(`Cannot ${what} along axis ${describe(axis)}: pass a number`);
  }
  const ax = normalizeAxis(axis ?? 0, a.ndim, what);
  return { axis: ax, extent: a.shape[ax]! };
}

/** `Generator.permutation`: a permuted `0..x-1`, or a permuted copy of `x` along an axis. */
export function permutation(state: PhiloxState, x: number | GPUArray, options?: AxisOption): GPUArray {
  checkOptions(options, "permute", "{ axis: 1 }", ["axis"]);
  const { n, array } = population(x, "permute");
  if (array === undefined) {
    if (options?.axis !== undefined) {
      throw new TypeError("Cannot permute along an axis of a count: pass a GPUArray");
    }
    return permutationIndices(state, n);
  }
  const { axis, extent } = along(array, options?.axis, "permute");
  const order = permutationIndices(state, extent);
  try {
    return take(array, order, axis);
  } finally {
    order.free();
  }
}

/** `Generator.shuffle`: permutes `x` in place along an axis. */
export function shuffle(state: PhiloxState, x: GPUArray, options?: AxisOption): void {
  checkOptions(options, "shuffle", "{ axis: 1 }", ["axis"]);
  if (!(x instanceof GPUArray)) throw new TypeError(`Cannot shuffle ${typeof x}: pass a GPUArray`);
  const { axis, extent } = along(x, options?.axis, "shuffle");
  const order = permutationIndices(state, extent);
  const shuffled = take(x, order, axis);
  order.free();
  try {
    assign(x, shuffled);
  } finally {
    shuffled.free();
  }
}

/** The probabilities `p` of `n` entries, checked as NumPy checks them. */
function probabilities(p: unknown, n: number): Float64Array {
  const values = hostList("choice", "p", p);
  if (values.length !== n) {
    throw new RangeError(
      `Cannot choose with p of ${values.length} entries: a has ${n}, so pass ${n} probabilities`,
    );
  }
  let sum = 0;
  for (const v of values) {
    if (!(v >= 0 && v <= 1)) {
      throw new RangeError(`Cannot choose with p holding ${v}: pass probabilities from 0 to 1`);
    }
    sum += v;
  }
  if (Math.abs(sum - 1) > Math.sqrt(2 ** -52)) {
    throw new RangeError(`Cannot choose with p summing to ${sum}: the probabilities must sum to 1`);
  }
  return values;
}

/** The dtype host-made float arrays take here: float64 where the device has it. */
function hostFloat(): FloatType {
  return activeBackend().supports("float64") ? "float64" : "float32";
}

/** Indices into `0..n-1` of `dims`, as `choice` draws them. */
function chosen(
  state: PhiloxState,
  n: number,
  dims: number[],
  replace: boolean,
  p: Float64Array | undefined,
): GPUArray<"int64"> {
  const k = dims.reduce((a, b) => a * b, 1);
  if (k > 0 && n === 0) throw new RangeError("Cannot choose from an empty population: a has no entries");
  const dt = hostFloat();
  if (replace) {
    if (p === undefined) {
      return drawIntegers(state, dims, "int64", 0n, BigInt(Math.max(n - 1, 0))) as GPUArray<"int64">;
    }
    const cdf = new Float64Array(n);
    let total = 0;
    p.forEach((v, i) => cdf[i] = total += v);
    cdf.forEach((v, i) => cdf[i] = v / total);
    const sorted = toGpu(dt === "float64" ? cdf : Float32Array.from(cdf));
    const u = drawContinuous(state, dims, dt, "uniform", 0, 1);
    try {
      return searchsorted(sorted, u, { side: "right" });
    } finally {
      sorted.free();
      u.free();
    }
  }
  if (k > n) {
    throw new RangeError(
      `Cannot choose ${k} values from ${n} without replacement: pass a shape of at most ${n} elements, or replace: true`,
    );
  }
  let keys: GPUArray;
  if (p === undefined) keys = drawIntegers(state, [n], "uint64", 0n, ALL64);
  else {
    const nonzero = p.filter((v) => v > 0).length;
    if (nonzero < k) {
      throw new RangeError(
        `Cannot choose ${k} values without replacement: p has only ${nonzero} non-zero entries`,
      );
    }
    const e = drawContinuous(state, [n], dt, "exponential", 0, 1);
    const weights = toGpu(dt === "float64" ? p : Float32Array.from(p));
    keys = div(e, weights);
    e.free();
    weights.free();
  }
  const order = argsort(keys);
  keys.free();
  const first = reshape(slice(order, [0, k]), dims);
  order.free();
  return first;
}

/** `Generator.choice`: entries of `a` (or integers below `a`) of `shape` along an axis. */
export function choice(
  state: PhiloxState,
  a: number | GPUArray,
  shape: Shape,
  options?: ChoiceOptions,
): GPUArray {
  checkOptions(options, "choose", "{ replace: false }", ["replace", "p", "axis"]);
  const { n: count, array } = population(a, "choose from");
  const dims = checkShape(shape);
  const replace = options?.replace ?? true;
  if (typeof replace !== "boolean") {
    throw new TypeError(`Cannot choose with replace = ${describe(replace)}: pass a boolean`);
  }
  let axis = 0, n = count;
  if (array !== undefined) ({ axis, extent: n } = along(array, options?.axis, "choose from"));
  else if (options?.axis !== undefined) {
    throw new TypeError("Cannot choose along an axis of a count: pass a GPUArray as a");
  }
  const p = options?.p === undefined ? undefined : probabilities(options.p, n);
  const indices = chosen(state, n, dims, replace, p);
  if (array === undefined) return indices;
  try {
    return take(array, indices, axis);
  } finally {
    indices.free();
  }
}

/**
 * The lower Cholesky factor `L` (row-major, `k × k`) of a symmetric positive semi-definite `cov`
 * (`cov = L·Lᵀ`); a pivot that is 0 up to rounding leaves its column 0.
 *
 * @throws {RangeError} where `cov` is not symmetric or has a negative pivot.
 */
function cholesky(cov: Float64Array, k: number): Float64Array {
  let largest = 0;
  for (const v of cov) largest = Math.max(largest, Math.abs(v));
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < i; j++) {
      if (Math.abs(cov[i * k + j]! - cov[j * k + i]!) > 1e-8 * largest) {
        throw new RangeError(
          `Cannot draw multivariateNormal numbers with cov[${i}][${j}] = ${
            cov[i * k + j]
          } but cov[${j}][${i}] = ${cov[j * k + i]}: pass a symmetric covariance`,
        );
      }
    }
  }
  const tol = 64 * k * 2 ** -52 * largest;
  const L = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    let d = cov[j * k + j]!;
    for (let m = 0; m < j; m++) d -= L[j * k + m]! ** 2;
    if (d < -tol) {
      throw new RangeError(
        "Cannot draw multivariateNormal numbers with this cov: it is not positive semi-definite (pivot " +
          `${j} is ${d}); pass a covariance matrix`,
      );
    }
    if (d <= tol) continue;
    const root = Math.sqrt(d);
    L[j * k + j] = root;
    for (let i = j + 1; i < k; i++) {
      let v = cov[i * k + j]!;
      for (let m = 0; m < j; m++) v -= L[i * k + m]! * L[j * k + m]!;
      L[i * k + j] = v / root;
    }
  }
  return L;
}

/** The covariance as a row-major float64 `k × k` matrix. */
function hostMatrix(cov: unknown, k: number): Float64Array {
  const fail = (shape: string) =>
    new RangeError(
      `Cannot draw multivariateNormal numbers with cov of shape ${shape}: pass a ${k} × ${k} matrix`,
    );
  if (cov instanceof GPUArray) {
    if (cov.ndim !== 2 || cov.shape[0] !== k || cov.shape[1] !== k) throw fail(showShape(cov.shape));
    return Float64Array.from(cov.get() as ArrayLike<number | bigint>, Number);
  }
  if (!Array.isArray(cov)) {
    throw new TypeError(
      `Cannot draw multivariateNormal numbers with cov = ${
        String(cov)
      }: pass a matrix (a list of lists, or a GPUArray)`,
    );
  }
  if (cov.length !== k || !cov.every((row) => Array.isArray(row) && row.length === k)) {
    throw fail(`${cov.length} rows`);
  }
  return Float64Array.from(cov.flat(), (v) => {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new RangeError(
        `Cannot draw multivariateNormal numbers with cov holding ${String(v)}: pass finite numbers`,
      );
    }
    return v;
  });
}

/** `Generator.multivariateNormal`: `[...shape, k]` numbers of mean `mean` and covariance `cov`. */
export function multivariateNormal(
  state: PhiloxState,
  shape: Shape,
  dtype: FloatType,
  mean: unknown,
  cov: unknown,
): GPUArray {
  const mu = hostList("multivariateNormal", "mean", mean);
  const k = mu.length;
  if (k === 0) {
    throw new RangeError("Cannot draw multivariateNormal numbers with an empty mean: pass k ≥ 1 numbers");
  }
  const L = cholesky(hostMatrix(cov, k), k);
  const Lt = new Float64Array(k * k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) Lt[j * k + i] = L[i * k + j]!;
  const host = (x: Float64Array) => dtype === "float64" ? x : Float32Array.from(x);
  const z = drawContinuous(state, [...checkShape(shape), k], dtype, "normal", 0, 1);
  const factor = toGpu(host(Lt), [k, k]), centre = toGpu(host(mu));
  try {
    const spread = matmul(z, factor);
    const out = add(spread, centre);
    spread.free();
    return out;
  } finally {
    z.free();
    factor.free();
    centre.free();
  }
}

/** `Generator.dirichlet`: `[...shape, k]` points of the simplex, Dirichlet of concentrations `alpha`. */
export function dirichlet(state: PhiloxState, shape: Shape, dtype: FloatType, alpha: unknown): GPUArray {
  const a = hostList("dirichlet", "alpha", alpha);
  if (a.length === 0) {
    throw new RangeError("Cannot draw dirichlet numbers with an empty alpha: pass k ≥ 1 numbers");
  }
  for (const v of a) param("dirichlet", "alpha", v, "positive");
  const logs = drawGamma(state, [...checkShape(shape), a.length], dtype, "logGamma", [...a], 1);
  try {
    return softmax(logs, -1);
  } finally {
    logs.free();
  }
}

/** `Generator.multinomial`: `[...shape, k]` counts of `n` trials over `pvals`. */
export function multinomial(state: PhiloxState, shape: Shape, n: unknown, pvals: unknown): GPUArray<"int64"> {
  const trials = param("multinomial", "n", n, "trials");
  const p = hostList("multinomial", "pvals", pvals);
  if (p.length === 0) {
    throw new RangeError("Cannot draw multinomial numbers with an empty pvals: pass k ≥ 1 probabilities");
  }
  let head = 0;
  p.forEach((v, i) => {
    param("multinomial", "pvals", v, "probability");
    if (i < p.length - 1) head += v;
  });
  if (head > 1 + 1e-12) {
    throw new RangeError(
      `Cannot draw multinomial numbers with pvals whose first ${
        p.length - 1
      } sum to ${head}: they must sum to at most 1`,
    );
  }
  return drawMultinomial(state, checkShape(shape), trials, p);
}
