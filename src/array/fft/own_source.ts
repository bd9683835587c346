/**
 * The text of the FFT kernels of the array module's own, in either dialect through its {@link Target}:
 * a Stockham autosort pass of each radix (2, 3, 4, 5, 7, 8, and 1 for a length-1 copy) and the three
 * elementwise steps of Bluestein's algorithm (multiplying in the chirp, making the chirp's filter,
 * multiplying by the filter's spectrum, multiplying the chirp out). A transform's first step reads its
 * input in one of the {@link LoadMode}s and its last writes in one of the {@link StoreMode}s, so real
 * input, Hermitian input and half spectra need no kernel of their own.
 *
 * Every kernel is one thread per output element (or per group of `R` of a pass), over a batch of
 * transforms laid out as `FftLayout`s: element `k` of transform `b` at `offset + b * dist + k * stride`.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { Target } from "../../codegen/target.ts";
import { complexPrefix } from "../../codegen/complex.ts";
import { targetOf } from "../../codegen/targets.ts";
import type { ComplexDType } from "../core/dtypes.ts";

/**
 * How a transform's first step reads element `k` of its input: complex values; real values (the
 * imaginary parts 0); or the first `n / 2 + 1` values of a Hermitian sequence, element `k > n / 2`
 * being the conjugate of element `n - k`.
 */
export type LoadMode = "complex" | "real" | "hermitian";

/**
 * How a transform's last step writes element `k` of its output: complex values; their real parts;
 * or the first `n / 2 + 1` complex values only.
 */
export type StoreMode = "complex" | "real" | "half";

/** Threads per block (work-items per work-group) of every FFT kernel. */
export const FFT_BLOCK = 256;

/** The spellings a kernel's text is written with. */
interface Words {
  readonly t: Target;
  /** The complex type: `float2`, `double2`. */
  readonly C: string;
  /** The real type: `float`, `double`. */
  readonly R: string;
  /** The 64-bit index type. */
  readonly I: string;
  /** The complex library's prefix: `cdn_c64_`. */
  readonly p: string;
  /** The real dtype of the parts. */
  readonly real: "float32" | "float64";
  readonly dtype: ComplexDType;
}

function wordsOf(dialect: Dialect, dtype: ComplexDType): Words {
  const t = targetOf(dialect), real = dtype === "complex64" ? "float32" : "float64";
  return { t, C: t.cType(dtype), R: t.cType(real), I: t.indexType, p: complexPrefix(dtype), real, dtype };
}

/**
 * The preamble (the complex library), then `cdn_fft_root(m, q, sgn)`: `e^(sgn·2πi·m/q)` for
 * `0 <= m < q`, its angle reduced to `π·x` with `x` in `(-1, 1]` and taken by `sinpi`/`cospi`, so
 * float32 roots are as accurate as float32 can hold whatever `q` is; and `cdn_fft_chirp(j, n, sgn)`:
 * `e^(sgn·πi·j²/n)`, with `j²` reduced modulo `2n` in 64-bit integers first.
 */
function head(w: Words): string {
  const { t, C, R, I } = w;
  return `${t.preamble([w.dtype, w.real, "int64"])}
${t.inline} ${C} cdn_fft_root(${I} m, ${I} q, ${R} sgn) {
  ${I} twice = 2 * m;
  if (twice > q) twice -= 2 * q;
  const ${R} x = (${R})twice / (${R})q;
  ${t.sinCosPi(w.real, "x")}
  return ${t.complexValue("cs", "sgn * sn", w.dtype)};
}
${t.inline} ${C} cdn_fft_chirp(${I} j, ${I} n, ${R} sgn) {
  return cdn_fft_root((j * j) % (2 * n), 2 * n, sgn);
}`;
}

/** The C parameters of a layout named `name`: the pointer (of the real type where `real`) and its offset, stride and dist. */
function layoutParams(w: Words, name: string, real: boolean, readOnly: boolean): string[] {
  const { t, I } = w;
  return [
    t.pointerParam(real ? w.real : w.dtype, name, readOnly),
    `${I} ${name}Offset, ${I} ${name}Stride, ${I} ${name}Dist`,
  ];
}

