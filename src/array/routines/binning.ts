/**
 * `bincount`, and the kernels of `histogram`, `histogram2d` and `bincount`: one loop over the samples (any layout)
 * that finds each sample's bin — a binary search over the edges, so uniform and given edges are one
 * rule: bin `i` holds `edges[i] <= x < edges[i + 1]`, the last bin also its right edge — and adds 1
 * (or the sample's weight) to it with an atomic add: 64-bit integer counts, float64 sums of weights
 * (a compare-and-swap loop on OpenCL, which needs `cl_khr_int64_base_atomics`; float32 sums on a
 * device without float64).
 *
 * @module
 */

import { castTo, cType, load } from "../../codegen/c.ts";
import { targetOf } from "../../codegen/targets.ts";
import { helperSource } from "../../codegen/target.ts";
import type { Backend } from "../../device/backend.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { runLoop } from "../exec/loop.ts";
import { fill } from "../ops/assign.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { showShape } from "../core/layout.ts";
import { numberSlot, optionsOf } from "../core/axis_args.ts";
import { max, min } from "../api/reductions.ts";
import { checkReal } from "../ops/sorting.ts";
import { ascontiguousarray } from "../ops/views.ts";

/** One axis of a binning: the samples, their bins' edges (contiguous, in the dtype they are compared in) and the bin count. */
export interface BinAxis {
  readonly x: GPUArray;
  readonly edges: GPUArray;
  readonly bins: number;
}

/** The C of the bin search over `n` bins with edges of `dtype`, and of the atomic adds the loop needs. */
function helpers(backend: Backend, edges: readonly DType[], acc: DType): string {
  const d = backend.dialect, t = targetOf(d), ix = t.indexType;
  const lines: string[] = [];
  if (d === "opencl" && acc !== "float32") {
    lines.push("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable");
  }
  for (const e of new Set(edges)) {
    const c = cType(e, d);
    const f = e === "float64" ? "double" : "float";
    lines.push(`${t.inline} ${ix} cudeno_bin_${e}(${t.globalSpace}const ${c} *e, ${ix} n, ${c} v) {
  if (!(v >= e[0] && v <= e[n])) return -1;
  if (v == e[n]) return n - 1;
  const ${f} at = (${f})(v - e[0]) * ((${f})n / (${f})(e[n] - e[0]));
  const ${ix} g = at < (${f})(n - 1) ? (${ix})at : n - 1;
  if (e[g] <= v && v < e[g + 1]) return g;
  if (g > 0 && e[g - 1] <= v && v < e[g]) return g - 1;
  if (g + 2 <= n && e[g + 1] <= v && v < e[g + 2]) return g + 1;
  ${ix} lo = 0, hi = n;
  while (hi - lo > 1) {
    ${ix} mid = (lo + hi) / 2;
    if (e[mid] <= v) lo = mid; else hi = mid;
  }
  return lo;
}`);
  }
  if (d === "opencl" && acc === "float64") {
    lines.push(`inline void cudeno_atomic_add_f64(volatile __global double *p, double v) {
  long old = as_long(*p);
  for (;;) {
    long seen = atom_cmpxchg((volatile __global long *)p, old, as_long(as_double(old) + v));
    if (seen == old) return;
    old = seen;
  }
}`);
  }
  if (d === "opencl" && acc === "float32") lines.push(helperSource(t, "atomic_add_f32_global"));
  return lines.join("\n");
}

/** The statement that adds `value` to `h[k]` atomically. */
function atomicAdd(backend: Backend, acc: DType, h: string, k: string, value: string | undefined): string {
  if (backend.dialect === "cuda") {
    return acc === "int64"
      ? `atomicAdd((unsigned long long *)&${h}[${k}], 1ULL);`
      : `atomicAdd(&${h}[${k}], ${value});`;
  }
  if (acc === "int64") return `atom_inc((volatile __global ulong *)&${h}[${k}]);`;
  return acc === "float64"
    ? `cudeno_atomic_add_f64(&${h}[${k}], ${value});`
    : `cudeno_atomic_add_f32_global(&${h}[${k}], ${value});`;
}

/** The dtype weights are summed in: float64 where the device has it. */
export function sumType(backend: Backend): "float64" | "float32" {
  return backend.supports("float64") ? "float64" : "float32";
}

