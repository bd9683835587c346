/**
 * The differential test runner: for each op family, draws seeded random cases (see `_cases.ts`),
 * runs each on the host reference and on the GPU through array-api.md's functions and methods, and
 * compares dtype, shape and every element (exact for integers and bool; floats within a tolerance of
 * the op's kind, NaN equal to NaN). It prints nothing per case; a family with failures throws one
 * error that lists, per op, how many cases failed and the first failure in full, with the line that
 * reruns just that case.
 *
 * Environment: `CUDENO_DIFF_CASES` (cases over all families, default 2,500; 100000 for a long run),
 * `CUDENO_DIFF_SEED` (base seed, default 1), `CUDENO_DIFF_DTYPES` (dtype choices per op: default 1,
 * which keeps CI's kernels in the low hundreds, and more as the case count grows),
 * `CUDENO_DIFF_REPRO` (`family|op|dtypes|seed|form`, printed with a failure: run only that case), `CUDENO_DIFF_DUMP`
 * (a file: append each case and the reference's answer as a JSON line instead of running the device,
 * to cross-check the reference against NumPy offline).
 */

import * as ga from "../../src/array/mod.ts";
import type { DType } from "../../src/kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { Ref } from "./_reference.ts";
import { floatInfo, kind, type Value } from "./_reference_dtype.ts";
import { unravelIndex } from "./_reference_shape.ts";
import * as core from "./_reference.ts";
import * as ufunc from "./_reference_ufunc.ts";
import * as index from "./_reference_index.ts";
import * as reduce from "./_reference_reduce.ts";
import * as sorting from "./_reference_sort.ts";
import * as linalg from "./_reference_linalg.ts";
import {
  applySteps,
  hashSeed,
  type Input,
  pool,
  refInput,
  Rng,
  show,
  showInput,
  typedArray,
  valuesOf,
} from "./_cases.ts";
import { eachBackend } from "./_each_backend.ts";

/** Where input `index`'s view goes in a case's arguments. */
export class Arg {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

/** How close a float result must be: `|got - want| <= ulps * eps * (|want| + scale) + atol`. */
export interface Tolerance {
  /** Units of the result dtype's epsilon (0: exact). */
  readonly ulps: number;
  /** Scale by the op applied to the inputs' absolute values (sums, products of matrices). */
  readonly scaled?: boolean;
  /** One scale for every element: the largest finite magnitude of the inputs, its square, or of the expected result. */
  readonly global?: "inputs" | "squares" | "result";
  /** An absolute floor in units of epsilon (math functions near their zeros). */
  readonly floor?: number;
}

/** Exact. */
export const EXACT: Tolerance = { ulps: 0 };
/** Correctly rounded operations as devices implement them (division and sqrt may be off by a few ulp). */
export const ARITH: Tolerance = { ulps: 4 };
/** Math library functions. */
export const MATH: Tolerance = { ulps: 16, floor: 16 };
/** Sums in another order. */
export const SUMS: Tolerance = { ulps: 64, scaled: true };

/** One random case: its inputs and the call's arguments (inputs as {@link Arg}s). */
export interface Case {
  readonly inputs: readonly Input[];
  readonly args: readonly unknown[];
  /** What is compared: the result (default), or input k's base array after the call (in-place ops). */
  readonly check?: "result" | number;
}

/** Which layouts a family draws. */
export interface Context {
  /** Only contiguous inputs of equal shapes (the paths that exist before views do). */
  readonly contiguous: boolean;
}

/** An op under test. */
export interface OpSpec {
  /** The name of the `ga` function (and of the reference's). */
  readonly op: string;
  /** Which forms exist: `ga.op(a, ...)`, `a.op(...)`, or both (default). */
  readonly forms?: readonly ("function" | "method")[];
  /** The dtype tuples it can be tested with (one dtype per input, or what the maker reads). */
  readonly dtypes: readonly (readonly DType[])[];
  /** A random case for those dtypes. */
  make(rng: Rng, dtypes: readonly DType[], context: Context): Case;
  /** Float tolerance (default exact). */
  readonly tol?: Tolerance;
  /** Host values may come back as a 0-d array and as number or bigint (default: exactly as the reference). */
  readonly looseHost?: boolean;
  /** Only the dtype and shape are specified (`emptyLike`). */
  readonly shapeOnly?: boolean;
}

const R: Record<string, unknown> = { ...core, ...ufunc, ...index, ...reduce, ...sorting, ...linalg };
/** The sum of the families' `cases`: what `CUDENO_DIFF_CASES` scales. */
const DEFAULT_TOTAL = 2500;
const total = Number(tryGetEnv("CUDENO_DIFF_CASES") ?? DEFAULT_TOTAL);
const baseSeed = Number(tryGetEnv("CUDENO_DIFF_SEED") ?? 1);
const poolSize = Number(tryGetEnv("CUDENO_DIFF_DTYPES") ?? Math.ceil(total / DEFAULT_TOTAL));
const repro = tryGetEnv("CUDENO_DIFF_REPRO");
const dump = tryGetEnv("CUDENO_DIFF_DUMP");

/** JSON that keeps bigints, non-finite numbers, -0 and argument placeholders. */
function toJson(x: unknown): string {
  return JSON.stringify(x, function (key, v) {
    const raw = (this as Record<string, unknown>)[key];
    if (typeof raw === "bigint") return { bigint: String(raw) };
    if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0))) {
      return { number: show(raw) };
    }
    if (raw instanceof Arg) return { input: raw.index };
    return v;
  });
}

