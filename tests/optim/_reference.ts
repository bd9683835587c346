/**
 * Float64 host implementations of PyTorch's optimizer updates (torch/optim/{sgd,adam,adamw,rmsprop}.py,
 * the single-tensor forms written element by element), and the data the optimizer tests share.
 */

import * as ga from "../../src/array/mod.ts";
import { fromBfloat16Bits, roundBfloat16 } from "../../src/kernel/bfloat16.ts";
import { activeBackend } from "../../src/device/active.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";

/**
 * Registers `name [backend]` for CUDA and OpenCL as `eachBackend` does, reported as ignored (with the
 * reason) also where the device lacks `dtype`.
 */
export function eachBackendWith(
  dtype: ga.GPUArray["dtype"],
  name: string,
  fn: (backend: ga.BackendName) => void,
): void {
  for (const backend of ["cuda", "opencl"] as const) {
    let problem = backend === "cuda" ? cudaProblem : openclProblem;
    if (problem === undefined) {
      ga.useBackend(backend);
      if (!activeBackend().supports(dtype)) problem = `${activeBackend().device} has no ${dtype}`;
    }
    Deno.test({
      name: problem === undefined
        ? `${name} [${backend}]`
        : `${name} [${backend}; ignored: ${problem.split("\n")[0]!.split(": no candidate")[0]}]`,
      ignore: problem !== undefined,
      fn: () => {
        ga.useBackend(backend);
        fn(backend);
      },
    });
  }
}

/** A seeded generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** How a value is stored in each float dtype (the host's float64 rounded as the device stores it). */
export function storeAs(dtype: string): (x: number) => number {
  if (dtype === "float32") return Math.fround;
  if (dtype === "float16") return Math.f16round;
  if (dtype === "bfloat16") return roundBfloat16;
  return (x) => x;
}

/** An array of `dtype` holding `values` (already representable in it). */
export function upload(
  values: readonly number[],
  shape: readonly number[],
  dtype: ga.GPUArray["dtype"],
): ga.GPUArray {
  if (dtype === "bfloat16") {
    return ga.asarray(values, "float32").reshape(shape as number[]).astype("bfloat16");
  }
  return ga.asarray(values, dtype as "float32").reshape(shape as number[]);
}

/** An array's elements as float64 numbers, in C order. */
export function download(a: ga.GPUArray): number[] {
  const host = a.get();
  if (a.dtype === "bfloat16") return Array.from(host as Uint16Array, fromBfloat16Bits);
  return Array.from(host as Float32Array, Number);
}

/** Random values in [-scale, scale), stored as `dtype`. */
export function randomValues(random: () => number, n: number, dtype: string, scale = 1): number[] {
  const store = storeAs(dtype);
  return Array.from({ length: n }, () => store((2 * random() - 1) * scale));
}

/** Shapes of many small parameters: more than one multi-tensor launch takes on either backend. */
export const SHAPES: readonly (readonly number[])[] = Array.from(
  { length: 60 },
  (_, i) => [[], [3], [4, 5], [2, 3, 2], [17], [1], [6, 1]][i % 7]!,
);

