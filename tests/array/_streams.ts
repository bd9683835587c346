/** What the current-stream tests share: a stream the host can hold, and exact host data. */
import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { cudaContext } from "../_backends.ts";

/** Spins until the host sets `*flag`, for at most `limit` clock cycles (so a failed test cannot hang). */
const HOLD = `
__global__ void hold(volatile int *flag, long long limit) {
  long long start = clock64();
  while (*flag == 0 && clock64() - start < limit) {}
}`;

/** About five seconds of the H200's clock: far longer than a test's checks, short enough to fail fast. */
const LIMIT = 10_000_000_000n;

let holdKernel: cuda.KernelFunction | undefined;

/**
 * A non-blocking stream that the host can hold: after {@link hold}, work queued on it waits behind a
 * kernel spinning on a flag in pinned memory until {@link release}. Array work seen not to have run
 * while the stream is held, and to have run after, went to this stream and nowhere else. Kernels used
 * while it is held must have run once before (a kernel's first launch may load its module, which can
 * wait for the device).
 */
export class HeldStream {
  /** The stream (non-blocking: the legacy default stream does not wait for it). */
  readonly stream: cuda.Stream;
  readonly #flag: cuda.PagelockedArray<"int32">;

  constructor() {
    cudaContext();
    ga.useBackend("cuda");
    holdKernel ??= new cuda.SourceModule(HOLD).getFunction("hold");
    this.stream = new cuda.Stream({ nonBlocking: true });
    this.#flag = cuda.pagelockedEmpty(1, "int32");
  }

  /** Queues the kernel that holds the stream until {@link release}; afterwards, the stream is busy. */
  hold(): void {
    this.#flag.array[0] = 0;
    const address = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#flag.array)));
    holdKernel!(address, LIMIT, { block: 1, stream: this.stream });
    assert.equal(this.stream.isDone(), false, "the stream is held (its hold kernel is still waiting)");
  }

  /** Lets the stream go and waits for everything queued on it. */
  release(): void {
    this.#flag.array[0] = 1;
    this.stream.synchronize();
  }

  /** Releases the stream and destroys it. */
  [Symbol.dispose](): void {
    this.release();
    this.stream.destroy();
    this.#flag.free();
  }
}

/** Small integers as float32 (every sum and product the tests make is exact). */
export function ramp(n: number, offset = 0): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (i % 13) + offset);
}

/** Asserts `actual` equals `expected` element for element, naming the first difference. */
export function assertValues(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) {
      assert.fail(`${what}: element ${i} is ${actual[i]}, expected ${expected[i]}`);
    }
  }
}

/** Row-major `a[m×k]·b[k×n]` on the host, in float32 (exact for the small integers used). */
export function hostMatmul(a: Float32Array, b: Float32Array, m: number, k: number, n: number): Float32Array {
  const c = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a[i * k + p]! * b[p * n + j]!;
      c[i * n + j] = s;
    }
  }
  return c;
}
