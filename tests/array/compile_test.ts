import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { uniformReference } from "../../src/array/exec/philox.ts";
import { adamStep, assertClose, type HostState, rmspropStep, rng, sgdStep } from "../optim/_reference.ts";

const BATCH = 16, FEATURES = 3;

/** A batch of a linear regression problem: x [BATCH, FEATURES] and y [BATCH], as host numbers. */
function batch(seed: number): { x: number[]; y: number[] } {
  const random = rng(seed);
  const x = Array.from({ length: BATCH * FEATURES }, () => Math.fround(2 * random() - 1));
  const y = Array.from(
    { length: BATCH },
    (_, i) => Math.fround(x[i * 3]! - 2 * x[i * 3 + 1]! + 0.5 * x[i * 3 + 2]! + 1),
  );
  return { x, y };
}

/** The gradient of mean((x·w + b - y)²) with respect to w and b, in float64 on the host. */
function hostGradient(
  w: readonly number[],
  b: number,
  x: readonly number[],
  y: readonly number[],
): [number[], number] {
  const gw = [0, 0, 0];
  let gb = 0;
  for (let i = 0; i < BATCH; i++) {
    let r = b - y[i]!;
    for (let j = 0; j < FEATURES; j++) r += x[i * FEATURES + j]! * w[j]!;
    for (let j = 0; j < FEATURES; j++) gw[j]! += (2 / BATCH) * r * x[i * FEATURES + j]!;
    gb += (2 / BATCH) * r;
  }
  return [gw, gb];
}

const loss = (w: ga.GPUArray, b: ga.GPUArray, x: ga.GPUArray, y: ga.GPUArray) =>
  ga.mean(ga.square(ga.matmul(x, w).add(b).sub(y)));

/** Trains w, b with `opt` through `ga.compile` for `steps` steps and checks them against `hostStep`. */
function checkCompiledTraining(
  make: (params: ga.GPUArray[]) => optim.Optimizer,
  hostStep: (p: number[], g: number[], s: HostState, lr: number) => number[],
  what: string,
  schedule: (i: number) => number | undefined = () => undefined,
): void {
  const w = ga.zeros([FEATURES]), b = ga.zeros([]);
  const opt = make([w, b]);
  const step = ga.compile((x: ga.GPUArray, y: ga.GPUArray) => {
    const [value, grads] = ga.valueAndGrad(loss, { argnums: [0, 1] })(w, b, x, y);
    opt.step(grads);
    return value;
  });
  let hw = [0, 0, 0], hb = 0;
  const sw: HostState = {}, sb: HostState = {};
  for (let i = 0; i < 20; i++) {
    const lr = schedule(i);
    if (lr !== undefined) opt.lr = lr;
    const { x, y } = batch(i);
    const value = step(ga.asarray(x).reshape(BATCH, FEATURES), ga.asarray(y));
    const [gw, gb] = hostGradient(hw, hb, x, y);
    let l = 0;
    for (let r = 0; r < BATCH; r++) {
      let e = hb - y[r]!;
      for (let j = 0; j < FEATURES; j++) e += x[r * FEATURES + j]! * hw[j]!;
      l += e * e / BATCH;
    }
    assertClose([value.item() as number], [l], 1e-5, `${what}: the loss of step ${i}`);
    hw = hostStep(hw, gw, sw, opt.lr);
    hb = hostStep([hb], [gb], sb, opt.lr)[0]!;
  }
  assert.equal(step.traces, 1, `${what}: traced once`);
  assertClose(Array.from(w.get() as Float32Array), hw, 2e-5, `${what}: w after 20 steps`);
  assertClose([b.item() as number], [hb], 2e-5, `${what}: b after 20 steps`);
  step.free();
}

eachBackend(
  "compile(): 20 compiled Adam steps of a linear regression give the float64 host trajectory",
  () => {
    checkCompiledTraining(
      (p) => new optim.Adam(p, { lr: 0.05, weightDecay: 0.01 }),
      (p, g, s, lr) => adamStep(p, g, s, { lr, weightDecay: 0.01, decoupled: false }),
      "Adam",
    );
  },
);

eachBackend(
  "compile(): a learning rate a scheduler sets between calls reaches the replayed AdamW step",
  () => {
    checkCompiledTraining(
      (p) => new optim.AdamW(p, { lr: 0.05 }),
      (p, g, s, lr) => adamStep(p, g, s, { lr, decoupled: true }),
      "AdamW with a decaying lr",
      (i) => 0.05 / (1 + i),
    );
  },
);

eachBackend(
  "compile(): compiled SGD with momentum and RMSprop steps give the float64 host trajectory",
  () => {
    checkCompiledTraining(
      (p) => new optim.SGD(p, { lr: 0.05, momentum: 0.9, nesterov: true }),
      (p, g, s, lr) => sgdStep(p, g, s, { lr, momentum: 0.9, nesterov: true }),
      "SGD",
    );
    checkCompiledTraining(
      (p) => new optim.RMSprop(p, { lr: 0.01, centered: true, momentum: 0.5 }),
      (p, g, s, lr) => rmspropStep(p, g, s, { lr, centered: true, momentum: 0.5 }),
      "RMSprop",
    );
  },
);

