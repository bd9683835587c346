/**
 * The current stream of array work: argument checks and scoping (`ga.withStream()`, `ga.useStream()`,
 * `ga.currentStream()`), and OpenCL's refusals. Stream order and captures are in
 * stream_order_test.ts and stream_capture_test.ts.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { grid, jit } from "../../src/jit/mod.ts";
import { cudaContext, cudaProblem, cudaTest, openclProblem, openclTest } from "../_backends.ts";

const NOT_A_STREAM =
  /: pass a cuda\.Stream \(new cuda\.Stream\(\)\), or undefined for the legacy default stream$/;

Deno.test("ga.withStream() and ga.useStream() refuse anything but a cuda.Stream or undefined, naming it", () => {
  const cases: [unknown, string][] = [
    [null, "null"],
    [{}, "an Object"],
    [0, "a number"],
    ["stream", "a string"],
    [{ unsafeHandle: null }, "an Object"],
  ];
  for (const [value, shown] of cases) {
    assert.throws(() => ga.withStream(value as never, () => 1), {
      name: "TypeError",
      message: new RegExp(`^Cannot run array work on ${shown}${NOT_A_STREAM.source}`),
    }, `withStream(${shown})`);
    assert.throws(() => ga.useStream(value as never), {
      name: "TypeError",
      message: new RegExp(`^Cannot make current ${shown}${NOT_A_STREAM.source}`),
    }, `useStream(${shown})`);
    assert.equal(ga.currentStream(), undefined, `a refused useStream(${shown}) changes nothing`);
  }
});

Deno.test("ga.withStream() refuses a fn that is not a function, and calls nothing", () => {
  for (const fn of [undefined, 42, "x => x", {}]) {
    assert.throws(() => ga.withStream(undefined, fn as never), {
      name: "TypeError",
      message: /^Cannot run .* with a current stream: pass a function$/,
    });
  }
});

Deno.test("ga.withStream(undefined, fn) returns what fn returns, and passes its exception through", async () => {
  assert.equal(ga.currentStream(), undefined);
  assert.deepEqual(ga.withStream(undefined, () => [1, 2]), [1, 2]);
  assert.equal(await ga.withStream(undefined, () => Promise.resolve("later")), "later");
  const thrown = new RangeError("from inside");
  assert.throws(() =>
    ga.withStream(undefined, () => {
      throw thrown;
    }), (e) => e === thrown);
  await assert.rejects(ga.withStream(undefined, () => Promise.reject(thrown)), (e) => e === thrown);
  assert.equal(ga.currentStream(), undefined);
});

openclTest("a JIT launch on OpenCL arrays with a stream in its config is refused before it runs", () => {
  ga.useBackend("opencl");
  const addTo = jit({ a: "f32[]", v: "f32", n: "i32" }, (a, v, n) => {
    const i = grid(1);
    if (i < n) a[i] = a[i] + v;
  }, { name: "stream_test_add_to" });
  const a = ga.asarray([1, 2, 3, 4]);
  assert.throws(() => addTo.launch({ grid: 1, block: 4, stream: { unsafeHandle: null } }, a, 10, 4), {
    name: "TypeError",
    message:
      /^Cannot launch a kernel on opencl:\d+:\d+ .* with a CUDA stream: OpenCL arrays use their backend's own queue; leave out stream$/,
  });
  assert.deepEqual(a.get(), new Float32Array([1, 2, 3, 4]), "nothing ran");
  addTo.launch({ grid: 1, block: 4 }, a, 10, 4);
  assert.deepEqual(a.get(), new Float32Array([11, 12, 13, 14]), "the same launch without a stream runs");
});

cudaTest("ga.withStream() makes its stream current inside only, nested, and after an exception", () => {
  cudaContext();
  using s1 = new cuda.Stream(), s2 = new cuda.Stream();
  assert.equal(ga.currentStream(), undefined, "outside: the legacy default stream");
  const seen = ga.withStream(s1, () => {
    assert.equal(ga.currentStream(), s1, "inside withStream(s1)");
    ga.withStream(s2, () => assert.equal(ga.currentStream(), s2, "inside a nested withStream(s2)"));
    assert.equal(ga.currentStream(), s1, "back from the nested call");
    assert.throws(() =>
      ga.withStream(s2, () => {
        throw new Error("boom");
      }), /boom/);
    assert.equal(ga.currentStream(), s1, "back from a nested call that threw");
    ga.withStream(undefined, () => assert.equal(ga.currentStream(), undefined, "withStream(undefined)"));
    ga.useStream(s2);
    assert.equal(ga.currentStream(), s2, "useStream() inside changes the stream of the call");
    return "done";
  });
  assert.equal(seen, "done");
  assert.equal(ga.currentStream(), undefined, "useStream() inside lasted until the call returned");
  ga.useStream(s1);
  try {
    assert.equal(ga.currentStream(), s1, "useStream() outside any call");
    ga.withStream(s2, () => assert.equal(ga.currentStream(), s2));
    assert.equal(ga.currentStream(), s1, "withStream() restores the stream useStream() set");
  } finally {
    ga.useStream(undefined);
  }
  assert.equal(ga.currentStream(), undefined);
});

cudaTest(
  "an async fn keeps its stream across awaits, apart from another running at the same time",
  async () => {
    cudaContext();
    using s1 = new cuda.Stream(), s2 = new cuda.Stream();
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const run = (stream: cuda.Stream) =>
      ga.withStream(stream, async () => {
        const seen: (cuda.Stream | undefined)[] = [];
        for (let i = 0; i < 5; i++) {
          seen.push(ga.currentStream());
          await tick();
        }
        return seen;
      });
    const first = run(s1), second = run(s2);
    assert.equal(ga.currentStream(), undefined, "the caller's stream is back once the async fns are waiting");
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual(a, Array(5).fill(s1));
    assert.deepEqual(b, Array(5).fill(s2));
    await assert.rejects(
      ga.withStream(s1, async () => {
        await tick();
        throw new Error("late");
      }),
      /late/,
    );
    assert.equal(ga.currentStream(), undefined);
  },
);

cudaTest("ga.withStream() and ga.useStream() refuse a destroyed stream", () => {
  cudaContext();
  const stream = new cuda.Stream();
  stream.destroy();
  const gone =
    /^Cannot (run array work on|make current) a cuda\.Stream that was destroyed or whose context was reset: create a new one$/;
  assert.throws(() => ga.withStream(stream, () => 1), { name: "TypeError", message: gone });
  assert.throws(() => ga.useStream(stream), { name: "TypeError", message: gone });
  ga.useBackend("cuda");
  const x = ga.asarray([1, 2]);
  const current = new cuda.Stream();
  ga.withStream(current, () => {
    current.destroy(); // destroyed while current
    assert.throws(() => x.add(1, { out: x }), {
      name: "TypeError",
      message:
        /^Cannot launch a kernel: the current stream was destroyed \(or its context reset\); make a live stream current/,
    });
  });
  assert.deepEqual(x.get(), new Float32Array([1, 2]), "nothing ran");
});

Deno.test({
  name: `OpenCL array work while a CUDA stream is current is refused, naming the device${
    cudaProblem ?? openclProblem ? " [ignored: needs both CUDA and OpenCL]" : ""
  }`,
  ignore: cudaProblem !== undefined || openclProblem !== undefined,
  fn: () => {
    ga.useBackend("opencl");
    const x = ga.asarray([1, 2, 3]);
    cudaContext();
    using stream = new cuda.Stream();
    const refused = {
      name: "TypeError",
      message:
        /^Cannot .* on opencl:\d+:\d+ .* while a CUDA stream is current \(ga\.withStream\(\) or ga\.useStream\(\)\): OpenCL arrays use their backend's own queue/,
    };
    ga.withStream(stream, () => {
      assert.throws(() => x.add(1, { out: x }), refused, "a kernel");
      assert.throws(() => x.get(), refused, "a host read");
      assert.throws(() => ga.zeros(3), refused, "an allocation");
      assert.throws(() => x.sum(), refused, "a reduction");
    });
    assert.deepEqual(x.get(), new Float32Array([1, 2, 3]), "nothing ran, and outside the work runs");
  },
});
