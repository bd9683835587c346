/**
 * Small device functions that give C NumPy's semantics where its operators differ (Python's floor
 * division and modulo, integer powers, shifts past the width) or that C's math library lacks
 * (digamma). An IR `helper` node calls `cudeno_<name>_<dtype>`; its source, written once over both
 * dialects through the Target's spellings, is emitted beside the kernel.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";
import { cType, literal, mathFn } from "./c.ts";

/** The helpers an expression may call. */
export type HelperName =
  | "mod"
  | "floordiv"
  | "fmod"
  | "ipow"
  | "shl"
  | "shr"
  | "digamma"
  | "erfinv"
  | "erfcinv"
  | "i0"
  | "gammainc"
  | "gammaincc";

/** The helpers of one argument (the others take two). */
const UNARY_HELPERS: ReadonlySet<HelperName> = new Set(["digamma", "erfinv", "erfcinv", "i0"]);

const decl = (d: Dialect) => (d === "cuda" ? "__device__ __forceinline__" : "inline");

/** The unsigned type whose arithmetic wraps for a 32/64-bit signed `t` (else `t` itself). */
function wrapping(t: DType, d: Dialect): string {
  if (t === "int32") return cType("uint32", d);
  if (t === "int64") return cType("uint64", d);
  return cType(t, d);
}

