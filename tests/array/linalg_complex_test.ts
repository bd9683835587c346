/**
 * The LU, Cholesky and QR families on complex matrices (`solve`, `inv`, `det`, `slogdet`, `cholesky`,
 * `qr`, `matrixPower`, `norm`): against Gaussian elimination with partial pivoting, the Cholesky
 * recurrence and products in complex128 on the host.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { rng } from "../optim/_reference.ts";

type C = [number, number];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const sub = (a: C, b: C): C => [a[0] - b[0], a[1] - b[1]];
const div = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
const mag = (a: C) => Math.hypot(a[0], a[1]);

/** x with a·x = b (b: n × k), and det(a), by Gaussian elimination in complex128 on the host. */
function hostSolve(a: C[][], b: C[][]): { x: C[][]; det: C } {
  const n = a.length, m = a.map((r) => r.slice()), r = b.map((row) => row.slice());
  let det: C = [1, 0];
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (mag(m[i]![k]!) > mag(m[p]![k]!)) p = i;
    if (p !== k) {
      [m[p], m[k]] = [m[k]!, m[p]!];
      [r[p], r[k]] = [r[k]!, r[p]!];
      det = [-det[0], -det[1]];
    }
    det = mul(det, m[k]![k]!);
    for (let i = k + 1; i < n; i++) {
      const f = div(m[i]![k]!, m[k]![k]!);
      for (let j = k; j < n; j++) m[i]![j] = sub(m[i]![j]!, mul(f, m[k]![j]!));
      for (let j = 0; j < r[0]!.length; j++) r[i]![j] = sub(r[i]![j]!, mul(f, r[k]![j]!));
    }
  }
  for (let k = n - 1; k >= 0; k--) {
    for (let j = 0; j < r[0]!.length; j++) {
      let v = r[k]![j]!;
      for (let c = k + 1; c < n; c++) v = sub(v, mul(m[k]![c]!, r[c]![j]!));
      r[k]![j] = div(v, m[k]![k]!);
    }
  }
  return { x: r, det };
}

function randomMatrix(random: () => number, rows: number, cols: number): C[][] {
  return Array.from(
    { length: rows },
    () => Array.from({ length: cols }, (): C => [random() - 0.5, random() - 0.5]),
  );
}

/** Matrices of a batch as one complex array of shape [...batch, rows, cols]. */
function upload(ms: C[][][], batch: number[], dtype: "complex64" | "complex128"): ga.GPUArray {
  const rows = ms[0]!.length, cols = ms[0]![0]!.length, real = dtype === "complex64" ? "float32" : "float64";
  const entries = ms.flat(2);
  const part = (k: 0 | 1) => ga.asarray(entries.map((z) => z[k]), real).reshape(...batch, rows, cols);
  return ga.complex(part(0), part(1));
}

