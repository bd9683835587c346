import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import {
  adamStep,
  assertClose,
  checkTrajectory,
  countLaunches,
  download,
  eachBackendWith,
  type HostStep,
  SHAPES,
  storeAs,
} from "./_reference.ts";

const CASES = [
  {},
  { lr: 0.01, weightDecay: 0.1 },
  { lr: 0.02, betas: [0.8, 0.99] as [number, number], eps: 1e-6, amsgrad: true },
  { lr: 0.01, weightDecay: 0.05, amsgrad: true, maximize: true },
  { lr: 0.01, betas: [0.3, 0.9] as [number, number] }, // 1 - beta1 > 0.5: lerp's other branch
];

for (const [name, decoupled] of [["Adam", false], ["AdamW", true]] as const) {
  const make = (p: ga.Tree, o: optim.AdamOptions) => new optim[name](p, o);
  for (const dtype of ["float32", "float64"] as const) {
    eachBackendWith(
      dtype,
      `${name}.step() of 60 ${dtype} parameters matches PyTorch's ${name} in float64 on the host`,
      (backend) => {
        CASES.forEach((o, c) => {
          checkTrajectory((p) => make(p, o), (p, g, s) => adamStep(p, g, s, { lr: 1e-3, ...o, decoupled }), {
            dtype,
            steps: 5,
            tol: dtype === "float32" ? 2e-6 : 1e-12,
            seed: 100 + c,
            what: `${name} ${JSON.stringify(o)} [${backend}]`,
          });
        });
      },
    );
  }
  for (const dtype of ["float16", "bfloat16"] as const) {
    eachBackendWith(
      dtype,
      `${name}.step() of ${dtype} parameters (state in ${dtype}) matches the host reference rounded to ${dtype}`,
      (backend) => {
        const o = { lr: 0.01, weightDecay: 0.1, amsgrad: true };
        const store = storeAs(dtype);
        const reference: HostStep = (p, g, s) => adamStep(p, g, s, { ...o, decoupled }).map(store);
        checkTrajectory((p) => make(p, o), reference, {
          dtype,
          steps: 3,
          tol: dtype === "float16" ? 2e-3 : 1.6e-2,
          seed: 7,
          what: `${name} ${dtype} [${backend}]`,
        });
      },
    );
  }
}

eachBackend(
  "Adam.step() of 60 parameters takes one kernel launch per 10 parameters or more, and one writing its scalars",
  () => {
    const params = SHAPES.map((s) => ga.ones(s as number[]));
    const grads = params.map((p) => ga.fullLike(p, 0.5));
    const opt = new optim.Adam(params, { lr: 0.1, amsgrad: true });
    opt.step(grads); // the first step allocates the state
    const launches = countLaunches(params[0]!.backend, () => opt.step(grads));
    assert.ok(launches >= 2 && launches <= 7, `${launches} launches`);
    for (const p of params) assert.ok(Math.abs((p.get() as Float32Array)[0]! - 0.8) < 1e-5);
  },
);

eachBackend(
  "Adam's stateDict() resumes a run: a new optimizer loaded from it continues the host trajectory",
  () => {
    const o = { lr: 0.05, amsgrad: true, weightDecay: 0.01 };
    const grads = [[0.5, -1, 2], [1, 1, -0.5], [-2, 0.25, 1], [0.5, 0.5, 0.5]];
    const w = ga.asarray([1, 2, 3], "float32");
    const first = new optim.Adam({ w }, o);
    const state = {};
    let host = [1, 2, 3];
    for (const g of grads.slice(0, 2)) {
      first.step({ w: ga.asarray(g, "float32") });
      host = adamStep(host, g, state, { ...o, decoupled: false });
    }
    const saved = first.stateDict();
    assert.equal(saved.state[0]!.step, 2);
    assert.deepEqual(Object.keys(saved.state[0]!).sort(), ["expAvg", "expAvgSq", "maxExpAvgSq", "step"]);
    assert.equal(saved.paramGroups[0]!.lr, 0.05);
    assert.deepEqual(saved.paramGroups[0]!.params, [0]);
    const second = new optim.Adam({ w }, { lr: 1 });
    second.loadStateDict(saved);
    assert.equal(second.lr, 0.05);
    assert.equal(second.amsgrad, true);
    for (const g of grads.slice(2)) {
      second.step({ w: ga.asarray(g, "float32") });
      host = adamStep(host, g, state, { ...o, decoupled: false });
    }
    Array.from(w.get() as Float32Array).forEach((x, i) =>
      assert.ok(Math.abs(x - host[i]!) < 1e-6, `${x} vs ${host[i]}`)
    );
  },
);

eachBackend("Adam with decoupledWeightDecay steps as AdamW does (PyTorch's Adam option)", () => {
  const o = { lr: 0.05, weightDecay: 0.1 };
  const a = ga.asarray([1, -2, 3], "float32"), b = ga.asarray([1, -2, 3], "float32");
  const adam = new optim.Adam([a], { ...o, decoupledWeightDecay: true }), adamw = new optim.AdamW([b], o);
  const state = {};
  let host = [1, -2, 3];
  for (const g of [[0.5, 1, -1], [2, -0.5, 0.25]]) {
    adam.step([ga.asarray(g, "float32")]);
    adamw.step([ga.asarray(g, "float32")]);
    host = adamStep(host, g, state, { ...o, decoupled: true });
  }
  assertClose(download(a), host, 5e-6, "Adam with decoupledWeightDecay");
  assertClose(download(b), host, 5e-6, "AdamW");
  assert.equal(new optim.AdamW([b]).weightDecay, 1e-2);
  assert.throws(() => new optim.AdamW([b], { lr: -1 }), /Cannot make AdamW with lr -1/);
});
