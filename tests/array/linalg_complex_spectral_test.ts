/**
 * The spectral decompositions of complex matrices (`eigh`, `eigvalsh`, `svd`, `svdvals`) and what stands
 * on the SVD (`pinv`, `lstsq`, `matrixRank`, `cond`): against matrices built on the host as
 * `P·diag(λ)·Qᴴ` from random unitaries P, Q (Gram–Schmidt in float64), so the eigenvalues or singular
 * values are known, and the vectors checked by reconstruction and orthonormality in float64 on the
 * host.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { rng } from "../optim/_reference.ts";

type C = [number, number];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const conj = (a: C): C => [a[0], -a[1]];

/** A random n × n unitary matrix: Gram–Schmidt on random complex columns, in float64. */
function randomUnitary(random: () => number, n: number): C[][] {
  const cols: C[][] = [];
  while (cols.length < n) {
    const v = Array.from({ length: n }, (): C => [random() - 0.5, random() - 0.5]);
    for (const u of cols) {
      let d: C = [0, 0];
      for (let i = 0; i < n; i++) d = [d[0] + mul(conj(u[i]!), v[i]!)[0], d[1] + mul(conj(u[i]!), v[i]!)[1]];
      for (let i = 0; i < n; i++) v[i] = [v[i]![0] - mul(d, u[i]!)[0], v[i]![1] - mul(d, u[i]!)[1]];
    }
    const norm = Math.hypot(...v.flat());
    if (norm > 1e-3) cols.push(v.map(([re, im]): C => [re / norm, im / norm]));
  }
  return Array.from({ length: n }, (_, i) => cols.map((c) => c[i]!));
}

/** `Q·diag(λ)·Qᴴ`. */
function hermitian(q: C[][], lambda: readonly number[]): C[][] {
  const n = q.length;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j): C => {
      let s: C = [0, 0];
      for (let k = 0; k < n; k++) {
        const t = mul(q[i]![k]!, conj(q[j]![k]!));
        s = [s[0] + lambda[k]! * t[0], s[1] + lambda[k]! * t[1]];
      }
      return i === j ? [s[0], 0] : s;
    }));
}

function upload(ms: C[][][], batch: number[], dtype: "complex64" | "complex128"): ga.GPUArray {
  const rows = ms[0]!.length, cols = ms[0]![0]!.length, real = dtype === "complex64" ? "float32" : "float64";
  const entries = ms.flat(2);
  const part = (k: 0 | 1) => ga.asarray(entries.map((z) => z[k]), real).reshape(...batch, rows, cols);
  return ga.complex(part(0), part(1));
}

/** The largest |(V·diag(w)·Vᴴ − A)ᵢⱼ| and |(Vᴴ·V − I)ᵢⱼ| of one matrix, in float64. */
function residuals(a: C[][], w: ArrayLike<number>, v: ArrayLike<number>, n: number): [number, number] {
  const at = (i: number, j: number): C => [v[2 * (i * n + j)]!, v[2 * (i * n + j) + 1]!];
  let rec = 0, orth = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s: C = [0, 0], g: C = [0, 0];
      for (let k = 0; k < n; k++) {
        const t = mul(at(i, k), conj(at(j, k)));
        s = [s[0] + w[k]! * t[0], s[1] + w[k]! * t[1]];
        const u = mul(conj(at(k, i)), at(k, j));
        g = [g[0] + u[0], g[1] + u[1]];
      }
      rec = Math.max(rec, Math.hypot(s[0] - a[i]![j]![0], s[1] - a[i]![j]![1]));
      orth = Math.max(orth, Math.hypot(g[0] - (i === j ? 1 : 0), g[1]));
    }
  }
  return [rec, orth];
}

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(
    `eigh() and eigvalsh() of Hermitian ${dtype} matrices of known spectrum (a batch, one alone, repeated eigenvalues) match the host`,
    () => {
      const tol = dtype === "complex64" ? 2e-5 : 1e-12;
      const real = dtype === "complex64" ? "float32" : "float64";
      const random = rng(dtype === "complex64" ? 31 : 32);
      for (const [n, batch] of [[1, [2]], [4, [2]], [9, []], [33, [2]]] as const) {
        const count = batch.length === 0 ? 1 : batch[0]!;
        // Distinct eigenvalues, then one matrix with a repeated pair.
        const lambdas = Array.from(
          { length: count },
          (_, b) =>
            Array.from(
              { length: n },
              (_, k) => (b === 1 && k === 1 ? -2 : -2 + 4 * (k / Math.max(1, n - 1)) + 0.1 * b),
            ),
        );
        const as = lambdas.map((l) => hermitian(randomUnitary(random, n), l));
        // The upper triangle and the diagonal's imaginary parts hold garbage `eigh` must not read.
        const lowerOnly = as.map((m) =>
          m.map((row, i) => row.map((z, j): C => j > i ? [7, -7] : i === j ? [z[0], 5] : z))
        );
        const x = upload(lowerOnly, [...batch], dtype);
        const [w, v] = ga.linalg.eigh(x);
        assert.equal(w.dtype, real);
        assert.equal(v.dtype, dtype);
        assert.deepEqual(v.shape, [...batch, n, n]);
        const ws = w.get(), vs = v.get();
        const values = ga.linalg.eigvalsh(x).get();
        for (let b = 0; b < count; b++) {
          const want = [...lambdas[b]!].sort((p, q) => p - q);
          for (let k = 0; k < n; k++) {
            assert.ok(
              Math.abs(ws[b * n + k]! - want[k]!) <= tol * 10,
              `${dtype} n=${n} w[${b}][${k}] ${ws[b * n + k]} vs ${want[k]}`,
            );
            assert.ok(Math.abs(values[b * n + k]! - want[k]!) <= tol * 10, `eigvalsh ${dtype} n=${n}`);
          }
          const [rec, orth] = residuals(
            as[b]!,
            ws.subarray(b * n, (b + 1) * n),
            vs.subarray(2 * b * n * n, 2 * (b + 1) * n * n),
            n,
          );
          assert.ok(rec <= tol * 10 * n, `${dtype} n=${n} matrix ${b}: |V·diag(w)·Vᴴ − A| = ${rec}`);
          assert.ok(orth <= tol * 10 * n, `${dtype} n=${n} matrix ${b}: |Vᴴ·V − I| = ${orth}`);
        }
        // The upper triangle, with UPLO "U", gives the same eigenvalues.
        const upperOnly = as.map((m) => m.map((row, i) => row.map((z, j): C => (j < i ? [7, -7] : z))));
        const upper = ga.linalg.eigvalsh(upload(upperOnly, [...batch], dtype), "U").get();
        for (let k = 0; k < upper.length; k++) {
          assert.ok(Math.abs(upper[k]! - ws[k]!) <= tol * 10, `UPLO "U" ${dtype} n=${n} [${k}]`);
        }
      }
    },
  );
}

