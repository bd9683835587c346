/**
 * Losses (PyTorch's `cross_entropy`, `nll_loss`, `mse_loss`, `binary_cross_entropy_with_logits`), with
 * PyTorch's `reduction` ("mean", "sum", "none") and weighting rules. Class targets are integer arrays;
 * the class picked by each target is read through a one-hot comparison with the class indices, so the
 * losses are elementwise work and reductions and differentiate with `ga.grad`. A reduced loss is a 0-d
 * array (read it with `Number(loss)` or `loss.item()`).
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { forReduction } from "./autocast.ts";
import { checkBeforeRead } from "../array/core/host_read.ts";
import { collectArrays } from "../array/core/gpuarray.ts";
import {
  expectShape,
  floatArg,
  indexArg,
  optionalFloat,
  options,
  reduce,
  type Reduction,
  reductionArg,
  showShape,
  total,
  unitArg,
} from "./_check.ts";

/** Options of {@link nllLoss}. */
export interface NllLossOptions {
  /** A weight per class, `[C]`. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** A target value that contributes nothing (nor to the mean's denominator). Default -100. */
  readonly ignoreIndex?: number;
  /** "mean" (default; weighted by the targets' class weights), "sum" or "none". */
  readonly reduction?: Reduction;
}

/** Options of {@link crossEntropy}. */
export interface CrossEntropyOptions extends NllLossOptions {
  /** Mixes the target with the uniform distribution over the C classes: `(1 - ε)·target + ε/C`. Default 0. */
  readonly labelSmoothing?: number;
}

/** Options of {@link mseLoss}. */
export interface MseLossOptions {
  /** "mean" (default), "sum" or "none". */
  readonly reduction?: Reduction;
}

/** Options of {@link binaryCrossEntropyWithLogits}. */
export interface BceWithLogitsOptions {
  /** A weight per element, broadcast to the input's shape. Default none (1). */
  readonly weight?: ga.GPUArray | null;
  /** A weight of the positive term per class, broadcast along the last axis. Default none (1). */
  readonly posWeight?: ga.GPUArray | null;
  /** "mean" (default), "sum" or "none". */
  readonly reduction?: Reduction;
}

/** What a class loss works from: the class axis, the one-hot targets, their weights and the ignore mask. */
interface ClassTargets {
  readonly axis: number;
  readonly classes: number;
  /** `[N, C, d...]` in the input's dtype: 1 at each (not ignored) target class. */
  readonly hot: ga.GPUArray;
  /** `[1, C, 1...]`, the class weights shaped to broadcast along the class axis, or undefined. */
  readonly weight: ga.GPUArray | undefined;
  /** `[N, d...]` bool: where the target is `ignoreIndex`. */
  readonly ignored: ga.GPUArray;
  /** 0-d bool: whether a target is neither a class index nor `ignoreIndex`. */
  readonly invalid: ga.GPUArray;
  /** Throws the error naming the first such target, if there is one (reads the device). */
  readonly check: () => void;
}

/** Checks an `[N, C, d...]` (or `[C]`) input against an `[N, d...]` (or `[]`) integer target. */
function classTargets(
  what: string,
  x: ga.GPUArray,
  target: ga.GPUArray,
  weight: ga.GPUArray | undefined,
  ignoreIndex: number,
): ClassTargets {
  if (x.ndim === 0) throw new RangeError(`Cannot ${what} a 0-d input: it must be [N, C, ...] or [C]`);
  const axis = x.ndim === 1 ? 0 : 1;
  const classes = x.shape[axis]!;
  const want = x.shape.filter((_, i) => i !== axis);
  if (target.ndim !== want.length || target.shape.some((d, i) => d !== want[i])) {
    throw new RangeError(
      `Cannot ${what} an input of shape ${showShape(x.shape)} with a target of shape ${
        showShape(target.shape)
      }: the target must be ${showShape(want)}, the input's shape without its class axis ${axis}`,
    );
  }
  if (!Number.isInteger(ignoreIndex)) {
    throw new RangeError(`Cannot ${what} with ignoreIndex ${ignoreIndex}: pass an integer`);
  }
  const ignored = target.eq(ignoreIndex);
  const valid = ignored.logicalOr(target.ge(0).logicalAnd(target.lt(classes)));
  // Checked on the device, not waited for: the loss is NaN where a target is out of range, and reading it
  // (Number(loss), get(), item()) throws this error.
  const notValid = valid.logicalNot().reshape([-1]);
  // Made outside a differentiated call's tidy-up, which frees what the call made: the loss may be read
  // after the call returns. `bad` is the largest bad target (any one names the mistake).
  const collecting = collectArrays(undefined);
  let invalid: ga.GPUArray, bad: ga.GPUArray | undefined;
  try {
    invalid = ga.any(notValid, 0);
    const flat = target.reshape([-1]); // the smallest target stands in for the good ones: no bad one is below it
    if (target.size > 0) bad = ga.max(ga.where(notValid, flat, ga.min(flat, 0)), 0);
  } finally {
    collectArrays(collecting);
  }
  const check = () => {
    if (!invalid.item()) return;
    throw new RangeError(
      `Cannot ${what} with target ${bad!.item()}: targets must be class indices from 0 to ${
        classes - 1
      } (or ignoreIndex ${ignoreIndex})`,
    );
  };
  const column = x.shape.map((d, i) => (i === axis ? d : 1));
  const ids = ga.arange(classes, "int64").reshape(column);
  const counted = ga.expandDims(ignored.logicalNot(), axis);
  const hot = ga.expandDims(target, axis).eq(ids).logicalAnd(counted).astype(x.dtype);
  if (weight !== undefined) expectShape(weight, [classes], what, "weight");
  return { axis, classes, hot, weight: weight?.reshape(column), ignored, invalid, check };
}

