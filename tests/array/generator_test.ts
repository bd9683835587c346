import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { philox4x32, uniformReference } from "../../src/array/exec/philox.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";
import {
  betaI,
  binomialPmf,
  chiSquarePValue,
  gammaP,
  ksPValue,
  moments,
  normalCdf,
  poissonPmf,
} from "./_distributions_host.ts";
import { lgamma } from "./_reference_special.ts";

/** The p-value below which a distribution test fails: the seeds are fixed, so each test is one draw. */
const ALPHA = 1e-3;
const N = 20_000;

function floatTypes(): readonly ("float32" | "float64")[] {
  return ga.zeros(1).backend.supports("float64") ? ["float32", "float64"] : ["float32"];
}

function keyOf(seed: bigint): [number, number] {
  return [Number(seed & 0xffffffffn), Number(seed >> 32n)];
}

/** Philox's words at counter `ctr`, round `round`. */
function block(key: [number, number], ctr: bigint, round = 0): Uint32Array {
  return philox4x32([Number(ctr & 0xffffffffn), Number(ctr >> 32n), round, 0], key);
}

/** A host per-element stream, as the kernels' `cudeno_rng`: the words of `(ctr, round)`, `(ctr, round + 1)`, ... */
function stream(key: [number, number], ctr: bigint, round: number): () => bigint {
  let words: Uint32Array = new Uint32Array(4), used = 4;
  return () => {
    if (used === 4) {
      words = block(key, ctr, round++);
      used = 0;
    }
    return BigInt(words[used++]!);
  };
}

/** `integers` of a generator whose counter is at `offset`, computed on the host as the kernel's steps. */
function integersReference(n: number, seed: bigint, offset: bigint, low: bigint, span: bigint): bigint[] {
  const key = keyOf(seed);
  const wide = span >= 2n ** 32n, per = wide ? 2 : 4;
  const out: bigint[] = [];
  for (let e = 0; e < n; e++) {
    const c = block(key, offset + BigInt(Math.floor(e / per)));
    const j = e % per;
    let x: bigint;
    if (!wide) {
      const range = span + 1n;
      if (span === 0xffffffffn) x = BigInt(c[j]!);
      else {
        let m = BigInt(c[j]!) * range;
        const limit = (2n ** 32n - range) % range;
        if ((m & 0xffffffffn) < limit) {
          const next = stream(key, offset + BigInt(e), 1);
          do m = next() * range; while ((m & 0xffffffffn) < limit);
        }
        x = m >> 32n;
      }
    } else {
      let mask = span;
      for (const s of [1n, 2n, 4n, 8n, 16n, 32n]) mask |= mask >> s;
      x = ((BigInt(c[2 * j]!) << 32n) | BigInt(c[2 * j + 1]!)) & mask;
      if (x > span) {
        const next = stream(key, offset + BigInt(e), 1);
        do x = ((next() << 32n) | next()) & mask; while (x > span);
      }
    }
    out.push(low + x);
  }
  return out;
}

eachBackend(
  "Generator.random() of a fresh generator is random.uniform() of its seed, and the next draw reads the next counters (host Philox reference)",
  () => {
    for (const dtype of floatTypes()) {
      const seed = 0x1234567890abcdefn;
      const rng = ga.random.defaultRng(seed);
      assert.deepEqual(rng.random(10, { dtype }).get(), uniformReference(10, dtype, seed));
      const per = dtype === "float32" ? 4 : 2, first = Math.ceil(10 / per);
      const got = rng.random(7, { dtype }).get();
      const key = keyOf(seed);
      for (let e = 0; e < 7; e++) {
        const w = block(key, BigInt(first + Math.floor(e / per)));
        const j = e % per;
        const want = dtype === "float32"
          ? (w[j]! >>> 8) * 2 ** -24
          : ((w[2 * j]! >>> 5) * 2 ** 26 + (w[2 * j + 1]! >>> 6)) * 2 ** -53;
        assert.equal(got[e], want, `${dtype} element ${e}`);
      }
      const z = ga.random.defaultRng(99).standardNormal([3, 5], { dtype });
      assert.deepEqual(z.get(), ga.random.normal([3, 5], { seed: 99, dtype }).get());
    }
  },
);

