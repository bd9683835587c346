/**
 * Sorts and scans captured into CUDA graphs. Between eager calls their scratch buffers and look-back
 * state are kept per stream; in a capture they are the graph's own, so that replays give the eager
 * results even after larger eager sorts and scans on the same stream have replaced the stream's
 * buffers and advanced its tile count. CUDA only; every kernel runs once before it is captured.
 */
import * as ga from "../../src/array/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertValues } from "./_streams.ts";

// A capture on a blocking stream is invalidated by work on the legacy default stream anywhere in the
// process, other test files' Workers included (issue 35): capture in a process of its own.
const { cudaTest } = alone(import.meta.url, "it captures CUDA graphs", { cudaTest: cudaHere }, cudaProblem);

/** Above a sort tile (5,120 elements) and a scan tile, so both take their multi-pass, look-back paths. */
const N = 50_000, BIG = 300_000;

/** Small integers as float32, many of them equal, a different order for each seed (sums stay exact). */
function data(n: number, seed: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => ((i * 7919 + seed * 104_729) % 10_007) % 16);
}

/** The stable ascending order of `x`'s indices, on the host. */
function hostArgsort(x: Float32Array): number[] {
  return Array.from(x.keys()).sort((i, j) => x[i]! - x[j]! || i - j);
}

function hostCumsum(x: Float32Array): Float32Array {
  let s = 0;
  return x.map((v) => (s += v));
}

cudaTest(
  "sort, argsort and cumsum captured into a graph give the host's results at every replay, with larger eager sorts and scans on the same stream between replays",
  () => {
    cudaContext();
    ga.useBackend("cuda");
    using stream = new cuda.Stream();
    const x = ga.toGpu(data(N, 0)), big = ga.toGpu(data(BIG, 1));
    ga.withStream(stream, () => {
      for (const a of [ga.sort(x), ga.argsort(x), ga.cumsum(x)]) a.free();
    });
    let sorted: ga.GPUArray | undefined, order: ga.GPUArray | undefined, sums: ga.GPUArray | undefined;
    using graph = cuda.capture(stream, () =>
      ga.withStream(stream, () => {
        sorted = ga.sort(x);
        order = ga.argsort(x);
        sums = ga.cumsum(x);
      }));
    using exec = graph.instantiate();
    for (let replay = 0; replay < 3; replay++) {
      const host = data(N, 2 + replay);
      ga.withStream(stream, () => x.set(host));
      exec.launch(stream);
      const [s, o, c] = ga.withStream(stream, () => [sorted!.get(), order!.get(), sums!.get()]);
      const want = hostArgsort(host);
      assertValues(s as Float32Array, Float32Array.from(want, (i) => host[i]!), `sort, replay ${replay}`);
      assertValues(Array.from(o as BigInt64Array, Number), want, `argsort, replay ${replay}`);
      assertValues(c as Float32Array, hostCumsum(host), `cumsum, replay ${replay}`);
      // Eager work on the stream between replays: larger buffers for it, and more tiles counted.
      ga.withStream(stream, () => {
        const eager = [ga.sort(big), ga.argsort(big), ga.cumsum(big)];
        const hostBig = data(BIG, 1);
        assertValues(
          eager[2]!.get() as Float32Array,
          hostCumsum(hostBig),
          `eager cumsum after replay ${replay}`,
        );
        for (const a of eager) a.free();
      });
    }
    for (const a of [sorted, order, sums, x, big]) a?.free();
  },
);