/** The body of helper `name` for compute dtype `t` (after `<decl> <type> cudeno_<name>_<t>(<params>)`). */
function body(name: HelperName, t: DType, d: Dialect): string {
  const c = cType(t, d);
  const signed = DTYPES[t].kind === "int";
  const m = (f: string) => mathFn(f, t, d);
  if (DTYPES[t].kind === "float") {
    switch (name) {
      case "mod":
        return `${c} m = ${m("fmod")}(a, b);
  if (!b) return m;
  if (m) { if ((b < 0) != (m < 0)) m += b; } else m = ${m("copysign")}((${c})0, b);
  return m;`;
      case "floordiv":
        return `if (!b) return a / b;
  ${c} m = ${m("fmod")}(a, b);
  ${c} q = (a - m) / b;
  if (m && ((b < 0) != (m < 0))) q -= (${c})1;
  if (!q) return ${m("copysign")}((${c})0, a / b);
  ${c} f = ${m("floor")}(q);
  return q - f > (${c})0.5 ? f + (${c})1 : f;`;
      case "digamma":
        // Reflection below 0.5, recurrence up to 10, then the asymptotic series (as Cephes's psi).
        return `const ${c} pi = ${literal(Math.PI, t, d)};
  if (x == 0) return -1 / x;
  if (x < 0 && x == ${m("floor")}(x)) return ${literal(NaN, t, d)};
  ${c} r = 0;
  if (x < (${c})0.5) { r = -pi / ${m("tan")}(pi * x); x = 1 - x; }
  while (x < 10) { r -= 1 / x; x += 1; }
  ${c} f = 1 / (x * x);
  ${c} s = f * (${literal(1 / 12, t, d)} - f * (${literal(1 / 120, t, d)} - f * (${
          literal(1 / 252, t, d)
        } - f * (${literal(1 / 240, t, d)} - f * ${literal(1 / 132, t, d)}))));
  return r + ${m("log")}(x) - (${c})0.5 / x - s;`;
      case "erfinv":
      case "erfcinv": {
        // Giles's single-precision approximation (2010) of erfinv(t), t = 1 - x for erfcinv with
        // (1 - t)(1 + t) formed from x so that small x keep their digits, then two Newton steps on erf or
        // erfc, which bring it to the dtype's precision.
        const inverse = name === "erfinv";
        const [lo, hi] = inverse ? ["-1", "1"] : ["0", "2"];
        const lit = (v: number) => literal(v, t, d);
        // Horner's rule in w, the first coefficient the highest power's.
        const poly = (cs: number[]) => cs.map(lit).reduce((acc, coef) => `(${coef} + w * ${acc})`);
        return `if (x == ${lo}) return ${literal(inverse ? -Infinity : Infinity, t, d)};
  if (x == ${hi}) return ${literal(inverse ? Infinity : -Infinity, t, d)};
  if (!(x > ${lo} && x < ${hi})) return ${literal(NaN, t, d)};
  const ${c} s = ${inverse ? "x" : `1 - x`};
  ${c} w = -${m("log")}(${inverse ? "(1 - x) * (1 + x)" : "x * (2 - x)"}), p;
  if (w < 5) { w -= ${lit(2.5)}; p = ${
          poly([
            2.81022636e-08,
            3.43273939e-07,
            -3.5233877e-06,
            -4.39150654e-06,
            0.00021858087,
            -0.00125372503,
            -0.00417768164,
            0.246640727,
            1.50140941,
          ])
        }; }
  else if (w < 16) { w = ${m("sqrt")}(w) - 3; p = ${
          poly([
            -0.000200214257,
            0.000100950558,
            0.00134934322,
            -0.00367342844,
            0.00573950773,
            -0.0076224613,
            0.00943887047,
            1.00167406,
            2.83297682,
          ])
        }; }
  else {
    // Past the approximation's range (tails below about 1e-7): erfc(z) = q solved by z² = -log(q·z·√π).
    const ${c} q = ${inverse ? `1 - ${m("fabs")}(x)` : "x < 1 ? x : 2 - x"}, big = -${m("log")}(q);
    ${c} z = ${m("sqrt")}(big);
    for (int k = 0; k < 3; k++) z = ${m("sqrt")}(big - ${m("log")}(z * ${lit(Math.sqrt(Math.PI))}));
    p = s < 0 ? -z / s : z / s;
  }
  ${c} y = p * s;
  // Newton's steps: on erfc(|y|) = q in the tails, where q (a difference from 1 or 2) is exact and erf
  // would have lost its digits; on erf(y) = s between.
  const ${c} q = ${inverse ? `1 - ${m("fabs")}(x)` : "x < 1 ? x : 2 - x"};
  const int tail = q < ${lit(0.5)};
  for (int k = 0; k < 3; k++) {
    const ${c} slope = ${lit(2 / Math.sqrt(Math.PI))} * ${m("exp")}(-y * y);
    if (slope == 0) break;
    if (tail) y = ${m("copysign")}(${m("fabs")}(y) + (${m("erfc")}(${m("fabs")}(y)) - q) / slope, s);
    else y -= (${m("erf")}(y) - s) / slope;
  }
  return y;`;
      }
      case "i0":
        // The power series Σ (x²/4)^k / (k!)² (every term positive) up to 30, the asymptotic series beyond.
        return `x = ${m("fabs")}(x);
  if (x != x) return x;
  if (x <= 30) {
    const ${c} q = x * x / 4;
    ${c} term = 1, sum = 1;
    for (int k = 1; k < 200 && term > sum * ${literal(DTYPES[t].size === 8 ? 1e-17 : 1e-8, t, d)}; k++) {
      term *= q / ((${c})k * k);
      sum += term;
    }
    return sum;
  }
  ${c} term = 1, sum = 1;
  for (int k = 1; k < 30; k++) {
    term *= (${c})((2 * k - 1) * (2 * k - 1)) / ((${c})k * 8 * x);
    sum += term;
  }
  return ${m("exp")}(x) / ${m("sqrt")}(${literal(2 * Math.PI, t, d)} * x) * sum;`;
      case "gammainc":
      case "gammaincc": {
        // The regularised incomplete gamma functions P(a, x) and Q(a, x) = 1 - P: the series where
        // x < a + 1, Lentz's continued fraction beyond (as Numerical Recipes' gser and gcf).
        const lower = name === "gammainc";
        const eps = literal(DTYPES[t].size === 8 ? 1e-16 : 1e-7, t, d),
          tiny = literal(DTYPES[t].size === 8 ? 1e-300 : 1e-30, t, d);
        return `if (a != a || x != x || a <= 0 || x < 0) return ${literal(NaN, t, d)};
  if (x == 0) return ${lower ? "0" : "1"};
  if (x == ${literal(Infinity, t, d)}) return ${lower ? "1" : "0"};
  const ${c} front = ${m("exp")}(-x + a * ${m("log")}(x) - ${m("lgamma")}(a));
  if (x < a + 1) {
    ${c} ap = a, del = 1 / a, sum = del;
    for (int k = 0; k < 1000 && ${m("fabs")}(del) > ${
          m("fabs")
        }(sum) * ${eps}; k++) { ap += 1; del *= x / ap; sum += del; }
    return ${lower ? "sum * front" : "1 - sum * front"};
  }
  ${c} b = x + 1 - a, cc = 1 / ${tiny}, dd = 1 / b, h = dd;
  for (int i = 1; i < 1000; i++) {
    const ${c} an = -i * (i - a);
    b += 2;
    dd = an * dd + b; if (${m("fabs")}(dd) < ${tiny}) dd = ${tiny};
    cc = b + an / cc; if (${m("fabs")}(cc) < ${tiny}) cc = ${tiny};
    dd = 1 / dd;
    const ${c} step = dd * cc;
    h *= step;
    if (${m("fabs")}(step - 1) < ${eps}) break;
  }
  return ${lower ? "1 - front * h" : "front * h"};`;
      }
      default:
        throw new Error(`no float helper ${name}`);
    }
  }
  const u = wrapping(t, d);
  const bits = DTYPES[t].size * 8;
  switch (name) {
    case "mod":
      return `if (b == 0${signed ? " || b == -1" : ""}) return 0;
  ${c} r = a % b;
  ${signed ? "if (r != 0 && ((r < 0) != (b < 0))) r += b;" : ""}
  return r;`;
    case "fmod":
      return `if (b == 0${signed ? " || b == -1" : ""}) return 0;
  return a % b;`;
    case "floordiv":
      return `if (b == 0) return 0;
  ${signed ? `if (b == -1) return (${c})(0 - (${u})a);` : ""}
  ${c} q = a / b;
  ${signed ? "if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;" : ""}
  return q;`;
    case "ipow":
      return `${signed ? "if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0);" : ""}
  ${u} r = 1, m = (${u})a;
  while (b > 0) { if (b & 1) r *= m; m *= m; b >>= 1; }
  return (${c})r;`;
    case "shl":
      return `return (b < 0 || b >= ${bits}) ? 0 : (${c})((${u})a << b);`;
    case "shr":
      return `return (b < 0 || b >= ${bits}) ? (${c})(${signed ? "a < 0 ? -1 : 0" : "0"}) : (${c})(a >> b);`;
    default:
      throw new Error(`no integer helper ${name}`);
  }
}

/** The source of helper `name` for compute dtype `t` in dialect `d`. */
export function helperSource(name: HelperName, t: DType, d: Dialect): string {
  const c = cType(t, d);
  const params = UNARY_HELPERS.has(name)
    ? `${c} x`
    : name === "gammainc" || name === "gammaincc"
    ? `${c} a, ${c} x`
    : `${c} a, ${c} b`;
  return `${decl(d)} ${c} cudeno_${name}_${t}(${params}) {
  ${body(name, t, d)}
}`;
}
