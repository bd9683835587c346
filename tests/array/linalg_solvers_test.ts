import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import {
  fromDevice,
  hilbert,
  hostDet,
  hostLu,
  hostSolve,
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
const TOL: Record<Float, number> = { float32: 5e-5, float64: 1e-11 };

function near(got: Mat, want: Mat, dtype: Float, label: string, size = 1) {
  const d = maxDiff(got, want), bound = TOL[dtype] * size * scale(want);
  assert.ok(d <= bound, `${label}: off by ${d} (allowed ${bound})`);
}

function closeTo(got: number, want: number, tol: number, label: string) {
  assert.ok(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${label}: ${got} vs ${want}`);
}

eachBackend(
  "solve() of float64 and float32 batches, for vectors and k right-hand sides, matches the float64 host reference",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      const mats = [1, 2, 3, 4, 5, 6].map((s) =>
        randomMat(5, 5, s).map((r, i) => r.map((x, j) => x + (i === j ? 2 : 0)))
      );
      const rhs = [7, 8, 9, 10, 11, 12].map((s) => randomMat(5, 3, s));
      const x = ga.linalg.solve(toDevice(mats, [2, 3], dtype), toDevice(rhs, [2, 3], dtype));
      assert.deepEqual([x.shape, x.dtype], [[2, 3, 5, 3], dtype]);
      fromDevice(x).forEach((got, b) =>
        near(got, hostSolve(mats[b]!, rhs[b]!), dtype, `${dtype} system ${b}`, 25)
      );
      // A vector b is solved against every matrix (NumPy 2: b.ndim == 1 is a vector).
      const v = ga.toGpu(
        dtype === "float32" ? new Float32Array([1, 2, 3, 4, 5]) : new Float64Array([1, 2, 3, 4, 5]),
      );
      const xv = ga.linalg.solve(toDevice(mats, [6], dtype), v);
      assert.deepEqual(xv.shape, [6, 5]);
      vectorsOf(xv).forEach((got, b) => {
        const want = hostSolve(mats[b]!, [[1], [2], [3], [4], [5]]).map((r) => r[0]!);
        assert.ok(
          vecDiff(got, want) <= TOL[dtype] * 25 * Math.max(...want.map(Math.abs)),
          `${dtype} vector ${b}`,
        );
      });
    }
    // Batch axes broadcast: [2, 1] matrices with [3] right-hand sides give [2, 3].
    const a = [randomMat(4, 4, 20), randomMat(4, 4, 21)], b = [22, 23, 24].map((s) => randomMat(4, 2, s));
    const x = ga.linalg.solve(toDevice(a, [2, 1], "float64"), toDevice(b, [3], "float64"));
    assert.deepEqual(x.shape, [2, 3, 4, 2]);
    fromDevice(x).forEach((got, k) =>
      near(got, hostSolve(a[Math.floor(k / 3)]!, b[k % 3]!), "float64", `broadcast ${k}`, 16)
    );
    // Views and integers: a transposed view, int32 operands computing in float64.
    const ints = ga.asarray([[2, 1], [1, 3]], "int32");
    const xi = ga.linalg.solve(ints.T, ga.asarray([3, 5], "int32"));
    assert.equal(xi.dtype, "float64");
    assert.deepEqual(Array.from(xi.get() as Float64Array).map((t) => Math.round(t * 1e12) / 1e12), [
      0.8,
      1.4,
    ]);
  },
);

eachBackend(
  "solve() and inv() match the host on both sides of the one-thread kernel's limit (orders 1, 8, 9 and 17) and over several work-groups, singular members named",
  () => {
    for (const n of [1, 8, 9, 17]) {
      for (const dtype of ["float64", "float32"] as const) {
        const mats = [40, 41, 42].map((s) =>
          randomMat(n, n, s + n).map((r, i) => r.map((x, j) => x + (i === j ? 3 : 0)))
        );
        const rhs = [43, 44, 45].map((s) => randomMat(n, 2, s + n));
        const x = fromDevice(ga.linalg.solve(toDevice(mats, [3], dtype), toDevice(rhs, [3], dtype)));
        const inverse = fromDevice(ga.linalg.inv(toDevice(mats, [3], dtype)));
        // As many right-hand sides as rows: the small kernel's square output path, as inv's.
        const square = fromDevice(
          ga.linalg.solve(toDevice(mats, [3], dtype), toDevice(mats.map(transpose), [3], dtype)),
        );
        mats.forEach((m, b) => {
          near(x[b]!, hostSolve(m, rhs[b]!), dtype, `order ${n} ${dtype} solve ${b}`, 4 * n);
          near(inverse[b]!, hostSolve(m, identity(n)), dtype, `order ${n} ${dtype} inverse ${b}`, 4 * n);
          near(square[b]!, hostSolve(m, transpose(m)), dtype, `order ${n} ${dtype} square solve ${b}`, 4 * n);
        });
      }
    }
    // 150 matrices: three work-groups of the kernel, the last one part full.
    for (const n of [3, 8]) {
      const mats = Array.from(
        { length: 150 },
        (_, s) => randomMat(n, n, 900 + s).map((r, i) => r.map((x, j) => x + (i === j ? 3 : 0))),
      );
      const rhs = Array.from({ length: 150 }, (_, s) => randomMat(n, 1, 1200 + s));
      const x = fromDevice(
        ga.linalg.solve(toDevice(mats, [150], "float32"), toDevice(rhs, [150], "float32")),
      );
      const inverse = fromDevice(ga.linalg.inv(toDevice(mats, [150], "float32")));
      mats.forEach((m, b) => {
        near(x[b]!, hostSolve(m, rhs[b]!), "float32", `order ${n} batch solve ${b}`, 4 * n);
        near(inverse[b]!, hostSolve(m, identity(n)), "float32", `order ${n} batch inverse ${b}`, 4 * n);
      });
    }
    // A zero matrix in the middle of a batch of 8 × 8 ones.
    const batch = [identity(8), identity(8).map((r) => r.map(() => 0)), identity(8)];
    assert.throws(() => ga.linalg.inv(toDevice(batch, [3], "float64")), {
      name: "LinAlgError",
      message: /Cannot inv: matrix \[1\] of the batch is singular/,
    });
    const unchecked = fromDevice(ga.linalg.inv(toDevice(batch, [3], "float64"), { check: false }));
    assert.deepEqual(unchecked[0], identity(8));
    assert.ok(unchecked[1]!.flat().some((v) => !Number.isFinite(v)));
  },
);

eachBackend("solve() of an ill-conditioned Hilbert system has a small backward error", () => {
  const h = hilbert(8); // condition number about 1.5e10
  const b = matmul(h, [[1], [1], [1], [1], [1], [1], [1], [1]]);
  const x = fromDevice(ga.linalg.solve(toDevice([h], [], "float64"), toDevice([b], [], "float64")))[0]!;
  const residual = maxDiff(matmul(h, x), b);
  assert.ok(residual <= 1e-13 * scale(b), `residual ${residual}`);
  assert.ok(x.every((r) => Math.abs(r[0]! - 1) < 1e-3), "the solution to the conditioning's accuracy");
});

eachBackend("inv() of float64 and float32 batches is the host inverse, and A·inv(A) = I", () => {
  for (const dtype of ["float64", "float32"] as const) {
    const mats = [30, 31, 32, 33].map((s) =>
      randomMat(6, 6, s).map((r, i) => r.map((x, j) => x + (i === j ? 3 : 0)))
    );
    const inverse = fromDevice(ga.linalg.inv(toDevice(mats, [4], dtype)));
    inverse.forEach((got, b) => {
      near(got, hostSolve(mats[b]!, identity(6)), dtype, `${dtype} inverse ${b}`, 36);
      near(matmul(mats[b]!, got), identity(6), dtype, `${dtype} A·inv(A) ${b}`, 36);
    });
  }
  const empty = ga.linalg.inv(ga.zeros([3, 0, 0]));
  assert.deepEqual(empty.shape, [3, 0, 0]);
});

eachBackend(
  "det() and slogdet() match the host LU's determinant for batches, permutations, singular and huge matrices",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      const mats = [40, 41, 42, 43, 44, 45].map((s) => randomMat(5, 5, s));
      const d = ga.linalg.det(toDevice(mats, [3, 2], dtype)) as ga.GPUArray;
      assert.deepEqual([d.shape, d.dtype], [[3, 2], dtype]);
      Array.from(d.get() as Float64Array).forEach((got, b) =>
        closeTo(got, hostDet(mats[b]!), TOL[dtype] * 50, `${dtype} det ${b}`)
      );
      const { sign, logabsdet } = ga.linalg.slogdet(toDevice(mats, [6], dtype));
      const signs = Array.from((sign as ga.GPUArray).get() as Float64Array);
      Array.from((logabsdet as ga.GPUArray).get() as Float64Array).forEach((got, b) => {
        const want = hostDet(mats[b]!);
        assert.equal(signs[b], Math.sign(want), `${dtype} sign ${b}`);
        closeTo(got, Math.log(Math.abs(want)), TOL[dtype] * 50, `${dtype} log|det| ${b}`);
      });
    }
    const swap = [[0, 0, 1], [0, 1, 0], [1, 0, 0]], cycle = [[0, 1, 0], [0, 0, 1], [1, 0, 0]];
    assert.equal(ga.linalg.det(toDevice([swap], [], "float64")), -1, "an odd permutation");
    assert.equal(ga.linalg.det(toDevice([cycle], [], "float64")), 1, "an even permutation");
    const singular = [[1, 2, 3], [4, 5, 6], [7, 8, 9]].map((r) => r.map((x) => x * 2 ** -3));
    const ds = ga.linalg.det(toDevice([singular], [], "float64")) as number;
    assert.ok(Math.abs(ds) < 1e-15, `a singular matrix: ${ds}`);
    const zero = ga.linalg.slogdet(ga.zeros([3, 3]));
    assert.deepEqual([zero.sign, zero.logabsdet], [0, -Infinity]);
    // 10·I of order 60: det = 1e60 overflows float32, log|det| does not.
    const big = ga.eye(60).mul(10);
    assert.equal(ga.linalg.det(big), Infinity);
    const huge = ga.linalg.slogdet(big);
    assert.equal(huge.sign, 1);
    closeTo(huge.logabsdet as number, 60 * Math.log(10), 1e-6, "log|det| of 10·I");
    const { lu } = hostLu([[1]]);
    assert.equal(ga.linalg.det(ga.ones([1, 1])), lu[0]![0]);
    assert.equal(ga.linalg.det(ga.zeros([0, 0])), 1, "the empty product");
  },
);

eachBackend(
  "solve() and inv() of singular matrices are LinAlgErrors naming the matrix; check: false gives inf and NaN",
  () => {
    const singular = [[1, 2], [2, 4]], fine = [[2, 1], [1, 2]];
    assert.throws(() => ga.linalg.inv(toDevice([singular], [], "float64")), {
      name: "LinAlgError",
      message: "Cannot inv: the matrix is singular (U[1, 1] of its LU factorization is exactly zero); " +
        "pass { check: false } to get inf and NaN instead of this error",
    });
    const batch = toDevice([fine, singular, fine, singular, fine, fine], [2, 3], "float32");
    assert.throws(() => ga.linalg.solve(batch, ga.ones([2])), (e: unknown) => {
      assert.ok(e instanceof ga.linalg.LinAlgError);
      assert.deepEqual(e.index, [0, 1]);
      assert.equal(
        e.message,
        "Cannot solve: 2 of the 6 matrices of the batch are singular, the first at [0, 1] (U[1, 1] of its LU " +
          "factorization is exactly zero); pass { check: false } to get inf and NaN instead of this error",
      );
      return true;
    });
    const unchecked = vectorsOf(ga.linalg.solve(batch, ga.ones([2]), { check: false }));
    assert.ok(unchecked[1]!.some((x) => !Number.isFinite(x)), "the singular system's solution is inf or NaN");
    assert.ok(vecDiff(unchecked[0]!, [1 / 3, 1 / 3]) < 1e-6, "the others are solved");
    const inverse = fromDevice(ga.linalg.inv(toDevice([singular], [], "float64"), { check: false }))[0]!;
    assert.ok(inverse.flat().some((x) => !Number.isFinite(x)));
  },
);

eachBackend(
  "lstsq() matches the host normal equations, with residuals, rank and singular values; rank-deficient too",
  () => {
    for (const dtype of ["float64", "float32"] as const) {
      const a = randomMat(8, 3, 50), b = randomMat(8, 2, 51);
      const [x, residuals, rank, s] = ga.linalg.lstsq(toDevice([a], [], dtype), toDevice([b], [], dtype));
      const at = transpose(a), want = hostSolve(matmul(at, a), matmul(at, b));
      near(fromDevice(x)[0]!, want, dtype, `${dtype} x`, 50);
      assert.equal(rank, 3);
      assert.ok(vecDiff(vectorsOf(s)[0]!, hostSvdvals(a)) < TOL[dtype] * 10, `${dtype} s`);
      const r = matmul(a, want).map((row, i) => row.map((v, j) => b[i]![j]! - v));
      const sums = [0, 1].map((j) => r.reduce((t, row) => t + row[j]! ** 2, 0));
      assert.ok(vecDiff(vectorsOf(residuals)[0]!, sums) < TOL[dtype] * 50, `${dtype} residuals`);
    }
    // Rank 1: the minimum-norm solution, no residuals.
    const a = [[1, 2], [2, 4], [3, 6]];
    const { x, residuals, rank } = ga.linalg.lstsq(
      toDevice([a], [], "float64"),
      ga.asarray([1, 2, 3], "float64"),
    );
    assert.equal(rank, 1);
    assert.deepEqual(residuals.shape, [0]);
    assert.ok(vecDiff(Array.from(x.get() as Float64Array), [0.2, 0.4]) < 1e-12, "x = pinv(a)·b");
    assert.throws(() => ga.linalg.lstsq(ga.ones([3, 2]), ga.ones([4])), {
      name: "RangeError",
      message:
        "Cannot lstsq a of shape [3, 2] with b of shape [4]: a must be a matrix (m × n) and b of shape [m] or [m, k], with m = 3",
    });
  },
);

eachBackend("pinv(), matrixRank() and cond() follow the host singular values", () => {
  const tall = randomMat(6, 4, 60);
  const p = fromDevice(ga.linalg.pinv(toDevice([tall], [], "float64")))[0]!;
  near(matmul(p, tall), identity(4), "float64", "pinv(A)·A = I for full column rank", 24);
  near(matmul(matmul(tall, p), tall), tall, "float64", "A·pinv(A)·A = A", 24);
  const rank1 = [[1, 2], [2, 4], [3, 6]];
  // Rank 1: the second singular value is rounding noise, cut off by rcond (NumPy's default 1e-15 is for float64).
  const pinv1 = [[1 / 70, 2 / 70, 3 / 70], [2 / 70, 4 / 70, 6 / 70]];
  near(
    fromDevice(ga.linalg.pinv(toDevice([rank1], [], "float32"), 1e-5))[0]!,
    pinv1,
    "float32",
    "pinv of rank 1",
    10,
  );
  near(
    fromDevice(ga.linalg.pinv(toDevice([rank1], [], "float64"), { rtol: null }))[0]!,
    pinv1,
    "float64",
    "rtol",
    10,
  );
  const sym = spd(5, 61);
  near(
    fromDevice(ga.linalg.pinv(toDevice([sym], [], "float64"), { hermitian: true }))[0]!,
    hostSolve(sym, identity(5)),
    "float64",
    "hermitian pinv",
    25,
  );
  assert.equal(ga.linalg.matrixRank(toDevice([rank1], [], "float64")), 1);
  assert.equal(ga.linalg.matrixRank(ga.eye(5)), 5);
  assert.equal(ga.linalg.matrixRank(ga.zeros([4])), 0);
  assert.equal(ga.linalg.matrixRank(ga.asarray([0, 1])), 1);
  const ranks = ga.linalg.matrixRank(
    toDevice([tall.slice(0, 4), rank1.concat([[0, 0]]).map((r) => [...r, 0, 0])], [2], "float64"),
  );
  assert.deepEqual(Array.from((ranks as ga.GPUArray).get() as BigInt64Array), [4n, 1n]);
  assert.equal(ga.linalg.matrixRank(toDevice([sym], [], "float64"), { hermitian: true }), 5);
  const sv = hostSvdvals(tall);
  closeTo(ga.linalg.cond(toDevice([tall], [], "float64")) as number, sv[0]! / sv[3]!, 1e-10, "cond 2");
  closeTo(ga.linalg.cond(toDevice([tall], [], "float64"), -2) as number, sv[3]! / sv[0]!, 1e-10, "cond -2");
  const sq = randomMat(4, 4, 62), inv = hostSolve(sq, identity(4));
  const colSum = (m: Mat) => Math.max(...transpose(m).map((c) => c.reduce((t, x) => t + Math.abs(x), 0)));
  closeTo(
    ga.linalg.cond(toDevice([sq], [], "float64"), 1) as number,
    colSum(sq) * colSum(inv),
    1e-9,
    "cond 1",
  );
  const fro = (m: Mat) => Math.hypot(...m.flat());
  closeTo(
    ga.linalg.cond(toDevice([sq], [], "float64"), "fro") as number,
    fro(sq) * fro(inv),
    1e-9,
    "cond fro",
  );
  assert.equal(
    ga.linalg.cond(toDevice([[[1, 2], [2, 4]]], [], "float64"), 1),
    Infinity,
    "singular: infinite",
  );
});

eachBackend("norm() takes NumPy's vector and matrix ords", () => {
  const m = [[1, -2, 3], [-4, 5, -6]], v = [3, -4, 0, 1];
  const a = toDevice([m], [], "float64"), x = ga.asarray(v, "float64");
  const sv = hostSvdvals(m);
  const cases: [unknown, number][] = [
    [ga.linalg.norm(a), Math.hypot(...m.flat())],
    [ga.linalg.norm(a, "fro"), Math.hypot(...m.flat())],
    [ga.linalg.norm(a, "nuc"), sv[0]! + sv[1]!],
    [ga.linalg.norm(a, 1), 9],
    [ga.linalg.norm(a, -1), 5],
    [ga.linalg.norm(a, Infinity), 15],
    [ga.linalg.norm(a, -Infinity), 6],
    [ga.linalg.norm(a, 2), sv[0]!],
    [ga.linalg.norm(a, -2), sv[1]!],
    [ga.linalg.norm(x, Infinity), 4],
    [ga.linalg.norm(x, -Infinity), 0],
    [ga.linalg.norm(x, 0), 3],
    [ga.linalg.norm(x, 1), 8],
    [ga.linalg.norm(x, 3), Math.cbrt(27 + 64 + 1)],
  ];
  cases.forEach(([got, want], i) => closeTo(got as number, want, 1e-12, `case ${i}`));
  const rows = ga.linalg.norm(a, 1, 1) as ga.GPUArray;
  assert.deepEqual(Array.from(rows.get() as Float64Array), [6, 15]);
  const kept = ga.linalg.norm(a, Infinity, [0, 1], true) as ga.GPUArray;
  assert.deepEqual([kept.shape, Array.from(kept.get() as Float64Array)], [[1, 1], [15]]);
  assert.throws(() => ga.linalg.norm(x, "fro"), {
    name: "RangeError",
    message: 'Cannot norm vectors with ord "fro": it is a matrix norm; give two axes',
  });
  assert.throws(() => ga.linalg.norm(a, 3), {
    name: "RangeError",
    message: /^Cannot norm matrices with ord 3/,
  });
});

eachBackend("matrixPower() and multiDot() match host products", () => {
  const f = ga.linalg.matrixPower(ga.asarray([[1, 1], [1, 0]], "int64"), 10);
  assert.deepEqual([f.dtype, Array.from(f.get() as BigInt64Array)], ["int64", [89n, 55n, 55n, 34n]]);
  const a = randomMat(3, 3, 70).map((r, i) => r.map((x, j) => x + (i === j ? 2 : 0)));
  const cube = matmul(matmul(a, a), a);
  near(fromDevice(ga.linalg.matrixPower(toDevice([a, a], [2], "float64"), 3))[1]!, cube, "float64", "a³", 9);
  near(
    fromDevice(ga.linalg.matrixPower(toDevice([a], [], "float64"), -3))[0]!,
    hostSolve(cube, identity(3)),
    "float64",
    "a⁻³",
    27,
  );
  assert.deepEqual(fromDevice(ga.linalg.matrixPower(toDevice([a], [], "float32"), 0)), [identity(3)]);
  const [b, c, d] = [randomMat(4, 6, 71), randomMat(6, 2, 72), randomMat(2, 5, 73)];
  near(
    fromDevice(
      ga.linalg.multiDot([
        toDevice([b], [], "float64"),
        toDevice([c], [], "float64"),
        toDevice([d], [], "float64"),
      ]) as ga.GPUArray,
    )[0]!,
    matmul(matmul(b, c), d),
    "float64",
    "b·c·d",
    12,
  );
  const ends = ga.linalg.multiDot([
    ga.ones([4], "float64"),
    toDevice([b], [], "float64"),
    toDevice([c], [], "float64"),
    ga.ones([2], "float64"),
  ]);
  closeTo(ends as number, matmul(b, c).flat().reduce((t, x) => t + x, 0), 1e-12, "vector·b·c·vector");
  assert.throws(() => ga.linalg.matrixPower(ga.eye(2), 0.5), {
    name: "TypeError",
    message: "Cannot matrixPower with n = 0.5: the exponent must be an integer",
  });
  assert.throws(() => ga.linalg.multiDot([ga.ones([2, 3]), ga.ones([2, 3])]), {
    name: "RangeError",
    message:
      "Cannot multiDot arrays of shapes [2, 3] and [2, 3] (positions 0 and 1): 3 columns do not meet 2 rows",
  });
});

eachBackend("solve() and inv() refuse wrong shapes with the fix", () => {
  assert.throws(() => ga.linalg.solve(ga.eye(3), ga.ones([4])), {
    name: "RangeError",
    message:
      "Cannot solve a system of shape [3, 3] for b of shape [4]: b must be a vector of length 3 or of shape [..., 3, k] (k right-hand sides)",
  });
  assert.throws(() => ga.linalg.inv(ga.ones([2, 3])), {
    name: "RangeError",
    message:
      "Cannot inv an array of shape [2, 3]: its matrices must be square, and the last two axes are 2 and 3",
  });
  assert.throws(() => ga.linalg.solve(ga.eye(2), ga.ones([2]), { checks: false } as never), {
    name: "TypeError",
    message: /checks/,
  });
});
