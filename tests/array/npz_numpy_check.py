"""Checks cudeno's .npz files against NumPy, both ways (run by tests/array/npz_test.ts).

python3 npz_numpy_check.py read DIR NAMES   loads stored.npz, compressed.npz and zip64.npz (written
                                            by cudeno's savez, savezCompressed and writeZip) and checks
                                            the arrays NAMES (comma-separated keys of ARRAYS; zip64.npz
                                            holds f4 and b1) for dtype, shape and values.
python3 npz_numpy_check.py write DIR NAMES  writes the arrays NAMES with numpy.savez and
                                            numpy.savez_compressed to numpy.npz and
                                            numpy_compressed.npz, adding a Fortran-order int16 array.
Prints "ok" when done; fails with an AssertionError naming the file and array otherwise.
"""

import sys

import numpy as np

ARRAYS = {
    "f4": np.array([[0, 0.5, 1], [1.5, 2, 2.5]], dtype=np.float32),
    "f8": np.array([1e300, -2.5, 3.25], dtype=np.float64),
    "f2": np.array([0.5, -1, 65504], dtype=np.float16),
    "i8": np.array([-(2**63), 2**63 - 1, 0], dtype=np.int64),
    "u8": np.array([2**64 - 1, 0, 5], dtype=np.uint64),
    "u1": np.array([0, 255, 7], dtype=np.uint8),
    "b1": np.array([True, False, True]),
    "empty": np.zeros((0, 2), dtype=np.float32),
    "scalar": np.array(42, dtype=np.int32),
}


def check(path, names):
    with np.load(path) as npz:
        assert sorted(npz.files) == sorted(names), f"{path}: members {npz.files}, want {names}"
        for name in names:
            got, want = npz[name], ARRAYS[name]
            assert got.dtype == want.dtype, f"{path} {name}: dtype {got.dtype}, want {want.dtype}"
            assert got.shape == want.shape, f"{path} {name}: shape {got.shape}, want {want.shape}"
            assert np.array_equal(got, want), f"{path} {name}: {got}, want {want}"


def main():
    mode, directory, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    if mode == "read":
        check(f"{directory}/stored.npz", names)
        check(f"{directory}/compressed.npz", names)
        check(f"{directory}/zip64.npz", ["f4", "b1"])
    else:
        arrays = {name: ARRAYS[name] for name in names}
        fortran = np.asfortranarray(np.arange(6, dtype=np.int16).reshape(2, 3))
        np.savez(f"{directory}/numpy.npz", fortran=fortran, **arrays)
        np.savez_compressed(f"{directory}/numpy_compressed.npz", fortran=fortran, **arrays)
    print("ok")


main()
