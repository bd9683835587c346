/**
 * Array work captured into CUDA graphs through `ga.withStream()`: replays give the eager results,
 * arrays made in a capture are memory nodes, and what cannot be captured (host reads, host copies,
 * work on the legacy default stream) is refused before anything is queued, leaving the capture and
 * the stream usable. CUDA only. Every kernel runs once before it is captured, as PyTorch asks too.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { grid, jit } from "../../src/jit/mod.ts";
import { cudaContext, cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertValues, hostMatmul, ramp } from "./_streams.ts";

// A capture on a blocking stream is invalidated by work on the legacy default stream anywhere in the
// process, other test files' Workers included (issue 35): capture in a process of its own.
const { cudaTest } = alone(import.meta.url, "it captures CUDA graphs", { cudaTest: cudaHere }, cudaProblem);

const ROWS = 20, COLS = 50, N = ROWS * COLS;

function start(): cuda.Stream {
  cudaContext();
  ga.useBackend("cuda");
  return new cuda.Stream();
}

interface Arrays {
  x: ga.GPUArray<"float32">;
  y: ga.GPUArray<"float32">;
  w: ga.GPUArray<"float32">;
}

function arrays(): Arrays {
  return { x: ga.toGpu(ramp(N), [ROWS, COLS]), y: ga.zeros([ROWS, COLS]), w: ga.zeros([ROWS, COLS]) };
}

/** One step: in-place work, work into existing arrays, and a temporary from a strided view, freed. */
function step({ x, y, w }: Arrays): void {
  x.add(1, { out: x });
  ga.mul(x, 2, { out: y });
  const t = x.T.mul(3); // made inside a capture: a memory node
  const back = t.T; // a view: it holds t's memory too, until freed
  ga.add(back, y, { out: w }); // w = 3x + 2x
  back.free();
  t.free(); // the last holder let go inside a capture: a free node, so the graph can run again
}

cudaTest("array work captured through ga.withStream() and replayed 3 times equals 3 eager steps", () => {
  using stream = start();
  const eager = arrays(), replayed = arrays();
  ga.withStream(stream, () => {
    for (let i = 0; i < 3; i++) step(eager);
  });
  using graph = cuda.capture(stream, () => ga.withStream(stream, () => step(replayed)));
  assert.equal(
    graph.nodeCount,
    6,
    "the graph holds 4 kernels, the temporary's allocation and its free",
  );
  stream.synchronize();
  assertValues(replayed.x.get(), ramp(N), "x after the capture, before any launch (nothing ran)");
  using exec = graph.instantiate();
  for (let i = 0; i < 3; i++) exec.launch(stream);
  stream.synchronize();
  const x3 = ramp(N).map((v) => v + 3);
  for (const [name, want] of [["x", x3], ["y", x3.map((v) => 2 * v)], ["w", x3.map((v) => 5 * v)]] as const) {
    const e = eager[name].get(), r = replayed[name].get();
    assertValues(e, want, `${name} after 3 eager steps (host reference)`);
    assertValues(r, e, `${name} after 3 replays (the eager result)`);
  }
});

cudaTest(
  "arrays made inside a capture are memory nodes: each launch leaves its result in them, and relaunches work",
  () => {
    using stream = start();
    const x = ga.toGpu(ramp(N));
    ga.withStream(stream, () => {
      x.mul(2).add(1);
      ga.random.uniform([N], { seed: 3 });
    });
    let out: ga.GPUArray<"float32"> | undefined, drawn: ga.GPUArray<"float32"> | undefined;
    using graph = cuda.capture(stream, () =>
      ga.withStream(stream, () => {
        out = x.mul(2).add(1); // two allocations (one a temporary dropped without free)
        drawn = ga.random.uniform([N], { seed: 3 });
      }));
    using exec = graph.instantiate();
    exec.launch(stream);
    const first = ga.withStream(stream, () => out!.get());
    assertValues(first, ramp(N).map((v) => 2 * v + 1), "out after the first launch");
    const address = (out!.buffer as cuda.DeviceAllocation).ptr;
    ga.withStream(stream, () => x.set(ramp(N, 5)));
    // The graph's memory from the first launch is still held (out is alive): the relaunch frees it first.
    exec.launch(stream);
    assertValues(
      ga.withStream(stream, () => out!.get()),
      ramp(N, 5).map((v) => 2 * v + 1),
      "out after a relaunch",
    );
    assert.equal((out!.buffer as cuda.DeviceAllocation).ptr, address, "a memory node keeps its address");
    assertValues(
      ga.withStream(stream, () => drawn!.get()),
      ga.random.uniform([N], { seed: 3 }).get(),
      "a random draw in the graph gives the seed's numbers",
    );
    out!.free(); // after a launch: the memory goes back for real
    exec.launch(stream);
    stream.synchronize();
    assertValues(
      ga.withStream(stream, () => x.mul(2).add(1).get()),
      ramp(N, 5).map((v) => 2 * v + 1),
      "eager after",
    );
  },
);

