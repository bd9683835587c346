import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import {
  fromDevice,
  hilbert,
  hostEigvalsh,
  hostSvdvals,
  identity,
  type Mat,
  matmul,
  maxDiff,
  randomMat,
  scale,
  spd,
  toDevice,
  transpose,
  vecDiff,
  vectorsOf,
} from "./_decomposition_host.ts";

type Float = "float32" | "float64";
const TOL: Record<Float, number> = { float32: 3e-5, float64: 1e-11 };

/** `got` is within `tol·size` of `want` (both scaled by want's largest entry). */
function near(got: Mat, want: Mat, dtype: Float, label: string, size = 1) {
  const d = maxDiff(got, want), bound = TOL[dtype] * size * scale(want);
  assert.ok(d <= bound, `${label}: off by ${d} (allowed ${bound})`);
}

/** Every matrix of a batch has orthonormal columns. */
function orthonormalColumns(mats: Mat[], dtype: Float, label: string) {
  for (const q of mats) near(matmul(transpose(q), q), identity(q[0]?.length ?? 0), dtype, label, q.length);
}

const mul = (u: Mat, s: readonly number[]) => u.map((row) => row.map((x, j) => x * (s[j] ?? 0)));

eachBackend(
  "cholesky() of float64 and float32 batches gives L·Lᵀ = A from the lower triangle alone, and U with upper",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      const mats = [spd(5, 1), spd(5, 2), spd(5, 3), spd(5, 4)];
      // Garbage above the diagonal: cholesky reads only the lower triangle (NumPy's).
      const dirty = mats.map((a) => a.map((row, i) => row.map((x, j) => (j > i ? 99 : x))));
      const l = ga.linalg.cholesky(toDevice(dirty, [2, 2], dtype));
      assert.deepEqual(l.shape, [2, 2, 5, 5]);
      assert.equal(l.dtype, dtype);
      fromDevice(l).forEach((f, b) => {
        f.forEach((row, i) => row.forEach((x, j) => j > i && assert.equal(x, 0, "L is lower triangular")));
        near(matmul(f, transpose(f)), mats[b]!, dtype, `${dtype} L·Lᵀ, matrix ${b}`, 5);
      });
      const u = ga.linalg.cholesky(toDevice(mats.map(transpose), [4], dtype), { upper: true });
      fromDevice(u).forEach((f, b) => {
        f.forEach((row, i) => row.forEach((x, j) => j < i && assert.equal(x, 0, "U is upper triangular")));
        near(matmul(transpose(f), f), mats[b]!, dtype, `${dtype} Uᵀ·U, matrix ${b}`, 5);
      });
    }
    const ints = ga.asarray([[4, 2], [2, 3]], "int32");
    assert.equal(ga.linalg.cholesky(ints).dtype, "float64", "integers compute in float64");
  },
);

eachBackend(
  "cholesky() of a matrix that is not positive definite is a LinAlgError naming it; check: false gives NaN",
  () => {
    const bad = [[1, 2], [2, 1]], good = [[2, 1], [1, 2]];
    assert.throws(() => ga.linalg.cholesky(toDevice([bad], [], "float64")), {
      name: "LinAlgError",
      message:
        "Cannot cholesky: the matrix is not positive definite (its leading minor of order 2 is not); " +
        "pass { check: false } to get NaN for such a matrix instead of this error",
    });
    const batch = toDevice([good, good, bad, good], [2, 2], "float32");
    assert.throws(() => ga.linalg.cholesky(batch), (e: unknown) => {
      assert.ok(e instanceof ga.linalg.LinAlgError);
      assert.deepEqual(e.index, [1, 0]);
      assert.match(e.message, /^Cannot cholesky: matrix \[1, 0\] of the batch is not positive definite/);
      return true;
    });
    const unchecked = fromDevice(ga.linalg.cholesky(batch, { check: false }));
    assert.ok(unchecked[2]!.flat().every(Number.isNaN), "the failed matrix is NaN");
    near(matmul(unchecked[0]!, transpose(unchecked[0]!)), good, "float32", "the others are factored");
  },
);

