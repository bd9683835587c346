/**
 * What the linear-algebra kernels share: one work-group (block) per matrix of a batch, in either
 * dialect through its {@link Target}. A kernel's text names its element type `T`, its index type `IDX`,
 * the math it needs through macros (`SQRT`, `FABS`, ...), its thread as `tid` of `nt` (a power of two
 * up to {@link MAX_GROUP}) and its matrix as `g`; `SYNC` is a barrier over local and global memory and
 * `GLOBAL` qualifies a pointer declared in the body.
 *
 * @module
 */

import type { KernelSource } from "../../device/backend.ts";
import type { Dialect } from "../../kernel/ctypes.ts";
import type { DType } from "../../kernel/dtype.ts";
import { targetOf } from "../../codegen/targets.ts";
import { complexPrefix } from "../../codegen/complex.ts";
import { realOf } from "../core/dtypes.ts";

/** The most threads of a work-group; the size of the kernels' local arrays. */
export const MAX_GROUP = 256;

/** Machine epsilon (the spacing of numbers at 1) of float32 and float64. */
export const EPSILON: Readonly<Record<"float32" | "float64", number>> = {
  float32: 2 ** -23,
  float64: 2 ** -52,
};

/** The math the kernels call, by macro name. */
const MATH = ["sqrt", "fabs", "hypot", "atan2", "cos", "sin", "copysign", "fmax"] as const;

/**
 * The arithmetic the kernels that take complex matrices spell through macros, since C has no operators
 * on `float2`/`double2` (OpenCL's act per part): `MUL`, `DIV`, `SUB`, `ADD` of two elements, `MAG1` (LAPACK's
 * `cabs1`, |re| + |im|, what its pivoting compares; `FABS` for real elements), `MAGINF` (the larger of
 * |re| and |im|), `ABS2` (|z|²), `NONZERO`, `RE` and `IM` (the parts; 0 for a real element's imaginary
 * part), `CONJ`, `FROMREAL` (an element of a real value), `MAKE(re, im)` (the real part alone for real
 * elements), `DIVR` and `RMUL` (an element divided or multiplied by a real), `ABS` (|z|, without
 * overflow), and `R`, the magnitudes' type.
 */
function arithmetic(t: ReturnType<typeof targetOf>, dtype: DType): string[] {
  const real = realOf(dtype);
  if (real === dtype) {
    return [
      `#define R ${t.cType(dtype)}`,
      "#define MUL(a, b) ((a) * (b))",
      "#define DIV(a, b) ((a) / (b))",
      "#define SUB(a, b) ((a) - (b))",
      "#define ADD(a, b) ((a) + (b))",
      "#define MAG1(x) FABS(x)",
      "#define NONZERO(x) ((x) != 0)",
      "#define RE(x) (x)",
      "#define IM(x) ((R)0)",
      "#define CONJ(x) (x)",
      "#define FROMREAL(r) (r)",
      "#define MAKE(re, im) (re)",
      "#define MAGINF(x) FABS(x)",
      "#define ABS2(x) ((x) * (x))",
      "#define DIVR(x, r) ((x) / (r))",
      "#define RMUL(r, x) ((r) * (x))",
      "#define ABS(x) FABS(x)",
    ];
  }
  const p = complexPrefix(dtype);
  return [
    `#define R ${t.cType(real)}`,
    `#define MUL(a, b) ${p}mul(a, b)`,
    `#define DIV(a, b) ${p}div(a, b)`,
    `#define SUB(a, b) ${p}sub(a, b)`,
    `#define ADD(a, b) ${p}add(a, b)`,
    "#define MAG1(z) (FABS((z).x) + FABS((z).y))",
    `#define NONZERO(x) ${p}nz(x)`,
    "#define RE(z) ((z).x)",
    "#define IM(z) ((z).y)",
    `#define CONJ(z) ${p}conj(z)`,
    `#define FROMREAL(r) ${p}make(r, 0)`,
    `#define MAKE(re, im) ${p}make(re, im)`,
    "#define MAGINF(z) FMAX(FABS((z).x), FABS((z).y))",
    "#define ABS2(z) ((z).x * (z).x + (z).y * (z).y)",
    `#define DIVR(z, r) ${p}make((z).x / (r), (z).y / (r))`,
    `#define RMUL(r, z) ${p}make((r) * (z).x, (r) * (z).y)`,
    "#define ABS(z) HYPOT((z).x, (z).y)",
  ];
}

/**
 * The source of kernel `name` of `dtype` in `dialect`: `params` (C declarations, written with
 * {@link pointer}; `IDX` there is spelled out, since launches read the parameters' types from the
 * text), then `body`, which sees the macros above and `tid`, `nt`, `g`.
 */
