/**
 * The help texts of `cudeno` and its commands.
 *
 * @module
 */

import { PACKAGE_VERSION } from "./version.ts";

/**
 * `cudeno --help`.
 *
 * @example
 * ```ts
 * import { MAIN_HELP } from "./help.ts";
 * console.log(MAIN_HELP);
 * ```
 */
export const MAIN_HELP: string =
  `cudeno: run CUDA and OpenCL kernels, list devices, type kernels for TypeScript

Usage:
  cudeno info [--json] [--require cuda|opencl]
  cudeno run FILE.cu|FILE.cl --list [--json]
  cudeno run FILE --kernel NAME --arg NAME=VALUE ... [--out NAME=PATH.npy|PATH.png]
             [--grid X[,Y[,Z]] --block X[,Y[,Z]]] [--repeat N] [--device cuda:N|opencl:P:D] [--json]
  cudeno types FILE [-o OUT.ts] [--import SPEC]

Each command takes --help. Exit status: 0 done, 1 failed (a compile error, no device), 2 bad input.
No GPU? Every kernels/*.cu has a .cl twin that runs on the CPU with PoCL: cudeno run kernels/mandelbrot.cl`;

/**
 * `cudeno run --help`.
 *
 * @example
 * ```ts
 * import { RUN_HELP } from "./help.ts";
 * console.log(RUN_HELP);
 * ```
 */
export const RUN_HELP: string = `cudeno run: compile a kernel file, run one kernel, show or save its arrays

Usage:
  cudeno run FILE --list [--json]
  cudeno run FILE [--kernel NAME] --arg NAME=VALUE ... [options]

FILE ending in .cu is CUDA C++ (compiled with NVRTC); .cl is OpenCL C.
A file may carry its default run in "// cudeno: FLAGS" lines among its first comments; flags on the
command line override them (--arg, --out and --shape by name).

  --list                  list the kernels and their parameters' C types (--json for JSON)
  --kernel NAME           the kernel to run (needed when the file has several)
  --arg NAME=VALUE        a value for every parameter:
                            scalars: 1024, 1<<20, 2.5, n/2 (converted to the parameter's type)
                            vectors: 0.5,n/2,1 for a float3 (one value per element)
                            arrays:  rand(n) randn(n) zeros(h,w) ones(n) arange(n) full(n,v)
                                     linspace(a,b,n) @file.npy (its dtype must match the pointer)
                            OpenCL __local T *p: the number of T to reserve per work-group
  --out NAME=PATH.npy     write an array after the run as a NumPy file
  --out NAME=PATH.png     draw a 2-D array as an image (--colormap grey|viridis|magma|inferno|
                          plasma|turbo, default viridis; --log to colour by the logarithm)
  --shape [NAME=]D,D,...  the shape of the --out arrays (or of array NAME)
  --grid X[,Y[,Z]]        blocks (CUDA) or work-groups (OpenCL); needs --block
  --block X[,Y[,Z]]       threads per block; default: 256, with one thread per element of the
                          largest array
  --global, --local       OpenCL's global and local sizes (instead of --grid/--block)
  --repeat N              run N times (inputs copied in afresh each time); report the min
                          and median kernel time
  --device ID             cuda:N or opencl:P:D (see cudeno info)
  --seed N                the seed of rand and randn (default 0)
  --json                  print one JSON object
  --warnings              print the compiler's warnings (its build log) on standard error

Sizes may use the scalar arguments: --grid '(w+15)>>4,(h+15)>>4'. Without --out, every array the kernel
may write (a pointer that is not const) is summarized: first values, min, max, mean, checksum.

Quote values that hold the shell's characters (< > ( ) * & | ;), as in the examples. Each kernels/*.cu
file has a .cl twin that runs without a GPU (on PoCL): kernels/saxpy.cl, kernels/mandelbrot.cl, ...

Examples:
  cudeno run kernels/saxpy.cl --arg n=1024 --arg a=2 --arg 'x=rand(n)' --arg 'y=ones(n)'
  cudeno run kernels/mandelbrot.cl --out img=m.png --shape 512,768
  cudeno run kernels/saxpy.cu --arg 'n=1<<20' --arg 'x=rand(n)' --arg y=@y.npy --out y=out.npy --repeat 10
  cudeno run kernels/heat.cl --grid '(w+15)>>4,(h+15)>>4' --block 16,16`;

/**
 * `cudeno info --help`.
 *
 * @example
 * ```ts
 * import { INFO_HELP } from "./help.ts";
 * console.log(INFO_HELP);
 * ```
 */
export const INFO_HELP: string =
  `cudeno info: the CUDA and OpenCL devices here, and which one cudeno would use

Usage:
  cudeno info [--json] [--require cuda|opencl]

  --json             print one JSON object (byte counts as numbers)
  --require BACKEND  exit with status 1 unless BACKEND (cuda or opencl) has a usable device`;

/**
 * `cudeno types --help`.
 *
 * @example
 * ```ts
 * import { TYPES_HELP } from "./help.ts";
 * console.log(TYPES_HELP);
 * ```
 */
export const TYPES_HELP: string = `cudeno types: a TypeScript module with a typed launcher per kernel

Usage:
  cudeno types FILE.cu|FILE.cl [-o OUT.ts] [--import SPEC]

  -o, --output OUT.ts  write the module there (default: standard output)
  --import SPEC        where the module imports cudeno from
                       (default jsr:@cudeno/cudeno@^${PACKAGE_VERSION}/cuda or /opencl)`;
