import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as optim from "../../src/optim/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, download, eachBackendWith, randomValues, rng, SHAPES, upload } from "./_reference.ts";

/** The host's clip_grad_norm_: the norm of the per-gradient norms, and the clipped gradients. */
function hostClip(grads: readonly number[][], maxNorm: number, p: number): [number, number[][]] {
  const norms = grads.map((g) =>
    p === Infinity ? Math.max(0, ...g.map(Math.abs)) : g.reduce((s, x) => s + Math.abs(x) ** p, 0) ** (1 / p)
  );
  const total = p === Infinity ? Math.max(...norms) : norms.reduce((s, n) => s + n ** p, 0) ** (1 / p);
  const coef = Math.min(1, maxNorm / (total + 1e-6));
  return [total, grads.map((g) => g.map((x) => x * coef))];
}

for (const dtype of ["float32", "float64"] as const) {
  eachBackendWith(
    dtype,
    `clipGradNorm() of 60 ${dtype} gradients matches PyTorch's clip_grad_norm_ on the host`,
    () => {
      const random = rng(5);
      for (const [p, maxNorm] of [[2, 1], [1, 3], [Infinity, 0.5], [3, 2], [2, 1e6]] as const) {
        const host = SHAPES.map((s) => randomValues(random, s.reduce((a, b) => a * b, 1), dtype));
        const arrays = host.map((v, i) => upload(v, SHAPES[i]!, dtype));
        const tree = { a: arrays.slice(0, 30), b: { rest: arrays.slice(30) } };
        const norm = optim.clipGradNorm(tree, maxNorm, { normType: p });
        const [total, clipped] = hostClip(host, maxNorm, p);
        const tol = dtype === "float32" ? 2e-6 : 1e-13;
        assert.equal(norm.dtype, dtype);
        assertClose([Number(norm)], [total], tol, `norm of order ${p}`);
        arrays.forEach((a, i) => assertClose(download(a), clipped[i]!, tol, `order ${p}, gradient ${i}`));
      }
    },
  );
}

eachBackend("clipGradNorm() scales strided and 0-d gradients in place and returns 0 for none", () => {
  const whole = ga.asarray([[3, 0], [4, 0]], "float32");
  const column = whole.slice([], [0]), scalar = ga.asarray(12, "float32");
  const norm = optim.clipGradNorm([column, scalar], 6.5);
  assert.ok(Math.abs(Number(norm) - 13) < 1e-5);
  assertClose(download(whole), [1.5, 0, 2, 0], 1e-6, "strided gradient");
  assertClose(download(scalar), [6], 1e-6, "0-d gradient");
  assert.equal(Number(optim.clipGradNorm({}, 1)), 0);
});

eachBackend("clipGradNorm() with errorIfNonfinite refuses a NaN norm and leaves the gradients", () => {
  const g = ga.asarray([1, NaN, 2], "float32"), h = ga.asarray([4], "float32");
  assert.throws(
    () => optim.clipGradNorm([g, h], 1, { errorIfNonfinite: true }),
    /total norm of order 2 .* is NaN/,
  );
  assert.deepEqual(download(h), [4]);
  assert.ok(Number.isNaN(Number(optim.clipGradNorm([g, h], 1))));
  assert.ok(Number.isNaN(download(h)[0]!)); // scaled by the NaN norm, as PyTorch does
  assert.throws(() => optim.clipGradNorm([h], 1, { normType: 0 }), /normType 0: pass a number > 0/);
  assert.throws(() => optim.clipGradNorm([ga.ones([2], "int32")], 1), /int32 gradient/);
});
