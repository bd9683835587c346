/**
 * NumPy's calling conventions in one place: arguments NumPy lets a caller give by position or by
 * keyword (`x.sum(0)` and `x.sum(axis=0)`, `zeros(shape, "int32")` and `zeros(shape, dtype=...)`)
 * are taken here both ways, by position or in an options object, and the other options may follow
 * the positional ones (`x.sum(0, { keepdims: true })`). Every array function that takes an axis or a
 * dtype splits its arguments with {@link optionsOf}, so the rules and the messages are the same
 * everywhere.
 *
 * @module
 */

import { checkOptions } from "../../kernel/options.ts";
import type { DType } from "../../kernel/dtype.ts";

/**
 * One axis or several, as NumPy's `axis` takes them: a number (negative counts from the end) or a
 * list of numbers (NumPy's tuple).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const axes: ga.AxisArg = [0, -1];
 * const s = ga.sum(ga.ones([2, 3, 4]), axes); // shape [3]
 * ```
 */
export type AxisArg = number | readonly number[];

/**
 * The options that may follow a positional axis: `O` without its `axis` (given once, in one place).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const rest: ga.AfterAxis<ga.ReduceOptions> = { keepdims: true };
 * const s = ga.sum(ga.ones([2, 3]), 0, rest); // shape [1, 3]
 * ```
 */
export type AfterAxis<O> = Omit<O, "axis">;

/**
 * The options of a function whose only option is one axis (`take`, `repeat`, `compress`): the
 * keyword form of the positional axis (`ga.take(a, idx, { axis: 0 })` is `ga.take(a, idx, 0)`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.AxisOptions = { axis: 0 };
 * const rows = ga.repeat(ga.ones([2, 3]), 2, options); // shape [4, 3]
 * ```
 */
export interface AxisOptions {
  /** The axis (negative counts from the end). Default: as the function says (the flattened array, or its last axis). */
  readonly axis?: number;
}

/**
 * The options of a function whose only option is its axes (`flip`, `squeeze`, `expandDims`): the
 * keyword form of the positional axes (`ga.flip(a, { axis: 0 })` is `ga.flip(a, 0)`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.AxesOptions = { axis: [0, 1] };
 * const r = ga.flip(ga.ones([2, 3]), options);
 * ```
 */
export interface AxesOptions {
  /** The axis (a number; negative counts from the end) or axes (a list). Default: every axis (the flattened array). */
  readonly axis?: AxisArg;
}

/**
 * An options object that carries a `dtype`, the keyword form of a positional dtype
 * (`ga.zeros([2], { dtype: "int32" })` is `ga.zeros([2], "int32")`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.DTypeOptions<"int32"> = { dtype: "int32" };
 * const z = ga.zeros([2, 3], options);
 * ```
 */
export interface DTypeOptions<D extends DType = DType> {
  /** The result's dtype. Default: the function's dtype rule (float32 for new arrays). */
  readonly dtype?: D;
}

/** One argument NumPy takes by position: its name, which values it takes, and how to say so. */
export interface Slot {
  /** The option's name (`"axis"`): a positional value becomes this key of the options. */
  readonly name: string;
  /** Whether a positional value is this argument. */
  readonly takes: (value: unknown) => boolean;
  /** What it takes, for messages: `"the axis (a number)"`. */
  readonly what: string;
  /**
   * A positional value that the slots before this one do not take may land here, leaving them unset:
   * `arange(5, "int32")` is `arange(5, dtype="int32")` (a dtype is told apart from numbers by its type).
   */
  readonly byType?: boolean;
}

const isNumber = (v: unknown) => typeof v === "number";

/** `axis`: one axis, a number. */
export const AXIS: Slot = { name: "axis", takes: isNumber, what: "the axis (a number)" };

/** `axis`: a number or a list of numbers (NumPy's tuple). */
export const AXES: Slot = {
  name: "axis",
  takes: (v) => isNumber(v) || (Array.isArray(v) && v.every(isNumber)),
  what: "the axis (a number) or axes (a list of numbers)",
};

/** `axis`: one axis, or `null` for the flattened array (NumPy's `axis=None`). */
export const AXIS_OR_NULL: Slot = {
  name: "axis",
  takes: (v) => isNumber(v) || v === null,
  what: "the axis (a number, or null for the flattened array)",
};

