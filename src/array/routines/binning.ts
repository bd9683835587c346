/**
 * The kernels of `histogram`, `histogram2d` and `bincount`: one loop over the samples (any layout)
 * that finds each sample's bin — a binary search over the edges, so uniform and given edges are one
 * rule: bin `i` holds `edges[i] <= x < edges[i + 1]`, the last bin also its right edge — and adds 1
 * (or the sample's weight) to it with an atomic add: 64-bit integer counts, float64 sums of weights
 * (a compare-and-swap loop on OpenCL, which needs `cl_khr_int64_base_atomics`; float32 sums on a
 * device without float64).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { castTo, cType, load } from "../../codegen/c.ts";
import { targetOf } from "../../codegen/targets.ts";
import { helperSource } from "../../codegen/target.ts";
import type { Backend } from "../../device/backend.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { runLoop } from "../exec/loop.ts";
import { fill } from "../ops/assign.ts";

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
    lines.push(`${t.inline} ${ix} cudeno_bin_${e}(${t.globalSpace}const ${c} *e, ${ix} n, ${c} v) {
  if (!(v >= e[0] && v <= e[n])) return -1;
  if (v == e[n]) return n - 1;
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

/**
 * The counts (int64) or sums of `weights` (float64) of the samples in each bin of every axis, an
 * array of the axes' bin counts (C order). Samples outside the edges, or NaN, count nowhere.
 */
export function binCounts(axes: readonly BinAxis[], weights: GPUArray | undefined, what: string): GPUArray {
  const backend = axes[0]!.x.backend, d = backend.dialect, ix = targetOf(d).indexType;
  const acc: DType = weights === undefined ? "int64" : sumType(backend);
  const hist = fill(new GPUArray(backend, axes.map((a) => a.bins), acc), 0);
  const arrays = [...axes.map((a) => a.x), ...(weights === undefined ? [] : [weights])];
  const edgeTypes = axes.map((a) => a.edges.dtype);
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
