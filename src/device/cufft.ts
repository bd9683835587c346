/**
 * FFTs on cuFFT: a plan per transform shape (length, batch, type and data layout) and context, made
 * with `cufftMakePlanMany64` without a work area of its own and kept in a bounded least-recently-used
 * cache, as CuPy and PyTorch keep theirs. Each execution sets the plan to the current stream and gives
 * it a work area from the memory pool on that stream, which goes back to the pool after the call, in
 * stream order.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { Fft, FftJob, FftLayout } from "./fft.ts";
import type { Context, DeviceAllocation } from "../cuda/mod.ts";
import { refuseWhileCapturing, releaseWhenNotCapturing } from "../cuda/capturing.ts";
import {
  CUFFT_C2C,
  CUFFT_C2R,
  CUFFT_D2Z,
  CUFFT_FORWARD,
  CUFFT_INVERSE,
  CUFFT_R2C,
  CUFFT_Z2D,
  CUFFT_Z2Z,
  libcufft,
} from "../../ffi/cufft.ts";
import { DTYPES } from "../kernel/dtype.ts";

/** `cufftResult` names and meanings (cufft.h). */
const STATUS: Record<number, readonly [string, string]> = {
  1: ["CUFFT_INVALID_PLAN", "cuFFT was passed an invalid plan handle"],
  2: ["CUFFT_ALLOC_FAILED", "cuFFT failed to allocate GPU or CPU memory"],
  3: ["CUFFT_INVALID_TYPE", "the transform type is not supported"],
  4: ["CUFFT_INVALID_VALUE", "an invalid pointer or parameter was passed"],
  5: ["CUFFT_INTERNAL_ERROR", "a driver or internal cuFFT error"],
  6: ["CUFFT_EXEC_FAILED", "cuFFT failed to execute the transform on the GPU"],
  7: ["CUFFT_SETUP_FAILED", "the cuFFT library failed to initialize"],
  8: ["CUFFT_INVALID_SIZE", "an invalid transform size was passed"],
  9: ["CUFFT_UNALIGNED_DATA", "the data is not aligned"],
  10: ["CUFFT_INCOMPLETE_PARAMETER_LIST", "parameters are missing from the call"],
  11: ["CUFFT_INVALID_DEVICE", "the plan was executed on another GPU than it was made on"],
  12: ["CUFFT_PARSE_ERROR", "an internal plan database error"],
  13: ["CUFFT_NO_WORKSPACE", "no work area was given before the plan was executed"],
  14: ["CUFFT_NOT_IMPLEMENTED", "the function does not implement this for the parameters given"],
  15: ["CUFFT_LICENSE_ERROR", "a license error"],
  16: ["CUFFT_NOT_SUPPORTED", "the operation is not supported for the parameters given"],
  17: ["CUFFT_MISSING_DEPENDENCY", "a library cuFFT needs is missing"],
  18: ["CUFFT_NVRTC_FAILURE", "NVRTC failed inside cuFFT"],
  19: ["CUFFT_NVJITLINK_FAILURE", "nvJitLink failed inside cuFFT"],
  20: ["CUFFT_NVSHMEM_FAILURE", "NVSHMEM failed inside cuFFT"],
};

/**
 * A cuFFT call failed.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * try {
 *   ga.fft.fft(ga.ones([8], "complex64"));
 * } catch (e) {
 *   if (e instanceof ga.fft.CufftError) console.error(e.code, e.status, e.call, e.message);
 * }
 * ```
 */
export class CufftError extends Error {
  /** The `cufftResult` value. */
  readonly code: number;
  /** Its name, `CUFFT_INVALID_SIZE` (`cufftResult <code>` for a code this version does not know). */
  readonly status: string;
  /** The cuFFT function that returned it, `cufftMakePlanMany64`. */
  readonly call: string;

  /** Builds the error from the status's name and meaning. */
  constructor(code: number, call: string) {
    const known = STATUS[code];
    const status = known?.[0] ?? `cufftResult ${code}`;
    super(`${call} failed: ${known === undefined ? status : `${status} (${known[1]})`}`);
    this.name = "CufftError";
    this.code = code;
    this.status = status;
    this.call = call;
  }
}

function check(code: number, call: string): void {
  if (code !== 0) throw new CufftError(code, call);
}

/** A plan and the bytes of work area it needs. */
interface Plan {
  readonly handle: number;
  readonly workBytes: bigint;
}

/** A context's plans, most recently used last; all of them died with the context at a reset. */
interface PlanCache {
  readonly generation: number;
  readonly plans: Map<string, Plan>;
}

/** The most plans a context keeps; the least recently used one is destroyed to make room. */
const MAX_PLANS = 32;

const caches = new WeakMap<Context, PlanCache>();

/** The `cufftType` of a job. */
function typeOf(job: FftJob): number {
  const double = job.dtype === "complex128";
  if (job.kind === "c2c") return double ? CUFFT_Z2Z : CUFFT_C2C;
  if (job.kind === "r2c") return double ? CUFFT_D2Z : CUFFT_R2C;
  return double ? CUFFT_Z2D : CUFFT_C2R;
}

/** The elements of one transform's input and output. */
function lengths(job: FftJob): [number, number] {
  const half = Math.floor(job.n / 2) + 1;
  return job.kind === "c2c" ? [job.n, job.n] : job.kind === "r2c" ? [job.n, half] : [half, job.n];
}

