/**
 * Differential test of `ga.fuse()`: every function of `_fuse_cases.ts`, fused once, is called on
 * seeded random inputs (random shapes from 0-d to 4-d, broadcasts, views with negative steps and
 * transposes, NaN and infinities, scalars of each kind) and compared with the same function run
 * eagerly: the same dtype, shape and values (integers and bools exactly, floats within rounding:
 * a fused kernel may contract `a * b + c` or sum in another order), the same host values, and the
 * same error (class and message) where the eager call throws.
 *
 * Environment: `CUDENO_FUSE_CASES` (default 1,000), `CUDENO_FUSE_SEED` (default 1),
 * `CUDENO_FUSE_DTYPES` (dtype choices per function: default 1, a seeded pick, which keeps CI's
 * kernels in the hundreds; 0 for all), `CUDENO_FUSE_REPRO` (`function|dtypes|seed`, printed with a
 * failure: run only that case).
 */

import * as ga from "../../src/array/mod.ts";
import type { DType } from "../../src/kernel/dtype.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import {
  applySteps,
  broadcastable,
  hashSeed,
  type Input,
  pool,
  randomInput,
  randomShape,
  Rng,
  show,
  showInput,
  typedArray,
  valuesOf,
} from "./_cases.ts";
import { floatInfo, kind, type Value } from "./_reference_dtype.ts";
import { eachBackend } from "./_each_backend.ts";
import { FUNCTIONS, type FusedFunction, type ScalarKind } from "./_fuse_cases.ts";

const CASES = Number(tryGetEnv("CUDENO_FUSE_CASES") ?? 1000);
const SEED = Number(tryGetEnv("CUDENO_FUSE_SEED") ?? 1);
const DTYPES = Number(tryGetEnv("CUDENO_FUSE_DTYPES") ?? 1);
const REPRO = tryGetEnv("CUDENO_FUSE_REPRO");

/** One random call: the arrays' inputs and the scalars after them. */
interface Case {
  readonly inputs: readonly Input[];
  readonly scalars: readonly (number | bigint)[];
}

function scalar(rng: Rng, k: ScalarKind): number | bigint {
  switch (k) {
    case "int":
      return rng.int(-5, 5);
    case "small":
      return rng.int(0, 7);
    case "float":
      return Math.round((rng.next() * 4 - 2) * 64) / 64 + 1 / 128;
    case "bigint":
      return BigInt(rng.int(-100, 100));
  }
}

function makeCase(f: FusedFunction, dtypes: readonly DType[], rng: Rng): Case {
  const [lo, hi] = f.rank ?? [0, 3];
  const shape = randomShape(rng, { minRank: lo, maxRank: Math.min(hi, 3), maxSize: 200 });
  const values = { extremes: false, ...f.values };
  const inputs = dtypes.map((d, k) => {
    let s = k === 0 || f.sameShape ? shape : broadcastable(rng, shape);
    // Now and then shapes that do not broadcast: the fused call must throw the eager call's error.
    if (k === 1 && rng.chance(0.03) && shape.some((x) => x > 1)) s = shape.map((x) => (x > 1 ? x + 1 : x));
    return randomInput(rng, d, s, { ...values, maxBase: 1024 });
  });
  return { inputs, scalars: (f.scalars ?? []).map((k) => scalar(rng, k)) };
}

/** What a call gave, reduced to what is compared. */
type Seen =
  | { kind: "array"; dtype: DType; shape: readonly number[]; values: Value[] }
  | { kind: "host"; value: unknown }
  | { kind: "error"; name: string; message: string };

function attempt(call: () => unknown): Seen {
  let result: unknown;
  try {
    result = call();
  } catch (e) {
    return { kind: "error", name: (e as Error).name, message: (e as Error).message };
  }
  if (!(result instanceof ga.GPUArray)) return { kind: "host", value: result };
  const seen: Seen = {
    kind: "array",
    dtype: result.dtype,
    shape: [...result.shape],
    values: valuesOf(result.dtype, result.get()),
  };
  result.free();
  return seen;
}

function close(want: number, got: number, dtype: DType, scale: number): boolean {
  if (Number.isNaN(want) || Number.isNaN(got)) return Number.isNaN(want) && Number.isNaN(got);
  if (want === got) return true;
  if (!Number.isFinite(want) || !Number.isFinite(got)) return false;
  const { eps, tiny } = floatInfo(dtype);
  return Math.abs(want - got) <= 64 * eps * (Math.abs(want) + scale) + tiny;
}

