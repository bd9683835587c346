import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, Host, randomPair, rng, values, weightedSum } from "./_host.ts";

/** Standardises groups of `size` consecutive elements of `data` (biased variance). */
function standardizeHost(data: Float64Array, size: number, eps: number, rms = false): Float64Array {
  const out = new Float64Array(data.length);
  for (let g = 0; g < data.length; g += size) {
    const part = data.subarray(g, g + size);
    const mean = rms ? 0 : part.reduce((a, b) => a + b, 0) / size;
    const variance = part.reduce((a, b) => a + (b - mean) ** 2, 0) / size;
    part.forEach((v, i) => (out[g + i] = (v - mean) / Math.sqrt(variance + eps)));
  }
  return out;
}

eachBackend("layerNorm(), rmsNorm() and groupNorm() match the float64 host references", () => {
  const random = rng(11);
  const [x, hx] = randomPair([2, 3, 4], random, -2, 2);
  const [w, hw] = randomPair([3, 4], random);
  const [b, hb] = randomPair([3, 4], random);
  const ln = standardizeHost(hx.data, 12, 1e-5).map((v, i) => v * hw.data[i % 12]! + hb.data[i % 12]!);
  assertClose(
    nn.layerNorm(x, [3, 4], { weight: w, bias: b }),
    new Host([2, 3, 4], ln),
    1e-13,
    "layerNorm over [3, 4]",
  );
  assertClose(
    nn.layerNorm(x, 4, { eps: 0.1 }),
    new Host([2, 3, 4], standardizeHost(hx.data, 4, 0.1)),
    1e-13,
    "layerNorm over 4",
  );
  const [v, hv] = randomPair([4], random);
  const rms = standardizeHost(hx.data, 4, 1e-6, true).map((y, i) => y * hv.data[i % 4]!);
  assertClose(nn.rmsNorm(x, 4, { weight: v, eps: 1e-6 }), new Host([2, 3, 4], rms), 1e-13, "rmsNorm");
  assertClose(
    nn.rmsNorm(x, [4]),
    new Host([2, 3, 4], standardizeHost(hx.data, 4, 2 ** -52, true)),
    1e-13,
    "rmsNorm, default eps",
  );
  // groupNorm of [2, 6, 2, 2] in 3 groups: 2 channels × 4 positions = 8 consecutive elements per group.
  const [g, hg] = randomPair([2, 6, 2, 2], random, -2, 2);
  const [cw, hcw] = randomPair([6], random), [cb, hcb] = randomPair([6], random);
  const gn = standardizeHost(hg.data, 8, 1e-5).map((y, i) => {
    const c = Math.floor(i / 4) % 6;
    return y * hcw.data[c]! + hcb.data[c]!;
  });
  assertClose(nn.groupNorm(g, 3, { weight: cw, bias: cb }), new Host([2, 6, 2, 2], gn), 1e-13, "groupNorm");
});

eachBackend("gradients of layerNorm(), rmsNorm() and groupNorm() match central finite differences", () => {
  const random = rng(12);
  const [x] = randomPair([3, 2, 4], random, -2, 2);
  const [w] = randomPair([2, 4], random), [b] = randomPair([2, 4], random);
  const [r] = randomPair([3, 2, 4], random);
  checkGrad(
    (x, w, b) => weightedSum(nn.layerNorm(x, [2, 4], { weight: w, bias: b }), r),
    [x, w, b],
    [0, 1, 2],
    random,
    "layerNorm",
  );
  const [v] = randomPair([4], random);
  checkGrad(
    (x, v) => weightedSum(nn.rmsNorm(x, 4, { weight: v, eps: 1e-3 }), r),
    [x, v],
    [0, 1],
    random,
    "rmsNorm",
  );
  const [cw] = randomPair([2], random), [cb] = randomPair([2], random);
  checkGrad(
    (x, w, b) => weightedSum(nn.groupNorm(x, 2, { weight: w, bias: b }), r),
    [x, cw, cb],
    [0, 1, 2],
    random,
    "groupNorm",
  );
});

/** Host batch norm of [N, C, ...] data with per-channel mean and variance. */
function batchNormHost(
  x: Host,
  mean: number[],
  variance: number[],
  eps: number,
  w: number[],
  b: number[],
): Host {
  const c = x.shape[1]!, inner = x.data.length / x.shape[0]! / c;
  return new Host(
    x.shape,
    x.data.map((v, i) => {
      const k = Math.floor(i / inner) % c;
      return ((v - mean[k]!) / Math.sqrt(variance[k]! + eps)) * w[k]! + b[k]!;
    }),
  );
}

