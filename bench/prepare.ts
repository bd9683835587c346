/**
 * What each producer needs before it runs, and a {@link Blocker} where it is missing: the C programs
 * built into bench/build/ (`gcc -O2 -Wall -Wextra`), an NVIDIA GPU, a Python module that imports, JAX on
 * the GPU, cudeno's suite.
 * @module
 */
import { join } from "node:path";
import type { Machine } from "./machine.ts";
import { BENCH, log, probe, run, why } from "./processes.ts";

export const BUILD = join(BENCH, "build");
const CUDA_HOME = Deno.env.get("CUDA_HOME") ?? "/usr/local/cuda";
// .device/on-device.sh unpacks Debian's ICD loader here, with a vendors file naming NVIDIA's driver: the
// loader the baseline's OpenCL figures were measured through on the GPU machine.
const CARRIED_OPENCL = "/tmp/ocl/usr/lib/x86_64-linux-gnu";

/** Why a producer cannot run: skipped (not installed here) or failed (its build broke). */
export interface Blocker {
  state: "skipped" | "failed";
  reason: string;
}

const NO_GPU: Blocker = { state: "skipped", reason: "nvidia-smi finds no NVIDIA GPU on this machine" };

async function gcc(m: Machine, out: string, source: string, flags: string[]): Promise<Blocker | null> {
  if (m.versions.gcc === null) return { state: "skipped", reason: "gcc is not installed" };
  Deno.mkdirSync(BUILD, { recursive: true });
  const cmd = ["gcc", "-O2", "-Wall", "-Wextra", "-o", join(BUILD, out), join(BENCH, "c", source), ...flags];
  log(cmd.join(" "));
  const f = await run(cmd, 300);
  return f.code === 0 ? null : { state: "failed", reason: `build of ${source} failed: ${why(f)}` };
}

export function buildCuda(m: Machine): Promise<Blocker | null> {
  if (!m.gpu) return Promise.resolve(NO_GPU);
  return gcc(m, "cuda_bench", "cuda_bench.c", [
    `-I${CUDA_HOME}/include`,
    `-L${CUDA_HOME}/lib64`,
    `-L${CUDA_HOME}/lib64/stubs`,
    "-lcuda",
    "-lnvrtc",
    "-lm",
  ]);
}

export async function buildOpenCL(m: Machine): Promise<Blocker | null> {
  const carried = await exists(join(CARRIED_OPENCL, "libOpenCL.so.1"));
  const flags = carried ? [`-L${CARRIED_OPENCL}`, "-l:libOpenCL.so.1"] : ["-lOpenCL"];
  return gcc(m, "opencl_bench", "opencl_bench.c", flags);
}

function pythonBlocker(m: Machine, module: string): Blocker | null {
  if (!m.gpu) return NO_GPU;
  return m.versions[module] === null ? { state: "skipped", reason: `python3 cannot import ${module}` } : null;
}

export function needsPython(module: string): (m: Machine) => Promise<Blocker | null> {
  return (m) => Promise.resolve(pythonBlocker(m, module));
}

/** JAX runs its figures only where it imports and sees a GPU (a CPU-only jaxlib is skipped). */
export async function needsJaxGpu(m: Machine): Promise<Blocker | null> {
  const blocker = pythonBlocker(m, "jax");
  if (blocker) return blocker;
  const backend = await probe(["python3", "-c", "import jax; print(jax.default_backend())"]);
  return backend === "gpu"
    ? null
    : { state: "skipped", reason: `jax runs on ${backend ?? "nothing (its probe failed)"}, not a GPU` };
}

export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function needsCudenoSuite(): Promise<Blocker | null> {
  if (await exists(join(BENCH, "cudeno", "suite.ts"))) return null;
  return { state: "skipped", reason: "bench/cudeno/suite.ts does not exist: no cudeno figures in this run" };
}
