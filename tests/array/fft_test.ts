import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { ownFft } from "../../src/array/fft/own.ts";
import { cudaTest } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";

/** A complex array on the host, float64, C order. */
interface Host {
  readonly shape: readonly number[];
  readonly re: Float64Array;
  readonly im: Float64Array;
}

type Complex = "complex64" | "complex128";

const sizeOf = (shape: readonly number[]) => shape.reduce((p, e) => p * e, 1);

/** Deterministic values in [-1, 1) from `seed`. */
function values(count: number, seed: number): Float64Array {
  let s = seed * 7919 + 17;
  return Float64Array.from({ length: count }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 1073741824 - 1;
  });
}

function randomHost(shape: readonly number[], seed: number, real = false): Host {
  const n = sizeOf(shape);
  return { shape, re: values(n, seed), im: real ? new Float64Array(n) : values(n, seed + 1000) };
}

/** The host array as a device array of `dtype` (a real dtype takes the real parts). */
function toDevice(x: Host, dtype: ga.DType): ga.GPUArray {
  if (dtype === "complex64" || dtype === "complex128") {
    const data = dtype === "complex64"
      ? new Float32Array(2 * x.re.length)
      : new Float64Array(2 * x.re.length);
    x.re.forEach((v, i) => {
      data[2 * i] = v;
      data[2 * i + 1] = x.im[i]!;
    });
    return ga.empty(x.shape, dtype).set(data);
  }
  return ga.toGpu(Float64Array.from(x.re)).astype(dtype).reshape(x.shape as number[]);
}

/** A device array as a host one (real arrays get imaginary parts 0). */
function fromDevice(a: ga.GPUArray): Host {
  const data = a.get() as Float32Array | Float64Array;
  if (a.dtype === "complex64" || a.dtype === "complex128") {
    return {
      shape: a.shape,
      re: Float64Array.from({ length: a.size }, (_, i) => data[2 * i]!),
      im: Float64Array.from({ length: a.size }, (_, i) => data[2 * i + 1]!),
    };
  }
  return { shape: a.shape, re: Float64Array.from(data), im: new Float64Array(a.size) };
}

/** The O(n²) DFT of one sequence, `Σ x[j]·e^(sign·2πi·jk/n)`, unnormalised, the angle reduced exactly. */
function dft(re: Float64Array, im: Float64Array, sign: number): [Float64Array, Float64Array] {
  const n = re.length, oRe = new Float64Array(n), oIm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sr = 0, si = 0;
    for (let j = 0; j < n; j++) {
      const angle = (sign * 2 * Math.PI * ((j * k) % n)) / n, c = Math.cos(angle), s = Math.sin(angle);
      sr += re[j]! * c - im[j]! * s;
      si += re[j]! * s + im[j]! * c;
    }
    oRe[k] = sr;
    oIm[k] = si;
  }
  return [oRe, oIm];
}

/** `f` applied to every row along `axis` of `x`, giving rows of `outLength`. */
function alongAxis(
  x: Host,
  axis: number,
  outLength: number,
  f: (re: Float64Array, im: Float64Array) => [Float64Array, Float64Array],
): Host {
  const shape = x.shape, m = shape[axis]!;
  const inner = sizeOf(shape.slice(axis + 1)), outer = sizeOf(shape.slice(0, axis));
  const outShape = shape.map((e, d) => (d === axis ? outLength : e));
  const re = new Float64Array(sizeOf(outShape)), im = new Float64Array(re.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const rowRe = Float64Array.from({ length: m }, (_, k) => x.re[(o * m + k) * inner + i]!);
      const rowIm = Float64Array.from({ length: m }, (_, k) => x.im[(o * m + k) * inner + i]!);
      const [yr, yi] = f(rowRe, rowIm);
      for (let k = 0; k < outLength; k++) {
        re[(o * outLength + k) * inner + i] = yr[k]!;
        im[(o * outLength + k) * inner + i] = yi[k]!;
      }
    }
  }
  return { shape: outShape, re, im };
}

