#!/bin/sh
# Installs what a fresh Debian/Ubuntu machine with Node/npm lacks to run cudeno, then puts `deno` on
# PATH: Deno from npm (into ~/.cache/cudeno/deno) unless one is already on PATH, and PoCL (OpenCL on
# the CPU) from apt unless an OpenCL platform is already installed. Sourced by demo.sh and test.sh.
set -eu
DENO_VERSION=2.9.6
cache="${XDG_CACHE_HOME:-$HOME/.cache}/cudeno"

if ! command -v deno >/dev/null 2>&1; then
  if [ ! -x "$cache/deno/node_modules/.bin/deno" ]; then
    echo "ensure-tools: installing Deno $DENO_VERSION from npm into $cache/deno" >&2
    mkdir -p "$cache/deno"
    npm install --silent --no-audit --no-fund --prefix "$cache/deno" "deno@$DENO_VERSION" >&2
  fi
  PATH="$cache/deno/node_modules/.bin:$PATH"
  export PATH
fi

has_opencl() {
  ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1 || [ -n "${OCL_ICD_VENDORS:-}" ] || [ -n "${CUDENO_LIBOPENCL:-}" ]
}
if ! has_opencl; then
  echo "ensure-tools: no OpenCL platform found; installing PoCL (OpenCL on the CPU) from apt" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq pocl-opencl-icd ocl-icd-libopencl1 >/dev/null 2>&1 \
    || { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq pocl-opencl-icd ocl-icd-libopencl1 >/dev/null; }
fi
export NO_COLOR=1 DENO_NO_UPDATE_CHECK=1
