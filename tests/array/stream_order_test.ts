/**
 * Array work inside `ga.withStream()` goes to that stream: with the stream held by the host, none of
 * it has run (the arrays still hold their old values), and once the stream is let go, all of it has,
 * with the host reference's results. CUDA only.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { grid, jit } from "../../src/jit/mod.ts";
import { cudaContext, cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertValues, HeldStream, hostMatmul, ramp } from "./_streams.ts";

// One test reads the stream-ordered pool's counters, which are the process's.
const { cudaTest } = alone(
  import.meta.url,
  "it reads the pool's counters",
  { cudaTest: cudaHere },
  cudaProblem,
);

const ROWS = 20, COLS = 50, N = ROWS * COLS;

/** Elementwise work of several kinds, all into existing arrays: in place, out=, a copy, a strided view. */
function elementwise(x: ga.GPUArray, y: ga.GPUArray, z: ga.GPUArray, t: ga.GPUArray): void {
  x.add(1, { out: x }); // in place, flat
  ga.mul(x, 2, { out: y }); // into another array
  z.assign(y); // same shape and dtype, separate memory: a device-to-device copy
  t.assign(x.T); // a transposed view: a strided (tile) walk
}

/** What {@link elementwise} leaves, computed on the host from x's starting values. */
function reference(x0: Float32Array): { x: Float32Array; y: Float32Array; t: Float32Array } {
  const x = x0.map((v) => v + 1), y = x.map((v) => v * 2);
  const t = new Float32Array(N);
  for (let i = 0; i < ROWS; i++) for (let j = 0; j < COLS; j++) t[j * ROWS + i] = x[i * COLS + j]!;
  return { x, y, t };
}

cudaTest(
  "elementwise work, copies and random draws inside ga.withStream() wait for its stream, then match the host reference",
  () => {
    using held = new HeldStream();
    const fresh = () => ({
      x: ga.toGpu(ramp(N), [ROWS, COLS]),
      y: ga.zeros([ROWS, COLS]),
      z: ga.zeros([ROWS, COLS]),
      t: ga.zeros([COLS, ROWS]),
    });
    // Once unheld, so every kernel is loaded before the stream is held.
    const warm = fresh();
    ga.withStream(held.stream, () => {
      elementwise(warm.x, warm.y, warm.z, warm.t);
      ga.random.uniform([N], { seed: 5 });
    });
    const { x, y, z, t } = fresh();
    cuda.synchronize(); // the arrays were made on the legacy default stream, which a non-blocking stream does not wait for
    held.hold();
    let r: ga.GPUArray<"float32"> | undefined;
    ga.withStream(held.stream, () => {
      elementwise(x, y, z, t);
      r = ga.random.uniform([N], { seed: 5 });
    });
    assert.equal(held.stream.isDone(), false, "the stream is still held");
    // Read on the legacy default stream, which does not wait for the held one.
    assertValues(x.get(), ramp(N), "x while the stream is held (its add has not run)");
    assertValues(y.get(), new Float32Array(N), "y while the stream is held");
    assertValues(z.get(), new Float32Array(N), "z while the stream is held (the copy has not run)");
    assertValues(t.get(), new Float32Array(N), "t while the stream is held");
    held.release();
    const want = reference(ramp(N));
    assertValues(x.get(), want.x, "x after the stream ran");
    assertValues(y.get(), want.y, "y after the stream ran");
    assertValues(z.get(), want.y, "z (a copy of y) after the stream ran");
    assertValues(t.get(), want.t, "t (x transposed) after the stream ran");
    const unheld = ga.random.uniform([N], { seed: 5 }).get();
    assertValues(ga.withStream(held.stream, () => r!.get()), unheld, "a random draw on the stream");
  },
);