/** `re`, `im` cut or padded with zeros to `n`. */
function fit(re: Float64Array, im: Float64Array, n: number): [Float64Array, Float64Array] {
  const r = new Float64Array(n), i = new Float64Array(n);
  r.set(re.subarray(0, n));
  i.set(im.subarray(0, n));
  return [r, i];
}

const scale = (x: Host, s: number): Host => ({
  shape: x.shape,
  re: x.re.map((v) => v * s),
  im: x.im.map((v) => v * s),
});
const conjugate = (x: Host): Host => ({ shape: x.shape, re: x.re, im: x.im.map((v) => -v) });

/** The reference of `fft` (sign -1) or the unnormalised inverse (sign 1) of length `n` along `axis`. */
function hostFft(x: Host, axis: number, n: number, sign: number): Host {
  return alongAxis(x, axis, n, (re, im) => dft(...fit(re, im, n), sign));
}

/** The reference of the unnormalised `irfft`: the Hermitian extension of the first `n / 2 + 1` values, inverted, real. */
function hostIrfft(x: Host, axis: number, n: number): Host {
  return alongAxis(x, axis, n, (re, im) => {
    const [hr, hi] = fit(re, im, Math.floor(n / 2) + 1);
    const fr = new Float64Array(n), fi = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const kk = k <= n / 2 ? k : n - k;
      fr[k] = hr[kk]!;
      fi[k] = k <= n / 2 ? hi[kk]! : -hi[kk]!;
    }
    // The imaginary parts of the first value and of the middle one (even n) do not enter a real result.
    fi[0] = 0;
    if (n % 2 === 0) fi[n / 2] = 0;
    const [yr] = dft(fr, fi, 1);
    return [yr, new Float64Array(n)];
  });
}

/** The tolerance of a transform of `n` points, relative to the largest magnitude. */
function tolerance(dtype: ga.DType, n: number): number {
  const single = dtype === "complex64" || dtype === "float32";
  return (single ? 1e-4 : 1e-10) * Math.sqrt(Math.log(Math.max(n, 2)));
}

function assertClose(got: ga.GPUArray, want: Host, n: number, label: string): void {
  assert.deepEqual(got.shape, want.shape, `${label}: shape`);
  const g = fromDevice(got);
  let largest = 0, error = 0;
  for (let i = 0; i < want.re.length; i++) {
    largest = Math.max(largest, Math.hypot(want.re[i]!, want.im[i]!));
    error = Math.max(error, Math.hypot(g.re[i]! - want.re[i]!, g.im[i]! - want.im[i]!));
  }
  const bound = tolerance(got.dtype, n) * Math.max(largest, 1e-300);
  assert.ok(error <= bound, `${label}: off by ${error} (allowed ${bound}, largest ${largest})`);
}

const LENGTHS = [...Array.from({ length: 40 }, (_, i) => i + 1), 97, 257, 1009, 1024, 1100];

eachBackend("fft.fft() and ifft() of every length 1 to 40, primes and 1024, 1100 match a float64 DFT", () => {
  for (const dtype of ["complex64", "complex128"] as const) {
    for (const n of LENGTHS) {
      const x = randomHost([3, n], n);
      using a = toDevice(x, dtype);
      using y = ga.fft.fft(a);
      assert.equal(y.dtype, dtype);
      assertClose(y, hostFft(x, 1, n, -1), n, `${dtype} fft of ${n}`);
      using back = ga.fft.ifft(a);
      assertClose(back, scale(hostFft(x, 1, n, 1), 1 / n), n, `${dtype} ifft of ${n}`);
    }
  }
});