/** `loss` NaN where a target was out of range, its reading checking them (see {@link classTargets}). */
function checked(loss: ga.GPUArray, t: ClassTargets): ga.GPUArray {
  const out = ga.where(t.invalid, NaN, loss);
  checkBeforeRead(out, t.check);
  return out;
}

/** The negative log-likelihood terms `-w[t]·logp[t]`, and the weight of each target (0 where ignored). */
function nllTerms(logp: ga.GPUArray, t: ClassTargets): { loss: ga.GPUArray; weights: ga.GPUArray } {
  const hot = t.weight === undefined ? t.hot : t.hot.mul(t.weight);
  return { loss: logp.mul(hot).sum(t.axis).neg(), weights: hot.sum(t.axis) };
}

/** PyTorch's reduction of class-loss terms: a "mean" divides by the targets' total weight. */
function reduceClass(loss: ga.GPUArray, weights: ga.GPUArray, reduction: Reduction): ga.GPUArray {
  if (reduction === "none") return loss;
  const s = total(loss);
  return reduction === "sum" ? s : s.div(total(weights));
}

/**
 * The negative log-likelihood loss (PyTorch's `nll_loss`) of log-probabilities `input` (`[N, C, d...]`
 * or `[C]`) for integer class `target`s (`[N, d...]` or `[]`): `-weight[t]·input[t]` per target; a
 * "mean" divides by the sum of the targets' weights. Targets equal to `ignoreIndex` count for nothing.
 *
 * @throws {TypeError} for a target that is not of an integer dtype.
 * @throws {RangeError} naming the shapes when the target's shape is not the input's without its class
 *   axis. A target outside 0..C-1 (other than `ignoreIndex`) is checked on the device without waiting
 *   for it: the loss is NaN, and reading it (`Number(loss)`, `get()`) throws a RangeError naming the target.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const logp = ga.logSoftmax(ga.random.normal([4, 3], { seed: 1 }), 1);
 * const loss = nn.nllLoss(logp, ga.asarray([0, 2, 1, 2], "int64")); // a 0-d array
 * ```
 */
export function nllLoss(input: ga.GPUArray, target: ga.GPUArray, opts?: NllLossOptions): ga.GPUArray {
  const what = "nllLoss";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, '{ ignoreIndex: -100, reduction: "mean" }', [
    "weight",
    "ignoreIndex",
    "reduction",
  ]);
  const reduction = reductionArg(o.reduction, what);
  const t = classTargets(
    what,
    x,
    indexArg(target, what, "target"),
    optionalFloat(o.weight, what, "weight"),
    o.ignoreIndex ?? -100,
  );
  const { loss, weights } = nllTerms(x, t);
  return checked(reduceClass(loss, weights, reduction), t);
}

/**
 * The cross-entropy loss of unnormalised scores `input` (`[N, C, d...]` or `[C]`) (PyTorch's
 * `cross_entropy`): `nllLoss(logSoftmax(input, classAxis), target)` for integer class targets, with
 * `weight`, `ignoreIndex` and `reduction` as there. With `labelSmoothing` ε the loss is
 * `(1 - ε)·nll + ε/C·Σ_c -weight[c]·logp[c]` (normalised as PyTorch's). A float `target` of the input's
 * shape is read as class probabilities instead: `Σ_c -weight[c]·target[c]·logp[c]`, a "mean" over the
 * `N·d...` positions.
 *
 * @throws {TypeError} for a target that is neither integers nor a float array of the input's shape.
 * @throws {RangeError} naming the shapes when they do not match; a target outside 0..C-1 makes the loss
 *   NaN, and reading it throws a RangeError naming the target (as {@link nllLoss}).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const logits = ga.random.normal([4, 3], { seed: 1 });
 * const labels = ga.asarray([0, 2, 1, -100], "int64"); // the last is ignored
 * const loss = nn.crossEntropy(logits, labels, { labelSmoothing: 0.1 });
 * const [value, dLogits] = ga.valueAndGrad((z: ga.GPUArray) => nn.crossEntropy(z, labels))(logits);
 * ```
 */
