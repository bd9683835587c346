/**
 * What a JIT kernel case of `kernels.ts` is: the kernel with its sizes, launch configuration, seeded
 * inputs, host reference and comparison ({@link KernelCase}), and the helpers the cases share to make
 * inputs (a seeded generator, f32 rounding) and compare outputs within a {@link Tolerance}.
 *
 * @module
 */

import type { HostArray, JitKernel, LaunchConfig } from "../../src/jit/mod.ts";

/** Arguments in parameter order: host arrays and numbers. */
export type KernelArgs = (number | HostArray)[];

/** Output arrays by parameter name. */
export type Outputs = Record<string, HostArray>;

/** How far a result may be from the reference. */
export interface Tolerance {
  /** Absolute tolerance per element. */
  readonly atol: number;
  /** Relative tolerance per element (of the reference's magnitude). */
  readonly rtol: number;
  /** The fraction of elements allowed outside the tolerance (for escape counts that FMA can change). */
  readonly outliers: number;
  /** Why these numbers. */
  readonly why: string;
}

/** One kernel with its inputs, reference and comparison. */
export interface KernelCase {
  /** The kernel's name. */
  readonly name: string;
  /** The kernel. */
  readonly kernel: JitKernel;
  /** Default problem sizes, small enough for the simulator; GPU runs may pass larger ones. */
  readonly sizes: Readonly<Record<string, number>>;
  /** The parameters the kernel writes, compared after the run. */
  readonly outputs: readonly string[];
  /** The tolerance `compare` applies. */
  readonly tolerance: Tolerance;
  /** The launch configuration for the sizes. */
  config(sizes?: Readonly<Record<string, number>>): LaunchConfig;
  /** Seeded inputs (and zeroed outputs) in parameter order. */
  makeArgs(seed: number, sizes?: Readonly<Record<string, number>>): KernelArgs;
  /** The expected outputs, computed on the host from the inputs. */
  reference(args: KernelArgs): Outputs;
  /** Throws an Error naming the first output element out of tolerance. */
  compare(actual: Outputs, expected: Outputs): void;
}

/** Picks a case's output arrays out of its arguments. */
export function outputsOf(c: KernelCase, args: KernelArgs): Outputs {
  const names = c.kernel.params.map((p) => p.name);
  return Object.fromEntries(c.outputs.map((name) => [name, args[names.indexOf(name)] as HostArray]));
}

/** A seeded generator of floats in [0, 1) (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` seeded floats in [lo, hi). */
export function floats(n: number, next: () => number, lo = -1, hi = 1): Float32Array {
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * next());
}

/** Rounds to f32, as every f32 operation of a kernel does. */
export const fr: (x: number) => number = Math.fround;

/** The `compare` of a case: throws on the first output element out of `tolerance`. */
export function comparer(tolerance: Tolerance): (actual: Outputs, expected: Outputs) => void {
  return (actual, expected) => {
    for (const [name, want] of Object.entries(expected)) {
      const got = actual[name];
      if (got.length !== want.length) {
        throw new Error(`${name}: length ${got.length}, expected ${want.length}`);
      }
      let bad = 0, first = -1;
      for (let i = 0; i < want.length; i++) {
        const limit = tolerance.atol + tolerance.rtol * Math.abs(want[i]);
        const ok = got[i] === want[i] || Math.abs(got[i] - want[i]) <= limit;
        if (!ok && bad++ === 0) first = i;
      }
      if (bad > tolerance.outliers * want.length) {
        throw new Error(
          `${name}[${first}] is ${got[first]}, expected ${
            want[first]
          } (${bad} of ${want.length} elements out of ` +
            `atol ${tolerance.atol}, rtol ${tolerance.rtol})`,
        );
      }
    }
  };
}

/** Exact agreement. */
export const EXACT: Tolerance = {
  atol: 0,
  rtol: 0,
  outliers: 0,
  why: "integer results, or one rounding per element",
};
/** The f32 rounding a GPU may save by fusing a multiply-add. */
export const FMA: Tolerance = {
  atol: 1e-6,
  rtol: 1e-6,
  outliers: 0,
  why: "the simulator rounds every f32 operation; a GPU may fuse a*b+c into one rounding (FMA)",
};

/** The blocks of `size` threads that cover `n` elements. */
export function blocks(n: number, size: number): number {
  return Math.ceil(n / size);
}