eachBackend(
  "qr() in modes reduced, complete and r reconstructs tall, wide and batched matrices with orthonormal Q",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      for (const [m, n] of [[7, 4], [4, 7], [5, 5]] as const) {
        const mats = [randomMat(m, n, 10 + m), randomMat(m, n, 20 + n), randomMat(m, n, 30)];
        const a = toDevice(mats, [3], dtype), k = Math.min(m, n);
        const [q, r] = ga.linalg.qr(a);
        assert.deepEqual([q.shape, r.shape], [[3, m, k], [3, k, n]]);
        const full = ga.linalg.qr(a, "complete");
        assert.deepEqual([full.Q.shape, full.R.shape], [[3, m, m], [3, m, n]]);
        const rOnly = ga.linalg.qr(a, { mode: "r" });
        for (const [qs, rs, label] of [[q, r, "reduced"], [full.Q, full.R, "complete"]] as const) {
          const Q = fromDevice(qs), R = fromDevice(rs);
          orthonormalColumns(Q, dtype, `${dtype} ${m}×${n} ${label} QᵀQ = I`);
          R.forEach((f, b) => {
            f.forEach((row, i) =>
              row.forEach((x, j) => j < i && assert.equal(x, 0, "R is upper triangular"))
            );
            near(matmul(Q[b]!, f), mats[b]!, dtype, `${dtype} ${m}×${n} ${label} Q·R = A`, m);
          });
        }
        assert.deepEqual(fromDevice(rOnly), fromDevice(r), "mode r is the reduced R");
      }
    }
    const view = toDevice([randomMat(6, 3, 5)], [], "float64").T; // a transposed view, 3 × 6
    const [q, r] = ga.linalg.qr(view);
    near(matmul(fromDevice(q)[0]!, fromDevice(r)[0]!), transpose(randomMat(6, 3, 5)), "float64", "a view", 6);
    assert.throws(() => ga.linalg.qr(view, "raw" as "r"), {
      name: "RangeError",
      message: 'Cannot qr with mode "raw": give "reduced", "complete" or "r"',
    });
  },
);

eachBackend(
  "svd() gives U·diag(S)·Vh = A, orthonormal U and Vh, and the float64 host reference's singular values",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      for (const [m, n] of [[6, 4], [4, 6], [5, 5]] as const) {
        const mats = [randomMat(m, n, 40 + m), randomMat(m, n, 50 + n)];
        const a = toDevice(mats, [2], dtype), k = Math.min(m, n);
        for (const fullMatrices of [true, false]) {
          const { U, S, Vh } = ga.linalg.svd(a, fullMatrices);
          assert.deepEqual(
            [U.shape, S.shape, Vh.shape],
            fullMatrices ? [[2, m, m], [2, k], [2, n, n]] : [[2, m, k], [2, k], [2, k, n]],
          );
          const u = fromDevice(U), s = vectorsOf(S), vh = fromDevice(Vh);
          const label = `${dtype} ${m}×${n} fullMatrices ${fullMatrices}`;
          orthonormalColumns(u, dtype, `${label}: UᵀU = I`);
          orthonormalColumns(vh.map(transpose), dtype, `${label}: Vh·Vhᵀ = I`);
          mats.forEach((want, b) => {
            const sv = s[b]!;
            assert.ok(vecDiff(sv, hostSvdvals(want)) <= TOL[dtype] * 10 * sv[0]!, `${label}: S, matrix ${b}`);
            assert.ok(
              sv.every((x, i) => x >= 0 && (i === 0 || x <= sv[i - 1]!)),
              "S descending, non-negative",
            );
            const rebuilt = matmul(mul(u[b]!.map((row) => row.slice(0, k)), sv), vh[b]!.slice(0, k));
            near(rebuilt, want, dtype, `${label}: U·S·Vh, matrix ${b}`, m + n);
          });
        }
        const values = ga.linalg.svd(a, { computeUv: false });
        assert.ok(vecDiff(vectorsOf(values).flat(), vectorsOf(ga.linalg.svdvals(a)).flat()) <= TOL[dtype]);
      }
    }
  },
);

