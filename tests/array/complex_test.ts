import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

/** Complex numbers on the host, in float64: the reference the device's results are checked against. */
type C = readonly [number, number];
const add = (a: C, b: C): C => [a[0] + b[0], a[1] + b[1]];
const sub = (a: C, b: C): C => [a[0] - b[0], a[1] - b[1]];
const mul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
const div = (a: C, b: C): C => {
  const d = b[0] * b[0] + b[1] * b[1];
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
};
const scale = (a: C, s: number): C => [a[0] * s, a[1] * s];
const cabs = (a: C) => Math.hypot(a[0], a[1]);
const exp = (a: C): C => scale([Math.cos(a[1]), Math.sin(a[1])], Math.exp(a[0]));
const log = (a: C): C => [Math.log(cabs(a)), Math.atan2(a[1], a[0])];
/** The principal square root, through polar form. */
const sqrt = (a: C): C =>
  scale([Math.cos(Math.atan2(a[1], a[0]) / 2), Math.sin(Math.atan2(a[1], a[0]) / 2)], Math.sqrt(cabs(a)));
const I: C = [0, 1], ONE: C = [1, 0];
const timesI = (a: C): C => mul(I, a);
const sinh = (a: C): C => scale(sub(exp(a), exp(scale(a, -1))), 0.5);
const cosh = (a: C): C => scale(add(exp(a), exp(scale(a, -1))), 0.5);
const HOST: Record<string, (a: C) => C> = {
  exp,
  log,
  sqrt,
  exp2: (a) => exp(scale(a, Math.LN2)),
  expm1: (a) => sub(exp(a), ONE),
  log2: (a) => scale(log(a), 1 / Math.LN2),
  log10: (a) => scale(log(a), 1 / Math.LN10),
  log1p: (a) => log(add(a, ONE)),
  sinh,
  cosh,
  tanh: (a) => div(sinh(a), cosh(a)),
  sin: (a) => mul(scale(I, -1), sinh(timesI(a))),
  cos: (a) => cosh(timesI(a)),
  tan: (a) => mul(scale(I, -1), div(sinh(timesI(a)), cosh(timesI(a)))),
  // asin z = -i log(iz + sqrt(1 - z²)), acos z = -i log(z + i sqrt(1 - z²)), atan z = (i/2) log((i + z)/(i - z)).
  arcsin: (a) => mul(scale(I, -1), log(add(timesI(a), sqrt(sub(ONE, mul(a, a)))))),
  arccos: (a) => mul(scale(I, -1), log(add(a, timesI(sqrt(sub(ONE, mul(a, a))))))),
  arctan: (a) => mul(scale(I, 0.5), log(div(add(I, a), sub(I, a)))),
  arcsinh: (a) => log(add(a, sqrt(add(mul(a, a), ONE)))),
  arccosh: (a) => log(add(a, mul(sqrt(add(a, ONE)), sqrt(sub(a, ONE))))),
  arctanh: (a) => scale(sub(log(add(ONE, a)), log(sub(ONE, a))), 0.5),
  square: (a) => mul(a, a),
  reciprocal: (a) => div(ONE, a),
  conj: (a) => [a[0], -a[1]],
  neg: (a) => [-a[0], -a[1]],
  sign: (a) => scale(a, 1 / cabs(a)),
};

/** Host pairs from an interleaved typed array. */
function pairs(data: Float32Array | Float64Array): C[] {
  return Array.from({ length: data.length / 2 }, (_, i) => [data[2 * i]!, data[2 * i + 1]!] as const);
}

/** A complex array of `shape` with parts in ±[0.2, 1.4] (away from the branch cuts), from a seed. */
function sample(shape: number[], seed: number, dtype: "complex64" | "complex128" = "complex64"): ga.GPUArray {
  const real = dtype === "complex64" ? "float32" : "float64";
  const part = (s: number) => {
    const u = ga.random.uniform(shape, { seed: s, low: 0.2, high: 1.4, dtype: real });
    const sign = ga.random.uniform(shape, { seed: s + 100, dtype: real }).gt(0.5).astype(real).mul(2).sub(1);
    return u.mul(sign);
  };
  return ga.complex(part(seed), part(seed + 1));
}