eachBackend("Generator.integers() matches the host Lemire and masked-rejection reference bit for bit", () => {
  const seed = 77n;
  const rng = ga.random.defaultRng(seed);
  let offset = 0n;
  for (
    const [n, low, span, dtype] of [
      [1001, -3n, 9n, "int64"],
      [1001, 0n, 2_999_999_999n, "int64"], // rejects about 30% of first words
      [999, 5n, 2n ** 40n + 12345n, "int64"], // masked: rejects about half
      [403, 0n, 0xffffffffn, "uint32"],
      [401, -(2n ** 63n), 2n ** 64n - 1n, "int64"],
      [64, 0n, 255n, "uint8"],
    ] as const
  ) {
    const got = rng.integers([n], { low, high: low + span, endpoint: true, dtype }).get();
    const want = integersReference(n, seed, offset, low, span);
    assert.deepEqual(
      Array.from(got as ArrayLike<number | bigint>, (v) => BigInt(v)),
      want,
      `${dtype}, span ${span}`,
    );
    offset += BigInt(n);
  }
});

eachBackend(
  "Generator draws are reproducible: one seed gives the same numbers, successive draws and spawned generators differ",
  () => {
    const a = ga.random.defaultRng(5), b = ga.random.defaultRng(5n);
    const first = a.normal([1000]).get();
    assert.deepEqual(b.normal([1000]).get(), first);
    const second = a.normal([1000]).get();
    assert.ok(second.filter((x, i) => x === first[i]).length < 5);
    assert.deepEqual(b.normal([1000]).get(), second);
    assert.deepEqual(b.gamma([500], { shape: 2 }).get(), a.gamma([500], { shape: 2 }).get());
    assert.deepEqual(b.poisson([500], { lam: 30 }).get(), a.poisson([500], { lam: 30 }).get());
    const [c1, c2] = ga.random.defaultRng(5).spawn(2), [d1] = ga.random.defaultRng(5).spawn(1);
    const x1 = c1!.random([1000]).get(), x2 = c2!.random([1000]).get();
    assert.deepEqual(d1!.random([1000]).get(), x1);
    assert.ok(x1.filter((x, i) => x === x2[i]).length < 5);
    const parent = ga.random.defaultRng(5).random([1000]).get();
    assert.ok(x1.filter((x, i) => x === parent[i]).length < 5);
    const later = ga.random.defaultRng(5);
    later.spawn(2);
    const [c3] = later.spawn(1);
    assert.ok(c3!.random([1000]).get().filter((x, i) => x === x1[i] || x === x2[i]).length < 10);
    assert.equal(ga.random.defaultRng(a), a);
    assert.deepEqual(
      ga.random.integers([50], { high: 100, seed: 3 }).get(),
      ga.random.defaultRng(3).integers([50], { high: 100 }).get(),
    );
    assert.deepEqual(
      ga.random.permutation(50, { seed: 3 }).get(),
      ga.random.defaultRng(3).permutation(50).get(),
    );
    assert.deepEqual(
      ga.random.choice(9, [20], { seed: 3, p: [0.5, 0.5, 0, 0, 0, 0, 0, 0, 0] }).get(),
      ga.random.defaultRng(3).choice(9, [20], { p: [0.5, 0.5, 0, 0, 0, 0, 0, 0, 0] }).get(),
    );
  },
);

interface Continuous {
  name: string;
  draw: (rng: ga.random.Generator, dtype: "float32" | "float64") => ga.GPUArray;
  cdf: (x: number) => number;
  mean: number;
  sd: number;
}