eachBackend(
  "fft.rfft(), irfft(), hfft() and ihfft() of lengths 1 to 40 and more match their definitions",
  () => {
    for (const dtype of ["float32", "float64"] as const) {
      const complex: Complex = dtype === "float32" ? "complex64" : "complex128";
      for (const n of [...Array.from({ length: 40 }, (_, i) => i + 1), 97, 1009, 1024]) {
        const x = randomHost([2, n], n + 50, true);
        using a = toDevice(x, dtype);
        using y = ga.fft.rfft(a);
        assert.equal(y.dtype, complex);
        const half = Math.floor(n / 2) + 1;
        const full = hostFft(x, 1, n, -1);
        const wantHalf = alongAxis(full, 1, half, (re, im) => fit(re, im, half));
        assertClose(y, wantHalf, n, `${dtype} rfft of ${n}`);
        using back = ga.fft.irfft(y, { n });
        assert.equal(back.dtype, dtype);
        assertClose(back, x, n, `${dtype} irfft(rfft(x)) of ${n}`);
        // irfft of arbitrary complex input: the imaginary parts of the first and middle values drop out.
        const z = randomHost([2, half], n + 70);
        using zd = toDevice(z, complex);
        using zr = ga.fft.irfft(zd, { n });
        assertClose(zr, scale(hostIrfft(z, 1, n), 1 / n), n, `${dtype} irfft of ${n}`);
        using h = ga.fft.hfft(zd, { n });
        assertClose(h, hostIrfft(conjugate(z), 1, n), n, `${dtype} hfft of ${n}`);
        using ih = ga.fft.ihfft(a);
        assertClose(ih, conjugate(scale(wantHalf, 1 / n)), n, `${dtype} ihfft of ${n}`);
      }
    }
  },
);

eachBackend("fft.fft() runs along any axis of 2-D and 3-D arrays, views included", () => {
  for (const dtype of ["complex64", "complex128"] as const) {
    const x2 = randomHost([6, 7], 1);
    using a2 = toDevice(x2, dtype);
    for (const axis of [0, 1, -1, -2]) {
      const ax = axis < 0 ? axis + 2 : axis;
      using y = ga.fft.fft(a2, { axis });
      assertClose(y, hostFft(x2, ax, x2.shape[ax]!, -1), 7, `${dtype} [6, 7] axis ${axis}`);
    }
    // Three passes (96 = 3·8·4) along axis 0, the passes between writing the strided output.
    const tall = randomHost([96, 3], 9);
    using at = toDevice(tall, dtype);
    using yt = ga.fft.fft(at, { axis: 0 });
    assertClose(yt, hostFft(tall, 0, 96, -1), 96, `${dtype} [96, 3] axis 0`);
    const x3 = randomHost([3, 5, 4], 2);
    using a3 = toDevice(x3, dtype);
    for (const axis of [0, 1, 2]) {
      using y = ga.fft.fft(a3, { axis });
      assertClose(y, hostFft(x3, axis, x3.shape[axis]!, -1), 5, `${dtype} [3, 5, 4] axis ${axis}`);
      assert.ok(y.isContiguous, "a contiguous result");
    }
    // A transposed view ([7, 6], strides [1, 7]) along each axis, and one sliced with a step.
    using t = a2.T;
    const xt = fromDevice(t);
    for (const axis of [0, 1]) {
      using y = ga.fft.fft(t, { axis });
      assertClose(y, hostFft(xt, axis, xt.shape[axis]!, -1), 7, `${dtype} transposed, axis ${axis}`);
    }
    using stepped = a3.slice([], [null, null, 2], []);
    const xs = fromDevice(stepped);
    using ys = ga.fft.fft(stepped, { axis: 1 });
    assertClose(ys, hostFft(xs, 1, 3, -1), 3, `${dtype} stepped view`);
    using rs = ga.fft.ifft(a3.T, { axis: 0 });
    const xT = fromDevice(a3.T);
    assertClose(rs, scale(hostFft(xT, 0, 4, 1), 1 / 4), 4, `${dtype} ifft of a transposed 3-D view`);
  }
  // rfft and irfft along a middle axis.
  const xr = randomHost([3, 8, 5], 3, true);
  using ar = toDevice(xr, "float64");
  using yr = ga.fft.rfft(ar, { axis: 1 });
  assertClose(yr, alongAxis(hostFft(xr, 1, 8, -1), 1, 5, (re, im) => fit(re, im, 5)), 8, "rfft axis 1");
  using br = ga.fft.irfft(yr, { axis: 1 });
  assertClose(br, xr, 8, "irfft axis 1");
  const xt = randomHost([96, 2], 4, true);
  using at = toDevice(xt, "float32");
  using yt = ga.fft.rfft(at, { axis: 0 });
  assertClose(
    yt,
    alongAxis(hostFft(xt, 0, 96, -1), 0, 49, (re, im) => fit(re, im, 49)),
    96,
    "rfft [96, 2] axis 0",
  );
  using bt = ga.fft.irfft(yt, { axis: 0, n: 96 });
  assertClose(bt, xt, 96, "irfft [49, 2] axis 0");
});