eachBackend(
  "eigh() of a complex matrix holding NaN is a LinAlgError naming it; { check: false } skips the check",
  () => {
    const a = ga.complex(ga.asarray([[1, Number.NaN], [Number.NaN, 1]]), ga.zeros([2, 2]));
    assert.throws(
      () => ga.linalg.eigh(a),
      (e: Error) => e instanceof ga.linalg.LinAlgError && /eigh/.test(e.message),
    );
    assert.deepEqual(ga.linalg.eigvalsh(a, { check: false }).shape, [2]);
  },
);

/** `P·diag(σ)·Qᴴ` for an m × m unitary P and an n × n unitary Q (σ of length min(m, n)). */
function withSingularValues(random: () => number, m: number, n: number, sigma: readonly number[]): C[][] {
  const p = randomUnitary(random, m), q = randomUnitary(random, n);
  return Array.from({ length: m }, (_, i) =>
    Array.from({ length: n }, (_, j): C => {
      let s: C = [0, 0];
      for (let k = 0; k < sigma.length; k++) {
        const t = mul(p[i]![k]!, conj(q[j]![k]!));
        s = [s[0] + sigma[k]! * t[0], s[1] + sigma[k]! * t[1]];
      }
      return s;
    }));
}

/** Row-major complex matrices of a batch from an interleaved array. */
function matricesOf(x: ga.GPUArray): C[][][] {
  const host = x.get() as Float32Array | Float64Array;
  const [rows, cols] = x.shape.slice(-2) as [number, number];
  return Array.from(
    { length: host.length / (2 * rows * cols) },
    (_, b) =>
      Array.from({ length: rows }, (_, i) =>
        Array.from({ length: cols }, (_, j): C => {
          const at = 2 * ((b * rows + i) * cols + j);
          return [host[at]!, host[at + 1]!];
        })),
  );
}

/** The largest |(a·b)ᵢⱼ − cᵢⱼ| (the identity where `c` is omitted). */
function productError(a: C[][], b: C[][], c?: C[][]): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b[0]!.length; j++) {
      let s: C = [0, 0];
      for (let k = 0; k < b.length; k++) {
        s = [s[0] + mul(a[i]![k]!, b[k]![j]!)[0], s[1] + mul(a[i]![k]!, b[k]![j]!)[1]];
      }
      const want: C = c === undefined ? [i === j ? 1 : 0, 0] : c[i]![j]!;
      worst = Math.max(worst, Math.hypot(s[0] - want[0], s[1] - want[1]));
    }
  }
  return worst;
}

