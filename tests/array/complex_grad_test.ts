import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { randomArray, rng } from "./_grad_programs.ts";
import { checkGradient, plus, weighted } from "./_finite_differences.ts";

const complexRandom = (shape: number[], seed: number) => {
  const random = rng(seed);
  return ga.complex(randomArray(shape, random), randomArray(shape, random));
};

eachBackend(
  "grad() of complex arithmetic and functions matches finite differences (PyTorch's convention)",
  () => {
    const z = complexRandom([2, 3], 1), w = complexRandom([2, 3], 2).add(2);
    const cases: [string, (z: ga.GPUArray, w: ga.GPUArray) => ga.GPUArray][] = [
      ["z·w", (z, w) => z.mul(w)],
      ["z / w", (z, w) => z.div(w)],
      ["exp(z) + log(w)", (z, w) => ga.exp(z).add(ga.log(w))],
      ["sqrt(w)·sin(z)", (z, w) => ga.sqrt(w).mul(ga.sin(z))],
      ["w ** 2.5 - z²", (z, w) => ga.power(w, 2.5).sub(ga.square(z))],
      ["tanh(z)·conj(w)", (z, w) => ga.tanh(z).mul(ga.conj(w))],
    ];
    cases.forEach(([what, f], i) => {
      const loss = weighted(10 + i);
      checkGradient(what, (z, w) => loss(f(z, w)), [z, w], 20 + i);
    });
  },
);

eachBackend("grad() of abs, angle, real, imag and complex() matches finite differences", () => {
  const z = complexRandom([5], 30), re = randomArray([5], rng(31)), im = randomArray([5], rng(32));
  const l1 = weighted(33), l2 = weighted(34), l3 = weighted(35), l4 = weighted(36);
  checkGradient("abs(z)", (z) => l1(ga.abs(z)), [z], 37);
  checkGradient("angle(z)", (z) => l2(ga.angle(z)), [z], 38);
  checkGradient("real(z)·imag(z)", (z) => l3(ga.real(z).mul(ga.imag(z))), [z], 39);
  checkGradient(
    "complex(re, im)² (real inputs)",
    (re, im) => l4(ga.square(ga.complex(re, im))),
    [re, im],
    40,
  );
});

eachBackend(
  "grad() of complex sums, products, matmul and real-complex mixes matches finite differences",
  () => {
    const a = complexRandom([3, 4], 50), b = complexRandom([4, 2], 51), x = randomArray([3, 4], rng(52));
    const l1 = weighted(53), l2 = weighted(54), l3 = weighted(55), l4 = weighted(56);
    checkGradient("matmul(a, b)", (a, b) => l1(ga.matmul(a, b)), [a, b], 57);
    checkGradient("prod(a, axis 1)", (a) => l2(ga.prod(a, 1) as ga.GPUArray), [a], 58);
    checkGradient(
      "sum(a·x, axis 0) with x real",
      (a, x) => l3(ga.sum(a.mul(x), 0) as ga.GPUArray),
      [a, x],
      59,
    );
    checkGradient("x.astype(complex128)·a", (a, x) => l4(x.astype("complex128").mul(a)), [a, x], 60);
  },
);

eachBackend("grad() refuses a complex loss, naming the fix", () => {
  const z = complexRandom([3], 70);
  assert.throws(() => ga.grad((z: ga.GPUArray) => ga.sum(z) as unknown as ga.GPUArray)(z), {
    name: "TypeError",
    message: /result is complex128: a loss must be real; take ga\.abs\(z\), ga\.real\(z\)/,
  });
});

eachBackend("grad() of fft, ifft, fft2 and fftn matches finite differences, with n, s and every norm", () => {
  const z = complexRandom([3, 8], 80), x = randomArray([4, 6], rng(81));
  let seed = 100;
  for (const norm of ["backward", "ortho", "forward"] as const) {
    const l1 = weighted(seed++), l2 = weighted(seed++), l3 = weighted(seed++), l4 = weighted(seed++);
    checkGradient(`fft ${norm}`, (z) => l1(ga.fft.fft(z, { norm })), [z], seed++);
    checkGradient(`ifft ${norm}, n 11 (padded)`, (z) => l2(ga.fft.ifft(z, { n: 11, norm })), [z], seed++);
    checkGradient(`fft2 ${norm} of real x`, (x) => l3(ga.fft.fft2(x, { norm })), [x], seed++);
    checkGradient(
      `fftn ${norm}, s [3, 5] (cut)`,
      (z) => l4(ga.fft.fftn(z, { s: [3, 5], norm })),
      [z],
      seed++,
    );
  }
  const la = weighted(seed++);
  checkGradient("fft along axis 0 of a 7-long (prime) axis", (z) => la(ga.fft.fft(z, { axis: 0 })), [
    complexRandom([7, 2], 82),
  ], seed++);
});