const CONTINUOUS: Continuous[] = [
  {
    name: "uniform(-2, 3)",
    draw: (g, dtype) => g.uniform([N], { low: -2, high: 3, dtype }),
    cdf: (x) => (x + 2) / 5,
    mean: 0.5,
    sd: 5 / Math.sqrt(12),
  },
  {
    name: "normal(1, 2)",
    draw: (g, dtype) => g.normal([N], { loc: 1, scale: 2, dtype }),
    cdf: (x) => normalCdf((x - 1) / 2),
    mean: 1,
    sd: 2,
  },
  {
    name: "lognormal(0.5, 0.25)",
    draw: (g, dtype) => g.lognormal([N], { mean: 0.5, sigma: 0.25, dtype }),
    cdf: (x) => x <= 0 ? 0 : normalCdf((Math.log(x) - 0.5) / 0.25),
    mean: Math.exp(0.5 + 0.25 ** 2 / 2),
    sd: Math.sqrt((Math.exp(0.25 ** 2) - 1) * Math.exp(1 + 0.25 ** 2)),
  },
  {
    name: "exponential(3)",
    draw: (g, dtype) => g.exponential([N], { scale: 3, dtype }),
    cdf: (x) => x <= 0 ? 0 : 1 - Math.exp(-x / 3),
    mean: 3,
    sd: 3,
  },
  {
    name: "laplace(1, 2)",
    draw: (g, dtype) => g.laplace([N], { loc: 1, scale: 2, dtype }),
    cdf: (x) => x < 1 ? 0.5 * Math.exp((x - 1) / 2) : 1 - 0.5 * Math.exp(-(x - 1) / 2),
    mean: 1,
    sd: 2 * Math.SQRT2,
  },
  {
    name: "logistic(-1, 0.5)",
    draw: (g, dtype) => g.logistic([N], { loc: -1, scale: 0.5, dtype }),
    cdf: (x) => 1 / (1 + Math.exp(-(x + 1) / 0.5)),
    mean: -1,
    sd: 0.5 * Math.PI / Math.sqrt(3),
  },
  {
    name: "weibull(1.5)",
    draw: (g, dtype) => g.weibull([N], { a: 1.5, dtype }),
    cdf: (x) => x <= 0 ? 0 : 1 - Math.exp(-(x ** 1.5)),
    mean: Math.exp(lgamma(1 + 1 / 1.5)),
    sd: Math.sqrt(Math.exp(lgamma(1 + 2 / 1.5)) - Math.exp(2 * lgamma(1 + 1 / 1.5))),
  },
  {
    name: "gamma(0.3, 2)",
    draw: (g, dtype) => g.gamma([N], { shape: 0.3, scale: 2, dtype }),
    cdf: (x) => gammaP(0.3, x / 2),
    mean: 0.6,
    sd: Math.sqrt(0.3) * 2,
  },
  {
    name: "gamma(4.5)",
    draw: (g, dtype) => g.gamma([N], { shape: 4.5, dtype }),
    cdf: (x) => gammaP(4.5, x),
    mean: 4.5,
    sd: Math.sqrt(4.5),
  },
  {
    name: "chisquare(3)",
    draw: (g, dtype) => g.chisquare([N], { df: 3, dtype }),
    cdf: (x) => gammaP(1.5, x / 2),
    mean: 3,
    sd: Math.sqrt(6),
  },
  {
    name: "beta(0.5, 0.7)",
    draw: (g, dtype) => g.beta([N], { a: 0.5, b: 0.7, dtype }),
    cdf: (x) => betaI(0.5, 0.7, x),
    mean: 0.5 / 1.2,
    sd: Math.sqrt(0.35 / (1.44 * 2.2)),
  },
  {
    name: "beta(2, 5)",
    draw: (g, dtype) => g.beta([N], { a: 2, b: 5, dtype }),
    cdf: (x) => betaI(2, 5, x),
    mean: 2 / 7,
    sd: Math.sqrt(10 / (49 * 8)),
  },
];