eachBackend(
  "svd() of one tall, wide or square matrix (cuSOLVER's polar decomposition on CUDA) matches the float64 host reference",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      for (const [m, n] of [[40, 24], [24, 40], [33, 33]] as const) {
        const want = randomMat(m, n, 70 + m + n), k = Math.min(m, n);
        const a = toDevice([want], [], dtype);
        for (const fullMatrices of [true, false]) {
          const { U, S, Vh } = ga.linalg.svd(a, fullMatrices);
          assert.deepEqual([U.shape, Vh.shape], fullMatrices ? [[m, m], [n, n]] : [[m, k], [k, n]]);
          const u = fromDevice(ga.expandDims(U, 0))[0]!, vh = fromDevice(ga.expandDims(Vh, 0))[0]!;
          const sv = Array.from(S.get() as ArrayLike<number>);
          const label = `${dtype} ${m}×${n} fullMatrices ${fullMatrices}`;
          assert.ok(vecDiff(sv, hostSvdvals(want)) <= TOL[dtype] * 10 * sv[0]!, `${label}: S`);
          orthonormalColumns([u], dtype, `${label}: UᵀU = I`);
          orthonormalColumns([transpose(vh)], dtype, `${label}: Vh·Vhᵀ = I`);
          const rebuilt = matmul(mul(u.map((row) => row.slice(0, k)), sv), vh.slice(0, k));
          near(rebuilt, want, dtype, `${label}: U·S·Vh`, m + n);
        }
        const values = Array.from(ga.linalg.svdvals(a).get() as ArrayLike<number>);
        assert.ok(
          vecDiff(values, hostSvdvals(want)) <= TOL[dtype] * 10 * values[0]!,
          `${dtype} ${m}×${n} svdvals`,
        );
      }
    }
    // NaN in, NumPy's LinAlgError or NaN out: never numbers that look right.
    const poisoned = randomMat(40, 40, 99);
    poisoned[3]![5] = Number.NaN;
    try {
      const values = Array.from(
        ga.linalg.svdvals(toDevice([poisoned], [], "float64")).get() as ArrayLike<number>,
      );
      assert.ok(values.some(Number.isNaN), `svdvals of a matrix holding NaN: ${values.slice(0, 3)}`);
    } catch (e) {
      assert.equal((e as Error).name, "LinAlgError", String(e));
    }
  },
);

eachBackend(
  "svd() of rank-deficient and ill-conditioned matrices keeps A = U·S·Vh and the host's singular values",
  () => {
    const rank2 = matmul(randomMat(6, 2, 60), randomMat(2, 5, 61)); // rank 2
    const h = hilbert(7); // condition number about 5e8
    const [u, s, vh] = ga.linalg.svd(toDevice([rank2], [], "float64"));
    const sv = vectorsOf(s)[0]!;
    assert.ok(vecDiff(sv, hostSvdvals(rank2)) <= 1e-12 * sv[0]!, "rank 2: S");
    assert.ok(sv.slice(2).every((x) => x <= 1e-13 * sv[0]!), "rank 2: zeros beyond the rank");
    orthonormalColumns(fromDevice(u), "float64", "rank 2: U orthonormal where S is zero too");
    orthonormalColumns(fromDevice(vh).map(transpose), "float64", "rank 2: Vh orthonormal");
    near(
      matmul(mul(fromDevice(u)[0]!.map((r) => r.slice(0, 5)), sv), fromDevice(vh)[0]!),
      rank2,
      "float64",
      "rank 2: U·S·Vh",
      11,
    );
    const hs = vectorsOf(ga.linalg.svdvals(toDevice([h], [], "float64")))[0]!;
    const want = hostSvdvals(h);
    hs.forEach((x, i) =>
      assert.ok(Math.abs(x - want[i]!) <= 1e-14 * want[0]! * 10, `Hilbert σ${i}: ${x} vs ${want[i]}`)
    );
    assert.ok(Math.abs(hs[6]! / want[6]! - 1) < 1e-5, "the smallest singular value to 5 digits");
  },
);

eachBackend(
  "eigh() and eigvalsh() match the host Jacobi eigenvalues, with V·diag(w)·Vᵀ = A, for batches and either triangle",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      const mats = [1, 2, 3, 4, 5, 6].map((seed) => {
        const b = randomMat(6, 6, 70 + seed);
        return matmul(b, transpose(b)).map((row, i) => row.map((x, j) => x - (i === j ? 1.5 : 0))); // indefinite
      });
      const a = toDevice(mats, [2, 3], dtype);
      const [w, v] = ga.linalg.eigh(a);
      assert.deepEqual([w.shape, v.shape, w.dtype], [[2, 3, 6], [2, 3, 6, 6], dtype]);
      const ws = vectorsOf(w), vs = fromDevice(v);
      orthonormalColumns(vs, dtype, `${dtype}: VᵀV = I`);
      mats.forEach((want, b) => {
        const host = hostEigvalsh(want);
        assert.ok(
          vecDiff(ws[b]!, host) <= TOL[dtype] * 10 * scale(want),
          `${dtype}: eigenvalues of matrix ${b}`,
        );
        near(
          matmul(mul(vs[b]!, ws[b]!), transpose(vs[b]!)),
          want,
          dtype,
          `${dtype}: V·diag(w)·Vᵀ, matrix ${b}`,
          6,
        );
      });
      // The lower triangle alone by default, the upper with "U".
      const lower = mats.map((m) => m.map((row, i) => row.map((x, j) => (j > i ? -7 : x))));
      const upper = mats.map((m) => m.map((row, i) => row.map((x, j) => (j < i ? 7 : x))));
      const wl = vectorsOf(ga.linalg.eigvalsh(toDevice(lower, [6], dtype)));
      const wu = vectorsOf(ga.linalg.eigvalsh(toDevice(upper, [6], dtype), "U"));
      mats.forEach((m, b) => {
        const host = hostEigvalsh(m);
        assert.ok(vecDiff(wl[b]!, host) <= TOL[dtype] * 10 * scale(m), `${dtype}: UPLO L, matrix ${b}`);
        assert.ok(vecDiff(wu[b]!, host) <= TOL[dtype] * 10 * scale(m), `${dtype}: UPLO U, matrix ${b}`);
      });
    }
    const repeated = ga.linalg.eigh(ga.eye(4, "float64").mul(3));
    assert.ok(vecDiff(Array.from(repeated.eigenvalues.get() as Float64Array), [3, 3, 3, 3]) <= 1e-14);
    orthonormalColumns(fromDevice(repeated.eigenvectors), "float64", "a repeated eigenvalue's basis");
  },
);

