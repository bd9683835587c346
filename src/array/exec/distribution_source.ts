/**
 * The kernels of `random.Generator`, one per family of distributions (the distribution within a family
 * is a `mode` argument, so each family compiles once per dtype). Every kernel takes the key `(k0, k1)`
 * and `base`, the first of the counters the draw reserved:
 *
 * - **continuous** (uniform, normal, lognormal, exponential, Laplace, logistic, Weibull): thread `t`
 *   turns block `(base + t, 0)` into four float32 or two float64 numbers, as `random.uniform` and
 *   `random.normal` do (so a fresh generator's `random` and `standardNormal` are theirs);
 * - **integers**: thread `t` turns block `(base + t, 0)` into four numbers of a range up to 2^32
 *   (Lemire's multiply-and-reject) or two of a wider one (masked rejection); an element `e` that is
 *   rejected draws again from its own stream at counter `base + e`, rounds 1, 2, ...;
 * - **gamma** (gamma, its logarithm, beta), **discrete** (Poisson, binomial, geometric) and
 *   **multinomial**: element (or row) `e` reads its own stream at counter `base + e` from round 0.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";
import { VECTOR_WIDTH } from "../../codegen/target.ts";
import {
  blockStatements,
  type FloatType,
  philoxFunction,
  streamSource,
  suffixOf,
  unitOf,
} from "./philox_source.ts";
import { discreteFunctions, gammaFunctions } from "./sampler_source.ts";

/** The continuous distributions, as the `mode` of the continuous kernel. */
export const CONTINUOUS = {
  uniform: 0,
  normal: 1,
  lognormal: 2,
  exponential: 3,
  laplace: 4,
  logistic: 5,
  weibull: 6,
} as const;

/** The gamma kernel's modes. */
export const GAMMA = { gamma: 0, logGamma: 1, beta: 2 } as const;

/** The discrete kernel's modes. */
export const DISCRETE = { poisson: 0, binomial: 1, geometric: 2 } as const;

/** A kernel's source and entry point. */
export interface Source {
  /** The kernel's name. */
  readonly name: string;
  /** Its source. */
  readonly source: string;
}

/** Numbers a thread of the continuous kernel writes. */
export function continuousPerThread(dtype: FloatType): number {
  return dtype === "float32" ? 4 : 2;
}

function head(dialect: Dialect, dtypes: readonly DType[]): string {
  const target = targetOf(dialect);
  return [target.preamble(dtypes), target.noContract, philoxFunction(dialect)]
    .filter((line) => line !== "").join("\n");
}

function threadIndex(dialect: Dialect): string {
  const target = targetOf(dialect);
  const { local, group, groupSize } = target.threadIds;
  return `(${target.indexType})${group} * ${groupSize} + ${local}`;
}

/**
 * The parameters every kernel starts with after its output: count, counter base, the counter shift
 * (word `at` of a device array, added to the base: 0 eagerly, written before each replay of a
 * compiled step) and key.
 */
function commonParams(dialect: Dialect, count: string): string {
  const target = targetOf(dialect);
  const u = target.cType("uint32");
  return `${target.indexType} ${count}, ${target.cType("uint64")} base, ${
    target.pointerParam("uint64", "shift", true)
  }, ${target.indexType} at, ${u} k0, ${u} k1`;
}

/** The statement every kernel starts with: the counter base moved by the shift. */
const SHIFT = "base += shift[at];";

/**
 * Stores a thread's `per` values `v[]` at `out[e..]`: as one vector where they are a whole vector's
 * worth (the output is a fresh array, so `e`, a multiple of `per`, is aligned to it), else one by one
 * up to `n`.
 */
function store(dialect: Dialect, dtype: DType, per: number, e: string): string {
  const target = targetOf(dialect);
  const each = `for (int j = 0; j < ${per}; j++) if (${e} + j < n) out[${e} + j] = v[j];`;
  if (per !== VECTOR_WIDTH || !target.hasVector(dtype)) return each;
  const parts = Array.from({ length: per }, (_, j) => `v[${j}]`);
  return `if (${e} + ${per} <= n) ${target.vectorStore(dtype, parts, `out + ${e}`)}
  else ${each}`;
}

