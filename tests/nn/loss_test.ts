import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, Host, randomPair, rng } from "./_host.ts";

type Reduction = "mean" | "sum" | "none";

/** The rows of an [N, C, D] host input: one list of C scores per position (n, d). */
function rows(x: Host): number[][] {
  const [n, c, d] = [x.shape[0]!, x.shape[1]!, x.shape[2] ?? 1];
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < d; k++) out.push(Array.from({ length: c }, (_, j) => x.data[(i * c + j) * d + k]!));
  }
  return out;
}

const logSoftmax = (z: number[]) => {
  const m = Math.max(...z), s = Math.log(z.reduce((a, v) => a + Math.exp(v - m), 0));
  return z.map((v) => v - m - s);
};

/** PyTorch's cross_entropy (logp = logSoftmax) or nll_loss (logp given), in float64 on the host. */
function classLossHost(
  logps: number[][],
  targets: number[],
  o: { weight?: number[]; ignoreIndex?: number; labelSmoothing?: number; reduction?: Reduction },
): number[] {
  const c = logps[0]!.length, w = o.weight ?? Array(c).fill(1), ignore = o.ignoreIndex ?? -100;
  const eps = o.labelSmoothing ?? 0;
  const nll = logps.map((lp, p) => (targets[p] === ignore ? 0 : -w[targets[p]!]! * lp[targets[p]!]!));
  const smooth = logps.map((
    lp,
    p,
  ) => (targets[p] === ignore ? 0 : -lp.reduce((s, v, j) => s + w[j]! * v, 0)));
  const denom = targets.reduce((s, t) => s + (t === ignore ? 0 : w[t]!), 0);
  const r = o.reduction ?? "mean";
  const red = (v: number[]) =>
    r === "none" ? v : r === "sum" ? [v.reduce((a, b) => a + b, 0)] : [v.reduce((a, b) => a + b, 0) / denom];
  const a = red(nll), b = red(smooth);
  return a.map((v, i) => (1 - eps) * v + (eps / c) * b[i]!);
}

eachBackend(
  "crossEntropy() matches PyTorch's rule on the host: weight, ignoreIndex, labelSmoothing, each reduction",
  () => {
    const random = rng(7);
    const [x, hx] = randomPair([5, 4], random, -3, 3);
    const targets = [3, 0, -100, 2, 3];
    const t = ga.asarray(targets, "int64");
    const [w] = randomPair([4], random, 0.5, 2);
    const hw = Array.from(w.get() as Float64Array);
    const lp = rows(hx).map(logSoftmax);
    for (const reduction of ["mean", "sum", "none"] as const) {
      for (const labelSmoothing of [0, 0.2]) {
        for (const weight of [undefined, w]) {
          const got = nn.crossEntropy(x, t, { reduction, labelSmoothing, weight });
          const want = classLossHost(lp, targets, {
            reduction,
            labelSmoothing,
            ...(weight === undefined ? {} : { weight: hw }),
          });
          assertClose(
            got,
            want,
            1e-13,
            `crossEntropy ${reduction} ε ${labelSmoothing} weight ${weight !== undefined}`,
          );
          assert.deepEqual(got.shape, reduction === "none" ? [5] : []);
        }
      }
    }
    // ignoreIndex of our own, and a [N, C, d] input with [N, d] targets.
    const own = [3, 0, 1, 2, 3];
    assertClose(
      nn.crossEntropy(x, ga.asarray(own, "int32"), { ignoreIndex: 3 }),
      classLossHost(lp, own, { ignoreIndex: 3 }),
      1e-13,
      "ignoreIndex 3, int32 targets",
    );
    const [x3, hx3] = randomPair([2, 3, 4], random, -2, 2);
    const t3 = [0, 2, 1, 1, 2, 2, 0, 1];
    // rows() walks (n, d) in C order of [N, D], which is the target's order.
    assertClose(
      nn.crossEntropy(x3, ga.asarray([[0, 2, 1, 1], [2, 2, 0, 1]], "int64")),
      classLossHost(rows(hx3).map(logSoftmax), t3, {}),
      1e-13,
      "crossEntropy of [N, C, d]",
    );
    // An unbatched [C] input with a 0-d target.
    const one = nn.crossEntropy(ga.asarray([1, 2, 3], "float64"), ga.asarray(2, "int64"));
    assertClose(one, classLossHost([logSoftmax([1, 2, 3])], [2], {}), 1e-14, "crossEntropy of [C]");
  },
);

