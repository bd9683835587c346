import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { mulhi32, normalReference, philox4x32, uniformReference } from "../../src/array/exec/philox.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";

function hex(words: Uint32Array): string {
  return [...words].map((w) => w.toString(16).padStart(8, "0")).join(" ");
}

Deno.test("philox4x32() reproduces Random123's published Philox4x32-10 test vectors", () => {
  assert.equal(hex(philox4x32([0, 0, 0, 0], [0, 0])), "6627e8d5 e169c58d bc57ac4c 9b00dbd8");
  const ones = 0xffffffff;
  assert.equal(
    hex(philox4x32([ones, ones, ones, ones], [ones, ones])),
    "408f276d 41c83b0e a20bc7c6 6d5451fd",
  );
  assert.equal(
    hex(philox4x32([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0])),
    "d16cfe09 94fdcceb 5001e420 24126ea1",
  );
});

Deno.test("mulhi32() agrees with bigint products", () => {
  const cases = [[0, 0], [1, 1], [0xffffffff, 0xffffffff], [0xd2511f53, 0x12345678], [
    0xcd9e8d57,
    0xfedcba98,
  ]];
  for (let i = 0; i < 1000; i++) cases.push([(i * 0x9e3779b9) >>> 0, (i * 0x85ebca6b + 7) >>> 0]);
  for (const [a, b] of cases) {
    assert.equal(mulhi32(a!, b!), Number((BigInt(a!) * BigInt(b!)) >> 32n), `${a} × ${b}`);
  }
});

function floatTypes(): readonly ("float32" | "float64")[] {
  return ga.zeros(1).backend.supports("float64") ? ["float32", "float64"] : ["float32"];
}

function firstMismatch(got: ArrayLike<number>, want: ArrayLike<number>): string | undefined {
  assert.equal(got.length, want.length);
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(got[i], want[i])) return `element ${i}: ${got[i]} instead of ${want[i]}`;
  }
  return undefined;
}

eachBackend("random.uniform() matches the host Philox reference bit for bit", () => {
  for (const dtype of floatTypes()) {
    for (
      const [n, seed, low, high] of [[1, 0n, 0, 1], [1_000_003, 1n, 0, 1], [
        4099,
        0xfedcba9876543210n,
        -2.5,
        7,
      ]] as const
    ) {
      const got = ga.random.uniform(n, { seed, dtype, low, high }).get();
      assert.equal(
        firstMismatch(got, uniformReference(n, dtype, seed, low, high)),
        undefined,
        `${dtype}, n = ${n}`,
      );
    }
  }
});

eachBackend("random.uniform() and random.normal() take the shape given and count elements row-major", () => {
  const u = ga.random.uniform([7, 13], { seed: 3 });
  assert.deepEqual(u.shape, [7, 13]);
  assert.equal(firstMismatch(u.get(), uniformReference(91, "float32", 3n)), undefined);
  const z = ga.random.normal([3, 5], { seed: 3, dtype: "float64" });
  assert.deepEqual(z.shape, [3, 5]);
  assert.equal(z.dtype, "float64");
  assert.equal(ga.random.normal([0, 4], { seed: 3 }).size, 0);
});

/** The largest `|got − want|` in units of `eps·(|want| + scale)`. */
function worstUlps(got: ArrayLike<number>, want: ArrayLike<number>, eps: number, scale = 0): number {
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    if (d > 0) worst = Math.max(worst, d / (eps * (Math.abs(want[i]!) + scale)));
  }
  return worst;
}

eachBackend("random.normal() matches the host Box–Muller reference within a few ulps", () => {
  for (const dtype of floatTypes()) {
    const eps = dtype === "float32" ? 2 ** -23 : 2 ** -52;
    const n = 1_000_001;
    const ulps = worstUlps(
      ga.random.normal(n, { seed: 42, dtype }).get(),
      normalReference(n, dtype, 42n),
      eps,
    );
    assert.ok(ulps <= 8, `${dtype}: ${ulps} ulps`);
    const shifted = ga.random.normal(5003, { seed: 0xabcdef0123n, dtype, mean: 10, std: 0.25 }).get();
    const want = normalReference(5003, dtype, 0xabcdef0123n, 10, 0.25);
    const shiftedUlps = worstUlps(shifted, want, eps, 10);
    assert.ok(shiftedUlps <= 8, `${dtype}, mean 10: ${shiftedUlps} ulps`);
  }
});

function moments(x: ArrayLike<number>): { mean: number; std: number } {
  let sum = 0, squares = 0;
  for (let i = 0; i < x.length; i++) sum += x[i]!;
  const mean = sum / x.length;
  for (let i = 0; i < x.length; i++) squares += (x[i]! - mean) ** 2;
  return { mean, std: Math.sqrt(squares / x.length) };
}

