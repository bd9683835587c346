/**
 * NumPy's text form of an array (its `repr`), computed on the host from the elements an array shows:
 * `array([[1., 2.],\n       [3., 4.]], dtype=float32)`. Floats print as NumPy 2 prints them (the fewest
 * digits that read back as the same value of their dtype, at most 8 after the point, scientific notation
 * when the magnitudes span too much), integers and bools right-aligned, 75 columns a line. Arrays of more
 * than 1000 elements are summarised with `...`, 3 items at each end of every axis longer than 6.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { roundBfloat16 } from "../../kernel/bfloat16.ts";

/**
 * One element as a host value: a number, a bigint for 64-bit integers, a boolean for bools, a pair
 * `[re, im]` for complex numbers.
 */
export type Element = number | bigint | boolean | readonly [number, number];

/** The elements of an array that its text form shows. */
export interface Shown {
  /** The array's dtype. */
  readonly dtype: DType;
  /** The array's shape. */
  readonly shape: readonly number[];
  /** Per axis: the items shown at each end when the axis is summarised, else undefined (all shown). */
  readonly edges: readonly (number | undefined)[];
  /** The shown elements in C order: a summarised axis holds its leading then its trailing items. */
  readonly values: readonly Element[];
}

/** Items shown at each end of a summarised axis (NumPy's `edgeitems`). */
export const EDGE_ITEMS = 3;
/** Arrays of more elements than this are summarised (NumPy's `threshold`). */
export const THRESHOLD = 1000;
const LINE_WIDTH = 75;
const PREFIX = "array(";
const SEPARATOR = ", ";
/** Digits after the point NumPy prints at most (its `precision`). */
const PRECISION = 8;
/** NumPy's `finfo(dtype).precision`: positional notation stops at 10^min(8, this). */
const DECIMALS: Partial<Record<DType, number>> = { float16: 3, bfloat16: 2, float32: 6, float64: 15 };

/** The edges to show of an array of `shape` in text: 3 at each end of long axes past 1000 elements. */
export function textEdges(shape: readonly number[]): (number | undefined)[] {
  const size = shape.reduce((a, b) => a * b, 1);
  return shape.map((d) => (size > THRESHOLD && d > 2 * EDGE_ITEMS ? EDGE_ITEMS : undefined));
}

/** Rounds a number to the nearest value of a float dtype. */
function rounder(dtype: DType): (x: number) => number {
  if (dtype === "float16") return Math.f16round;
  if (dtype === "bfloat16") return roundBfloat16;
  if (dtype === "float32") return Math.fround;
  return (x) => x;
}

/** |x| as m × 2^e, exactly (x finite). */
function decompose(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const high = view.getUint32(0), biased = (high >>> 20) & 0x7ff;
  const m = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  return biased === 0 ? { m, e: -1074 } : { m: m | (1n << 52n), e: biased - 1075 };
}

/** |x| × 10^f as the fraction num / den, exactly. */
function scaled(x: number, f: number): [bigint, bigint] {
  const { m, e } = decompose(x);
  const [num, den] = e >= 0 ? [m << BigInt(e), 1n] : [m, 1n << BigInt(-e)];
  return f >= 0 ? [num * 10n ** BigInt(f), den] : [num, den * 10n ** BigInt(-f)];
}

/** |x| × 10^f rounded to an integer, halves to even, exactly (x finite). */
function scaledRound(x: number, f: number): bigint {
  const [num, den] = scaled(x, f);
  const q = num / den, r2 = 2n * (num % den);
  return r2 > den || (r2 === den && (q & 1n) === 1n) ? q + 1n : q;
}

/** The power of ten of the first digit of |x|'s exact value (x finite, non-zero). */
function exponentOf(x: number): number {
  let e = Math.floor(Math.log10(Math.abs(x)));
  const below = (k: number) => {
    const [num, den] = scaled(x, -k);
    return num < den; // |x| < 10^k
  };
  while (below(e)) e--;
  while (!below(e + 1)) e++;
  return e;
}

/**
 * The fewest significant digits that read back as |x| in its dtype (NumPy's "unique" digits) and the
 * power of ten of the first. x finite and non-zero.
 */
function shortest(x: number, round: (x: number) => number): { digits: string; exp: number } {
  const target = Math.abs(x);
  for (let p = 1;; p++) {
    const [mantissa, power] = target.toExponential(p - 1).split("e") as [string, string];
    const closest = BigInt(mantissa.replace(".", ""));
    const scale = Number(power) - (p - 1);
    // The closest p-digit decimal, or a neighbour where the gaps either side of |x| differ (at powers of
    // 2); of two as close, the even one (NumPy's Dragon4).
    const [num, den] = scaled(target, -scale);
    let best: bigint | undefined, error = 0n;
    for (const c of [closest - 1n, closest, closest + 1n]) {
      if (c <= 0n || round(Number(`${c}e${scale}`)) !== target) continue;
      const off = c * den > num ? c * den - num : num - c * den;
      if (best === undefined || off < error || (off === error && (c & 1n) === 0n)) [best, error] = [c, off];
    }
    if (best !== undefined) {
      const text = best.toString();
      return { digits: text.replace(/0+$/, ""), exp: scale + text.length - 1 };
    }
  }
}

