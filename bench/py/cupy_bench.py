"""CuPy side of the cudeno benchmark suite (bench/README.md says what each figure means).

RawModule launches of the same kernels the C program launches, copies through cupy.asarray and .get(),
and array work. Records on stdout, one JSON object a line; the log on stderr.
"""

import os

# CuPy computes float32 matmul without TF32 unless CUPY_TF32=1; pin it before the import reads it.
os.environ["CUPY_TF32"] = "0"

import time  # noqa: E402
from functools import partial  # noqa: E402

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402
from records import SAMPLES, SETTLE_S, GpuTimer, calibrate, emit, gbps, host_seconds, log, require, run_sections  # noqa: E402

SRC = r"""
extern "C" __global__ void empty(float *p, int n) {}
extern "C" __global__ void args8(float *a, float *b, float *c, float *d, int n, float alpha, float beta,
                                 int flag) {
  if (n < 0) a[0] = alpha + beta + flag + b[0] + c[0] + d[0];
}
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""

COPY_SIZES = [(4096, "4KiB"), (1 << 20, "1MiB"), (64 << 20, "64MiB"), (1 << 30, "1GiB")]


def record(figure, unit, better, samples, note=None):
    emit("cupy", figure, unit, better, samples, note)


def sync():
    cp.cuda.get_current_stream().synchronize()


def timer():
    return GpuTimer(cp.cuda.Event, cp.cuda.get_elapsed_time)


def random_f32(shape, seed):
    return cp.random.RandomState(seed).random_sample(shape, dtype=cp.float32)


def launch_async(figure, kernel, args, per_sample=200_000):
    grid, block = (1,), (32,)

    def run(count):
        for _ in range(count):
            kernel(grid, block, args)
        sync()

    run(per_sample)  # warm-up
    samples = [host_seconds(run, per_sample) / per_sample * 1e6 for _ in range(SAMPLES)]
    record(figure, "us", "lower", samples, "RawModule, grid 1, block 32; 200000 launches, then one synchronize")


def launch_sync(kernel, args, per_sample=20_000):
    grid, block = (1,), (32,)
    stream = cp.cuda.get_current_stream()

    def run(count):
        for _ in range(count):
            kernel(grid, block, args)
            stream.synchronize()

    run(per_sample // 10)
    samples = [host_seconds(run, per_sample) / per_sample * 1e6 for _ in range(SAMPLES)]
    record("launch.empty.sync", "us", "lower", samples, "RawModule, grid 1, block 32; synchronize after each")


def launches(module):
    p = [random_f32(1024, seed) for seed in range(4)]
    n = np.int32(1024)
    # Built once and reused, as the C program does; numpy scalars give each argument its C type.
    empty_args = (p[0], n)
    args8_args = (p[0], p[1], p[2], p[3], n, np.float32(1.5), np.float32(2.5), np.int32(1))
    launch_async("launch.empty.async", module.get_function("empty"), empty_args)
    launch_async("launch.args8.async", module.get_function("args8"), args8_args)
    launch_sync(module.get_function("empty"), empty_args)


def vadd_e2e(vadd, n=1 << 24):
    rng = np.random.default_rng(31)
    a_h, b_h = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    want = a_h + b_h
    c = cp.empty(n, dtype=cp.float32)
    grid, block, n32 = ((n + 255) // 256,), (256,), np.int32(n)
    samples = []
    for i in range(SAMPLES + 1):  # the first run is the warm-up
        c.fill(np.nan)  # poison outside the timed region: an unwritten output fails the check
        sync()
        t0 = time.perf_counter()
        a, b = cp.asarray(a_h), cp.asarray(b_h)
        vadd(grid, block, (a, b, c, n32))
        got = c.get()
        dt = time.perf_counter() - t0
        require(np.array_equal(got, want), "vadd.e2e.2^24: c != a + b")
        if i:
            samples.append(dt * 1e3)
    record(
        "vadd.e2e.2^24",
        "ms",
        "lower",
        samples,
        "cupy.asarray(a), cupy.asarray(b), RawModule launch (block 256), c.get(); c allocated once",
    )


def copy_figure(figure, copy, nbytes, note):
    def run(count):
        for _ in range(count):
            copy()
        sync()  # asarray may return before its copy has landed

    reps = calibrate(run)
    samples = [nbytes * reps / host_seconds(run, reps) / 1e9 for _ in range(SAMPLES)]
    record(figure, "GB/s", "higher", samples, f"{note}, {reps} per sample")


def copies():
    big_h = np.random.default_rng(12).random((1 << 30) // 4, dtype=np.float32)
    big_d = cp.asarray(big_h)
    require(np.array_equal(big_d[-1024:].get(), big_h[-1024:]), "copies: device data differs from host")
    for nbytes, name in COPY_SIZES:
        h, d = big_h[: nbytes // 4], big_d[: nbytes // 4]
        copy_figure(f"copy.htod.pageable.{name}", partial(cp.asarray, h), nbytes, "cupy.asarray(numpy array)")
        copy_figure(f"copy.dtoh.pageable.{name}", d.get, nbytes, ".get() into a new numpy array")


def device_memory(n=1 << 28, reps=20):
    nbytes = n * 4
    a, b = random_f32(n, 41), random_f32(n, 42)
    out = cp.full(n, np.nan, dtype=cp.float32)
    t = timer()

    cp.copyto(out, a)
    require(bool(cp.array_equal(out, a)), "d2d.copy.2^28: copy differs")
    ms = t.samples(lambda: cp.copyto(out, a), reps)
    record("d2d.copy.2^28", "GB/s", "higher", [gbps(2 * nbytes, m) for m in ms], "cupy.copyto; read + write")

    out.fill(np.nan)
    cp.add(a, b, out=out)
    require(bool(cp.array_equal(out, a + b)), "elementwise.add.2^28: sum differs")
    ms = t.samples(lambda: cp.add(a, b, out=out), reps)
    record("elementwise.add.2^28", "GB/s", "higher", [gbps(3 * nbytes, m) for m in ms], "cupy.add(a, b, out=c)")

    ref = float(a.sum(dtype=cp.float64))
    require(abs(float(a.sum()) - ref) <= 1e-4 * abs(ref), "reduce.sum.2^28: sum far from the float64 sum")
    ms = t.batched(a.sum, reps)
    record("reduce.sum.2^28", "GB/s", "higher", [gbps(nbytes, m) for m in ms], "a.sum(), float32")


def reductions(side=8192, n=1 << 28, reps=20):
    """Sums along each axis of a side x side matrix, the flat argmax of n floats, softmax over rows (composed)."""
    t = timer()
    x = random_f32((side, side), 43) - np.float32(0.5)
    nbytes = x.size * 4
    for axis in (0, 1):
        out = cp.empty(side, dtype=cp.float32)
        cp.sum(x, axis=axis, out=out)
        ref = x.astype(cp.float64).sum(axis=axis)
        require(bool(cp.allclose(out, ref, rtol=1e-4, atol=1e-3)), f"reduce.sum.axis{axis}: sums differ")
        ms = t.batched(partial(cp.sum, x, axis=axis, out=out), reps)
        note = f"cupy.sum(x, axis={axis}, out=o), float32; bytes read"
        record(f"reduce.sum.axis{axis}.{side}x{side}", "GB/s", "higher", [gbps(nbytes, m) for m in ms], note)

    def softmax(v):
        e = cp.exp(v - v.max(axis=1, keepdims=True))
        e /= e.sum(axis=1, keepdims=True)
        return e

    p = softmax(x)
    rows = x[:4].astype(cp.float64)
    ref = cp.exp(rows - rows.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    require(bool(cp.allclose(p[:4], ref, rtol=1e-5, atol=1e-9)), "softmax.rows: values differ")
    ms = t.batched(partial(softmax, x), reps)
    note = "exp(x - max) / sum, composed of CuPy calls (CuPy has no softmax), float32; bytes read + written once"
    record(f"softmax.rows.{side}x{side}", "GB/s", "higher", [gbps(2 * nbytes, m) for m in ms], note)
    del x, p
    cp.get_default_memory_pool().free_all_blocks()
    a = random_f32(n, 44)
    i = int(cp.argmax(a))
    top = a.max()
    require(bool(a[i] == top) and not bool((a[:i] == top).any()), "reduce.argmax.2^28: not the first maximum")
    ms = t.batched(partial(cp.argmax, a), reps)
    record("reduce.argmax.2^28", "GB/s", "higher", [gbps(n * 4, m) for m in ms], "cupy.argmax(a), float32")
def scan(n=1 << 28, reps=20):
    # ±1 values: every prefix is an integer far below 2^24, exact in float32 in any order of addition.
    a = cp.random.RandomState(43).randint(0, 2, size=n).astype(cp.float32) * 2 - 1
    out = cp.full(n, np.nan, dtype=cp.float32)
    cp.cumsum(a, out=out)
    want = cp.cumsum(a, dtype=cp.float64).astype(cp.float32)
    require(bool(cp.array_equal(out, want)), "scan.cumsum.2^28: differs from the float64 cumsum")
    del want
    ms = timer().samples(lambda: cp.cumsum(a, out=out), reps)
    note = "cupy.cumsum(a, out=out), float32; bytes read + written"
    record("scan.cumsum.2^28", "GB/s", "higher", [gbps(2 * n * 4, m) for m in ms], note)
def gkeys(n, ms):
    return n / (ms * 1e-3) / 1e9


def sorting(n=1 << 26, reps=10):
    a = random_f32(n, 43)
    t = timer()

    order = cp.argsort(a)
    ordered = a[order]
    require(bool(cp.all(ordered[1:] >= ordered[:-1])), "argsort.f32.2^26: not sorted")
    s = cp.sort(a)
    require(bool(cp.array_equal(s, ordered)), "sort.f32.2^26: differs from a[argsort(a)]")
    ms = t.samples(lambda: cp.sort(a), reps)
    record("sort.f32.2^26", "Gkeys/s", "higher", [gkeys(n, m) for m in ms], "cupy.sort(a): values only")
    ms = t.samples(lambda: cp.argsort(a), reps)
    note = "cupy.argsort(a): int64 indices"
    record("argsort.f32.2^26", "Gkeys/s", "higher", [gkeys(n, m) for m in ms], note)


def relative_error(got, ref):
    return float(cp.linalg.norm(got.astype(cp.float64) - ref) / cp.linalg.norm(ref))


def matmul(sizes=(1024, 4096, 8192), reps=10):
    t = timer()
    for n in sizes:
        rng = cp.random.RandomState(n)
        a = rng.standard_normal((n, n), dtype=cp.float32)
        b = rng.standard_normal((n, n), dtype=cp.float32)
        c = cp.full((n, n), np.nan, dtype=cp.float32)
        cp.matmul(a, b, out=c)
        err = relative_error(c, cp.matmul(a.astype(cp.float64), b.astype(cp.float64)))
        # float32 lands far under 5e-5 at these sizes; TF32 would land near 3e-4.
        require(err < 5e-5, f"matmul.f32.{n}: relative error {err:.2e}")
        product = partial(cp.matmul, a, b, out=c)
        batch = t.batch_for(product)
        ms = t.samples(product, reps, batch, settle_s=SETTLE_S)
        note = f"cupy.matmul(out=c), TF32 off; {batch} products per sample; relative error {err:.1e}"
        record(f"matmul.f32.{n}", "TFLOP/s", "higher", [2 * n**3 / (m * 1e-3) / 1e12 for m in ms], note)
        cp.get_default_memory_pool().free_all_blocks()


def matmul_batched_and_transposed(batch=256, n=512, large=8192, reps=10):
    """matmul.bmm.f32.256x512 (cupy.matmul of two [256, 512, 512] arrays) and matmul.f32.8192.t
    (cupy.matmul(a.T, b)), float32 with TF32 off."""
    t = timer()
    rng = cp.random.RandomState(batch)
    cases = [
        (f"matmul.bmm.f32.{batch}x{n}", (batch, n, n), False, 2 * batch * n**3),
        (f"matmul.f32.{large}.t", (large, large), True, 2 * large**3),
    ]
    for figure, shape, transposed, flops in cases:
        a = rng.standard_normal(shape, dtype=cp.float32)
        b = rng.standard_normal(shape, dtype=cp.float32)
        left = a.T if transposed else a
        c = cp.full(shape, np.nan, dtype=cp.float32)
        cp.matmul(left, b, out=c)
        err = relative_error(c, cp.matmul(left.astype(cp.float64), b.astype(cp.float64)))
        require(err < 5e-5, f"{figure}: relative error {err:.2e}")
        product = partial(cp.matmul, left, b, out=c)
        per = t.batch_for(product)
        ms = t.samples(product, reps, per, settle_s=SETTLE_S)
        what = "cupy.matmul(a.T, b, out=c)" if transposed else "cupy.matmul(a, b, out=c)"
        note = f"{what}, TF32 off; {per} products per sample; relative error {err:.1e}"
        record(figure, "TFLOP/s", "higher", [flops / (m * 1e-3) / 1e12 for m in ms], note)
        del a, b, left, c
        cp.get_default_memory_pool().free_all_blocks()


def small_add1(ops=10_000):
    x = cp.random.RandomState(5).randint(1, 100, size=1).astype(cp.float32)  # integers: sums stay exact
    start = float(x[0])
    samples = []
    for i in range(SAMPLES + 1):  # the first round is the warm-up
        t0 = time.perf_counter()
        for _ in range(ops):
            x += 1
        sync()
        if i:
            samples.append((time.perf_counter() - t0) / ops * 1e6)
    require(float(x[0]) == start + ops * (SAMPLES + 1), "small.add1.async: wrong count")
    record("small.add1.async", "us", "lower", samples, f"x += 1 on a 1-element float32 array, {ops} ops, then sync")


def views(n=8192, reps=20):
    t = timer()
    a = random_f32((n, n), 11)
    row = random_f32((n,), 12)
    out = cp.empty((n, n), dtype=cp.float32)
    cp.add(a, row, out=out)
    require(bool(cp.array_equal(out[-1], a[-1] + row)), "view.add.broadcast: sum differs")
    ms = t.samples(partial(cp.add, a, row, out=out), reps)
    record("view.add.broadcast", "GB/s", "higher", [gbps((2 * n * n + n) * 4, m) for m in ms], "cupy.add(a, row, out=c)")
    cp.copyto(out, a.T)
    require(bool(cp.array_equal(out[5], a[:, 5])), "view.copy.transposed: copy differs")
    ms = t.samples(partial(cp.copyto, out, a.T), reps)
    record("view.copy.transposed", "GB/s", "higher", [gbps(2 * n * n * 4, m) for m in ms], "cupy.copyto(out, a.T)")
    half = a[:, ::2]
    ms = t.samples(partial(cp.add, half, 1), reps)
    record("view.add.strided", "GB/s", "higher", [gbps(2 * n * (n // 2) * 4, m) for m in ms], "a[:, ::2] + 1")


def joins(n=1 << 25, k=8, reps=20):
    t = timer()
    parts = [random_f32((n,), 21 + i) for i in range(k)]
    joined = cp.concatenate(parts)
    require(all(bool(cp.array_equal(joined[i * n:(i + 1) * n], p)) for i, p in enumerate(parts)), "join.concatenate.8x2^25: differs")
    del joined
    ms = t.samples(partial(cp.concatenate, parts), reps)
    record("join.concatenate.8x2^25", "GB/s", "higher", [gbps(2 * k * n * 4, m) for m in ms], "cupy.concatenate of 8 float32 arrays of 2^25")


def fusion(n=1 << 28, reps=20):
    """cupy.fuse's versions of the fused-function figures (bench/cudeno/fuse.ts); the row normalisation
    needs elementwise work after a reduction, which cupy.fuse does not fuse, so it has none. A function
    cupy.fuse cannot compile here is skipped with a log line."""
    t = timer()
    x, y = random_f32(n, 46), random_f32(n, 47)

    @cp.fuse()
    def chain(x, y):
        return cp.exp(2 * x + y) * np.float32(0.5)

    @cp.fuse()
    def sqdiff_sum(x, y):
        return cp.sum((x - y) ** 2)

    xd, yd = x[: 1 << 20].astype(cp.float64), y[: 1 << 20].astype(cp.float64)
    cases = [
        ("fuse.chain.2^28", chain, 3 * 4 * n, lambda r: r[: 1 << 20], cp.exp(2 * xd + yd) * 0.5, 1e-6,
         "cupy.fuse of exp(2 * x + y) * 0.5, float32; useful bytes 3 x 4 x 2^28"),
        # cupy.fuse's reduction runs few threads (cupy#9008), each summing millions of float32 values in
        # turn: its rounding error reaches about 1e-3 of the float64 sum on the H200.
        ("fuse.sqdiff_sum.2^28", sqdiff_sum, 2 * 4 * n, lambda r: r, ((x.astype(cp.float64) - y) ** 2).sum(), 1e-2,
         "cupy.fuse of cupy.sum((x - y) ** 2), float32 (its reduction's grid: cupy#9008); useful bytes 2 x 4 x 2^28"),
    ]
    for figure, fn, nbytes, part, want, rtol, note in cases:
        try:
            got = fn(x, y)
        except Exception as e:
            log(f"cupy_bench: cupy.fuse of {figure} failed, the figure is skipped: {type(e).__name__}: {e}")
            continue
        require(bool(cp.allclose(part(got).astype(cp.float64), want, rtol=rtol, atol=0)), f"{figure}: values differ")
        ms = t.samples(partial(fn, x, y), reps, batch=t.batch_for(partial(fn, x, y)))
        record(figure, "GB/s", "higher", [gbps(nbytes, v) for v in ms], note)


def statistics(n=1 << 28, m=1 << 26, reps=10):
    """The statistics figures (bench/cudeno/statistics.ts) CuPy has: cupy.histogram, cupy.bincount and
    cupy.median, each checked on the host first."""
    t = timer()
    rng = cp.random.default_rng(11)
    x = rng.random(n, dtype=cp.float32)
    k = rng.integers(0, 256, n, dtype=cp.int32)
    small = cp.asnumpy(x[: 1 << 16])
    counts, _ = cp.histogram(x[: 1 << 16], bins=256, range=(0, 1))
    require((cp.asnumpy(counts) == np.histogram(small, bins=256, range=(0, 1))[0]).all(), "histogram counts")
    require(abs(float(cp.median(x[: 1 << 16])) - float(np.median(small))) < 1e-6, "median")
    record("histogram.f32.2^28", "GB/s", "higher",
           [gbps(4 * n, v) for v in t.samples(lambda: cp.histogram(x, bins=256, range=(0, 1)), reps)],
           "cupy.histogram(x, bins=256, range=(0, 1)) of 2^28 uniform float32; bytes read")
    record("bincount.i32.2^28", "GB/s", "higher",
           [gbps(4 * n, v) for v in t.samples(lambda: cp.bincount(k), reps)],
           "cupy.bincount(x) of 2^28 int32 in [0, 256); bytes read")
    xm = x[:m]
    record("median.f32.2^26", "ms", "lower", t.samples(lambda: cp.median(xm), reps), "cupy.median(x) of 2^26 float32")
    del x, k


def ffts(reps=10):
    """The FFT figures (bench/cudeno/fft.ts): cupy.fft.fft, rfft and fft2 on cuFFT, checked against
    NumPy's FFT in float64 first."""
    t = timer()
    rng = np.random.default_rng(1)
    small = (rng.standard_normal(1009) + 1j * rng.standard_normal(1009)).astype(np.complex64)
    want = np.fft.fft(small.astype(np.complex128))
    require(np.abs(cp.asnumpy(cp.fft.fft(cp.asarray(small))) - want).max() / np.abs(want).max() < 1e-5, "fft of 1009")
    n, r, side, rows, length = 1 << 24, 1 << 26, 4096, 16384, 1024
    g = cp.random.default_rng(2)

    def complex64(shape):
        return (g.standard_normal(shape, dtype=cp.float32) + 1j * g.standard_normal(shape, dtype=cp.float32)).astype(cp.complex64)

    z = complex64(n)
    record("fft.c64.2^24", "GB/s", "higher", [gbps(16 * n, v) for v in t.samples(lambda: cp.fft.fft(z), reps)],
           "cupy.fft.fft(z) of 2^24 complex64; bytes read and written")
    del z
    x = g.standard_normal(r, dtype=cp.float32)
    record("rfft.f32.2^26", "GB/s", "higher",
           [gbps(4 * r + 8 * (r // 2 + 1), v) for v in t.samples(lambda: cp.fft.rfft(x), reps)],
           "cupy.fft.rfft(x) of 2^26 float32; bytes read and written")
    del x
    m = complex64((side, side))
    record("fft2.c64.4096^2", "GB/s", "higher",
           [gbps(16 * side * side, v) for v in t.samples(lambda: cp.fft.fft2(m), reps)],
           "cupy.fft.fft2(z) of 4096×4096 complex64; bytes read and written once")
    del m
    b = complex64((rows, length))
    record("fft.c64.16384x1024", "GB/s", "higher",
           [gbps(16 * rows * length, v) for v in t.samples(lambda: cp.fft.fft(b), reps)],
           "cupy.fft.fft(z) along the last axis of 16384×1024 complex64; bytes read and written")


def decompositions(reps=5):
    """The linear-algebra figures (bench/cudeno/decompositions.ts): cupy.linalg's solve, cholesky, qr,
    eigh and svd, float32 and float64, and its batched solve, inv and eigh (syevjBatched), each checked in
    float64 first."""
    t = timer()
    rng = cp.random.default_rng(1)
    large, spectral = 4096, 2048

    def rel(got, want):
        got, want = got.astype(cp.float64), want.astype(cp.float64)
        return float(cp.abs(got - want).max() / cp.abs(want).max())

    def tflops(flops, ms):
        return [flops / (m / 1000) / 1e12 for m in ms]

    for dtype, name, limit in ((cp.float32, "f32", 1e-3), (cp.float64, "f64", 1e-9)):
        a = rng.standard_normal((large, large), dtype=dtype) + large * cp.eye(large, dtype=dtype)
        b = rng.standard_normal((large, 1), dtype=dtype)
        require(rel(a @ cp.linalg.solve(a, b), b) < limit, f"solve.{name}")
        record(f"solve.{name}.{large}", "TFLOP/s", "higher",
               tflops(2 / 3 * large ** 3, t.samples(lambda: cp.linalg.solve(a, b), reps)),
               "cupy.linalg.solve(a, b), b one column; 2n³/3 flops")
        spd = a @ a.T
        low = cp.linalg.cholesky(spd)
        require(rel(low @ low.T, spd) < limit, f"cholesky.{name}")
        record(f"cholesky.{name}.{large}", "TFLOP/s", "higher",
               tflops(large ** 3 / 3, t.samples(lambda: cp.linalg.cholesky(spd), reps)),
               "cupy.linalg.cholesky(a); n³/3 flops")
        q, r = cp.linalg.qr(a)
        require(rel(q @ r, a) < limit, f"qr.{name}")
        record(f"qr.{name}.{large}", "TFLOP/s", "higher",
               tflops(4 / 3 * large ** 3, t.samples(lambda: cp.linalg.qr(a), 3)),
               "cupy.linalg.qr(a), Q and R; 4n³/3 flops (geqrf's)")
        del a, b, spd, low, q, r
        m = rng.standard_normal((spectral, spectral), dtype=dtype)
        sym = m + m.T
        w, v = cp.linalg.eigh(sym)
        require(rel((v * w) @ v.T, sym) < limit, f"eigh.{name}")
        record(f"eigh.{name}.{spectral}", "ms", "lower", t.samples(lambda: cp.linalg.eigh(sym), 3),
               "cupy.linalg.eigh(a), values and vectors")
        u, sv, vh = cp.linalg.svd(m, full_matrices=False)
        require(rel((u * sv) @ vh, m) < limit, f"svd.{name}")
        record(f"svd.{name}.{spectral}", "ms", "lower",
               t.samples(lambda: cp.linalg.svd(m, full_matrices=False), 3),
               "cupy.linalg.svd(a, full_matrices=False), U, S and Vh")
        del m, sym, w, v, u, sv, vh
    small = rng.standard_normal((100_000, 8, 8), dtype=cp.float32) + 8 * cp.eye(8, dtype=cp.float32)
    rhs = rng.standard_normal((100_000, 8, 1), dtype=cp.float32)
    require(rel(small @ cp.linalg.solve(small, rhs), rhs) < 1e-4, "solve.batch")
    record("solve.batch.8x8.f32", "ms", "lower", t.batched(lambda: cp.linalg.solve(small, rhs), 10),
           "cupy.linalg.solve(a, b) of 10^5 8×8 float32 systems, b [10^5, 8, 1]")
    record("inv.batch.8x8.f32", "ms", "lower", t.batched(lambda: cp.linalg.inv(small), 10),
           "cupy.linalg.inv(a) of 10^5 8×8 float32 matrices")
    m = rng.standard_normal((500, 100, 100), dtype=cp.float32)
    sym = m + m.transpose(0, 2, 1)
    w, v = cp.linalg.eigh(sym)
    require(rel((v * w[:, None, :]) @ v.transpose(0, 2, 1), sym) < 1e-3, "eigh.batch")
    record("eigh.batch.100.f32", "ms", "lower", t.samples(lambda: cp.linalg.eigh(sym), 3),
           "cupy.linalg.eigh(a) of 500 symmetric 100×100 float32 matrices (syevjBatched)")


def main():
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    log(f"cupy_bench: CuPy {cp.__version__}, numpy {np.__version__}, {name}")
    module = cp.RawModule(code=SRC)
    run_sections(
        [
            ("launch", lambda: launches(module)),
            ("vadd", lambda: vadd_e2e(module.get_function("vadd"))),
            ("copy", copies),
            ("d2d", device_memory),
            ("reduce", reductions),
            ("scan", scan),
            ("sort", sorting),
            ("matmul", matmul),
            ("matmul", matmul_batched_and_transposed),
            ("array", small_add1),
            ("view", views),
            ("join", joins),
            ("fuse", fusion),
            ("stats", statistics),
            ("fft", ffts),
            ("linalg", decompositions),
        ],
        cp.get_default_memory_pool().free_all_blocks,
    )


if __name__ == "__main__":
    main()