/** Asserts that every pair is within `tol` of the reference, relative to its magnitude (at least 1). */
function near(got: readonly C[], want: readonly C[], tol: number, label: string): void {
  assert.equal(got.length, want.length, `${label}: length`);
  got.forEach((g, i) => {
    const w = want[i]!, err = cabs(sub(g, w)) / Math.max(1, cabs(w));
    assert.ok(err <= tol, `${label}[${i}]: ${g} vs ${w} (relative error ${err})`);
  });
}

eachBackend(
  "complex() makes complex64 from float32 parts and complex128 from float64; get() interleaves",
  () => {
    const z = ga.complex(ga.asarray([1, 2, 3]), ga.asarray([4, 5, 6]));
    assert.equal(z.dtype, "complex64");
    assert.deepEqual(z.shape, [3]);
    assert.deepEqual([...z.get()], [1, 4, 2, 5, 3, 6]);
    assert.ok(z.get() instanceof Float32Array);
    const w = ga.complex(ga.asarray([1], "float64"), 2);
    assert.equal(w.dtype, "complex128");
    assert.deepEqual([...w.get()], [1, 2]);
    assert.equal(ga.complex(ga.arange(2, { dtype: "int32" }), 0).dtype, "complex128");
    assert.deepEqual(z.item(1), [2, 5]);
    assert.deepEqual(ga.complex(ga.ones([2, 2]), ga.zeros([2])).shape, [2, 2], "the parts broadcast");
  },
);

eachBackend("real and imag are views that write through; a real array is its own real part", () => {
  const z = ga.complex(ga.asarray([[1, 2], [3, 4]]), ga.asarray([[5, 6], [7, 8]]));
  assert.deepEqual([...z.real.get()], [1, 2, 3, 4]);
  assert.deepEqual([...ga.imag(z).get()], [5, 6, 7, 8]);
  assert.deepEqual([...z.T.imag.get()], [5, 7, 6, 8], "of a transposed view");
  assert.equal(z.real.dtype, "float32");
  z.imag.slice([], 1).fill(0);
  assert.deepEqual([...z.get()], [1, 5, 2, 0, 3, 7, 4, 0]);
  const x = ga.arange(3);
  assert.equal(ga.real(x), x);
  assert.deepEqual([...x.imag.get()], [0, 0, 0]);
});

eachBackend("complex dtypes promote as NumPy's", () => {
  const cases: [ga.DType, ga.DType, ga.DType][] = [
    ["complex64", "float32", "complex64"],
    ["complex64", "float64", "complex128"],
    ["complex64", "int16", "complex64"],
    ["complex64", "int32", "complex128"],
    ["complex64", "bool", "complex64"],
    ["complex128", "float16", "complex128"],
    ["complex64", "complex128", "complex128"],
  ];
  for (const [a, b, want] of cases) {
    assert.equal(ga.resultType(a, b), want, `${a} with ${b}`);
    assert.equal(ga.resultType(b, a), want, `${b} with ${a}`);
    if (ga.zeros(1).backend.supports(b)) {
      assert.equal(ga.zeros(2, a).add(ga.zeros(2, b)).dtype, want, `${a} + ${b} on the device`);
    }
  }
  assert.equal(ga.zeros(2, "complex64").mul(2.5).dtype, "complex64", "a JS number is weak");
  assert.equal(ga.zeros(2, "float32").div(ga.zeros(2, "complex64")).dtype, "complex64");
});

