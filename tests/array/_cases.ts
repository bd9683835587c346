/**
 * Seeded random cases for the differential tests: shapes from 0-d to 5-d with size-0 and size-1
 * axes, values suited to each dtype (NaN, ±inf, -0.0 and extremes included), and random views: a
 * base array plus a recipe of view methods (slices with negative steps and clamping, transposes,
 * broadcasts, flips, new axes) applied identically to the host reference and to the GPU array.
 */

import { type DType, DTYPES } from "../../src/kernel/dtype.ts";
import { fromValues, Ref } from "./_reference.ts";
import { cast, floatInfo, intRange, kind, type Value } from "./_reference_dtype.ts";
import { sizeOf, sliceRange, type SliceSpec } from "./_reference_shape.ts";

/** Every real dtype, in a fixed order (the complex ones have complex_test.ts and fft_test.ts). */
export const ALL_DTYPES: readonly DType[] = (Object.keys(DTYPES) as DType[]).filter((d) =>
  DTYPES[d].kind !== "complex"
);

/** A small, fast, seeded generator (sfc32). */
export class Rng {
  #s: Uint32Array;
  constructor(seed: number) {
    this.#s = Uint32Array.of(0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0);
    for (let k = 0; k < 12; k++) this.u32();
  }
  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const s = this.#s;
    const t = (s[0]! + s[1]! + s[3]!) >>> 0;
    s[3] = (s[3]! + 1) >>> 0;
    s[0] = s[1]! ^ (s[1]! >>> 9);
    s[1] = (s[2]! + (s[2]! << 3)) >>> 0;
    s[2] = ((s[2]! << 21) | (s[2]! >>> 11)) + t;
    return t;
  }
  /** A uniform number in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }
  /** A uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** A uniform bigint in [lo, hi]. */
  bigint(lo: bigint, hi: bigint): bigint {
    const r = (BigInt(this.u32()) << 64n) | (BigInt(this.u32()) << 32n) | BigInt(this.u32());
    return lo + (r % (hi - lo + 1n));
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** One element. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let k = out.length - 1; k > 0; k--) {
      const j = this.int(0, k);
      [out[k], out[j]] = [out[j]!, out[k]!];
    }
    return out;
  }
}

/** A 32-bit seed from strings and numbers (FNV-1a). */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const c of parts.join("\u0000")) h = Math.imul(h ^ c.codePointAt(0)!, 0x01000193) >>> 0;
  return h;
}

/** The first `size` of a seeded shuffle of `candidates`: the few dtype choices an op is tested with. */
export function pool<T>(seed: number, op: string, candidates: readonly T[], size: number): T[] {
  return new Rng(hashSeed(seed, op)).shuffle(candidates).slice(0, Math.max(1, size));
}

// ---- shapes -------------------------------------------------------------------------------------

/** Options of {@link randomShape}. */
export interface ShapeOptions {
  readonly minRank?: number;
  readonly maxRank?: number;
  readonly maxSize?: number;
  /** Allow size-0 axes (default true). */
  readonly empty?: boolean;
}

/** A random shape: size-1 axes often, size-0 axes sometimes, at most `maxSize` elements. */
export function randomShape(rng: Rng, options: ShapeOptions = {}): number[] {
  const { minRank = 0, maxRank = 5, maxSize = 256, empty = true } = options;
  const rank = rng.int(minRank, maxRank);
  const shape = Array.from({ length: rank }, () => {
    const r = rng.next();
    return r < (empty ? 0.05 : 0) ? 0 : r < 0.3 ? 1 : r < 0.8 ? rng.int(2, 4) : rng.int(5, 9);
  });
  while (sizeOf(shape) > maxSize) {
    const k = shape.indexOf(Math.max(...shape));
    shape[k] = Math.max(1, Math.floor(shape[k]! / 2));
  }
  return shape;
}

/** A shape that broadcasts to `shape`: leading axes dropped and some extents set to 1. */
export function broadcastable(rng: Rng, shape: readonly number[]): number[] {
  const drop = rng.chance(0.5) ? 0 : rng.int(0, shape.length);
  return shape.slice(drop).map((d) => (rng.chance(0.25) ? 1 : d));
}

// ---- values -------------------------------------------------------------------------------------