function assertNear(got: ArrayLike<number>, want: readonly number[], tol: number, what: string): void {
  assert.equal(got.length, want.length, what);
  for (let i = 0; i < want.length; i++) {
    assert.ok(
      Math.abs(got[i]! - want[i]!) <= tol * (1 + Math.abs(want[i]!)),
      `${what}: [${i}] ${got[i]} vs ${want[i]}`,
    );
  }
}

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(
    `solve(), inv(), det() and slogdet() of a batch of random ${dtype} matrices match Gaussian elimination on the host`,
    () => {
      const tol = dtype === "complex64" ? 2e-4 : 1e-11;
      const random = rng(dtype === "complex64" ? 7 : 8);
      for (const n of [1, 3, 8, 40]) {
        const as = [randomMatrix(random, n, n), randomMatrix(random, n, n)];
        const bs = [randomMatrix(random, n, 2), randomMatrix(random, n, 2)];
        const a = upload(as, [2], dtype), b = upload(bs, [2], dtype);
        const host = as.map((m, i) => hostSolve(m, bs[i]!));
        const x = ga.linalg.solve(a, b);
        assert.equal(x.dtype, dtype);
        assertNear(x.get() as Float64Array, host.flatMap((h) => h.x.flat(2)), tol, `solve ${dtype} n=${n}`);
        const v = ga.linalg.solve(a, upload([bs[0]!.map((r) => [r[0]!])], [], dtype).reshape(n));
        assertNear(
          v.get() as Float64Array,
          as.flatMap((m) => hostSolve(m, bs[0]!.map((r) => [r[0]!])).x.flat(2)),
          tol,
          `solve of vectors ${dtype} n=${n}`,
        );
        const eye = Array.from(
          { length: n },
          (_, i) => Array.from({ length: n }, (_, j): C => [i === j ? 1 : 0, 0]),
        );
        assertNear(
          ga.linalg.inv(a).get() as Float64Array,
          as.flatMap((m) => hostSolve(m, eye).x.flat(2)),
          tol,
          `inv ${dtype} n=${n}`,
        );
        const dets = ga.linalg.det(a) as ga.GPUArray;
        assertNear(dets.get() as Float64Array, host.flatMap((h) => h.det), tol * 10, `det ${dtype} n=${n}`);
        const single = ga.linalg.det(upload([as[0]!], [], dtype)) as [number, number];
        assertNear(single, host[0]!.det, tol * 10, `det of one ${dtype} n=${n}`);
        const { sign, logabsdet } = ga.linalg.slogdet(a) as { sign: ga.GPUArray; logabsdet: ga.GPUArray };
        assert.equal(logabsdet.dtype, dtype === "complex64" ? "float32" : "float64");
        assertNear(
          logabsdet.get() as Float64Array,
          host.map((h) => Math.log(mag(h.det))),
          tol,
          `slogdet's log ${dtype} n=${n}`,
        );
        assertNear(
          sign.get() as Float64Array,
          host.flatMap((h) => [h.det[0] / mag(h.det), h.det[1] / mag(h.det)]),
          tol * 10,
          `slogdet's sign ${dtype} n=${n}`,
        );
      }
    },
  );
}

eachBackend(
  "solve() promotes float32 with complex64, and a singular complex matrix is a LinAlgError naming it",
  () => {
    const a = ga.complex(ga.asarray([[2, 0], [0, 1]]), ga.asarray([[0, 0], [0, 1]]));
    const x = ga.linalg.solve(a, ga.asarray([2, 2]));
    assert.equal(x.dtype, "complex64");
    assertNear(x.get() as Float32Array, [1, 0, 1, -1], 1e-6, "(2) x = 2, (1 + i) y = 2");
    const singular = ga.complex(ga.asarray([[1, 2], [2, 4]]), ga.asarray([[1, 2], [2, 4]]));
    assert.throws(() => ga.linalg.inv(singular), {
      name: "LinAlgError",
      message: "Cannot inv: the matrix is singular (U[1, 1] of its LU factorization is exactly zero); " +
        "pass { check: false } to get inf and NaN instead of this error",
    });
    const zero = (z: unknown) => Array.isArray(z) && z.length === 2 && z[0] === 0 && z[1] === 0;
    assert.ok(zero(ga.linalg.det(singular)), "det is 0");
    const { sign, logabsdet } = ga.linalg.slogdet(singular);
    assert.ok(zero(sign), "the sign is 0");
    assert.equal(logabsdet, -Infinity);
  },
);

