import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, Host, randomPair, rng, weightedSum } from "./_host.ts";

eachBackend(
  "linear() of a batch matches the float64 host reference x·Wᵀ + b, and its gradients finite differences",
  () => {
    const random = rng(3);
    const [x, hx] = randomPair([2, 3, 5], random);
    const [w, hw] = randomPair([4, 5], random);
    const [b, hb] = randomPair([4], random);
    const want = Host.zeros([2, 3, 4]);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 3; j++) {
        for (let o = 0; o < 4; o++) {
          let s = hb.get(o);
          for (let k = 0; k < 5; k++) s += hx.get(i, j, k) * hw.get(o, k);
          want.set(s, i, j, o);
        }
      }
    }
    assertClose(nn.linear(x, w, b), want, 1e-13, "linear");
    const noBias = new Host(want.shape, want.data.map((v, i) => v - hb.data[i % 4]!));
    assertClose(nn.linear(x, w), noBias, 1e-13, "linear without bias");
    const [r] = randomPair([2, 3, 4], random);
    checkGrad((x, w, b) => weightedSum(nn.linear(x, w, b), r), [x, w, b], [0, 1, 2], random, "linear");
  },
);

eachBackend("linear() names the shapes when they do not fit", () => {
  const x = ga.zeros([2, 5]);
  assert.throws(
    () => nn.linear(x, ga.zeros([5, 4])),
    /input of shape \[2, 5\] with weight of shape \[5, 4\]: the input's last extent must be 4/,
  );
  assert.throws(
    () => nn.linear(x, ga.zeros([4, 5]), ga.zeros([5])),
    /bias has shape \[5\]; it must be \[4\]/,
  );
  assert.throws(
    () => nn.linear(x, ga.zeros([4, 5, 1])),
    /weight has shape \[4, 5, 1\]; it must be \[out, in\]/,
  );
  assert.throws(() => nn.linear([[1]] as never, ga.zeros([1, 1])), /input must be a GPUArray, not a list/);
});

eachBackend("embedding() picks rows as the host reference, and paddingIdx's row gets no gradient", () => {
  const random = rng(4);
  const [w, hw] = randomPair([6, 3], random);
  const ids = [[1, 5, 0], [2, 2, 4]];
  const want = new Host(
    [2, 3, 3],
    Float64Array.from(ids.flat().flatMap((i) => [0, 1, 2].map((j) => hw.get(i, j)))),
  );
  const tokens = ga.asarray(ids, "int64");
  assertClose(nn.embedding(tokens, w), want, 0, "embedding");
  const [r, hr] = randomPair([2, 3, 3], random);
  checkGrad((w) => weightedSum(nn.embedding(tokens, w), r), [w], [0], random, "embedding");
  // The gradient of row i is the sum of the weights of the positions that read it; row 2 is read twice.
  const g = ga.grad((w: ga.GPUArray) => weightedSum(nn.embedding(tokens, w, { paddingIdx: 2 }), r))(w);
  const wantG = Host.zeros([6, 3]);
  ids.flat().forEach((i, p) => {
    if (i === 2) return;
    for (let j = 0; j < 3; j++) wantG.set(wantG.get(i, j) + hr.data[p * 3 + j]!, i, j);
  });
  assertClose(g, wantG, 1e-14, "embedding gradient with paddingIdx 2");
  assertClose(nn.embedding(tokens, w, { paddingIdx: 2 }), want, 0, "embedding with paddingIdx reads the row");
  assert.throws(
    () => nn.embedding(ga.asarray([0.5]), w),
    /input has dtype float32; it must hold integer indices/,
  );
  assert.throws(() => nn.embedding(ga.asarray([7], "int64"), w), /index 7/);
  assert.throws(
    () => nn.embedding(tokens, w, { paddingIdx: 6 }),
    /paddingIdx 6: it must be an integer from -6 to 5/,
  );
});
