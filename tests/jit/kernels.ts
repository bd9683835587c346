/**
 * Ten JIT kernels, each with everything needed to run and check it anywhere (the simulator here, CUDA
 * and OpenCL devices elsewhere): its launch configuration for given sizes, seeded inputs, a host
 * reference computed independently of the JIT, and a comparison with stated tolerances.
 *
 * Protocol: `const args = c.makeArgs(seed)`, `const expected = c.reference(args)` (before running: it
 * reads the inputs and leaves `args` as they are), run `c.kernel` with `c.config()` and `args`, then
 * `c.compare(outputsOf(c, args), expected)`, which throws on the first element out of tolerance.
 *
 * This file lists them; the protocol's types and shared helpers are in `kernel_case.ts`, the kernels by
 * family in `kernels_elementwise.ts`, `kernels_tiles.ts` and `kernels_reductions.ts`.
 *
 * @module
 */

import type { KernelCase } from "./kernel_case.ts";
import { addCase, heatCase, mandelbrotCase, saxpyCase } from "./kernels_elementwise.ts";
import { matmulCase, transposeCase } from "./kernels_tiles.ts";
import { histogramCase, reduceCase, scanCase, softmaxCase } from "./kernels_reductions.ts";

/** The ten kernels. */
export const KERNELS: readonly KernelCase[] = [
  addCase,
  saxpyCase,
  matmulCase,
  reduceCase,
  histogramCase,
  mandelbrotCase,
  heatCase,
  scanCase,
  transposeCase,
  softmaxCase,
];