/** The first difference between the eager and the fused call, or undefined. */
function difference(f: FusedFunction, want: Seen, got: Seen, c: Case): string | undefined {
  const what = (s: Seen) =>
    s.kind === "error"
      ? `${s.name}: ${s.message}`
      : s.kind === "host"
      ? `host value ${show(s.value)}`
      : `a ${s.dtype} array of shape [${s.shape.join(", ")}]`;
  if (want.kind !== got.kind) return `eagerly ${what(want)}, fused ${what(got)}`;
  if (want.kind === "error" && got.kind === "error") {
    return want.name === got.name && want.message === got.message
      ? undefined
      : `eagerly ${what(want)}, fused ${what(got)}`;
  }
  const floats = c.inputs.map((i) => i.dtype).filter((d) => kind(d) === "float");
  const finite = c.inputs.flatMap((i) => i.values).map((v) => Math.abs(Number(v))).filter(Number.isFinite);
  // Reordered sums and contracted products differ by a few ulps of the largest magnitudes involved.
  const n = Math.max(1, ...c.inputs.map((i) => i.values.length));
  const scale = Math.max(0, ...finite) ** 2 * n;
  if (want.kind === "host" && got.kind === "host") {
    const [w, g] = [want.value, got.value];
    if (typeof w !== typeof g) return `eagerly ${what(want)}, fused ${what(got)}`;
    if (typeof w !== "number" || f.exactHost) {
      return w === g ? undefined : `eagerly ${show(w)}, fused ${show(g)}`;
    }
    const dtype = floats.sort((x, y) => floatInfo(y).eps - floatInfo(x).eps)[0] ?? "float64";
    return close(w, g as number, dtype, scale) ? undefined : `eagerly ${show(w)}, fused ${show(g)}`;
  }
  if (want.kind !== "array" || got.kind !== "array") return undefined;
  if (want.dtype !== got.dtype || want.shape.join() !== got.shape.join()) {
    return `eagerly ${what(want)}, fused ${what(got)}`;
  }
  for (let k = 0; k < want.values.length; k++) {
    const [w, g] = [want.values[k]!, got.values[k]!];
    const same = kind(want.dtype) === "float" ? close(Number(w), Number(g), want.dtype, scale) : w === g;
    if (!same) return `element ${k}: eagerly ${show(w)}, fused ${show(g)}`;
  }
  return undefined;
}

function runCase(f: FusedFunction, fused: (...args: unknown[]) => unknown, c: Case): string | undefined {
  const bases = c.inputs.map((i) => ga.toGpu(typedArray(i.dtype, i.values), [...i.shape], i.dtype));
  try {
    const args = [...bases.map((b, k) => applySteps(b, c.inputs[k]!.steps)), ...c.scalars];
    const want = attempt(() => (f.fn as (...a: unknown[]) => unknown)(...args));
    const got = attempt(() => fused(...args));
    return difference(f, want, got, c);
  } finally {
    bases.forEach((b) => b.free());
  }
}

eachBackend(`ga.fuse() gives what the same functions give eagerly, over ${CASES} random cases`, () => {
  const backend = ga.zeros(0).backend;
  const fused = FUNCTIONS.map((f) =>
    ga.fuse(f.fn, { name: f.name }) as unknown as (...args: unknown[]) => unknown
  );
  const stats = FUNCTIONS.map(() => ({ run: 0, failed: 0, first: "" }));
  const pools = FUNCTIONS.map((f) => {
    const usable = f.dtypes.filter((ds) => ds.every((d) => backend.supports(d)));
    return DTYPES > 0 ? pool(SEED, f.name, usable, DTYPES) : usable;
  });
  const one = (i: number, dtypes: readonly DType[], seed: number) => {
    const f = FUNCTIONS[i]!, rng = new Rng(seed);
    const c = makeCase(f, dtypes, rng);
    const failure = runCase(f, fused[i]!, c);
    stats[i]!.run++;
    if (failure !== undefined && stats[i]!.failed++ === 0) {
      stats[i]!.first = [
        `${failure}`,
        ...c.inputs.map((input, k) => `    x${k} = ${showInput(input)}`),
        ...(c.scalars.length > 0 ? [`    scalars ${show(c.scalars)}`] : []),
        `    rerun: CUDENO_FUSE_REPRO="${i}|${
          dtypes.join(",")
        }|${seed}" deno test -A tests/array/fuse_differential_test.ts`,
      ].join("\n");
    }
  };
  if (REPRO !== undefined) {
    const [i, dtypes, seed] = REPRO.split("|");
    one(Number(i), dtypes!.split(",") as DType[], Number(seed));
  } else {
    for (let k = 0; k < CASES; k++) {
      const i = k % FUNCTIONS.length, seed = hashSeed(SEED, "fuse", k);
      if (pools[i]!.length > 0) one(i, new Rng(seed ^ 0x5bd1e995).pick(pools[i]!), seed);
    }
  }
  const failing = stats.map((s, i) => ({ ...s, name: FUNCTIONS[i]!.name })).filter((s) => s.failed > 0);
  if (failing.length > 0) {
    throw new Error(
      `${failing.reduce((a, s) => a + s.failed, 0)} of ${
        stats.reduce((a, s) => a + s.run, 0)
      } cases differ:\n` +
        failing.map((s) => `- ${s.name}: ${s.failed} of ${s.run}; first: ${s.first}`).join("\n"),
    );
  }
});