/** What values to draw. */
export interface ValueOptions {
  /** NaN, ±inf and -0.0 among floats (default true). */
  readonly specials?: boolean;
  /** The largest and smallest values of the dtype (default true). */
  readonly extremes?: boolean;
  /** Floats that are small multiples of 1/8, so that sums of a few thousand are exact in any order. */
  readonly dyadic?: boolean;
  /** Integers (and floats) drawn from [lo, hi] only. */
  readonly range?: readonly [number, number];
  /** No zeros. */
  readonly nonzero?: boolean;
  /** The share of values that are zero (default: as drawn). */
  readonly zeros?: number;
}

/** One random value of `dtype`. */
export function randomValue(rng: Rng, dtype: DType, options: ValueOptions = {}): Value {
  const { specials = true, extremes = true, dyadic = false, range, nonzero = false } = options;
  const k = kind(dtype);
  let v: Value;
  if (k === "bool") v = rng.chance(0.5) ? 1 : 0;
  else if (range !== undefined) {
    v = k === "float" ? range[0] + (range[1] - range[0]) * rng.next() : rng.int(range[0], range[1]);
  } else if (k === "float") {
    const info = floatInfo(dtype), r = rng.next();
    if (specials && r < 0.08) v = rng.pick([NaN, Infinity, -Infinity, -0, 0]);
    else if (extremes && r < 0.12) {
      v = rng.pick([info.max, -info.max, info.tiny, -info.tiny, info.tiny / 4, info.eps]);
    } else if (dyadic || r < 0.45) v = rng.int(-48, 48) / rng.pick([1, 2, 8]);
    else if (r < 0.75) v = 20 * rng.next() - 10;
    else v = (rng.chance(0.5) ? -1 : 1) * 10 ** (8 * rng.next() - 4);
  } else {
    const [lo, hi] = intRange(dtype), r = rng.next();
    const small = BigInt(rng.int(k === "uint" ? 0 : -6, k === "uint" ? 12 : 6));
    v = r < 0.45
      ? small
      : r < 0.8 || !extremes
      ? rng.bigint(lo, hi)
      : rng.pick([lo, lo + 1n, hi, hi - 1n, 0n]);
  }
  const c = cast(v, dtype);
  return nonzero && (c === 0 || c === 0n) ? cast(1, dtype) : c;
}

/** `n` random values of `dtype`. */
export function randomValues(rng: Rng, dtype: DType, n: number, options: ValueOptions = {}): Value[] {
  const runs = dtype === "bool" && rng.chance(0.3); // long runs of one value now and then
  const out: Value[] = [];
  for (let k = 0; k < n; k++) {
    const zero = options.zeros !== undefined && rng.chance(options.zeros);
    out.push(
      zero
        ? cast(0, dtype)
        : runs && k > 0 && rng.chance(0.8)
        ? out[k - 1]!
        : randomValue(rng, dtype, options),
    );
  }
  return out;
}

// ---- view recipes ---------------------------------------------------------------------------------

/** One view method call: `x[method](...args)`, or the getter `x[method]` when it is not a function. */
export interface Step {
  readonly method: string;
  readonly args: readonly unknown[];
}

/** Applies a recipe of view methods to a reference array or a GPU array alike. */
export function applySteps<T>(x: T, steps: readonly Step[]): T {
  for (const s of steps) {
    const member = (x as Record<string, unknown>)[s.method];
    if (member === undefined) {
      throw new TypeError(`${s.method} does not exist on ${(x as object).constructor.name}`);
    }
    x = (typeof member === "function" ? member.apply(x, s.args) : member) as T;
  }
  return x;
}

/** Formats a value as TypeScript source. */
export function show(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
  if (v instanceof Ref) return `<${v.dtype} [${v.shape.join(", ")}]>`;
  if (v !== null && typeof v === "object") {
    return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${show(x)}`).join(", ")} }`;
  }
  return String(v);
}

/** A recipe as TypeScript: `.slice([1, null, -1]).transpose(1, 0)`. */
export function showSteps(steps: readonly Step[]): string {
  return steps.map((
    s,
  ) => (s.args.length === 0 && s.method === "T" ? ".T" : `.${s.method}(${s.args.map(show).join(", ")})`))
    .join("");
}

