/**
 * Device functions drawing from the distributions that need rejection or a variable number of
 * uniform numbers, each reading a per-element stream (`cudeno_rng`, `philox_source.ts`):
 *
 * - gamma: Marsaglia and Tsang's method (ACM TOMS 26(3), 2000), with shapes below 1 boosted as
 *   `G(a) = G(a + 1)·U^(1/a)`; optionally its logarithm, which never underflows (Dirichlet's draws);
 * - beta: Jöhnk's method where both parameters are at most 1, else `X/(X + Y)` of two gammas (NumPy's
 *   choice);
 * - poisson: the multiplication method below λ = 10, else Hörmann's PTRS (transformed rejection with
 *   squeeze, Insurance: Mathematics and Economics 12, 1993), with NumPy's `loggam`;
 * - binomial: for `n·min(p, 1 − p) < 10`, counting geometric gaps until they pass `n` (inversion),
 *   else Hörmann's BTRS (J. Statist. Comput. Simul. 46, 1993), as TensorFlow samples it;
 * - geometric: inversion, `ceil(ln U / ln(1 − p))`.
 *
 * The discrete ones compute in float64 and return int64.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { targetOf } from "../../codegen/targets.ts";
import { type FloatType, suffixOf } from "./philox_source.ts";

/** `cudeno_gamma_<sfx>(s, a, logResult)` and `cudeno_beta_<sfx>(s, a, b)` computing in `dtype`. */
export function gammaFunctions(dialect: Dialect, dtype: FloatType): string {
  const target = targetOf(dialect);
  const t = target.cType(dtype), sfx = suffixOf(dtype), inline = target.inline;
  const f = (name: string) => target.mathFn(name, dtype);
  const lit = (x: number) => target.literal(x, dtype);
  return `${inline} ${t} cudeno_gamma_${sfx}(cudeno_rng *s, ${t} a, int logResult) {
  if (!(a > ${lit(0)})) return logResult ? ${target.infinity(dtype, true)} : ${lit(0)};
  ${t} logBoost = ${lit(0)};
  if (a < ${lit(1)}) {
    logBoost = ${f("log")}(cudeno_uo_${sfx}(s)) / a;
    a += ${lit(1)};
  }
  const ${t} d = a - ${lit(1 / 3)};
  const ${t} c = ${lit(1)} / ${f("sqrt")}(${lit(9)} * d);
  for (;;) {
    ${t} x, v;
    do {
      x = cudeno_normal_${sfx}(s);
      v = ${lit(1)} + c * x;
    } while (v <= ${lit(0)});
    v = v * v * v;
    const ${t} u = cudeno_uo_${sfx}(s);
    const ${t} x2 = x * x;
    if (u < ${lit(1)} - ${lit(0.0331)} * x2 * x2 ||
        ${f("log")}(u) < ${lit(0.5)} * x2 + d * (${lit(1)} - v + ${f("log")}(v))) {
      return logResult ? ${f("log")}(d * v) + logBoost : d * v * ${f("exp")}(logBoost);
    }
  }
}
${inline} ${t} cudeno_beta_${sfx}(cudeno_rng *s, ${t} a, ${t} b) {
  if (a <= ${lit(1)} && b <= ${lit(1)}) {
    for (;;) {
      const ${t} u = cudeno_uo_${sfx}(s), v = cudeno_uo_${sfx}(s);
      const ${t} x = ${f("pow")}(u, ${lit(1)} / a), y = ${f("pow")}(v, ${lit(1)} / b);
      const ${t} xy = x + y;
      if (xy <= ${lit(1)}) {
        if (xy > ${lit(0)}) return x / xy;
        ${t} lx = ${f("log")}(u) / a, ly = ${f("log")}(v) / b;
        const ${t} m = lx > ly ? lx : ly;
        lx -= m;
        ly -= m;
        return ${f("exp")}(lx - ${f("log")}(${f("exp")}(lx) + ${f("exp")}(ly)));
      }
    }
  }
  const ${t} ga = cudeno_gamma_${sfx}(s, a, 0), gb = cudeno_gamma_${sfx}(s, b, 0);
  return ga / (ga + gb);
}`;
}

