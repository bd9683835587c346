import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import { openclProblem, openclTest } from "../_backends.ts";

/** Every OpenCL device here, each with whether it records command buffers. */
function allDevices(): cl.Device[] {
  return cl.getPlatforms().flatMap((p) => p.getDevices());
}

const supporting = openclProblem === undefined
  ? allDevices().find((d) => cl.CommandBuffer.isSupported(d))
  : undefined;

/** A test that needs a device with cl_khr_command_buffer; ignored, with the reason, where there is none. */
function commandBufferTest(name: string, fn: (queue: cl.CommandQueue) => void | Promise<void>): void {
  Deno.test({
    name: supporting !== undefined
      ? name
      : `${name} [ignored: no OpenCL device with cl_khr_command_buffer${
        openclProblem === undefined ? "" : ": no OpenCL"
      }]`,
    ignore: supporting === undefined,
    fn: () => fn(new cl.CommandQueue(new cl.Context(supporting!))),
  });
}

const SOURCE = `
__kernel void add_to(__global int *x, int by, int n) {
  int i = get_global_id(0);
  if (i < n) x[i] += by;
}`;

const N = 257;

function setup(queue: cl.CommandQueue) {
  const addTo = new cl.Program(queue.context, SOURCE).build().getKernel("add_to");
  const upload = (host: Int32Array) => {
    const buf = new cl.Buffer(queue.context, host.byteLength);
    cl.enqueueCopy(queue, buf, host);
    return buf;
  };
  const download = (buf: cl.Buffer) => {
    const out = new Int32Array(N);
    cl.enqueueCopy(queue, out, buf);
    queue.finish();
    return out;
  };
  return { addTo, upload, download };
}

function ramp(offset = 0): Int32Array {
  return Int32Array.from({ length: N }, (_, i) => (i % 11) + offset);
}

commandBufferTest(
  "cl.capture() records 100 launches that replay 10 times, each with the arguments it was recorded with",
  (queue) => {
    const { addTo, upload, download } = setup(queue);
    const a0 = ramp(), b0 = ramp(1000);
    using a = upload(a0), b = upload(b0);
    using steps = cl.capture(queue, () => {
      for (let t = 0; t < 100; t++) addTo.launch(queue, [N], null, t % 2 === 0 ? a : b, (t % 7) + 1, N);
    });
    assert.equal(steps.commandCount, 100);
    assert.deepEqual(download(a), a0, "nothing recorded has run before the first launch");
    for (let r = 0; r < 10; r++) steps.launch();
    queue.finish();
    let sumA = 0, sumB = 0;
    for (let t = 0; t < 100; t++) {
      if (t % 2 === 0) sumA += (t % 7) + 1;
      else sumB += (t % 7) + 1;
    }
    assert.deepEqual(download(a), a0.map((v) => v + 10 * sumA));
    assert.deepEqual(download(b), b0.map((v) => v + 10 * sumB));
    addTo.launch(queue, [N], null, a, 1, N); // the queue runs launches again once the capture has ended
    queue.finish();
    assert.deepEqual(download(a), a0.map((v) => v + 10 * sumA + 1));
  },
);

commandBufferTest("cl.capture() of an async function records until its promise settles", async (queue) => {
  const { addTo, upload, download } = setup(queue);
  const x0 = ramp();
  using x = upload(x0);
  using steps = await cl.capture(queue, async () => {
    addTo.launch(queue, [N], null, x, 2, N);
    await new Promise((resolve) => setTimeout(resolve, 5));
    addTo.launch(queue, [N], null, x, 3, N);
  });
  assert.equal(steps.commandCount, 2);
  steps.launch(queue);
  queue.finish();
  assert.deepEqual(download(x), x0.map((v) => v + 5));
});

commandBufferTest(
  "an event-returning launch, a copy, a fill or finish() inside cl.capture() is a TypeError; the queue stays usable",
  (queue) => {
    const { addTo, upload, download } = setup(queue);
    const x0 = ramp();
    using x = upload(x0);
    const attempts: [string, () => unknown, RegExp][] = [
      [
        "kernel()",
        () => addTo(queue, [N], null, x, 1, N),
        /^Cannot return an Event for a launch of add_to\(\)/,
      ],
      [
        "enqueueCopy",
        () => cl.enqueueCopy(queue, x, new Int32Array(N)),
        /^Cannot queue a copy or fill while/,
      ],
      ["enqueueFillBuffer", () => cl.enqueueFillBuffer(queue, x, new Int32Array([0])), /copy or fill/],
      ["finish", () => queue.finish(), /^Cannot finish the queue while cl.capture\(\) records/],
    ];
    for (const [what, attempt, message] of attempts) {
      assert.throws(
        () =>
          cl.capture(queue, () => {
            addTo.launch(queue, [N], null, x, 1, N);
            attempt();
          }),
        { name: "TypeError", message },
        what,
      );
    }
    addTo.launch(queue, [N], null, x, 7, N);
    queue.finish();
    assert.deepEqual(download(x), x0.map((v) => v + 7), "only the launch after the failed captures ran");
  },
);

commandBufferTest("an exception inside cl.capture() drops the recording and is rethrown", async (queue) => {
  const { addTo, upload, download } = setup(queue);
  const x0 = ramp();
  using x = upload(x0);
  const boom = new Error("boom");
  assert.throws(() =>
    cl.capture(queue, () => {
      addTo.launch(queue, [N], null, x, 1, N);
      throw boom;
    }), (e: unknown) => e === boom);
  await assert.rejects(
    cl.capture(queue, async () => {
      await Promise.resolve();
      throw boom;
    }),
    (e: unknown) => e === boom,
  );
  assert.deepEqual(download(x), x0, "the dropped recordings never ran");
});

commandBufferTest("a released CommandBuffer, another queue, or a nested capture are TypeErrors", (queue) => {
  const { addTo, upload } = setup(queue);
  using x = upload(ramp());
  const steps = cl.capture(queue, () => addTo.launch(queue, [N], null, x, 1, N));
  const other = new cl.CommandQueue(queue.context);
  assert.throws(() => steps.launch(other), { name: "TypeError", message: /another queue/ });
  steps.release();
  steps.release();
  assert.throws(() => steps.launch(), {
    name: "TypeError",
    message: /^Cannot launch a CommandBuffer that was released/,
  });
  assert.throws(() => cl.capture(queue, () => cl.capture(queue, () => {})), {
    name: "TypeError",
    message: /being captured already/,
  });
  assert.throws(() => cl.capture(null as never, () => {}), {
    name: "TypeError",
    message: /pass a cl.CommandQueue/,
  });
  assert.throws(() => cl.capture(queue, "go" as never), { name: "TypeError", message: /pass a function/ });
  other.release();
});

openclTest(
  "CommandBuffer.isSupported() says which devices record command buffers; capturing elsewhere says why",
  () => {
    for (const device of allDevices()) {
      const supported = cl.CommandBuffer.isSupported(device);
      assert.equal(typeof supported, "boolean");
      if (supported) assert.ok(device.extensions.includes("cl_khr_command_buffer"), `${device}`);
      using queue = new cl.CommandQueue(new cl.Context(device));
      if (supported) {
        using nothing = cl.capture(queue, () => {});
        assert.equal(nothing.commandCount, 0);
        nothing.launch();
        queue.finish();
      } else {
        assert.throws(() => cl.capture(queue, () => {}), {
          name: "TypeError",
          message:
            /^Cannot capture a queue of .*: .*cl_khr_command_buffer.*; check cl.CommandBuffer.isSupported\(device\)/,
        });
        queue.finish(); // not left recording
      }
    }
  },
);
