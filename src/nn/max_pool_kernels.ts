/**
 * Max pooling over non-overlapping windows (stride equal to the kernel, no padding, no dilation: the
 * 2×2 pooling of most networks) as three kernels of its own, in either dialect through its Target, each
 * recording the next as its gradient rule: the forward pass writes each window's maximum and where in
 * the window it was (the first maximum, a NaN winning, as PyTorch's); its gradient puts each output's
 * gradient at that place and zeros elsewhere (every input element is in at most one window); and that
 * scatter's gradient gathers from the same places. The general windows (overlap, padding, dilation,
 * ceil mode) compose array operations in `functional_pool.ts`.
 *
 * @module
 */

import * as ga from "../array/mod.ts";
import { isTracked, record } from "../array/grad/tape.ts";
import type { KernelSource } from "../device/backend.ts";
import { targetOf } from "../codegen/targets.ts";

/** A window geometry: input `[..., H, W]`, windows `KH × KW`, output `[..., OH, OW]`. */
export interface Windows {
  readonly h: number;
  readonly w: number;
  readonly kh: number;
  readonly kw: number;
  readonly oh: number;
  readonly ow: number;
}

const BLOCK = 256;

type Kind = "forward" | "scatter" | "gather";

/**
 * The source of one kernel over `n` elements (outputs for `forward` and `gather`, inputs for
 * `scatter`), a thread an element.
 */
function source(kind: Kind, dialect: ga.BackendName, dtype: ga.DType): KernelSource {
  const t = targetOf(dialect), ids = t.threadIds, idx = t.indexType;
  const name = `cudeno_max_pool_${kind}`;
  const head = `${t.preamble([dtype, "int32"])}
${t.kernelHead} ${name}(${t.pointerParam(dtype, "out")}, ${
    t.pointerParam("int32", "at", kind !== "forward")
  }, ${
    t.pointerParam(dtype, "in", true)
  }, ${idx} out0, ${idx} at0, ${idx} in0, ${idx} n, int H, int W, int OH, int OW, int KH, int KW) {
  const ${idx} i = (${idx})${ids.group} * ${ids.groupSize} + ${ids.local};
  if (i >= n) return;`;
  // The window of output element o: its plane and its top-left input element.
  const window = (o: string) =>
    `const ${idx} plane = ${o} / ((${idx})OH * OW); const int oy = (int)((${o} / OW) % OH), ox = (int)(${o} % OW);
  const ${idx} base = (plane * H + (${idx})oy * KH) * W + (${idx})ox * KW;`;
  const load = (at: string) => t.load(`in[in0 + ${at}]`, dtype);
  const acc = dtype === "float64" ? "double" : "float";
  let body: string;
  if (kind === "forward") {
    body = `${window("i")}
  ${acc} best = 0; int where = -1;
  for (int a = 0; a < KH; a++) {
    for (int b = 0; b < KW; b++) {
      const ${acc} v = ${load(`base + (${idx})a * W + b`)};
      if (where < 0 || v > best || v != v) { best = v; where = a * KW + b; }
    }
  }
  out[out0 + i] = ${t.castTo("best", dtype)};
  at[at0 + i] = where;`;
  } else if (kind === "gather") {
    body = `${window("i")}
  const int where = at[at0 + i];
  out[out0 + i] = in[in0 + base + (${idx})(where / KW) * W + where % KW];`;
  } else {
    body = `const ${idx} plane = i / ((${idx})H * W); const int y = (int)((i / W) % H), x = (int)(i % W);
  const int oy = y / KH, ox = x / KW;
  ${t.cType(dtype)} value = ${t.castTo("0", dtype)};
  if (oy < OH && ox < OW) {
    const ${idx} o = (plane * OH + oy) * OW + ox;
    if (at[at0 + o] == (y - oy * KH) * KW + (x - ox * KW)) value = in[in0 + o];
  }
  out[out0 + i] = value;`;
  }
  return { name, source: `${head}\n  ${body}\n}\n` };
}

function launch(
  kind: Kind,
  out: ga.GPUArray,
  at: ga.GPUArray,
  input: ga.GPUArray,
  g: Windows,
): void {
  const n = out.size;
  if (n === 0) return;
  const b = out.backend;
  b.kernel(`nn:max_pool:${kind}:${out.dtype}`, () => source(kind, b.name, out.dtype)).launch(
    { grid: Math.ceil(n / BLOCK), block: BLOCK },
    [
      out.buffer,
      at.buffer,
      input.buffer,
      out.offset,
      at.offset,
      input.offset,
      n,
      g.h,
      g.w,
      g.oh,
      g.ow,
      g.kh,
      g.kw,
    ],
  );
}

/** `a` in `model`'s dtype (a gradient may come in another float dtype). */
const like = (a: ga.GPUArray, model: ga.GPUArray) => (a.dtype === model.dtype ? a : a.astype(model.dtype));

/** `x` `[N, C, H, W]` (contiguous) pooled over the windows `g`: the maxima, recording their gradient rule. */
export function maxPoolWindows(x: ga.GPUArray, g: Windows): ga.GPUArray {
  const xc = ga.ascontiguousarray(x);
  const shape = [...xc.shape.slice(0, -2), g.oh, g.ow];
  const y = new ga.GPUArray(xc.backend, shape, xc.dtype), at = new ga.GPUArray(xc.backend, shape, "int32");
  launch("forward", y, at, xc, g);
  // Where each maximum was is kept only for a gradient (freeing it here is ordered after the launch).
  if (!isTracked(xc)) at.free();
  else record("maxPool2d", [xc], y, (dy) => [scatter(like(dy, y), at, xc.shape, g)]);
  return y;
}

/** The gradient of the input from the output's gradient `dy`: each at its window's maximum. */
function scatter(dy: ga.GPUArray, at: ga.GPUArray, shape: readonly number[], g: Windows): ga.GPUArray {
  const dyc = ga.ascontiguousarray(dy);
  const dx = new ga.GPUArray(dyc.backend, shape, dyc.dtype);
  launch("scatter", dx, at, dyc, g);
  record("maxPool2d's gradient", [dyc], dx, (h) => [gather(like(h, dx), at, dyc.shape, g)]);
  return dx;
}

/** The values of `h` (input-shaped) at each window's maximum: the scatter's gradient. */
function gather(h: ga.GPUArray, at: ga.GPUArray, shape: readonly number[], g: Windows): ga.GPUArray {
  const hc = ga.ascontiguousarray(h);
  const out = new ga.GPUArray(hc.backend, shape, hc.dtype);
  launch("gather", out, at, hc, g);
  record("maxPool2d's gradient's gradient", [hc], out, (d) => [scatter(like(d, out), at, hc.shape, g)]);
  return out;
}
