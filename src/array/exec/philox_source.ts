/**
 * The device side of the counter-based generator, in either dialect: Philox4x32-10 (Salmon et al.,
 * SC 2011, with Random123's constants) and a per-element stream of its words.
 *
 * A stream is a counter `ctr` (64 bits, the first two words of Philox's counter), a round (the third
 * word, counting up from where the stream starts) and the key; it hands out the four words of block
 * `(ctr, round, 0)` one at a time, then those of `(ctr, round + 1, 0)`, and so on, so an element that
 * needs an unknown number of words (a rejection sampler) has as many as it asks for, and no other
 * element's. Numbers are made from words as `random.uniform` makes them:
 *
 * - float32: `(w >> 8)·2^-24` in [0, 1), and `((w >> 9) + 1/2)·2^-23` in (0, 1);
 * - float64 (two words `a`, `b`): `((a >> 5)·2^26 + (b >> 6))·2^-53` in [0, 1), and
 *   `((a >> 6)·2^26 + (b >> 6) + 1/2)·2^-52` in (0, 1).
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { targetOf } from "../../codegen/targets.ts";

/** The float dtypes random numbers are computed in. */
export type FloatType = "float32" | "float64";

/** The device function computing Philox4x32-10 in place on `c` for key `(k0, k1)`. */
export function philoxFunction(dialect: Dialect): string {
  const t = targetOf(dialect);
  const u = t.cType("uint32");
  const mulhi = t.mulhi;
  return `${t.inline} void cudeno_philox4x32_10(${u} *c, ${u} k0, ${u} k1) {
#pragma unroll
  for (int i = 0; i < 10; i++) {
    if (i > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
    const ${u} hi0 = ${mulhi}(0xD2511F53u, c[0]), lo0 = 0xD2511F53u * c[0];
    const ${u} hi1 = ${mulhi}(0xCD9E8D57u, c[2]), lo1 = 0xCD9E8D57u * c[2];
    c[0] = hi1 ^ c[1] ^ k0;
    c[1] = lo1;
    c[2] = hi0 ^ c[3] ^ k1;
    c[3] = lo0;
  }
}`;
}

/** The suffix of a device function computing in `dtype`. */
export function suffixOf(dtype: FloatType): string {
  return dtype === "float32" ? "f32" : "f64";
}

/**
 * Statements that set the words `c[0..3]` to Philox's block for counter `ctr` (a 64-bit expression)
 * and round `round` (a 32-bit expression), under key `(k0, k1)`.
 */
export function blockStatements(dialect: Dialect, ctr: string, round: string): string {
  const u = targetOf(dialect).cType("uint32");
  return `${u} c[4];
  c[0] = (${u})(${ctr});
  c[1] = (${u})((${ctr}) >> 32);
  c[2] = ${round};
  c[3] = 0u;
  cudeno_philox4x32_10(c, k0, k1);`;
}

/**
 * The expression of a float in [0, 1) (`open` false) or (0, 1) (`open` true) of `dtype` from the
 * words `w` (one for float32, two for float64).
 */
export function unitOf(dialect: Dialect, dtype: FloatType, w: readonly string[], open: boolean): string {
  const target = targetOf(dialect);
  const t = target.cType(dtype);
  const lit = (x: number) => target.literal(x, dtype);
  if (dtype === "float32") {
    return open
      ? `(((${t})(${w[0]} >> 9) + ${lit(0.5)}) * ${lit(2 ** -23)})`
      : `((${t})(${w[0]} >> 8) * ${lit(2 ** -24)})`;
  }
  return open
    ? `(((${t})(${w[0]} >> 6) * 67108864.0 + (${t})(${w[1]} >> 6) + 0.5) * ${lit(2 ** -52)})`
    : `(((${t})(${w[0]} >> 5) * 67108864.0 + (${t})(${w[1]} >> 6)) * ${lit(2 ** -53)})`;
}

/**
 * The per-element stream (`cudeno_rng`, started by `cudeno_rng_start(&s, ctr, round, k0, k1)`, read by
 * `cudeno_rng_next(&s)`) and, for each of `dtypes`, its uniform numbers (`cudeno_u01_<sfx>` in [0, 1),
 * `cudeno_uo_<sfx>` in (0, 1)) and standard normal numbers (`cudeno_normal_<sfx>`, Box–Muller's cosine).
 * Philox's function must come first.
 */
export function streamSource(dialect: Dialect, dtypes: readonly FloatType[]): string {
  const target = targetOf(dialect);
  const u = target.cType("uint32"), ul = target.cType("uint64");
  const inline = target.inline;
  const parts = [`typedef struct { ${u} c[4]; ${ul} ctr; ${u} round, k0, k1; int used; } cudeno_rng;
${inline} void cudeno_rng_start(cudeno_rng *s, ${ul} ctr, ${u} round, ${u} k0, ${u} k1) {
  s->ctr = ctr; s->round = round; s->k0 = k0; s->k1 = k1; s->used = 4;
}
${inline} ${u} cudeno_rng_next(cudeno_rng *s) {
  if (s->used == 4) {
    s->c[0] = (${u})s->ctr;
    s->c[1] = (${u})(s->ctr >> 32);
    s->c[2] = s->round++;
    s->c[3] = 0u;
    cudeno_philox4x32_10(s->c, s->k0, s->k1);
    s->used = 0;
  }
  return s->c[s->used++];
}`];
  for (const dtype of dtypes) {
    const t = target.cType(dtype), sfx = suffixOf(dtype);
    const f = (name: string) => target.mathFn(name, dtype);
    const lit = (x: number) => target.literal(x, dtype);
    const words = (open: boolean) =>
      dtype === "float32"
        ? `const ${u} a = cudeno_rng_next(s);\n  return ${unitOf(dialect, dtype, ["a"], open)};`
        : `const ${u} a = cudeno_rng_next(s);\n  const ${u} b = cudeno_rng_next(s);\n  return ${
          unitOf(dialect, dtype, ["a", "b"], open)
        };`;
    parts.push(`${inline} ${t} cudeno_u01_${sfx}(cudeno_rng *s) {
  ${words(false)}
}
${inline} ${t} cudeno_uo_${sfx}(cudeno_rng *s) {
  ${words(true)}
}
${inline} ${t} cudeno_normal_${sfx}(cudeno_rng *s) {
  const ${t} r = ${f("sqrt")}(${lit(-2)} * ${f("log")}(cudeno_uo_${sfx}(s)));
  const ${t} x = ${lit(2)} * cudeno_u01_${sfx}(s);
  ${target.sinCosPi(dtype, "x")}
  return r * cs;
}`);
  }
  return parts.join("\n");
}
