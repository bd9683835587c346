import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";

/** The learning rates after the constructor and after each of `steps` more steps. */
function rates(opt: optim.Optimizer, schedule: { step(): void }, steps: number): number[] {
  const out = [opt.lr];
  for (let i = 0; i < steps; i++) {
    schedule.step();
    out.push(opt.lr);
  }
  return out;
}

function assertRates(got: readonly number[], want: readonly number[], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) => {
    assert.ok(
      Math.abs(g - want[i]!) <= 1e-12 * Math.max(1, Math.abs(want[i]!)),
      `${what}, step ${i}: ${g}, want ${want[i]}`,
    );
  });
}

const sgd = (lr: number, momentum = 0) => new optim.SGD([ga.zeros([2])], { lr, momentum });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

eachBackend("StepLR, LinearLR and LambdaLR give PyTorch's learning rates", () => {
  let opt = sgd(0.1);
  assertRates(
    rates(opt, new optim.StepLR(opt, 3, { gamma: 0.5 }), 10),
    range(11).map((t) => 0.1 * 0.5 ** Math.floor(t / 3)),
    "StepLR",
  );
  opt = sgd(0.2);
  const linear = new optim.LinearLR(opt, { startFactor: 0.25, endFactor: 1, totalIters: 4 });
  assertRates(
    rates(opt, linear, 8),
    range(9).map((t) => 0.2 * (0.25 + 0.75 * Math.min(t, 4) / 4)),
    "LinearLR",
  );
  // PyTorch's LinearLR docstring example (lr 0.05, startFactor 0.05, totalIters 40) lists these four
  // rates, which are those after steps 1 to 4.
  opt = sgd(0.05);
  const doc = rates(opt, new optim.LinearLR(opt, { startFactor: 0.05, totalIters: 40 }), 4);
  assertRates(doc.slice(1), [0.0036875, 0.004875, 0.0060625, 0.00725], "LinearLR, PyTorch's docstring");
  opt = sgd(1e-3);
  const warm = new optim.LambdaLR(opt, (t) => Math.min(1, (t + 1) / 4));
  assertRates(rates(opt, warm, 5), [0.25e-3, 0.5e-3, 0.75e-3, 1e-3, 1e-3, 1e-3], "LambdaLR");
  assert.deepEqual(warm.getLastLr(), [1e-3]);
});

eachBackend("CosineAnnealingLR's recursive rates equal the closed form, past tMax too", () => {
  const opt = sgd(0.1);
  const cosine = new optim.CosineAnnealingLR(opt, 10, { etaMin: 0.001 });
  const want = range(26).map((t) => 0.001 + (0.1 - 0.001) * (1 + Math.cos(Math.PI * t / 10)) / 2);
  assertRates(rates(opt, cosine, 25), want, "CosineAnnealingLR");
  // Hand-computed: 0.1 · (1 + cos(π/10)) / 2 with etaMin 0.
  const plain = sgd(0.1);
  new optim.CosineAnnealingLR(plain, 10).step();
  assertRates([plain.lr], [0.09755282581475769], "CosineAnnealingLR step 1");
});

eachBackend("SequentialLR runs a linear warm-up, then a cosine from its step 0 at the milestone", () => {
  const opt = sgd(0.1);
  const warmup = new optim.LinearLR(opt, { startFactor: 0.1, totalIters: 5 });
  const cosine = new optim.CosineAnnealingLR(opt, 15);
  const schedule = new optim.SequentialLR(opt, [warmup, cosine], [5]);
  const want = range(21).map((t) =>
    t < 5 ? 0.1 * (0.1 + 0.9 * t / 5) : 0.1 * (1 + Math.cos(Math.PI * (t - 5) / 15)) / 2
  );
  assertRates(rates(opt, schedule, 20), want, "SequentialLR");
  assert.throws(
    () => new optim.SequentialLR(opt, [warmup, cosine], []),
    /one milestone per schedule after the first/,
  );
  assert.throws(
    () => new optim.SequentialLR(opt, [new optim.StepLR(sgd(1), 2)], []),
    /schedule 0 is not a schedule of this optimizer/,
  );
});

