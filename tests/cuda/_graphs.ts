/** What the graph and capture tests share: kernels, sizes, and host-checked arrays. */
import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext } from "../_backends.ts";

/** Three small kernels over a float array of n elements. */
export const SOURCE = `
__global__ void add_to(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v;
}
__global__ void fill(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}
__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}`;

/** The arrays' length: more than one block of 256. */
export const N = 1000;
/** A launch over N elements. */
export const CFG = { grid: Math.ceil(N / 256), block: 256 };

/** The test kernels, compiled for device 0 (whose context is made current). */
export function kernels(): {
  mod: cuda.SourceModule;
  addTo: cuda.KernelFunction;
  fill: cuda.KernelFunction;
  axpy: cuda.KernelFunction;
} {
  cudaContext();
  const mod = new cuda.SourceModule(SOURCE);
  return {
    mod,
    addTo: mod.getFunction("add_to"),
    fill: mod.getFunction("fill"),
    axpy: mod.getFunction("axpy"),
  };
}

/** Small integers as float32: every sum the tests make is exact. */
export function ramp(n: number, offset = 0): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (i % 13) + offset);
}

/** A device copy of `host`. */
export function upload(host: Float32Array): cuda.DeviceAllocation {
  const dev = cuda.memAlloc(host.byteLength);
  cuda.memcpyHtoD(dev, host);
  return dev;
}

/** The first `n` floats of `dev`, copied to the host. */
export function download(dev: cuda.DeviceAllocation, n = N): Float32Array {
  const out = new Float32Array(n);
  cuda.memcpyDtoH(out, dev);
  return out;
}

/** Where `got` and `want` first differ, or undefined when they are equal bit for bit. */
function firstDifference(got: Float32Array, want: Float32Array): string | undefined {
  if (got.length !== want.length) return `length ${got.length}, want ${want.length}`;
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[i])) return `element ${i} is ${got[i]}, want ${want[i]}`;
  }
  return undefined;
}

/** Asserts `got` equals `want` bit for bit, naming the first element that does not. */
export function assertArrays(got: Float32Array, want: Float32Array, what: string): void {
  const diff = firstDifference(got, want);
  assert.equal(diff, undefined, `${what}: ${diff}`);
}
