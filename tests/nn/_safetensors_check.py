"""Checks safetensors files between cudeno and Python's safetensors with PyTorch.

Run by tests/nn/safetensors_test.ts where `import safetensors, torch` works (the lead's H200 has
safetensors 0.8.0 and PyTorch 2.11):

    python3 tests/nn/_safetensors_check.py WRITTEN_BY_CUDENO TO_WRITE

It reads WRITTEN_BY_CUDENO with `safetensors.torch.load_file`, checks each tensor (named by its
safetensors dtype, "F32", "BF16", ...) against the values both sides compute from the element index,
then writes TO_WRITE with `safetensors.torch.save_file`: one tensor of every dtype in the shapes the
header's `__metadata__["shapes"]` gives, for cudeno to read back. Exits 1 listing the differences.
"""

import json
import math
import sys

import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

DTYPES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


def expected(fmt, shape):
    """Element i is k = (7i + 3) mod 23: (k - 11) / 4 for floats, k - 11 signed, k unsigned, k mod 3 == 0 bool."""
    ks = [(7 * i + 3) % 23 for i in range(math.prod(shape))]
    if fmt == "BOOL":
        values = [k % 3 == 0 for k in ks]
    elif fmt.startswith("F") or fmt == "BF16":
        values = [(k - 11) / 4 for k in ks]
    elif fmt.startswith("U"):
        values = ks
    else:
        values = [k - 11 for k in ks]
    return torch.tensor(values, dtype=DTYPES[fmt]).reshape(shape)


def main(read_path, write_path):
    with safe_open(read_path, framework="pt") as f:
        metadata = f.metadata()
    shapes = json.loads(metadata["shapes"])
    tensors = load_file(read_path)
    problems = []
    if sorted(tensors) != sorted(json.loads(metadata["written"])):
        problems.append(f"tensors {sorted(tensors)}, the writer listed {metadata['written']}")
    for name, got in tensors.items():
        want = expected(name, shapes[name])
        if got.dtype != want.dtype or list(got.shape) != list(want.shape):
            problems.append(f"{name}: {got.dtype} {list(got.shape)}, want {want.dtype} {list(want.shape)}")
        elif not torch.equal(got, want):
            problems.append(f"{name}: {got.flatten().tolist()}, want {want.flatten().tolist()}")
    out = {fmt: expected(fmt, shape) for fmt, shape in shapes.items()}
    save_file(out, write_path, metadata={"writer": f"torch {torch.__version__}", "shapes": json.dumps(shapes)})
    for p in problems:
        print(p)
    print(f"read {len(tensors)} tensors, {len(problems)} differ; wrote {len(out)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