cudaTest(
  "a host read inside a capture is refused before anything is queued, naming the capture; the capture goes on",
  async () => {
    using stream = start();
    const x = ga.toGpu(ramp(N), [ROWS, COLS]);
    ga.withStream(stream, () => x.add(0, { out: x }));
    stream.synchronize();
    const refused = (call: string) => ({
      name: "TypeError",
      message: new RegExp(
        `^Cannot return the result of ${
          call.replace(/[()]/g, "\\$&")
        } to the host while the current stream is capturing \\(capture \\d+\\): a capture records work without running it, so there is no result yet; launch the graph, then read$`,
      ),
    });
    stream.beginCapture();
    let graph: cuda.Graph;
    try {
      await ga.withStream(stream, async () => {
        x.add(1, { out: x });
        assert.throws(() => x.get(), refused("get()"));
        assert.throws(() => x.T.get(), refused("get()"), "a strided view: refused before its copy");
        assert.throws(() => x.sum(), refused("sum()"), "a whole-array sum");
        await assert.rejects(x.getAsync(), refused("getAsync()"));
        assert.equal(stream.captureStatus, "active", "the capture is still valid");
      });
    } finally {
      graph = stream.endCapture();
    }
    using g = graph;
    assert.equal(g.nodeCount, 1, "only the add was recorded: the refused reads queued nothing");
    using exec = g.instantiate();
    exec.launch(stream);
    assertValues(ga.withStream(stream, () => x.get()), ramp(N).map((v) => v + 1), "x after one launch");
    assert.equal(ga.withStream(stream, () => x.sum()), ramp(N).reduce((s, v) => s + v + 1, 0));
  },
);

cudaTest(
  "calls that read a result's size or an index check on the host are refused inside a capture before anything is queued, naming the call",
  () => {
    using stream = start();
    const x = ga.toGpu(ramp(N), [ROWS, COLS]);
    const idx = ga.asarray([0, 1], "int64"), m = x.gt(5);
    ga.withStream(stream, () => x.add(0, { out: x }));
    stream.synchronize();
    const refused = (call: string, reads: string) => ({
      name: "TypeError",
      message: new RegExp(
        `^Cannot run ${call}\\(\\) while the current stream is capturing \\(capture \\d+\\): it reads ${reads} on the host, which a capture cannot give \\(it records work without running it\\); run ${call}\\(\\) before or after the capture$`,
      ),
    });
    const size = "the size of its result", range = "whether an index is out of range";
    stream.beginCapture();
    let graph: cuda.Graph;
    try {
      ga.withStream(stream, () => {
        x.add(1, { out: x });
        assert.throws(() => ga.nonzero(x), refused("nonzero", size));
        assert.throws(() => ga.argwhere(x), refused("argwhere", size));
        assert.throws(() => ga.compress([true, false], x, 0), refused("compress", size));
        assert.throws(() => ga.mask(x, m), refused("mask", size));
        assert.throws(() => ga.unique(x), refused("unique", size));
        assert.throws(() => ga.take(x, idx), refused("take", range));
        assert.throws(() => ga.put(x, idx, 0), refused("put", range));
      });
    } finally {
      graph = stream.endCapture();
    }
    using g = graph;
    assert.equal(g.nodeCount, 1, "only the add was recorded: the refused calls queued nothing");
    using exec = g.instantiate();
    exec.launch(stream);
    assertValues(ga.withStream(stream, () => x.get()), ramp(N).map((v) => v + 1), "x after one launch");
    assert.equal(ga.withStream(stream, () => ga.nonzero(x)[0]!.size), N, "nonzero() after the capture");
  },
);

cudaTest("a host read that ends cuda.capture() with an error leaves the stream usable", () => {
  using stream = start();
  const x = ga.toGpu(ramp(N));
  ga.withStream(stream, () => x.add(0, { out: x }));
  let lost: ga.GPUArray | undefined;
  assert.throws(
    () =>
      cuda.capture(stream, () =>
        ga.withStream(stream, () => {
          x.add(1, { out: x });
          lost = x.mul(2); // memory of a capture given up: never really taken
          return x.get();
        })),
    {
      name: "TypeError",
      message:
        /^Cannot return the result of get\(\) to the host while the current stream is capturing \(capture \d+\)/,
    },
  );
  assert.equal(stream.captureStatus, "none");
  lost!.free(); // never throws; gives nothing back
  const back = ga.withStream(stream, () => {
    x.add(1, { out: x });
    return x.mul(2).get();
  });
  assertValues(back, ramp(N).map((v) => 2 * (v + 1)), "work after the capture (the captured add never ran)");
});