/** Bins up to this many are counted in shared memory first (32-bit counters, 16 KiB a block). */
const SHARED_BINS = 4096;
const BLOCK = 256;

/**
 * The int64 counts of `total` bins, counted the way CUB's and CuPy's histograms do: each block
 * counts its share of the samples in 32-bit counters of its own shared memory, then adds them to the
 * result with one 64-bit atomic per bin, so samples contend for a block's counters instead of the
 * device's. `bin(ref, pointer, scalar)` declares `cdn_bin` (-1: nowhere) from the element `ref(k)` of
 * each of `inputs` (read from a contiguous copy where one is not contiguous), `pointer(k)` of
 * `pointers` and `scalar(k)` of `scalars`.
 */
function sharedCounts(
  inputs: readonly GPUArray[],
  shape: readonly number[],
  pointers: readonly GPUArray[],
  scalars: readonly number[],
  helpers: string,
  key: string,
  bin: (ref: (k: number) => string, pointer: (k: number) => string, scalar: (k: number) => string) => string,
): GPUArray {
  const backend = inputs[0]!.backend, t = targetOf(backend.dialect), ix = t.indexType, ids = t.threadIds;
  const hist = fill(new GPUArray(backend, shape, "int64"), 0);
  const n = inputs[0]!.size, total = hist.size;
  const flat = inputs.map((x) => ascontiguousarray(x));
  const make = () => {
    const params = [
      t.pointerParam("int64", "hist"),
      ...flat.map((x, k) => t.pointerParam(x.dtype, `x${k}`, true)),
      ...pointers.map((p, k) => t.pointerParam(p.dtype, `p${k}`, true)),
      ...flat.map((_, k) => `${ix} x${k}o`),
      ...pointers.map((_, k) => `${ix} p${k}o`),
      `${ix} hist0`,
      ...scalars.map((_, k) => `${ix} s${k}`),
      `${ix} n`,
      `${ix} total`,
    ];
    const add = backend.dialect === "cuda"
      ? {
        local: "atomicAdd(&cdn_counts[cdn_bin], 1u);",
        global: "atomicAdd((unsigned long long *)&hist[hist0 + k], (unsigned long long)c);",
      }
      : {
        local: "atomic_inc(&cdn_counts[cdn_bin]);",
        global: "atom_add((volatile __global ulong *)&hist[hist0 + k], (ulong)c);",
      };
    const source = `${t.preamble([...flat.map((x) => x.dtype), ...pointers.map((p) => p.dtype), "int64"])}
${helpers}
${t.kernelHead} cudeno_bin_shared(${params.join(", ")}) {
  ${t.sharedArray("uint32", "cdn_counts", SHARED_BINS)}
  for (${ix} k = ${ids.local}; k < total; k += ${ids.groupSize}) cdn_counts[k] = 0;
  ${t.barrier}
  const ${ix} step = (${ix})${ids.groupSize} * ${ids.groups};
  for (${ix} i = (${ix})${ids.group} * ${ids.groupSize} + ${ids.local}; i < n; i += step) {
    ${bin((k) => `x${k}[x${k}o + i]`, (k) => `(p${k} + p${k}o)`, (k) => `s${k}`)}
    if (cdn_bin >= 0) ${add.local}
  }
  ${t.barrier}
  for (${ix} k = ${ids.local}; k < total; k += ${ids.groupSize}) {
    const ${t.cType("uint32")} c = cdn_counts[k];
    if (c != 0) ${add.global}
  }
}
`;
    return { name: "cudeno_bin_shared", source };
  };
  if (n > 0) {
    // Enough blocks to fill a large GPU; at least one per 2^31 samples, so no block's counter overflows.
    const grid = Math.max(Math.min(Math.ceil(n / (BLOCK * 16)), 1024), Math.ceil(n / 2 ** 31));
    backend.kernel(
      `cudeno_bin_shared:${key}:${flat.map((x) => x.dtype)}:${pointers.map((p) => p.dtype)}`,
      make,
    )
      .launch({ grid, block: BLOCK }, [
        hist.buffer,
        ...flat.map((x) => x.buffer),
        ...pointers.map((p) => p.buffer),
        ...flat.map((x) => x.offset),
        ...pointers.map((p) => p.offset),
        hist.offset,
        ...scalars,
        n,
        total,
      ]);
  }
  flat.forEach((x, k) => x !== inputs[k] && x.free());
  return hist;
}