/** A `[start, stop, step?]` spec taking `n` elements from an axis of a random extent; returns the extent too. */
function rangeFor(rng: Rng, n: number): { m: number; spec: (number | null)[] } {
  if (rng.chance(0.15)) {
    return { m: n, spec: rng.pick([[null, null], [null, null, null], [0, n], [null, null, 1]]) };
  }
  const step = rng.pick([1, 1, 2, 3, -1, -1, -2, -3]);
  if (n === 0) {
    const m = rng.int(0, 3), at = rng.int(-m - 2, m + 2);
    return { m, spec: [at, at, step] };
  }
  const span = (n - 1) * Math.abs(step) + 1, m = span + rng.int(0, 3);
  const first = step > 0 ? rng.int(0, m - span) : rng.int(span - 1, m - 1);
  const stop = first + (n - 1) * step + (step > 0 ? rng.int(1, step) : -rng.int(1, -step));
  const start = first === (step > 0 ? 0 : m - 1) && rng.chance(0.5)
    ? null
    : rng.chance(0.4)
    ? first - m
    : first;
  const end = stop >= m
    ? rng.pick([null, m + rng.int(0, 4)])
    : stop < 0
    ? rng.pick([null, -m - 1 - rng.int(0, 3)])
    : rng.pick([stop, stop - m]);
  const spec = step === 1 && rng.chance(0.5) ? [start, end] : [start, end, step];
  if (sliceRange(m, spec[0], spec[1], spec[2]).count !== n) {
    throw new Error(`rangeFor: ${show(spec)} of ${m}`);
  }
  return { m, spec };
}

const isFull = (s: SliceSpec, m: number) =>
  Array.isArray(s) && sliceRange(m, s[0], s[1], s[2]).count === m && (s[2] ?? 1) === 1;

function sliceString(specs: readonly SliceSpec[]): string {
  return specs.map((s) =>
    s === null ? "None" : typeof s === "number" || s === "..." ? String(s) : s.map((v) => v ?? "").join(":")
  ).join(", ");
}

/** The shape before a view step that gives `cur`, and the step; undefined when the kind does not fit. */
function unapply(rng: Rng, what: string, cur: readonly number[]): { pre: number[]; step: Step } | undefined {
  const n = cur.length;
  const neg = (a: number, len: number) => (rng.chance(0.3) ? a - len : a);
  switch (what) {
    case "transpose": {
      const reverse = rng.chance(0.3);
      const perm = reverse ? [...cur.keys()].reverse() : rng.shuffle([...cur.keys()]);
      const pre = new Array<number>(n);
      perm.forEach((p, k) => (pre[p] = cur[k]!));
      if (reverse && rng.chance(0.6)) {
        return { pre, step: { method: rng.pick(["T", "transpose"]), args: [] } };
      }
      return { pre, step: { method: "transpose", args: perm.map((p) => neg(p, n)) } };
    }
    case "flip": {
      const axis = n === 0 || rng.chance(0.3) ? [] : rng.chance(0.5) ? [neg(rng.int(0, n - 1), n)] : [
        rng.shuffle([...cur.keys()]).slice(0, rng.int(1, n)).map((a) => neg(a, n)),
      ];
      return { pre: [...cur], step: { method: "flip", args: axis } };
    }
    case "expandDims": {
      const ones = [...cur.keys()].filter((k) => cur[k] === 1);
      if (ones.length === 0) return undefined;
      const chosen = rng.shuffle(ones).slice(0, rng.int(1, Math.min(2, ones.length)));
      const axis = chosen.length === 1 && rng.chance(0.5) ? neg(chosen[0]!, n) : chosen.map((a) => neg(a, n));
      return { pre: cur.filter((_, k) => !chosen.includes(k)), step: { method: "expandDims", args: [axis] } };
    }
    case "broadcastTo": {
      const pre = cur.slice(rng.int(0, Math.min(2, n))).map((d) => (rng.chance(0.4) ? 1 : d));
      return { pre, step: { method: "broadcastTo", args: [[...cur]] } };
    }
    default: { // slice
      const specs: SliceSpec[] = [], pre: number[] = [];
      const index = () => {
        const m = rng.int(1, 4);
        specs.push(rng.int(-m, m - 1));
        pre.push(m);
      };
      for (const d of cur) {
        if (rng.chance(0.12)) index();
        if (d === 1 && rng.chance(0.25)) specs.push(null);
        else {
          const { m, spec } = rangeFor(rng, d);
          specs.push(spec);
          pre.push(m);
        }
      }
      if (rng.chance(0.12)) index();
      // An ellipsis in place of a run of whole axes, or trailing whole axes left out.
      const sizes: number[] = [];
      let p = 0;
      for (const s of specs) sizes.push(s === null ? -1 : pre[p++]!);
      const full = specs.map((s, k) => sizes[k]! >= 0 && isFull(s, sizes[k]!));
      if (rng.chance(0.3)) {
        const a = rng.int(0, specs.length);
        let b = a;
        while (b < specs.length && full[b] && rng.chance(0.7)) b++;
        specs.splice(a, b - a, "...");
      } else if (rng.chance(0.5)) {
        while (specs.length > 0 && full[specs.length - 1]) {
          specs.pop(), full.pop();
        }
      }
      const args = specs.length > 0 && rng.chance(0.2) ? [sliceString(specs)] : specs;
      return { pre, step: { method: "slice", args } };
    }
  }
}

