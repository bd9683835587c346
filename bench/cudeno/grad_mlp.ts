/**
 * The MLP of the `grad.mlp.4096` figure (bench/cudeno/grad.ts): a 784-1024-1024-10 network with ReLU
 * and a cross-entropy loss written in array operations, its random parameters, inputs and one-hot
 * targets, and the check of its loss and gradients against a float64 forward pass on the host.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";

/** The six parameters: weights `[in, out]` and biases `[out]` of the three layers. */
export interface MlpParams {
  readonly w1: ga.GPUArray;
  readonly b1: ga.GPUArray;
  readonly w2: ga.GPUArray;
  readonly b2: ga.GPUArray;
  readonly w3: ga.GPUArray;
  readonly b3: ga.GPUArray;
}

/** The loss of parameters on inputs `[batch, 784]` and one-hot targets `[batch, 10]`: a 0-d array. */
export type MlpLoss = (p: MlpParams, x: ga.GPUArray, t: ga.GPUArray) => ga.GPUArray;

const WIDTHS = [784, 1024, 1024, 10] as const;
/** Rows of the batch that the host's float64 forward pass checks. */
const CHECK_ROWS = 64;

/** `-mean(sum(t * logSoftmax(z, 1), 1))` of the logits `z` of a ReLU MLP. */
const loss: MlpLoss = (p, x, t) => {
  const h1 = ga.maximum(ga.matmul(x, p.w1).add(p.b1), 0);
  const h2 = ga.maximum(ga.matmul(h1, p.w2).add(p.b2), 0);
  const z = ga.matmul(h2, p.w3).add(p.b3);
  return ga.negative(ga.mean(ga.sum(t.mul(ga.logSoftmax(z, 1)), 1), 0));
};

/** Random parameters (He-scaled weights), normal inputs and one-hot targets of random classes, fixed seeds. */
export function mlpProblem(
  batch: number,
): { params: MlpParams; x: ga.GPUArray; targets: ga.GPUArray; loss: MlpLoss } {
  const weight = (layer: number) =>
    ga.random.normal([WIDTHS[layer]!, WIDTHS[layer + 1]!], {
      seed: 41 + 2 * layer,
      std: Math.sqrt(2 / WIDTHS[layer]!),
    });
  const bias = (layer: number) => ga.random.normal([WIDTHS[layer + 1]!], { seed: 42 + 2 * layer, std: 0.1 });
  const params = { w1: weight(0), b1: bias(0), w2: weight(1), b2: bias(1), w3: weight(2), b3: bias(2) };
  const x = ga.random.normal([batch, WIDTHS[0]], { seed: 47 });
  const classes = WIDTHS[3];
  const onehot = new Float32Array(batch * classes);
  let s = 48;
  for (let r = 0; r < batch; r++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    onehot[r * classes + (s % classes)] = 1;
  }
  return { params, x, targets: ga.asarray(onehot).reshape([batch, classes]), loss };
}

type HostParams = Record<keyof MlpParams, Float64Array>;

/** `a [rows, k] @ w [k, n] + b`, through ReLU when `relu`, in float64. */
function dense(a: Float64Array, rows: number, w: Float64Array, b: Float64Array, relu: boolean): Float64Array {
  const n = b.length, k = w.length / n;
  const out = new Float64Array(rows * n);
  for (let r = 0; r < rows; r++) {
    const o = r * n;
    out.set(b, o);
    for (let i = 0; i < k; i++) {
      const v = a[r * k + i]!;
      const wo = i * n;
      for (let j = 0; j < n; j++) out[o + j]! += v * w[wo + j]!;
    }
    if (relu) { for (let j = 0; j < n; j++) out[o + j] = Math.max(out[o + j]!, 0); }
  }
  return out;
}

/** The loss of `rows` rows in float64 on the host, the same formula as {@link loss}. */
function hostLoss(p: HostParams, x: Float64Array, t: Float64Array, rows: number): number {
  const z = dense(dense(dense(x, rows, p.w1, p.b1, true), rows, p.w2, p.b2, true), rows, p.w3, p.b3, false);
  const n = p.b3.length;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    let max = -Infinity, sum = 0;
    for (let j = 0; j < n; j++) max = Math.max(max, z[r * n + j]!);
    for (let j = 0; j < n; j++) sum += Math.exp(z[r * n + j]! - max);
    const lse = max + Math.log(sum);
    for (let j = 0; j < n; j++) total += t[r * n + j]! * (z[r * n + j]! - lse);
  }
  return -total / rows;
}

/**
 * Checks `lossOf`'s value and gradients on the first rows of the batch against the host: the value
 * against a float64 forward pass, and the largest gradient element of `w1` (in one input's row) and of
 * `w3` against central differences of that float64 forward.
 */
export function checkMlp(
  params: MlpParams,
  x: ga.GPUArray,
  targets: ga.GPUArray,
  lossOf: MlpLoss,
  fail: (what: string) => never,
): void {
  const rows = CHECK_ROWS, [inputs, , , classes] = WIDTHS;
  const hx = x.get().subarray(0, rows * inputs) as Float32Array;
  const ht = targets.get().subarray(0, rows * classes) as Float32Array;
  const xs = ga.asarray(hx).reshape([rows, inputs]), ts = ga.asarray(ht).reshape([rows, classes]);
  const [value, grads] = ga.valueAndGrad(lossOf)(params, xs, ts);
  const host = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, Float64Array.from(v.get() as Float32Array)]),
  ) as HostParams;
  const [x64, t64] = [Float64Array.from(hx), Float64Array.from(ht)];
  const want = hostLoss(host, x64, t64, rows);
  const got = Number(value);
  if (!(Math.abs(got - want) <= 1e-5 * Math.abs(want))) fail(`grad.mlp: the loss is ${got}, want ${want}`);

  const check = (name: "w1" | "w3", from: number, to: number, tolerance: number) => {
    const g = grads[name].get() as Float32Array;
    let at = from;
    for (let i = from; i < to; i++) if (Math.abs(g[i]!) > Math.abs(g[at]!)) at = i;
    const w = host[name], keep = w[at]!, h = 1e-5;
    w[at] = keep + h;
    const up = hostLoss(host, x64, t64, rows);
    w[at] = keep - h;
    const down = hostLoss(host, x64, t64, rows);
    w[at] = keep;
    const fd = (up - down) / (2 * h);
    if (!(Math.abs(g[at]! - fd) <= tolerance * Math.abs(fd))) {
      fail(`grad.mlp: d loss / d ${name}[${at}] is ${g[at]}, the central difference ${fd}`);
    }
  };
  const hidden = WIDTHS[1];
  // A pre-activation within float32's rounding of 0 can take the other side of the ReLU than in float64
  // (about one in 10^6 does), moving w1's gradients by up to about 1e-3; w3's see only the ReLU's output
  // there, which is near 0 either way.
  check("w1", 300 * hidden, 301 * hidden, 1e-2);
  check("w3", 0, host.w3.length, 1e-4);
  value.free();
  for (const g of Object.values(grads)) g.free();
  xs.free();
  ts.free();
}
