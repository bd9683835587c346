import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { betaI, binomialPmf, chiSquarePValue, ksPValue, normalCdf } from "./_distributions_host.ts";

/** The p-value below which a distribution test fails: the seeds are fixed, so each test is one draw. */
const ALPHA = 1e-3;
const N = 20_000;

function floatTypes(): readonly ("float32" | "float64")[] {
  return ga.zeros(1).backend.supports("float64") ? ["float32", "float64"] : ["float32"];
}

eachBackend(
  "Generator.multinomial(), dirichlet() and multivariateNormal() match their host means and (co)variances",
  () => {
    if (!ga.zeros(1).backend.supports("float64")) return;
    const rng = ga.random.defaultRng(11);
    const pvals = [0.1, 0.2, 0.3, 0.4];
    const counts = rng.multinomial([5000], { n: 30, pvals });
    assert.deepEqual(counts.shape, [5000, 4]);
    const c = counts.get() as BigInt64Array;
    for (let r = 0; r < 5000; r++) {
      assert.equal(c[4 * r]! + c[4 * r + 1]! + c[4 * r + 2]! + c[4 * r + 3]!, 30n);
    }
    pvals.forEach((p, i) => {
      const column = Array.from({ length: 5000 }, (_, r) => c[4 * r + i]!);
      const pv = chiSquarePValue(column, binomialPmf(30, p), 0, 30);
      assert.ok(pv > ALPHA, `column ${i}: χ² p-value ${pv}`);
    });
    for (const dtype of floatTypes()) {
      const alpha = [0.5, 2, 3.5];
      const points = rng.dirichlet([N], { alpha, dtype });
      assert.deepEqual(points.shape, [N, 3]);
      const d = points.get() as Float32Array | Float64Array;
      for (let r = 0; r < N; r++) assert.ok(Math.abs(d[3 * r]! + d[3 * r + 1]! + d[3 * r + 2]! - 1) < 1e-5);
      alpha.forEach((a, i) => {
        const marginal = Array.from({ length: N }, (_, r) => d[3 * r + i]!);
        const p = ksPValue(marginal, (x) => betaI(a, 6 - a, x));
        assert.ok(p > ALPHA, `dirichlet ${dtype} component ${i}: KS p-value ${p}`);
      });
      const tiny = rng.dirichlet([1000], { alpha: [0.001, 0.001], dtype }).get();
      assert.ok(
        tiny.every((v) => v >= 0 && v <= 1),
        `dirichlet ${dtype} of tiny alphas gave NaN or values outside [0, 1]`,
      );

      const mean = [1, -2, 0.5];
      const cov = [[2, 0.6, 0], [0.6, 1, -0.3], [0, -0.3, 0.5]];
      const x = rng.multivariateNormal([N], { mean, cov, dtype });
      assert.deepEqual(x.shape, [N, 3]);
      const v = x.get() as Float32Array | Float64Array;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          let s = 0;
          for (let r = 0; r < N; r++) s += (v[3 * r + i]! - mean[i]!) * (v[3 * r + j]! - mean[j]!);
          const want = cov[i]![j]!, tol = 5 * Math.sqrt((cov[i]![i]! * cov[j]![j]! + want * want) / N);
          assert.ok(Math.abs(s / N - want) < tol, `${dtype} cov[${i}][${j}] = ${s / N}, want ${want}`);
        }
        const p = ksPValue(
          Array.from({ length: N }, (_, r) => v[3 * r + i]!),
          (y) => normalCdf((y - mean[i]!) / Math.sqrt(cov[i]![i]!)),
        );
        assert.ok(p > ALPHA, `${dtype} marginal ${i}: KS p-value ${p}`);
      }
      // A singular covariance: the second coordinate is twice the first.
      const line = rng.multivariateNormal([100], {
        mean: [0, 0],
        cov: ga.asarray([[1, 2], [2, 4]], "float64"),
        dtype,
      }).get();
      for (let r = 0; r < 100; r++) {
        assert.ok(Math.abs(line[2 * r + 1]! - 2 * line[2 * r]!) < 1e-4 * (1 + Math.abs(line[2 * r]!)));
      }
    }
  },
);

