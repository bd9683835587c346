import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { adamStep, assertClose, download } from "./_reference.ts";

eachBackend(
  "Optimizer.step() updates a strided parameter through its view, and leaves one without a gradient",
  () => {
    const whole = ga.asarray([[1, 2, 3], [4, 5, 6]], "float32");
    const column = whole.slice([], 1); // [2, 5]: a strided view
    const other = ga.asarray([7, 8], "float32");
    const opt = new optim.SGD({ column, other }, { lr: 0.5 });
    opt.step({ column: ga.asarray([1, -1], "float32"), other: null });
    assert.deepEqual(download(whole), [1, 1.5, 3, 4, 5.5, 6]);
    assert.deepEqual(download(other), [7, 8]);
    assert.equal(opt.stateDict().state[1], undefined);
  },
);

eachBackend(
  "Adam.step() keeps a step count per parameter: one skipped at a step has its own bias correction",
  () => {
    const a = ga.asarray([1, 1], "float32"), b = ga.asarray([2], "float32");
    const opt = new optim.Adam([a, b], { lr: 0.1 });
    const sa = {}, sb = {};
    let ha = [1, 1], hb = [2];
    opt.step([ga.asarray([0.5, -0.5], "float32"), null]);
    ha = adamStep(ha, [0.5, -0.5], sa, { lr: 0.1, decoupled: false });
    opt.step([ga.asarray([1, 2], "float32"), ga.asarray([3], "float32")]);
    ha = adamStep(ha, [1, 2], sa, { lr: 0.1, decoupled: false });
    hb = adamStep(hb, [3], sb, { lr: 0.1, decoupled: false });
    const state = opt.stateDict().state;
    assert.equal(state[0]!.step, 2);
    assert.equal(state[1]!.step, 1);
    assertClose(download(a), ha, 5e-6, "parameter 0");
    assertClose(download(b), hb, 5e-6, "parameter 1");
  },
);

eachBackend(
  "optimizers take ga.grad's gradient tree and refuse a tree of another shape, naming the path",
  () => {
    const params = { fc1: { weight: ga.ones([2, 3]), bias: ga.zeros([2]) }, scale: 2 };
    const opt = new optim.AdamW(params, { lr: 0.01 });
    const loss = (p: typeof params) => ga.square(p.fc1.weight).sum([0, 1]).add(p.fc1.bias.sum(0));
    const grads = ga.grad(loss)(params);
    opt.step(grads);
    assert.ok(Math.abs(download(params.fc1.weight)[0]! - (1 - 0.01 * 0.01 - 0.01)) < 1e-6);
    assert.throws(
      () => opt.step({ fc1: { weight: ga.ones([3, 2]), bias: ga.ones([2]) } }),
      (e: Error) =>
        e instanceof TypeError && /fc1\.weight/.test(e.message) && /\(2, 3\)|\[2, 3\]/.test(e.message),
    );
    assert.throws(
      () => opt.step({ fc1: { weight: ga.ones([2, 3]) } }),
      /at fc1\.bias: the gradients have no such entry/,
    );
    assert.throws(() => opt.step({ fc1: [ga.ones([2, 3])] }), /at fc1: the parameters have an object/);
    assert.throws(
      () => opt.step({ ...grads, extra: ga.ones([1]) }),
      /at extra: the parameters have no such entry/,
    );
    assert.throws(() => opt.step({ fc1: { weight: ga.ones([2, 3], "int32"), bias: ga.ones([2]) } }), /int32/);
  },
);

eachBackend("optimizers refuse bad parameters and hyperparameters with the reason", () => {
  const w = ga.ones([3]);
  assert.throws(() => new optim.SGD({}), /hold no array/);
  assert.throws(() => new optim.SGD([w, w]), /the same array is parameter 0 and 1/);
  assert.throws(() => new optim.SGD([ga.ones([2], "int32")]), /parameter 0 is int32/);
  assert.throws(() => new optim.SGD([w], { lr: -1 }), RangeError);
  assert.throws(() => new optim.SGD([w], { nesterov: true }), /Nesterov momentum needs a momentum > 0/);
  assert.throws(() => new optim.Adam([w], { betas: [1, 0.9] }), /betas\[0\] must be in \[0, 1\)/);
  assert.throws(() => new optim.Adam([w], { learningRate: 0.1 } as never), /option "learningRate"/);
  assert.throws(() => new optim.RMSprop([w], { weight_decay: 0.1 } as never), /the options are/);
  const opt = new optim.Adam([w]);
  assert.throws(() => opt.loadStateDict(new optim.Adam([w, ga.ones([2])]).stateDict()), /for 2 parameters/);
});