/** Box–Muller on the words `c[0..3]`, as `random.normal`: `v[j] = p0 + p1·z_j`. */
function normalStatements(dialect: Dialect, dtype: FloatType): string {
  const target = targetOf(dialect);
  const t = target.cType(dtype);
  const { add, mul } = target.roundedOps(dtype) ??
    { add: (a: string, b: string) => `(${a} + ${b})`, mul: (a: string, b: string) => `(${a} * ${b})` };
  const lit = (x: number) => target.literal(x, dtype);
  const f = (name: string) => target.mathFn(name, dtype);
  if (dtype === "float32") {
    return [0, 1].map((p) =>
      `{
    const ${t} r = ${f("sqrt")}(${lit(-2)} * ${f("log")}((${t})((c[${2 * p}] >> 8) + 1u) * ${lit(2 ** -24)}));
    const ${t} x = ${lit(2)} * ${unitOf(dialect, dtype, [`c[${2 * p + 1}]`], false)};
    ${target.sinCosPi(dtype, "x")}
    v[${2 * p}] = ${add("p0", mul("p1", mul("r", "cs")))};
    v[${2 * p + 1}] = ${add("p0", mul("p1", mul("r", "sn")))};
  }`
    ).join("\n  ");
  }
  const bits = (w0: string, w1: string) => `((${t})(${w0} >> 5) * 67108864.0 + (${t})(${w1} >> 6))`;
  return `{
    const ${t} r = sqrt(-2.0 * log((${bits("c[0]", "c[1]")} + 1.0) * ${lit(2 ** -53)}));
    const ${t} x = 2.0 * (${bits("c[2]", "c[3]")} * ${lit(2 ** -53)});
    ${target.sinCosPi(dtype, "x")}
    v[0] = ${add("p0", mul("p1", mul("r", "cs")))};
    v[1] = ${add("p0", mul("p1", mul("r", "sn")))};
  }`;
}

/** The continuous kernel of `dtype`: `out[0..n)` of the distribution `mode` with parameters `p0`, `p1`. */
export function continuousSource(dialect: Dialect, dtype: FloatType): Source {
  const target = targetOf(dialect);
  const t = target.cType(dtype), ix = target.indexType;
  const per = continuousPerThread(dtype);
  const { add, mul } = target.roundedOps(dtype) ??
    { add: (a: string, b: string) => `(${a} + ${b})`, mul: (a: string, b: string) => `(${a} * ${b})` };
  const lit = (x: number) => target.literal(x, dtype);
  const f = (name: string) => target.mathFn(name, dtype);
  const m = CONTINUOUS;
  const each = Array.from({ length: per }, (_, j) => {
    const w = dtype === "float32" ? [`c[${j}]`] : [`c[${2 * j}]`, `c[${2 * j + 1}]`];
    return `{
    const ${t} u = ${unitOf(dialect, dtype, w, false)};
    const ${t} uo = ${unitOf(dialect, dtype, w, true)};
    ${t} y;
    if (mode == ${m.uniform}) y = ${add("p0", mul("u", "p1"))};
    else if (mode == ${m.exponential}) y = (${lit(0)} - ${f("log")}(${lit(1)} - u)) * p1;
    else if (mode == ${m.laplace}) {
      y = uo < ${lit(0.5)} ? p0 + p1 * ${f("log")}(uo + uo) : p0 - p1 * ${f("log")}(${lit(2)} - uo - uo);
    } else if (mode == ${m.logistic}) y = p0 + p1 * ${f("log")}(uo / (${lit(1)} - uo));
    else y = p1 == ${lit(0)} ? ${lit(0)} : ${f("pow")}(${lit(0)} - ${f("log")}(${lit(1)} - u), ${
      lit(1)
    } / p1);
    v[${j}] = y;
  }`;
  }).join("\n    ");
  const name = `cudeno_gen_continuous_${suffixOf(dtype)}`;
  const source = `${head(dialect, [dtype])}
${target.vectorTypes([dtype])}
${target.kernelHead} ${name}(${target.pointerParam(dtype, "out")}, ${
    commonParams(dialect, "n")
  }, ${t} p0, ${t} p1, int mode) {
  ${SHIFT}
  const ${ix} block = ${threadIndex(dialect)};
  const ${ix} e = block * ${per};
  if (e >= n) return;
  ${blockStatements(dialect, `base + (${target.cType("uint64")})block`, "0u")}
  ${t} v[${per}];
  if (mode == ${m.normal} || mode == ${m.lognormal}) {
    ${normalStatements(dialect, dtype)}
    if (mode == ${m.lognormal}) for (int j = 0; j < ${per}; j++) v[j] = ${f("exp")}(v[j]);
  } else {
    ${each}
  }
  ${store(dialect, dtype, per, "e")}
}`;
  return { name, source };
}