eachBackend("compile(): an MLP step compiled gives the eager step's parameters after 20 Adam steps", () => {
  const random = rng(3);
  const init = (shape: number[]) =>
    ga.asarray(Array.from({ length: shape.reduce((a, n) => a * n, 1) }, () => random() - 0.5)).reshape(
      ...shape,
    );
  const start = [init([4, 16]), init([16]), init([16, 1]), init([1])];
  const forward = (p: ga.GPUArray[], x: ga.GPUArray, y: ga.GPUArray) =>
    nn.mseLoss(nn.linear(nn.gelu(nn.linear(x, p[0]!.T, p[1]!)), p[2]!.T, p[3]!), y);
  const run = (compiled: boolean) => {
    const params = start.map((p) => p.copy());
    const opt = new optim.Adam(params, { lr: 0.01 });
    const step = ga.compile((x: ga.GPUArray, y: ga.GPUArray) => {
      const [value, grads] = ga.valueAndGrad(forward)(params, x, y);
      opt.step(grads);
      return value;
    }, { disable: !compiled });
    const losses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const data = rng(100 + i);
      const x = ga.asarray(Array.from({ length: 32 * 4 }, () => data() * 2 - 1)).reshape(32, 4);
      losses.push(step(x, ga.sin(x.sum(1, { keepdims: true }))).item() as number);
    }
    assert.equal(step.traces, compiled ? 1 : 0);
    return { params: params.map((p) => Array.from(p.get() as Float32Array)), losses };
  };
  const eager = run(false), compiled = run(true);
  assertClose(compiled.losses, eager.losses, 1e-5, "losses");
  compiled.params.forEach((p, i) => assertClose(p, eager.params[i]!, 1e-5, `parameter ${i}`));
  assert.ok(eager.losses.at(-1)! < eager.losses[0]!, "the loss went down");
});

eachBackend(
  "compile(): a new batch of a traced signature replays; another shape or number traces again",
  () => {
    const scale = ga.asarray([2]);
    const step = ga.compile((x: ga.GPUArray, k: number) => x.mul(scale).add(k));
    const want = (x: number[], k: number) => x.map((v) => 2 * v + k);
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(Array.from(step(ga.asarray([i, 1, 2]), 1).get() as Float32Array), want([i, 1, 2], 1));
      assert.equal(step.traces, i < 2 ? 0 : 1, "two eager calls, then a trace at the third");
    }
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(Array.from(step(ga.asarray([i, 2]), 1).get() as Float32Array), want([i, 2], 1));
    }
    assert.equal(step.traces, 2, "a new shape traces again (at its third call)");
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(Array.from(step(ga.asarray([1, 2, i]), 5).get() as Float32Array), want([1, 2, i], 5));
    }
    assert.equal(step.traces, 3, "a new number traces again");
    // A strided view is copied into the step's own contiguous input: [[0, 3], [1, 4], [2, 5]].
    const t = ga.arange(6, { dtype: "float32" }).reshape(2, 3).T;
    step(t.copy(), 0);
    step(t.copy(), 0);
    assert.deepEqual(Array.from(step(t, 0).get() as Float32Array), [0, 6, 2, 8, 4, 10]);
    // Results are copies: a later replay leaves an earlier result as it was.
    const first = step(ga.asarray([1, 1, 1]), 0), second = step(ga.asarray([3, 3, 3]), 0);
    assert.deepEqual([Array.from(first.get() as Float32Array), Array.from(second.get() as Float32Array)], [
      [2, 2, 2],
      [6, 6, 6],
    ]);
    step.free();
    step.free();
  },
);

eachBackend(
  "compile(): reading the device or returning a number inside a step is refused at the trace, naming the call",
  () => {
    const x = ga.asarray([1, 2, 3]);
    const reads = ga.compile((a: ga.GPUArray) => ga.asarray([a.sum() as number]));
    reads(x); // the first two calls run eagerly
    reads(x);
    assert.throws(
      () => reads(x),
      /Cannot return the result of .*inside a step being compiled by ga\.compile\(\).*read it after the call/,
    );
    const number = ga.compile((a: ga.GPUArray) => [a.add(1), 5]);
    number(x);
    number(x);
    assert.throws(() => number(x), /Cannot compile a step that returns 5 at the result\[1\]/);
    assert.throws(() => ga.compile(5 as never), /Cannot compile 5: pass the step as a function/);
    const odd = ga.compile((_: unknown) => x.add(1));
    assert.throws(() => odd(new Map()), /Cannot call a compiled step with a Map at argument list\[0\]/);
    // The refused trace left nothing behind: the next call tries again, and is refused again.
    assert.throws(() => reads(x), /Cannot return the result of/);
    assert.equal(reads.traces, 0);
  },
);