/**
 * The expression of element `k` (an `int` expression) of the transform whose first element is
 * `src[base]`, read in `mode`; `n` is the transform's length.
 */
function load(w: Words, mode: LoadMode, k: string): string {
  const at = (i: string) => `src[base + (${w.I})(${i}) * srcStride]`;
  if (mode === "complex") return at(k);
  if (mode === "real") return w.t.complexValue(at(k), w.t.literal(0, w.real), w.dtype);
  return `((${k}) <= n / 2 ? ${at(k)} : ${w.p}conj(${at(`n - (${k})`)}))`;
}

/** The statement that writes `value` as element `k` of the transform whose first element is `dst[out]`, in `mode`. */
function store(w: Words, mode: StoreMode, k: string, value: string): string {
  const at = `dst[out + (${w.I})(${k}) * dstStride]`;
  if (mode === "complex") return `${at} = ${value};`;
  if (mode === "real") return `${at} = (${value}).x;`;
  return `if ((${k}) <= n / 2) ${at} = ${value};`;
}

/** The kernel source of `name` with `params` and `body`, after the shared {@link head}; `g` is the thread's index. */
function kernel(w: Words, name: string, params: readonly string[], body: string): KernelSource {
  const ids = w.t.threadIds;
  const source = `${head(w)}
${w.t.kernelHead} ${name}(${params.join(", ")}) {
  const ${w.I} g = (${w.I})${ids.group} * ${ids.groupSize} + ${ids.local};
  if (g >= total) return;
${body}
}`;
  return { name, source };
}

/** `[cos, sin]` of `2πb/r` for `0 <= b <= r/4`, through `cos(π/2 - x) = sin(x)` past `r/8`. */
function firstQuadrant(b: number, r: number): [number, number] {
  if (8 * b > r) {
    const [c, s] = firstQuadrant(r / 4 - b, r);
    return [s, c];
  }
  return [Math.cos((2 * Math.PI * b) / r), Math.sin((2 * Math.PI * b) / r)];
}

/**
 * `[cos, sin]` of `2πq/r`, reduced to the first octant so that values equal by symmetry are equal bit
 * for bit (`cos(3π/4)` is `-cos(π/4)`, which is `sin(π/4)`) and the multiples of `π/2` exactly 0 and ±1.
 */
function rootOf(q: number, r: number): [number, number] {
  const a = q % r;
  if (2 * a > r) {
    const [c, s] = rootOf(r - a, r);
    return [c, -s];
  }
  if (4 * a > r) {
    const [c, s] = firstQuadrant(r / 2 - a, r);
    return [-c, s];
  }
  return firstQuadrant(a, r);
}

/**
 * `Σ coefficient · name.part` over the terms whose coefficient is not 0, as C (0 where none is left),
 * the terms of equal magnitude summed before their one multiplication, so that they cancel exactly
 * where they should (`c·a1 - c·a3` is `c·(a1 - a3)`).
 */
function sum(w: Words, terms: readonly (readonly [number, string])[], part: "x" | "y"): string {
  const groups = new Map<number, string>();
  for (const [c, name] of terms) {
    if (c === 0) continue;
    const before = groups.get(Math.abs(c)), term = `${name}.${part}`;
    groups.set(
      Math.abs(c),
      before === undefined ? (c < 0 ? `-${term}` : term) : `${before} ${c < 0 ? "-" : "+"} ${term}`,
    );
  }
  const parts = [...groups].map(([m, text]) => (m === 1 ? text : `${w.t.literal(m, w.real)} * (${text})`));
  return parts.length === 0 ? w.t.literal(0, w.real) : parts.join(" + ");
}

/**
 * Statements that declare `y0 … y{r-1}`, the `r`-point DFT of `x0 … x{r-1}` with sign `sgn`, from the
 * sums and differences of opposite inputs: `Y[m] = U + sgn·i·V` and `Y[r-m] = U - sgn·i·V` with
 * `U = x0 + Σ cos(2πjm/r)·(x[j] + x[r-j])` and `V = Σ sin(2πjm/r)·(x[j] - x[r-j])`, the cosines and
 * sines written as constants (0 and ±1 folded away).
 */