/**
 * The integers kernel of `dtype`: `out[e] = low + x` with `x` uniform in `[0, span]`: `span` below
 * 2^32 where `wide` is false (four numbers a thread), any `span` where it is true (two a thread). The
 * count a thread writes is a constant, so its loop unrolls and the block's words stay in registers.
 * The numbers go out through local memory, so that a work-group of `block` threads stores its
 * elements in order, each store a contiguous run over the threads (a thread's own run of four 8-byte
 * numbers, stored directly, reached 0.74× the write bandwidth on an H100).
 */
export function integersSource(dialect: Dialect, dtype: DType, wide: boolean, block: number): Source {
  const target = targetOf(dialect);
  const u = target.cType("uint32"), ul = target.cType("uint64"), ix = target.indexType;
  const { local, group } = target.threadIds;
  const name = `cudeno_gen_integers_${dtype}`;
  const per = wide ? 2 : 4;
  const draw = wide
    ? `x = ((${ul})c[2 * j] << 32) | c[2 * j + 1];
    if (span != ~(${ul})0) {
      ${ul} mask = span;
      mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4;
      mask |= mask >> 8; mask |= mask >> 16; mask |= mask >> 32;
      x &= mask;
      if (x > span) {
        cudeno_rng s;
        cudeno_rng_start(&s, base + (${ul})(e0 + j), 1u, k0, k1);
        do {
          const ${ul} hi = cudeno_rng_next(&s);
          x = ((hi << 32) | cudeno_rng_next(&s)) & mask;
        } while (x > span);
      }
    }`
    : `if (span == 0xffffffffu) {
      x = c[j];
    } else {
      const ${u} range = (${u})span + 1u;
      ${ul} m = (${ul})c[j] * range;
      ${u} l = (${u})m;
      if (l < range) {
        const ${u} limit = (0u - range) % range;
        if (l < limit) {
          cudeno_rng s;
          cudeno_rng_start(&s, base + (${ul})(e0 + j), 1u, k0, k1);
          do {
            m = (${ul})cudeno_rng_next(&s) * range;
            l = (${u})m;
          } while (l < limit);
        }
      }
      x = m >> 32;
    }`;
  const source = `${head(dialect, [dtype])}
${streamSource(dialect, [])}
${target.kernelHead} ${name}(${target.pointerParam(dtype, "out")}, ${
    commonParams(dialect, "n")
  }, ${ix} low, ${ul} span) {
  ${target.sharedArray(dtype, "stage", block * per)}
  ${SHIFT}
  const ${ix} t = ${threadIndex(dialect)};
  const ${ix} e0 = t * ${per};
  ${blockStatements(dialect, `base + (${ul})t`, "0u")}
  ${target.unroll("  ").trimStart()}for (int j = 0; j < ${per}; j++) {
    ${ul} x;
    ${draw}
    stage[${local} * ${per} + j] = ${target.castTo(`(${ix})((${ul})low + x)`, dtype)};
  }
  ${target.barrier}
  const ${ix} first = (${ix})${group} * ${block * per};
  ${target.unroll("  ").trimStart()}for (int k = 0; k < ${per}; k++) {
    const int at = k * ${block} + ${local};
    if (first + at < n) out[first + at] = stage[at];
  }
}`;
  return { name, source };
}

