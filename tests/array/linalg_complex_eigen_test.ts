/**
 * `eigh` and `eigvalsh` of complex Hermitian matrices: against matrices built on the host as
 * `Q·diag(λ)·Qᴴ` from a random unitary Q (Gram–Schmidt in float64), so the eigenvalues are known, and
 * the eigenvectors checked by reconstruction and orthonormality in float64 on the host.
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
  const n = ms[0]!.length, real = dtype === "complex64" ? "float32" : "float64";
  const entries = ms.flat(2);
  const part = (k: 0 | 1) => ga.asarray(entries.map((z) => z[k]), real).reshape(...batch, n, n);
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
