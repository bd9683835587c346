"""PyTorch side of the cudeno benchmark suite (bench/README.md says what each figure means): the array and
matmul peers. Records on stdout, one JSON object a line; the log on stderr."""

import time
from functools import partial

import numpy as np
import torch
from records import SAMPLES, SETTLE_S, GpuTimer, emit, gbps, log, require, run_sections

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


def gradients(n=1 << 28, batch=4096, reps=20, ops=100, rounds=200):
    """The gradient figures (bench/cudeno/grad.ts): forward + backward of a chain and of an MLP loss through
    autograd eagerly (impl torch) and of the torch.compile'd forward (impl torch-compile, skipped with a log
    line where it cannot compile here); and autograd's host cost per recorded op."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(47)
    x = torch.rand(n, device=DEVICE, generator=gen).requires_grad_()
    y = torch.rand(n, device=DEVICE, generator=gen).requires_grad_()

    def chain_sum(x, y):
        return (torch.exp(2 * x + y) * 0.5).sum()

    xd, yd = x.detach()[: 1 << 20].double(), y.detach()[: 1 << 20].double()
    want = chain_sum(x.detach().double(), y.detach().double()).item()

    def chain_step(fn):
        value = fn(x, y)
        return (value, *torch.autograd.grad(value, (x, y)))

    def chain_check(value, dx, dy):
        e = torch.exp(2 * xd + yd)
        require(abs(value.item() - want) <= 1e-4 * want, "grad.chain: the value differs")
        require(torch.allclose(dx[: 1 << 20].double(), e, rtol=1e-6, atol=0), "grad.chain: dx differs")
        require(torch.allclose(dy[: 1 << 20].double(), 0.5 * e, rtol=1e-6, atol=0), "grad.chain: dy differs")

    # The MLP of grad.mlp: 784-1024-1024-10, ReLU, -mean(sum(t * log_softmax(z, 1), 1)) with one-hot t.
    widths = (784, 1024, 1024, 10)
    params = []
    for i in range(3):
        params.append(torch.randn(widths[i], widths[i + 1], device=DEVICE, generator=gen) * (2 / widths[i]) ** 0.5)
        params.append(torch.randn(widths[i + 1], device=DEVICE, generator=gen) * 0.1)
    params = [p.requires_grad_() for p in params]
    inputs = torch.randn(batch, widths[0], device=DEVICE, generator=gen)
    labels = torch.randint(0, widths[3], (batch,), device=DEVICE, generator=gen)
    targets = torch.nn.functional.one_hot(labels, widths[3]).float()

    def mlp_loss(p, x, t):
        h = torch.relu(x @ p[0] + p[1])
        h = torch.relu(h @ p[2] + p[3])
        z = h @ p[4] + p[5]
        return -(t * torch.log_softmax(z, 1)).sum(1).mean()

    # The float64 reference: the same loss and its gradients through autograd on float64 copies.
    p64 = [p.detach().double().requires_grad_() for p in params]
    loss64 = mlp_loss(p64, inputs.double(), targets.double())
    grads64 = torch.autograd.grad(loss64, p64)

    def mlp_step(fn):
        value = fn(params, inputs, targets)
        return (value, *torch.autograd.grad(value, params))

    def mlp_check(value, *grads):
        require(abs(value.item() - loss64.item()) <= 1e-5 * abs(loss64.item()), "grad.mlp: the loss differs")
        # A pre-activation within float32's rounding of 0 can take the other side of the ReLU than in float64
        # (about one in 10^6 does), moving the gradients of the layers before it by up to about 1e-3; the
        # last layer's see only the ReLU's output there, which is near 0 either way.
        for i, (g, g64) in enumerate(zip(grads, grads64)):
            err = ((g.double() - g64).norm() / g64.norm()).item()
            require(err < (1e-4 if i >= 4 else 1e-2), f"grad.mlp: gradient {i}'s relative error is {err:.1e}")

    cases = [
        ("grad.chain.2^28", chain_sum, chain_step, chain_check, 0,
         "GB/s", lambda ms: gbps(4 * 4 * n, ms),
         "torch.autograd.grad of (torch.exp(2 * x + y) * 0.5).sum() for x and y, 2^28 float32: the value and dx, dy; "
         "useful bytes 4 x 4 x 2^28"),
        (f"grad.mlp.{batch}", mlp_loss, mlp_step, mlp_check, SETTLE_S, "ms", lambda ms: ms,
         f"torch.autograd.grad of the cross-entropy loss -(t * log_softmax(z, 1)).sum(1).mean() (one-hot t) of a "
         f"784-1024-1024-10 MLP (torch.relu), batch {batch}, float32, TF32 off: the loss and the six parameter "
         f"gradients, per step; loss {loss64.item():.4f}"),
    ]
    # Batches of calls between the events, as every producer of these figures times them.
    for impl, wrap in (("torch", lambda f: f), ("torch-compile", torch.compile)):
        for figure, fn, step, check, settle_s, unit, convert, note in cases:
            try:
                run = partial(step, wrap(fn))
                check(*run())
            except Exception as e:  # torch.compile needs a working inductor (Triton): a peer that cannot run is skipped
                if impl == "torch":
                    raise
                log(f"torch_bench: torch.compile of {figure} failed, its figure is skipped: {type(e).__name__}: {e}")
                continue
            ms = t.samples(run, reps, batch=t.batch_for(run), settle_s=settle_s)
            emit(impl, figure, unit, "higher" if unit == "GB/s" else "lower", [convert(v) for v in ms],
                 note if impl == "torch" else f"torch.compile of the forward; {note}")
    del x, y, xd, yd, params, p64, grads64, inputs, targets
    torch.cuda.empty_cache()

    # grad.record.host: ops elementwise ops on 16 floats with autograd recording less the same without, per op.
    small = torch.rand(16, device=DEVICE, generator=gen)
    w = torch.rand(16, device=DEVICE, generator=gen) + 0.5

    def tiny_chain(x):
        y = x
        for k in range(ops):
            y = y * w if k % 4 == 0 else y + 0.25 if k % 4 == 1 else torch.tanh(y) if k % 4 == 2 else y - x
        return y

    plain, tracked = small, small.clone().requires_grad_()
    require(torch.equal(tiny_chain(plain), tiny_chain(tracked).detach()), "grad.record.host: recorded ops differ")

    def host_us(x):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(rounds):
            tiny_chain(x)
        us = (time.perf_counter() - t0) * 1e6 / (rounds * ops)
        torch.cuda.synchronize()
        return us

    for _ in range(rounds // 10):
        tiny_chain(plain)
        tiny_chain(tracked)
    eager_us, extra_us = [], []
    for s in range(7):  # in turns, each first in every other sample
        if s % 2 == 0:
            eager, rec = host_us(plain), host_us(tracked)
        else:
            rec, eager = host_us(tracked), host_us(plain)
        eager_us.append(eager)
        extra_us.append(rec - eager)
    eager_us.sort()
    record("grad.record.host", "us", "lower", extra_us,
           f"host time of {ops} elementwise ops on 16 float32 (mul, add, tanh, sub in turn) on a tensor that requires "
           f"grad (the graph made and dropped, no backward) less the same on one that does not ({eager_us[3]:.2f} us "
           f"an op), per op; {rounds} calls a sample")


def training(samples=5, settle_s=1.0):
    """The training figures (bench/cudeno/train.ts): samples per second of whole eager training steps
    (forward, loss.backward(), AdamW's step) of the MLP, the CNN and the char GPT of issue 30 on one fixed batch, with the
    model eager (impl torch) and torch.compile'd (impl torch-compile; the optimizer eager in both), timed on
    the host clock from the first queued step to the device's end of the last; the loss must fall."""
    nn = torch.nn

    class Cnn(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(a, b, 3, padding=1) for a, b in ((3, 64), (64, 128), (128, 256))])
            self.fc = nn.Linear(256 * 4 * 4, 10)

        def forward(self, x):
            for conv in self.convs:
                x = torch.nn.functional.max_pool2d(torch.relu(conv(x)), 2)
            return self.fc(x.flatten(1))

    class Block(nn.Module):
        def __init__(self, width, heads):
            super().__init__()
            self.heads = heads
            self.ln1, self.ln2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.attn, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.fc, self.out = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

        def forward(self, x):
            b, t, c = x.shape
            q, k, v = self.attn(self.ln1(x)).view(b, t, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
            y = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(y.transpose(1, 2).reshape(b, t, c))
            return x + self.out(torch.nn.functional.gelu(self.fc(self.ln2(x))))

    class Gpt(nn.Module):
        def __init__(self, vocab=65, context=256, layers=6, heads=6, width=384):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(context, width)
            self.blocks = nn.ModuleList([Block(width, heads) for _ in range(layers)])
            self.ln_f, self.head = nn.LayerNorm(width), nn.Linear(width, vocab, bias=False)

        def forward(self, idx):
            x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
            for block in self.blocks:
                x = block(x)
            return self.head(self.ln_f(x))

    problems = [
        ("train.mlp.4096", lambda: nn.Sequential(nn.Linear(784, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                                                 nn.Linear(1024, 10)), (4096, 784), "784-1024-1024-10 MLP (ReLU)"),
        ("train.cnn.512", Cnn, (512, 3, 32, 32),
         "CNN conv 3→64→128→256 (3×3, padding 1, each + ReLU + 2×2 max pool) + linear 4096→10"),
        ("train.gpt.64x256", Gpt, (64, 256), "char GPT (nanoGPT shakespeare-char: 6 layers, 6 heads, width 384, "
         "context 256, vocabulary 65; F.scaled_dot_product_attention)"),
        ("train.gpt.64x256.bf16", Gpt, (64, 256), "char GPT as above under torch.autocast(bfloat16)"),
    ]
    gen = torch.Generator(device=DEVICE).manual_seed(41)
    for figure, make, shape, what in problems:
        for impl in ("torch", "torch-compile"):
            torch.manual_seed(0)
            model = make().to(DEVICE)
            forward = model if impl == "torch" else torch.compile(model)
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            tokens = figure.startswith("train.gpt")
            classes = 65 if tokens else 10
            if tokens:
                x = torch.randint(0, classes, shape, device=DEVICE, generator=gen)
                y = torch.randint(0, classes, shape, device=DEVICE, generator=gen)
            else:
                x = torch.randn(shape, device=DEVICE, generator=gen)
                y = torch.randint(0, classes, (shape[0],), device=DEVICE, generator=gen)
            items = shape[0] * shape[1] if tokens else shape[0]

            autocast = figure.endswith(".bf16")

            def step():
                opt.zero_grad(set_to_none=True)
                with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
                    loss = torch.nn.functional.cross_entropy(forward(x).reshape(-1, classes), y.reshape(-1))
                loss.backward()
                opt.step()
                return loss

            try:
                first = step().item()
            except Exception as e:  # torch.compile needs a compiler the machine may lack
                require(impl == "torch-compile", f"{figure}: {e}")
                log(f"torch_bench: {figure} under torch.compile skipped: {e}")
                continue
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < settle_s:
                step()
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(3):
                step()
            torch.cuda.synchronize()
            steps = max(5, int(settle_s / 4 / ((time.perf_counter() - t0) / 3)) + 1)
            rates = []
            for _ in range(samples):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(steps):
                    loss = step()
                last = loss.item()
                rates.append(steps * items / (time.perf_counter() - t0))
            require(last < first, f"{figure} ({impl}): the loss went from {first} to {last}")
            emit(impl, figure, "tokens/s" if tokens else "samples/s", "higher", rates,
                 f"{'eager' if impl == 'torch' else 'torch.compile(model)'} training steps of a {what}, float32 weights, batch "
                 f"{' × '.join(map(str, shape[:2] if tokens else shape[:1]))}, on one fixed batch: cross_entropy, backward, AdamW (lr 1e-3, foreach); {steps} steps a "
                 f"sample; loss {first:.3f} → {last:.3f}")
            del model, forward, opt, x, y
            torch.cuda.empty_cache()


def statistics(n=1 << 28, m=1 << 26, q=1 << 24, reps=10):
    """The statistics and random figures (bench/cudeno/statistics.ts): torch.histc, torch.bincount,
    torch.median, torch.quantile (its input is limited to 2^24 elements), torch.randint and torch.randn,
    each checked on the host first where there is something to check."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(11)
    x = torch.rand(n, device=DEVICE, generator=gen)
    k = torch.randint(0, 256, (n,), device=DEVICE, generator=gen, dtype=torch.int32)
    small = x[: 1 << 16].cpu().double()
    require(torch.histc(x[: 1 << 16], bins=256, min=0, max=1).sum().item() == 1 << 16, "histc counts")
    require(abs(torch.median(x[: 1 << 16]).item() - small.median().item()) < 1e-6, "median")
    record("histogram.f32.2^28", "GB/s", "higher",
           [gbps(4 * n, v) for v in t.samples(lambda: torch.histc(x, bins=256, min=0, max=1), reps)],
           "torch.histc(x, bins=256, min=0, max=1) of 2^28 uniform float32; bytes read")
    record("bincount.i32.2^28", "GB/s", "higher",
           [gbps(4 * n, v) for v in t.samples(lambda: torch.bincount(k), reps)],
           "torch.bincount(x) of 2^28 int32 in [0, 256); bytes read")
    xm, xq = x[:m], x[:q]
    record("median.f32.2^26", "ms", "lower", t.samples(lambda: torch.median(xm), reps), "torch.median(x) of 2^26 float32")
    record("percentile.f32.2^24", "ms", "lower", t.samples(lambda: torch.quantile(xq, 0.9), reps),
           "torch.quantile(x, 0.9) of 2^24 float32 (its largest input)")
    record("random.integers.2^28", "GB/s", "higher",
           [gbps(8 * n, v) for v in t.samples(lambda: torch.randint(0, 100, (n,), device=DEVICE, generator=gen), reps)],
           "torch.randint(0, 100, (2^28,)) (int64); bytes written")
    record("random.normal.2^28", "GB/s", "higher",
           [gbps(4 * n, v) for v in t.samples(lambda: torch.randn(n, device=DEVICE, generator=gen), reps)],
           "torch.randn(2^28) (float32); bytes written")
    del x, k


def matmuls():
    matmul(torch.float32)
    matmul(torch.bfloat16)
    matmul(torch.float16)
    for dtype in (torch.float32, torch.bfloat16):
        bmm(dtype)
        matmul_transposed(dtype)
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        bmm(dtype, batch=16)


def ffts(reps=10):
    """The FFT figures (bench/cudeno/fft.ts): torch.fft.fft, rfft and fft2 on cuFFT, checked against
    NumPy's FFT in float64 first."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(1)
    small = torch.randn(1009, device=DEVICE, generator=gen, dtype=torch.complex64)
    want = np.fft.fft(small.cpu().numpy().astype(np.complex128))
    require(np.abs(torch.fft.fft(small).cpu().numpy() - want).max() / np.abs(want).max() < 1e-5, "fft of 1009")
    n, r, side, rows, length = 1 << 24, 1 << 26, 4096, 16384, 1024
    z = torch.randn(n, device=DEVICE, generator=gen, dtype=torch.complex64)
    record("fft.c64.2^24", "GB/s", "higher", [gbps(16 * n, v) for v in t.samples(lambda: torch.fft.fft(z), reps)],
           "torch.fft.fft(z) of 2^24 complex64; bytes read and written")
    del z
    x = torch.randn(r, device=DEVICE, generator=gen)
    record("rfft.f32.2^26", "GB/s", "higher",
           [gbps(4 * r + 8 * (r // 2 + 1), v) for v in t.samples(lambda: torch.fft.rfft(x), reps)],
           "torch.fft.rfft(x) of 2^26 float32; bytes read and written")
    del x
    m = torch.randn(side, side, device=DEVICE, generator=gen, dtype=torch.complex64)
    record("fft2.c64.4096^2", "GB/s", "higher",
           [gbps(16 * side * side, v) for v in t.samples(lambda: torch.fft.fft2(m), reps)],
           "torch.fft.fft2(z) of 4096×4096 complex64; bytes read and written once")
    del m
    b = torch.randn(rows, length, device=DEVICE, generator=gen, dtype=torch.complex64)
    record("fft.c64.16384x1024", "GB/s", "higher",
           [gbps(16 * rows * length, v) for v in t.samples(lambda: torch.fft.fft(b), reps)],
           "torch.fft.fft(z) along the last axis of 16384×1024 complex64; bytes read and written")


def decompositions(reps=5):
    """The linear-algebra figures (bench/cudeno/decompositions.ts): torch.linalg's solve, cholesky and qr of
    4096² in TFLOP/s, eigh and svd of 2048² in ms, float32 and float64; solve_ex and inv_ex of 10^5 8×8
    float32 systems and eigh of 500 100×100, each checked in float64 first."""
    t = timer()
    gen = torch.Generator(device=DEVICE).manual_seed(1)
    large, spectral = 4096, 2048

    def rel(got, want):
        got, want = got.double(), want.double()
        return ((got - want).abs().max() / want.abs().max()).item()

    def tflops(flops, ms):
        return [flops / (m / 1000) / 1e12 for m in ms]

    for dtype, name, limit in ((torch.float32, "f32", 1e-3), (torch.float64, "f64", 1e-9)):
        eye = torch.eye(large, device=DEVICE, dtype=dtype)
        a = torch.randn(large, large, device=DEVICE, generator=gen, dtype=dtype) + large * eye
        b = torch.randn(large, 1, device=DEVICE, generator=gen, dtype=dtype)
        require(rel(a @ torch.linalg.solve(a, b), b) < limit, f"solve.{name}")
        record(f"solve.{name}.{large}", "TFLOP/s", "higher",
               tflops(2 / 3 * large ** 3, t.samples(lambda: torch.linalg.solve(a, b), reps)),
               "torch.linalg.solve(a, b), b one column; 2n³/3 flops")
        spd = a @ a.T
        low = torch.linalg.cholesky(spd)
        require(rel(low @ low.T, spd) < limit, f"cholesky.{name}")
        record(f"cholesky.{name}.{large}", "TFLOP/s", "higher",
               tflops(large ** 3 / 3, t.samples(lambda: torch.linalg.cholesky(spd), reps)),
               "torch.linalg.cholesky(a); n³/3 flops")
        q, r = torch.linalg.qr(a)
        require(rel(q @ r, a) < limit, f"qr.{name}")
        record(f"qr.{name}.{large}", "TFLOP/s", "higher",
               tflops(4 / 3 * large ** 3, t.samples(lambda: torch.linalg.qr(a), 3)),
               "torch.linalg.qr(a), Q and R; 4n³/3 flops (geqrf's)")
        del a, b, spd, low, q, r, eye
        m = torch.randn(spectral, spectral, device=DEVICE, generator=gen, dtype=dtype)
        sym = m + m.T
        w, v = torch.linalg.eigh(sym)
        require(rel((v * w) @ v.T, sym) < limit, f"eigh.{name}")
        record(f"eigh.{name}.{spectral}", "ms", "lower", t.samples(lambda: torch.linalg.eigh(sym), 3),
               "torch.linalg.eigh(a), values and vectors")
        u, sv, vh = torch.linalg.svd(m, full_matrices=False)
        require(rel((u * sv) @ vh, m) < limit, f"svd.{name}")
        record(f"svd.{name}.{spectral}", "ms", "lower",
               t.samples(lambda: torch.linalg.svd(m, full_matrices=False), 3),
               "torch.linalg.svd(a, full_matrices=False), U, S and Vh")
        del m, sym, w, v, u, sv, vh
    small = torch.randn(100_000, 8, 8, device=DEVICE, generator=gen) + 8 * torch.eye(8, device=DEVICE)
    rhs = torch.randn(100_000, 8, 1, device=DEVICE, generator=gen)
    require(rel(small @ torch.linalg.solve_ex(small, rhs)[0], rhs) < 1e-4, "solve.batch")
    record("solve.batch.8x8.f32", "ms", "lower", t.batched(lambda: torch.linalg.solve_ex(small, rhs), 10),
           "torch.linalg.solve_ex(a, b) of 10^5 8×8 float32 systems, b [10^5, 8, 1]")
    record("inv.batch.8x8.f32", "ms", "lower", t.batched(lambda: torch.linalg.inv_ex(small), 10),
           "torch.linalg.inv_ex(a) of 10^5 8×8 float32 matrices")
    m = torch.randn(500, 100, 100, device=DEVICE, generator=gen)
    sym = m + m.mT
    w, v = torch.linalg.eigh(sym)
    require(rel((v * w.unsqueeze(-2)) @ v.mT, sym) < 1e-3, "eigh.batch")
    record("eigh.batch.100.f32", "ms", "lower", t.samples(lambda: torch.linalg.eigh(sym), 3),
           "torch.linalg.eigh(a) of 500 symmetric 100×100 float32 matrices")


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