/**
 * The gamma kernel of `dtype`: `scale·G(params[e mod k])` (mode gamma), `ln G(params[e mod k])` (mode
 * logGamma) or a beta number of parameters `params[0]`, `params[1]` (mode beta).
 */
export function gammaSource(dialect: Dialect, dtype: FloatType): Source {
  const target = targetOf(dialect);
  const t = target.cType(dtype), ix = target.indexType, sfx = suffixOf(dtype);
  const name = `cudeno_gen_gamma_${sfx}`;
  const source = `${head(dialect, [dtype])}
${streamSource(dialect, [dtype])}
${gammaFunctions(dialect, dtype)}
${target.kernelHead} ${name}(${target.pointerParam(dtype, "out")}, ${commonParams(dialect, "n")}, ${
    target.pointerParam(dtype, "params", true)
  }, ${ix} k, ${t} scale, int mode) {
  ${SHIFT}
  const ${ix} e = ${threadIndex(dialect)};
  if (e >= n) return;
  cudeno_rng s;
  cudeno_rng_start(&s, base + (${target.cType("uint64")})e, 0u, k0, k1);
  if (mode == ${GAMMA.beta}) out[e] = cudeno_beta_${sfx}(&s, params[0], params[1]);
  else if (mode == ${GAMMA.logGamma}) out[e] = cudeno_gamma_${sfx}(&s, params[e % k], 1);
  else out[e] = scale * cudeno_gamma_${sfx}(&s, params[e % k], 0);
}`;
  return { name, source };
}

/** The discrete kernel: int64 Poisson (`p0` = λ), binomial (`p0` = n, `p1` = p) or geometric (`p0` = p). */
export function discreteSource(dialect: Dialect): Source {
  const target = targetOf(dialect);
  const ix = target.indexType;
  const name = "cudeno_gen_discrete";
  const source = `${head(dialect, ["float64"])}
${streamSource(dialect, ["float64"])}
${discreteFunctions(dialect)}
${target.kernelHead} ${name}(${target.pointerParam("int64", "out")}, ${
    commonParams(dialect, "n")
  }, double p0, double p1, int mode) {
  ${SHIFT}
  const ${ix} e = ${threadIndex(dialect)};
  if (e >= n) return;
  cudeno_rng s;
  cudeno_rng_start(&s, base + (${target.cType("uint64")})e, 0u, k0, k1);
  if (mode == ${DISCRETE.poisson}) out[e] = cudeno_poisson(&s, p0);
  else if (mode == ${DISCRETE.binomial}) out[e] = cudeno_binomial(&s, p0, p1);
  else out[e] = cudeno_geometric(&s, p0);
}`;
  return { name, source };
}

/**
 * The multinomial kernel: row `r` of `out` (`rows` rows of `k` int64 counts) is `n` trials over the
 * probabilities `pvals[0..k)`, drawn as successive binomials of what is left (NumPy's method).
 */
export function multinomialSource(dialect: Dialect): Source {
  const target = targetOf(dialect);
  const ix = target.indexType;
  const name = "cudeno_gen_multinomial";
  const source = `${head(dialect, ["float64"])}
${streamSource(dialect, ["float64"])}
${discreteFunctions(dialect)}
${target.kernelHead} ${name}(${target.pointerParam("int64", "out")}, ${commonParams(dialect, "rows")}, ${
    target.pointerParam("float64", "pvals", true)
  }, ${ix} k, double n) {
  ${SHIFT}
  const ${ix} row = ${threadIndex(dialect)};
  if (row >= rows) return;
  cudeno_rng s;
  cudeno_rng_start(&s, base + (${target.cType("uint64")})row, 0u, k0, k1);
  double left = n, pleft = 1.0;
  for (${ix} i = 0; i < k - 1; i++) {
    ${ix} x = 0;
    if (left > 0.0 && pleft > 0.0) {
      const double q = pvals[i] / pleft;
      x = cudeno_binomial(&s, left, q > 1.0 ? 1.0 : q < 0.0 ? 0.0 : q);
    }
    out[row * k + i] = x;
    left -= (double)x;
    pleft -= pvals[i];
  }
  out[row * k + k - 1] = (${ix})left;
}`;
  return { name, source };
}
