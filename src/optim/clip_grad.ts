/**
 * `clipGradNorm`, PyTorch's `torch.nn.utils.clip_grad_norm_`: the norm of all gradients taken together,
 * and every gradient scaled in place so that it is at most `maxNorm`, without reading the norm back to
 * the host.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import { targetOf } from "../codegen/targets.ts";
import { activeBackend } from "../device/active.ts";
import { GPUArray } from "../array/core/gpuarray.ts";
import { copyInto, copyOf } from "../array/exec/loop.ts";
import { reduceInto, type Reduction } from "../array/exec/reduction.ts";
import { fill } from "../array/ops/assign.ts";
import type { Tree } from "../array/grad/api.ts";
import { checkOptions } from "../kernel/options.ts";
import { arrayLeaves } from "./_params.ts";
import { foreach, type ForeachUpdate } from "./_foreach.ts";

/** {@link clipGradNorm}'s options (PyTorch's, in camelCase). */
export interface ClipGradNormOptions {
  /** The order of the norm: a number > 0, or `Infinity` for the largest magnitude. Default 2. */
  readonly normType?: number;
  /** Throw (reading the norm back to the host) when the total norm is NaN or infinite. Default false. */
  readonly errorIfNonfinite?: boolean;
}

type Kind = "1" | "2" | "inf" | "p";

const kindOf = (p: number): Kind => (p === 1 ? "1" : p === 2 ? "2" : p === Infinity ? "inf" : "p");

/** Combining two partial results: a sum, or the larger (NaN wins) for the infinity norm. */
const combine = (kind: Kind) => (kind === "inf" ? "return (a > b || a != a) ? a : b;" : "return a + b;");

/** The reduction of one gradient to its sum of |x|^p (or its largest |x|), into one element. */
function partial(g: GPUArray, kind: Kind, p: number, acc: DType): Reduction {
  const t = targetOf(g.backend.dialect), ct = t.cType(acc);
  const abs = (x: string) => `${t.mathFn("fabs", acc)}(${x})`;
  const term = kind === "2" ? "x * x" : kind === "p" ? `${t.mathFn("pow", acc)}(${abs("x")}, s)` : abs("x");
  return {
    key: `clip_grad_norm:${kind}`,
    name: "cudeno_grad_norm",
    arrays: [g],
    values: [p],
    scalars: [acc],
    acc: { dtype: acc, identity: "0" },
    combine: combine(kind),
    prologue: (ref, scalar, _i, into) =>
      `{ const ${ct} s = ${scalar[0]}; const ${ct} x = (${ct})${
        t.load(ref[0]!, g.dtype)
      }; ${into} = ${term}; }`,
    epilogue: (a) => a,
    helpers: "",
    out: acc,
  };
}

/** The reduction of the partial results to the total norm. */
function total(partials: GPUArray, kind: Kind, p: number): Reduction {
  const acc = partials.dtype, t = targetOf(partials.backend.dialect);
  return {
    key: `clip_grad_total:${kind}`,
    name: "cudeno_grad_norm_total",
    arrays: [partials],
    values: [1 / p],
    scalars: [acc],
    acc: { dtype: acc, identity: "0" },
    combine: combine(kind),
    prologue: (ref, _scalar, _i, into) => `${into} = ${ref[0]};`,
    epilogue: (a, scalar) =>
      kind === "2"
        ? `${t.mathFn("sqrt", acc)}(${a})`
        : kind === "p"
        ? `${t.mathFn("pow", acc)}(${a}, ${scalar[0]})`
        : a,
    helpers: "",
    out: acc,
  };
}

const SCALE: ForeachUpdate = {
  key: "clip_grad_scale",
  name: "cudeno_clip_grad",
  slots: [{ name: "grad", written: true }],
  scalars: ["maxNorm", "eps"],
  // clip_coef = max_norm / (total_norm + 1e-6), clamped to at most 1 (a NaN norm stays NaN).
  body: (e) =>
    `${e.type} c = ${e.scalar("maxNorm")} / (${e.shared} + ${e.scalar("eps")}); if (c > 1) c = 1;\n${
      e.write("grad", `${e.read("grad")} * c`)
    }`,
};

