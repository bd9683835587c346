/**
 * `qr` (NumPy's `numpy.linalg.qr`, modes `"reduced"`, `"complete"` and `"r"`): Householder QR of each
 * matrix's column-major copy (`geqrf`), R read from its upper triangle, Q formed from the reflectors
 * (`orgqr`).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import type { GPUArray } from "../core/gpuarray.ts";
import { optionsOf } from "../core/axis_args.ts";
import { assign } from "../ops/assign.ts";
import { diagonal, slice, swapaxes } from "../ops/views.ts";
import { real } from "../ops/complex_parts.ts";
import { matmul } from "../ops/matmul.ts";
import { tril, triu } from "../routines/matrices.ts";
import { concatenate } from "../routines/join.ts";
import { differentiated, type GradOps, tracked } from "../grad/tape.ts";
import { diagEmbed, undefinedGradient } from "./gradient.ts";
import { arrayLike, qrFactor, qrForm } from "./lapack.ts";
import { adjoint, checkArray, columnMajorCopy, type LuDType, luType, matrixShape } from "./operands.ts";
import { named } from "./results.ts";
import { type LuType, rowMajor, solve } from "./solve.ts";

/** What {@link qr} computes: both factors of the reduced or the complete form, or R alone. */
export type QrMode = "reduced" | "complete" | "r";

/**
 * Options of {@link qr}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.linalg.QrOptions = { mode: "complete" };
 * ```
 */
export interface QrOptions {
  /** `"reduced"` (default): Q m × k and R k × n, k = min(m, n); `"complete"`: Q m × m and R m × n; `"r"`: R alone, k × n. */
  readonly mode?: QrMode;
}

/**
 * Q and R (NumPy's `QRResult`): unpack it as `const [q, r] = ga.linalg.qr(a)`, or read `.Q` and `.R`.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const { Q, R }: ga.linalg.QrResult<"float32"> = ga.linalg.qr(ga.ones([4, 3]));
 * ```
 */
export type QrResult<D extends DType> =
  & readonly [Q: GPUArray<LuType<D>>, R: GPUArray<LuType<D>>]
  & {
    /** Orthonormal columns. */
    readonly Q: GPUArray<LuType<D>>;
    /** Upper triangular (trapezoidal where m ≠ n). */
    readonly R: GPUArray<LuType<D>>;
  };

const MODES: readonly QrMode[] = ["reduced", "complete", "r"];

/**
 * The QR factorization `a = Q·R` of a matrix, or of each of a batch (NumPy's `qr`): Q with orthonormal
 * columns, R upper triangular, R's diagonal of either sign (LAPACK's: Householder reflectors). The mode
 * is given by position (`qr(a, "complete")`) or as `{ mode }`; mode `"r"` returns R alone. float32 for
 * float32, complex64 and complex128 as they are (Q unitary, R's diagonal real), else float64.
 *
 * @throws {RangeError} for fewer than 2 dimensions or an unknown mode (NumPy's `"raw"` is not offered).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const a = ga.random.normal([5, 3], { seed: 1 });
 * const [q, r] = ga.linalg.qr(a); // [5, 3] and [3, 3]
 * const full = ga.linalg.qr(a, "complete"); // full.Q: [5, 5], full.R: [5, 3]
 * const rOnly = ga.linalg.qr(a, { mode: "r" }); // [3, 3]
 * ```
 */
export function qr<D extends DType>(
  a: GPUArray<D>,
  mode?: "reduced" | "complete" | { readonly mode?: "reduced" | "complete" },
): QrResult<D>;
/** Mode `"r"`: R alone. */
export function qr<D extends DType>(
  a: GPUArray<D>,
  mode: "r" | { readonly mode: "r" },
): GPUArray<LuType<D>>;
export function qr(a: GPUArray, ...args: unknown[]): unknown {
  checkArray(a, "qr");
  const { mode = "reduced" } = optionsOf<QrOptions>(
    "qr",
    args,
    [{ name: "mode", takes: (v) => typeof v === "string", what: 'the mode ("reduced", "complete" or "r")' }],
    ["mode"],
    '{ mode: "complete" }',
  );
  if (!MODES.includes(mode)) {
    throw new RangeError(`Cannot qr with mode "${mode}": give "reduced", "complete" or "r"`);
  }
  const { m, n } = matrixShape(a, "qr", false);
  if (tracked(a)) return differentiatedQr(a, mode, m, n);
  const k = Math.min(m, n);
  using w = columnMajorCopy(a, luType(a, a.dtype, "qr"));
  using tau = qrFactor(w);
  const rows = mode === "complete" ? m : k;
  using rowsOfR = slice(w, "...", [], [0, rows]);
  using rView = swapaxes(rowsOfR, -1, -2);
  const r = triu(rView);
  if (mode === "r") return r;
  const columns = mode === "complete" ? m : k;
  // Q's column-major buffer: the reflectors in its first k columns (orgqr sets the others).
  using reflectors = slice(w, "...", [0, k], []);
  let q: GPUArray;
  if (columns === n) {
    q = w;
  } else {
    q = arrayLike(w, [...w.shape.slice(0, -2), columns, m], w.dtype);
    using first = slice(q, "...", [0, k], []);
    assign(first, reflectors);
  }
  try {
    qrForm(q as GPUArray<LuDType>, k, tau);
    const Q = rowMajor(q);
    return named([Q, r] as const, { Q, R: r });
  } finally {
    if (q !== w) q.free();
  }
}