eachBackend(
  "fft.fft() converts real dtypes as NumPy: float32 to complex64, float64 and integers to complex128",
  () => {
    const x = {
      shape: [2, 5],
      re: Float64Array.from({ length: 10 }, (_, i) => (i * 3) % 7),
      im: new Float64Array(10),
    };
    for (
      const [dtype, want] of [["float32", "complex64"], ["float64", "complex128"], ["int32", "complex128"], [
        "uint8",
        "complex128",
      ], ["bool", "complex128"]] as const
    ) {
      const input = dtype === "bool" ? { ...x, re: x.re.map((v) => (v > 3 ? 1 : 0)) } : x;
      using a = toDevice(input, dtype);
      using y = ga.fft.fft(a);
      assert.equal(y.dtype, want, `${dtype} → ${want}`);
      assertClose(y, hostFft(input, 1, 5, -1), 5, `fft of ${dtype}`);
    }
    using r = ga.fft.rfft(toDevice(x, "int16"));
    assert.equal(r.dtype, "complex128");
  },
);

eachBackend("fft.fft(), rfft() and irfft() cut or pad the axis to n", () => {
  for (const dtype of ["complex64", "complex128"] as const) {
    const x = randomHost([4, 9], 5);
    using a = toDevice(x, dtype);
    for (const n of [1, 4, 9, 12, 16, 23]) {
      using y = ga.fft.fft(a, { n });
      assertClose(y, hostFft(x, 1, n, -1), n, `${dtype} fft n=${n}`);
      using z = ga.fft.ifft(a, { n, axis: 0 });
      assertClose(z, scale(hostFft(x, 0, n, 1), 1 / n), n, `${dtype} ifft n=${n} axis 0`);
    }
    const real = dtype === "complex64" ? "float32" : "float64";
    const xr = randomHost([4, 9], 6, true);
    using ar = toDevice(xr, real);
    for (const n of [5, 9, 14]) {
      const half = Math.floor(n / 2) + 1;
      using y = ga.fft.rfft(ar, { n });
      assertClose(
        y,
        alongAxis(hostFft(xr, 1, n, -1), 1, half, (re, im) => fit(re, im, half)),
        n,
        `rfft n=${n}`,
      );
    }
    // irfft: the input (5 values) is cut or padded to n / 2 + 1; the default n is 2 · (5 - 1) = 8.
    for (const n of [undefined, 3, 8, 13, 20]) {
      using y = ga.fft.irfft(a.slice([], [0, 5]), n === undefined ? {} : { n });
      const length = n ?? 8;
      const sub = alongAxis(x, 1, 5, (re, im) => fit(re, im, 5));
      assertClose(y, scale(hostIrfft(sub, 1, length), 1 / length), length, `irfft n=${n}`);
    }
  }
  // An empty axis with n: zeros padded to n; an empty batch: an empty result.
  using padded = ga.fft.fft(ga.zeros([0], "complex64"), { n: 4 });
  assert.deepEqual(Array.from(padded.get()), new Array(8).fill(0));
  using none = ga.fft.fft(ga.zeros([0, 5]));
  assert.deepEqual([none.shape, none.dtype], [[0, 5], "complex64"]);
});

