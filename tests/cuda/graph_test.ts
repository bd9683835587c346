import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaTest } from "../_backends.ts";

const SOURCE = `
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

const N = 1000;
const CFG = { grid: Math.ceil(N / 256), block: 256 };

function kernels() {
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
function ramp(n: number, offset = 0): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (i % 13) + offset);
}

function upload(host: Float32Array): cuda.DeviceAllocation {
  const dev = cuda.memAlloc(host.byteLength);
  cuda.memcpyHtoD(dev, host);
  return dev;
}

function download(dev: cuda.DeviceAllocation, n = N): Float32Array {
  const out = new Float32Array(n);
  cuda.memcpyDtoH(out, dev);
  return out;
}

/** `message` with the first element where `got` and `want` differ, or undefined when they are equal. */
function firstDifference(got: Float32Array, want: Float32Array): string | undefined {
  if (got.length !== want.length) return `length ${got.length}, want ${want.length}`;
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[i])) return `element ${i} is ${got[i]}, want ${want[i]}`;
  }
  return undefined;
}

function assertArrays(got: Float32Array, want: Float32Array, what: string): void {
  const diff = firstDifference(got, want);
  assert.equal(diff, undefined, `${what}: ${diff}`);
}

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

cudaTest("a freed GraphExec or Graph is refused with a TypeError; free() is idempotent", () => {
  const { fill } = kernels();
  using x = cuda.memAlloc(N * 4);
  using stream = new cuda.Stream();
  const graph = cuda.capture(stream, () => fill(x, 1, N, { ...CFG, stream }));
  const exec = graph.instantiate();
  exec.free();
  exec.free();
  assert.throws(() => exec.launch(stream), {
    name: "TypeError",
    message: /^Cannot launch a GraphExec that was freed/,
  });
  assert.throws(() => exec.upload(stream), TypeError);
  graph.free();
  graph.free();
  assert.throws(() => graph.instantiate(), {
    name: "TypeError",
    message: /^Cannot instantiate a Graph that was freed/,
  });
  assert.throws(() => graph.nodeCount, TypeError);
});

cudaTest(
  "a graph whose kernel's module was unloaded refuses to launch, and the stream stays usable",
  async () => {
    cudaContext();
    using other = new cuda.SourceModule(SOURCE);
    const mod = new cuda.SourceModule(SOURCE.replaceAll("add_to", "add_to_unloaded"));
    const addTo = mod.getFunction("add_to_unloaded");
    const x0 = ramp(N);
    using x = upload(x0);
    using stream = new cuda.Stream();
    using captured = cuda.capture(stream, () => addTo(x, 1, N, { ...CFG, stream }));
    using capturedExec = captured.instantiate();
    using built = new cuda.Graph();
    const node = built.addKernel(addTo, [x, 1, N], CFG);
    using builtExec = built.instantiate();
    mod.unload();
    const unloaded = {
      name: "TypeError",
      message: /add_to_unloaded\(\) in a graph: its module was unloaded/,
    };
    assert.throws(() => capturedExec.launch(stream), unloaded);
    assert.throws(() => builtExec.launch(stream), unloaded);
    assert.throws(() => captured.instantiate(), unloaded);
    assert.throws(() => builtExec.setKernelArgs(node, x, 2, N), unloaded);
    assert.throws(() => built.addKernel(addTo, [x, 1, N], CFG), unloaded);
    other.getFunction("add_to")(x, 4, N, { ...CFG, stream });
    await stream.completed();
    assertArrays(download(x), x0.map((v) => v + 4), "x: only the launch from the loaded module ran");
  },
);

cudaTest("a graph built node by node runs its memset, kernel and copies in dependency order", async () => {
  const { axpy, fill } = kernels();
  const xs = ramp(N);
  using x = upload(xs);
  using y = cuda.memAlloc(N * 4);
  using z = cuda.memAlloc(N * 4);
  using pinnedIn = cuda.pagelockedEmpty(N, "float32");
  using pinnedOut = cuda.pagelockedEmpty(N, "float32");
  pinnedIn.array.set(ramp(N, 1));
  pinnedOut.array.fill(-1);
  using graph = new cuda.Graph();
  const ones = graph.addMemset(y, 0x3f800000, N, { elementSize: 4 }); // y = 1.0f
  const load = graph.addMemcpy(x, pinnedIn); // x = pinnedIn, replacing what upload() put there
  const step = graph.addKernel(axpy, [y, x, 2, N], { ...CFG, after: [ones, load] }); // y += 2x
  const copy = graph.addMemcpy(z, y, N * 4, { after: [step] });
  const fetch = graph.addMemcpy(pinnedOut, z);
  graph.addDependency(copy, fetch);
  const spare = graph.addKernel(fill, [x, 9, N], CFG);
  graph.addDependency(step, spare); // x = 9 only after axpy has read it
  assert.equal(graph.nodeCount, 6);
  assert.deepEqual([ones.kind, load.kind, step.kind, copy.kind], ["memset", "memcpy", "kernel", "memcpy"]);
  assert.equal(String(step), "GraphNode(kernel axpy)");
  using stream = new cuda.Stream();
  using exec = graph.instantiate();
  exec.launch(stream);
  await stream.completed();
  const want = ramp(N, 1).map((v) => 1 + 2 * v);
  assertArrays(pinnedOut.array, want, "pinned output after one run (1 + 2x)");
  assertArrays(download(z), want, "z");
  assertArrays(download(x), new Float32Array(N).fill(9), "x after the last node");
  exec.launch(stream); // the memset resets y, so a second run gives the same
  await stream.completed();
  assertArrays(pinnedOut.array, want, "pinned output after a second run");
});

cudaTest(
  "exec.setKernelArgs() gives a kernel node new scalars and pointers without instantiating again",
  async () => {
    const { fill } = kernels();
    using x = cuda.memAlloc(N * 4), y = cuda.memAlloc(N * 4);
    cuda.memsetD32(x, 0, N);
    cuda.memsetD32(y, 0, N);
    using graph = new cuda.Graph();
    const node = graph.addKernel(fill, [x, 1.5, N], CFG);
    const clear = graph.addMemset(x, 0, 4, { after: [node] }); // x[0] = 0 after the fill
    using stream = new cuda.Stream();
    using exec = graph.instantiate();
    exec.launch(stream);
    await stream.completed();
    const xAfterFirst = download(x);
    assert.equal(xAfterFirst[N - 1], 1.5);
    exec.setKernelArgs(node, y, 2.5, N);
    exec.launch(stream);
    await stream.completed();
    assertArrays(download(y), new Float32Array(N).fill(2.5), "y after the new arguments");
    assert.equal(download(x)[N - 1], 1.5, "x is no longer written by the node");
    exec.setKernelArgs(node, x, -3, N - 1);
    exec.launch(stream);
    await stream.completed();
    const x3 = download(x);
    assert.equal(x3[N - 2], -3);
    assert.equal(x3[N - 1], 1.5, "n = N - 1 leaves the last element");
    assert.throws(() => exec.setKernelArgs(node, y, 1), {
      name: "TypeError",
      message: "Cannot set the arguments of fill(): it takes 3 arguments (x, v, n); got 2 arguments",
    });
    assert.throws(() => exec.setKernelArgs(node, y, "one", N), {
      name: "TypeError",
      message: /fill\(\) parameter 2 \(float v\)/,
    });
    assert.throws(() => exec.setKernelArgs(clear, x, 1, N), {
      name: "TypeError",
      message: /is not a kernel node/,
    });
    using another = new cuda.Graph();
    const foreign = another.addKernel(fill, [x, 1, N], CFG);
    assert.throws(() => exec.setKernelArgs(foreign, x, 1, N), {
      name: "TypeError",
      message: /not a node of the graph this GraphExec was instantiated from/,
    });
    graph.free();
    assert.throws(() => exec.setKernelArgs(node, x, 1, N), {
      name: "TypeError",
      message: /Graph that was freed/,
    });
    exec.launch(stream); // the instantiated graph does not need the Graph
    await stream.completed();
  },
);

cudaTest("exec.update() takes a same-shaped graph's parameters and names a changed topology", async () => {
  const { fill } = kernels();
  using x = cuda.memAlloc(N * 4), y = cuda.memAlloc(N * 4);
  using stream = new cuda.Stream();
  const build = (target: cuda.DeviceAllocation, v: number) =>
    cuda.capture(stream, () => fill(target, v, N, { ...CFG, stream }));
  using first = build(x, 1);
  using exec = first.instantiate();
  using second = build(y, 2);
  exec.update(second);
  exec.launch(stream);
  await stream.completed();
  assertArrays(download(y), new Float32Array(N).fill(2), "y after the update");
  using bigger = cuda.capture(stream, () => {
    fill(x, 3, N, { ...CFG, stream });
    fill(y, 4, N, { ...CFG, stream });
  });
  assert.throws(() => exec.update(bigger), (e: unknown) => {
    assert.ok(e instanceof cuda.CudaError, `expected a CudaError, got ${e}`);
    assert.equal(e.codeName, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE");
    assert.match(e.message, /topology differs from the instantiated graph's/);
    return true;
  });
  cuda.memsetD32(y, 0, N);
  exec.launch(stream); // unchanged by the failed update: still fill(y, 2)
  await stream.completed();
  assertArrays(download(y), new Float32Array(N).fill(2), "y after the failed update");
});

cudaTest("kernel nodes refuse host arrays, streams, foreign nodes and oversized launches", () => {
  const { fill } = kernels();
  using x = cuda.memAlloc(N * 4);
  using stream = new cuda.Stream();
  using graph = new cuda.Graph();
  using other = new cuda.Graph();
  const foreign = other.addMemset(x, 0, 4);
  assert.throws(() => graph.addKernel(fill, [cuda.In(new Float32Array(N)), 1, N], CFG), {
    name: "TypeError",
    message: /^Cannot pass a cuda.In\(\) host array to fill\(\) parameter 1 \(float \* x\) in a graph/,
  });
  assert.throws(() => graph.addKernel(fill, [x, 1, N], { ...CFG, stream } as never), {
    name: "TypeError",
    message: /with a stream in its config/,
  });
  assert.throws(() => graph.addKernel(fill, [x, 1, N], { ...CFG, after: [foreign] }), {
    name: "TypeError",
    message: /a node of another graph/,
  });
  assert.throws(() => graph.addKernel(fill, [x, 1], CFG), {
    name: "TypeError",
    message: "Cannot add a kernel node for fill(): it takes 3 arguments (x, v, n); got 2 arguments",
  });
  assert.throws(() => graph.addKernel((() => {}) as never, [], CFG), {
    name: "TypeError",
    message: /pass a kernel from module.getFunction\(\)/,
  });
  assert.throws(() => graph.addKernel(fill, [x, 1, N], { block: 1 << 20 }), RangeError);
  assert.throws(() => graph.addMemset(x, 256, 4), { name: "RangeError", message: /from 0 to 255/ });
  assert.throws(() => graph.addMemset(x, 0, N + 1, { elementSize: 4 }), RangeError);
  assert.throws(() => graph.addMemcpy(x, x, N * 4 + 4), RangeError);
  assert.equal(graph.nodeCount, 0, "nothing was added by the refused calls");
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
