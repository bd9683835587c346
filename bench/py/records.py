"""Shared by the Python producers of the cudeno benchmark suite: the record format and timing helpers.

Records go to stdout, one JSON object per line, and everything else to stderr, so that the orchestrator
(bench/gpu.ts) can read stdout whole.
"""

import json
import os
import math
import sys
import time

SAMPLES = 5
# Seconds of products run before a matmul's samples, in every producer (cudeno's suite.ts too): the
# GPU's clocks under a long product settle to its power limit, so a producer that ran on a cool GPU
# would otherwise read faster than one that ran after other work.
SETTLE_S = 1.0


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def emit(impl, figure, unit, better, samples, note=None):
    record = {
        "impl": impl,
        "figure": figure,
        "unit": unit,
        "better": better,
        "samples": [float(s) for s in samples],
    }
    if note:
        record["note"] = note
    print(json.dumps(record), flush=True)


def require(ok, what):
    """A wrong result makes every figure after it meaningless: stop with a non-zero exit."""
    if not ok:
        log(f"check failed: {what}")
        sys.exit(1)


def host_seconds(run, count):
    """Seconds that run(count) takes on the host clock; run must synchronize before it returns."""
    t0 = time.perf_counter()
    run(count)
    return time.perf_counter() - t0


def calibrate(run, seconds=0.04, limit=1 << 20):
    """Doubles a repeat count until run(count) lasts `seconds` (twice the 20 ms a sample must last, for
    margin); the calibration doubles as the warm-up."""
    count = 1
    while host_seconds(run, count) < seconds and count < limit:
        count *= 2
    return count


class GpuTimer:
    """Times device work between two device events; `event` makes one, `elapsed_ms(start, stop)` reads them."""

    def __init__(self, event, elapsed_ms):
        self.start, self.stop = event(), event()
        self.elapsed_ms = elapsed_ms

    def ms(self, fn, batch=1):
        """Milliseconds per call of fn, over `batch` calls queued between the two events."""
        self.start.record()
        for _ in range(batch):
            fn()
        self.stop.record()
        self.stop.synchronize()
        return self.elapsed_ms(self.start, self.stop) / batch

    def samples(self, fn, reps, batch=1, warmup=2, settle_s=0.0):
        """`reps` samples of `batch` calls each, after `warmup` calls and then `settle_s` seconds of
        calls in batches, so that a long product is timed at the clocks the GPU holds under load,
        not at those of whatever ran before it."""
        for _ in range(warmup):
            fn()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < settle_s:
            self.ms(fn, batch)
        return [self.ms(fn, batch) for _ in range(reps)]

    def batched(self, fn, reps):
        """`reps` samples of as many calls as `batch_for` gives: what a call of under a millisecond is
        timed with, so that the host's time before the first call is not counted as the device's."""
        return self.samples(fn, reps, batch=self.batch_for(fn))

    def batch_for(self, fn, ms=10.0):
        """How many calls to queue per sample so that the host's gap before the first one is lost in
        the total (a 1024 matmul takes under 0.1 ms, a Python call about 10 µs)."""
        fn()
        return max(1, math.ceil(ms / min(self.ms(fn) for _ in range(3))))


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


def wanted(section):
    """Whether `bench:gpu --sections` (BENCH_SECTIONS, prefixes of the suite's sections) asks for `section`."""
    only = [s for s in os.environ.get("BENCH_SECTIONS", "").split(",") if s]
    return not only or any(section.startswith(p) for p in only)


def run_sections(sections, release):
    """Runs each (section, fn) that BENCH_SECTIONS asks for, in order, releasing pooled memory after each."""
    for section, fn in sections:
        if wanted(section):
            fn()
            release()