/** A plan for `job`'s shape on the backend's (current) context: from the cache, else made. */
function planFor(backend: CudaBackend, job: FftJob): Plan {
  const context = backend.context;
  let cache = caches.get(context);
  if (cache === undefined || cache.generation !== context.generation) {
    cache = { generation: context.generation, plans: new Map() };
    caches.set(context, cache);
  }
  const type = typeOf(job), { input, output } = job;
  const key = `${type}:${job.n}:${job.batch}:${input.stride}:${input.dist}:${output.stride}:${output.dist}`;
  const known = cache.plans.get(key);
  if (known !== undefined) {
    cache.plans.delete(key);
    cache.plans.set(key, known);
    return known;
  }
  refuseWhileCapturing(
    "plan a cuFFT transform of a new shape",
    "run the same ga.fft call once before the capture begins, so that its plan is made",
  );
  const lib = libcufft.get();
  const out = new Int32Array(1);
  check(lib.cufftCreate(out), "cufftCreate");
  const handle = out[0]!;
  const [inLength, outLength] = lengths(job);
  // Contiguous transforms take cuFFT's basic layout (no embeds), for which it has its fastest kernels.
  const basic = input.stride === 1 && output.stride === 1 && input.dist === inLength &&
    output.dist === outLength;
  const embed = (length: number) => (basic ? null : new BigInt64Array([BigInt(length)]));
  const workBytes = new BigUint64Array(1);
  try {
    check(lib.cufftSetAutoAllocation(handle, 0), "cufftSetAutoAllocation");
    check(
      lib.cufftMakePlanMany64(
        handle,
        1,
        new BigInt64Array([BigInt(job.n)]),
        embed(inLength),
        BigInt(input.stride),
        BigInt(input.dist),
        embed(outLength),
        BigInt(output.stride),
        BigInt(output.dist),
        type,
        BigInt(job.batch),
        workBytes,
      ),
      "cufftMakePlanMany64",
    );
  } catch (e) {
    lib.cufftDestroy(handle);
    throw e;
  }
  const plan = { handle, workBytes: workBytes[0]! };
  cache.plans.set(key, plan);
  if (cache.plans.size > MAX_PLANS) {
    const [oldest, evicted] = cache.plans.entries().next().value!;
    cache.plans.delete(oldest);
    // A graph being captured may hold the plan's kernels: destroy it once no capture is in progress.
    releaseWhenNotCapturing(() => lib.cufftDestroy(evicted.handle));
  }
  return plan;
}

/** The device address of a layout's first element, elements being `itemsize` bytes. */
const address = (layout: FftLayout, itemsize: number): bigint =>
  (layout.buffer as DeviceAllocation).ptr + BigInt(layout.offset * itemsize);

/**
 * A copy of a c2r job's input (cuFFT's out-of-place complex-to-real transforms overwrite their input),
 * from its first element to its last, in the same layout.
 */
function inputCopy(backend: CudaBackend, job: FftJob): DeviceAllocation {
  const { input } = job, itemsize = DTYPES[job.dtype].size;
  const span = (job.batch - 1) * input.dist + (lengths(job)[0] - 1) * input.stride + 1;
  const copy = backend.alloc(span * itemsize) as DeviceAllocation;
  backend.copy(copy, 0, input.buffer, input.offset * itemsize, span * itemsize);
  return copy;
}

function execute(backend: CudaBackend, job: FftJob): void {
  const stream = backend.streamFor("run an FFT");
  backend.context.setCurrent();
  const lib = libcufft.get();
  const plan = planFor(backend, job);
  check(lib.cufftSetStream(plan.handle, stream?.unsafeHandle ?? null), "cufftSetStream");
  const complexSize = DTYPES[job.dtype].size, realSize = complexSize / 2;
  const work = backend.alloc(Number(plan.workBytes)) as DeviceAllocation;
  const copy = job.kind === "c2r" ? inputCopy(backend, job) : undefined;
  try {
    check(lib.cufftSetWorkArea(plan.handle, work.ptr), "cufftSetWorkArea");
    const double = job.dtype === "complex128";
    if (job.kind === "c2c") {
      const name = double ? "cufftExecZ2Z" : "cufftExecC2C";
      const direction = job.inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
      check(
        lib[name](plan.handle, address(job.input, complexSize), address(job.output, complexSize), direction),
        name,
      );
    } else if (job.kind === "r2c") {
      const name = double ? "cufftExecD2Z" : "cufftExecR2C";
      check(lib[name](plan.handle, address(job.input, realSize), address(job.output, complexSize)), name);
    } else {
      const name = double ? "cufftExecZ2D" : "cufftExecC2R";
      check(lib[name](plan.handle, copy!.ptr, address(job.output, realSize)), name);
    }
  } finally {
    work.free();
    copy?.free();
  }
}

/**
 * cuFFT as the CUDA backend's {@link Fft}, on the backend's context and current stream; undefined
 * where cuFFT does not load (`ga.fft` runs its own kernels there).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.zeros(1).backend.fft?.name); // "cuFFT 12.0.0" on CUDA 13
 * ```
 */
export function cufftOf(backend: CudaBackend): Fft | undefined {
  if (!libcufft.available()) return undefined;
  const version = new Int32Array(1);
  check(libcufft.get().cufftGetVersion(version), "cufftGetVersion");
  const v = version[0]!;
  return {
    name: `cuFFT ${Math.floor(v / 1000)}.${Math.floor(v / 100) % 10}.${v % 100}`,
    execute: (job) => execute(backend, job),
  };
}
