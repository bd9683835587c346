"""JAX side of the cudeno benchmark suite: jax.jit of the fused-function figures (bench/cudeno/fuse.ts).
Records on stdout, one JSON object a line; the log on stderr.

JAX dispatches asynchronously on its own stream, so each sample is host time around `count` calls and a
block_until_ready() of the last, `count` chosen so that a sample lasts 40 ms (records.calibrate): the
host's dispatch of one call overlaps the device's work on the ones before.
"""

import os

# JAX takes most of the GPU's memory up front unless told not to; the other producers run before it.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from records import SAMPLES, calibrate, emit, gbps, host_seconds, log, require, wanted  # noqa: E402


def record(figure, unit, better, samples, note=None):
    emit("jax", figure, unit, better, samples, note)


def timed_samples(fn, args, reps=SAMPLES * 4):
    def run(count):
        out = None
        for _ in range(count):
            out = fn(*args)
        out.block_until_ready()

    count = calibrate(run)
    return [host_seconds(run, count) * 1000 / count for _ in range(reps)]


def main():
    require(jax.default_backend() == "gpu", f"jax runs on {jax.default_backend()}, not a GPU")
    if not wanted("fuse"):
        return
    log(f"jax_bench: JAX {jax.__version__}, {jax.devices()[0].device_kind}")
    n, side = 1 << 28, 8192
    kx, ky, km = jax.random.split(jax.random.PRNGKey(48), 3)
    x = jax.random.uniform(kx, (n,), dtype=jnp.float32)
    y = jax.random.uniform(ky, (n,), dtype=jnp.float32)
    m = jax.random.uniform(km, (side, side), dtype=jnp.float32)

    chain = jax.jit(lambda x, y: jnp.exp(2 * x + y) * 0.5)
    sqdiff_sum = jax.jit(lambda x, y: ((x - y) ** 2).sum())
    rownorm = jax.jit(lambda x: x / jnp.sqrt((x * x).sum(axis=1, keepdims=True)))

    hx, hy = np.asarray(x[: 1 << 20], dtype=np.float64), np.asarray(y[: 1 << 20], dtype=np.float64)
    got = np.asarray(chain(x, y)[: 1 << 20], dtype=np.float64)
    require(np.allclose(got, np.exp(2 * hx + hy) * 0.5, rtol=1e-6, atol=0), "fuse.chain: values differ")
    ms = timed_samples(chain, (x, y))
    record("fuse.chain.2^28", "GB/s", "higher", [gbps(3 * 4 * n, v) for v in ms],
           "jax.jit(lambda x, y: jnp.exp(2 * x + y) * 0.5), float32; useful bytes 3 x 4 x 2^28; host-timed batches")

    want = float(((np.asarray(x, dtype=np.float64) - np.asarray(y, dtype=np.float64)) ** 2).sum())
    require(abs(float(sqdiff_sum(x, y)) - want) <= 1e-4 * want, "fuse.sqdiff_sum: sum differs")
    ms = timed_samples(sqdiff_sum, (x, y))
    record("fuse.sqdiff_sum.2^28", "GB/s", "higher", [gbps(2 * 4 * n, v) for v in ms],
           "jax.jit(lambda x, y: ((x - y) ** 2).sum()), float32; useful bytes 2 x 4 x 2^28; host-timed batches")
    del x, y

    hm = np.asarray(m[:4], dtype=np.float64)
    got = np.asarray(rownorm(m)[:4], dtype=np.float64)
    require(np.allclose(got, hm / np.sqrt((hm * hm).sum(axis=1, keepdims=True)), rtol=1e-5, atol=0),
            "fuse.rownorm: values differ")
    ms = timed_samples(rownorm, (m,))
    record(f"fuse.rownorm.{side}x{side}", "GB/s", "higher", [gbps(2 * 4 * side * side, v) for v in ms],
           "jax.jit of x / sqrt(sum(x * x, axis=1, keepdims=True)), float32; bytes read + written once; host-timed")


if __name__ == "__main__":
    main()
