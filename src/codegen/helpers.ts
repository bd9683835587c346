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
export type HelperName = "mod" | "floordiv" | "fmod" | "ipow" | "shl" | "shr" | "digamma";

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
  const params = name === "digamma" ? `${c} x` : `${c} a, ${c} b`;
  return `${decl(d)} ${c} cudeno_${name}_${t}(${params}) {
  ${body(name, t, d)}
}`;
}