/** Throws unless every element of `got` is within `atol + rtol·|want|` of `want`. */
export function assertClose(
  got: readonly number[],
  want: readonly number[],
  tol: number,
  what: string,
): void {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} elements, want ${want.length}`);
  for (let i = 0; i < got.length; i++) {
    const g = got[i]!, w = want[i]!;
    if (!(Math.abs(g - w) <= tol * (1 + Math.abs(w)))) {
      throw new Error(
        `${what}: element ${i} is ${g}, want ${w} (difference ${Math.abs(g - w)}, tolerance ${tol})`,
      );
    }
  }
}

/** ATen's lerp: `self + w (end - self)` for w < 0.5, else `end - (end - self)(1 - w)`. */
const lerp = (
  self: number,
  end: number,
  w: number,
) => (w < 0.5 ? self + w * (end - self) : end - (end - self) * (1 - w));

/** Host state of one parameter. */
export type HostState = Record<string, number[] | number>;

/** One PyTorch SGD step of one parameter, on the host; returns the new parameter. */
export function sgdStep(
  p: readonly number[],
  grad: readonly number[],
  state: HostState,
  o: {
    lr: number;
    momentum?: number;
    dampening?: number;
    weightDecay?: number;
    nesterov?: boolean;
    maximize?: boolean;
  },
): number[] {
  const momentum = o.momentum ?? 0, dampening = o.dampening ?? 0, wd = o.weightDecay ?? 0;
  const first = state.buf === undefined;
  const buf = (state.buf as number[] | undefined) ?? new Array(p.length).fill(0);
  const out = p.map((x, i) => {
    let g = o.maximize ? -grad[i]! : grad[i]!;
    if (wd !== 0) g += wd * x;
    if (momentum !== 0) {
      buf[i] = first ? g : momentum * buf[i]! + (1 - dampening) * g;
      g = o.nesterov ? g + momentum * buf[i]! : buf[i]!;
    }
    return x - o.lr * g;
  });
  if (momentum !== 0) state.buf = buf;
  return out;
}

/** One PyTorch Adam (or AdamW, `decoupled`) step of one parameter, on the host. */
export function adamStep(
  p: readonly number[],
  grad: readonly number[],
  state: HostState,
  o: {
    lr: number;
    betas?: [number, number];
    eps?: number;
    weightDecay?: number;
    amsgrad?: boolean;
    maximize?: boolean;
    decoupled: boolean;
  },
): number[] {
  const [b1, b2] = o.betas ?? [0.9, 0.999], eps = o.eps ?? 1e-8;
  const wd = o.weightDecay ?? (o.decoupled ? 1e-2 : 0);
  const step = ((state.step as number | undefined) ?? 0) + 1;
  state.step = step;
  const m = (state.m as number[] | undefined) ?? new Array(p.length).fill(0);
  const v = (state.v as number[] | undefined) ?? new Array(p.length).fill(0);
  const h = (state.h as number[] | undefined) ?? new Array(p.length).fill(0);
  const bias1 = 1 - b1 ** step, bias2Sqrt = Math.sqrt(1 - b2 ** step), stepSize = o.lr / bias1;
  const out = p.map((x0, i) => {
    let x = x0, g = o.maximize ? -grad[i]! : grad[i]!;
    if (wd !== 0) {
      if (o.decoupled) x *= 1 - o.lr * wd;
      else g += wd * x;
    }
    m[i] = lerp(m[i]!, g, 1 - b1);
    v[i] = v[i]! * b2 + (1 - b2) * g * g;
    let second = v[i]!;
    if (o.amsgrad) second = h[i] = Math.max(h[i]!, v[i]!);
    return x - stepSize * (m[i]! / (Math.sqrt(second) / bias2Sqrt + eps));
  });
  Object.assign(state, { m, v, h });
  return out;
}

/** One PyTorch RMSprop step of one parameter, on the host. */
export function rmspropStep(
  p: readonly number[],
  grad: readonly number[],
  state: HostState,
  o: {
    lr: number;
    alpha?: number;
    eps?: number;
    weightDecay?: number;
    momentum?: number;
    centered?: boolean;
  },
): number[] {
  const alpha = o.alpha ?? 0.99, eps = o.eps ?? 1e-8, wd = o.weightDecay ?? 0, momentum = o.momentum ?? 0;
  const zeros = () => new Array(p.length).fill(0);
  const sq = (state.sq as number[] | undefined) ?? zeros();
  const avg = (state.avg as number[] | undefined) ?? zeros();
  const buf = (state.buf as number[] | undefined) ?? zeros();
  const out = p.map((x, i) => {
    let g = grad[i]!;
    if (wd !== 0) g += wd * x;
    sq[i] = sq[i]! * alpha + (1 - alpha) * g * g;
    let d: number;
    if (o.centered) {
      avg[i] = lerp(avg[i]!, g, 1 - alpha);
      d = Math.sqrt(sq[i]! - avg[i]! * avg[i]!) + eps;
    } else {
      d = Math.sqrt(sq[i]!) + eps;
    }
    if (momentum > 0) {
      buf[i] = momentum * buf[i]! + g / d;
      return x - o.lr * buf[i]!;
    }
    return x - o.lr * g / d;
  });
  Object.assign(state, { sq, avg, buf });
  return out;
}

/** A host step of one parameter: the new values from the old, the gradient and the state. */
export type HostStep = (p: readonly number[], grad: readonly number[], state: HostState) => number[];

/**
 * Runs `steps` steps of an optimizer made by `make` over the parameters of {@link SHAPES} (as a tree:
 * `{ layers: [...], head: { w } }`), with random gradients, beside the host reference `reference`;
 * throws unless every parameter matches after each step.
 */
export function checkTrajectory(
  make: (params: ga.Tree) => { step(grads: ga.Tree): void },
  reference: HostStep,
  options: { dtype: ga.GPUArray["dtype"]; steps: number; tol: number; seed: number; what: string },
): void {
  const random = rng(options.seed), dtype = options.dtype;
  const sizes = SHAPES.map((s) => s.reduce((a, b) => a * b, 1));
  const host = sizes.map((n) => randomValues(random, n, dtype));
  const arrays = host.map((v, i) => upload(v, SHAPES[i]!, dtype));
  const tree = { layers: arrays.slice(0, -1), head: { w: arrays.at(-1)! } };
  const opt = make(tree);
  const states: HostState[] = sizes.map(() => ({}));
  for (let step = 0; step < options.steps; step++) {
    const grads = sizes.map((n) => randomValues(random, n, dtype, 2));
    const gradArrays = grads.map((g, i) => upload(g, SHAPES[i]!, dtype));
    opt.step({ layers: gradArrays.slice(0, -1), head: { w: gradArrays.at(-1)! } });
    for (const g of gradArrays) g.free();
    host.forEach((p, i) => (host[i] = reference(p, grads[i]!, states[i]!)));
    arrays.forEach((a, i) => {
      assertClose(download(a), host[i]!, options.tol, `${options.what}, step ${step + 1}, parameter ${i}`);
    });
  }
  if (tree.head.w !== arrays.at(-1) || tree.layers.some((a, i) => a !== arrays[i])) {
    throw new Error(`${options.what}: the parameter arrays were replaced`);
  }
  for (const a of arrays) a.free();
}

/** Counts the kernel launches of `backend` while `work` runs. */
export function countLaunches(backend: ga.Backend, work: () => void): number {
  let launches = 0;
  const b = backend as unknown as { kernel: ga.Backend["kernel"] };
  const original = b.kernel;
  b.kernel = function (this: ga.Backend, ...args: Parameters<ga.Backend["kernel"]>) {
    const kernel = original.apply(this, args);
    return new Proxy(kernel, {
      get(target, property) {
        if (property !== "launch") return Reflect.get(target, property);
        return (...launch: Parameters<ga.BackendKernel["launch"]>) => {
          launches++;
          return target.launch(...launch);
        };
      },
    });
  } as ga.Backend["kernel"];
  try {
    work();
  } finally {
    delete (b as { kernel?: unknown }).kernel;
    if (b.kernel !== original) b.kernel = original;
  }
  return launches;
}
