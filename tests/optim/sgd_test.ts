import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { checkTrajectory, eachBackendWith, sgdStep } from "./_reference.ts";

const CASES = [
  { lr: 0.1 },
  { lr: 0.05, weightDecay: 0.01 },
  { lr: 0.05, momentum: 0.9 },
  { lr: 0.05, momentum: 0.9, dampening: 0.3, weightDecay: 0.02 },
  { lr: 0.05, momentum: 0.8, nesterov: true, weightDecay: 0.01 },
  { lr: 0.05, momentum: 0.9, maximize: true },
] as const;

for (const dtype of ["float32", "float64"] as const) {
  eachBackendWith(
    dtype,
    `SGD.step() of 60 ${dtype} parameters matches PyTorch's SGD in float64 on the host`,
    (backend) => {
      CASES.forEach((o, c) => {
        checkTrajectory((p) => new optim.SGD(p, o), (p, g, s) => sgdStep(p, g, s, o), {
          dtype,
          steps: 4,
          tol: dtype === "float32" ? 2e-6 : 1e-13,
          seed: 10 + c,
          what: `SGD ${JSON.stringify(o)} [${backend}]`,
        });
      });
    },
  );
}

eachBackend("SGD: a momentum set after the first steps starts its buffer from the gradient", () => {
  const w = ga.asarray([1, 2], "float32");
  const opt = new optim.SGD([w], { lr: 0.1 });
  opt.step([ga.asarray([1, 1], "float32")]);
  opt.momentum = 0.5; // as OneCycleLR sets it
  const state = {};
  let host = [0.9, 1.9];
  for (const g of [[2, -1], [1, 3]]) {
    opt.step([ga.asarray(g, "float32")]);
    host = sgdStep(host, g, state, { lr: 0.1, momentum: 0.5 });
  }
  const got = Array.from(w.get() as Float32Array);
  got.forEach((x, i) => {
    if (Math.abs(x - host[i]!) > 1e-6) throw new Error(`element ${i}: ${x}, want ${host[i]}`);
  });
});