eachBackend(
  "Generator's continuous distributions pass a Kolmogorov–Smirnov test against their float64 host distribution functions, with their means",
  () => {
    for (const dtype of floatTypes()) {
      const rng = ga.random.defaultRng(2024);
      for (const { name, draw, cdf, mean, sd } of CONTINUOUS) {
        const x = draw(rng, dtype);
        assert.equal(x.dtype, dtype);
        const sample = x.get() as Float32Array | Float64Array;
        const p = ksPValue(sample, cdf);
        assert.ok(p > ALPHA, `${name} ${dtype}: KS p-value ${p}`);
        const m = moments(sample);
        assert.ok(
          Math.abs(m.mean - mean) < 5 * sd / Math.sqrt(N),
          `${name} ${dtype}: mean ${m.mean}, want ${mean}`,
        );
        assert.ok(sample.every(Number.isFinite), `${name} ${dtype}: not all finite`);
      }
    }
  },
);

interface Discrete {
  name: string;
  draw: (rng: ga.random.Generator) => ga.GPUArray;
  pmf: (k: number) => number;
  lo: number;
  hi: number;
}

const DISCRETE: Discrete[] = [
  { name: "poisson(3.5)", draw: (g) => g.poisson([N], { lam: 3.5 }), pmf: poissonPmf(3.5), lo: 0, hi: 20 },
  {
    name: "poisson(40) (PTRS)",
    draw: (g) => g.poisson([N], { lam: 40 }),
    pmf: poissonPmf(40),
    lo: 10,
    hi: 80,
  },
  {
    name: "poisson(1e4) (PTRS)",
    draw: (g) => g.poisson([N], { lam: 1e4 }),
    pmf: poissonPmf(1e4),
    lo: 9600,
    hi: 10400,
  },
  {
    name: "binomial(10, 0.3) (inversion)",
    draw: (g) => g.binomial([N], { n: 10, p: 0.3 }),
    pmf: binomialPmf(10, 0.3),
    lo: 0,
    hi: 10,
  },
  {
    name: "binomial(40, 0.9) (inversion of 1 - p)",
    draw: (g) => g.binomial([N], { n: 40, p: 0.9 }),
    pmf: binomialPmf(40, 0.9),
    lo: 20,
    hi: 40,
  },
  {
    name: "binomial(1000, 0.3) (BTRS)",
    draw: (g) => g.binomial([N], { n: 1000, p: 0.3 }),
    pmf: binomialPmf(1000, 0.3),
    lo: 230,
    hi: 370,
  },
  {
    name: "binomial(200, 0.75) (BTRS of 1 - p)",
    draw: (g) => g.binomial([N], { n: 200, p: 0.75 }),
    pmf: binomialPmf(200, 0.75),
    lo: 120,
    hi: 180,
  },
  {
    name: "geometric(0.25)",
    draw: (g) => g.geometric([N], { p: 0.25 }),
    pmf: (k) => k < 1 ? 0 : 0.75 ** (k - 1) * 0.25,
    lo: 1,
    hi: 40,
  },
  {
    name: "geometric(0.9)",
    draw: (g) => g.geometric([N], { p: 0.9 }),
    pmf: (k) => k < 1 ? 0 : 0.1 ** (k - 1) * 0.9,
    lo: 1,
    hi: 6,
  },
  {
    name: "integers(-3, 4)",
    draw: (g) => g.integers([N], { low: -3, high: 4 }),
    pmf: (k) => k >= -3 && k < 4 ? 1 / 7 : 0,
    lo: -3,
    hi: 3,
  },
  {
    name: "integers(0, 6) uint8 with endpoint",
    draw: (g) => g.integers([N], { high: 6, endpoint: true, dtype: "uint8" }),
    pmf: (k) => k <= 6 ? 1 / 7 : 0,
    lo: 0,
    hi: 6,
  },
  {
    name: "integers bool",
    draw: (g) => g.integers([N], { high: 2, dtype: "bool" }),
    pmf: () => 0.5,
    lo: 0,
    hi: 1,
  },
];

