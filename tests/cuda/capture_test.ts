import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertArrays, CFG, download, kernels, N, ramp, upload } from "./_graphs.ts";

// A capture on a blocking stream is invalidated by work on the legacy default stream anywhere in the
// process, other test files' Workers included (issue 35): capture in a process of its own.
const { cudaTest } = alone(import.meta.url, "it captures CUDA graphs", { cudaTest: cudaHere }, cudaProblem);

cudaTest(
  "cuda.capture() records 100 launches into one graph that runs nothing until it is launched",
  async () => {
    const { addTo } = kernels();
    const a0 = ramp(N), b0 = ramp(N, 100);
    using a = upload(a0), b = upload(b0);
    using stream = new cuda.Stream();
    using graph = cuda.capture(stream, () => {
      for (let t = 0; t < 100; t++) addTo(t % 2 === 0 ? a : b, (t % 7) + 1, N, { ...CFG, stream });
    });
    assert.equal(graph.nodeCount, 100, "one node per captured launch");
    await stream.completed();
    assertArrays(download(a), a0, "a after the capture, before any launch (nothing may have run)");
    using exec = graph.instantiate();
    exec.upload(stream);
    for (let r = 0; r < 10; r++) exec.launch(stream);
    await stream.completed();
    let sumA = 0, sumB = 0;
    for (let t = 0; t < 100; t++) {
      if (t % 2 === 0) sumA += (t % 7) + 1;
      else sumB += (t % 7) + 1;
    }
    assertArrays(download(a), a0.map((v) => v + 10 * sumA), "a after 10 replays");
    assertArrays(download(b), b0.map((v) => v + 10 * sumB), "b after 10 replays");
  },
);

cudaTest("stream.beginCapture() and endCapture() bracket a capture, and captureStatus follows it", () => {
  const { addTo } = kernels();
  const x0 = ramp(N);
  using x = upload(x0);
  using stream = new cuda.Stream();
  assert.equal(stream.captureStatus, "none");
  stream.beginCapture({ mode: "global" });
  let graph: cuda.Graph;
  try {
    assert.equal(stream.captureStatus, "active");
    addTo(x, 3, N, { ...CFG, stream });
    addTo(x, 4, N, { ...CFG, stream });
  } finally {
    graph = stream.endCapture();
  }
  using g = graph;
  assert.equal(stream.captureStatus, "none");
  assert.equal(g.nodeCount, 2);
  using exec = g.instantiate();
  exec.launch(stream);
  stream.synchronize();
  assertArrays(download(x), x0.map((v) => v + 7), "x after one replay of +3, +4");
  assert.throws(() => stream.endCapture(), { name: "TypeError", message: /none was begun on it/ });
});

cudaTest("cuda.capture() of an async function ends the capture once its promise settles", async () => {
  const { addTo } = kernels();
  const x0 = ramp(N);
  using x = upload(x0);
  using stream = new cuda.Stream();
  using graph = await cuda.capture(stream, async () => {
    addTo(x, 1, N, { ...CFG, stream });
    await new Promise((resolve) => setTimeout(resolve, 5));
    addTo(x, 2, N, { ...CFG, stream });
  });
  assert.equal(stream.captureStatus, "none");
  assert.equal(graph.nodeCount, 2);
  using exec = graph.instantiate();
  exec.launch(stream);
  exec.launch(stream);
  await stream.completed();
  assertArrays(download(x), x0.map((v) => v + 6), "x after two replays of +1, +2");
});

cudaTest(
  "an exception inside cuda.capture() aborts the capture, is rethrown, and leaves the stream usable",
  async () => {
    const { addTo } = kernels();
    const x0 = ramp(N);
    using x = upload(x0);
    using stream = new cuda.Stream();
    const boom = new Error("boom");
    assert.throws(
      () =>
        cuda.capture(stream, () => {
          addTo(x, 1, N, { ...CFG, stream });
          throw boom;
        }),
      (e: unknown) => e === boom,
    );
    assert.equal(stream.captureStatus, "none");
    await assert.rejects(
      cuda.capture(stream, async () => {
        addTo(x, 1, N, { ...CFG, stream });
        await Promise.resolve();
        throw boom;
      }),
      (e: unknown) => e === boom,
    );
    assert.equal(stream.captureStatus, "none");
    addTo(x, 5, N, { ...CFG, stream }); // runs now: the stream is not capturing
    await stream.completed();
    assertArrays(
      download(x),
      x0.map((v) => v + 5),
      "x: only the eager launch after the aborted captures ran",
    );
  },
);