function butterfly(w: Words, r: number): string {
  const { C, R } = w, mk = (re: string, im: string) => w.t.complexValue(re, im, w.dtype);
  if (r === 1) return `  const ${C} y0 = x0;`;
  const half = Math.floor((r - 1) / 2), even = r % 2 === 0;
  const lines: string[] = [];
  for (let j = 1; j <= half; j++) {
    lines.push(`  const ${C} a${j} = ${w.p}add(x${j}, x${r - j}), d${j} = ${w.p}sub(x${j}, x${r - j});`);
  }
  const pairs = (coefficient: (j: number) => number, name: string) =>
    Array.from({ length: half }, (_, i) => [coefficient(i + 1), `${name}${i + 1}`] as const);
  const middle = (sign: number) => (even ? [[sign, `x${r / 2}`] as const] : []);
  const u = (
    m: number,
  ) => [[1, "x0"] as const, ...pairs((j) => rootOf(j * m, r)[0], "a"), ...middle((-1) ** m)];
  const y0 = u(0);
  lines.push(`  const ${C} y0 = ${mk(sum(w, y0, "x"), sum(w, y0, "y"))};`);
  for (let m = 1; m <= half; m++) {
    const um = u(m), vm = pairs((j) => rootOf(j * m, r)[1], "d");
    lines.push(
      `  const ${R} u${m}x = ${sum(w, um, "x")}, u${m}y = ${sum(w, um, "y")};`,
      `  const ${R} v${m}x = ${sum(w, vm, "x")}, v${m}y = ${sum(w, vm, "y")};`,
      `  const ${C} y${m} = ${mk(`u${m}x - sgn * v${m}y`, `u${m}y + sgn * v${m}x`)};`,
      `  const ${C} y${r - m} = ${mk(`u${m}x + sgn * v${m}y`, `u${m}y - sgn * v${m}x`)};`,
    );
  }
  if (even) {
    const ym = u(r / 2);
    lines.push(`  const ${C} y${r / 2} = ${mk(sum(w, ym, "x"), sum(w, ym, "y"))};`);
  }
  return lines.join("\n");
}

/**
 * One Stockham autosort pass of radix `r` over a batch of transforms of length `n`, `p` being the
 * product of the radices of the passes before: thread `i` of a transform (of `n / r`) reads elements
 * `i + j·n/r`, turns them by the twiddles `e^(sgn·2πi·j·(i mod p)/(p·r))`, takes their `r`-point DFT
 * and writes it to elements `(i - i mod p)·r + i mod p + m·p`. Parameters:
 * `(src, srcOffset, srcStride, srcDist, dst, dstOffset, dstStride, dstDist, n, p, total, sgn)`, `total`
 * being the threads of the batch (`batch · n / r`).
 */
export function passSource(
  dialect: Dialect,
  dtype: ComplexDType,
  r: number,
  loadMode: LoadMode,
  storeMode: StoreMode,
): KernelSource {
  const w = wordsOf(dialect, dtype), { C, I, R } = w;
  const params = [
    ...layoutParams(w, "src", loadMode === "real", true),
    ...layoutParams(w, "dst", storeMode === "real", false),
    `int n, int p, ${I} total, ${R} sgn`,
  ];
  const js = Array.from({ length: r }, (_, j) => j);
  const body = `  const int t = n / ${r};
  const ${I} b = g / t;
  const int i = (int)(g - b * t), k = i % p;
  const ${I} base = srcOffset + b * srcDist, out = dstOffset + b * dstDist;
${js.map((j) => `  ${j === 0 ? "const " : ""}${C} x${j} = ${load(w, loadMode, `i + ${j} * t`)};`).join("\n")}
  if (p > 1) {
${
    js.slice(1).map((j) => `    x${j} = ${w.p}mul(x${j}, cdn_fft_root((${I})${j} * k, (${I})p * ${r}, sgn));`)
      .join("\n")
  }
  }
${butterfly(w, r)}
  const int o = (i - k) * ${r} + k;
${js.map((m) => `  ${store(w, storeMode, `o + ${m} * p`, `y${m}`)}`).join("\n")}`;
  return kernel(w, `cdn_fft_pass${r}`, params, body);
}

