/**
 * The one dispatch of the reductions, NumPy style: `sum(a)` gives a host value, `sum(a, 0)` or
 * `sum(a, { axis: 0 })` an array (the axis by position or in the options, the other options after it:
 * `sum(a, 0, { keepdims: true })`). Each runs as one reduction through the generator (`reduction.ts`),
 * reading views in place, or is recorded by `fuse`'s tracer. The functions and methods
 * (`api/reductions.ts`, `api/reduction_methods.ts`) are generated from the op table and call it.
 *
 * @module
 */

import { isDType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import { reduceArray, reduceToHost } from "../exec/reduction.ts";
import { builtinReduction, checkElements, type ReduceOp, REDUCTIONS } from "./reduction_defs.ts";
import { asEager, kindOf, needsTag, recordReduce, Traced } from "../fuse/trace.ts";
import { isTracked, recordReduction, refuseTrackedWrite } from "../grad/tape.ts";
import { AXES, AXIS, optionsOf } from "../core/axis_args.ts";
import type { VarOptions } from "./reduction_types.ts";
import { spreadOfParts } from "./complex_parts.ts";

/** The options of reductions, and of var() and std(). */
const REDUCE_OPTIONS = ["axis", "keepdims", "out"], VAR_OPTIONS = [...REDUCE_OPTIONS, "ddof"];

/** The options of a reduction's call: its axis given by position or in the options, and the rest. */
function optionsFor(op: ReduceOp, args: readonly unknown[], name: string): VarOptions {
  const arg = op === "argmin" || op === "argmax";
  const known = op === "var" || op === "std" ? VAR_OPTIONS : REDUCE_OPTIONS;
  const options = optionsOf<VarOptions>(name, args, [arg ? AXIS : AXES], known, "{ axis: 0 }");
  if (arg && typeof options.axis !== "number" && options.axis !== undefined) {
    throw new TypeError(
      `Cannot ${name} along axes [${
        String(options.axis)
      }]: give one axis (a number), or none for the flat index`,
    );
  }
  return options;
}

/**
 * Reduction `op` of `a` with the rest of its call's arguments (`sum(a, 0, { keepdims: true })` is
 * `reduce("sum", a, [0, { keepdims: true }])`); `name` is what the user called (`amax` for `max`),
 * which errors name.
 */
export function reduce(op: ReduceOp, a: unknown, args: readonly unknown[], name: string = op): unknown {
  if (needsTag([a])) return asEager(() => reduce(op, a, args, name));
  if (!(a instanceof GPUArray) && !(a instanceof Traced)) {
    throw new TypeError(`Cannot ${name} ${kindOf(a)}: pass a GPUArray`);
  }
  const options = optionsFor(op, args, name);
  const values = op === "var" || op === "std" ? [ddofOf(name, options)] : [];
  const def = REDUCTIONS[op];
  const complex = a.dtype === "complex64" || a.dtype === "complex128";
  if (complex && (op === "var" || op === "std") && a instanceof GPUArray) {
    return spreadOfParts(a, (part) => reduce("var", part, args), op === "std");
  }
  if (complex && op !== "sum" && op !== "prod" && op !== "mean") {
    throw new TypeError(
      `Cannot ${name} a ${a.dtype} array: ${name} is not defined for complex numbers; reduce ga.real(a), ga.imag(a) or ga.abs(a)`,
    );
  }
  const out = def.out(a.dtype);
  if (!isDType(out)) throw new TypeError(`Cannot ${name} a ${a.dtype} array: ${out}`);
  if (a instanceof Traced) return recordReduce(op, a, out, options, values);
  const axes = normalizeAxes(options.axis, a.ndim, name);
  checkElements(op, a.shape, axes, options.axis === undefined, name);
  const red = builtinReduction(op, a, out, values);
  const tracked = isTracked(a);
  if (options.axis === undefined && options.keepdims !== true && options.out === undefined && !tracked) {
    if (complex) {
      // A complex total comes back as [re, im].
      using total = reduceArray(red, a.shape, axes, false, undefined, name);
      return total.item();
    }
    const value = reduceToHost(red, a.shape, name);
    return def.host === "number" ? Number(value) : def.host === "boolean" ? value !== 0 : value;
  }
  if (options.out !== undefined) refuseTrackedWrite(`${name} into out`, options.out, [a]);
  const y = reduceArray(red, a.shape, axes, options.keepdims === true, options.out, name);
  const rule = def.vjp;
  recordReduction(
    op,
    a,
    y,
    axes,
    options.keepdims === true,
    rule && ((g, x, y, axes, ops) => rule(g, x, y, axes, ops, values)),
  );
  return y;
}

function ddofOf(op: string, options: VarOptions): number {
  const ddof = options.ddof ?? 0;
  if (typeof ddof !== "number" || !Number.isFinite(ddof)) {
    throw new TypeError(`Cannot ${op} with ddof ${String(ddof)}: pass a finite number`);
  }
  return ddof;
}