/**
 * Scales the gradients of a tree in place so that their norm, taken over all of them together, is at
 * most `maxNorm` (PyTorch's `clip_grad_norm_`): each is multiplied by `min(1, maxNorm / (norm +
 * 1e-6))`. Returns the total norm before clipping as a 0-d array (float32, or float64 when a gradient
 * is float64), computed on the device: reading it (`Number(norm)`) waits for the device.
 *
 * @param grads A gradient tree (what `ga.grad` returns) or a list of arrays.
 * @param maxNorm The largest norm the gradients keep.
 * @throws {RangeError} for a `normType` that is not a number > 0; with `errorIfNonfinite`, when the
 *   total norm is NaN or infinite (the gradients are left as they were).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as optim from "@cudeno/cudeno/optim";
 * const grads = { w: ga.full([4], 3), b: ga.full([], 4) }; // norm √(4·9 + 16) = √52
 * const norm = optim.clipGradNorm(grads, 1);
 * console.log(Number(norm), grads.w.get()); // 7.21..., each 3 / √52
 * ```
 */
export function clipGradNorm(grads: Tree, maxNorm: number, options?: ClipGradNormOptions): GPUArray {
  checkOptions(options, "clipGradNorm", "{ normType: 2 }", ["normType", "errorIfNonfinite"]);
  const p = options?.normType ?? 2;
  if (typeof p !== "number" || !(p > 0)) {
    throw new RangeError(
      `Cannot clipGradNorm with normType ${
        String(p)
      }: pass a number > 0, or Infinity for the largest magnitude`,
    );
  }
  if (typeof maxNorm !== "number" || Number.isNaN(maxNorm)) {
    throw new RangeError(`Cannot clipGradNorm to maxNorm ${String(maxNorm)}: pass a number`);
  }
  const list = arrayLeaves(grads);
  for (const g of list) {
    if (g.dtype !== "float16" && g.dtype !== "bfloat16" && g.dtype !== "float32" && g.dtype !== "float64") {
      throw new TypeError(`Cannot clipGradNorm a ${g.dtype} gradient: gradients are floating-point arrays`);
    }
  }
  if (list.length === 0) return fill(new GPUArray(activeBackend(), [], "float32"), 0);
  const backend = list[0]!.backend;
  if (list.some((g) => g.backend !== backend)) {
    throw new TypeError(`Cannot clipGradNorm gradients on different backends: copy them to one first`);
  }
  const kind = kindOf(p), acc: DType = list.some((g) => g.dtype === "float64") ? "float64" : "float32";
  const result = new GPUArray(backend, [], acc);
  {
    using partials = new GPUArray(backend, [list.length], acc);
    list.forEach((g, k) => {
      const axes = g.shape.map((_, i) => i);
      reduceInto(
        partial(g, kind, p, acc),
        g.shape,
        axes,
        { buffer: partials.buffer, offset: k, strides: [] },
        "clipGradNorm",
      );
    });
    reduceInto(total(partials, kind, p), [list.length], [0], {
      buffer: result.buffer,
      offset: 0,
      strides: [],
    }, "clipGradNorm");
  }
  if (options?.errorIfNonfinite === true) {
    const value = Number(result);
    if (!Number.isFinite(value)) {
      result.free();
      throw new RangeError(
        `Cannot clipGradNorm: the total norm of order ${p} of the gradients is ${value}, so they cannot be clipped (leave errorIfNonfinite false to scale them by it anyway)`,
      );
    }
  }
  const strided = list.filter((g) => !g.isContiguous);
  const copies = strided.map((g) => copyOf(g));
  try {
    foreach(
      SCALE,
      list.map((g) => [g.isContiguous ? g : copies[strided.indexOf(g)]!]),
      [maxNorm, 1e-6],
      result,
    );
    strided.forEach((g, i) => copyInto(g, copies[i]!, "clipGradNorm"));
  } finally {
    for (const c of copies) c.free();
  }
  return result;
}
