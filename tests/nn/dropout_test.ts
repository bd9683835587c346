import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, randomPair, rng, values } from "./_host.ts";

/** The host mask of `dropout(p, seed, offset)`: element i is kept where uniform number 4·offset + i < 1 - p. */
function hostMask(n: number, p: number, seed: number, offset: number): boolean[] {
  const u = values(ga.random.uniform([4 * offset + n], { seed }));
  return u.slice(4 * offset).map((v) => v < Math.fround(1 - p));
}

eachBackend(
  "dropout() with a seed and offset keeps the elements whose Philox numbers are below 1 - p, scaled by 1/(1-p)",
  () => {
    const random = rng(5);
    const [x, hx] = randomPair([40, 25], random);
    for (const [p, offset] of [[0.5, 0], [0.2, 0], [0.7, 3]] as const) {
      const keep = hostMask(1000, p, 9, offset);
      const want = Array.from(hx.data, (v, i) => (keep[i] ? v / (1 - p) : 0));
      assertClose(nn.dropout(x, { p, seed: 9, offset }), want, 1e-15, `dropout p ${p} offset ${offset}`);
      const kept = keep.filter(Boolean).length / 1000;
      assert.ok(Math.abs(kept - (1 - p)) < 0.05, `p ${p}: kept ${kept}`);
    }
    // p by position is the same call; float32 input gets the same mask.
    assert.deepEqual(values(nn.dropout(x, 0.5, { seed: 9 })), values(nn.dropout(x, { p: 0.5, seed: 9 })));
    const mask32 = values(nn.dropout(ga.ones([1000]), { p: 0.3, seed: 9 })).map((v) => v !== 0);
    assert.deepEqual(mask32, hostMask(1000, 0.3, 9, 0));
    // Successive offsets continue the stream: 1000 elements use 250 counters.
    const two = values(nn.dropout(ga.ones([2000]), { p: 0.3, seed: 9 })).map((v) => v !== 0);
    assert.deepEqual(
      two.slice(1000),
      values(nn.dropout(ga.ones([1000]), { p: 0.3, seed: 9, offset: 250 })).map((v) => v !== 0),
    );
  },
);

eachBackend(
  "dropout() passes the input through in evaluation and at p 0, zeroes it at p 1, and its gradient is the mask",
  () => {
    const random = rng(6);
    const [x] = randomPair([8, 8], random);
    assert.equal(nn.dropout(x, { p: 0.5, training: false }), x);
    assert.equal(nn.dropout(x, { p: 0 }), x);
    assert.ok(values(nn.dropout(x, { p: 1 })).every((v) => v === 0));
    const keep = hostMask(64, 0.25, 3, 0);
    const g = ga.grad((x: ga.GPUArray) => ga.sum(nn.dropout(x, { p: 0.25, seed: 3 }), [0, 1]))(x);
    assert.deepEqual(values(g), keep.map((k) => (k ? 1 / 0.75 : 0)));
  },
);

eachBackend(
  "dropout() from a generator moves it on, and the Dropout layer draws a new mask each call",
  () => {
    const gen = ga.random.defaultRng(11);
    const a = values(nn.dropout(ga.ones([16]), { p: 0.5, generator: gen }));
    const b = values(nn.dropout(ga.ones([16]), { p: 0.5, generator: gen }));
    assert.deepEqual(a.map((v) => v !== 0), hostMask(16, 0.5, 11, 0));
    assert.deepEqual(b.map((v) => v !== 0), hostMask(16, 0.5, 11, 4)); // 16 float32 numbers use 4 counters
    const layer = new nn.Dropout(0.5, { seed: 11 });
    const first = values(layer.forward(ga.ones([16]))).map((v) => v !== 0);
    const second = values(layer.forward(ga.ones([16]))).map((v) => v !== 0);
    assert.deepEqual(first, hostMask(16, 0.5, 11, 0));
    assert.deepEqual(second, hostMask(16, 0.5, 11, 4));
    const x = ga.ones([4]);
    assert.equal(layer.eval().forward(x), x);
    assert.throws(() => nn.dropout(x, { p: 1.5 }), /p 1.5: pass a number from 0 to 1/);
    assert.throws(() => nn.dropout(x, { generator: gen, seed: 1 }), /both a generator and a seed/);
    assert.throws(() => nn.dropout(x, { offset: 3 }), /an offset but no seed/);
    assert.throws(() => nn.dropout(x, 0.5, { p: 0.5 }), /p given twice/);
  },
);