eachBackend(
  "Generator.permutation(), shuffle() and choice() permute, choose and weigh as the host counts say",
  () => {
    const rng = ga.random.defaultRng(3);
    const n = 10_000;
    const perm = Array.from(rng.permutation(n).get() as BigInt64Array, Number);
    assert.deepEqual([...perm].sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i));
    // Where each value lands: a 10 × 10 table of (position decile, value decile), 100 expected per cell.
    const table = new Array(100).fill(0);
    perm.forEach((v, i) => table[Math.floor(i / 1000) * 10 + Math.floor(v / 1000)]++);
    const chi2 = table.reduce((s, o) => s + (o - 100) ** 2 / 100, 0);
    assert.ok(chi2 < 160, `position/value χ² = ${chi2} (81 degrees of freedom)`);

    const grid = ga.arange(24, "int32").reshape(4, 6);
    const columns = rng.permutation(grid, 1).get() as Int32Array;
    const order = Array.from({ length: 6 }, (_, j) => columns[j]!);
    assert.deepEqual([...order].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5]);
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 6; j++) assert.equal(columns[i * 6 + j], 6 * i + order[j]!);
    }
    const deck = ga.arange(52, "int32");
    rng.shuffle(deck);
    const shuffled = [...(deck.get() as Int32Array)];
    assert.notDeepEqual(shuffled, Array.from({ length: 52 }, (_, i) => i));
    assert.deepEqual([...shuffled].sort((a, b) => a - b), Array.from({ length: 52 }, (_, i) => i));
    const rows = ga.arange(12, "int32").reshape(4, 3);
    rng.shuffle(rows, { axis: 0 });
    const r = rows.get() as Int32Array;
    for (let i = 0; i < 4; i++) {
      assert.deepEqual([
        r[3 * i + 1]! - r[3 * i]!,
        r[3 * i + 2]! - r[3 * i]!,
        r[3 * i]! % 3,
      ], [1, 2, 0]);
    }

    const p = [0.1, 0, 0.45, 0.05, 0.4];
    const picks = rng.choice(5, [N], { p }).get() as BigInt64Array;
    const pv = chiSquarePValue(picks, (k) => p[k] ?? 0, 0, 4);
    assert.ok(pv > ALPHA, `choice with p: χ² p-value ${pv}`);
    assert.ok(!picks.includes(1n));
    const uniform = rng.choice(7, [N]).get() as BigInt64Array;
    assert.ok(chiSquarePValue(uniform, () => 1 / 7, 0, 6) > ALPHA);
    const hand = Array.from(
      rng.choice(ga.arange(100, "int32").mul(2), [2, 5], { replace: false }).get() as Int32Array,
    );
    assert.equal(new Set(hand).size, 10);
    assert.ok(hand.every((v) => v % 2 === 0 && v >= 0 && v < 200));
    const rowsChosen = rng.choice(ga.arange(12, "int32").reshape(3, 4), [5], { axis: 1 });
    assert.deepEqual(rowsChosen.shape, [3, 5]);

    // Without replacement and with p, a draw of two is successive sampling: P(i, j) = p_i p_j / (1 − p_i).
    const w = [0.5, 0.3, 0.2, 0];
    const pairs = new Map<string, number>();
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const [i, j] = Array.from(rng.choice(4, [2], { replace: false, p: w }).get() as BigInt64Array, Number);
      pairs.set(`${i},${j}`, (pairs.get(`${i},${j}`) ?? 0) + 1);
    }
    let chi = 0, cells = 0;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        if (i === j) continue;
        const e = trials * w[i]! * w[j]! / (1 - w[i]!);
        chi += ((pairs.get(`${i},${j}`) ?? 0) - e) ** 2 / e;
        cells++;
      }
    }
    assert.equal([...pairs.values()].reduce((a, b) => a + b, 0), trials);
    assert.ok(chi < 20.5, `successive sampling χ² = ${chi} (${cells - 1} degrees of freedom)`); // p ≈ 0.001
  },
);
