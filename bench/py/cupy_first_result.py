"""CuPy twin of `cuda_bench first-result`: only what a user's first script does (import, compile vadd,
a 2^20-element vector add, copy back, check), then exit 0. bench/gpu.ts times the whole process."""

import sys

import cupy as cp
import numpy as np

SRC = r"""
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""


def main(n=1 << 20):
    rng = np.random.default_rng()
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    vadd = cp.RawModule(code=SRC).get_function("vadd")
    c = cp.full(n, np.nan, dtype=cp.float32)  # poisoned: an unwritten output fails the check
    da, db = cp.asarray(a), cp.asarray(b)
    vadd(((n + 255) // 256,), (256,), (da, db, c, np.int32(n)))
    if not np.array_equal(c.get(), a + b):
        print("cupy_first_result: c != a + b", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
