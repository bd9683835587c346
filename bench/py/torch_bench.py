"""PyTorch side of the cudeno benchmark suite (bench/README.md says what each figure means): the array and
matmul peers. Records on stdout, one JSON object a line; the log on stderr."""

import time
from functools import partial

import torch
from records import SAMPLES, SETTLE_S, emit, gbps, log, require, run_sections

from torch_common import DEVICE, record, timer
from torch_numerics import decompositions, ffts, statistics
from torch_training import gradients, training


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
    ms = t.batched(a.sum, reps)
    record("reduce.sum.2^28", "GB/s", "higher", [gbps(nbytes, m) for m in ms], "a.sum(), float32")


def reductions(side=8192, n=1 << 28, reps=20):
    """Sums along each axis of a side x side matrix, the flat argmax of n floats, softmax over rows."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(43)
    x = torch.rand(side, side, device=DEVICE, generator=gen) - 0.5
    nbytes = x.numel() * 4
    for axis in (0, 1):
        out = torch.empty(side, device=DEVICE)
        torch.sum(x, dim=axis, out=out)
        ref = x.double().sum(dim=axis)
        require(torch.allclose(out.double(), ref, rtol=1e-4, atol=1e-3), f"reduce.sum.axis{axis}: sums differ")
        ms = t.batched(partial(torch.sum, x, dim=axis, out=out), reps)
        note = f"torch.sum(x, dim={axis}, out=o), float32; bytes read"
        record(f"reduce.sum.axis{axis}.{side}x{side}", "GB/s", "higher", [gbps(nbytes, m) for m in ms], note)
    p = torch.softmax(x, dim=1)
    ref = torch.softmax(x[:4].double(), dim=1)
    require(torch.allclose(p[:4].double(), ref, rtol=1e-5, atol=1e-9), "softmax.rows: values differ")
    ms = t.batched(partial(torch.softmax, x, 1), reps)
    note = "torch.softmax(x, dim=1), float32; bytes read + written"
    record(f"softmax.rows.{side}x{side}", "GB/s", "higher", [gbps(2 * nbytes, m) for m in ms], note)
    del x, p
    a = torch.rand(n, device=DEVICE, generator=gen)
    i = int(torch.argmax(a))
    top = a.max()
    require(bool(a[i] == top) and not bool((a[:i] == top).any()), "reduce.argmax.2^28: not the first maximum")
    ms = t.batched(partial(torch.argmax, a), reps)
    record("reduce.argmax.2^28", "GB/s", "higher", [gbps(n * 4, m) for m in ms], "torch.argmax(a), float32")
def scan(n=1 << 28, reps=20):
    gen = torch.Generator(device=DEVICE).manual_seed(43)
    # ±1 values: every prefix is an integer far below 2^24, exact in float32 in any order of addition.
    a = torch.randint(0, 2, (n,), device=DEVICE, generator=gen).float() * 2 - 1
    out = torch.full((n,), float("nan"), device=DEVICE)
    torch.cumsum(a, 0, out=out)
    require(torch.equal(out, torch.cumsum(a.double(), 0).float()), "scan.cumsum.2^28: differs from the float64 cumsum")
    ms = timer().samples(partial(torch.cumsum, a, 0, out=out), reps)
    note = "torch.cumsum(a, 0, out=out), float32; bytes read + written"
    record("scan.cumsum.2^28", "GB/s", "higher", [gbps(2 * n * 4, m) for m in ms], note)
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


# float32 (TF32 off) lands far under 5e-5 at these sizes, TF32 near 3e-4; bf16 and f16 operands under 1e-2.
TOLERANCE = {torch.float32: 5e-5, torch.bfloat16: 1e-2, torch.float16: 1e-2}
NAME = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16"}


def matmul(dtype, sizes=(256, 512, 1024, 2048, 4096, 8192), reps=10):
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
        mode = "float32, TF32 off" if dtype == torch.float32 else NAME[dtype]
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


def bmm(dtype, batch=256, n=512, reps=10):
    """matmul.bmm.*: torch.bmm of [batch, 512, 512] by [batch, 512, 512]."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(batch)
    a = torch.randn(batch, n, n, device=DEVICE, generator=gen).to(dtype)
    b = torch.randn(batch, n, n, device=DEVICE, generator=gen).to(dtype)
    c = torch.full((batch, n, n), float("nan"), device=DEVICE, dtype=dtype)
    torch.bmm(a, b, out=c)
    err = relative_error(c, a, b)
    figure = f"matmul.bmm.{NAME[dtype]}.{batch}x{n}"
    require(err < TOLERANCE[dtype], f"{figure}: relative error {err:.2e}")
    product = partial(torch.bmm, a, b, out=c)
    per = t.batch_for(product)
    ms = t.samples(product, reps, per, settle_s=SETTLE_S)
    note = f"torch.bmm(out=c); {per} products per sample; relative error {err:.1e}"
    record(figure, "TFLOP/s", "higher", [2 * batch * n**3 / (m * 1e-3) / 1e12 for m in ms], note)
    del a, b, c
    torch.cuda.empty_cache()