eachBackend('fft\'s norm: "backward", "ortho" and "forward" scale each direction as NumPy', () => {
  const x = randomHost([2, 12], 7);
  using a = toDevice(x, "complex128");
  using real = toDevice(x, "float64");
  const forward = hostFft(x, 1, 12, -1), inverse = hostFft(x, 1, 12, 1);
  const cases = [["backward", 1, 1 / 12], ["ortho", 1 / Math.sqrt(12), 1 / Math.sqrt(12)], [
    "forward",
    1 / 12,
    1,
  ]] as const;
  for (const [norm, f, b] of cases) {
    using y = ga.fft.fft(a, { norm });
    assertClose(y, scale(forward, f), 12, `fft ${norm}`);
    using z = ga.fft.ifft(a, { norm });
    assertClose(z, scale(inverse, b), 12, `ifft ${norm}`);
    using r = ga.fft.rfft(real, { norm });
    using back = ga.fft.irfft(r, { n: 12, norm });
    assertClose(back, { shape: x.shape, re: x.re, im: new Float64Array(24) }, 12, `irfft(rfft) ${norm}`);
    using nd = ga.fft.fftn(a, { norm });
    using ndBack = ga.fft.ifftn(nd, { norm });
    assertClose(ndBack, x, 24, `ifftn(fftn) ${norm}`);
  }
  using none = ga.fft.fft(a, { norm: undefined });
  assertClose(none, forward, 12, "norm undefined is backward");
});

eachBackend(
  "fft.fft2(), fftn() and their inverses match DFTs along each axis; rfftn and irfftn round-trip",
  () => {
    for (const dtype of ["complex64", "complex128"] as const) {
      const x = randomHost([3, 4, 5], 11);
      using a = toDevice(x, dtype);
      using y = ga.fft.fftn(a);
      assertClose(y, hostFft(hostFft(hostFft(x, 2, 5, -1), 1, 4, -1), 0, 3, -1), 60, `${dtype} fftn`);
      using y2 = ga.fft.fft2(a);
      assertClose(y2, hostFft(hostFft(x, 2, 5, -1), 1, 4, -1), 20, `${dtype} fft2`);
      using ys = ga.fft.fftn(a, { s: [6, 3], axes: [2, 0] });
      assertClose(ys, hostFft(hostFft(x, 0, 3, -1), 2, 6, -1), 18, `${dtype} fftn with s and axes`);
      using yl = ga.fft.fftn(a, { s: [2, 7] }); // the last two axes
      assertClose(yl, hostFft(hostFft(x, 2, 7, -1), 1, 2, -1), 14, `${dtype} fftn with s`);
      using i2 = ga.fft.ifft2(y2);
      assertClose(i2, x, 20, `${dtype} ifft2(fft2)`);
      using i = ga.fft.ifftn(y);
      assertClose(i, x, 60, `${dtype} ifftn(fftn)`);
      using ia = ga.fft.ifftn(a, { axes: [0, 1] });
      assertClose(
        ia,
        scale(hostFft(hostFft(x, 1, 4, 1), 0, 3, 1), 1 / 12),
        12,
        `${dtype} ifftn over two axes`,
      );
    }
    for (const dtype of ["float32", "float64"] as const) {
      const x = randomHost([4, 3, 6], 12, true);
      using a = toDevice(x, dtype);
      using y = ga.fft.rfftn(a);
      const want = alongAxis(
        hostFft(hostFft(hostFft(x, 2, 6, -1), 1, 3, -1), 0, 4, -1),
        2,
        4,
        (re, im) => fit(re, im, 4),
      );
      assertClose(y, want, 72, `${dtype} rfftn`);
      using back = ga.fft.irfftn(y, { s: [4, 3, 6] });
      assertClose(back, x, 72, `${dtype} irfftn(rfftn)`);
      using even = ga.fft.irfftn(y); // the default last length, 2 · (4 - 1) = 6
      assertClose(even, x, 72, `${dtype} irfftn(rfftn), default s`);
      using y2 = ga.fft.rfft2(a, { axes: [0, 1] });
      using b2 = ga.fft.irfft2(y2, { s: [4, 3], axes: [0, 1] });
      assertClose(b2, x, 12, `${dtype} irfft2(rfft2) over an odd last axis`);
    }
  },
);