/** Per-channel mean and biased variance of [N, C, ...] host data. */
function channelStats(x: Host): { mean: number[]; variance: number[]; count: number } {
  const c = x.shape[1]!, inner = x.data.length / x.shape[0]! / c, count = x.data.length / c;
  const sums = Array(c).fill(0), squares = Array(c).fill(0);
  x.data.forEach((v, i) => (sums[Math.floor(i / inner) % c] += v));
  const mean = sums.map((s) => s / count);
  x.data.forEach((v, i) => {
    const k = Math.floor(i / inner) % c;
    squares[k] += (v - mean[k]) ** 2;
  });
  return { mean, variance: squares.map((s) => s / count), count };
}

eachBackend(
  "batchNorm() in training uses the batch's statistics and moves the running ones by momentum, inside ga.grad too",
  () => {
    const random = rng(13);
    const [x, hx] = randomPair([4, 3, 2, 2], random, -2, 2);
    const [w, hw] = randomPair([3], random), [b, hb] = randomPair([3], random);
    const { mean, variance, count } = channelStats(hx);
    const rm = ga.asarray([0.5, -0.5, 0], "float64"), rv = ga.asarray([1, 2, 3], "float64");
    const y = nn.batchNorm(x, rm, rv, { weight: w, bias: b, training: true, momentum: 0.2 });
    assertClose(y, batchNormHost(hx, mean, variance, 1e-5, values(w), values(b)), 1e-13, "training output");
    const wantMean = [0.5, -0.5, 0].map((r, k) => 0.8 * r + 0.2 * mean[k]!);
    const wantVar = [1, 2, 3].map((r, k) => 0.8 * r + 0.2 * variance[k]! * count / (count - 1));
    assertClose(rm, wantMean, 1e-14, "running mean");
    assertClose(rv, wantVar, 1e-14, "running variance (unbiased)");
    // Evaluation uses the running statistics.
    const z = nn.batchNorm(x, rm, rv, { weight: w, bias: b, eps: 1e-3 });
    assertClose(
      z,
      batchNormHost(hx, wantMean, wantVar, 1e-3, Array.from(hw.data), Array.from(hb.data)),
      1e-13,
      "evaluation",
    );
    // Inside ga.grad: the gradient flows through the batch statistics, and the running ones move once per call.
    const [r] = randomPair([4, 3, 2, 2], random);
    const m2 = ga.zeros([3], "float64"), v2 = ga.ones([3], "float64");
    const loss = (x: ga.GPUArray, w: ga.GPUArray, b: ga.GPUArray) =>
      weightedSum(nn.batchNorm(x, m2, v2, { weight: w, bias: b, training: true }), r);
    checkGrad(loss, [x, w, b], [0, 1, 2], random, "batchNorm in training");
    // checkGrad ran the function 1 (grad) + 6 (differences) times; the shifted inputs move the mean
    // little, so the running mean is near mean·(1 - 0.9⁷).
    values(m2).forEach((v, k) =>
      assert.ok(Math.abs(v - mean[k]! * (1 - 0.9 ** 7)) < 1e-4, `running mean ${k}: ${v}`)
    );
    const e = ga.grad((x: ga.GPUArray) => weightedSum(nn.batchNorm(x, rm, rv), r))(x);
    assertClose(
      e,
      new Host(
        x.shape,
        Float64Array.from(values(r), (v, i) => v / Math.sqrt(wantVar[Math.floor(i / 4) % 3]! + 1e-5)),
      ),
      1e-13,
      "evaluation gradient",
    );
  },
);

eachBackend("batchNorm() refuses running statistics that are differentiated, and names wrong shapes", () => {
  const x = ga.random.normal([4, 3, 2], { seed: 1, dtype: "float64" });
  const rm = ga.zeros([3], "float64"), rv = ga.ones([3], "float64");
  assert.throws(
    () => ga.grad((m: ga.GPUArray) => ga.sum(nn.batchNorm(x, m, rv, { training: true }), [0, 1, 2]))(rm),
    /runningMean is being differentiated, but it is updated in place/,
  );
  assert.throws(
    () => nn.batchNorm(x, ga.zeros([4]), rv),
    /runningMean has shape \[4\]; it must have shape \[3\]/,
  );
  assert.throws(() => nn.batchNorm(x, null, null), /in evaluation without runningMean and runningVar/);
  assert.throws(
    () => nn.batchNorm(ga.zeros([1, 3]), null, null, { training: true }),
    /needs more than one value per channel/,
  );
  assert.throws(
    () => nn.layerNorm(x, [3]),
    /input of shape \[4, 3, 2\] over normalizedShape \[3\]: the input's last 1 extent\(s\) must be \[3\]/,
  );
  assert.throws(
    () => nn.layerNorm(x, 2, { weight: ga.ones([3]) }),
    /weight has shape \[3\]; it must have shape \[2\]/,
  );
  assert.throws(() => nn.groupNorm(x, 2), /input of 3 channels \(shape \[4, 3, 2\]\) into numGroups 2/);
});