def matmul_transposed(dtype, n=8192, reps=10):
    """matmul.*.8192.t: torch.matmul(a.t(), b), the transposed operand as a view."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(n + 1)
    a = torch.randn(n, n, device=DEVICE, generator=gen).to(dtype)
    b = torch.randn(n, n, device=DEVICE, generator=gen).to(dtype)
    c = torch.full((n, n), float("nan"), device=DEVICE, dtype=dtype)
    torch.matmul(a.t(), b, out=c)
    err = relative_error(c, a.t(), b)
    figure = f"matmul.{NAME[dtype]}.{n}.t"
    require(err < TOLERANCE[dtype], f"{figure}: relative error {err:.2e}")
    product = partial(torch.matmul, a.t(), b, out=c)
    per = t.batch_for(product)
    ms = t.samples(product, reps, per, settle_s=SETTLE_S)
    note = f"torch.matmul(a.t(), b, out=c); {per} products per sample; relative error {err:.1e}"
    record(figure, "TFLOP/s", "higher", [2 * n**3 / (m * 1e-3) / 1e12 for m in ms], note)
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


def views(n=8192, reps=20):
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(11)
    a = torch.rand(n, n, device=DEVICE, generator=gen) - 0.5
    row = torch.rand(n, device=DEVICE, generator=gen) - 0.5
    out = torch.empty(n, n, device=DEVICE)
    torch.add(a, row, out=out)
    require(torch.equal(out[-1], a[-1] + row), "view.add.broadcast: sum differs")
    ms = t.samples(partial(torch.add, a, row, out=out), reps)
    record("view.add.broadcast", "GB/s", "higher", [gbps((2 * n * n + n) * 4, m) for m in ms], "torch.add(a, row, out=c)")
    out.copy_(a.t())
    require(torch.equal(out[5], a[:, 5]), "view.copy.transposed: copy differs")
    ms = t.samples(partial(out.copy_, a.t()), reps)
    record("view.copy.transposed", "GB/s", "higher", [gbps(2 * n * n * 4, m) for m in ms], "out.copy_(a.t())")
    half = a[:, ::2]
    require(torch.equal(half.add(1)[0], a[0, ::2] + 1), "view.add.strided: sum differs")
    ms = t.samples(partial(half.add, 1), reps)
    record("view.add.strided", "GB/s", "higher", [gbps(2 * n * (n // 2) * 4, m) for m in ms], "a[:, ::2].add(1)")
    del a, row, out, half
    x = torch.ones(4, 4, device=DEVICE)
    v = x.t()[0:2]
    require(bool((v.add(1) == 2).all()), "small.add1.view.host: wrong values")
    samples = []
    for i in range(SAMPLES + 1):
        t0 = time.perf_counter()
        for _ in range(10_000):
            v.add(1)
        if i:
            samples.append((time.perf_counter() - t0) / 10_000 * 1e6)
        torch.cuda.synchronize()
    record("small.add1.view.host", "us", "lower", samples, "host time of x.t()[0:2].add(1) on a 4x4 float32")


def joins(n=1 << 25, k=8, reps=20):
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(21)
    parts = [torch.rand(n, device=DEVICE, generator=gen) for _ in range(k)]
    joined = torch.cat(parts)
    require(all(torch.equal(joined[i * n:(i + 1) * n], p) for i, p in enumerate(parts)), "join.concatenate.8x2^25: differs")
    del joined
    ms = t.samples(partial(torch.cat, parts), reps)
    record("join.concatenate.8x2^25", "GB/s", "higher", [gbps(2 * k * n * 4, m) for m in ms], "torch.cat of 8 float32 tensors of 2^25")


def graph_add1(ops=100, rounds=500):
    """graph.add1.eager and graph.add1.replay: `ops` x.add_(1) on a 1-element tensor, queued one by one or
    captured once into a torch.cuda.CUDAGraph and replayed; `rounds` per sample, then a synchronize; µs per
    op, the samples of the two in turns."""
    x = torch.randint(1, 100, (1,), device=DEVICE).float()  # integers: sums stay exact
    start = x.item()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream before capturing, as PyTorch's docs ask
        for _ in range(3):
            x.add_(1)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):  # recorded, not run
        for _ in range(ops):
            x.add_(1)
    torch.cuda.synchronize()
    done = 3

    def eager(n):
        for _ in range(n):
            for _ in range(ops):
                x.add_(1)

    def replay(n):
        for _ in range(n):
            graph.replay()

    def timed(run, n):
        nonlocal done
        t0 = time.perf_counter()
        run(n)
        torch.cuda.synchronize()
        done += n * ops
        return (time.perf_counter() - t0) / (n * ops) * 1e6

    timed(eager, rounds // 10)
    timed(replay, rounds // 10)
    eager_us, replay_us = [], []
    for _ in range(SAMPLES):
        eager_us.append(timed(eager, rounds))
        replay_us.append(timed(replay, rounds))
    require(x.item() == start + done, f"graph.add1: x = {x.item()}, want {start + done}")
    record("graph.add1.eager", "us", "lower", eager_us, f"{ops} x.add_(1) on a 1-element float32 tensor, {rounds} rounds")
    record(
        "graph.add1.replay",
        "us",
        "lower",
        replay_us,
        f"the same {ops} ops captured once into a torch.cuda.CUDAGraph, graph.replay() {rounds} times; per op",
    )


def fusion(n=1 << 28, side=8192, reps=20):
    """The fused-function figures (bench/cudeno/fuse.ts): each function eagerly (impl torch) and through
    torch.compile (impl torch-compile, skipped with a log line where it cannot compile here)."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(45)
    x = torch.rand(n, device=DEVICE, generator=gen)
    y = torch.rand(n, device=DEVICE, generator=gen)
    m = torch.rand(side, side, device=DEVICE, generator=gen)

    def chain(x, y):
        return torch.exp(2 * x + y) * 0.5

    def sqdiff_sum(x, y):
        return ((x - y) ** 2).sum()

    def rownorm(x):
        return x / torch.sqrt((x * x).sum(dim=1, keepdim=True))

    def check(figure, got, want, rtol):
        require(torch.allclose(got.double(), want, rtol=rtol, atol=0), f"{figure}: values differ")

    xd, yd, md = x[: 1 << 20].double(), y[: 1 << 20].double(), m[:4].double()
    cases = [
        ("fuse.chain.2^28", partial(chain, x, y), 3 * 4 * n, lambda r: check("fuse.chain", r[: 1 << 20], chain(xd, yd), 1e-6),
         "torch.exp(2 * x + y) * 0.5, float32; useful bytes 3 x 4 x 2^28"),
        ("fuse.sqdiff_sum.2^28", partial(sqdiff_sum, x, y), 2 * 4 * n,
         lambda r: check("fuse.sqdiff_sum", r, sqdiff_sum(x.double(), y.double()), 1e-4),
         "((x - y) ** 2).sum(), float32, a 0-d tensor; useful bytes 2 x 4 x 2^28"),
        (f"fuse.rownorm.{side}x{side}", partial(rownorm, m), 2 * 4 * side * side,
         lambda r: check("fuse.rownorm", r[:4], rownorm(md), 1e-5),
         "x / torch.sqrt((x * x).sum(dim=1, keepdim=True)), float32; bytes read + written once"),
    ]
    # Batches of calls between the events (t.batch_for), so that a call's host time overlaps the device's
    # work on the ones before, as every producer of these figures times them.
    for figure, fn, nbytes, checked, note in cases:
        checked(fn())
        ms = t.samples(fn, reps, batch=t.batch_for(fn))
        record(figure, "GB/s", "higher", [gbps(nbytes, v) for v in ms], note)
    compiled = {"chain": chain, "sqdiff_sum": sqdiff_sum, "rownorm": rownorm}
    for (figure, _, nbytes, checked, note), name in zip(cases, compiled):
        try:
            fn = torch.compile(compiled[name])
            args = (m,) if name == "rownorm" else (x, y)
            t0 = time.perf_counter()
            result = fn(*args)
            torch.cuda.synchronize()
            first = (time.perf_counter() - t0) * 1000
        except Exception as e:  # torch.compile needs a working inductor (Triton): a peer that cannot run is skipped
            log(f"torch_bench: torch.compile of {name} failed, its figures are skipped: {type(e).__name__}: {e}")
            continue
        checked(result)
        if name == "chain":
            emit("torch-compile", "fuse.first_call.cold", "ms", "lower", [first],
                 "first call of torch.compile(chain): tracing, inductor and Triton compile (their caches as found), run")
        ms = t.samples(partial(fn, *args), reps, batch=t.batch_for(partial(fn, *args)))
        emit("torch-compile", figure, "GB/s", "higher", [gbps(nbytes, v) for v in ms], f"torch.compile of {note}")


def matmuls():
    matmul(torch.float32)
    matmul(torch.bfloat16)
    matmul(torch.float16)
    for dtype in (torch.float32, torch.bfloat16):
        bmm(dtype)
        matmul_transposed(dtype)
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        bmm(dtype, batch=16)


def main():
    require(torch.cuda.is_available(), "torch sees no CUDA device")
    log(f"torch_bench: PyTorch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}")
    run_sections(
        [
            ("d2d", device_memory),
            ("reduce", reductions),
            ("scan", scan),
            ("sort", sorting),
            ("matmul", matmuls),
            ("array", small_add1),
            ("view", views),
            ("join", joins),
            ("graph", graph_add1),
            ("fuse", fusion),
            ("grad", gradients),
            ("train", training),
            ("stats", statistics),
            ("fft", ffts),
            ("linalg", decompositions),
        ],
        torch.cuda.empty_cache,
    )


if __name__ == "__main__":
    main()