interface Parts {
  /** The sign and the digits before the point. */
  readonly int: string;
  /** The digits after the point (trailing zeros trimmed). */
  readonly frac: string;
  /** The power of ten (scientific notation only). */
  readonly exp: number;
}

/** x in positional notation: its unique digits, cut (rounding halves to even) at 8 after the point. */
function positional(x: number, round: (x: number) => number, plus = false): Parts {
  const sign = x < 0 || Object.is(x, -0) ? "-" : plus ? "+" : "";
  if (x === 0) return { int: `${sign}0`, frac: "", exp: 0 };
  const { digits, exp } = shortest(x, round);
  let int = exp >= 0 ? digits.slice(0, exp + 1).padEnd(exp + 1, "0") : "0";
  let frac = exp >= 0 ? digits.slice(exp + 1) : "0".repeat(-exp - 1) + digits;
  if (frac.length > PRECISION) {
    const q = scaledRound(x, PRECISION).toString().padStart(PRECISION + 1, "0");
    [int, frac] = [q.slice(0, -PRECISION), q.slice(-PRECISION).replace(/0+$/, "")];
  }
  return { int: sign + int, frac, exp: 0 };
}

/**
 * x in scientific notation: its unique digits, cut (rounding halves to even) at 8 after the point; or,
 * given `fracDigits`, its exact value rounded to that many (what NumPy pads shorter ones to).
 */
function scientific(x: number, round: (x: number) => number, fracDigits?: number, plus = false): Parts {
  const sign = x < 0 || Object.is(x, -0) ? "-" : plus ? "+" : "";
  if (x === 0) return { int: `${sign}0`, frac: "0".repeat(fracDigits ?? 0), exp: 0 };
  let digits: string, exp: number, cut = fracDigits;
  if (cut === undefined) {
    ({ digits, exp } = shortest(x, round));
    if (digits.length <= PRECISION + 1) return { int: sign + digits[0], frac: digits.slice(1), exp };
    cut = PRECISION;
  } else {
    exp = exponentOf(x);
  }
  digits = scaledRound(x, cut - exp).toString();
  if (digits.length > cut + 1) digits = scaledRound(x, cut - ++exp).toString();
  if (fracDigits === undefined) digits = digits.replace(/0+$/, "");
  return { int: sign + digits[0], frac: digits.slice(1), exp };
}

/**
 * NumPy's FloatingFormat (floatmode "maxprec", precision 8): one width for all the shown values;
 * `plus` writes a `+` before non-negative values (a complex number's imaginary parts).
 */
function floatFormat(values: readonly number[], dtype: DType, plus = false): (x: number) => string {
  const round = rounder(dtype);
  const finite = values.filter(Number.isFinite);
  let min = Infinity, max = 0;
  for (const v of finite) {
    if (v !== 0) [min, max] = [Math.min(min, Math.abs(v)), Math.max(max, Math.abs(v))];
  }
  // NumPy compares in the array's dtype (the Python floats are weak scalars).
  const exponential = max > 0 &&
    (max >= round(10 ** Math.min(8, DECIMALS[dtype]!)) || min < round(1e-4) || round(max / min) > 1000);
  const parts = finite.map((
    v,
  ) => (exponential ? scientific(v, round, undefined, plus) : positional(v, round, plus)));
  const widest = (f: (p: Parts) => number) => parts.reduce((w, p) => Math.max(w, f(p)), 0);
  const expDigits = Math.max(2, widest((p) => String(Math.abs(p.exp)).length));
  const fracDigits = widest((p) => p.frac.length);
  let padLeft = widest((p) => p.int.length);
  const padRight = exponential ? expDigits + 2 + fracDigits : fracDigits;
  if (finite.length !== values.length) {
    const negInf = plus || values.some((v) => v === -Infinity) ? 1 : 0;
    padLeft = Math.max(padLeft, 3 + negInf - (padRight + 1));
  }
  return (x) => {
    if (!Number.isFinite(x)) {
      const text = Number.isNaN(x) ? "nan" : x < 0 ? "-inf" : "inf";
      return (plus && x === x && x > 0 || plus && x !== x ? `+${text}` : text).padStart(
        padLeft + padRight + 1,
      );
    }
    if (!exponential) {
      const p = positional(x, round, plus);
      return `${p.int.padStart(padLeft)}.${p.frac.padEnd(padRight)}`;
    }
    const p = scientific(x, round, fracDigits, plus);
    const exp = String(Math.abs(p.exp)).padStart(expDigits, "0");
    return `${p.int.padStart(padLeft)}.${p.frac}e${p.exp < 0 ? "-" : "+"}${exp}`;
  };
}