cudaTest("host reads, reductions and host copies inside ga.withStream() see the stream's work", async () => {
  using held = new HeldStream();
  const x0 = ramp(N);
  const x = ga.toGpu(x0, [ROWS, COLS]);
  cuda.synchronize();
  const result = await ga.withStream(held.stream, async () => {
    x.add(1, { out: x });
    const sum = x.sum(); // waits for the stream (no synchronize in between)
    const host = x.get();
    const viaAsync = await x.mul(3).getAsync();
    const strided = x.T.get(); // a copy on the stream, then a read
    x.set(ramp(N, 7)); // host → device on the stream
    const written = x.get();
    return { sum, host, viaAsync, strided, written };
  });
  const plus1 = x0.map((v) => v + 1);
  assert.equal(result.sum, plus1.reduce((s, v) => s + v, 0), "sum() after add(1) on the stream");
  assertValues(result.host, plus1, "get() after add(1) on the stream");
  assertValues(result.viaAsync, plus1.map((v) => v * 3), "getAsync() of x * 3");
  assertValues(result.strided, reference(x0).t, "get() of x.T");
  assertValues(result.written, ramp(N, 7), "get() after set() on the stream");
});

cudaTest(
  "ga.matmul() inside ga.withStream() runs cuBLAS on that stream, and on the default stream outside",
  () => {
    using held = new HeldStream();
    const m = 64, k = 48, n = 40;
    const a0 = ramp(m * k), b0 = ramp(k * n, 1);
    const want = hostMatmul(a0, b0, m, k, n);
    const a = ga.toGpu(a0, [m, k]), b = ga.toGpu(b0, [k, n]);
    const warm = ga.zeros([m, n]), c = ga.zeros([m, n]);
    cuda.synchronize();
    // Unheld first: cuBLAS is set to the stream and given a workspace of its own, which allocates.
    ga.withStream(held.stream, () => ga.matmul(a, b, { out: warm }));
    held.stream.synchronize();
    assertValues(warm.get(), want, "a matmul on the stream");
    held.hold();
    ga.withStream(held.stream, () => ga.matmul(a, b, { out: c }));
    assertValues(c.get(), new Float32Array(m * n), "c while the stream is held (the gemm has not run)");
    held.release();
    assertValues(c.get(), want, "c after the stream ran");
    assertValues(ga.matmul(a, b).get(), want, "a matmul outside, on the legacy default stream again");
    assertValues(
      ga.withStream(held.stream, () => ga.matmul(a, b).get()),
      want,
      "a matmul on the stream again, after one elsewhere",
    );
  },
);

const addTo = jit({ a: "f32[]", v: "f32", n: "i32" }, (a, v, n) => {
  const i = grid(1);
  if (i < n) a[i] = a[i] + v;
}, { name: "stream_order_add_to" });

cudaTest("a JIT launch without a stream goes to the current stream; one naming a stream goes there", () => {
  using held = new HeldStream();
  const a0 = ramp(N);
  const a = ga.toGpu(a0), b = ga.toGpu(a0);
  const config = { grid: Math.ceil(N / 256), block: 256 };
  addTo.launch(config, ga.zeros(N), 0, N); // loads the kernel
  cuda.synchronize();
  held.hold();
  ga.withStream(held.stream, () => addTo.launch(config, a, 3, N));
  addTo.launch({ ...config, stream: held.stream }, b, 5, N); // outside withStream, with its own stream
  assertValues(a.get(), a0, "a while the stream is held");
  assertValues(b.get(), a0, "b while the stream is held");
  held.release();
  assertValues(a.get(), a0.map((v) => v + 3), "a after the stream ran");
  assertValues(b.get(), a0.map((v) => v + 5), "b after the stream ran");
});

/** `n` float32 values in a scrambled order, all different (so the sorted order is the only one). */
function scrambled(n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => ((i * 7919) % n) - n / 2);
}

