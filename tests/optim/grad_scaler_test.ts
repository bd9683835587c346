import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";

eachBackend("GradScaler divides the scaled loss's gradients by the scale before the optimizer's step", () => {
  const params = { w: ga.asarray([1, 2, 3]) }, x = ga.asarray([0.5, -1, 2]);
  const scaler = new optim.GradScaler({ initScale: 1024 });
  const opt = new optim.SGD(params, { lr: 0.1 });
  const [loss, grads] = ga.valueAndGrad((p: typeof params) => scaler.scale(ga.sum(p.w.mul(p.w).mul(x), 0)))(
    params,
  );
  assert.equal(Number(loss), 1024 * (0.5 - 4 + 18));
  assert.equal(scaler.step(opt, grads), true);
  // d/dw of Σ w²x is 2wx: [1, -4, 12]; SGD moves w by -0.1 of it.
  assert.deepEqual(Array.from(grads.w.get() as Float32Array), [1, -4, 12]);
  assert.deepEqual(Array.from(params.w.get() as Float32Array).map((v) => +v.toFixed(5)), [0.9, 2.4, 1.8]);
  scaler.update();
  assert.equal(scaler.getScale(), 1024);
});

eachBackend(
  "GradScaler skips a step whose gradients overflow, halves the scale, and grows it after good steps",
  () => {
    const params = { w: ga.asarray([1, 2]) };
    const opt = new optim.SGD(params, { lr: 0.1 });
    const scaler = new optim.GradScaler({ initScale: 8, growthInterval: 2 });
    const step = (x: ga.GPUArray) => {
      const [, grads] = ga.valueAndGrad((p: typeof params) => scaler.scale(ga.sum(p.w.mul(x), 0)))(params);
      const stepped = scaler.step(opt, grads);
      scaler.update();
      return stepped;
    };
    assert.equal(step(ga.asarray([Infinity, 1])), false, "an infinite gradient skips the step");
    assert.deepEqual(Array.from(params.w.get() as Float32Array), [1, 2], "the parameters are unchanged");
    assert.equal(scaler.getScale(), 4);
    assert.equal(step(ga.asarray([NaN, 1])), false, "so does a NaN");
    assert.equal(scaler.getScale(), 2);
    assert.equal(step(ga.asarray([1, 1])), true);
    assert.equal(scaler.getScale(), 2, "one good step is not yet the interval");
    assert.equal(step(ga.asarray([1, 1])), true);
    assert.equal(scaler.getScale(), 4, "two good steps double it");
    assert.deepEqual(Array.from(params.w.get() as Float32Array).map((v) => +v.toFixed(5)), [0.8, 1.8]);
  },
);

eachBackend("GradScaler names its misuse: bad options, unscaling twice, updating before a step", () => {
  assert.throws(() => new optim.GradScaler({ initScale: 0 }), { name: "RangeError", message: /initScale 0/ });
  assert.throws(() => new optim.GradScaler({ growthFactor: 0.5 }), {
    name: "RangeError",
    message: /growth must be > 1/,
  });
  assert.throws(() => new optim.GradScaler({ scale: 2 } as never), { name: "TypeError", message: /scale/ });
  const scaler = new optim.GradScaler();
  assert.throws(() => scaler.update(), { name: "TypeError", message: /before a step/ });
  const grads = { w: ga.ones([2]) };
  scaler.unscale(grads);
  assert.throws(() => scaler.unscale(grads), { name: "TypeError", message: /twice in one step/ });
});