eachBackend("linalg decompositions refuse wrong shapes, dtypes and options with the fix", () => {
  assert.throws(() => ga.linalg.cholesky(ga.ones([3])), {
    name: "RangeError",
    message:
      "Cannot cholesky an array of shape [3]: it takes a matrix or a batch of them, at least 2 dimensions",
  });
  assert.throws(() => ga.linalg.eigh(ga.ones([2, 3])), {
    name: "RangeError",
    message:
      "Cannot eigh an array of shape [2, 3]: its matrices must be square, and the last two axes are 2 and 3",
  });
  if (ga.zeros([1]).backend.supports("float16")) {
    assert.throws(() => ga.linalg.svd(ga.ones([2, 2], "float16")), {
      name: "TypeError",
      message:
        'Cannot svd a float16 array: linear algebra computes in float32 or float64 (NumPy refuses float16 too); convert it first, a.astype("float32")',
    });
  }
  assert.equal(
    ga.linalg.svdvals(ga.asarray([[3, 0], [0, 4]], "int8")).dtype,
    "float64",
    "integers compute in float64",
  );
  assert.throws(() => ga.linalg.eigh(ga.eye(2), "X" as "U"), {
    name: "RangeError",
    message: 'Cannot eigh with UPLO "X": give "L" (the lower triangle) or "U" (the upper)',
  });
  assert.throws(() => ga.linalg.cholesky(ga.eye(2), { lower: true } as never), {
    name: "TypeError",
    message: /lower/,
  });
  assert.throws(() => ga.linalg.svd(ga.eye(2), { check: "no" } as never), {
    name: "TypeError",
    message: "Cannot take { check: no }: check is true or false",
  });
  assert.throws(() => ga.linalg.qr([[1]] as never), {
    name: "TypeError",
    message: "Cannot qr object: pass a GPUArray",
  });
});

eachBackend(
  "decompositions of a matrix larger than a work-group and of a batch past the small-matrix path stay exact",
  () => {
    const n = 260; // more rows and columns than a work-group of the own kernels has threads
    const a = randomMat(n, n, 90).map((row, i) => row.map((x, j) => x + (i === j ? 8 : 0)));
    const [q, r] = ga.linalg.qr(toDevice([a], [], "float64"));
    const qh = fromDevice(q)[0]!;
    near(matmul(qh, fromDevice(r)[0]!), a, "float64", "Q·R of order 260", n);
    near(matmul(transpose(qh), qh), identity(n), "float64", "QᵀQ of order 260", n);
    const s = spd(n, 91), l = fromDevice(ga.linalg.cholesky(toDevice([s], [], "float64")))[0]!;
    near(matmul(l, transpose(l)), s, "float64", "L·Lᵀ of order 260", n);
    // Order 40 in a batch: cuSOLVER's call per matrix on CUDA, the own kernels on OpenCL.
    const mats = [92, 93].map((seed) => randomMat(40, 40, seed));
    const sv = vectorsOf(ga.linalg.svdvals(toDevice(mats, [2], "float64")));
    mats.forEach((m, b) =>
      assert.ok(vecDiff(sv[b]!, hostSvdvals(m)) <= 1e-12 * sv[b]![0]!, `σ of matrix ${b}`)
    );
    const sym = mats.map((m) => matmul(m, transpose(m)));
    const [w, v] = ga.linalg.eigh(toDevice(sym, [2], "float64"));
    const ws = vectorsOf(w), vs = fromDevice(v);
    sym.forEach((m, b) => {
      assert.ok(vecDiff(ws[b]!, hostEigvalsh(m)) <= 1e-12 * scale(m) * 40, `eigenvalues of matrix ${b}`);
      near(matmul(mul(vs[b]!, ws[b]!), transpose(vs[b]!)), m, "float64", `V·diag(w)·Vᵀ of matrix ${b}`, 40);
    });
  },
);