eachBackend("random.normal() draws 10^6 numbers with mean 0 and standard deviation 1", () => {
  const { mean, std } = moments(ga.random.normal(1_000_000, { seed: 1 }).get());
  // Five standard errors: 0.005 for the mean, about 0.0035 for the standard deviation.
  assert.ok(Math.abs(mean) < 0.005, `mean ${mean}`);
  assert.ok(Math.abs(std - 1) < 0.0035, `std ${std}`);
  const x = moments(ga.random.normal(1_000_000, { seed: 2, mean: -3, std: 2 }).get());
  assert.ok(Math.abs(x.mean + 3) < 0.01, `mean ${x.mean}`);
  assert.ok(Math.abs(x.std - 2) < 0.007, `std ${x.std}`);
});

eachBackend("random.uniform() draws 10^6 numbers in [low, high) with the uniform mean and spread", () => {
  const u = ga.random.uniform(1_000_000, { seed: 9, low: -1, high: 3 }).get();
  const { mean, std } = moments(u);
  assert.ok(Math.abs(mean - 1) < 0.006, `mean ${mean}`);
  assert.ok(Math.abs(std - 4 / Math.sqrt(12)) < 0.003, `std ${std}`);
  assert.ok(u.every((x) => x >= -1 && x < 3));
});

eachBackend("random.uniform() and random.normal() give different numbers for different seeds", () => {
  const a = ga.random.uniform(1000, { seed: 1 }).get(), b = ga.random.uniform(1000, { seed: 2 }).get();
  const c = ga.random.uniform(1000, { seed: 2n ** 32n + 1n }).get();
  assert.equal(a.filter((x, i) => x === b[i]).length < 5, true);
  assert.equal(a.filter((x, i) => x === c[i]).length < 5, true);
  assert.deepEqual(ga.random.uniform(1000, { seed: 1 }).get(), a);
  const z1 = ga.random.normal(1000, { seed: 5 }).get(), z2 = ga.random.normal(1000, { seed: 6 }).get();
  assert.equal(z1.filter((x, i) => x === z2[i]).length < 5, true);
  const fresh1 = ga.random.normal(1000).get(), fresh2 = ga.random.normal(1000).get();
  assert.equal(fresh1.filter((x, i) => x === fresh2[i]).length < 5, true);
});

eachBackend("random.uniform() and random.normal() reject bad seeds, dtypes and parameters", () => {
  assert.throws(() => ga.random.uniform(4, { seed: -1 }), {
    name: "RangeError",
    message: "Cannot draw uniform numbers with seed -1: pass an integer from 0 to 2^64 - 1",
  });
  assert.throws(() => ga.random.uniform(4, { seed: 2n ** 64n }), RangeError);
  assert.throws(() => ga.random.normal(4, { seed: 1.5 }), RangeError);
  assert.throws(() => ga.random.normal(4, { dtype: "int32" as "float32" }), {
    name: "TypeError",
    message: 'Cannot draw normal numbers of dtype "int32": use "float32" or "float64" (then astype())',
  });
  assert.throws(() => ga.random.uniform(4, { low: 2, high: 1 }), {
    name: "RangeError",
    message: "Cannot draw uniform numbers in [2, 1): high must not be below low",
  });
  assert.throws(() => ga.random.uniform(4, { high: Infinity }), RangeError);
  assert.throws(() => ga.random.normal(4, { std: -1 }), {
    name: "RangeError",
    message: "Cannot draw normal numbers with std = -1: pass a std of 0 or more",
  });
  assert.throws(() => ga.random.normal(4, { mean: NaN }), RangeError);
  assert.throws(() => ga.random.normal([2, -1]), RangeError);
});

Deno.test({
  name: cudaProblem === undefined && openclProblem === undefined
    ? "random numbers of one seed agree between CUDA and OpenCL"
    : "random numbers of one seed agree between CUDA and OpenCL [ignored: needs both CUDA and OpenCL]",
  ignore: cudaProblem !== undefined || openclProblem !== undefined,
  fn: () => {
    const draw = (backend: ga.BackendName) => {
      ga.useBackend(backend);
      return {
        u: ga.random.uniform(100_003, { seed: 77 }).get(),
        z: ga.random.normal(100_003, { seed: 77 }).get(),
      };
    };
    const cuda = draw("cuda"), opencl = draw("opencl");
    assert.equal(firstMismatch(cuda.u, opencl.u), undefined);
    const ulps = worstUlps(cuda.z, opencl.z, 2 ** -23);
    assert.ok(ulps <= 16, `${ulps} ulps`);
  },
});
