import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { randomArray, rng } from "./_grad_programs.ts";
import { asArray, checkGradient, plus, weighted } from "./_finite_differences.ts";

const host = (a: ga.GPUArray) => Array.from(a.get() as Float64Array);

/** A well-conditioned random matrix (or batch): entries in [-1, 1) plus 3 on the diagonal. */
function wellConditioned(shape: number[], seed: number): ga.GPUArray {
  const n = shape[shape.length - 1]!;
  return randomArray(shape, rng(seed)).add(ga.eye(n, "float64").mul(3));
}

eachBackend("grad() of solve() and inv() matches finite differences, batched and broadcast", () => {
  const a = wellConditioned([2, 3, 3], 1), b = randomArray([2, 3, 2], rng(2)), v = randomArray([3], rng(3));
  const lossM = weighted(4), lossV = weighted(5), lossI = weighted(6);
  checkGradient("solve(a, b) for matrices b", (a, b) => lossM(ga.linalg.solve(a, b)), [a, b], 10);
  checkGradient(
    "solve(a, v) for a vector v against a batch",
    (a, v) => lossV(ga.linalg.solve(a, v)),
    [a, v],
    11,
  );
  checkGradient("inv(a)", (a) => lossI(ga.linalg.inv(a)), [a], 12);
});

eachBackend("grad() of det() and slogdet() matches finite differences and det·a⁻ᵀ", () => {
  const a = wellConditioned([3, 3], 20), batch = wellConditioned([2, 4, 4], 21);
  checkGradient("det(a) of one matrix", (a) => asArray(ga.linalg.det(a)), [a], 22);
  const lossB = weighted(23);
  checkGradient("det(a) of a batch", (a) => lossB(asArray(ga.linalg.det(a))), [batch], 24);
  checkGradient("slogdet(a).logabsdet", (a) => asArray(ga.linalg.slogdet(a).logabsdet), [a], 25);
  // The sign carries no gradient: sign·exp(logabsdet) differentiates as det does.
  const viaSlogdet = ga.grad((a: ga.GPUArray) => {
    const { sign, logabsdet } = ga.linalg.slogdet(a);
    return asArray(sign).mul(asArray(logabsdet).exp());
  })(a);
  const viaDet = ga.grad((a: ga.GPUArray) => asArray(ga.linalg.det(a)))(a);
  host(viaSlogdet).forEach((x, i) => assert.ok(Math.abs(x - host(viaDet)[i]!) < 1e-10, `element ${i}`));
  // Outside a differentiation one matrix's determinant stays a host number.
  assert.equal(typeof ga.linalg.det(a), "number");
});

eachBackend("grad() of det()'s gradient (a second derivative) matches finite differences", () => {
  const a = wellConditioned([3, 3], 30), w = randomArray([3, 3], rng(31));
  const firstDerivative = (a: ga.GPUArray) =>
    ga.sum(ga.grad((x: ga.GPUArray) => asArray(ga.linalg.det(x)))(a).mul(w));
  checkGradient("sum(grad(det)(a) * w)", firstDerivative, [a], 32);
});

eachBackend("grad() of cholesky() matches finite differences, lower and upper", () => {
  const x = randomArray([2, 4, 4], rng(40));
  const spd = (x: ga.GPUArray) => ga.matmul(x, ga.swapaxes(x, -1, -2)).add(ga.eye(4, "float64").mul(2));
  const lower = weighted(41), upper = weighted(42);
  checkGradient("cholesky(x·xᵀ + 2I)", (x) => lower(ga.linalg.cholesky(spd(x))), [x], 43);
  checkGradient(
    "cholesky(x·xᵀ + 2I, upper)",
    (x) => upper(ga.linalg.cholesky(spd(x), { upper: true })),
    [x],
    44,
  );
});

eachBackend("grad() of qr() matches finite differences for tall, square and wide matrices", () => {
  for (const [shape, seed] of [[[5, 3], 50], [[2, 4, 4], 51], [[3, 5], 52]] as const) {
    const a = randomArray(shape, rng(seed));
    const lossQ = weighted(seed + 100), lossR = weighted(seed + 200), lossOnlyR = weighted(seed + 300);
    checkGradient(
      `qr of ${shape}: Q and R`,
      (a) => {
        const [q, r] = ga.linalg.qr(a);
        return plus(lossQ(q), lossR(r));
      },
      [a],
      seed + 400,
    );
    checkGradient(`qr of ${shape}, mode r`, (a) => lossOnlyR(ga.linalg.qr(a, "r")), [a], seed + 500);
  }
  const tall = randomArray([5, 3], rng(53)), lossR = weighted(54);
  checkGradient("qr complete of a tall matrix: R", (a) => lossR(ga.linalg.qr(a, "complete").R), [tall], 55);
  assert.throws(() => ga.grad((a: ga.GPUArray) => ga.sum(ga.linalg.qr(a, "complete").Q))(tall), {
    name: "TypeError",
    message: /Q of qr\(a, "complete"\).*use mode "reduced"/,
  });
});

