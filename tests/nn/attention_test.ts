import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, Host, randomPair, rng, values, weightedSum } from "./_host.ts";

/** softmax(q·kᵀ·scale + bias)·v for [B, L, E], [B, S, E], [B, S, Ev] on the host; `bias(l, s)` adds to a score. */
function attentionHost(
  q: Host,
  k: Host,
  v: Host,
  scale: number,
  bias: (b: number, l: number, s: number) => number,
): Host {
  const [nb, nl, ne] = q.shape as [number, number, number];
  const [, ns, nv] = v.shape as [number, number, number];
  const out = Host.zeros([nb, nl, nv]);
  for (let b = 0; b < nb; b++) {
    for (let l = 0; l < nl; l++) {
      const scores = Array.from({ length: ns }, (_, s) => {
        let dot = 0;
        for (let e = 0; e < ne; e++) dot += q.get(b, l, e) * k.get(b, s, e);
        return dot * scale + bias(b, l, s);
      });
      const m = Math.max(...scores), w = scores.map((x) => Math.exp(x - m));
      const total = w.reduce((a, x) => a + x, 0);
      for (let j = 0; j < nv; j++) {
        out.set(w.reduce((a, x, s) => a + (x / total) * v.get(b, s, j), 0), b, l, j);
      }
    }
  }
  return out;
}

eachBackend(
  "scaledDotProductAttention() with no mask, isCausal, a bool mask and a float mask matches the float64 host reference",
  () => {
    const random = rng(21);
    const [q, hq] = randomPair([2, 4, 3], random, -2, 2);
    const [k, hk] = randomPair([2, 5, 3], random, -2, 2);
    const [v, hv] = randomPair([2, 5, 2], random);
    const scale = 1 / Math.sqrt(3);
    assertClose(
      nn.scaledDotProductAttention(q, k, v),
      attentionHost(hq, hk, hv, scale, () => 0),
      1e-13,
      "no mask",
    );
    // Causal over [L, S] = [4, 5]: query l sees keys 0..l.
    const causal = (_: number, l: number, s: number) => (s <= l ? 0 : -Infinity);
    assertClose(
      nn.scaledDotProductAttention(q, k, v, { isCausal: true }),
      attentionHost(hq, hk, hv, scale, causal),
      1e-13,
      "isCausal",
    );
    const keep = [[true, false, true, true, false], [false, true, true, false, true], [
      true,
      true,
      true,
      true,
      true,
    ], [false, false, false, false, true]];
    const mask = ga.asarray(keep, "bool");
    const boolBias = (_: number, l: number, s: number) => (keep[l]![s] ? 0 : -Infinity);
    assertClose(
      nn.scaledDotProductAttention(q, k, v, { attnMask: mask, scale: 0.7 }),
      attentionHost(hq, hk, hv, 0.7, boolBias),
      1e-13,
      "bool mask, scale 0.7",
    );
    const [f, hf] = randomPair([2, 1, 5], random, -1, 1);
    assertClose(
      nn.scaledDotProductAttention(q, k, v, { attnMask: f }),
      attentionHost(hq, hk, hv, scale, (b, _, s) => hf.get(b, 0, s)),
      1e-13,
      "float mask [B, 1, S]",
    );
    // Heads: leading axes broadcast.
    assert.deepEqual(
      nn.scaledDotProductAttention(ga.zeros([2, 3, 4, 8]), ga.zeros([1, 3, 6, 8]), ga.zeros([2, 1, 6, 5]))
        .shape,
      [2, 3, 4, 5],
    );
  },
);

eachBackend(
  "scaledDotProductAttention()'s gradients match central finite differences, and dropout uses nn.dropout's mask",
  () => {
    const random = rng(22);
    const [q] = randomPair([2, 4, 3], random),
      [k] = randomPair([2, 4, 3], random),
      [v] = randomPair([2, 4, 2], random);
    const [r] = randomPair([2, 4, 2], random);
    checkGrad(
      (q, k, v) => weightedSum(nn.scaledDotProductAttention(q, k, v, { isCausal: true }), r),
      [q, k, v],
      [0, 1, 2],
      random,
      "attention",
    );
    const [f] = randomPair([4, 4], random);
    checkGrad(
      (q, k, v, m) => weightedSum(nn.scaledDotProductAttention(q, k, v, { attnMask: m }), r),
      [q, k, v, f],
      [0, 1, 2, 3],
      random,
      "attention with a float mask",
    );
    const dropped = nn.scaledDotProductAttention(q, k, v, { dropoutP: 0.5, seed: 4 });
    const scores = ga.softmax(ga.matmul(q, k.swapaxes(-1, -2)).mul(1 / Math.sqrt(3)), -1);
    const want = ga.matmul(nn.dropout(scores, { p: 0.5, seed: 4 }), v);
    assertClose(dropped, values(want), 1e-14, "attention dropout");
  },
);

eachBackend("scaledDotProductAttention() names the shapes that do not fit", () => {
  const q = ga.zeros([2, 4, 3]), k = ga.zeros([2, 5, 3]), v = ga.zeros([2, 5, 2]);
  assert.throws(
    () => nn.scaledDotProductAttention(q, ga.zeros([2, 5, 4]), v),
    /query \[2, 4, 3\], key \[2, 5, 4\] and value \[2, 5, 2\]: query and key must share their last extent/,
  );
  assert.throws(
    () => nn.scaledDotProductAttention(q, k, ga.zeros([2, 6, 2])),
    /key and value their second to last/,
  );
  assert.throws(
    () => nn.scaledDotProductAttention(q, k, v, { attnMask: ga.zeros([3, 5]) }),
    /attnMask of shape \[3, 5\]: it must broadcast to the scores' shape \[2, 4, 5\]/,
  );
  assert.throws(
    () => nn.scaledDotProductAttention(q, k, v, { isCausal: true, attnMask: ga.zeros([4, 5]) }),
    /both isCausal and an attnMask/,
  );
});
