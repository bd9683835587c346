"""What the PyTorch side of the benchmark suite shares: the device, the TF32 setting, records and timers."""

from functools import partial

import torch
from records import GpuTimer, emit

DEVICE = "cuda"
# Set on import, before any product: float32 matmul must not quietly run as TF32.
torch.backends.cuda.matmul.allow_tf32 = False


def record(figure, unit, better, samples, note=None):
    emit("torch", figure, unit, better, samples, note)


def timer():
    return GpuTimer(partial(torch.cuda.Event, enable_timing=True), lambda start, stop: start.elapsed_time(stop))
