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
from records import SAMPLES, SETTLE_S, GpuTimer, calibrate, emit, gbps, host_seconds, log, require  # noqa: E402

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
    ms = t.samples(a.sum, reps)
    record("reduce.sum.2^28", "GB/s", "higher", [gbps(nbytes, m) for m in ms], "a.sum(), float32")


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


def main():
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    log(f"cupy_bench: CuPy {cp.__version__}, numpy {np.__version__}, {name}")
    module = cp.RawModule(code=SRC)
    launches(module)
    vadd_e2e(module.get_function("vadd"))
    copies()
    cp.get_default_memory_pool().free_all_blocks()
    device_memory()
    cp.get_default_memory_pool().free_all_blocks()
    sorting()
    cp.get_default_memory_pool().free_all_blocks()
    matmul()
    small_add1()


if __name__ == "__main__":
    main()