eachBackend(
  "Generator's discrete distributions pass a χ² test against their float64 host probabilities",
  () => {
    if (!ga.zeros(1).backend.supports("float64")) return;
    const rng = ga.random.defaultRng(7);
    for (const { name, draw, pmf, lo, hi } of DISCRETE) {
      const x = draw(rng);
      const sample = x.get() as ArrayLike<number | bigint>;
      const p = chiSquarePValue(sample, pmf, lo, hi);
      assert.ok(p > ALPHA, `${name}: χ² p-value ${p}`);
    }
    assert.deepEqual([...rng.poisson([5], { lam: 0 }).get()], [0n, 0n, 0n, 0n, 0n]);
    assert.deepEqual([...rng.binomial([3], { n: 7, p: 1 }).get()], [7n, 7n, 7n]);
    assert.deepEqual([...rng.binomial([3], { n: 0, p: 0.5 }).get()], [0n, 0n, 0n]);
    assert.deepEqual([...rng.geometric([3], { p: 1 }).get()], [1n, 1n, 1n]);
    assert.deepEqual([...rng.gamma([3], { shape: 0 }).get()], [0, 0, 0]);
    const wide = rng.integers([N], { low: -(2n ** 62n), high: 2n ** 62n }).get() as BigInt64Array;
    const { mean, variance } = moments(wide);
    const sd = 2 ** 63 / Math.sqrt(12);
    assert.ok(Math.abs(mean) < 5 * sd / Math.sqrt(N), `mean ${mean}`);
    assert.ok(Math.abs(Math.sqrt(variance) / sd - 1) < 0.02, `sd ${Math.sqrt(variance)}`);
    assert.ok(wide.every((v) => v >= -(2n ** 62n) && v < 2n ** 62n));
  },
);