eachBackend("complex arithmetic with broadcasting and scalars matches the host in float64", () => {
  const a = sample([3, 4], 1), b = sample([4], 7);
  const A = pairs(a.get() as Float32Array), B = pairs(b.get() as Float32Array);
  const at = (i: number) => B[i % 4]!;
  near(pairs(a.add(b).get() as Float32Array), A.map((x, i) => add(x, at(i))), 1e-6, "a + b");
  near(pairs(a.sub(b).get() as Float32Array), A.map((x, i) => sub(x, at(i))), 1e-6, "a - b");
  near(pairs(a.mul(b).get() as Float32Array), A.map((x, i) => mul(x, at(i))), 1e-6, "a * b");
  near(pairs(a.div(b).get() as Float32Array), A.map((x, i) => div(x, at(i))), 1e-6, "a / b");
  near(pairs(ga.sub(2, a).get() as Float32Array), A.map((x) => sub([2, 0], x)), 1e-6, "2 - a");
  near(pairs(a.mul(0.5).get() as Float32Array), A.map((x) => scale(x, 0.5)), 1e-6, "a * 0.5");
  near(pairs(ga.div(1, a).get() as Float32Array), A.map((x) => div(ONE, x)), 1e-6, "1 / a");
  const r = ga.asarray([1, 2, 3, 4]);
  near(
    pairs(a.add(r).get() as Float32Array),
    A.map((x, i) => add(x, [i % 4 + 1, 0])),
    1e-6,
    "a + real array",
  );
});

for (const dtype of ["complex64", "complex128"] as const) {
  eachBackend(`every complex function of the op table matches the host in float64 (${dtype})`, () => {
    const z = sample([40], 3, dtype);
    const Z = pairs(z.get() as Float64Array);
    const tol = dtype === "complex64" ? 2e-5 : 1e-12;
    for (const [name, f] of Object.entries(HOST)) {
      const got = (ga as unknown as Record<string, (x: ga.GPUArray) => ga.GPUArray>)[name]!(z);
      assert.equal(got.dtype, dtype, `${name}'s dtype`);
      near(pairs(got.get() as Float64Array), Z.map(f), tol, name);
    }
    const abs = ga.abs(z), angle = ga.angle(z);
    assert.equal(abs.dtype, dtype === "complex64" ? "float32" : "float64");
    Array.from(abs.get() as Float64Array).forEach((v, i) =>
      assert.ok(Math.abs(v - cabs(Z[i]!)) <= tol * 2, "abs")
    );
    Array.from(angle.get() as Float64Array).forEach((v, i) =>
      assert.ok(Math.abs(v - Math.atan2(Z[i]![1], Z[i]![0])) <= tol * 4, "angle")
    );
    const w = sample([40], 11, dtype), W = pairs(w.get() as Float64Array);
    near(
      pairs(ga.pow(z, w).get() as Float64Array),
      Z.map((x, i) => exp(mul(W[i]!, log(x)))),
      tol * 10,
      "z ** w",
    );
    near(pairs(ga.pow(z, 3).get() as Float64Array), Z.map((x) => mul(x, mul(x, x))), tol, "z ** 3");
    near(pairs(ga.pow(z, -2).get() as Float64Array), Z.map((x) => div(ONE, mul(x, x))), tol, "z ** -2");
    near(pairs(ga.pow(z, 0.5).get() as Float64Array), Z.map(sqrt), tol * 10, "z ** 0.5");
  });
}

eachBackend("equality, isnan, isinf and isfinite of complex arrays", () => {
  const z = ga.complex(ga.asarray([1, NaN, 2, Infinity], "float64"), ga.asarray([2, 0, NaN, 0], "float64"));
  const w = ga.complex(ga.asarray([1, 1, 2, Infinity], "float64"), ga.asarray([2, 0, 1, 0], "float64"));
  assert.deepEqual([...z.eq(w).get()], [1, 0, 0, 1]);
  assert.deepEqual([...z.ne(w).get()], [0, 1, 1, 0]);
  assert.deepEqual([...ga.isnan(z).get()], [0, 1, 1, 0]);
  assert.deepEqual([...ga.isinf(z).get()], [0, 0, 0, 1]);
  assert.deepEqual([...ga.isfinite(z).get()], [1, 0, 0, 0]);
});

