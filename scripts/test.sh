#!/bin/sh
# The full test suite on a fresh machine: installs Deno and PoCL where missing, then runs every test.
# GPU tests run where a CUDA driver and device exist and are reported as ignored, with the reason,
# elsewhere; OpenCL tests run on whatever OpenCL device is present (PoCL on a CPU-only machine).
set -eu
cd "$(dirname "$0")/.."
. scripts/ensure-tools.sh
exec deno task test "$@"