/** The lower Cholesky factor of a Hermitian positive-definite matrix, in complex128 on the host. */
function hostCholesky(a: C[][]): C[][] {
  const n = a.length, l = a.map((r) => r.map((): C => [0, 0]));
  for (let j = 0; j < n; j++) {
    let d = a[j]![j]![0];
    for (let k = 0; k < j; k++) d -= mag(l[j]![k]!) ** 2;
    l[j]![j] = [Math.sqrt(d), 0];
    for (let i = j + 1; i < n; i++) {
      let v = a[i]![j]!;
      for (let k = 0; k < j; k++) v = sub(v, mul(l[i]![k]!, [l[j]![k]![0], -l[j]![k]![1]]));
      l[i]![j] = [v[0] / l[j]![j]![0], v[1] / l[j]![j]![0]];
    }
  }
  return l;
}

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(
    `cholesky() of a batch of Hermitian positive-definite ${dtype} matrices, lower and upper, matches the host`,
    () => {
      const tol = dtype === "complex64" ? 2e-4 : 1e-11;
      const random = rng(dtype === "complex64" ? 21 : 22);
      for (const n of [1, 4, 33]) {
        // B·Bᴴ + n·I, with the upper triangle filled with garbage in the copy that `cholesky` must not read.
        const hermitian = () => {
          const b = randomMatrix(random, n, n);
          return b.map((row, i) =>
            row.map((_, j): C => {
              let s: C = [i === j ? n : 0, 0];
              for (let k = 0; k < n; k++) {
                s = [
                  s[0] + mul(b[i]![k]!, [b[j]![k]![0], -b[j]![k]![1]])[0],
                  s[1] + mul(b[i]![k]!, [b[j]![k]![0], -b[j]![k]![1]])[1],
                ];
              }
              return s;
            })
          );
        };
        const as = [hermitian(), hermitian()];
        const ls = as.map(hostCholesky);
        const lowerOnly = as.map((m) => m.map((row, i) => row.map((z, j): C => (j > i ? [99, -99] : z))));
        const lower = ga.linalg.cholesky(upload(lowerOnly, [2], dtype));
        assert.equal(lower.dtype, dtype);
        assertNear(lower.get() as Float64Array, ls.flat(2).flat(), tol, `lower ${dtype} n=${n}`);
        const upperOnly = as.map((m) => m.map((row, i) => row.map((z, j): C => (j < i ? [99, -99] : z))));
        const upper = ga.linalg.cholesky(upload(upperOnly, [2], dtype), { upper: true });
        // U = Lᴴ.
        const us = ls.map((l) => l.map((_, i) => l.map((row): C => [row[i]![0], -row[i]![1]])));
        assertNear(upper.get() as Float64Array, us.flat(2).flat(), tol, `upper ${dtype} n=${n}`);
      }
    },
  );
}

eachBackend("cholesky() of a complex matrix that is not positive definite is a LinAlgError", () => {
  const a = ga.complex(ga.asarray([[1, 2], [2, 1]]), ga.asarray([[0, 1], [-1, 0]]));
  assert.throws(() => ga.linalg.cholesky(a), { name: "LinAlgError", message: /is not positive definite/ });
});

eachBackend("matrixPower() of a complex matrix, negative powers through inv(), matches the host", () => {
  const m: C[][] = [[[1, 0.5], [2, -1]], [[3, 2], [4, 0]]];
  const inverse = hostSolve(m, [[[1, 0], [0, 0]], [[0, 0], [1, 0]]]).x;
  const square = (x: C[][]) =>
    x.map((row, i) =>
      row.map((_, j) => {
        const a = mul(x[i]![0]!, x[0]![j]!), b = mul(x[i]![1]!, x[1]![j]!);
        return [a[0] + b[0], a[1] + b[1]] as C;
      })
    );
  const a = upload([m], [], "complex64");
  assertNear(ga.linalg.matrixPower(a, -2).get() as Float32Array, square(inverse).flat(2), 1e-5, "a^-2");
  assertNear(ga.linalg.matrixPower(a, 2).get() as Float32Array, square(m).flat(2), 1e-5, "a^2");
  assertNear(ga.linalg.matrixPower(a, 0).get() as Float32Array, [1, 0, 0, 0, 0, 0, 1, 0], 0, "a^0");
});

eachBackend(
  "norm() of complex vectors and matrices is that of their magnitudes (or singular values), in the parts' dtype",
  () => {
    const m: C[][] = [[[3, 4], [0, -1]], [[1, 1], [-2, 0]]];
    const a = upload([m], [], "complex128");
    const mags = m.map((row) => row.map(mag));
    const fro = Math.hypot(...mags.flat());
    assertNear([ga.norm(a) as number], [fro], 1e-12, "ga.norm");
    assertNear([ga.linalg.norm(a) as number], [fro], 1e-12, "linalg.norm");
    assertNear(
      [ga.linalg.norm(a, 1) as number],
      [Math.max(mags[0]![0]! + mags[1]![0]!, mags[0]![1]! + mags[1]![1]!)],
      1e-12,
      "1",
    );
    assertNear(
      [ga.linalg.norm(a, Infinity) as number],
      [Math.max(mags[0]![0]! + mags[0]![1]!, mags[1]![0]! + mags[1]![1]!)],
      1e-12,
      "inf",
    );
    const rows = ga.linalg.norm(a, 1, 1) as ga.GPUArray;
    assert.equal(rows.dtype, "float64");
    assertNear(rows.get() as Float64Array, mags.map((r) => r[0]! + r[1]!), 1e-12, "rows' 1-norms");
    // The singular values of a 2 × 2 matrix: σ² = (‖A‖F² ± sqrt(‖A‖F⁴ − 4|det A|²)) / 2.
    const det = sub(mul(m[0]![0]!, m[1]![1]!), mul(m[0]![1]!, m[1]![0]!));
    const root = Math.sqrt(fro ** 4 - 4 * mag(det) ** 2);
    const [s1, s2] = [Math.sqrt((fro ** 2 + root) / 2), Math.sqrt((fro ** 2 - root) / 2)];
    assertNear([ga.linalg.norm(a, 2) as number], [s1], 1e-12, "2");
    assertNear([ga.linalg.norm(a, -2) as number], [s2], 1e-12, "-2");
    assertNear([ga.linalg.norm(a, "nuc") as number], [s1 + s2], 1e-12, "nuc");
  },
);

