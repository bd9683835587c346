import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { cudaTest } from "../_backends.ts";
import { values } from "./_host.ts";

eachBackend(
  "autocast() names a dtype it does not take, one the device cannot compute in, and async functions",
  () => {
    assert.throws(() => nn.autocast("float32" as never, () => 0), {
      name: "TypeError",
      message: /use "bfloat16" or "float16"/,
    });
    const device = ga.zeros([]).backend;
    for (const dtype of ["bfloat16", "float16"] as const) {
      if (!device.supports(dtype)) {
        assert.throws(() => nn.autocast(dtype, () => 0), {
          name: "TypeError",
          message: new RegExp(`Cannot autocast to ${dtype} on .*: the device does not compute in ${dtype}`),
        });
        continue;
      }
      assert.equal(nn.autocast(dtype, () => 7), 7);
      assert.throws(() => nn.autocast(dtype, () => Promise.resolve(0)), {
        name: "TypeError",
        message: /async function/,
      });
    }
  },
);

/** A small model of every autocast kind: a linear layer, a convolution, attention, a norm and a loss. */
class Net extends nn.Module {
  conv = new nn.Conv2d(2, 4, 3, { padding: 1, seed: 3 });
  fc = new nn.Linear(4 * 4 * 4, 16, { seed: 4 });
  ln = new nn.LayerNorm(16);
  head = new nn.Linear(16, 5, { seed: 5 });
  forward(x: ga.GPUArray): ga.GPUArray {
    const h = this.fc.forward(nn.relu(this.conv.forward(x)).reshape([x.shape[0]!, -1]));
    const t = h.reshape([x.shape[0]!, 4, 4]);
    const a = nn.scaledDotProductAttention(t, t, t, { isCausal: true }).reshape([x.shape[0]!, 16]);
    return this.head.forward(this.ln.forward(a));
  }
}

cudaTest(
  "inside autocast(bfloat16) products run in bfloat16 and norms and losses in float32; float32 weights get float32 gradients near the float32 ones",
  () => {
    ga.useBackend("cuda");
    nn.manualSeed(0);
    const model = new Net(), params = model.parameters();
    const x = ga.random.normal([6, 2, 4, 4], { seed: 1 }), y = ga.asarray([0, 1, 2, 3, 4, 0], "int64");
    const loss = (p: nn.ParameterTree) => nn.crossEntropy(nn.functionalCall(model, p, x), y);
    const [exact, want] = ga.valueAndGrad(loss)(params);
    const [mixed, got] = nn.autocast("bfloat16", () => ga.valueAndGrad(loss)(params));
    assert.equal(mixed.dtype, "float32");
    assert.ok(
      Math.abs(Number(mixed) - Number(exact)) < 2e-2 * Math.abs(Number(exact)),
      `${mixed} vs ${exact}`,
    );
    nn.autocast("bfloat16", () => {
      assert.equal(model.fc.forward(ga.ones([1, 64])).dtype, "bfloat16");
      assert.equal(nn.layerNorm(ga.ones([2, 16], "bfloat16"), 16).dtype, "float32");
    });
    assert.equal(model.fc.forward(ga.ones([1, 64])).dtype, "float32", "outside, float32 again");
    for (const [name, p] of model.namedParameters()) {
      const path = name.split(".");
      const pick = (t: nn.ParameterTree) =>
        path.reduce((n: unknown, k) => (n as Record<string, unknown>)[k], t) as ga.GPUArray;
      const g = pick(got as nn.ParameterTree), w = pick(want as nn.ParameterTree);
      assert.equal(g.dtype, p.dtype, `${name}'s gradient dtype`);
      const [gv, wv] = [values(g), values(w)];
      const scale = Math.max(...wv.map(Math.abs));
      gv.forEach((v, i) =>
        assert.ok(Math.abs(v - wv[i]!) <= 0.05 * scale + 1e-6, `${name}[${i}]: ${v} vs ${wv[i]}`)
      );
    }
  },
);

cudaTest("float16 autocast with a GradScaler trains a model, the loss falling", () => {
  ga.useBackend("cuda");
  nn.manualSeed(0);
  const model = new Net(), params = model.parameters();
  const x = ga.random.normal([6, 2, 4, 4], { seed: 2 }), y = ga.asarray([0, 1, 2, 3, 4, 0], "int64");
  const opt = new optim.AdamW(params, { lr: 1e-2 }), scaler = new optim.GradScaler();
  const step = ga.valueAndGrad((p: nn.ParameterTree) =>
    scaler.scale(nn.autocast("float16", () => nn.crossEntropy(nn.functionalCall(model, p, x), y)))
  );
  const losses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const [loss, grads] = step(params);
    losses.push(Number(loss) / scaler.getScale());
    scaler.step(opt, grads);
    scaler.update();
  }
  assert.ok(losses.at(-1)! < losses[0]! / 2, `the loss went from ${losses[0]} to ${losses.at(-1)}`);
});