eachBackend("crossEntropy() of class probabilities and nllLoss() match the host references", () => {
  const random = rng(8);
  const [x, hx] = randomPair([3, 4], random, -2, 2);
  const [p, hp] = randomPair([3, 4], random, 0, 1);
  const lp = rows(hx).map(logSoftmax);
  const soft = (eps: number) =>
    lp.map((r, i) => -r.reduce((s, v, j) => s + ((1 - eps) * hp.get(i, j) + eps / 4) * v, 0));
  assertClose(nn.crossEntropy(x, p), soft(0).reduce((a, b) => a + b) / 3, 1e-13, "probabilities, mean");
  assertClose(
    nn.crossEntropy(x, p, { labelSmoothing: 0.1, reduction: "none" }),
    soft(0.1),
    1e-13,
    "probabilities, smoothed",
  );
  const logp = ga.logSoftmax(x, 1);
  const targets = [1, 3, 0];
  assertClose(
    nn.nllLoss(logp, ga.asarray(targets, "int64")),
    classLossHost(lp, targets, {}),
    1e-13,
    "nllLoss",
  );
  assertClose(
    nn.nllLoss(logp, ga.asarray(targets, "int64"), {
      weight: ga.asarray([1, 2, 3, 4], "float64"),
      reduction: "sum",
    }),
    classLossHost(lp, targets, { weight: [1, 2, 3, 4], reduction: "sum" }),
    1e-13,
    "nllLoss weighted sum",
  );
});

eachBackend("mseLoss() and binaryCrossEntropyWithLogits() match the host references", () => {
  const random = rng(9);
  const [x, hx] = randomPair([3, 4], random, -4, 4);
  const [y, hy] = randomPair([3, 4], random, 0, 1);
  const sq = Array.from(hx.data, (v, i) => (v - hy.data[i]!) ** 2);
  assertClose(nn.mseLoss(x, y), sq.reduce((a, b) => a + b) / 12, 1e-14, "mseLoss mean");
  assertClose(nn.mseLoss(x, y, { reduction: "sum" }), sq.reduce((a, b) => a + b), 1e-14, "mseLoss sum");
  assertClose(
    nn.mseLoss(x, y, { reduction: "none" }),
    new Host([3, 4], Float64Array.from(sq)),
    1e-14,
    "mseLoss none",
  );
  const [w, hw] = randomPair([3, 4], random, 0, 2);
  const pos = [0.5, 1, 2, 3];
  const sig = (v: number) => 1 / (1 + Math.exp(-v));
  const bce = Array.from(hx.data, (v, i) => {
    const t = hy.data[i]!, pw = pos[i % 4]!;
    return -hw.data[i]! * (pw * t * Math.log(sig(v)) + (1 - t) * Math.log(1 - sig(v)));
  });
  const got = nn.binaryCrossEntropyWithLogits(x, y, {
    weight: w,
    posWeight: ga.asarray(pos, "float64"),
    reduction: "none",
  });
  assertClose(got, new Host([3, 4], Float64Array.from(bce)), 1e-13, "bce with logits, weight and posWeight");
  const plain = Array.from(
    hx.data,
    (v, i) => -(hy.data[i]! * Math.log(sig(v)) + (1 - hy.data[i]!) * Math.log(1 - sig(v))),
  );
  assertClose(
    nn.binaryCrossEntropyWithLogits(x, y),
    plain.reduce((a, b) => a + b) / 12,
    1e-13,
    "bce with logits, mean",
  );
  // Large logits stay finite: log σ(-1000) = -1000.
  assertClose(
    nn.binaryCrossEntropyWithLogits(ga.asarray([1000, -1000], "float64"), ga.asarray([0, 1], "float64"), {
      reduction: "sum",
    }),
    2000,
    1e-15,
    "bce at ±1000",
  );
});

