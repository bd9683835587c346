#!/bin/sh
# The main job on a fresh machine: installs Deno and PoCL where missing, puts `deno` and `cudeno` on
# the PATH of new login shells (scripts/install-commands.sh: ~/.local/bin), reports the devices, then
# compiles and runs a kernel file on the best device present (CUDA if there is one, else OpenCL).
set -eu
cd "$(dirname "$0")/.."
. scripts/ensure-tools.sh
sh scripts/install-commands.sh
deno task info
if deno task info --require cuda >/dev/null 2>&1; then kernel=kernels/saxpy.cu; else kernel=kernels/saxpy.cl; fi
echo
echo "== deno task cudeno run $kernel --repeat 10"
exec deno task cudeno run "$kernel" --repeat 10