/** `dtype`: a dtype's name; it may stand where the numbers before it are left out. */
export const DTYPE: Slot = {
  name: "dtype",
  takes: (v) => typeof v === "string",
  what: 'a dtype such as "int32"',
  byType: true,
};

/**
 * The dtype given by position (`"int32"`) or as `{ dtype }` (`arg`), for call `what`; undefined when
 * neither is given.
 *
 * @throws {TypeError} for anything else, or an options object with other keys.
 */
export function dtypeArg(what: string, arg: unknown): DType | undefined {
  return optionsOf<DTypeOptions>(what, [arg], [DTYPE], ["dtype"], '{ dtype: "int32" }').dtype;
}

/** A slot named `name` that takes a number. */
export function numberSlot(name: string, what = `${name} (a number)`): Slot {
  return { name, takes: isNumber, what };
}

/** Whether `v` is an options object: a plain object (not an array, a GPUArray or null). */
function isOptions(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function shown(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return `${v}n`;
  if (Array.isArray(v)) return `[${v.map(shown).join(", ")}]`;
  if (isOptions(v)) return `{ ${Object.keys(v).join(", ")} }`;
  if (typeof v === "object" && v !== null) return v.constructor?.name ?? "an object";
  return String(v);
}

/**
 * The options of a call whose arguments after the fixed ones are `args`: NumPy's positional
 * arguments `slots`, in order, then at most one options object (whose keys must be `known`). Each
 * positional value becomes the option of its slot's name; `undefined` leaves a slot unset. So
 * `sum(a, 0, { keepdims: true })`, `sum(a, { axis: 0, keepdims: true })` and `sum(a, [0], {
 * keepdims: true })` give the same options. `what` names the call in messages (`"sum"`), `example`
 * shows an options object (`"{ axis: 0 }"`): `optionsOf("sum", [0, { keepdims: true }], [AXES],
 * ["axis", "keepdims", "out"], "{ axis: 0 }")` is `{ keepdims: true, axis: 0 }`.
 *
 * @throws {TypeError} for a value no slot takes (a string where the axis goes, a boolean where NumPy
 * takes another argument than here), an option given both by position and in the object, anything
 * after the options object, or an option not `known`.
 */
export function optionsOf<O extends object>(
  what: string,
  args: readonly unknown[],
  slots: readonly Slot[],
  known: readonly string[],
  example: string,
): O {
  let last = args.length;
  while (last > 0 && args[last - 1] === undefined) last--;
  const given: Record<string, unknown> = {};
  let options: Record<string, unknown> | undefined;
  let next = 0;
  for (let k = 0; k < last; k++) {
    const v = args[k];
    if (isOptions(v)) {
      if (k !== last - 1) {
        throw new TypeError(
          `Cannot ${what} with ${shown(args[k + 1])} after the options object ${
            shown(v)
          }: give it before the object, or in it`,
        );
      }
      options = v;
      break;
    }
    // NumPy's axis=None for an axis or axes: the default (every axis).
    if (v === undefined || (v === null && slots[next] === AXES)) {
      next++;
      continue;
    }
    const at = slots.findIndex((s, i) =>
      i >= next && (i === next ? s.takes(v) : s.byType === true && s.takes(v))
    );
    if (at < 0) {
      const slot = slots[next];
      throw new TypeError(
        slot === undefined
          ? `Cannot ${what} with ${shown(v)}: ${
            slots.length === 0 ? "it takes no more arguments" : `after ${slots.map((s) => s.name).join(", ")}`
          }, give options in an object such as ${example}`
          : `Cannot ${what} with ${
            shown(v)
          } where ${slot.name} goes: give ${slot.what}, or options in an object such as ${example}`,
      );
    }
    given[slots[at]!.name] = v;
    next = at + 1;
  }
  checkOptions(options, what, example, known);
  for (const name in given) {
    if (options !== undefined && options[name] !== undefined) {
      throw new TypeError(
        `Cannot ${what} with ${name} ${shown(given[name])} and { ${name}: ${
          shown(options[name])
        } }: give ${name} once, by position or in the options`,
      );
    }
  }
  const merged: Record<string, unknown> = { ...options, ...given };
  if (merged.axis === null && slots.includes(AXES)) delete merged.axis;
  return merged as O;
}