/** The complex matrices of an array of shape [...batch, rows, cols], as host lists. */
function download(x: ga.GPUArray): C[][][] {
  const host = Array.from(x.get() as Float64Array, Number);
  const rows = x.shape[x.ndim - 2]!, cols = x.shape[x.ndim - 1]!, count = host.length / (2 * rows * cols);
  return Array.from(
    { length: count },
    (_, b) =>
      Array.from({ length: rows }, (_, i) =>
        Array.from({ length: cols }, (_, j): C => {
          const at = 2 * ((b * rows + i) * cols + j);
          return [host[at]!, host[at + 1]!];
        })),
  );
}

/** aᴴ·b (conjugating a) or a·b on the host. */
function product(a: C[][], b: C[][], conjugateA = false): C[][] {
  const rows = conjugateA ? a[0]!.length : a.length, inner = b.length;
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: b[0]!.length }, (_, j) => {
      let s: C = [0, 0];
      for (let k = 0; k < inner; k++) {
        const x = conjugateA ? [a[k]![i]![0], -a[k]![i]![1]] as C : a[i]![k]!;
        const p = mul(x, b[k]![j]!);
        s = [s[0] + p[0], s[1] + p[1]];
      }
      return s;
    }));
}

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(
    `qr() of batches of ${dtype} matrices gives orthonormal Q and upper triangular R with Q·R = a`,
    () => {
      const tol = dtype === "complex64" ? 2e-5 : 1e-12;
      const random = rng(dtype === "complex64" ? 31 : 32);
      for (const [m, n] of [[5, 3], [3, 5], [4, 4], [40, 7]] as const) {
        const as = [randomMatrix(random, m, n), randomMatrix(random, m, n)];
        const a = upload(as, [2], dtype);
        for (const mode of ["reduced", "complete"] as const) {
          const [q, r] = ga.linalg.qr(a, mode);
          assert.equal(q.dtype, dtype);
          const qs = download(q), rs = download(r);
          qs.forEach((qm, b) => {
            const cols = qm[0]!.length;
            const eye = Array.from(
              { length: cols },
              (_, i) => Array.from({ length: cols }, (_, j): C => [i === j ? 1 : 0, 0]),
            );
            assertNear(product(qm, qm, true).flat(2), eye.flat(2), tol, `Qᴴ·Q ${dtype} ${m}×${n} ${mode}`);
            assertNear(product(qm, rs[b]!).flat(2), as[b]!.flat(2), tol, `Q·R ${dtype} ${m}×${n} ${mode}`);
            rs[b]!.forEach((row, i) =>
              row.forEach((z, j) => {
                if (j < i) {
                  assert.deepEqual(z, [0, 0], `R[${i}, ${j}] below the diagonal`);
                }
                if (j === i) assert.ok(Math.abs(z[1]) <= tol, `R[${i}, ${i}] is real (LAPACK's)`);
              })
            );
          });
        }
        const rOnly = download(ga.linalg.qr(a, "r"));
        assertNear(rOnly.flat(3), download(ga.linalg.qr(a)[1]).flat(3), 0, `mode r ${dtype} ${m}×${n}`);
      }
    },
  );
}