eachBackend("fft.fftfreq(), rfftfreq(), fftshift() and ifftshift() follow NumPy's definitions", () => {
  for (let n = 1; n <= 10; n++) {
    for (const d of [1, 0.1, 2.5]) {
      const val = 1 / (n * d), positive = Math.floor((n - 1) / 2) + 1;
      const want = Array.from(
        { length: n },
        (_, i) => (i < positive ? i : -(Math.floor(n / 2)) + (i - positive)) * val,
      );
      assert.deepEqual(Array.from(ga.fft.fftfreq(n, d).get()), want, `fftfreq(${n}, ${d})`);
      const wantR = Array.from({ length: Math.floor(n / 2) + 1 }, (_, i) => i * val);
      assert.deepEqual(Array.from(ga.fft.rfftfreq(n, d).get()), wantR, `rfftfreq(${n}, ${d})`);
    }
    const x = ga.arange(n, "int32");
    const roll = (s: number) => Array.from({ length: n }, (_, i) => (((i - s) % n) + n) % n);
    assert.deepEqual(Array.from(ga.fft.fftshift(x).get()), roll(Math.floor(n / 2)), `fftshift ${n}`);
    assert.deepEqual(Array.from(ga.fft.ifftshift(x).get()), roll(-Math.floor(n / 2)), `ifftshift ${n}`);
  }
  const m = ga.arange(12, "int32").reshape(3, 4);
  assert.deepEqual(Array.from(ga.fft.fftshift(m).get()), [10, 11, 8, 9, 2, 3, 0, 1, 6, 7, 4, 5]);
  assert.deepEqual(Array.from(ga.fft.fftshift(m, { axes: 1 }).get()), [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9]);
  assert.deepEqual(Array.from(ga.fft.ifftshift(m, { axes: [0] }).get()), [
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    0,
    1,
    2,
    3,
  ]);
  const z = ga.complex(ga.arange(5), ga.arange(5).neg());
  assert.deepEqual(Array.from(ga.fft.ifftshift(ga.fft.fftshift(z)).get()), Array.from(z.get()));
});

eachBackend(
  "the own kernels (Stockham, Bluestein) run through the Fft interface, compiled for this backend",
  () => {
    const backend = ga.zeros(1).backend;
    const fft = ownFft(backend);
    for (const dtype of ["complex64", "complex128"] as const) {
      for (const n of [1, 7, 60, 11, 127]) {
        // Columns of a [n, 3] array, written as the rows of a [3, n] one.
        const x = randomHost([n, 3], n + 200);
        using a = toDevice(x, dtype);
        using out = ga.empty([3, n], dtype);
        fft.execute({
          kind: "c2c",
          dtype,
          n,
          batch: 3,
          inverse: false,
          input: { buffer: a.buffer, offset: 0, stride: 3, dist: 1 },
          output: { buffer: out.buffer, offset: 0, stride: 1, dist: n },
        });
        assertClose(out.T, hostFft(x, 0, n, -1), n, `${dtype} own columns of ${n}`);
      }
    }
  },
);

