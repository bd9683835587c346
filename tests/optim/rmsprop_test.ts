import * as optim from "../../src/optim/mod.ts";
import { checkTrajectory, eachBackendWith, rmspropStep } from "./_reference.ts";

const CASES = [
  {},
  { lr: 0.01, weightDecay: 0.1 },
  { lr: 0.01, momentum: 0.9 },
  { lr: 0.01, centered: true, alpha: 0.9 },
  { lr: 0.005, centered: true, momentum: 0.5, weightDecay: 0.01, eps: 1e-4 },
  { lr: 0.01, alpha: 0.3 }, // 1 - alpha > 0.5: lerp's other branch
];

for (const dtype of ["float32", "float64"] as const) {
  eachBackendWith(
    dtype,
    `RMSprop.step() of 60 ${dtype} parameters matches PyTorch's RMSprop in float64 on the host`,
    (backend) => {
      CASES.forEach((o, c) => {
        checkTrajectory(
          (p) => new optim.RMSprop(p, o),
          (p, g, s) => rmspropStep(p, g, s, { lr: 1e-2, ...o }),
          {
            dtype,
            steps: 5,
            tol: dtype === "float32" ? 5e-6 : 1e-12,
            seed: 200 + c,
            what: `RMSprop ${JSON.stringify(o)} [${backend}]`,
          },
        );
      });
    },
  );
}