cudaTest(
  "host copies and legacy-stream array work during a capture are refused; the capture stays valid",
  () => {
    using stream = start();
    const x = ga.toGpu(ramp(N));
    ga.withStream(stream, () => x.add(0, { out: x }));
    stream.synchronize();
    stream.beginCapture();
    let graph: cuda.Graph;
    try {
      ga.withStream(stream, () => {
        assert.throws(() => x.set(ramp(N, 9)), {
          name: "TypeError",
          message:
            /^Cannot copy host data into an array while the current stream is capturing \(capture \d+\): a graph cannot copy from pageable host memory; copy it before the capture begins$/,
        });
      });
      const legacy = (action: string) => ({
        name: "TypeError",
        message: new RegExp(
          `^Cannot ${action} on the legacy default stream while a stream is capturing \\(capture \\d+, mode "threadLocal"\\): run array work inside ga\\.withStream\\(stream, fn\\) with the capturing stream`,
        ),
      });
      assert.throws(() => x.add(1, { out: x }), legacy("launch a kernel"), "outside ga.withStream()");
      assert.throws(() => ga.zeros(4), legacy("allocate an array"));
      assert.equal(stream.captureStatus, "active");
    } finally {
      graph = stream.endCapture();
    }
    using g = graph;
    assert.equal(g.nodeCount, 0, "nothing was recorded");
    assertValues(x.get(), ramp(N), "x is as it was");
  },
);

cudaTest("ga.matmul() captured on a stream replays cuBLAS's product of the arrays' current values", () => {
  using stream = start();
  const m = 64, k = 48, n = 40;
  const a = ga.toGpu(ramp(m * k), [m, k]), b = ga.toGpu(ramp(k * n, 1), [k, n]);
  const c = ga.zeros([m, n]);
  ga.withStream(stream, () => ga.matmul(a, b, { out: c })); // cuBLAS set to the stream, with its workspace
  stream.synchronize();
  c.fill(0);
  using graph = cuda.capture(stream, () => ga.withStream(stream, () => ga.matmul(a, b, { out: c })));
  stream.synchronize();
  assertValues(c.get(), new Float32Array(m * n), "c after the capture, before any launch");
  using exec = graph.instantiate();
  exec.launch(stream);
  stream.synchronize();
  assertValues(c.get(), hostMatmul(ramp(m * k), ramp(k * n, 1), m, k, n), "c after a launch");
  a.set(ramp(m * k, 4));
  exec.launch(stream);
  stream.synchronize();
  assertValues(c.get(), hostMatmul(ramp(m * k, 4), ramp(k * n, 1), m, k, n), "c after a launch with new a");
  assertValues(ga.matmul(a, b).get(), c.get(), "an eager product outside, on the legacy default stream");
});

const addTo = jit({ a: "f32[]", v: "f32", n: "i32" }, (a, v, n) => {
  const i = grid(1);
  if (i < n) a[i] = a[i] + v;
}, { name: "stream_capture_add_to" });

cudaTest(
  "JIT launches inside a capture through ga.withStream() are recorded on the stream and replay",
  () => {
    using stream = start();
    const a = ga.toGpu(ramp(N));
    const config = { grid: Math.ceil(N / 256), block: 256 };
    addTo.launch(config, ga.zeros(N), 0, N);
    cuda.synchronize();
    using graph = cuda.capture(stream, () =>
      ga.withStream(stream, () => {
        addTo.launch(config, a, 2, N);
        addTo.launch(config, a, 3, N);
      }));
    assert.equal(graph.nodeCount, 2);
    using exec = graph.instantiate();
    for (let i = 0; i < 4; i++) exec.launch(stream);
    stream.synchronize();
    assertValues(a.get(), ramp(N).map((v) => v + 20), "a after 4 replays of +2, +3");
  },
);

cudaTest(
  "work whose kernel was never compiled is refused inside a capture, asking to run it once first",
  () => {
    using stream = start();
    const host = Uint16Array.from({ length: 15 }, (_, i) => i * 1000);
    const x = ga.toGpu(host, [3, 5]);
    const xor = () => x.T.bitwiseXor(0x1234, { out: x.T }); // a kernel no other test compiles
    stream.beginCapture();
    let graph: cuda.Graph;
    try {
      ga.withStream(stream, () => {
        assert.throws(xor, {
          name: "TypeError",
          message:
            /^Cannot compile a kernel for its first launch while a stream is capturing \(capture \d+, mode "threadLocal"\): run the same work once before the capture begins, so that its kernels are compiled$/,
        });
      });
      assert.equal(stream.captureStatus, "active");
    } finally {
      graph = stream.endCapture();
    }
    graph.free();
    ga.withStream(stream, xor); // eagerly: compiles it
    using captured = cuda.capture(stream, () => ga.withStream(stream, xor)); // now it captures
    using exec = captured.instantiate();
    exec.launch(stream); // two xors with the same value: back where it started
    assertValues(ga.withStream(stream, () => x.get()), host, "x after an eager xor and a replayed one");
  },
);