eachBackend("grad() of rfft, irfft, rfftn, irfftn, hfft and ihfft matches finite differences", () => {
  const x = randomArray([3, 10], rng(90)), odd = randomArray([2, 9], rng(91));
  const half = complexRandom([3, 6], 92), x2 = randomArray([4, 6], rng(93));
  let seed = 200;
  for (const norm of ["backward", "ortho", "forward"] as const) {
    const l = Array.from({ length: 6 }, () => weighted(seed++));
    checkGradient(`rfft ${norm}`, (x) => l[0]!(ga.fft.rfft(x, { norm })), [x], seed++);
    checkGradient(
      `rfft ${norm} of odd length, n 12`,
      (x) => l[1]!(ga.fft.rfft(x, { n: 12, norm })),
      [odd],
      seed++,
    );
    checkGradient(`irfft ${norm} (n 10)`, (z) => l[2]!(ga.fft.irfft(z, { norm })), [half], seed++);
    checkGradient(`irfft ${norm}, n 9 (odd)`, (z) => l[3]!(ga.fft.irfft(z, { n: 9, norm })), [half], seed++);
    checkGradient(
      `rfftn then irfftn ${norm}`,
      (x) => l[4]!(ga.fft.irfftn(ga.fft.rfftn(x, { norm }), { s: [4, 6], norm }).mul(x)),
      [x2],
      seed++,
    );
    checkGradient(
      `hfft and ihfft ${norm}`,
      (z) => l[5]!(ga.fft.ihfft(ga.fft.hfft(z, { norm }).mul(2), { norm })),
      [half],
      seed++,
    );
  }
});

eachBackend(
  "grad() of solve, inv, det, slogdet, cholesky, qr, eigh and svd of complex matrices matches finite differences",
  () => {
    const shift = ga.eye(3, "float64").mul(3).astype("complex128");
    const a = complexRandom([2, 3, 3], 300).add(shift), b = complexRandom([2, 3, 2], 301);
    const l1 = weighted(302), l2 = weighted(303), l3 = weighted(304), l4 = weighted(305), l5 = weighted(306);
    checkGradient("solve(a, b)", (a, b) => l1(ga.linalg.solve(a, b)), [a, b], 307);
    checkGradient("inv(a)", (a) => l2(ga.linalg.inv(a)), [a], 308);
    checkGradient("det(a)", (a) => l3(ga.linalg.det(a) as ga.GPUArray), [a], 309);
    checkGradient("slogdet(a).logabsdet", (a) => l4(ga.linalg.slogdet(a).logabsdet as ga.GPUArray), [a], 310);
    const x = complexRandom([2, 3, 3], 311);
    const hpd = (x: ga.GPUArray) => ga.matmul(x, ga.conj(ga.swapaxes(x, -1, -2))).add(shift);
    checkGradient("cholesky(x·xᴴ + 3I)", (x) => l5(ga.linalg.cholesky(hpd(x))), [x], 312);
    // eigh of Hermitian matrices, with losses that do not see the eigenvectors' phases.
    const hermitian = (x: ga.GPUArray) => x.add(ga.conj(ga.swapaxes(x, -1, -2)));
    const l6 = weighted(313), l7 = weighted(314);
    checkGradient("eigvalsh(x + xᴴ)", (x) => l6(ga.linalg.eigvalsh(hermitian(x))), [x], 315);
    checkGradient(
      "|eigh(x + xᴴ) vectors|²",
      (x) => {
        const v = ga.linalg.eigh(hermitian(x))[1];
        return l7(ga.real(v.mul(ga.conj(v))));
      },
      [x],
      316,
    );
    // Singular values (and what stands on them) of complex matrices; U and Vh refuse.
    const l8 = weighted(317);
    checkGradient("svdvals(a)", (a) => l8(ga.linalg.svdvals(a)), [complexRandom([2, 4, 3], 318)], 319);
    checkGradient("norm(a, 'nuc')", (a) => ga.linalg.norm(a, "nuc"), [complexRandom([3, 3], 320)], 321);
    // QR of tall, square and wide complex matrices (R's diagonal is real, so Q and R are unique).
    for (const [shape, seed] of [[[5, 3], 322], [[3, 3], 323], [[3, 5], 324]] as const) {
      const lq = weighted(seed + 10), lr = weighted(seed + 20);
      checkGradient(
        `qr of complex ${shape}`,
        (a) => {
          const [q, r] = ga.linalg.qr(a);
          return plus(lq(q), lr(r));
        },
        [complexRandom([...shape], seed)],
        seed + 30,
      );
    }
    // svd's U and Vh with losses that do not see the singular vectors' phases: |U|², |Vh|², and U·Vh.
    for (const [shape, seed] of [[[4, 3], 330], [[3, 3], 331], [[3, 4], 332]] as const) {
      const z = complexRandom([...shape], seed);
      const lu = weighted(seed + 10), lv = weighted(seed + 20), lp = weighted(seed + 30);
      const magnitude = (x: ga.GPUArray) => ga.real(x.mul(ga.conj(x)));
      checkGradient(
        `|U|² of complex ${shape}`,
        (a) => lu(magnitude(ga.linalg.svd(a, false).U)),
        [z],
        seed + 40,
      );
      checkGradient(
        `|Vh|² of complex ${shape}`,
        (a) => lv(magnitude(ga.linalg.svd(a, false).Vh)),
        [z],
        seed + 50,
      );
      checkGradient(
        `U·Vh of complex ${shape}`,
        (a) => {
          const { U, Vh } = ga.linalg.svd(a, false);
          return lp(ga.matmul(U, Vh));
        },
        [z],
        seed + 60,
      );
    }
  },
);
