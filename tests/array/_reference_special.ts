/**
 * Float64 host references for the special functions JavaScript's Math lacks: `erf`/`erfc` (Taylor
 * series near 0, a continued fraction in the tails), `lgamma` (Lanczos, g = 7, with reflection) and
 * `digamma` (recurrence to x ≥ 20, then the asymptotic series; reflection below 0).
 */

/** The error function. */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (Math.abs(x) >= 2.5) return Math.sign(x) * (1 - erfcTail(Math.abs(x)));
  let term = x, sum = x;
  for (let n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/** `erfc(x)` for x ≥ 2.5: exp(-x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …)))). */
function erfcTail(x: number): number {
  let f = x;
  for (let k = 120; k >= 1; k--) f = x + k / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** The complementary error function. */
export function erfc(x: number): number {
  if (x >= 2.5) return erfcTail(x);
  return 1 - erf(x);
}

const LANCZOS = [
  0.99999999999980993,
  676.5203681218851,
  -1259.1392167224028,
  771.32342877765313,
  -176.61502916214059,
  12.507343278686905,
  -0.13857109526572012,
  9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** `log|Γ(x)|`. */
export function lgamma(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity || x === -Infinity) return Infinity;
  if (x <= 0 && Number.isInteger(x)) return Infinity;
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The digamma function ψ(x) (-infinity at 0, NaN at the negative integers). */
export function digamma(x: number): number {
  if (Number.isNaN(x) || x === -Infinity) return NaN;
  if (x === 0) return Object.is(x, -0) ? Infinity : -Infinity;
  if (x < 0 && Number.isInteger(x)) return NaN;
  if (x < 0) return digamma(1 - x) - Math.PI / Math.tan(Math.PI * x);
  let r = 0;
  while (x < 20) r -= 1 / x++;
  const f = 1 / (x * x);
  // Bernoulli terms B2k/(2k): 1/12, 1/120, 1/252, 1/240, 1/132, 691/32760, 1/12.
  const s = f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f * (1 / 132 - f * (691 / 32760))))));
  return r + Math.log(x) - 0.5 / x - s;
}