eachBackend("sum, mean and prod of complex arrays, along axes and whole, match the host", () => {
  const z = sample([5, 6, 3], 21, "complex128"), Z = pairs(z.get() as Float64Array);
  const total = Z.reduce(add, [0, 0] as C);
  near([z.sum() as unknown as C], [total], 1e-12, "sum()");
  near([z.mean() as unknown as C], [scale(total, 1 / Z.length)], 1e-12, "mean()");
  const along1 = z.sum({ axis: 1 });
  assert.deepEqual(along1.shape, [5, 3]);
  const want: C[] = [];
  for (let i = 0; i < 5; i++) {
    for (let k = 0; k < 3; k++) {
      let s: C = [0, 0];
      for (let j = 0; j < 6; j++) s = add(s, Z[(i * 6 + j) * 3 + k]!);
      want.push(s);
    }
  }
  near(pairs(along1.get() as Float64Array), want, 1e-12, "sum(axis 1)");
  const small = sample([7], 5, "complex64"), S = pairs(small.get() as Float32Array);
  near([small.prod() as unknown as C], [S.reduce(mul, ONE)], 1e-5, "prod()");
  const big = sample([3000], 8, "complex64"), G = pairs(big.get() as Float32Array);
  near([big.sum() as unknown as C], [G.reduce(add, [0, 0] as C)], 1e-5, "sum() of 3000");
});

eachBackend("matmul of complex matrices, batched and transposed, matches the host", () => {
  for (const dtype of ["complex64", "complex128"] as const) {
    const a = sample([2, 9, 13], 31, dtype), b = sample([13, 5], 41, dtype);
    const A = pairs(a.get() as Float64Array), B = pairs(b.get() as Float64Array);
    const c = ga.matmul(a, b);
    assert.equal(c.dtype, dtype);
    const want: C[] = [];
    for (let z = 0; z < 2; z++) {
      for (let i = 0; i < 9; i++) {
        for (let j = 0; j < 5; j++) {
          let s: C = [0, 0];
          for (let p = 0; p < 13; p++) s = add(s, mul(A[(z * 9 + i) * 13 + p]!, B[p * 5 + j]!));
          want.push(s);
        }
      }
    }
    near(pairs(c.get() as Float64Array), want, dtype === "complex64" ? 1e-5 : 1e-12, `${dtype} matmul`);
    const t = ga.matmul(b.T, b);
    const wantT: C[] = [];
    for (let i = 0; i < 5; i++) {
      for (let j = 0; j < 5; j++) {
        let s: C = [0, 0];
        for (let p = 0; p < 13; p++) s = add(s, mul(B[p * 5 + i]!, B[p * 5 + j]!));
        wantT.push(s);
      }
    }
    near(pairs(t.get() as Float64Array), wantT, dtype === "complex64" ? 1e-5 : 1e-12, `${dtype} bᵀ·b`);
  }
});

eachBackend(
  "astype converts reals to complex, complex to the other width, and complex to reals by the real part",
  () => {
    const x = ga.asarray([1.5, -2]);
    assert.deepEqual([...x.astype("complex64").get()], [1.5, 0, -2, 0]);
    const z = ga.complex(ga.asarray([1.5, 0]), ga.asarray([-2, 3]));
    assert.deepEqual([...z.astype("complex128").get()], [1.5, -2, 0, 3]);
    assert.deepEqual([...z.astype("complex128").astype("complex64").get()], [1.5, -2, 0, 3]);
    assert.deepEqual([...z.astype("float64").get()], [1.5, 0]);
    assert.deepEqual([...z.astype("int32").get()], [1, 0]);
    assert.deepEqual([...z.astype("bool").get()], [1, 1], "true where either part is non-zero");
    assert.deepEqual([...ga.full([2], 3, "complex128").get()], [3, 0, 3, 0]);
    assert.deepEqual([...ga.asarray([[1, 2]], "complex64").get()], [1, 0, 2, 0]);
  },
);

