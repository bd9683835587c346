/**
 * The host reference's element types: a dtype's kind, bits and range, rounding to a float dtype,
 * conversion of values the way a C cast does, the check that an integer scalar fits, and NumPy 2's
 * promotion of two dtypes and of a dtype with a weak JS scalar (NEP 50; bfloat16 as the project ranks
 * it). Values: floats and integers up to 32 bits are numbers, 64-bit integers bigints, bools 0 and 1.
 */

import { type DType, DTYPES } from "../../src/kernel/dtype.ts";

/** One element: a number, or a bigint for 64-bit integers. */
export type Value = number | bigint;
/** A JS scalar operand, weak in promotion (NEP 50). */
export type Scalar = number | bigint;

// ---- element types ----------------------------------------------------------------------------

/** The kind of a dtype. */
export const kind = (d: DType): "float" | "int" | "uint" | "bool" | "complex" => DTYPES[d].kind;
/** Bits per element. */
export const bits = (d: DType): number => DTYPES[d].size * 8;
/** Whether integers of this dtype are held as bigints. */
export const isBig = (d: DType): boolean => kind(d) !== "float" && bits(d) === 64;

/** The smallest and largest value of an integer dtype (bool: 0..1). */
export function intRange(d: DType): [bigint, bigint] {
  if (kind(d) === "bool") return [0n, 1n];
  const n = BigInt(bits(d));
  return kind(d) === "int" ? [-(1n << (n - 1n)), (1n << (n - 1n)) - 1n] : [0n, (1n << n) - 1n];
}

/** The largest finite value, the smallest normal, and epsilon of a float dtype. */
export function floatInfo(d: DType): { max: number; tiny: number; eps: number } {
  switch (d) {
    case "float16":
      return { max: 65504, tiny: 2 ** -14, eps: 2 ** -10 };
    case "bfloat16":
      return { max: (2 - 2 ** -7) * 2 ** 127, tiny: 2 ** -126, eps: 2 ** -7 };
    case "float32":
      return { max: (2 - 2 ** -23) * 2 ** 127, tiny: 2 ** -126, eps: 2 ** -23 };
    default:
      return { max: Number.MAX_VALUE, tiny: 2 ** -1022, eps: 2 ** -52 };
  }
}

/** Rounds to the nearest integer, ties to even (NumPy's `round`, C's `rint`). */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 ? 2 * Math.round(x / 2) : r;
}

/** Rounds a float64 to bfloat16 once (to nearest, ties to even), as a number. */
function bf16round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  let e = Math.floor(Math.log2(Math.abs(x)));
  if (2 ** e > Math.abs(x)) e--; // log2 may round across a power of two
  if (2 ** (e + 1) <= Math.abs(x)) e++;
  const ulp = 2 ** (Math.max(e, -126) - 7);
  const y = roundHalfEven(x / ulp) * ulp;
  return Math.abs(y) >= 2 ** 128 ? Math.sign(y) * Infinity : y;
}

/** Rounds a number to a float dtype. */
export function roundTo(d: DType, x: number): number {
  if (d === "float32") return Math.fround(x);
  if (d === "float16") return Math.f16round(x);
  if (d === "bfloat16") return bf16round(x);
  return x;
}

/** Converts a JS value to a dtype the way a C cast (and NumPy's `astype`) does: floats to integers truncate. */
export function cast(v: Value | boolean, d: DType): Value {
  if (typeof v === "boolean") v = v ? 1 : 0;
  const k = kind(d);
  if (k === "bool") return (typeof v === "bigint" ? v !== 0n : v !== 0) ? 1 : 0;
  if (k === "float") return roundTo(d, Number(v));
  if (typeof v === "number" && !Number.isFinite(v)) {
    throw new RangeError(`Cannot convert ${v} to ${d}: the result is unspecified`);
  }
  const b = typeof v === "bigint" ? v : BigInt(Math.trunc(v));
  const w = k === "int" ? BigInt.asIntN(bits(d), b) : BigInt.asUintN(bits(d), b);
  return bits(d) === 64 ? w : Number(w);
}

/** Checks that an integer scalar fits a dtype, as NumPy 2 does for Python integers. */
export function checkFits(v: Scalar, d: DType, what: string): void {
  if (kind(d) === "float" || (typeof v === "number" && !Number.isInteger(v))) return;
  const [lo, hi] = intRange(d);
  const b = BigInt(v);
  if (kind(d) !== "bool" && (b < lo || b > hi)) {
    throw new RangeError(`Cannot ${what}: ${v} is out of ${d}'s range ${lo}..${hi}`);
  }
}

// ---- promotion (NumPy 2, NEP 50; bfloat16 as the project ranks it) -----------------------------

const FLOATS: DType[] = ["float16", "bfloat16", "float32", "float64"];
const SIGNED: DType[] = ["int8", "int16", "int32", "int64"];

/** The dtype NumPy's `result_type` gives for two array dtypes. */
export function resultType(a: DType, b: DType): DType {
  if (a === b || kind(b) === "bool") return a;
  if (kind(a) === "bool") return b;
  if (kind(a) === "float" || kind(b) === "float") {
    // An integer dtype promotes to the smallest float that holds it: 8 bits float16, 16 float32, else float64.
    const asFloat = (d: DType) =>
      kind(d) === "float"
        ? d
        : ({ 8: "float16", 16: "float32" } as Record<number, DType>)[bits(d)] ?? "float64";
    const [x, y] = [asFloat(a), asFloat(b)];
    if (x === y) return x;
    if (bits(x) === 16 && bits(y) === 16) return "float32"; // float16 with bfloat16
    return FLOATS.indexOf(x) > FLOATS.indexOf(y) ? x : y;
  }
  if (kind(a) === kind(b)) return bits(a) >= bits(b) ? a : b;
  const [s, u] = kind(a) === "int" ? [a, b] : [b, a];
  if (bits(s) > bits(u)) return s;
  return bits(u) === 64 ? "float64" : SIGNED[Math.log2(bits(u) / 4)]!;
}

/** The dtype of an array of `d` combined with a weak JS scalar. */
export function weakType(d: DType, v: Scalar): DType {
  if (typeof v === "number" && !Number.isInteger(v)) return kind(d) === "float" ? d : "float64";
  return kind(d) === "bool" ? "int64" : d;
}