function substitute(a: unknown, views: readonly unknown[]): unknown {
  if (a instanceof Arg) return views[a.index];
  if (Array.isArray(a)) return a.map((x) => substitute(x, views));
  if (a !== null && typeof a === "object" && Object.getPrototypeOf(a) === Object.prototype) {
    return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, substitute(v, views)]));
  }
  return a;
}

/** `target[name](...args)`, or the getter `target[name]` (`.T`). */
function call(target: Record<string, unknown>, name: string, args: unknown[], self?: unknown): unknown {
  const fn = target[name];
  if (fn !== undefined && typeof fn !== "function" && args.length === 0) return fn;
  if (typeof fn !== "function") {
    throw new TypeError(
      `${self === undefined ? "ga" : (self as object).constructor.name}.${name} does not exist`,
    );
  }
  return fn.apply(self ?? target, args);
}

/** A result reduced to what is compared. */
type Seen =
  | { kind: "array"; dtype: DType; shape: readonly number[]; values: Value[] }
  | { kind: "host"; value: number | bigint | boolean }
  | { kind: "list"; items: Seen[] }
  | { kind: "record"; fields: Record<string, Seen> }
  | { kind: "none" };

function seeRef(x: unknown): Seen {
  if (x instanceof Ref) return { kind: "array", dtype: x.dtype, shape: x.shape, values: x.values() };
  if (Array.isArray(x)) return { kind: "list", items: x.map(seeRef) };
  if (typeof x === "number" || typeof x === "bigint" || typeof x === "boolean") {
    return { kind: "host", value: x };
  }
  if (x !== null && typeof x === "object") {
    return { kind: "record", fields: Object.fromEntries(Object.entries(x).map(([k, v]) => [k, seeRef(v)])) };
  }
  return { kind: "none" };
}

function seeGpu(x: unknown): Seen {
  if (x instanceof ga.GPUArray) {
    return { kind: "array", dtype: x.dtype, shape: [...x.shape], values: valuesOf(x.dtype, x.get()) };
  }
  if (Array.isArray(x)) return { kind: "list", items: x.map(seeGpu) };
  if (typeof x === "number" || typeof x === "bigint" || typeof x === "boolean") {
    return { kind: "host", value: x };
  }
  if (x !== null && typeof x === "object") {
    return { kind: "record", fields: Object.fromEntries(Object.entries(x).map(([k, v]) => [k, seeGpu(v)])) };
  }
  return { kind: "none" };
}

function dtypesOf(x: Seen | undefined): DType[] {
  if (x === undefined) return [];
  if (x.kind === "array") return [x.dtype];
  if (x.kind === "list") return x.items.flatMap(dtypesOf);
  return x.kind === "record" ? Object.values(x.fields).flatMap(dtypesOf) : [];
}

function valuesIn(x: Seen): Value[] {
  if (x.kind === "array") return x.values;
  if (x.kind === "host") return [Number(x.value)];
  if (x.kind === "list") return x.items.flatMap(valuesIn);
  return x.kind === "record" ? Object.values(x.fields).flatMap(valuesIn) : [];
}