/**
 * How NumPy writes each element of these shown values: floats as {@link floatFormat}, integers
 * right-aligned to the widest, bools as `True`/`False` (` True` beside `False` in arrays).
 */
export function elementFormat(
  values: readonly Element[],
  dtype: DType,
  zeroD: boolean,
): (x: Element) => string {
  if (dtype === "bool") return (x) => (x ? (zeroD ? "True" : " True") : "False");
  if (dtype === "complex64" || dtype === "complex128") {
    // NumPy's ComplexFloatingFormat: the parts formatted each as one column, the imaginary with its
    // sign, and the `j` before the imaginary part's padding.
    const real = dtype === "complex64" ? "float32" : "float64";
    const pairs = values as readonly (readonly [number, number])[];
    const re = floatFormat(pairs.map((z) => z[0]), real),
      im = floatFormat(pairs.map((z) => z[1]), real, true);
    return (x) => {
      const [a, b] = x as readonly [number, number], i = im(b), end = i.trimEnd().length;
      return `${re(a)}${i.slice(0, end)}j${i.slice(end)}`;
    };
  }
  if (dtype === "float16" || dtype === "bfloat16" || dtype === "float32" || dtype === "float64") {
    const format = floatFormat(values as number[], dtype);
    return (x) => format(x as number);
  }
  const width = values.reduce((w: number, v) => Math.max(w, String(v).length), 0);
  return (x) => String(x).padStart(width);
}

/** A shape as Python writes a tuple: `()`, `(5,)`, `(2, 3)`. */
export function pythonTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

/** NumPy's `_formatArray` (not legacy): nested brackets, rows wrapped at `width`, `...` where summarised. */
function formatArray(shown: Shown, format: (x: Element) => string, width: number, indent: string): string {
  const { shape, edges, values } = shown;
  const ndim = shape.length;
  const extents = shape.map((d, k) => (edges[k] === undefined ? d : 2 * edges[k]!));
  const strides = extents.map((_, k) => extents.slice(k + 1).reduce((a, b) => a * b, 1));
  const recurse = (axis: number, at: number, hanging: string, lineWidth: number): string => {
    if (axis === ndim) return format(values[at]!);
    const edge = edges[axis], n = extents[axis]!;
    const item = (i: number) => recurse(axis + 1, at + i * strides[axis]!, hanging + " ", lineWidth - 1);
    // Indices of the shown items, with -1 where "..." goes.
    const order = edge === undefined ? Array.from({ length: n }, (_, i) => i) : [
      ...Array.from({ length: edge }, (_, i) => i),
      -1,
      ...Array.from({ length: edge }, (_, i) => n - edge + i),
    ];
    let s = "";
    if (axis === ndim - 1) {
      // The width up to the separator or the closing bracket.
      const elementWidth = lineWidth - 1;
      let line = hanging;
      order.forEach((i, k) => {
        const word = i < 0 ? "..." : item(i);
        if (line.length + word.length > elementWidth && line.length > hanging.length) {
          s += line.trimEnd() + "\n";
          line = hanging;
        }
        line += word + (k < order.length - 1 ? SEPARATOR : "");
      });
      s += line;
    } else {
      const lineSeparator = SEPARATOR.trimEnd() + "\n".repeat(ndim - axis - 1);
      s = order.map((i) => hanging + (i < 0 ? "..." : item(i))).join(lineSeparator);
    }
    return `[${s.slice(hanging.length)}]`;
  };
  return recurse(0, 0, indent, width);
}

/**
 * NumPy's `repr` of an array from the elements it shows: `array([1., 2.], dtype=float32)`. The dtype is
 * always written (JS has no implied one); the shape where the brackets do not tell it (an empty or a
 * summarised array), as NumPy 2.4 does.
 */
export function arrayRepr(shown: Shown): string {
  const { shape, dtype } = shown;
  const size = shape.reduce((a, b) => a * b, 1);
  const body = size === 0 ? "[]" : formatArray(
    shown,
    elementFormat(shown.values, dtype, shape.length === 0),
    LINE_WIDTH - ")".length,
    " ".repeat(1 + PREFIX.length),
  );
  const extras: string[] = [];
  if ((size === 0 && !(shape.length === 1 && shape[0] === 0)) || size > THRESHOLD) {
    extras.push(`shape=${pythonTuple(shape)}`);
  }
  extras.push(`dtype=${dtype}`);
  const text = `${PREFIX}${body},`;
  const extra = `${extras.join(", ")})`;
  const lastLine = text.length - (text.lastIndexOf("\n") + 1);
  return text + (lastLine + extra.length + 1 > LINE_WIDTH ? `\n${" ".repeat(PREFIX.length)}` : " ") + extra;
}
