import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { randomPair, rng, values } from "./_host.ts";

class Net extends nn.Module {
  conv1 = new nn.Conv2d(2, 4, 3, { padding: 1, dtype: "float64" });
  bn1 = new nn.BatchNorm2d(4, { dtype: "float64" });
  blocks = [
    new nn.Linear(16, 8, { dtype: "float64" }),
    new nn.Linear(8, 8, { bias: false, dtype: "float64" }),
  ];
  head = new nn.Sequential(new nn.GELU(), new nn.Dropout(0.5), new nn.Linear(8, 3, { dtype: "float64" }));
  forward(x: ga.GPUArray): ga.GPUArray {
    let y = nn.maxPool2d(nn.relu(this.bn1.forward(this.conv1.forward(x))), 2); // [N, 4, 2, 2]
    y = y.reshape([y.shape[0]!, 16]);
    for (const block of this.blocks) y = block.forward(y);
    return this.head.forward(y);
  }
}

const shapes = (state: nn.StateDict) => Object.entries(state).map(([k, v]) => [k, v.shape]);

eachBackend(
  "stateDict() has PyTorch's names, order and layouts; parameters() is the tree by property",
  () => {
    const net = new Net();
    assert.deepEqual(shapes(net.stateDict()), [
      ["conv1.weight", [4, 2, 3, 3]],
      ["conv1.bias", [4]],
      ["bn1.weight", [4]],
      ["bn1.bias", [4]],
      ["bn1.running_mean", [4]],
      ["bn1.running_var", [4]],
      ["bn1.num_batches_tracked", []],
      ["blocks.0.weight", [8, 16]],
      ["blocks.0.bias", [8]],
      ["blocks.1.weight", [8, 8]],
      ["head.2.weight", [3, 8]],
      ["head.2.bias", [3]],
    ]);
    assert.equal(net.stateDict()["bn1.num_batches_tracked"]!.dtype, "int64");
    assert.deepEqual(
      net.namedParameters().map(([k]) => k),
      Object.keys(net.stateDict()).filter((k) => !k.includes("_")),
    );
    assert.deepEqual(net.namedBuffers().map(([k]) => k), [
      "bn1.running_mean",
      "bn1.running_var",
      "bn1.num_batches_tracked",
    ]);
    assert.deepEqual(net.namedModules().map(([k]) => k), [
      "",
      "conv1",
      "bn1",
      "blocks.0",
      "blocks.1",
      "head",
      "head.0",
      "head.1",
      "head.2",
    ]);
    const p = net.parameters() as Record<string, nn.ParameterTree & Record<string, unknown>>;
    assert.deepEqual(Object.keys(p), ["conv1", "bn1", "blocks", "head"]);
    assert.equal(p.conv1!.weight, net.conv1.weight);
    assert.ok(Array.isArray(p.blocks) && p.blocks.length === 2);
    assert.deepEqual(Object.keys(p.head!), ["0", "1", "2"]);
    assert.deepEqual(Object.keys(new nn.LayerNorm([2, 3]).stateDict()), ["weight", "bias"]);
    assert.deepEqual(shapes(new nn.Embedding(10, 4).stateDict()), [["weight", [10, 4]]]);
    assert.deepEqual(
      shapes(new nn.BatchNorm2d(3, { affine: false, trackRunningStats: false }).stateDict()),
      [],
    );
  },
);

/** The tree of `a + t·b` over matching leaves. */
function shift(a: nn.ParameterTree, b: nn.ParameterTree, t: number): nn.ParameterTree {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) {
    const w = (b as Record<string, unknown>)[k];
    out[k] = v instanceof ga.GPUArray
      ? v.add((w as ga.GPUArray).mul(t))
      : Array.isArray(v)
      ? v.map((x, i) => shift(x, (w as nn.ParameterTree[])[i]!, t))
      : shift(v as nn.ParameterTree, w as nn.ParameterTree, t);
  }
  return out as nn.ParameterTree;
}

/** The leaves of a tree in order. */
function leaves(tree: unknown): ga.GPUArray[] {
  if (tree instanceof ga.GPUArray) return [tree];
  if (Array.isArray(tree)) return tree.flatMap(leaves);
  return Object.values(tree as object).flatMap(leaves);
}