export function linalgKernel(
  dialect: Dialect,
  dtype: DType,
  name: string,
  params: readonly string[],
  body: string,
): KernelSource {
  const t = targetOf(dialect);
  const ids = t.threadIds;
  const math = MATH.map((fn) => `#define ${fn.toUpperCase()} ${t.mathFn(fn, realOf(dtype))}`);
  const source = `${t.preamble([dtype, "int64"])}
#define T ${t.cType(dtype)}
#define IDX ${t.indexType}
#define SYNC ${t.syncthreads}
#define GLOBAL ${t.globalSpace}
${math.join("\n")}
${arithmetic(t, dtype).join("\n")}
${t.kernelHead} ${name}(${params.join(", ").replaceAll("IDX", t.indexType)}) {
  const int tid = ${ids.local}, nt = ${ids.groupSize};
  const IDX g = ${ids.group};
${body}
}`;
  return { name, source };
}

/**
 * A global pointer parameter of `dtype` in `dialect`, never `restrict`: the threads of a work-group
 * hand each other values through these buffers across barriers, and a `restrict` pointer lets the
 * compiler move its loads across a barrier (NVRTC did: a Cholesky factor read a column before it was
 * scaled).
 */
export function pointer(dialect: Dialect, dtype: DType, name: string, readOnly = false): string {
  const t = targetOf(dialect);
  return t.globalPointer(t.cType(dtype), name, readOnly, false);
}

/** A local (shared) array of `dtype` of {@link MAX_GROUP} elements. */
export function localArray(dialect: Dialect, dtype: DType, name: string, size = MAX_GROUP): string {
  return targetOf(dialect).sharedArray(dtype, name, size);
}

/**
 * Statements that leave the sum (or, with `max`, the largest, NaN where any is NaN) of every
 * thread's `value` in `red[0]`, over the local array `red` of {@link MAX_GROUP} elements; every thread may read it after.
 */
export function reduceInto(value: string, max = false): string {
  // The maximum propagates NaN (FMAX alone would drop it).
  const combine = max
    ? "{ const R o = red[tid + h]; if (o != o || red[tid] < o) red[tid] = o; }"
    : "red[tid] += red[tid + h];";
  return `red[tid] = ${value};
  SYNC
  for (int h = nt / 2; h > 0; h >>= 1) {
    if (tid < h) ${combine}
    SYNC
  }`;
}

/**
 * Statements of LAPACK's `larfg` on column `col` of `AT` from row `head` (its `alpha`) down to row
 * `end - 1`: `beta` (an element of real value; `alpha` where nothing reflects) and `tau` in every
 * thread, the rows below `head` scaled into the reflector's tail (its head is 1), then a barrier. The
 * caller stores `beta` at `AT(head, col)`. Uses the local `red`; no barrier stands in a branch.
 */
export function reflectorText(col: string, head: string, end: string): string {
  return `R big = 0;
    for (int i = ${head} + 1 + tid; i < ${end}; i += nt) big = FMAX(big, MAGINF(AT(i, ${col})));
    ${reduceInto("big", true)}
    const R scale = red[0];
    SYNC
    R sum = 0;
    if (scale > 0) {
      for (int i = ${head} + 1 + tid; i < ${end}; i += nt) { const T x = DIVR(AT(i, ${col}), scale); sum += ABS2(x); }
    }
    ${reduceInto("sum")}
    const R xnorm = scale * SQRT(red[0]);
    const T alpha = AT(${head}, ${col});
    const R alphr = RE(alpha), alphi = IM(alpha);
    // A real beta, tau = (beta - alpha) / beta, the rest of the column over alpha - beta.
    const int reflect = xnorm != 0 || alphi != 0;
    const R b = reflect ? -COPYSIGN(HYPOT(HYPOT(alphr, alphi), xnorm), alphr) : 0;
    const T beta = reflect ? FROMREAL(b) : alpha;
    const T tau = reflect ? MAKE((b - alphr) / b, -alphi / b) : FROMREAL(0);
    if (reflect) {
      const T f = DIV(FROMREAL(1), SUB(alpha, beta));
      for (int i = ${head} + 1 + tid; i < ${end}; i += nt) AT(i, ${col}) = MUL(AT(i, ${col}), f);
    }
    SYNC`;
}

/** The work-group size for matrices of order `n`: a power of two from 32 to {@link MAX_GROUP}. */
export function groupSize(n: number): number {
  let size = 32;
  while (size < n && size < MAX_GROUP) size *= 2;
  return size;
}
