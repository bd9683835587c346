/**
 * Registers an array test once per backend: run for real where the backend works, reported as
 * ignored (with the reason) where it does not.
 */

import * as ga from "../../src/array/mod.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";

const PROBLEMS: Record<ga.BackendName, string | undefined> = { cuda: cudaProblem, opencl: openclProblem };

/** Registers `name [backend]` for CUDA and for OpenCL. */
export function eachBackend(name: string, fn: (backend: ga.BackendName) => void | Promise<void>): void {
  for (const backend of ["cuda", "opencl"] as const) {
    const problem = PROBLEMS[backend];
    Deno.test({
      name: problem === undefined
        ? `${name} [${backend}]`
        : `${name} [${backend}; ignored: ${problem.split("\n")[0]!.split(": no candidate")[0]}]`,
      ignore: problem !== undefined,
      fn: async () => {
        ga.useBackend(backend);
        await fn(backend);
      },
    });
  }
}