cudaTest("capturing anything but a cuda.Stream, or in an unknown mode, is refused before the driver", () => {
  kernels();
  using stream = new cuda.Stream();
  assert.throws(() => cuda.capture(undefined as never, () => {}), {
    name: "TypeError",
    message: /^Cannot capture undefined: pass a cuda.Stream \(the legacy default stream cannot be captured/,
  });
  assert.throws(() => cuda.capture(stream, 42 as never), { name: "TypeError", message: /pass a function/ });
  assert.throws(() => cuda.capture(stream, () => {}, { mode: "loose" as never }), {
    name: "RangeError",
    message: /mode "loose": use "global", "threadLocal" or "relaxed"/,
  });
  assert.equal(stream.captureStatus, "none");
});

cudaTest(
  "a launch on the legacy default stream inside a capture is a CudaError, and the stream is usable after",
  async () => {
    const { addTo } = kernels();
    const x0 = ramp(N);
    using x = upload(x0);
    using stream = new cuda.Stream();
    assert.throws(
      () =>
        cuda.capture(stream, () => {
          addTo(x, 1, N, { ...CFG, stream });
          addTo(x, 1, N, CFG); // no stream: the legacy default stream, which cannot join the capture
        }),
      (e: unknown) => {
        assert.ok(e instanceof cuda.CudaError, `expected a CudaError, got ${e}`);
        assert.ok(
          e.code >= 900 && e.code <= 908,
          `expected a stream-capture CUresult (900-908), got ${e.code} ${e.codeName}`,
        );
        return true;
      },
    );
    assert.equal(stream.captureStatus, "none");
    using graph = cuda.capture(stream, () => addTo(x, 2, N, { ...CFG, stream }));
    using exec = graph.instantiate();
    exec.launch(stream);
    await stream.completed();
    assertArrays(
      download(x),
      x0.map((v) => v + 2),
      "x after the failed capture and a good one replayed once",
    );
  },
);

cudaTest(
  "synchronous copies, sets, allocations and synchronizing inside a capture are TypeErrors that leave the capture intact",
  async () => {
    const { addTo } = kernels();
    const x0 = ramp(N);
    using x = upload(x0);
    using other = cuda.memAlloc(N * 4);
    using stream = new cuda.Stream();
    const refused: string[] = [];
    using graph = cuda.capture(stream, () => {
      addTo(x, 1, N, { ...CFG, stream });
      const attempts: [string, () => unknown][] = [
        ["memcpyHtoD", () => cuda.memcpyHtoD(other, x0)],
        ["memcpyDtoH", () => cuda.memcpyDtoH(new Float32Array(N), other)],
        ["memcpyDtoD", () => cuda.memcpyDtoD(other, x)],
        ["memsetD32", () => cuda.memsetD32(other, 0, N)],
        ["memAlloc", () => cuda.memAlloc(64)],
        ["pagelockedEmpty", () => cuda.pagelockedEmpty(16)],
        ["synchronize", () => cuda.synchronize()],
        ["stream.synchronize", () => stream.synchronize()],
        ["stream.isDone", () => stream.isDone()],
      ];
      for (const [what, attempt] of attempts) {
        assert.throws(attempt, (e: unknown) => {
          assert.ok(e instanceof TypeError, `${what} inside a capture: expected a TypeError, got ${e}`);
          assert.match(
            e.message,
            /^Cannot .* (while a stream is capturing \(capture \d+|while it is capturing)/,
            what,
          );
          refused.push(what);
          return true;
        });
      }
      addTo(x, 2, N, { ...CFG, stream });
    });
    assert.equal(refused.length, 9);
    assert.equal(graph.nodeCount, 2, "the refused calls added nothing and broke nothing");
    using exec = graph.instantiate();
    exec.launch(stream);
    await stream.completed();
    assertArrays(download(x), x0.map((v) => v + 3), "x after one replay");
    await assert.rejects(
      cuda.capture(stream, async () => {
        await stream.completed();
      }),
      { name: "TypeError", message: /Cannot wait for a stream while it is capturing/ },
    );
  },
);

cudaTest(
  'a capture in mode "relaxed" lets allocations through, and frees inside a capture wait for its end',
  async () => {
    const { addTo } = kernels();
    const x0 = ramp(N);
    using x = upload(x0);
    using stream = new cuda.Stream();
    const before = cuda.memAlloc(4096);
    let inside: cuda.DeviceAllocation | undefined;
    using graph = cuda.capture(stream, () => {
      inside = cuda.memAlloc(4096);
      before.free(); // deferred until the capture has ended: a free now would break it
      assert.equal(before.freed, true);
      addTo(x, 1, N, { ...CFG, stream });
    }, { mode: "relaxed" });
    inside?.free();
    assert.ok(inside !== undefined);
    assert.equal(graph.nodeCount, 1);
    using exec = graph.instantiate();
    exec.launch(stream);
    await stream.completed();
    assertArrays(download(x), x0.map((v) => v + 1), "x after one replay");
  },
);

cudaTest("beginCapture() on a capturing stream and endCapture() without one are TypeErrors", () => {
  kernels();
  using stream = new cuda.Stream();
  assert.throws(() => stream.endCapture(), { name: "TypeError", message: /none was begun on it/ });
  stream.beginCapture();
  try {
    assert.throws(() => stream.beginCapture(), { name: "TypeError", message: /capturing already/ });
  } finally {
    stream.endCapture().free();
  }
  assert.equal(stream.captureStatus, "none");
});

cudaTest(
  "a captured graph keeps the memory its launches were given alive after the arrays are dropped",
  async () => {
    const { addTo } = kernels();
    using stream = new cuda.Stream();
    using x = cuda.memAlloc(N * 4);
    cuda.memsetD32(x, 0, N);
    using graph = (() => {
      const scratch = cuda.memAlloc(N * 4); // referenced by the graph only, after this function returns
      cuda.memsetD32(scratch, 0, N);
      return cuda.capture(stream, () => {
        addTo(scratch, 1, N, { ...CFG, stream });
        addTo(x, 1, N, { ...CFG, stream });
      });
    })();
    for (let i = 0; i < 3; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    using exec = graph.instantiate();
    exec.launch(stream);
    await stream.completed();
    assertArrays(download(x), new Float32Array(N).fill(1), "x after one replay");
  },
);
