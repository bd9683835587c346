/**
 * A host implementation of Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
 * as easy as 1, 2, 3", SC 2011; Random123's constants) and of the streams `random.uniform` and
 * `random.normal` draw from it: the reference the tests check the GPU kernels against. It shares no
 * code with the kernel generator.
 *
 * All arithmetic is exact 32-bit: `Math.imul` gives the low word of a 32×32-bit product and the high
 * word is assembled from 16-bit halves, whose partial products are exact in a double.
 *
 * @module
 */

const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;

/** The high 32 bits of the 64-bit product of two 32-bit unsigned integers. */
export function mulhi32(a: number, b: number): number {
  const a0 = a & 0xffff, a1 = a >>> 16;
  const b0 = b & 0xffff, b1 = b >>> 16;
  const low = a0 * b0;
  const mid1 = a1 * b0, mid2 = a0 * b1;
  const carry = Math.floor(((low >>> 16) + (mid1 & 0xffff) + (mid2 & 0xffff)) / 0x10000);
  return (a1 * b1 + Math.floor(mid1 / 0x10000) + Math.floor(mid2 / 0x10000) + carry) >>> 0;
}

/** Philox4x32 with 10 rounds: four 32-bit output words for a four-word counter and a two-word key. */
export function philox4x32(counter: ArrayLike<number>, key: ArrayLike<number>): Uint32Array {
  let c0 = counter[0]! >>> 0, c1 = counter[1]! >>> 0, c2 = counter[2]! >>> 0, c3 = counter[3]! >>> 0;
  let k0 = key[0]! >>> 0, k1 = key[1]! >>> 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi32(M0, c0), lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi32(M1, c2), lo1 = Math.imul(M1, c2) >>> 0;
    const n0 = (hi1 ^ c1 ^ k0) >>> 0, n2 = (hi0 ^ c3 ^ k1) >>> 0;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return Uint32Array.of(c0, c1, c2, c3);
}

/** The key of a seed: its low and high 32-bit words. */
function keyOf(seed: bigint): [number, number] {
  return [Number(seed & 0xffffffffn), Number((seed >> 32n) & 0xffffffffn)];
}

/** The words of counter block `block` (the counter is `(block mod 2^32, block / 2^32, 0, 0)`). */
function blockWords(block: number, key: readonly [number, number]): Uint32Array {
  return philox4x32([block >>> 0, Math.floor(block / 2 ** 32), 0, 0], key);
}

/** `(w >> 8) · 2^-24`: a float32 in [0, 1). */
function unit24(w: number): number {
  return (w >>> 8) * 2 ** -24;
}

/** 53 bits of two words, `((w0 >> 5) · 2^26 + (w1 >> 6))`, as an integer below 2^53. */
function bits53(w0: number, w1: number): number {
  return (w0 >>> 5) * 2 ** 26 + (w1 >>> 6);
}

/**
 * The first `n` numbers of `random.uniform(shape, { seed, dtype, low, high })`, computed on the host:
 * float32 as `low + u·(high − low)` in float32 arithmetic, float64 in double arithmetic.
 */
export function uniformReference(
  n: number,
  dtype: "float32" | "float64",
  seed: bigint,
  low = 0,
  high = 1,
): Float32Array | Float64Array {
  const key = keyOf(seed);
  if (dtype === "float32") {
    const out = new Float32Array(n);
    const lo = Math.fround(low), range = Math.fround(Math.fround(high) - lo);
    for (let e = 0; e < n; e += 4) {
      const w = blockWords(e / 4, key);
      for (let j = 0; j < 4 && e + j < n; j++) out[e + j] = lo + Math.fround(unit24(w[j]!) * range);
    }
    return out;
  }
  const out = new Float64Array(n);
  const range = high - low;
  for (let e = 0; e < n; e += 2) {
    const w = blockWords(e / 2, key);
    for (let j = 0; j < 2 && e + j < n; j++) {
      out[e + j] = low + bits53(w[2 * j]!, w[2 * j + 1]!) * 2 ** -53 * range;
    }
  }
  return out;
}

/**
 * `[sin(πx), cos(πx)]` to within an ulp or two: `x` is first reduced exactly to `y` in [-1/4, 1/4]
 * (`x = y + q/2`), so that the rounding of `π·y` stays relative to the result even where it is near 0.
 */
function sinCosPi(x: number): [number, number] {
  const q = Math.round(2 * x);
  const y = x - q / 2;
  const s = Math.sin(Math.PI * y), c = Math.cos(Math.PI * y);
  switch (((q % 4) + 4) % 4) {
    case 0:
      return [s, c];
    case 1:
      return [c, -s];
    case 2:
      return [-s, -c];
    default:
      return [-c, s];
  }
}

/**
 * The first `n` numbers of `random.normal(shape, { seed, dtype, mean, std })`, computed on the host
 * with the same Box–Muller steps (float32 results rounded after each step as the kernel rounds them).
 */
export function normalReference(
  n: number,
  dtype: "float32" | "float64",
  seed: bigint,
  mean = 0,
  std = 1,
): Float32Array | Float64Array {
  const key = keyOf(seed);
  if (dtype === "float32") {
    const f = Math.fround;
    const out = new Float32Array(n);
    const m = f(mean), s = f(std);
    for (let e = 0; e < n; e += 4) {
      const w = blockWords(e / 4, key);
      for (let p = 0; p < 2; p++) {
        const u1 = ((w[2 * p]! >>> 8) + 1) * 2 ** -24, u2 = unit24(w[2 * p + 1]!);
        const r = f(Math.sqrt(f(-2 * f(Math.log(u1)))));
        const [sn, cs] = sinCosPi(2 * u2);
        const z = [f(r * f(cs)), f(r * f(sn))];
        for (let q = 0; q < 2 && e + 2 * p + q < n; q++) out[e + 2 * p + q] = m + f(s * z[q]!);
      }
    }
    return out;
  }
  const out = new Float64Array(n);
  for (let e = 0; e < n; e += 2) {
    const w = blockWords(e / 2, key);
    const u1 = (bits53(w[0]!, w[1]!) + 1) * 2 ** -53, u2 = bits53(w[2]!, w[3]!) * 2 ** -53;
    const r = Math.sqrt(-2 * Math.log(u1));
    const [sn, cs] = sinCosPi(2 * u2);
    const z = [r * cs, r * sn];
    for (let q = 0; q < 2 && e + q < n; q++) out[e + q] = mean + std * z[q]!;
  }
  return out;
}