function freeAll(x: unknown): void {
  if (x instanceof ga.GPUArray) x.free();
  else if (Array.isArray(x)) x.forEach(freeAll);
  else if (x !== null && typeof x === "object") Object.values(x).forEach(freeAll);
}

const fmt = (v: Value | boolean) => show(v);

/** The first difference between what the reference and the GPU gave, or undefined. */
function difference(
  want: Seen,
  got: Seen,
  tol: Tolerance,
  scale: Seen | number | undefined,
  loose: boolean,
  path: string,
  hostDtype: DType,
): string | undefined {
  if (loose && want.kind === "array" && want.shape.length === 0 && got.kind === "host") {
    got = {
      kind: "array",
      dtype: want.dtype,
      shape: [],
      values: [typeof got.value === "boolean" ? +got.value : got.value],
    };
  }
  if (loose && want.kind === "host" && got.kind === "array" && got.shape.length === 0) {
    got = { kind: "host", value: got.values[0]! };
  }
  if (want.kind !== got.kind) {
    return `${path}: expected ${
      want.kind === "array" ? "an array" : want.kind === "host" ? "a host value" : want.kind
    }, got ${got.kind === "array" ? "an array" : got.kind === "host" ? "a host value" : got.kind}`;
  }
  if (want.kind === "host" && got.kind === "host") {
    const w = want.value, g = got.value;
    if (!loose && typeof w !== typeof g) {
      return `${path}: expected a ${typeof w} (${fmt(w)}), got a ${typeof g} (${fmt(g)})`;
    }
    const same = typeof w === "boolean" || typeof g === "boolean"
      ? Number(w) === Number(g)
      : typeof w === "bigint" || typeof g === "bigint"
      ? (loose ? Number(w) === Number(g) : w === g)
      : close(
        w,
        g,
        tol,
        typeof scale === "number" ? scale : scale?.kind === "host" ? Number(scale.value) : 0,
        hostDtype,
      );
    return same ? undefined : `${path}: got ${fmt(g)}, expected ${fmt(w)}`;
  }
  if (want.kind === "list" && got.kind === "list") {
    if (want.items.length !== got.items.length) {
      return `${path}: expected ${want.items.length} arrays, got ${got.items.length}`;
    }
    for (let k = 0; k < want.items.length; k++) {
      const s = typeof scale === "number" ? scale : scale?.kind === "list" ? scale.items[k] : undefined;
      const d = difference(want.items[k]!, got.items[k]!, tol, s, loose, `${path}[${k}]`, hostDtype);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (want.kind === "record" && got.kind === "record") {
    for (const [k, w] of Object.entries(want.fields)) {
      if (!(k in got.fields)) return `${path}: no "${k}" in the result`;
      const s = typeof scale === "number" ? scale : scale?.kind === "record" ? scale.fields[k] : undefined;
      const d = difference(w, got.fields[k]!, tol, s, loose, `${path}.${k}`, hostDtype);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  if (want.kind !== "array" || got.kind !== "array") return undefined;
  if (want.dtype !== got.dtype) return `${path}: dtype ${got.dtype}, expected ${want.dtype}`;
  if (want.shape.join() !== got.shape.join()) {
    return `${path}: shape [${got.shape.join(", ")}], expected [${want.shape.join(", ")}]`;
  }
  const float = kind(want.dtype) === "float";
  for (let k = 0; k < want.values.length; k++) {
    const w = want.values[k]!, g = got.values[k]!;
    const s = typeof scale === "number" ? scale : scale?.kind === "array" ? Number(scale.values[k]) : 0;
    if (float ? !close(Number(w), Number(g), tol, s, want.dtype) : w !== g) {
      const at = unravelIndex(k, want.shape);
      const allowed = float && tol.ulps > 0
        ? ` (tolerance ${bound(Number(w), tol, s, want.dtype).toPrecision(3)})`
        : "";
      return `${path}: element [${at.join(", ")}] (flat ${k}) is ${fmt(g)}, expected ${fmt(w)}${allowed}`;
    }
  }
  return undefined;
}

function bound(want: number, tol: Tolerance, scale: number, dtype: DType): number {
  const { eps, tiny } = floatInfo(dtype);
  return tol.ulps * eps * (Math.abs(want) + scale) + (tol.floor ?? 0) * eps + (tol.ulps > 0 ? tiny : 0);
}

function close(want: number, got: number, tol: Tolerance, scale: number, dtype: DType): boolean {
  if (Number.isNaN(want) || Number.isNaN(got)) return Number.isNaN(want) && Number.isNaN(got);
  if (want === got) return true;
  if (!Number.isFinite(want) || !Number.isFinite(got)) return false;
  return Math.abs(want - got) <= bound(want, tol, scale, dtype);
}

/** The inputs with every float replaced by its magnitude (non-finite: 0), for scaled tolerances. */
function magnitudes(input: Input): Input {
  if (kind(input.dtype) !== "float") return input;
  return { ...input, values: input.values.map((v) => (Number.isFinite(v) ? Math.abs(Number(v)) : 0)) };
}

/** What one case did: undefined when it matched, "skip" when the device lacks a dtype, else a report. */
function runCase(
  spec: OpSpec,
  c: Case,
  form: "function" | "method",
  supports: (d: DType) => boolean,
): string | "skip" | undefined {
  const refs = c.inputs.map(refInput);
  const refArgs = substitute(c.args, refs.map((r) => r.view)) as unknown[];
  const runRef = (args: unknown[]) =>
    typeof R[spec.op] === "function"
      ? call(R, spec.op, args)
      : call(args[0] as Record<string, unknown>, spec.op, args.slice(1), args[0]);
  let want: Seen | undefined, refError: Error | undefined;
  try {
    const out = runRef(refArgs);
    want = seeRef(c.check === undefined || c.check === "result" ? out : refs[c.check]!.base);
  } catch (e) {
    refError = e as Error;
  }
  if (dump !== undefined) {
    const answer = refError === undefined
      ? want
      : { kind: "error", name: refError.name, message: refError.message };
    Deno.writeTextFileSync(dump, toJson({ op: spec.op, ...c, want: answer }) + "\n", { append: true });
    return undefined;
  }
  if ([...c.inputs.map((i) => i.dtype), ...dtypesOf(want)].some((d) => !supports(d))) return "skip";
  const bases = c.inputs.map((i) => ga.toGpu(typedArray(i.dtype, i.values), [...i.shape], i.dtype));
  let result: unknown;
  try {
    const views = bases.map((b, k) => applySteps(b, c.inputs[k]!.steps));
    const args = substitute(c.args, views) as unknown[];
    const useMethod = form === "method" && args[0] instanceof ga.GPUArray;
    result = useMethod
      ? call(args[0] as unknown as Record<string, unknown>, spec.op, args.slice(1), args[0])
      : call(ga as unknown as Record<string, unknown>, spec.op, args);
    if (refError !== undefined) return `expected ${refError.name} (${refError.message}), but it returned`;
    let got = seeGpu(c.check === undefined || c.check === "result" ? result : bases[c.check]);
    if (spec.shapeOnly && got.kind === "array" && want?.kind === "array") {
      got = { ...got, values: want.values };
    }
    const tol = spec.tol ?? EXACT;
    let scale: Seen | number | undefined;
    if (tol.global !== undefined) {
      const from = tol.global === "result" ? valuesIn(want!) : c.inputs.flatMap((i) => i.values);
      const m = Math.max(0, ...from.map((v) => Math.abs(Number(v))).filter(Number.isFinite));
      scale = tol.global === "squares" ? m * m : m;
    } else if (tol.scaled) {
      const abs = c.inputs.map((i) => refInput(magnitudes(i)).view);
      scale = seeRef(runRef(substitute(c.args, abs) as unknown[]));
    }
    // A host float is compared in the precision of the least precise float input (a float32 sum is a float32).
    const floats = c.inputs.map((i) => i.dtype).filter((d) => kind(d) === "float");
    const hostDtype = floats.sort((x, y) => floatInfo(y).eps - floatInfo(x).eps)[0] ?? "float64";
    return difference(want!, got, tol, scale, spec.looseHost ?? false, "result", hostDtype);
  } catch (e) {
    const err = e as Error;
    if (refError !== undefined && err.name === refError.name) return undefined;
    return refError !== undefined
      ? `expected ${refError.name} (${refError.message}), got ${err.name}: ${err.message}`
      : `threw ${err.name}: ${err.message.split("\n")[0]}`;
  } finally {
    freeAll(result);
    bases.forEach((b) => b.free());
  }
}

function describe(
  family: string,
  spec: OpSpec,
  dtypes: readonly DType[],
  seed: number,
  form: string,
  c: Case,
  what: string,
): string {
  const lines = [
    `${spec.op} (${form} form), dtypes ${dtypes.join(",")}, seed ${seed}: ${what}`,
    `    call: ${form === "method" ? "x0." : "ga."}${spec.op}(${
      c.args.slice(form === "method" ? 1 : 0).map((a) => (a instanceof Arg ? `x${a.index}` : show(a))).join(
        ", ",
      )
    })`,
    ...c.inputs.map((input, k) => `    x${k} = ${showInput(input)}`),
    `    rerun: CUDENO_DIFF_REPRO="${family}|${spec.op}|${
      dtypes.join(",")
    }|${seed}|${form}" deno test -A tests/array/`,
  ];
  return lines.join("\n");
}

/** Options of {@link differential}. */
export interface FamilyOptions {
  /** Cases in CI (scaled by `CUDENO_DIFF_CASES`). */
  readonly cases: number;
  /** Contiguous, equal-shape inputs only. */
  readonly contiguous?: boolean;
}

/** Registers one test per backend that runs `cases` random cases over `specs` against the reference. */
export function differential(name: string, specs: readonly OpSpec[], options: FamilyOptions): void {
  eachBackend(`differential: ${name} match the host reference`, () => {
    const backend = ga.zeros(0).backend;
    const supports = (d: DType) => backend.supports(d);
    const context: Context = { contiguous: options.contiguous ?? false };
    const count = Math.max(specs.length, Math.round((options.cases * total) / DEFAULT_TOTAL));
    const stats = new Map<string, { run: number; failed: number; first?: string }>();
    let skipped = 0;
    const runOne = (spec: OpSpec, dtypes: readonly DType[], seed: number, wanted: "function" | "method") => {
      const c = spec.make(new Rng(seed), dtypes, context);
      const form = wanted === "method" && c.args[0] instanceof Arg ? "method" : "function";
      const s = stats.get(spec.op) ?? { run: 0, failed: 0 };
      stats.set(spec.op, s);
      const outcome = runCase(spec, c, form, supports);
      if (outcome === "skip") return skipped++;
      s.run++;
      if (outcome !== undefined) {
        s.failed++;
        s.first ??= describe(name, spec, dtypes, seed, form, c, outcome);
      }
    };
    if (repro !== undefined) {
      const [family, op, dts, seed, form] = repro.split("|");
      for (const spec of specs.filter((s) => s.op === op && family === name)) {
        runOne(spec, dts!.split(",") as DType[], Number(seed), form === "method" ? "method" : "function");
      }
    } else {
      const pools = specs.map((spec) =>
        pool(baseSeed, `${name}/${spec.op}`, spec.dtypes.filter((t) => t.every(supports)), poolSize)
      );
      for (let k = 0; k < count; k++) {
        const which = k % specs.length, spec = specs[which]!;
        if (pools[which]!.length === 0) continue;
        const seed = hashSeed(baseSeed, name, k);
        const rng = new Rng(seed ^ 0x5bd1e995);
        const forms = spec.forms ?? ["function", "method"];
        runOne(spec, rng.pick(pools[which]!), seed, rng.pick(forms));
      }
    }
    const failing = [...stats].filter(([, s]) => s.failed > 0);
    if (failing.length > 0) {
      const runs = [...stats.values()].reduce((a, s) => a + s.run, 0);
      const failed = failing.reduce((a, [, s]) => a + s.failed, 0);
      throw new Error(
        `${failed} of ${runs} cases differ from the reference (${skipped} skipped: dtypes the device lacks); ` +
          `passing ops: ${
            [...stats].filter(([, s]) => s.failed === 0 && s.run > 0).map(([op]) => op).join(", ") || "none"
          }\n` +
          failing.map(([op, s]) => `- ${op}: ${s.failed} of ${s.run} failed; first: ${s.first}`).join("\n"),
      );
    }
  });
}