/**
 * Bluestein's first step: element `j` of each of a batch of transforms of length `n`, read in `mode`
 * and multiplied by the chirp `e^(sgn·πi·j²/n)`, as element `j` of a transform of length `m` (the
 * convolution's, contiguous), zero for `j >= n`. Parameters:
 * `(src, srcOffset, srcStride, srcDist, dst, n, m, total, sgn)`, `total` being `batch · m`.
 */
export function chirpInSource(dialect: Dialect, dtype: ComplexDType, loadMode: LoadMode): KernelSource {
  const w = wordsOf(dialect, dtype), { I, R } = w;
  const params = [
    ...layoutParams(w, "src", loadMode === "real", true),
    w.t.pointerParam(dtype, "dst"),
    `int n, int m, ${I} total, ${R} sgn`,
  ];
  const body = `  const ${I} b = g / m;
  const int j = (int)(g - b * m);
  const ${I} base = srcOffset + b * srcDist;
  dst[g] = j < n ? ${w.p}mul(${load(w, loadMode, "j")}, cdn_fft_chirp(j, n, sgn)) : ${
    w.t.literal(0, dtype)
  };`;
  return kernel(w, "cdn_fft_chirp_in", params, body);
}

/**
 * The filter Bluestein convolves with: the conjugate chirp `e^(-sgn·πi·j²/n)` at `j` and at `m - j`
 * for `j < n`, zero between. Parameters: `(dst, n, m, total, sgn)`, `total` being `m`.
 */
export function chirpFilterSource(dialect: Dialect, dtype: ComplexDType): KernelSource {
  const w = wordsOf(dialect, dtype), { I, R } = w;
  const params = [w.t.pointerParam(dtype, "dst"), `int n, int m, ${I} total, ${R} sgn`];
  const body = `  const int j = (int)g;
  dst[g] = j < n ? cdn_fft_chirp(j, n, -sgn) : j > m - n ? cdn_fft_chirp(m - j, n, -sgn) : ${
    w.t.literal(0, dtype)
  };`;
  return kernel(w, "cdn_fft_chirp_filter", params, body);
}

/**
 * Multiplies each of a batch of contiguous transforms of length `m` by the filter's spectrum, in
 * place. Parameters: `(x, filter, m, total)`, `total` being `batch · m`.
 */
export function pointwiseSource(dialect: Dialect, dtype: ComplexDType): KernelSource {
  const w = wordsOf(dialect, dtype), { I } = w;
  const params = [w.t.pointerParam(dtype, "x"), w.t.pointerParam(dtype, "filter", true), `int m, ${I} total`];
  const body = `  x[g] = ${w.p}mul(x[g], filter[g % m]);`;
  return kernel(w, "cdn_fft_pointwise", params, body);
}

/**
 * Bluestein's last step: element `k < n` of each transform is the chirp times element `k` of the
 * (unnormalised) inverse transform of length `m`, divided by `m`, written in `mode`. Parameters:
 * `(src, dst, dstOffset, dstStride, dstDist, n, m, total, sgn)`, `total` being `batch · n`.
 */
export function chirpOutSource(dialect: Dialect, dtype: ComplexDType, storeMode: StoreMode): KernelSource {
  const w = wordsOf(dialect, dtype), { I, R } = w;
  const params = [
    w.t.pointerParam(dtype, "src", true),
    ...layoutParams(w, "dst", storeMode === "real", false),
    `int n, int m, ${I} total, ${R} sgn`,
  ];
  const body = `  const ${I} b = g / n;
  const int k = (int)(g - b * n);
  const ${I} out = dstOffset + b * dstDist;
  const ${w.C} c = ${w.p}mul(src[b * m + k], cdn_fft_chirp(k, n, sgn));
  const ${R} scale = ${w.t.literal(1, w.real)} / (${R})m;
  ${store(w, storeMode, "k", w.t.complexValue("c.x * scale", "c.y * scale", dtype))}`;
  return kernel(w, "cdn_fft_chirp_out", params, body);
}
