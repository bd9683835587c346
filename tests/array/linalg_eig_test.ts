/**
 * `ga.linalg.eig` and `eigvals` against matrices of known spectrum: `A = Q·T·Qᴴ` with Q a host-made
 * unitary (orthogonal for real A) and T upper (quasi-)triangular with chosen eigenvalues and random
 * entries above them, so A is far from normal. Checked: the eigenvalues against the chosen ones, each
 * eigenpair's residual `‖A·v - w·v‖`, and LAPACK's normalization of the vectors.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { uniform } from "./_decomposition_host.ts";

type C = [number, number];
const add = (a: C, b: C): C => [a[0] + b[0], a[1] + b[1]];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const conj = (a: C): C => [a[0], -a[1]];
const abs = (a: C) => Math.hypot(a[0], a[1]);

/** A random n × n unitary (real orthogonal where `real`): Gram–Schmidt on random columns. */
function unitary(n: number, seed: number, real: boolean): C[][] {
  const u = uniform(2 * n * n, seed);
  const cols: C[][] = Array.from(
    { length: n },
    (_, j) =>
      Array.from({ length: n }, (_, i) => [u[2 * (j * n + i)]!, real ? 0 : u[2 * (j * n + i) + 1]!] as C),
  );
  for (let j = 0; j < n; j++) {
    for (let k = 0; k < j; k++) {
      const d = cols[k]!.reduce((s, x, i) => add(s, mul(conj(x), cols[j]![i]!)), [0, 0] as C);
      cols[j] = cols[j]!.map((x, i) => add(x, mul([-d[0], -d[1]], cols[k]![i]!)));
    }
    const norm = Math.hypot(...cols[j]!.map(abs));
    cols[j] = cols[j]!.map((x) => [x[0] / norm, x[1] / norm] as C);
  }
  return Array.from({ length: n }, (_, i) => cols.map((col) => col[i]!));
}

/**
 * A matrix with eigenvalues `lambda` (real where `real`: then pairs `a ± ib` come as 2 × 2 blocks
 * `[[a, b], [-b, a]]` of T, listed as [a, b] once in `lambda` with `pair` true).
 */
function withEigenvalues(lambda: readonly { z: C; pair?: boolean }[], seed: number, real: boolean): {
  a: C[][];
  values: C[];
} {
  const n = lambda.reduce((s, l) => s + (l.pair ? 2 : 1), 0);
  const t: C[][] = Array.from({ length: n }, () => Array.from({ length: n }, () => [0, 0] as C));
  const above = uniform(2 * n * n, seed + 1);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      t[i]![j] = [above[2 * (i * n + j)]!, real ? 0 : above[2 * (i * n + j) + 1]!];
    }
  }
  const values: C[] = [];
  let at = 0;
  for (const { z, pair } of lambda) {
    if (pair) {
      t[at]![at] = [z[0], 0];
      t[at + 1]![at + 1] = [z[0], 0];
      t[at]![at + 1] = [z[1], 0];
      t[at + 1]![at] = [-z[1], 0];
      values.push([z[0], z[1]], [z[0], -z[1]]);
      at += 2;
    } else {
      t[at]![at] = z;
      values.push(z);
      at += 1;
    }
  }
  const q = unitary(n, seed, real);
  const product = (x: C[][], y: C[][]) =>
    x.map((row) => y[0]!.map((_, j) => row.reduce((s, v, k) => add(s, mul(v, y[k]![j]!)), [0, 0] as C)));
  const qh = q[0]!.map((_, j) => q.map((row) => conj(row[j]!)));
  return { a: product(product(q, t), qh), values };
}

function upload(ms: C[][][], batch: number[], dtype: ga.DType): ga.GPUArray {
  const n = ms[0]!.length;
  if (dtype === "float32" || dtype === "float64") {
    const flat = ms.flatMap((m) => m.flat().map((z) => z[0]));
    return ga.toGpu(dtype === "float32" ? Float32Array.from(flat) : Float64Array.from(flat), [
      ...batch,
      n,
      n,
    ]);
  }
  const real = dtype === "complex64" ? "float32" : "float64";
  const part = (k: 0 | 1) => ga.asarray(ms.flat(2).map((z) => z[k]), real).reshape(...batch, n, n);
  return ga.complex(part(0), part(1));
}