/** Options of {@link viewRecipe}. */
export interface ViewOptions {
  /** How many view steps at most (default 3). */
  readonly depth?: number;
  /** The view kinds to draw from (default slice, transpose, flip, expandDims, broadcastTo). */
  readonly kinds?: readonly string[];
  /** The largest base array (default 4096 elements). */
  readonly maxBase?: number;
}

/** A base shape and a recipe of view steps that turns an array of that shape into one of `shape`. */
export function viewRecipe(
  rng: Rng,
  shape: readonly number[],
  options: ViewOptions = {},
): { base: number[]; steps: Step[] } {
  const {
    depth = 3,
    kinds = ["slice", "slice", "transpose", "flip", "expandDims", "broadcastTo"],
    maxBase = 4096,
  } = options;
  let cur = [...shape];
  const steps: Step[] = [];
  for (let d = rng.int(0, depth); d > 0; d--) {
    const made = unapply(rng, rng.pick(kinds), cur);
    if (made === undefined || sizeOf(made.pre) > maxBase || made.pre.length > 7) continue;
    steps.unshift(made.step);
    cur = made.pre;
  }
  return { base: cur, steps };
}

// ---- inputs -------------------------------------------------------------------------------------

/** An input array of a case: a C-ordered base of `shape` holding `values`, seen through `steps`. */
export interface Input {
  readonly dtype: DType;
  readonly shape: readonly number[];
  readonly values: readonly Value[];
  readonly steps: readonly Step[];
}

/** Options of {@link randomInput}. */
export interface InputOptions extends ValueOptions, ViewOptions {
  /** Whether to reach the shape through a random view (default true). */
  readonly view?: boolean;
}

/** A random input of `dtype` whose view has `shape`. */
export function randomInput(
  rng: Rng,
  dtype: DType,
  shape: readonly number[],
  options: InputOptions = {},
): Input {
  const { base, steps } = options.view === false
    ? { base: [...shape], steps: [] }
    : viewRecipe(rng, shape, options);
  return { dtype, shape: base, values: randomValues(rng, dtype, sizeOf(base), options), steps };
}

/** The reference base array of an input and its view. */
export function refInput(input: Input): { base: Ref; view: Ref } {
  const base = fromValues(input.dtype, input.shape, [...input.values]);
  return { base, view: applySteps(base, input.steps) };
}

/** An input as TypeScript-like text: `int8 base [4, 5] .slice([null, null, -1]) -> [4, 5]`. */
export function showInput(input: Input): string {
  const { view } = refInput(input);
  const values = input.values.length <= 24 ? ` values ${show(input.values)}` : "";
  return `${input.dtype} base [${input.shape.join(", ")}]${showSteps(input.steps)} -> [${
    view.shape.join(", ")
  }]${values}`;
}

/** The host typed array holding values of `dtype` as the device stores them (bfloat16 as its bits). */
export function typedArray(dtype: DType, values: readonly Value[]): ArrayBufferView & { length: number } {
  if (dtype === "bfloat16") {
    const f = new Float32Array(values.map(Number)), u = new Uint32Array(f.buffer);
    return Uint16Array.from(u, (b, k) => (Number.isNaN(f[k]!) ? 0x7fc0 : b >>> 16));
  }
  const Ctor = DTYPES[dtype].array as unknown as {
    from(v: readonly Value[]): ArrayBufferView & { length: number };
  };
  return Ctor.from(values);
}

/** The values a host typed array of `dtype` holds (bfloat16 bits decoded, bool as 0/1). */
export function valuesOf(dtype: DType, host: ArrayLike<number | bigint>): Value[] {
  if (dtype === "bfloat16") {
    const u = Uint32Array.from(host as ArrayLike<number>, (b) => b << 16);
    return [...new Float32Array(u.buffer)];
  }
  return Array.from(host);
}
