import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaProblem, cudaTest as cudaHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertArrays, CFG, download, kernels, N, ramp, SOURCE, upload } from "./_graphs.ts";

// A capture on a blocking stream is invalidated by work on the legacy default stream anywhere in the
// process, other test files' Workers included (issue 35): capture in a process of its own.
const { cudaTest } = alone(import.meta.url, "it captures CUDA graphs", { cudaTest: cudaHere }, cudaProblem);

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