/** Checks eig of `ms` (a batch) against their known eigenvalues, the residuals and the vectors' normalization. */
function checkEig(
  ms: { a: C[][]; values: C[] }[],
  batch: number[],
  dtype: ga.DType,
  tol: number,
  what: string,
) {
  const n = ms[0]!.a.length;
  const x = upload(ms.map((m) => m.a), batch, dtype);
  const [w, v] = ga.linalg.eig(x);
  assert.equal(w.dtype, dtype === "float32" || dtype === "complex64" ? "complex64" : "complex128", what);
  assert.deepEqual(w.shape, [...batch, n], what);
  assert.deepEqual(v.shape, [...batch, n, n], what);
  const wh = Array.from(w.get() as ArrayLike<number>), vh = Array.from(v.get() as ArrayLike<number>);
  const only = Array.from(ga.linalg.eigvals(x).get() as ArrayLike<number>);
  ms.forEach(({ a, values }, b) => {
    const got: C[] = Array.from({ length: n }, (_, k) => [wh[2 * (b * n + k)]!, wh[2 * (b * n + k) + 1]!]);
    const scale = Math.max(1, ...a.flat().map(abs));
    // Each chosen eigenvalue matched to the nearest computed one not yet taken.
    const free = got.map(() => true);
    for (const want of values) {
      let best = -1;
      got.forEach((g, k) => {
        if (
          free[k] &&
          (best < 0 || abs(add(g, [-want[0], -want[1]])) < abs(add(got[best]!, [-want[0], -want[1]])))
        ) best = k;
      });
      free[best] = false;
      const err = abs(add(got[best]!, [-want[0], -want[1]]));
      assert.ok(
        err <= tol * scale,
        `${what}, matrix ${b}: eigenvalue ${want} came out ${got[best]} (off by ${err})`,
      );
    }
    for (let k = 0; k < n; k++) {
      const col: C[] = Array.from(
        { length: n },
        (_, i) => [vh[2 * (b * n * n + i * n + k)]!, vh[2 * (b * n * n + i * n + k) + 1]!],
      );
      const norm = Math.hypot(...col.map(abs));
      assert.ok(Math.abs(norm - 1) < tol * 10, `${what}, matrix ${b}, vector ${k}: norm ${norm}`);
      const largest = col.reduce((m, z) => (abs(z) > abs(m) ? z : m), [0, 0] as C);
      assert.ok(
        Math.abs(largest[1]) <= tol * 10 && largest[0] > 0,
        `${what}: vector ${k}'s largest element ${largest}`,
      );
      const residual = Math.hypot(
        ...a.map((row, i) =>
          abs(
            add(
              row.reduce((s, z, j) => add(s, mul(z, col[j]!)), [0, 0] as C),
              mul([-got[k]![0], -got[k]![1]], col[i]!),
            ),
          )
        ),
      );
      assert.ok(residual <= tol * scale * n, `${what}, matrix ${b}, pair ${k}: residual ${residual}`);
      // eigvals gives the same values (the same iterations without the vectors).
      const same = abs(add(got[k]!, [-only[2 * (b * n + k)]!, -only[2 * (b * n + k) + 1]!]));
      assert.ok(same <= tol * scale, `${what}: eigvals differs from eig at ${k} by ${same}`);
    }
  });
}

eachBackend("eig() of real matrices finds their real eigenvalues and complex pairs, batched", () => {
  const spectra = [
    [{ z: [3, 0] as C }, { z: [0.5, 2] as C, pair: true }, { z: [-1, 0] as C }, {
      z: [-2, 0.25] as C,
      pair: true,
    }],
    [{ z: [1, 0] as C }, { z: [2, 0] as C }, { z: [-3, 0] as C }, { z: [0, 1] as C, pair: true }, {
      z: [4, 0] as C,
    }],
  ];
  const ms = [0, 1, 2, 3].map((b) => withEigenvalues(spectra[b % 2]!, 10 + b, true));
  checkEig(ms, [2, 2], "float64", 1e-9, "float64 batch of 7 × 7");
  checkEig(ms.slice(0, 1), [], "float32", 2e-4, "float32 7 × 7");
  checkEig([withEigenvalues([{ z: [2, 0] }], 5, true)], [], "float64", 1e-12, "1 × 1");
  checkEig([withEigenvalues([{ z: [0, 1] as C, pair: true }], 6, true)], [], "float64", 1e-12, "a rotation");
});

eachBackend("eig() of complex matrices past a work-group's 32 threads matches the chosen spectrum", () => {
  const lambda = Array.from(
    { length: 37 },
    (_, k) => ({ z: [Math.cos(k) * (1 + k / 10), Math.sin(2 * k)] as C }),
  );
  checkEig([withEigenvalues(lambda, 21, false)], [], "complex128", 1e-9, "complex128 37 × 37");
  const small = Array.from({ length: 6 }, (_, k) => ({ z: [k - 2.5, (-1) ** k] as C }));
  checkEig(
    [withEigenvalues(small, 22, false), withEigenvalues(small, 23, false)],
    [2],
    "complex64",
    2e-4,
    "complex64 batch",
  );
});

eachBackend("eig() of ints computes in complex128; eigvals() alone; empty batches", () => {
  const [w] = ga.linalg.eig(ga.asarray([[2, 1], [0, 3]], "int32"));
  assert.equal(w.dtype, "complex128");
  const values = Array.from(ga.linalg.eigvals(ga.asarray([[2, 1], [0, 3]], "int32")).get() as Float64Array);
  assert.deepEqual(values.filter((_, i) => i % 2 === 0).sort(), [2, 3]);
  assert.deepEqual(ga.linalg.eigvals(ga.zeros([0, 3, 3])).shape, [0, 3]);
});

eachBackend("eig() refuses non-square input and NaN, and names eig when differentiated", () => {
  assert.throws(() => ga.linalg.eig(ga.zeros([2, 3])), RangeError);
  assert.throws(() => ga.linalg.eigvals(ga.zeros([3])), RangeError);
  const nan = ga.asarray([[1, NaN], [0, 1]], "float64");
  assert.throws(() => ga.linalg.eig(nan), { name: "LinAlgError", message: /eig.*did not converge/ });
  const [w] = ga.linalg.eig(nan, { check: false });
  assert.deepEqual(w.shape, [2]);
  assert.throws(
    () => ga.grad((a: ga.GPUArray) => ga.sum(ga.abs(ga.linalg.eigvals(a))))(ga.eye(2, "float64")),
    { name: "TypeError", message: /Cannot differentiate through eigvals/ },
  );
});