/**
 * The counts (int64) or sums of `weights` (float64) of the samples in each bin of every axis, an
 * array of the axes' bin counts (C order). Samples outside the edges, or NaN, count nowhere.
 */
export function binCounts(axes: readonly BinAxis[], weights: GPUArray | undefined, what: string): GPUArray {
  const backend = axes[0]!.x.backend, d = backend.dialect, ix = targetOf(d).indexType;
  const acc: DType = weights === undefined ? "int64" : sumType(backend);
  const shape = axes.map((a) => a.bins);
  const edgeTypes = axes.map((a) => a.edges.dtype);
  if (weights === undefined && shape.reduce((p, b) => p * b, 1) <= SHARED_BINS) {
    return sharedCounts(
      axes.map((a) => a.x),
      shape,
      axes.map((a) => a.edges),
      shape,
      helpers(backend, edgeTypes, acc),
      `${axes.length}`,
      (ref, pointer, scalar) => {
        const found = axes.map((a, k) =>
          `const ${ix} cdn_b${k} = cudeno_bin_${edgeTypes[k]}(${pointer(k)}, ${scalar(k)}, (${
            cType(edgeTypes[k]!, d)
          })(${load(ref(k), a.x.dtype, d)}));`
        );
        const inside = axes.map((_, k) => `cdn_b${k} >= 0`).join(" && ");
        const flat = axes.map((_, k) => `cdn_b${k}`).reduce((p, b, k) => `(${p}) * ${scalar(k)} + ${b}`);
        return `${found.join("\n    ")}\n    const ${ix} cdn_bin = ${inside} ? ${flat} : -1;`;
      },
    );
  }
  const hist = fill(new GPUArray(backend, shape, acc), 0);
  const arrays = [...axes.map((a) => a.x), ...(weights === undefined ? [] : [weights])];
  runLoop(
    {
      key: `cudeno_bin${axes.length}:${acc}:${weights === undefined ? "" : "w"}`,
      name: "cudeno_bin",
      arrays,
      written: arrays.map(() => false),
      pointers: [{ array: hist, written: true }, ...axes.map((a) => ({ array: a.edges, written: false }))],
      scalars: axes.map((a) => ({ value: a.bins, dtype: "int64" as DType })),
      helpers: helpers(backend, edgeTypes, acc),
      statement: (ref, scalar, _index, pointer) => {
        const found = axes.map((a, k) =>
          `const ${ix} cdn_b${k} = cudeno_bin_${edgeTypes[k]}(${pointer[k + 1]}, ${scalar[k]}, (${
            cType(edgeTypes[k]!, d)
          })(${load(ref[k]!, a.x.dtype, d)}));`
        );
        const inside = axes.map((_, k) => `cdn_b${k} >= 0`).join(" && ");
        const flat = axes.map((_, k) => `cdn_b${k}`).reduce((p, b, k) => `(${p}) * ${scalar[k]} + ${b}`);
        const w = weights === undefined
          ? undefined
          : castTo(load(ref[axes.length]!, weights.dtype, d), acc, d);
        return `${found.join("\n    ")}\n    if (${inside}) ${atomicAdd(backend, acc, pointer[0]!, flat, w)}`;
      },
    },
    axes[0]!.x.shape,
    what,
  );
  return hist;
}

/** The counts (int64) or sums of `weights` of each value `0..length - 1` of the integer array `x`. */
export function countIndices(
  x: GPUArray,
  weights: GPUArray | undefined,
  length: number,
  what: string,
): GPUArray {
  const backend = x.backend, d = backend.dialect, ix = targetOf(d).indexType;
  const acc: DType = weights === undefined ? "int64" : sumType(backend);
  if (weights === undefined && length <= SHARED_BINS) {
    return sharedCounts(
      [x],
      [length],
      [],
      [],
      helpers(backend, [], acc),
      "index",
      (ref) => `const ${ix} cdn_bin = (${ix})(${load(ref(0), x.dtype, d)});`,
    );
  }
  const hist = fill(new GPUArray(backend, [length], acc), 0);
  const arrays = weights === undefined ? [x] : [x, weights];
  runLoop(
    {
      key: `cudeno_bincount:${acc}`,
      name: "cudeno_bincount",
      arrays,
      written: arrays.map(() => false),
      pointers: [{ array: hist, written: true }],
      scalars: [],
      helpers: helpers(backend, [], acc),
      statement: (ref, _scalar, _index, pointer) => {
        const w = weights === undefined ? undefined : castTo(load(ref[1]!, weights.dtype, d), acc, d);
        return atomicAdd(backend, acc, pointer[0]!, `(${ix})(${load(ref[0]!, x.dtype, d)})`, w);
      },
    },
    x.shape,
    what,
  );
  return hist;
}

