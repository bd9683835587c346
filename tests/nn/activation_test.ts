import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, erf, Host, randomPair, rng, values, weightedSum } from "./_host.ts";

const map = (h: Host, f: (x: number) => number) => new Host(h.shape, h.data.map(f));
const sigmoidHost = (x: number) => 1 / (1 + Math.exp(-x));

eachBackend(
  "relu, gelu, silu, sigmoid and softplus of float64 arrays match the float64 host references",
  () => {
    const random = rng(1);
    const [x, hx] = randomPair([3, 7], random, -3, 3);
    assertClose(nn.relu(x), map(hx, (v) => Math.max(v, 0)), 1e-15, "relu");
    assertClose(nn.gelu(x), map(hx, (v) => 0.5 * v * (1 + erf(v / Math.SQRT2))), 1e-13, "gelu");
    const tanhGelu = (v: number) =>
      0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));
    assertClose(nn.gelu(x, { approximate: "tanh" }), map(hx, tanhGelu), 1e-13, "gelu tanh");
    assertClose(nn.sigmoid(x), map(hx, sigmoidHost), 1e-14, "sigmoid");
    assertClose(nn.silu(x), map(hx, (v) => v * sigmoidHost(v)), 1e-14, "silu");
    assertClose(nn.softplus(x), map(hx, (v) => Math.log1p(Math.exp(v))), 1e-14, "softplus");
    // beta 2, threshold 1: the linear region starts where 2x > 1.
    const sp = (v: number) => (2 * v > 1 ? v : Math.log1p(Math.exp(2 * v)) / 2);
    assertClose(nn.softplus(x, { beta: 2, threshold: 1 }), map(hx, sp), 1e-14, "softplus beta 2 threshold 1");
  },
);

eachBackend("activations stay finite, with finite gradients, for logits of ±1000", () => {
  const x = ga.asarray([-1000, -50, 50, 1000], "float64");
  for (const [name, f] of [["sigmoid", nn.sigmoid], ["silu", nn.silu], ["softplus", nn.softplus]] as const) {
    const y = values(f(x)), g = values(ga.grad((x: ga.GPUArray) => ga.sum(f(x), [0]))(x));
    assert.ok([...y, ...g].every(Number.isFinite), `${name}: ${y} ${g}`);
  }
  const want = [0, sigmoidHost(-50), sigmoidHost(50), 1];
  values(nn.sigmoid(x)).forEach((v, i) => {
    assert.ok(Math.abs(v - want[i]!) <= 1e-14 * Math.abs(want[i]!), `sigmoid [${i}]: ${v}, want ${want[i]}`);
  });
});

eachBackend("gradients of the activations match central finite differences in float64", () => {
  const random = rng(2);
  const [x] = randomPair([4, 5], random, -3, 3);
  const [w] = randomPair([4, 5], random);
  const cases: [string, (x: ga.GPUArray) => ga.GPUArray][] = [
    ["relu", nn.relu],
    ["gelu", (x) => nn.gelu(x)],
    ["gelu tanh", (x) => nn.gelu(x, { approximate: "tanh" })],
    ["silu", nn.silu],
    ["sigmoid", nn.sigmoid],
    ["softplus beta 1.5", (x) => nn.softplus(x, { beta: 1.5, threshold: 2 })],
  ];
  for (const [name, f] of cases) checkGrad((x) => weightedSum(f(x), w), [x], [0], random, name);
  // relu's gradient is 1 above 0 and 0 at and below (PyTorch's).
  const d = ga.grad((x: ga.GPUArray) => ga.sum(nn.relu(x), [0]))(ga.asarray([-1, 0, 2], "float64"));
  assert.deepEqual(values(d), [0, 0, 1]);
});

eachBackend("activations refuse integer inputs and unknown options, naming them", () => {
  assert.throws(
    () => nn.relu(ga.arange(3, "int32")),
    /relu: input has dtype int32; it must be a float array/,
  );
  assert.throws(() => nn.gelu(ga.zeros([2]), { approximate: "erf" as "tanh" }), /approximate "erf"/);
  assert.throws(() => nn.softplus(ga.zeros([2]), { beta: 0 }), /beta 0: pass a finite number above 0/);
  assert.throws(() => nn.gelu(ga.zeros([2]), { approx: "tanh" } as never), /option "approx"/);
  assert.throws(() => new nn.GELU({ approximate: "fast" as "tanh" }), /approximate "fast"/);
  assertClose(
    new nn.GELU({ approximate: "tanh" }).forward(ga.zeros([2], "float64")),
    [0, 0],
    0,
    "GELU layer",
  );
  assertClose(new nn.ReLU().forward(ga.asarray([-1, 2], "float64")), [0, 2], 0, "ReLU layer");
});
