"""PyTorch side of the statistics, FFT and linear-algebra figures (bench/cudeno/statistics.ts, fft.ts, decompositions.ts)."""

import numpy as np
import torch
from records import gbps, require
from torch_common import DEVICE, record, timer


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