eachBackend("gradients of the losses match central finite differences in float64", () => {
  const random = rng(10);
  const [x] = randomPair([4, 5], random, -2, 2);
  const t = ga.asarray([4, -100, 0, 2], "int64");
  const [w] = randomPair([5], random, 0.5, 2);
  checkGrad(
    (x) => nn.crossEntropy(x, t, { labelSmoothing: 0.15, weight: w }),
    [x],
    [0],
    random,
    "crossEntropy",
  );
  const [p] = randomPair([4, 5], random, 0, 1);
  checkGrad((x) => nn.crossEntropy(x, p), [x], [0], random, "crossEntropy of probabilities");
  checkGrad((x) => nn.nllLoss(x, t, { reduction: "sum" }), [x], [0], random, "nllLoss");
  const [y] = randomPair([4, 5], random);
  checkGrad((x, y) => nn.mseLoss(x, y), [x, y], [0, 1], random, "mseLoss");
  const [pw] = randomPair([5], random, 0.5, 2);
  checkGrad(
    (x, y, pw) => nn.binaryCrossEntropyWithLogits(x, y, { posWeight: pw }),
    [x, p, pw],
    [0, 1, 2],
    random,
    "bce with logits",
  );
});

eachBackend("losses name the shapes and the bad target", () => {
  const x = ga.zeros([4, 3]);
  assert.throws(
    () => nn.crossEntropy(x, ga.asarray([0, 1], "int64")),
    /input of shape \[4, 3\] with a target of shape \[2\]: the target must be \[4\]/,
  );
  // A bad target is found on the device without waiting: reading the loss throws, every time.
  const bad = nn.crossEntropy(x, ga.asarray([0, 1, 3, 2], "int64"));
  for (const read of [() => Number(bad), () => bad.get(), () => bad.item()]) {
    assert.throws(read, /target 3: targets must be class indices from 0 to 2 \(or ignoreIndex -100\)/);
  }
  const [value] = ga.valueAndGrad((z: ga.GPUArray) => nn.nllLoss(z, ga.asarray([0, -1, 1, 2], "int64")))(x);
  assert.throws(() => Number(value), /Cannot nllLoss with target -1/);
  const spread = nn.crossEntropy(x, ga.asarray([7, 1, 1, 2], "int64"), { labelSmoothing: 0.1 });
  assert.throws(() => spread.get(), /target 7/);
  const ignored = Number(nn.crossEntropy(x, ga.asarray([0, -100, 1, 2], "int64")));
  assert.ok(Math.abs(ignored - Math.log(3)) < 1e-6, `ignored, not bad: ${ignored}`);
  assert.throws(() => Number(nn.crossEntropy(x, ga.asarray([-5, 1, 2, 200], "int32"))), /target 200/);
  assert.throws(
    () => nn.crossEntropy(x, ga.zeros([4, 2])),
    /a probability target has shape \[4, 2\]; it must have shape \[4, 3\]/,
  );
  assert.throws(() => nn.nllLoss(x, ga.zeros([4])), /target has dtype float32; it must hold integer indices/);
  assert.throws(
    () => nn.crossEntropy(x, ga.zeros([4], "int64"), { weight: ga.ones([4]) }),
    /weight has shape \[4\]; it must have shape \[3\]/,
  );
  assert.throws(
    () => nn.crossEntropy(x, ga.zeros([4], "int64"), { reduction: "avg" as "mean" }),
    /reduction "avg"/,
  );
  assert.throws(
    () => nn.mseLoss(x, ga.zeros([4, 1])),
    /input of shape \[4, 3\] with a target of shape \[4, 1\]/,
  );
  assert.throws(
    () => nn.binaryCrossEntropyWithLogits(x, ga.zeros([3])),
    /target has shape \[3\]; it must have shape \[4, 3\]/,
  );
});