/** NumPy's `random_loggam`: ln Γ(x) for x > 0 by Stirling's series, shifted up past 7. */
function loggam(inline: string): string {
  const a = [
    8.333333333333333e-02,
    -2.777777777777778e-03,
    7.936507936507937e-04,
    -5.952380952380952e-04,
    8.417508417508418e-04,
    -1.917526917526918e-03,
    6.410256410256410e-03,
    -2.955065359477124e-02,
    1.796443723688307e-01,
    -1.39243221690590e+00,
  ];
  let series = `${a[9]!.toExponential(16)}`;
  for (let k = 8; k >= 0; k--) series = `(${series}) * x2 + ${a[k]!.toExponential(16)}`;
  return `${inline} double cudeno_loggam(double x) {
  if (x == 1.0 || x == 2.0) return 0.0;
  const int n = x < 7.0 ? (int)(7.0 - x) : 0;
  double x0 = x + n;
  const double x2 = (1.0 / x0) * (1.0 / x0);
  double gl = (${series}) / x0 + 0.91893853320467267 + (x0 - 0.5) * log(x0) - x0;
  for (int k = 1; k <= n; k++) {
    gl -= log(x0 - 1.0);
    x0 -= 1.0;
  }
  return gl;
}`;
}

/** `cudeno_stirling_tail(k)`: ln k! − (Stirling's approximation of it), from TensorFlow's BTRS. */
function stirlingTail(inline: string): string {
  const table = [
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
  ];
  return `${inline} double cudeno_stirling_tail(double k) {
  if (k <= 9.0) {
    switch ((int)k) {
${table.map((v, i) => `      case ${i}: return ${v.toExponential(16)};`).join("\n")}
    }
  }
  const double kp1sq = (k + 1.0) * (k + 1.0);
  return (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / 1260.0 / kp1sq) / kp1sq) / (k + 1.0);
}`;
}

/**
 * `cudeno_poisson(s, lam)`, `cudeno_binomial(s, n, p)` and `cudeno_geometric(s, p)` (int64 results,
 * float64 arithmetic), after the float64 stream functions.
 */
export function discreteFunctions(dialect: Dialect): string {
  const target = targetOf(dialect);
  const inline = target.inline, long = target.indexType;
  return `${loggam(inline)}
${stirlingTail(inline)}
${inline} ${long} cudeno_poisson(cudeno_rng *s, double lam) {
  if (lam == 0.0) return 0;
  if (lam < 10.0) {
    const double enlam = exp(-lam);
    ${long} x = 0;
    double prod = 1.0;
    for (;;) {
      prod *= cudeno_u01_f64(s);
      if (prod > enlam) x++;
      else return x;
    }
  }
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = cudeno_u01_f64(s) - 0.5;
    const double v = cudeno_u01_f64(s);
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return (${long})k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - cudeno_loggam(k + 1.0)) {
      return (${long})k;
    }
  }
}
${inline} ${long} cudeno_binomial(cudeno_rng *s, double n, double p) {
  if (n == 0.0 || p == 0.0) return 0;
  if (p == 1.0) return (${long})n;
  const int flip = p > 0.5;
  const double q = flip ? 1.0 - p : p;
  double k = 0.0;
  if (n * q < 10.0) {
    const double logq = log1p(-q);
    double sum = 0.0;
    for (;;) {
      sum += ceil(log(cudeno_uo_f64(s)) / logq);
      if (sum > n) break;
      k += 1.0;
    }
  } else {
    const double stddev = sqrt(n * q * (1.0 - q));
    const double b = 1.15 + 2.53 * stddev;
    const double a = -0.0873 + 0.0248 * b + 0.01 * q;
    const double c = n * q + 0.5;
    const double vr = 0.92 - 4.2 / b;
    const double r = q / (1.0 - q);
    const double alpha = (2.83 + 5.1 / b) * stddev;
    const double m = floor((n + 1.0) * q);
    for (;;) {
      const double u = cudeno_u01_f64(s) - 0.5;
      double v = cudeno_u01_f64(s);
      const double us = 0.5 - fabs(u);
      k = floor((2.0 * a / us + b) * u + c);
      if (us >= 0.07 && v <= vr) break;
      if (k < 0.0 || k > n) continue;
      v = log(v * alpha / (a / (us * us) + b));
      const double bound = (m + 0.5) * log((m + 1.0) / (r * (n - m + 1.0))) +
        (n + 1.0) * log((n - m + 1.0) / (n - k + 1.0)) +
        (k + 0.5) * log(r * (n - k + 1.0) / (k + 1.0)) +
        cudeno_stirling_tail(m) + cudeno_stirling_tail(n - m) -
        cudeno_stirling_tail(k) - cudeno_stirling_tail(n - k);
      if (v <= bound) break;
    }
  }
  return flip ? (${long})(n - k) : (${long})k;
}
${inline} ${long} cudeno_geometric(cudeno_rng *s, double p) {
  if (p == 1.0) return 1;
  const double z = ceil(log(cudeno_uo_f64(s)) / log1p(-p));
  return z >= 9.223372036854776e18 ? (${long})${target.unsignedHex(0x7fffffffffffffffn, 64)} : (${long})z;
}`;
}