/** `weights`, checked to have the samples' `shape`. */
export function checkWeights(
  weights: GPUArray | undefined,
  shape: readonly number[],
  what: string,
): GPUArray | undefined {
  if (weights === undefined) return undefined;
  checkReal(weights, `${what} with weights`);
  if (weights.shape.length !== shape.length || weights.shape.some((e, k) => e !== shape[k])) {
    throw new RangeError(
      `Cannot ${what} with weights of shape ${showShape(weights.shape)}: they must have the samples' shape ${
        showShape(shape)
      }`,
    );
  }
  return weights;
}

/**
 * Options of {@link bincount}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.BincountOptions = { minlength: 10 };
 * ```
 */
export interface BincountOptions {
  /** A weight per element: each bin sums its elements' weights (float64) instead of counting them. Default: none (each element counts 1). */
  readonly weights?: GPUArray;
  /** The least length of the result (default 0). */
  readonly minlength?: number;
}

/**
 * How many times each value `0, 1, ..., max(x)` occurs in the 1-D non-negative integer array `x`
 * (NumPy's `bincount`): int64 counts, or float64 sums of `weights`, of length `max(x) + 1` (at least
 * `minlength`).
 *
 * @throws {RangeError} for a negative element, an array that is not 1-D, weights of another shape or
 * a negative `minlength`.
 * @throws {TypeError} for a float array.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const x = ga.asarray([0, 1, 1, 3], "int32");
 * console.log(ga.bincount(x).get()); // BigInt64Array [1n, 2n, 0n, 1n]
 * const w = ga.bincount(x, { weights: ga.asarray([0.5, 1, 1, 2]), minlength: 6 }); // [0.5, 2, 0, 2, 0, 0]
 * ```
 */
export function bincount(x: GPUArray, options?: BincountOptions): GPUArray;
/** `bincount(x, weights, minlength)`, NumPy's positions. */
export function bincount(
  x: GPUArray,
  weights: GPUArray | undefined,
  minlength?: number | Omit<BincountOptions, "weights" | "minlength">,
  options?: Omit<BincountOptions, "weights" | "minlength">,
): GPUArray;
export function bincount(x: GPUArray, ...args: unknown[]): GPUArray {
  const what = "bincount";
  checkReal(x, "bincount");
  const options = optionsOf<BincountOptions>(
    what,
    args,
    [
      { name: "weights", takes: (v) => v instanceof GPUArray, what: "the weights (a GPUArray)" },
      numberSlot("minlength"),
    ],
    ["weights", "minlength"],
    "{ minlength: 10 }",
  );
  if (DTYPES[x.dtype].kind === "float") {
    throw new TypeError(`Cannot bincount a ${x.dtype} array: give non-negative integers (astype("int64"))`);
  }
  if (x.ndim !== 1) {
    throw new RangeError(
      `Cannot bincount an array of shape ${showShape(x.shape)}: give a 1-D array (ravel() it)`,
    );
  }
  const minlength = options.minlength ?? 0;
  if (!Number.isInteger(minlength) || minlength < 0) {
    throw new RangeError(`Cannot bincount with minlength ${minlength}: give a non-negative integer`);
  }
  const weights = checkWeights(options.weights, x.shape, what);
  let length = minlength;
  if (x.size > 0) {
    if (Number(min(x)) < 0) {
      throw new RangeError("Cannot bincount an array with negative elements: they have no bin");
    }
    length = Math.max(length, Number(max(x)) + 1);
  }
  return countIndices(x, weights, length, what);
}