eachBackend("Generator rejects bad parameters with errors naming them", () => {
  const rng = ga.random.defaultRng(1);
  const range: [() => unknown, RegExp][] = [
    [() => rng.normal([2], { scale: -1 }), /scale = -1/],
    [() => rng.normal([2], { loc: NaN }), /loc = NaN/],
    [() => rng.uniform([2], { low: 2, high: 1 }), /high = 1/],
    [() => rng.uniform([2], { low: -Infinity }), /low = -Infinity/],
    [() => rng.exponential([2], { scale: -2 }), /scale = -2/],
    [() => rng.lognormal([2], { sigma: -1 }), /sigma = -1/],
    [() => rng.laplace([2], { scale: -1 }), /scale = -1/],
    [() => rng.logistic([2], { scale: -1 }), /scale = -1/],
    [() => rng.weibull([2], { a: -1 }), /a = -1/],
    [() => rng.gamma([2], { shape: -1 }), /shape = -1/],
    [() => rng.gamma([2], { shape: 1, scale: -1 }), /scale = -1/],
    [() => rng.beta([2], { a: 0, b: 1 }), /a = 0/],
    [() => rng.beta([2], { a: 1, b: -1 }), /b = -1/],
    [() => rng.chisquare([2], { df: 0 }), /df = 0/],
    [() => rng.poisson([2], { lam: -1 }), /lam = -1/],
    [() => rng.poisson([2], { lam: 1e19 }), /lam = 10000000000000000000/],
    [() => rng.binomial([2], { n: 2.5, p: 0.5 }), /n = 2.5/],
    [() => rng.binomial([2], { n: -1, p: 0.5 }), /n = -1/],
    [() => rng.binomial([2], { n: 3, p: 1.5 }), /p = 1.5/],
    [() => rng.geometric([2], { p: 0 }), /p = 0/],
    [() => rng.geometric([2], { p: 2 }), /p = 2/],
    [() => rng.integers([2], { low: 5, high: 5 }), /high = 5/],
    [() => rng.integers([2], { low: -200, high: 0, dtype: "int8" }), /low = -200/],
    [() => rng.integers([2], { high: 257, dtype: "uint8" }), /high = 257/],
    [() => rng.integers([2], { high: 2.5 }), /high = 2.5/],
    [() => rng.multinomial([2], { n: 5, pvals: [0.7, 0.7, 0.1] }), /pvals/],
    [() => rng.multinomial([2], { n: -1, pvals: [1] }), /n = -1/],
    [() => rng.multinomial([2], { n: 1, pvals: [1.5, 0] }), /pvals = 1.5/],
    [() => rng.dirichlet([2], { alpha: [1, 0] }), /alpha = 0/],
    [() => rng.dirichlet([2], { alpha: [] }), /alpha/],
    [
      () => rng.multivariateNormal([2], { mean: [0, 0], cov: [[1, 2], [2, 1]] }),
      /cov.*positive semi-definite/,
    ],
    [
      () => rng.multivariateNormal([2], { mean: [0, 0], cov: [[1, 0.5], [0, 1]] }),
      /cov\[1\]\[0\].*symmetric/,
    ],
    [() => rng.multivariateNormal([2], { mean: [0, 0], cov: [[1]] }), /cov of shape/],
    [() => rng.choice(5, [6], { replace: false }), /without replacement/],
    [() => rng.choice(3, [2], { p: [0.5, 0.5] }), /p of 2 entries/],
    [() => rng.choice(2, [2], { p: [0.5, 0.6] }), /p summing to 1.1/],
    [() => rng.choice(3, [2], { p: [1, 0, 0], replace: false }), /p has only 1 non-zero/],
    [() => rng.permutation(ga.asarray(3)), /0-d array/],
    [() => rng.spawn(-1), /spawn -1/],
    [() => ga.random.defaultRng(-1), /seed -1/],
    [() => rng.shuffle(ga.arange(4), 1), /axis 1 is out of range/],
  ];
  for (const [call, message] of range) assert.throws(call, { name: "RangeError", message }, String(message));
  const type: [() => unknown, RegExp][] = [
    [() => rng.gamma([2], {} as ga.random.GammaOptions), /without shape/],
    [() => rng.binomial([2], { p: 0.5 } as ga.random.BinomialOptions), /without n/],
    [() => rng.integers([2], {}), /without high/],
    [() => rng.integers([2], { high: 4, dtype: "float32" as "int32" }), /dtype "float32"/],
    [() => rng.random([2], { dtype: "int32" as "float32" }), /dtype "int32"/],
    [() => rng.normal([2], { mean: 1 } as ga.random.LocScaleOptions), /option "mean"/],
    [() => rng.normal([2], { loc: "1" as unknown as number }), /loc = 1: pass a number/],
    [() => ga.random.integers([2], { high: 3, seed: 1, lo: 0 } as ga.random.IntegersOptions), /option "lo"/],
    [() => rng.permutation(5, 0), /axis of a count/],
    [() => rng.choice(5, [2], { axis: 0 }), /axis of a count/],
  ];
  for (const [call, message] of type) assert.throws(call, { name: "TypeError", message }, String(message));
});

Deno.test({
  name: cudaProblem === undefined && openclProblem === undefined
    ? "Generator numbers of one seed agree between CUDA and OpenCL"
    : "Generator numbers of one seed agree between CUDA and OpenCL [ignored: needs both CUDA and OpenCL]",
  ignore: cudaProblem !== undefined || openclProblem !== undefined,
  fn: () => {
    const draw = (backend: ga.BackendName) => {
      ga.useBackend(backend);
      const rng = ga.random.defaultRng(77);
      return {
        u: rng.random([10_001]).get(),
        k: rng.integers([10_001], { low: -5, high: 3_000_000_000 }).get(),
        perm: rng.permutation(1000).get(),
        poisson: rng.poisson([1000], { lam: 4 }).get(),
        binomial: rng.binomial([1000], { n: 20, p: 0.2 }).get(),
      };
    };
    const cuda = draw("cuda"), opencl = draw("opencl");
    assert.deepEqual(cuda, opencl);
  },
});