cudaTest("fft on CUDA runs on cuFFT, and keeps right results past its plan cache's bound", () => {
  ga.useBackend("cuda");
  const backend = ga.zeros(1).backend;
  assert.match(backend.fft?.name ?? "cuFFT did not load", /^cuFFT \d+\.\d+\.\d+$/);
  for (let n = 2; n <= 41; n++) {
    const x = randomHost([2, n], n + 300);
    using a = toDevice(x, "complex64");
    using y = ga.fft.fft(a);
    assertClose(y, hostFft(x, 1, n, -1), n, `fft of ${n}`);
  }
  const x = randomHost([2, 3, 10], 400, true);
  using a = toDevice(x, "float64");
  using y = ga.fft.rfft(a, { axis: 1 });
  using back = ga.fft.irfft(y, { axis: 1, n: 3 });
  assertClose(back, x, 3, "rfft and irfft on cuFFT along a middle axis");
});

eachBackend("fft errors say what was wrong in the caller's terms", () => {
  const a = ga.zeros([4, 5]);
  assert.throws(() => ga.fft.fft(a, { axis: 3 }), {
    name: "RangeError",
    message: "Cannot fft along axis 3 of an array of shape [4, 5]: use an axis from -2 to 1",
  });
  assert.throws(() => ga.fft.fft(a, { n: 0 }), {
    name: "RangeError",
    message: "Cannot fft with n 0: n must be a positive integer",
  });
  assert.throws(() => ga.fft.ifft(a, { n: 2.5 }), {
    name: "RangeError",
    message: /n must be a positive integer/,
  });
  assert.throws(() => ga.fft.fft(a, { n: "4" as unknown as number }), { name: "TypeError" });
  assert.throws(() => ga.fft.fft(a, { norm: "none" as ga.fft.FftNorm }), {
    name: "TypeError",
    message: 'Cannot fft with norm "none": norm must be "backward", "ortho" or "forward"',
  });
  assert.throws(() => ga.fft.fft(a, { axes: [0] } as ga.fft.FftOptions), {
    name: "TypeError",
    message: /Cannot fft with option "axes": the options are n, axis, norm/,
  });
  assert.throws(() => ga.fft.fft(a, 8 as unknown as ga.fft.FftOptions), {
    name: "TypeError",
    message: /Cannot fft with 8: .*\{ n: 64, axis: -1 \}/,
  });
  assert.throws(() => ga.fft.fft(new Float32Array(4) as unknown as ga.GPUArray), {
    name: "TypeError",
    message: /pass a GPUArray/,
  });
  assert.throws(() => ga.fft.fft(ga.zeros([3, 0])), {
    name: "RangeError",
    message:
      "Cannot fft along axis 1 of an array of shape [3, 0]: the axis is empty; give the length to pad it to with zeros (n, or s)",
  });
  assert.throws(() => ga.fft.rfft(ga.zeros([4], "complex64")), {
    name: "TypeError",
    message: "Cannot rfft a complex64 array of shape [4]: rfft takes real input; for complex input use fft",
  });
  assert.throws(() => ga.fft.irfft(ga.zeros([3, 1], "complex64")), {
    name: "RangeError",
    message:
      /Cannot irfft along axis 1 of an array of shape \[3, 1\]: the default n, 2·\(1 - 1\) = 0, is not positive/,
  });
  assert.throws(() => ga.fft.fftn(a, { s: [4, 4], axes: [0] }), {
    name: "RangeError",
    message: "Cannot fftn with s [4, 4] and axes [0]: give one length per axis",
  });
  assert.throws(() => ga.fft.fft2(ga.zeros([4])), {
    name: "RangeError",
    message: /Cannot fft2 along axis -2 of an array of shape \[4\]/,
  });
  assert.throws(() => ga.fft.rfftn(a, { axes: [] }), {
    name: "RangeError",
    message: "Cannot rfftn over no axes: give at least one",
  });
  assert.throws(() => ga.fft.fftfreq(0), {
    name: "RangeError",
    message: /Cannot fftfreq with n 0: n must be a positive integer/,
  });
  assert.throws(() => ga.fft.rfftfreq(4, 0), {
    name: "RangeError",
    message: /d must be a finite, nonzero sample spacing/,
  });
  assert.throws(() => ga.fft.fftshift(a, { axes: 2 }), {
    name: "RangeError",
    message: /axis 2 is out of range/,
  });
});
