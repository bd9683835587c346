/**
 * Float64 host references for the random generator's tests: the exact distribution functions
 * (regularized incomplete gamma and beta functions, as Numerical Recipes computes them: a series or a
 * continued fraction), probability mass functions, and the Kolmogorov–Smirnov and χ² tests with their
 * p-values.
 */

import { erf, lgamma } from "./_reference_special.ts";

const EPS = 1e-15;

/** The regularized lower incomplete gamma function P(a, x). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x < a + 1) {
    let term = 1 / a, sum = term;
    for (let n = 1; n < 10000 && Math.abs(term) > EPS * Math.abs(sum); n++) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * Math.exp(-x + a * Math.log(x) - lgamma(a));
  }
  return 1 - gammaQ(a, x);
}

/** The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x), accurate in the tail. */
export function gammaQ(a: number, x: number): number {
  if (x < a + 1) return 1 - gammaP(a, x);
  // Lentz's method for the continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - lgamma(a)) * h;
}

function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b, qap = a + 1, qam = a - 1;
  let c = 1, d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function betaI(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** The standard normal distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * (1 + erf(x / Math.SQRT2));
}

/** `log(n choose k)`. */
export function logChoose(n: number, k: number): number {
  return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/**
 * The p-value of the one-sample Kolmogorov–Smirnov test of `sample` against `cdf` (Stephens's
 * correction of the asymptotic Kolmogorov distribution).
 */
export function ksPValue(sample: ArrayLike<number>, cdf: (x: number) => number): number {
  const xs = Float64Array.from(sample).sort();
  const n = xs.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(xs[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  const t = (Math.sqrt(n) + 0.12 + 0.11 / Math.sqrt(n)) * d;
  let p = 0;
  for (let k = 1; k <= 100; k++) p += 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * t * t);
  return Math.min(1, Math.max(0, p));
}

/**
 * The p-value of Pearson's χ² test of integer `sample` against the probabilities `pmf(k)` for
 * `k = lo..hi` (everything below `lo` and above `hi` forms one cell each, with the rest of the mass),
 * merging neighbouring cells until each expects at least 5.
 */
export function chiSquarePValue(
  sample: ArrayLike<number | bigint>,
  pmf: (k: number) => number,
  lo: number,
  hi: number,
): number {
  const n = sample.length;
  const counts = new Float64Array(hi - lo + 3); // [below, lo..hi, above]
  for (let i = 0; i < n; i++) {
    const k = Number(sample[i]!);
    counts[k < lo ? 0 : k > hi ? hi - lo + 2 : k - lo + 1]! += 1;
  }
  const expected = new Float64Array(counts.length);
  let inside = 0;
  for (let k = lo; k <= hi; k++) inside += expected[k - lo + 1] = pmf(k);
  let below = 0;
  for (let k = lo - 1; k >= Math.max(lo - 10000, 0) && k >= 0; k--) below += pmf(k);
  expected[0] = below;
  expected[expected.length - 1] = Math.max(0, 1 - inside - below);
  const cells: [number, number][] = [];
  let o = 0, e = 0;
  for (let i = 0; i < counts.length; i++) {
    o += counts[i]!;
    e += expected[i]! * n;
    if (e >= 5) {
      cells.push([o, e]);
      o = e = 0;
    }
  }
  if (cells.length > 0) {
    cells[cells.length - 1]![0] += o;
    cells[cells.length - 1]![1] += e;
  } else cells.push([o, e]);
  if (cells.length < 2) return 1;
  const chi2 = cells.reduce((sum, [oi, ei]) => sum + (oi - ei) ** 2 / ei, 0);
  return gammaQ((cells.length - 1) / 2, chi2 / 2);
}

/** The mean and (population) variance of a sample. */
export function moments(sample: ArrayLike<number | bigint>): { mean: number; variance: number } {
  const n = sample.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += Number(sample[i]!);
  mean /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (Number(sample[i]!) - mean) ** 2;
  return { mean, variance: variance / n };
}

/** The Poisson distribution's probabilities. */
export function poissonPmf(lam: number): (k: number) => number {
  return (k) => Math.exp(k * Math.log(lam) - lam - lgamma(k + 1));
}

/** The binomial distribution's probabilities. */
export function binomialPmf(n: number, p: number): (k: number) => number {
  return (k) => k < 0 || k > n ? 0 : Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}
