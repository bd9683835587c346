import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { rng } from "./_reference.ts";

/** The least-squares fit of `y ≈ X w + b` on the host: the normal equations by Gauss–Jordan elimination. */
function leastSquares(x: readonly number[][], y: readonly number[]): number[] {
  const k = x[0]!.length + 1;
  const a = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  x.forEach((row, r) => {
    const full = [...row, 1];
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) a[i]![j]! += full[i]! * full[j]!;
      a[i]![k]! += full[i]! * y[r]!;
    }
  });
  for (let i = 0; i < k; i++) {
    for (let r = 0; r < k; r++) {
      if (r === i) continue;
      const f = a[r]![i]! / a[i]![i]!;
      for (let c = 0; c <= k; c++) a[r]![c]! -= f * a[i]![c]!;
    }
  }
  return a.map((row, i) => row[k]! / row[i]!);
}

eachBackend("Adam with ga.valueAndGrad fits a linear regression to the least-squares solution", () => {
  const random = rng(3), n = 128, features = 3;
  const xs = Array.from({ length: n }, () => Array.from({ length: features }, () => 2 * random() - 1));
  const ys = xs.map((row) => 2 * row[0]! - 3 * row[1]! + 0.5 * row[2]! + 4 + 0.1 * (2 * random() - 1));
  const x = ga.asarray(xs, "float32"), y = ga.asarray(ys, "float32");
  const params = { w: ga.zeros([features]), b: ga.zeros([]) };
  const loss = (p: typeof params) => ga.mean(ga.square(ga.matmul(x, p.w).add(p.b).sub(y)));
  const opt = new optim.Adam(params, { lr: 0.1 });
  const steps = 400;
  const schedule = new optim.CosineAnnealingLR(opt, steps);
  const valueAndGrad = ga.valueAndGrad(loss);
  let first = NaN, last = NaN;
  for (let i = 0; i < steps; i++) {
    const [value, grads] = valueAndGrad(params);
    if (i === 0) first = Number(value);
    if (i === steps - 1) last = Number(value);
    opt.step(grads);
    schedule.step();
    for (const a of [value, grads.w, grads.b]) a.free();
  }
  const exact = leastSquares(xs, ys);
  const fitted = [...Array.from(params.w.get() as Float32Array), (params.b.get() as Float32Array)[0]!];
  fitted.forEach((v, i) =>
    assert.ok(Math.abs(v - exact[i]!) < 2e-5, `coefficient ${i}: ${v}, want ${exact[i]}`)
  );
  assert.ok(last < first / 1000, `the loss went from ${first} to ${last}`);
});