export function crossEntropy(
  input: ga.GPUArray,
  target: ga.GPUArray,
  opts?: CrossEntropyOptions,
): ga.GPUArray {
  const what = "crossEntropy";
  const x = forReduction(floatArg(input, what, "input"));
  const o = options(opts, what, "{ labelSmoothing: 0.1 }", [
    "weight",
    "ignoreIndex",
    "reduction",
    "labelSmoothing",
  ]);
  const reduction = reductionArg(o.reduction, what);
  const smoothing = unitArg(o.labelSmoothing ?? 0, what, "labelSmoothing");
  const weight = optionalFloat(o.weight, what, "weight");
  if (x.ndim === 0) throw new RangeError(`Cannot ${what} a 0-d input: it must be [N, C, ...] or [C]`);
  const axis = x.ndim === 1 ? 0 : 1;
  const logp = ga.logSoftmax(x, axis);
  if (target instanceof ga.GPUArray && ga.DTYPES[target.dtype].kind === "float") {
    return probabilityLoss(what, logp, target, weight, axis, smoothing, reduction);
  }
  const t = classTargets(what, x, indexArg(target, what, "target"), weight, o.ignoreIndex ?? -100);
  const { loss, weights } = nllTerms(logp, t);
  const nll = reduceClass(loss, weights, reduction);
  if (smoothing === 0) return checked(nll, t);
  const spread = t.weight === undefined ? logp : logp.mul(t.weight);
  const smooth = ga.where(t.ignored, 0, spread.sum(axis).neg());
  const smoothReduced = reduceClass(smooth, weights, reduction);
  return checked(nll.mul(1 - smoothing).add(smoothReduced.mul(smoothing / t.classes)), t);
}

/** Cross-entropy against class probabilities (a float target of the input's shape). */
function probabilityLoss(
  what: string,
  logp: ga.GPUArray,
  target: ga.GPUArray,
  weight: ga.GPUArray | undefined,
  axis: number,
  smoothing: number,
  reduction: Reduction,
): ga.GPUArray {
  expectShape(target, logp.shape, what, "a probability target");
  const classes = logp.shape[axis]!;
  let p = smoothing === 0 ? target : target.mul(1 - smoothing).add(smoothing / classes);
  if (weight !== undefined) {
    expectShape(weight, [classes], what, "weight");
    p = p.mul(weight.reshape(logp.shape.map((d, i) => (i === axis ? d : 1))));
  }
  const loss = logp.mul(p).sum(axis).neg();
  return reduce(loss, reduction);
}

/**
 * The mean squared error (PyTorch's `mse_loss`): `(input - target)²` per element, reduced.
 *
 * @throws {RangeError} naming both shapes when they differ.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const loss = nn.mseLoss(ga.asarray([1, 2, 3]), ga.asarray([1, 2, 5])); // 4/3
 * ```
 */
export function mseLoss(input: ga.GPUArray, target: ga.GPUArray, opts?: MseLossOptions): ga.GPUArray {
  const what = "mseLoss";
  const x = forReduction(floatArg(input, what, "input")), y = forReduction(floatArg(target, what, "target"));
  const o = options(opts, what, '{ reduction: "sum" }', ["reduction"]);
  const reduction = reductionArg(o.reduction, what);
  if (x.ndim !== y.ndim || x.shape.some((d, i) => d !== y.shape[i])) {
    throw new RangeError(
      `Cannot mseLoss an input of shape ${showShape(x.shape)} with a target of shape ${
        showShape(y.shape)
      }: they must have the same shape (reshape one; PyTorch's silent broadcast is refused)`,
    );
  }
  const d = x.sub(y);
  return reduce(d.mul(d), reduction);
}

/**
 * Binary cross-entropy of logits (PyTorch's `binary_cross_entropy_with_logits`):
 * `-(posWeight·y·log σ(x) + (1 - y)·log(1 - σ(x)))` per element, times `weight`, computed as
 * `(1 - y)·x + (1 + (posWeight - 1)·y)·softplus(-x)`, which stays finite for any logit.
 *
 * @throws {RangeError} naming both shapes when the target's differs from the input's.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * const logits = ga.asarray([[2, -1], [0, 3]]), labels = ga.asarray([[1, 0], [0, 1]]);
 * const loss = nn.binaryCrossEntropyWithLogits(logits, labels, { posWeight: ga.asarray([2, 1]) });
 * ```
 */
export function binaryCrossEntropyWithLogits(
  input: ga.GPUArray,
  target: ga.GPUArray,
  opts?: BceWithLogitsOptions,
): ga.GPUArray {
  const what = "binaryCrossEntropyWithLogits";
  const x = forReduction(floatArg(input, what, "input")), y = forReduction(floatArg(target, what, "target"));
  const o = options(opts, what, '{ posWeight, reduction: "sum" }', ["weight", "posWeight", "reduction"]);
  const reduction = reductionArg(o.reduction, what);
  expectShape(y, x.shape, what, "target");
  const weight = optionalFloat(o.weight, what, "weight");
  const posWeight = optionalFloat(o.posWeight, what, "posWeight");
  const softplusNeg = ga.logaddexp(x.neg(), 0);
  const logWeight = posWeight === undefined ? undefined : posWeight.sub(1).mul(y).add(1);
  let loss = ga.sub(1, y).mul(x).add(logWeight === undefined ? softplusNeg : logWeight.mul(softplusNeg));
  if (weight !== undefined) loss = loss.mul(weight);
  return reduce(loss, reduction);
}