/**
 * `qr` of a tracked `a`: both factors, each reported with its rule. Q of the complete form of a tall
 * matrix has columns no gradient determines, so a gradient reaching it is an error (as in PyTorch).
 */
function differentiatedQr(a: GPUArray, mode: QrMode, m: number, n: number): unknown {
  const [q, r] = differentiated("qr", [a], () => qr(a, mode === "r" ? "reduced" : mode), ([q, r]) => {
    if (mode !== "complete" || m <= n) {
      return [[q, (g, c) => [qrBackward(a, q, r, g, undefined, c.ops)]], [r, (g, c) => [
        qrBackward(a, q, r, undefined, g, c.ops),
      ]]];
    }
    const qReduced = slice(q, "...", [], [0, n]), rTop = slice(r, "...", [0, n], []);
    return [
      [
        q,
        undefinedGradient(
          'Cannot differentiate Q of qr(a, "complete") for a matrix with more rows than columns: its last columns are not determined by a; use mode "reduced"',
        ),
      ],
      [r, (g, c) => [qrBackward(a, qReduced, rTop, undefined, slice(g, "...", [0, n], []), c.ops)]],
    ];
  });
  return mode === "r" ? r : named([q, r] as const, { Q: q, R: r });
}

/**
 * The gradient of `a = Q·R` (reduced) from those of Q and R (Liao et al. 2019, as PyTorch's): for
 * m ≥ n, with `M = R·R̄ᴴ - Q̄ᴴ·Q`, `ā = (Q̄ + Q·K)·R⁻ᴴ`, K the Hermitian matrix of M's strict lower
 * triangle and the real part of its diagonal (R's diagonal is real: for real matrices K is
 * `copyltu(M)`); a wide `a = [X | Y]` is `X = Q·R₁` with `Y = Q·R₂`.
 */
function qrBackward(
  a: GPUArray,
  q: GPUArray,
  r: GPUArray,
  gq: GPUArray | undefined,
  gr: GPUArray | undefined,
  ops: GradOps,
): GPUArray {
  const [m, n] = a.shape.slice(-2) as [number, number];
  if (m >= n) return tallBackward(q, r, gq, gr);
  const y = slice(a, "...", [], [m, n]);
  const gr2 = gr && slice(gr, "...", [], [m, n]);
  const gqx = gr2 === undefined
    ? gq
    : gq === undefined
    ? matmul(y, adjoint(gr2))
    : gq.add(matmul(y, adjoint(gr2)));
  const gx = tallBackward(q, slice(r, "...", [], [0, m]), gqx, gr && slice(gr, "...", [], [0, m]));
  const gy = gr2 === undefined ? ops.zeros([...gx.shape.slice(0, -1), n - m], gx.dtype) : matmul(q, gr2);
  return concatenate([gx, gy], -1);
}

function tallBackward(
  q: GPUArray,
  r: GPUArray,
  gq: GPUArray | undefined,
  gr: GPUArray | undefined,
): GPUArray {
  const fromR = gr && matmul(r, adjoint(gr));
  const fromQ = gq && matmul(adjoint(gq), q);
  const mm = fromR === undefined ? fromQ!.neg() : fromQ === undefined ? fromR : fromR.sub(fromQ);
  const below = tril(mm, -1);
  const k = below.add(adjoint(below)).add(diagEmbed(real(diagonal(mm, 0, -2, -1))));
  const b = gq === undefined ? matmul(q, k) : gq.add(matmul(q, k));
  return adjoint(solve(r, adjoint(b), { check: false }));
}