eachBackend(
  "compile(): an embedding index out of range in a replay is reported at the step's next call",
  () => {
    const table = ga.asarray([[1, 2], [3, 4], [5, 6]]);
    const look = ga.compile((i: ga.GPUArray) => nn.embedding(i, table));
    const ids = (values: number[]) => ga.asarray(values, "int32");
    assert.deepEqual(Array.from(look(ids([0, 2])).get() as Float32Array), [1, 2, 5, 6]); // eager
    assert.deepEqual(Array.from(look(ids([2, 2])).get() as Float32Array), [5, 6, 5, 6]); // eager
    assert.deepEqual(Array.from(look(ids([1, 2])).get() as Float32Array), [3, 4, 5, 6]); // traced
    look(ids([7, 0])); // replayed: the device sets the range flag
    assert.throws(
      () => look(ids([0, 0])),
      /Cannot take an index along axis 0: one was out of range for extent 3 \(use -3 to 2\), in the previous call of this compiled step/,
    );
    assert.deepEqual(Array.from(look(ids([2, 0])).get() as Float32Array), [5, 6, 1, 2], "the step goes on");
    assert.equal(look.traces, 1);
  },
);

eachBackend("compile(): a char GPT's AdamW step compiled gives the eager step's losses", async () => {
  const { Gpt } = await import("../../examples/_gpt.ts");
  const run = (compiled: boolean) => {
    nn.manualSeed(0);
    const model = new Gpt({ vocab: 11, context: 16, layers: 2, heads: 2, width: 16 });
    const x = ga.random.integers([4, 16], { low: 0, high: 11, seed: 41, dtype: "int32" });
    const y = ga.random.integers([4, 16], { low: 0, high: 11, seed: 42, dtype: "int32" });
    const params = model.parameters();
    const opt = new optim.AdamW(params, { lr: 1e-2 });
    const lossAndGrads = ga.valueAndGrad((p: nn.ParameterTree) =>
      nn.crossEntropy(nn.functionalCall(model, p, x).reshape([-1, 11]), y.reshape([-1]))
    );
    const step = ga.compile(() => {
      const [loss, grads] = lossAndGrads(params);
      opt.step(grads);
      return loss;
    }, { disable: !compiled });
    return Array.from({ length: 6 }, () => step().item() as number);
  };
  const eager = run(false), compiled = run(true);
  assertClose(compiled, eager, 1e-5, "losses");
  assert.ok(eager[5]! < eager[0]!, "the loss went down");
});

eachBackend(
  "compile(): random draws in a replayed step move on as eager calls do, and a seed given in the call repeats",
  () => {
    const draw = (rng: ga.random.Generator) => [
      rng.normal([5]),
      ga.random.uniform([6], { seed: 3 }),
      rng.integers([3], { low: 0, high: 1000 }),
    ];
    const eager = ga.random.defaultRng(11), compiled = ga.random.defaultRng(11);
    const step = ga.compile(() => draw(compiled));
    for (let i = 0; i < 5; i++) {
      const want = draw(eager), got = step();
      want.forEach((w, k) =>
        assertClose(
          Array.from(got[k]!.get(), Number),
          Array.from(w.get(), Number),
          1e-6,
          `call ${i} draw ${k}`,
        )
      );
      assertClose(
        Array.from(got[1]!.get() as Float32Array),
        Array.from(uniformReference(6, "float32", 3n)),
        0,
        "seed 3",
      );
    }
    assert.equal(step.traces, 1);
  },
);

eachBackend(
  "compile(): an MLP with a Dropout layer compiled gives the eager step's losses, masks moving on",
  () => {
    const run = (compiled: boolean) => {
      nn.manualSeed(5);
      const model = new nn.Sequential(
        new nn.Linear(8, 32),
        new nn.ReLU(),
        new nn.Dropout(0.3, { seed: 9 }),
        new nn.Linear(32, 1),
      );
      const params = model.parameters();
      const opt = new optim.SGD(params, { lr: 0.05 });
      const x = ga.random.normal([16, 8], { seed: 1 }), y = ga.random.normal([16, 1], { seed: 2 });
      const lossAndGrads = ga.valueAndGrad((p: nn.ParameterTree) =>
        nn.mseLoss(nn.functionalCall(model, p, x), y)
      );
      const step = ga.compile(() => {
        const [loss, grads] = lossAndGrads(params);
        opt.step(grads);
        return loss;
      }, { disable: !compiled });
      return Array.from({ length: 8 }, () => step().item() as number);
    };
    const eager = run(false), compiled = run(true);
    assertClose(compiled, eager, 1e-5, "losses");
    assert.ok(new Set(eager.map((l) => l.toFixed(6))).size === 8, "the masks differ between steps");
  },
);
