"""PyTorch side of the cudeno benchmark suite (bench/README.md says what each figure means): the array and
matmul peers. Records on stdout, one JSON object a line; the log on stderr."""

import time
from functools import partial

import torch
from records import SAMPLES, SETTLE_S, GpuTimer, emit, gbps, log, require

DEVICE = "cuda"
# Set on import, before any product: float32 matmul must not quietly run as TF32.
torch.backends.cuda.matmul.allow_tf32 = False


def record(figure, unit, better, samples, note=None):
    emit("torch", figure, unit, better, samples, note)


def timer():
    return GpuTimer(partial(torch.cuda.Event, enable_timing=True), lambda start, stop: start.elapsed_time(stop))


def device_memory(n=1 << 28, reps=20):
    nbytes = n * 4
    gen = torch.Generator(device=DEVICE).manual_seed(41)
    a = torch.rand(n, device=DEVICE, generator=gen)
    b = torch.rand(n, device=DEVICE, generator=gen)
    out = torch.full((n,), float("nan"), device=DEVICE)
    t = timer()

    out.copy_(a)
    require(torch.equal(out, a), "d2d.copy.2^28: copy differs")
    ms = t.samples(partial(out.copy_, a), reps)
    record("d2d.copy.2^28", "GB/s", "higher", [gbps(2 * nbytes, m) for m in ms], "out.copy_(a); read + write")

    out.fill_(float("nan"))
    torch.add(a, b, out=out)
    require(torch.equal(out, a + b), "elementwise.add.2^28: sum differs")
    ms = t.samples(partial(torch.add, a, b, out=out), reps)
    record("elementwise.add.2^28", "GB/s", "higher", [gbps(3 * nbytes, m) for m in ms], "torch.add(a, b, out=c)")

    ref = a.sum(dtype=torch.float64).item()
    require(abs(a.sum().item() - ref) <= 1e-4 * abs(ref), "reduce.sum.2^28: sum far from the float64 sum")
    ms = t.samples(a.sum, reps)
    record("reduce.sum.2^28", "GB/s", "higher", [gbps(nbytes, m) for m in ms], "a.sum(), float32")


def gkeys(n, ms):
    return n / (ms * 1e-3) / 1e9


def sorting(n=1 << 26, reps=10):
    gen = torch.Generator(device=DEVICE).manual_seed(43)
    a = torch.rand(n, device=DEVICE, generator=gen)
    t = timer()

    values, indices = torch.sort(a)
    require(bool((values[1:] >= values[:-1]).all()), "sort.f32.2^26: not sorted")
    require(torch.equal(a[indices], values), "sort.f32.2^26: indices do not give the values")
    ms = t.samples(partial(torch.sort, a), reps)
    note = "torch.sort(a): values and int64 indices"
    record("sort.f32.2^26", "Gkeys/s", "higher", [gkeys(n, m) for m in ms], note)

    order = torch.argsort(a, stable=True)
    ordered = a[order]
    require(bool((ordered[1:] >= ordered[:-1]).all()), "argsort.f32.2^26: not sorted")
    ms = t.samples(partial(torch.argsort, a, stable=True), reps)
    note = "torch.argsort(a, stable=True)"
    record("argsort.f32.2^26", "Gkeys/s", "higher", [gkeys(n, m) for m in ms], note)


def relative_error(got, a, b):
    ref = a.double() @ b.double()
    return ((got.double() - ref).norm() / ref.norm()).item()


# float32 (TF32 off) lands far under 5e-5 at these sizes, TF32 near 3e-4; bf16 operands between 1e-3 and 1e-2.
TOLERANCE = {torch.float32: 5e-5, torch.bfloat16: 1e-2}
NAME = {torch.float32: "f32", torch.bfloat16: "bf16"}


def matmul(dtype, sizes=(1024, 4096, 8192), reps=10):
    t = timer()
    for n in sizes:
        gen = torch.Generator(device=DEVICE).manual_seed(n)
        a = torch.randn(n, n, device=DEVICE, generator=gen).to(dtype)
        b = torch.randn(n, n, device=DEVICE, generator=gen).to(dtype)
        c = torch.full((n, n), float("nan"), device=DEVICE, dtype=dtype)
        torch.matmul(a, b, out=c)
        err = relative_error(c, a, b)
        figure = f"matmul.{NAME[dtype]}.{n}"
        require(err < TOLERANCE[dtype], f"{figure}: relative error {err:.2e}")
        product = partial(torch.matmul, a, b, out=c)
        batch = t.batch_for(product)
        ms = t.samples(product, reps, batch, settle_s=SETTLE_S)
        mode = "float32, TF32 off" if dtype == torch.float32 else "bfloat16"
        note = f"torch.matmul(out=c), {mode}; {batch} products per sample; relative error {err:.1e}"
        record(figure, "TFLOP/s", "higher", [2 * n**3 / (m * 1e-3) / 1e12 for m in ms], note)
        if n == 1024:
            host = []
            for _ in range(reps):
                t0 = time.perf_counter()
                for _ in range(batch):
                    product()
                host.append((time.perf_counter() - t0) * 1e6 / batch)
                torch.cuda.synchronize()
            record(f"{figure}.host", "us", "lower", host, "host time to queue one product")
        del a, b, c
        torch.cuda.empty_cache()


def small_add1(ops=10_000):
    x = torch.randint(1, 100, (1,), device=DEVICE).float()  # integers: sums stay exact
    start = x.item()
    samples = []
    for i in range(SAMPLES + 1):  # the first round is the warm-up
        t0 = time.perf_counter()
        for _ in range(ops):
            x.add_(1)
        torch.cuda.synchronize()
        if i:
            samples.append((time.perf_counter() - t0) / ops * 1e6)
    require(x.item() == start + ops * (SAMPLES + 1), "small.add1.async: wrong count")
    record("small.add1.async", "us", "lower", samples, f"x.add_(1) on a 1-element float32 tensor, {ops} ops, then sync")


def main():
    require(torch.cuda.is_available(), "torch sees no CUDA device")
    log(f"torch_bench: PyTorch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}")
    device_memory()
    torch.cuda.empty_cache()
    sorting()
    torch.cuda.empty_cache()
    matmul(torch.float32)
    matmul(torch.bfloat16)
    small_add1()


if __name__ == "__main__":
    main()
