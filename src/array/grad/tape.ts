/**
 * The gradient slot of the array module's dispatch: while `grad`, `valueAndGrad`, `vjp` or `jvp` runs
 * a function, each differentiable operation that reads an array the differentiation tracks reports
 * itself here ({@link record}) with its inputs, its output and its vector-Jacobian rule, and its output
 * becomes tracked in turn. The rules are written in array operations, so the backward pass is array
 * code like any other: it records on the tapes further out (`grad` of `grad`).
 *
 * This module is a leaf: the operations import it; it imports none of them (the rules get the
 * operations they need through {@link GradOps}).
 *
 * @module
 */

import { DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";

/**
 * The operations a rule may call beyond `GPUArray`'s methods, handed in by the backward pass (which
 * may import them; the op tables may not, as that would be an import cycle).
 */
export interface GradOps {
  /** `ga.where`. */
  where(c: GPUArray, x: GPUArray | number, y: GPUArray | number): GPUArray;
  /** `ga.zeros(shape, dtype)`. */
  zeros(shape: readonly number[], dtype: GPUArray["dtype"]): GPUArray;
  /** The sum of `g` over the axes that broadcasting added to reach its shape from `shape`. */
  sumTo(g: GPUArray, shape: readonly number[]): GPUArray;
  /** `g` broadcast to `shape` (a view). */
  broadcastTo(g: GPUArray, shape: readonly number[]): GPUArray;
  /** `g` reshaped (a view where strides allow). */
  reshape(g: GPUArray, shape: readonly number[]): GPUArray;
  /** `ga.sum(x, axes, { keepdims: true })`. */
  sumKeep(x: GPUArray, axes: readonly number[]): GPUArray;
  /** `ga.mean(x, axes, { keepdims: true })`. */
  meanKeep(x: GPUArray, axes: readonly number[]): GPUArray;
  /** `ga.arange(n)` as int64 on the backend of the pass. */
  arange(n: number): GPUArray;
  /** `ga.matmul(a, b)`. */
  matmul(a: GPUArray, b: GPUArray): GPUArray;
  /** `ga.transpose(a, axes)`. */
  transpose(a: GPUArray, axes: readonly number[]): GPUArray;
  /** `ga.complex(re, im)`. */
  complex(re: GPUArray | number, im: GPUArray | number): GPUArray;
  /**
   * `g` placed into zeros of `shape` where `view` of such an array would read it: the gradient of a
   * view that reads each element at most once (a slice, a flip, a diagonal).
   */
  embed(g: GPUArray, shape: readonly number[], view: (t: GPUArray) => GPUArray): GPUArray;
}

/** What a rule is given: the operation's inputs and output, which inputs need a gradient, the operations. */
export interface VjpContext {
  /** The operation's operands as it was called with them (arrays, scalars). */
  readonly inputs: readonly unknown[];
  /** Its result. */
  readonly output: GPUArray;
  /** Whether input i is an array the differentiation tracks (only those need a gradient). */
  readonly need: readonly boolean[];
  /** Operations beyond the methods. */
  readonly ops: GradOps;
}

/**
 * A vector-Jacobian rule: from the gradient `g` of the output, the gradient of each input (undefined
 * where none is needed or none flows). A gradient may have a shape that broadcasts to or from its
 * input's (it is summed or broadcast to fit) and any float dtype (it is converted).
 */
export type Vjp = (g: GPUArray, c: VjpContext) => readonly (GPUArray | undefined)[];

/** One recorded operation. */
export interface Entry {
  /** The operation, as messages name it. */
  readonly what: string;
  readonly inputs: readonly unknown[];
  readonly output: GPUArray;
  /** Its rule; undefined for an operation without one (differentiating through it is an error). */
  readonly vjp: Vjp | undefined;
}

/** One differentiation's recording: the arrays it tracks and the operations on them, in order. */
export class Tape {
  /** Arrays whose value depends on the differentiated arguments. */
  readonly tracked: Set<GPUArray> = new Set();
  readonly entries: Entry[] = [];
}

/** The tapes recording now (innermost last); a tape leaves while its own backward pass runs. */
const active: Tape[] = [];

/** Whether `x` is an array some recording tape tracks. */
export function isTracked(x: unknown): boolean {
  if (active.length === 0 || !(x instanceof GPUArray)) return false;
  for (const tape of active) if (tape.tracked.has(x)) return true;
  return false;
}

/** Whether the dtype carries gradients (the float and complex dtypes). */
export function differentiable(dtype: GPUArray["dtype"]): boolean {
  const kind = DTYPES[dtype].kind;
  return kind === "float" || kind === "complex";
}

/**
 * `x` conjugated where it is complex. A rule written for real numbers, `ḡ·f'(x)`, becomes the complex
 * one, `ḡ·conj(f'(z))` (PyTorch's convention: the gradient of a real loss L is ∂L/∂Re z + i·∂L/∂Im z),
 * when handed the conjugates of the operands and result: `f'(z̄) = conj(f'(z))` for every holomorphic
 * function of the tables (real Taylor coefficients). The rules that are not holomorphic (abs, angle,
 * conj, real, imag) are written for complex numbers themselves.
 */
export function conjugated<T>(x: T): T {
  if (!(x instanceof GPUArray)) return x;
  return DTYPES[(x as GPUArray).dtype].kind === "complex" ? (x as GPUArray).conj() as T : x;
}

/**
 * Reports an operation to the tapes recording: on each tape that tracks one of `inputs`, it is
 * recorded and `output` becomes tracked. Outputs of integer or bool dtype carry no gradient and are
 * not recorded. Costs one length test when nothing records.
 */
export function record(
  what: string,
  inputs: readonly unknown[],
  output: GPUArray,
  vjp: Vjp | undefined,
): void {
  if (active.length === 0 || !differentiable(output.dtype)) return;
  for (const tape of active) {
    if (!inputs.some((x) => x instanceof GPUArray && x !== output && tape.tracked.has(x))) continue;
    tape.entries.push({ what, inputs, output, vjp });
    tape.tracked.add(output);
  }
}

/**
 * Refuses to write into `target` while a tape tracks it or `sources`: an in-place write would change
 * a value the backward pass reads.
 */
export function refuseTrackedWrite(what: string, target: GPUArray, sources: readonly unknown[] = []): void {
  if (active.length === 0) return;
  if (isTracked(target) || sources.some(isTracked)) {
    throw new TypeError(
      `Cannot ${what} in place inside a differentiated function: the gradient would read the overwritten values; compute a new array instead (for example ga.where(mask, value, x) or ga.concatenate)`,
    );
  }
}

/** Runs `fn` with `tape` recording. */
export function recording<T>(tape: Tape, fn: () => T): T {
  active.push(tape);
  try {
    return fn();
  } finally {
    active.splice(active.lastIndexOf(tape), 1);
  }
}

/** Runs `fn` with `tape` not recording (its own backward pass); the tapes further out still record. */
export function paused<T>(tape: Tape, fn: () => T): T {
  const at = active.lastIndexOf(tape);
  if (at < 0) return fn();
  active.splice(at, 1);
  try {
    return fn();
  } finally {
    active.splice(at, 0, tape);
  }
}

/** Whether any tape records now (so a differentiation runs inside another). */
export function nested(): boolean {
  return active.length > 0;
}

/** Whether a differentiation tracks one of `inputs`. */
export function tracked(...inputs: readonly unknown[]): boolean {
  return inputs.some(isTracked);
}

/**
 * Runs `forward` with no tape recording and reports the results `outputs` picks from its value to the
 * tapes that track `inputs`, each with its rule (undefined: differentiating through it is an error
 * naming `what`).
 */
export function differentiated<T>(
  what: string,
  inputs: readonly unknown[],
  forward: () => T,
  outputs: (value: T) => readonly (readonly [GPUArray, Vjp | undefined])[],
): T {
  const value = unrecorded(forward);
  for (const [output, rule] of outputs(value)) record(what, inputs, output, rule);
  return value;
}

/** Runs `fn` with no tape recording (a custom rule's forward pass). */
export function unrecorded<T>(fn: () => T): T {
  const saved = active.splice(0);
  try {
    return fn();
  } finally {
    active.unshift(...saved);
  }
}

/**
 * A reduction's rule: from the gradient `g` and result `y`, both with the reduced axes kept (extent
 * 1), the input's gradient (of the input's shape, or one that broadcasts to it).
 */
export type ReduceVjp = (
  g: GPUArray,
  x: GPUArray,
  y: GPUArray,
  axes: readonly number[],
  ops: GradOps,
) => GPUArray;

/** Reports a reduction of `x` over `axes` to the tapes (see {@link record}). */
export function recordReduction(
  what: string,
  x: GPUArray,
  y: GPUArray,
  axes: readonly number[],
  keepdims: boolean,
  rule: ReduceVjp | undefined,
): void {
  if (active.length === 0) return;
  const kept = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  record(
    what,
    [x],
    y,
    rule &&
      ((g, c) => [
        rule(
          keepdims ? g : c.ops.reshape(g, kept),
          conjugated(x),
          conjugated(keepdims ? y : c.ops.reshape(y, kept)),
          axes,
          c.ops,
        ),
      ]),
  );
}