/** fastai's one-cycle on the host: the rate and momentum of `step` for PyTorch's two or three phases. */
function oneCycle(
  step: number,
  total: number,
  maxLr: number,
  o: { pct?: number; linear?: boolean; three?: boolean },
) {
  const initial = maxLr / 25, min = initial / 1e4, pct = o.pct ?? 0.3;
  const anneal = (a: number, b: number, f: number) =>
    o.linear ? a + (b - a) * f : b + (a - b) / 2 * (1 + Math.cos(Math.PI * f));
  const phases = o.three
    ? [[pct * total - 1, initial, maxLr, 0.95, 0.85], [2 * pct * total - 2, maxLr, initial, 0.85, 0.95], [
      total - 1,
      initial,
      min,
      0.95,
      0.95,
    ]]
    : [[pct * total - 1, initial, maxLr, 0.95, 0.85], [total - 1, maxLr, min, 0.85, 0.95]];
  let start = 0;
  for (const [end, a, b, ma, mb] of phases.map((p) => p as [number, number, number, number, number])) {
    if (step <= end || end === total - 1) {
      const f = (step - start) / (end - start);
      return [anneal(a, b, f), anneal(ma, mb, f)];
    }
    start = end;
  }
  throw new Error("unreachable");
}

eachBackend("OneCycleLR cycles the rate and Adam's beta1 or SGD's momentum as PyTorch does", () => {
  for (const o of [{}, { linear: true }, { three: true, pct: 0.25 }]) {
    const opt = new optim.Adam([ga.zeros([2])], { lr: 1 });
    const schedule = new optim.OneCycleLR(opt, 0.1, {
      totalSteps: 20,
      pctStart: o.pct ?? 0.3,
      annealStrategy: o.linear ? "linear" : "cos",
      threePhase: o.three ?? false,
    });
    const got: number[][] = [[opt.lr, opt.betas[0]]];
    for (let i = 0; i < 20; i++) {
      schedule.step();
      got.push([opt.lr, opt.betas[0]]);
    }
    const want = range(21).map((t) => oneCycle(t, 20, 0.1, o));
    assertRates(got.map((g) => g[0]!), want.map((w) => w[0]!), `OneCycleLR ${JSON.stringify(o)} rates`);
    assertRates(got.map((g) => g[1]!), want.map((w) => w[1]!), `OneCycleLR ${JSON.stringify(o)} beta1`);
    assert.equal(opt.betas[1], 0.999);
    assert.throws(() => schedule.step(), /Cannot step OneCycleLR 21 times: its totalSteps is 20/);
  }
  // Hand-computed: 10 steps to 0.1 from 0.004, peak at step 2 = 0.3 · 10 - 1, halfway at step 1.
  const opt = sgd(0.5);
  const schedule = new optim.OneCycleLR(opt, 0.1, { epochs: 2, stepsPerEpoch: 5 });
  assert.equal(opt.momentum, 0.95);
  assertRates(rates(opt, schedule, 2), [0.004, 0.052, 0.1], "OneCycleLR, first steps");
  assert.ok(Math.abs(opt.momentum - 0.85) < 1e-15);
  assert.throws(() => new optim.OneCycleLR(sgd(1), 0.1), /pass \{ totalSteps \}/);
  assert.throws(
    () => new optim.OneCycleLR(sgd(1), 0.1, { totalSteps: 5, annealStrategy: "exp" as "cos" }),
    /"cos" or "linear"/,
  );
});

eachBackend("a scheduler's stateDict() resumes its sequence", () => {
  const opt = sgd(0.1);
  const first = new optim.CosineAnnealingLR(opt, 8);
  for (let i = 0; i < 3; i++) first.step();
  const saved = first.stateDict();
  const resumedOpt = sgd(0.1);
  const resumed = new optim.CosineAnnealingLR(resumedOpt, 8);
  resumed.loadStateDict(saved);
  resumedOpt.lr = opt.lr;
  first.step();
  resumed.step();
  assert.equal(resumedOpt.lr, opt.lr);
  assert.equal(resumed.lastEpoch, 4);
});