eachBackend("complex arrays print as NumPy prints them", () => {
  const z = ga.complex(ga.asarray([1, 2, -3.5, 0]), ga.asarray([0, 1, 2, -4.25]));
  // numpy.array([1+0j, 2+1j, -3.5+2j, -4.25j], dtype=numpy.complex64)
  assert.equal(String(z), "array([ 1. +0.j  ,  2. +1.j  , -3.5+2.j  ,  0. -4.25j], dtype=complex64)");
  const w = ga.complex(ga.asarray([[1, 2]], "float64"), ga.asarray([[NaN, Infinity]], "float64"));
  assert.equal(String(w), "array([[1.+nanj, 2.+infj]], dtype=complex128)");
});

eachBackend("complex arrays save to .npy as <c8 and <c16 and load back", () => {
  const dir = Deno.makeTempDirSync();
  try {
    for (const dtype of ["complex64", "complex128"] as const) {
      const z = sample([3, 2], 61, dtype), path = `${dir}/${dtype}.npy`;
      ga.save(path, z);
      const header = new TextDecoder().decode(Deno.readFileSync(path).subarray(10, 60));
      assert.match(header, new RegExp(`'descr': '${dtype === "complex64" ? "<c8" : "<c16"}'`));
      const back = ga.load(path);
      assert.equal(back.dtype, dtype);
      assert.deepEqual([...back.get()], [...z.get()]);
      ga.save(path, z.T);
      assert.deepEqual([...ga.load(path).get()], [...z.T.copy().get()], "a transposed view");
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

eachBackend("fuse() composes complex arithmetic and functions into one kernel with the eager values", () => {
  const f = ga.fuse((z: ga.GPUArray, w: ga.GPUArray) => ga.exp(z.mul(w)).add(ga.conj(z)).mul(2));
  const z = sample([50], 71), w = sample([50], 81);
  const eager = ga.exp(z.mul(w)).add(ga.conj(z)).mul(2);
  near(pairs(f(z, w).get() as Float32Array), pairs(eager.get() as Float32Array), 1e-6, "fused");
});

eachBackend("operations not defined on complex numbers say so and name a way out", () => {
  const z = sample([4], 91);
  assert.throws(() => z.lt(z), {
    name: "TypeError",
    message:
      "Cannot lt: lt is not defined for complex numbers (complex64, complex64); take ga.real(), ga.imag() or ga.abs() first",
  });
  assert.throws(() => ga.floor(z), {
    name: "TypeError",
    message: /floor is not defined for complex numbers/,
  });
  assert.throws(() => z.max(), {
    name: "TypeError",
    message:
      "Cannot max a complex64 array: max is not defined for complex numbers; reduce ga.real(a), ga.imag(a) or ga.abs(a)",
  });
  assert.throws(() => Number(z.slice(0)), { name: "TypeError", message: /JavaScript numbers are real/ });
  assert.throws(() => ga.complex(z, z), { name: "TypeError", message: /complex takes real parts/ });
  for (
    const [what, f] of [["sort", () => ga.sort(z)], ["median", () => ga.median(z)], [
      "nonzero",
      () => ga.nonzero(z),
    ]] as const
  ) {
    assert.throws(
      f,
      { name: "TypeError", message: /not defined for complex numbers here; take ga\.real/ },
      what,
    );
  }
  assert.throws(() => ga.dot(z, z), { name: "TypeError", message: /use ga\.matmul/ });
});

eachBackend("eye, tri and zeros make complex arrays", () => {
  assert.deepEqual([...ga.eye(2, "complex64").get()], [1, 0, 0, 0, 0, 0, 1, 0]);
  assert.deepEqual([...ga.tri(2, { dtype: "complex128" }).get()], [1, 0, 0, 0, 1, 0, 1, 0]);
  assert.deepEqual([...ga.zeros([2], "complex64").get()], [0, 0, 0, 0]);
});

eachBackend("where() chooses between complex values by a real condition", () => {
  const z = ga.complex(ga.asarray([1, 2, 3]), ga.asarray([4, 5, 6]));
  assert.deepEqual([...ga.where(ga.asarray([1, 0, 2]), z, 0).get()], [1, 4, 0, 0, 3, 6]);
  assert.deepEqual([...ga.where(ga.asarray([true, false, true]), 7, z).get()], [7, 0, 2, 5, 7, 0]);
  assert.deepEqual(
    [...ga.where(ga.asarray([0.5, 0, -1]), z, 0).get()],
    [1, 4, 0, 0, 3, 6],
    "a float condition",
  );
  assert.throws(() => ga.where(z, 1, 2), {
    name: "TypeError",
    message: /the condition must be real, not complex64/,
  });
});

eachBackend("var() and std() of complex arrays are the real spreads of |z - mean|², along axes too", () => {
  const re = [[1, 2, 3], [0, -1, 5]], im = [[4, 5, 6], [1, 1, 2]];
  const z = ga.complex(ga.asarray(re, "float64"), ga.asarray(im, "float64"));
  const spread = (xs: number[], ys: number[], ddof = 0) => {
    const mx = xs.reduce((s, v) => s + v, 0) / xs.length, my = ys.reduce((s, v) => s + v, 0) / ys.length;
    return xs.reduce((s, x, i) => s + (x - mx) ** 2 + (ys[i]! - my) ** 2, 0) / (xs.length - ddof);
  };
  const close = (a: number, b: number) =>
    assert.ok(Math.abs(a - b) <= 1e-12 * (1 + Math.abs(b)), `${a} vs ${b}`);
  close(ga.var(z) as number, spread(re.flat(), im.flat()));
  close(ga.std(z, { ddof: 1 }) as number, Math.sqrt(spread(re.flat(), im.flat(), 1)));
  const columns = ga.var(z, 0);
  assert.equal(columns.dtype, "float64");
  [0, 1, 2].forEach((j) =>
    close(columns.get()[j]!, spread([re[0]![j]!, re[1]![j]!], [im[0]![j]!, im[1]![j]!]))
  );
  const rows = ga.std(z, 1, { keepdims: true });
  assert.deepEqual(rows.shape, [2, 1]);
  [0, 1].forEach((i) => close(rows.get()[i]!, Math.sqrt(spread(re[i]!, im[i]!))));
});

eachBackend(
  "isclose() and allclose() of complex arrays compare magnitudes as NumPy does, NaNs and infinities too",
  () => {
    const a: [number, number][] = [[1, 4], [2, 5], [3, 6], [NaN, 0], [Infinity, 0], [1e-9, 0]];
    const b: [number, number][] = [[1, 4], [2.0001, 5], [3.1, 6], [NaN, 0], [Infinity, 0], [0, 1e-9]];
    const up = (zs: [number, number][]) =>
      ga.complex(ga.asarray(zs.map((z) => z[0]), "float64"), ga.asarray(zs.map((z) => z[1]), "float64"));
    const host = (rtol: number, atol: number, equalNan: boolean) =>
      a.map(([ar, ai], i) => {
        const [br, bi] = b[i]!;
        if (ar === br && ai === bi) return 1;
        const nan = (r: number, m: number) => Number.isNaN(r) || Number.isNaN(m);
        if (nan(ar, ai) || nan(br, bi)) return equalNan && nan(ar, ai) && nan(br, bi) ? 1 : 0;
        if (![ar, ai, br, bi].every(Number.isFinite)) return 0;
        return Math.hypot(ar - br, ai - bi) <= atol + rtol * Math.hypot(br, bi) ? 1 : 0;
      });
    assert.deepEqual([...ga.isclose(up(a), up(b)).get()], host(1e-5, 1e-8, false));
    assert.deepEqual(
      [...ga.isclose(up(a), up(b), { rtol: 1e-4, equalNan: true }).get()],
      host(1e-4, 1e-8, true),
    );
    assert.equal(ga.allclose(up(a), up(a), { equalNan: true }), true);
    assert.equal(ga.allclose(up(a), up(b)), false);
  },
);