eachBackend(
  "ga.valueAndGrad() of a loss through functionalCall() matches central finite differences over the whole tree",
  () => {
    const random = rng(23);
    nn.manualSeed(5);
    const net = new Net().eval();
    const [x] = randomPair([3, 2, 4, 4], random);
    const y = ga.asarray([2, 0, 1], "int64");
    const loss = (p: nn.ParameterTree, x: ga.GPUArray) => nn.crossEntropy(nn.functionalCall(net, p, x), y);
    const params = net.parameters();
    const before = values(net.conv1.weight);
    const [value, grads] = ga.valueAndGrad(loss)(params, x);
    assert.equal((params.conv1 as nn.ParameterTree).weight, net.conv1.weight);
    assert.deepEqual(values(net.conv1.weight), before, "functionalCall put the module's own parameters back");
    assert.ok(Math.abs(Number(value.item()) - Number(nn.crossEntropy(net.forward(x), y).item())) < 1e-14);
    const dir = mapLike(params, (a) => randomPair(a.shape, random)[0]);
    const h = 1e-6;
    const at = (t: number) => Number(loss(shift(params, dir, t), x).item());
    const fd = (at(h) - at(-h)) / (2 * h);
    const g = leaves(grads), d = leaves(dir);
    assert.equal(g.length, 9);
    const analytic = g.reduce(
      (s, gi, k) => s + values(gi).reduce((a, v, j) => a + v * values(d[k]!)[j]!, 0),
      0,
    );
    assert.ok(
      Math.abs(analytic - fd) <= 1e-6 * (1 + Math.abs(fd)),
      `grad ${analytic}, finite differences ${fd}`,
    );
  },
);

/** `tree` with each leaf replaced by `f(leaf)`. */
function mapLike(tree: nn.ParameterTree, f: (a: ga.GPUArray) => ga.GPUArray): nn.ParameterTree {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tree)) {
    out[k] = v instanceof ga.GPUArray
      ? f(v)
      : Array.isArray(v)
      ? v.map((x) => mapLike(x, f))
      : mapLike(v as nn.ParameterTree, f);
  }
  return out as nn.ParameterTree;
}

eachBackend(
  "train() and eval() reach every submodule; BatchNorm2d counts batches and moves its running statistics in training only",
  () => {
    const net = new Net();
    assert.ok(net.namedModules().every(([, m]) => m.training));
    net.eval();
    assert.ok(net.namedModules().every(([, m]) => !m.training));
    net.train();
    const x = ga.random.normal([4, 2, 4, 4], { seed: 2, dtype: "float64" });
    const loss = (p: nn.ParameterTree) => ga.sum(nn.functionalCall(net, p, x), [0, 1]);
    ga.grad(loss)(net.parameters());
    assert.equal(net.bn1.numBatchesTracked!.item(), 1n);
    assert.ok(values(net.bn1.runningMean!).some((v) => v !== 0));
    const frozen = values(net.bn1.runningVar!);
    net.eval().forward(x);
    assert.equal(net.bn1.numBatchesTracked!.item(), 1n);
    assert.deepEqual(values(net.bn1.runningVar!), frozen);
    // momentum null: a cumulative average of the batches' means.
    const bn = new nn.BatchNorm2d(2, { momentum: null, dtype: "float64" });
    const a = ga.random.normal([3, 2, 2, 2], { seed: 3, dtype: "float64" }),
      b = ga.random.normal([3, 2, 2, 2], { seed: 4, dtype: "float64" });
    bn.forward(a);
    bn.forward(b);
    const means = (z: ga.GPUArray) => values(z.mean([0, 2, 3]));
    const want = means(a).map((m, k) => (m + means(b)[k]!) / 2);
    values(bn.runningMean!).forEach((v, k) =>
      assert.ok(Math.abs(v - want[k]!) < 1e-14, `cumulative mean ${k}`)
    );
  },
);