cudaTest(
  "sorts and cumsums queued on a held stream and run on another meanwhile keep their scratch apart, and both match the host reference",
  () => {
    using held = new HeldStream();
    const other = new cuda.Stream({ nonBlocking: true });
    // The second sort is larger, so shared buffers would have grown (and been freed) under the first.
    const hostA = scrambled(100_000), hostB = scrambled(300_000);
    const rampA = ramp(200_000), rampB = ramp(400_000, 1);
    const a = ga.toGpu(hostA), b = ga.toGpu(hostB);
    const ra = ga.toGpu(rampA), rb = ga.toGpu(rampB);
    cuda.synchronize();
    held.hold();
    const [sortedA, sumsA] = ga.withStream(held.stream, () => [ga.sort(a), ga.cumsum(ra)]);
    const [sortedB, sumsB] = ga.withStream(other, () => [ga.sort(b), ga.cumsum(rb)]);
    other.synchronize();
    const prefix = (xs: Float32Array) => {
      let s = 0;
      return xs.map((v) => (s += v));
    };
    assertValues(sortedB.get(), hostB.slice().sort(), "the sort on the other stream");
    assertValues(sumsB.get(), prefix(rampB), "the cumsum on the other stream");
    held.release();
    assertValues(sortedA.get(), hostA.slice().sort(), "the sort on the held stream");
    assertValues(sumsA.get(), prefix(rampA), "the cumsum on the held stream");
    other.destroy();
  },
);

cudaTest(
  "sorts and cumsums on five streams while the first is held: its scratch, given back for the later streams', is given back after its own work, which still matches the host reference",
  () => {
    using held = new HeldStream();
    const streams = [held.stream, ...[1, 2, 3, 4].map(() => new cuda.Stream({ nonBlocking: true }))];
    const prefix = (xs: Float32Array) => {
      let s = 0;
      return xs.map((v) => (s += v));
    };
    const hosts = [100_000, 200_000, 150_000, 300_000, 250_000].map(scrambled);
    const ramps = [200_000, 300_000, 100_000, 400_000, 250_000].map((n, i) => ramp(n, i));
    const inputs = hosts.map((h, i) => [ga.toGpu(h), ga.toGpu(ramps[i]!)] as const);
    for (const s of streams) {
      ga.withStream(s, () => [ga.sort(inputs[0]![0]), ga.cumsum(inputs[0]![1])].forEach((a) => a.free()));
    }
    cuda.synchronize();
    held.hold();
    // Each stream keeps scratch of its own; the fifth's first use gives the held one's back.
    const outputs = streams.map((s, i) =>
      ga.withStream(s, () => [ga.sort(inputs[i]![0]), ga.cumsum(inputs[i]![1])])
    );
    for (const s of streams.slice(1)) s.synchronize();
    for (let i = 1; i < 5; i++) {
      assertValues(
        outputs[i]![0]!.get() as Float32Array,
        hosts[i]!.slice().sort(),
        `the sort on stream ${i}`,
      );
      assertValues(outputs[i]![1]!.get() as Float32Array, prefix(ramps[i]!), `the cumsum on stream ${i}`);
    }
    held.release();
    assertValues(
      outputs[0]![0]!.get() as Float32Array,
      hosts[0]!.slice().sort(),
      "the sort on the held stream",
    );
    assertValues(outputs[0]![1]!.get() as Float32Array, prefix(ramps[0]!), "the cumsum on the held stream");
    for (const s of streams.slice(1)) s.destroy();
  },
);

cudaTest(
  "sorts on eight streams in turn keep at most four streams' scratch in the memory pool (the pool's used memory says so)",
  () => {
    const device = cudaContext().device;
    ga.useBackend("cuda");
    const n = 2 ** 22;
    const x = ga.toGpu(scrambled(n));
    const streams = Array.from({ length: 8 }, () => new cuda.Stream({ nonBlocking: true }));
    cuda.synchronize();
    const before = cuda.memPoolUsage(device).used;
    for (const s of streams) {
      ga.withStream(s, () => ga.sort(x).free());
      s.synchronize();
    }
    // Keys and indices, twice over (16 bytes an element), and the passes' status words.
    const perStream = 16 * n + 4 * 2 ** 20;
    const grown = Number(cuda.memPoolUsage(device).used - before);
    assert.ok(
      grown <= 4 * perStream,
      `the pool's used memory grew by ${
        (grown / 2 ** 20).toFixed(0)
      } MiB over 8 streams: more than 4 streams' scratch of ${(perStream / 2 ** 20).toFixed(0)} MiB`,
    );
    for (const s of streams) s.destroy();
    x.free();
  },
);