const adjointOf = (a: C[][]): C[][] => a[0]!.map((_, j) => a.map((row) => conj(row[j]!)));

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(
    `svd() of tall, wide, batched and rank-deficient ${dtype} matrices of known singular values gives U·diag(S)·Vh = A with unitary U and Vh`,
    () => {
      const tol = dtype === "complex64" ? 3e-5 : 1e-12;
      const random = rng(dtype === "complex64" ? 41 : 42);
      const cases: [number, number, number[], number][] = [[5, 3, [], 0], [3, 5, [], 0], [4, 4, [2], 0], [
        6,
        6,
        [],
        2,
      ], [40, 33, [], 0]];
      for (const [m, n, batch, rank] of cases) {
        const k = Math.min(m, n), count = batch.length === 0 ? 1 : batch[0]!;
        const sigmas = Array.from(
          { length: count },
          (_, b) =>
            Array.from({ length: k }, (_, i) => (rank > 0 && i >= rank ? 0 : 3 - (2 * i) / k + 0.25 * b)),
        );
        const as = sigmas.map((sigma) => withSingularValues(random, m, n, sigma));
        const x = upload(as, [...batch], dtype);
        for (const full of [true, false]) {
          const [u, s, vh] = ga.linalg.svd(x, full);
          assert.equal(s.dtype, dtype === "complex64" ? "float32" : "float64");
          assert.equal(u.dtype, dtype);
          assert.deepEqual(u.shape, [...batch, m, full ? m : k]);
          assert.deepEqual(vh.shape, [...batch, full ? n : k, n]);
          const us = matricesOf(u), vhs = matricesOf(vh), ss = s.get();
          for (let b = 0; b < count; b++) {
            const what = `${dtype} ${m}×${n} full=${full} matrix ${b}`;
            for (let i = 0; i < k; i++) {
              assert.ok(
                Math.abs(ss[b * k + i]! - sigmas[b]![i]!) <= 10 * tol * k,
                `${what}: S[${i}] ${ss[b * k + i]} vs ${sigmas[b]![i]}`,
              );
            }
            // U·diag(S)·Vh = A, with the first k columns of U.
            const scaled = us[b]!.map((row) =>
              row.slice(0, k).map((z, j): C => [z[0] * ss[b * k + j]!, z[1] * ss[b * k + j]!])
            );
            assert.ok(
              productError(scaled, vhs[b]!.slice(0, k), as[b]!) <= 10 * tol * k,
              `${what}: U·S·Vh ≠ A`,
            );
            assert.ok(productError(adjointOf(us[b]!), us[b]!) <= 10 * tol * m, `${what}: Uᴴ·U ≠ I`);
            assert.ok(productError(vhs[b]!, adjointOf(vhs[b]!)) <= 10 * tol * n, `${what}: Vh·Vhᴴ ≠ I`);
          }
        }
        const values = ga.linalg.svdvals(x).get();
        for (let i = 0; i < values.length; i++) {
          const want = sigmas[Math.floor(i / k)]![i % k]!;
          assert.ok(Math.abs(values[i]! - want) <= 10 * tol * k, `svdvals ${dtype} ${m}×${n} [${i}]`);
        }
      }
    },
  );
}

eachBackend("pinv(), lstsq(), matrixRank() and cond() of complex matrices stand on their SVD", () => {
  const random = rng(43);
  const tol = 1e-11;
  const a = withSingularValues(random, 6, 4, [4, 3, 2, 0.5]);
  const x = upload([a], [], "complex128");
  // pinv(A)·A = I for a matrix of full column rank.
  const p = ga.linalg.pinv(x);
  assert.equal(p.dtype, "complex128");
  assert.ok(productError(matricesOf(p)[0]!, a) <= tol, "pinv(A)·A ≠ I");
  // lstsq's x meets the normal equations Aᴴ·(A·x − b) = 0.
  const b: C[][] = Array.from({ length: 6 }, (): C[] => [[random() - 0.5, random() - 0.5]]);
  const [solution, residuals, rank, s] = ga.linalg.lstsq(x, upload([b], [], "complex128").reshape(6, 1));
  assert.equal(rank, 4);
  assert.equal(s.dtype, "float64");
  const xs = matricesOf(solution)[0]!;
  const r = a.map((row, i) => {
    let v: C = [-b[i]![0]![0], -b[i]![0]![1]];
    for (let j = 0; j < 4; j++) v = [v[0] + mul(row[j]!, xs[j]![0]!)[0], v[1] + mul(row[j]!, xs[j]![0]!)[1]];
    return [v];
  });
  assert.ok(
    productError(adjointOf(a), r, [[[0, 0]], [[0, 0]], [[0, 0]], [[0, 0]]]) <= tol,
    "Aᴴ·(A·x − b) ≠ 0",
  );
  const squared = r.reduce((acc, [v]) => acc + v![0] ** 2 + v![1] ** 2, 0);
  assert.ok(
    Math.abs((residuals.get()[0] as number) - squared) <= tol,
    `residuals ${residuals.get()} vs ${squared}`,
  );
  assert.equal(
    ga.linalg.matrixRank(upload([withSingularValues(random, 5, 5, [2, 1, 0, 0, 0])], [], "complex128")),
    2,
  );
  assert.ok(Math.abs((ga.linalg.cond(x) as number) - 8) <= 1e-9, "cond = σmax/σmin = 8");
});