eachBackend(
  "loadStateDict() copies matching arrays in place and refuses missing, unexpected and misshapen keys by name",
  () => {
    nn.manualSeed(1);
    const a = new Net();
    const b = new Net();
    assert.notDeepEqual(values(a.conv1.weight), values(b.conv1.weight));
    const weight = b.conv1.weight;
    b.loadStateDict(a.stateDict());
    assert.equal(b.conv1.weight, weight, "in place");
    for (const [k, v] of Object.entries(a.stateDict())) {
      assert.deepEqual(values(b.stateDict()[k]!), values(v), k);
    }
    const x = ga.random.normal([2, 2, 4, 4], { seed: 1, dtype: "float64" });
    assert.deepEqual(values(a.eval().forward(x)), values(b.eval().forward(x)));
    const state = { ...a.stateDict() };
    delete state["head.2.bias"];
    state["head.3.weight"] = ga.zeros([1]);
    assert.throws(
      () => b.loadStateDict(state),
      /Cannot loadStateDict into Net: missing key\(s\) head.2.bias; unexpected key\(s\) head.3.weight/,
    );
    assert.deepEqual(b.loadStateDict(new Map(Object.entries(state)), { strict: false }), {
      missingKeys: ["head.2.bias"],
      unexpectedKeys: ["head.3.weight"],
    });
    assert.throws(
      () => b.loadStateDict({ ...a.stateDict(), "blocks.0.weight": ga.zeros([16, 8]) }),
      /blocks.0.weight has shape \[16, 8\] in the state dict and \[8, 16\] in the module/,
    );
  },
);

eachBackend("default initialisations follow PyTorch's bounds and repeat after manualSeed()", () => {
  nn.manualSeed(42);
  const fc = new nn.Linear(200, 50);
  const conv = new nn.Conv2d(6, 8, [3, 5], { groups: 2 });
  const table = new nn.Embedding(100, 50, { paddingIdx: 3 });
  const check = (a: ga.GPUArray, bound: number, what: string) => {
    const v = values(a);
    assert.ok(v.every((x) => Math.abs(x) <= bound), `${what} within ±${bound}`);
    const mean = v.reduce((s, x) => s + x, 0) / v.length,
      variance = v.reduce((s, x) => s + x * x, 0) / v.length;
    assert.ok(
      Math.abs(mean) < 0.1 * bound && Math.abs(variance / (bound * bound / 3) - 1) < 0.1,
      `${what}: mean ${mean}, variance ${variance}`,
    );
  };
  check(fc.weight, 1 / Math.sqrt(200), "Linear weight");
  check(conv.weight, 1 / Math.sqrt(3 * 15), "Conv2d weight");
  assert.ok(values(fc.bias!).every((x) => Math.abs(x) <= 1 / Math.sqrt(200)));
  assert.deepEqual(conv.weight.shape, [8, 3, 3, 5]);
  const t = values(table.weight);
  assert.deepEqual(t.slice(150, 200), Array(50).fill(0), "the padding row starts at zeros");
  const rest = [...t.slice(0, 150), ...t.slice(200)];
  const m = rest.reduce((s, x) => s + x, 0) / rest.length,
    sd = Math.sqrt(rest.reduce((s, x) => s + x * x, 0) / rest.length);
  assert.ok(Math.abs(m) < 0.05 && Math.abs(sd - 1) < 0.05, `Embedding: mean ${m}, std ${sd}`);
  nn.manualSeed(42);
  assert.deepEqual(values(new nn.Linear(200, 50).weight), values(fc.weight));
  assert.deepEqual(
    values(new nn.Linear(4, 4, { seed: 7 }).weight),
    values(new nn.Linear(4, 4, { seed: 7 }).weight),
  );
  assert.equal(new nn.Linear(4, 4, { dtype: "float64" }).weight.dtype, "float64");
  // 16-bit parameters are drawn in float32 and converted (where the device has the dtype: not PoCL).
  if (fc.weight.backend.supports("bfloat16")) {
    assert.equal(new nn.Linear(4, 4, { dtype: "bfloat16" }).weight.dtype, "bfloat16");
  }
});

