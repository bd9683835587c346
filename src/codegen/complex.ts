/**
 * Complex numbers in generated C: a complex64 is a `float2` and a complex128 a `double2` (real part
 * `.x`, imaginary `.y`: the layout of cuComplex, cufftComplex and `pyopencl-complex.h`), and the
 * arithmetic and functions NumPy defines on them are small C functions, `cdn_c64_mul` and kin, that a
 * kernel's preamble carries when it touches a complex dtype. The same text serves both dialects: only
 * how a pair is made (`make_float2(re, im)` or `(float2)(re, im)`) and the math names differ, and those
 * come from the {@link Target}.
 *
 * @module
 */

import type { DType } from "../kernel/dtype.ts";
import type { Target } from "./target.ts";

/** The functions each library defines (`cdn_c64_exp(z)`), by the IR's call names. */
export const COMPLEX_FUNCTIONS: ReadonlySet<string> = new Set([
  "abs",
  "angle",
  "pow",
  "isnan",
  "isinf",
  "isfinite",
  "exp",
  "exp2",
  "expm1",
  "log",
  "log2",
  "log10",
  "log1p",
  "sqrt",
  "sin",
  "cos",
  "tan",
  "sinh",
  "cosh",
  "tanh",
  "asin",
  "acos",
  "atan",
  "asinh",
  "acosh",
  "atanh",
  "conj",
  "sign",
]);

/** The prefix of a complex dtype's functions: `cdn_c64_` or `cdn_c128_`. */
export function complexPrefix(dtype: DType): string {
  return dtype === "complex64" ? "cdn_c64_" : "cdn_c128_";
}

/** The pieces of a target the library is written with. */
type Spelling = Pick<Target, "inline" | "mathFn" | "complexValue">;

/**
 * The C functions of complex `dtype` (complex64 or complex128) for target `t`; complex128's also
 * convert between the two widths. Each is `inline`, so a kernel that calls few costs nothing for the rest.
 *
 * @example
 * ```ts
 * import { complexLibrary } from "./complex.ts";
 * import { targetOf } from "./targets.ts";
 * console.log(complexLibrary(targetOf("opencl"), "complex64").includes("cdn_c64_mul")); // true
 * ```
 */
