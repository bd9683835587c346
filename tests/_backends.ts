/**
 * Which real backends this machine has, for gating tests: a GPU test that cannot run here is
 * reported as ignored with the reason in its name, never silently skipped.
 */

import * as cuda from "../src/cuda/mod.ts";
import { getPlatforms } from "../src/opencl/platform.ts";

function shortReason(text: string): string {
  const first = text.split("\n")[0]!.split(": no candidate could be opened")[0]!;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

function findOpenclProblem(): string | undefined {
  try {
    return getPlatforms().some((p) => p.getDevices().length > 0) ? undefined : "no OpenCL device";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Why CUDA tests cannot run here, or undefined when they can. */
export const cudaProblem: string | undefined = cuda.unavailableReason();

/** Why OpenCL tests cannot run here, or undefined when they can. */
export const openclProblem: string | undefined = findOpenclProblem();

function gated(problem: string | undefined, what: string) {
  return (name: string, fn: () => void | Promise<void>): void => {
    Deno.test({
      name: problem === undefined ? name : `${name} [ignored: no ${what}: ${shortReason(problem)}]`,
      ignore: problem !== undefined,
      fn,
    });
  };
}

/** A test that needs a CUDA driver and device; ignored, with the reason, where there is none. */
export const cudaTest: (name: string, fn: () => void | Promise<void>) => void = gated(cudaProblem, "CUDA");

/** A test that needs an OpenCL platform with a device; ignored, with the reason, where there is none. */
export const openclTest: (name: string, fn: () => void | Promise<void>) => void = gated(
  openclProblem,
  "OpenCL",
);

/** Makes device 0's primary context current (call inside CUDA tests only). */
export function cudaContext(): cuda.Context {
  return cuda.useDevice(0);
}