eachBackend("modules and functionalCall() name wrong shapes, trees and sizes", () => {
  const fc = new nn.Linear(4, 2);
  assert.throws(() => fc.forward(ga.zeros([3, 5])), /input of shape \[3, 5\] with weight of shape \[2, 4\]/);
  assert.throws(
    () => new nn.BatchNorm2d(3).forward(ga.zeros([2, 3, 4])),
    /BatchNorm2d an input of shape \[2, 3, 4\]: it must be \[N, C, H, W\]/,
  );
  assert.throws(
    () => nn.functionalCall(fc, { weight: ga.zeros([4, 2]) }, ga.zeros([1, 4])),
    /parameter weight has shape \[4, 2\]; the module's has shape \[2, 4\]/,
  );
  assert.throws(
    () => nn.functionalCall(fc, { wieght: ga.zeros([2, 4]) }, ga.zeros([1, 4])),
    /has wieght, but the module has no parameter or submodule of that name/,
  );
  const seq = new nn.Sequential(new nn.Linear(4, 2));
  assert.throws(
    () => nn.functionalCall(seq, { 0: ga.zeros([2]) } as never, ga.zeros([1, 4])),
    /the parameters of 0. must be a tree/,
  );
  // A partial tree replaces only what it names.
  const y = nn.functionalCall(fc, { bias: ga.asarray([10, 20]) }, ga.zeros([1, 4]));
  assert.deepEqual(Array.from(y.get() as Float32Array), [10, 20]);
  assert.throws(() => new nn.Linear(0, 2), /inFeatures 0: pass a positive integer/);
  assert.throws(
    () => new nn.Conv2d(3, 4, 3, { groups: 2 }),
    /groups 2: inChannels 3 and outChannels 4 must both be multiples of it/,
  );
  assert.throws(() => new nn.Linear(2, 2, { dtype: "int32" as "float32" }), /dtype "int32"/);
  assert.throws(() => new nn.Sequential({} as nn.Layer), /argument 0 is not a Module/);
});

eachBackend("a Sequential CNN of PyTorch's parameter-free layers runs as the functions do and trains", () => {
  nn.manualSeed(0);
  const model = new nn.Sequential(
    new nn.Conv2d(1, 4, 3, { padding: 1, dtype: "float64" }),
    new nn.SiLU(),
    new nn.MaxPool2d(2),
    new nn.AvgPool2d(2, { stride: 1 }),
    new nn.AdaptiveAvgPool2d(2),
    new nn.Flatten(),
    new nn.Identity(),
    new nn.Tanh(),
    new nn.Linear(16, 3, { dtype: "float64" }),
    new nn.Sigmoid(),
  );
  assert.deepEqual(Object.keys(model.stateDict()), ["0.weight", "0.bias", "8.weight", "8.bias"]);
  const x = ga.random.normal([2, 1, 8, 8], { seed: 3 }).astype("float64");
  const conv = model[0] as nn.Conv2d, fc = model[8] as nn.Linear;
  let h = nn.silu(nn.conv2d(x, conv.weight, conv.bias, { padding: 1 }));
  h = nn.adaptiveAvgPool2d(nn.avgPool2d(nn.maxPool2d(h, 2), 2, { stride: 1 }), 2);
  const want = nn.sigmoid(nn.linear(ga.tanh(h.reshape([2, 16])), fc.weight, fc.bias));
  const got = model.forward(x);
  assert.deepEqual(got.shape, [2, 3]);
  const [g, w] = [got.get() as Float64Array, want.get() as Float64Array];
  g.forEach((v, i) => assert.ok(Math.abs(v - w[i]!) < 1e-12, `[${i}]: ${v} vs ${w[i]}`));
  const grads = ga.grad((p: nn.ParameterTree) => ga.sum(nn.functionalCall(model, p, x), [0, 1]))(
    model.parameters(),
  );
  const first = (grads as Record<string, { weight: ga.GPUArray }>)["0"]!.weight;
  assert.deepEqual(first.shape, [4, 1, 3, 3]);
  assert.ok((first.get() as Float64Array).some((v) => v !== 0), "the gradient reaches the first layer");
});

eachBackend("Flatten makes axes startDim to endDim one, and names dims out of the input's range", () => {
  const x = ga.zeros([2, 3, 4, 5]);
  assert.deepEqual(new nn.Flatten().forward(x).shape, [2, 60]);
  assert.deepEqual(new nn.Flatten(0, 1).forward(x).shape, [6, 4, 5]);
  assert.deepEqual(new nn.Flatten(-2).forward(x).shape, [2, 3, 20]);
  assert.throws(() => new nn.Flatten(2, 1).forward(x), {
    name: "RangeError",
    message: /dims 2 to 1 of an input of shape \[2, 3, 4, 5\]/,
  });
  assert.throws(() => new nn.Flatten(1.5), { name: "RangeError", message: /pass integers/ });
});