export function complexLibrary(t: Spelling, dtype: "complex64" | "complex128"): string {
  const real: DType = dtype === "complex64" ? "float32" : "float64";
  const T = real === "float32" ? "float" : "double", C = `${T}2`, p = complexPrefix(dtype);
  const f = real === "float32" ? "f" : "";
  const m = (name: string) => t.mathFn(name, real);
  const mk = (re: string, im: string) => t.complexValue(re, im, dtype);
  const big = real === "float32" ? "20.0f" : "360.0";
  const fn = (returns: string, name: string, params: string, body: string) =>
    `${t.inline} ${returns} ${p}${name}(${params}) { ${body} }`;
  const z = `${C} z`, ab = `${C} a, ${C} b`;
  const lines = [
    fn(C, "make", `${T} re, ${T} im`, `return ${mk("re", "im")};`),
    fn(C, "add", ab, `return ${mk("a.x + b.x", "a.y + b.y")};`),
    fn(C, "sub", ab, `return ${mk("a.x - b.x", "a.y - b.y")};`),
    fn(C, "mul", ab, `return ${mk("a.x * b.x - a.y * b.y", "a.x * b.y + a.y * b.x")};`),
    // Smith's division: no overflow for large divisors, as NumPy's.
    fn(
      C,
      "div",
      ab,
      `if (${m("fabs")}(b.x) >= ${m("fabs")}(b.y)) { if (b.x == 0 && b.y == 0) return ${
        mk(`a.x / ${m("fabs")}(b.x)`, `a.y / ${m("fabs")}(b.x)`)
      }; ${T} r = b.y / b.x, d = b.x + b.y * r; return ${
        mk("(a.x + a.y * r) / d", "(a.y - a.x * r) / d")
      }; } ` +
        `${T} r = b.x / b.y, d = b.y + b.x * r; return ${mk("(a.x * r + a.y) / d", "(a.y * r - a.x) / d")};`,
    ),
    fn(C, "neg", z, `return ${mk("-z.x", "-z.y")};`),
    fn(C, "conj", z, `return ${mk("z.x", "-z.y")};`),
    fn(T, "abs", z, `return ${m("hypot")}(z.x, z.y);`),
    fn(T, "angle", z, `return ${m("atan2")}(z.y, z.x);`),
    fn("int", "eq", ab, "return a.x == b.x && a.y == b.y;"),
    fn("int", "ne", ab, "return a.x != b.x || a.y != b.y;"),
    fn("int", "nz", z, "return z.x != 0 || z.y != 0;"),
    fn("int", "isnan", z, "return z.x != z.x || z.y != z.y;"),
    fn("int", "isinf", z, `return ${m("fabs")}(z.x) == INFINITY || ${m("fabs")}(z.y) == INFINITY;`),
    fn("int", "isfinite", z, `return z.x - z.x == 0 && z.y - z.y == 0;`),
    fn(
      C,
      "exp",
      z,
      `${T} e = ${m("exp")}(z.x); if (z.y == 0) return ${mk("e", "z.y")}; return ${
        mk(`e * ${m("cos")}(z.y)`, `e * ${m("sin")}(z.y)`)
      };`,
    ),
    fn(C, "log", z, `return ${mk(`${m("log")}(${m("hypot")}(z.x, z.y))`, `${m("atan2")}(z.y, z.x)`)};`),
    fn(
      C,
      "sqrt",
      z,
      `if (z.x == 0 && z.y == 0) return ${mk(`0.0${f}`, "z.y")}; ${T} s = ${m("sqrt")}((${m("fabs")}(z.x) + ${
        m("hypot")
      }(z.x, z.y)) * 0.5${f}); if (z.x >= 0) return ${mk("s", `z.y / (2.0${f} * s)`)}; return ${
        mk(`${m("fabs")}(z.y) / (2.0${f} * s)`, `${m("copysign")}(s, z.y)`)
      };`,
    ),
    fn(
      C,
      "exp2",
      z,
      `return ${p}exp(${mk(`z.x * 0.69314718055994531${f}`, `z.y * 0.69314718055994531${f}`)});`,
    ),
    fn(C, "expm1", z, `${C} e = ${p}exp(z); return ${mk(`e.x - 1.0${f}`, "e.y")};`),
    fn(
      C,
      "log2",
      z,
      `${C} l = ${p}log(z); return ${mk(`l.x * 1.4426950408889634${f}`, `l.y * 1.4426950408889634${f}`)};`,
    ),
    fn(
      C,
      "log10",
      z,
      `${C} l = ${p}log(z); return ${mk(`l.x * 0.43429448190325183${f}`, `l.y * 0.43429448190325183${f}`)};`,
    ),
    fn(C, "log1p", z, `return ${p}log(${mk(`z.x + 1.0${f}`, "z.y")});`),
    fn(
      C,
      "pow",
      ab,
      `if (b.x == 0 && b.y == 0) return ${mk(`1.0${f}`, `0.0${f}`)}; ` +
        `if (a.x == 0 && a.y == 0) return b.y == 0 && b.x > 0 ? ${mk(`0.0${f}`, `0.0${f}`)} : ${
          mk("NAN", "NAN")
        }; ` +
        // Small integer powers by repeated squaring, exact where they can be (as NumPy).
        `if (b.y == 0 && b.x == ${m("floor")}(b.x) && ${m("fabs")}(b.x) <= 100) { int n = (int)${
          m("fabs")
        }(b.x); ${C} r = ${
          mk(`1.0${f}`, `0.0${f}`)
        }, q = a; while (n > 0) { if (n & 1) r = ${p}mul(r, q); q = ${p}mul(q, q); n >>= 1; } return b.x < 0 ? ${p}div(${
          mk(`1.0${f}`, `0.0${f}`)
        }, r) : r; } ` +
        `return ${p}exp(${p}mul(b, ${p}log(a)));`,
    ),
    fn(
      C,
      "sin",
      z,
      `return ${mk(`${m("sin")}(z.x) * ${m("cosh")}(z.y)`, `${m("cos")}(z.x) * ${m("sinh")}(z.y)`)};`,
    ),
    fn(
      C,
      "cos",
      z,
      `return ${mk(`${m("cos")}(z.x) * ${m("cosh")}(z.y)`, `-${m("sin")}(z.x) * ${m("sinh")}(z.y)`)};`,
    ),
    fn(
      C,
      "sinh",
      z,
      `return ${mk(`${m("sinh")}(z.x) * ${m("cos")}(z.y)`, `${m("cosh")}(z.x) * ${m("sin")}(z.y)`)};`,
    ),
    fn(
      C,
      "cosh",
      z,
      `return ${mk(`${m("cosh")}(z.x) * ${m("cos")}(z.y)`, `${m("sinh")}(z.x) * ${m("sin")}(z.y)`)};`,
    ),
    // tanh(x + iy) = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y), which overflows past |x| ~ big: ±1 there.
    fn(
      C,
      "tanh",
      z,
      `if (${m("fabs")}(z.x) > ${big}) return ${
        mk(`${m("copysign")}(1.0${f}, z.x)`, `0.0${f} * ${m("sin")}(2.0${f} * z.y)`)
      }; ` +
        `${T} d = ${m("cosh")}(2.0${f} * z.x) + ${m("cos")}(2.0${f} * z.y); return ${
          mk(`${m("sinh")}(2.0${f} * z.x) / d`, `${m("sin")}(2.0${f} * z.y) / d`)
        };`,
    ),
    // tan z = -i tanh(iz).
    fn(C, "tan", z, `${C} w = ${p}tanh(${mk("-z.y", "z.x")}); return ${mk("w.y", "-w.x")};`),
    // asinh z = log(z + sqrt(z² + 1)), odd: taken on the right half-plane so nothing cancels.
    fn(
      C,
      "asinh",
      z,
      `int flip = z.x < 0; ${C} w = flip ? ${p}neg(z) : z; ${C} r = ${p}log(${p}add(w, ${p}sqrt(${p}add(${p}mul(w, w), ${
        mk(`1.0${f}`, `0.0${f}`)
      })))); return flip ? ${p}neg(r) : r;`,
    ),
    fn(
      C,
      "acosh",
      z,
      `return ${p}log(${p}add(z, ${p}mul(${p}sqrt(${mk(`z.x + 1.0${f}`, "z.y")}), ${p}sqrt(${
        mk(`z.x - 1.0${f}`, "z.y")
      }))));`,
    ),
    fn(
      C,
      "atanh",
      z,
      `${C} d = ${p}sub(${p}log(${mk(`1.0${f} + z.x`, "z.y")}), ${p}log(${
        mk(`1.0${f} - z.x`, "-z.y")
      })); return ${mk(`0.5${f} * d.x`, `0.5${f} * d.y`)};`,
    ),
    // asin z = -i asinh(iz), acos z = π/2 - asin z, atan z = -i atanh(iz).
    fn(C, "asin", z, `${C} w = ${p}asinh(${mk("-z.y", "z.x")}); return ${mk("w.y", "-w.x")};`),
    fn(C, "acos", z, `${C} s = ${p}asin(z); return ${mk(`1.5707963267948966${f} - s.x`, "-s.y")};`),
    fn(C, "atan", z, `${C} w = ${p}atanh(${mk("-z.y", "z.x")}); return ${mk("w.y", "-w.x")};`),
    // NumPy 2's sign: z / |z|, and 0 at 0.
    fn(
      C,
      "sign",
      z,
      `${T} r = ${m("hypot")}(z.x, z.y); return r == 0 ? ${mk(`0.0${f}`, `0.0${f}`)} : ${
        mk("z.x / r", "z.y / r")
      };`,
    ),
  ];
  if (dtype === "complex128") {
    lines.push(
      fn(
        "double2",
        "from_c64",
        "float2 z",
        `return ${t.complexValue("(double)z.x", "(double)z.y", "complex128")};`,
      ),
      `${t.inline} float2 cdn_c64_from_c128(double2 z) { return ${
        t.complexValue("(float)z.x", "(float)z.y", "complex64")
      }; }`,
    );
  }
  // Guarded, so that a source assembled from several pieces' preambles defines each function once.
  const guard = `CDN_${dtype.toUpperCase()}_LIBRARY`;
  return [`#ifndef ${guard}`, `#define ${guard}`, ...lines, "#endif"].join("\n");
}