eachBackend("grad() of eigh() and eigvalsh() matches finite differences (sign-free losses)", () => {
  const x = randomArray([2, 4, 4], rng(60));
  const sym = (x: ga.GPUArray) => x.add(ga.swapaxes(x, -1, -2));
  const lossW = weighted(61), lossV = weighted(62), lossE = weighted(63);
  checkGradient("eigh: eigenvalues", (x) => lossW(ga.linalg.eigh(sym(x))[0]), [x], 64);
  // Each eigenvector's sign is arbitrary: v² does not see it.
  checkGradient(
    "eigh: eigenvectors squared",
    (x) => {
      const v = ga.linalg.eigh(sym(x))[1];
      return lossV(v.mul(v));
    },
    [x],
    65,
  );
  checkGradient("eigvalsh", (x) => lossE(ga.linalg.eigvalsh(sym(x))), [x], 66);
});

eachBackend("grad() of svd() matches finite differences for tall, square and wide matrices", () => {
  for (const [shape, seed] of [[[5, 3], 70], [[2, 4, 4], 71], [[3, 5], 72]] as const) {
    const a = randomArray(shape, rng(seed));
    const lossU = weighted(seed + 100), lossS = weighted(seed + 200), lossV = weighted(seed + 300);
    const lossVals = weighted(seed + 400);
    checkGradient(`svd of ${shape}: S`, (a) => lossS(ga.linalg.svd(a, false).S), [a], seed + 500);
    checkGradient(
      `svd of ${shape}: U²`,
      (a) => {
        const u = ga.linalg.svd(a, false).U;
        return lossU(u.mul(u));
      },
      [a],
      seed + 600,
    );
    checkGradient(
      `svd of ${shape}: Vh²`,
      (a) => {
        const vh = ga.linalg.svd(a, false).Vh;
        return lossV(vh.mul(vh));
      },
      [a],
      seed + 700,
    );
    checkGradient(`svdvals of ${shape}`, (a) => lossVals(ga.linalg.svdvals(a)), [a], seed + 800);
  }
  const wide = randomArray([3, 5], rng(73));
  checkGradient("svd full of a wide matrix: S", (a) => ga.sum(ga.linalg.svd(a).S), [wide], 74);
  assert.throws(() => ga.grad((a: ga.GPUArray) => ga.sum(ga.linalg.svd(a).U))(wide), {
    name: "TypeError",
    message: /U or Vh of svd\(a, \{ fullMatrices: true \}\).*pass fullMatrices: false/,
  });
});

eachBackend(
  "grad() flows through what stands on the SVD and inv: pinv, lstsq, norm ord 2 and nuc, cond",
  () => {
    const a = randomArray([5, 3], rng(80)), b = randomArray([5, 2], rng(81));
    const lossP = weighted(82), lossL = weighted(83);
    checkGradient("pinv", (a) => lossP(ga.linalg.pinv(a)), [a], 84);
    checkGradient("lstsq solution", (a, b) => lossL(ga.linalg.lstsq(a, b)[0]), [a, b], 85);
    checkGradient("norm ord 2", (a) => asArray(ga.linalg.norm(a, 2)), [a], 86);
    checkGradient("norm ord nuc", (a) => asArray(ga.linalg.norm(a, "nuc")), [a], 87);
    checkGradient("cond", (a) => asArray(ga.linalg.cond(a)), [a], 88);
    checkGradient("cond ord fro (through inv)", (a) => asArray(ga.linalg.cond(a, "fro")), [
      wellConditioned([3, 3], 89),
    ], 90);
  },
);

eachBackend("grad() of tril() and triu() passes the kept triangle's gradient", () => {
  const x = randomArray([3, 4], rng(90));
  const gl = ga.grad((x: ga.GPUArray) => ga.sum(ga.tril(x, -1)))(x),
    gu = ga.grad((x: ga.GPUArray) => ga.sum(ga.triu(x)))(x);
  const lower = [0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0];
  assert.deepEqual(host(gl), lower);
  assert.deepEqual(host(gu), [1, 1, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1]);
});

eachBackend("grad() of matrixPower() and multiDot() matches finite differences", () => {
  const a = wellConditioned([3, 3], 100),
    b = randomArray([3, 4], rng(101)),
    c = randomArray([4, 2], rng(102));
  const cube = weighted(103), inverseSquare = weighted(104), chain = weighted(105);
  checkGradient("matrixPower(a, 3)", (a) => cube(ga.linalg.matrixPower(a, 3)), [a], 106);
  checkGradient("matrixPower(a, -2)", (a) => inverseSquare(ga.linalg.matrixPower(a, -2)), [a], 107);
  checkGradient(
    "multiDot([a, b, c])",
    (a, b, c) => chain(asArray(ga.linalg.multiDot([a, b, c]))),
    [a, b, c],
    108,
  );
});
