/**
 * What a capture in progress refuses, checked without a GPU: the refusals happen before any driver
 * call, so a capture recorded by hand in cudeno's registry is enough to see them.
 */
import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import {
  captureBegan,
  captureEnded,
  captureOn,
  noteCapturedLaunch,
  releaseWhenNotCapturing,
} from "../../src/cuda/capturing.ts";

/** Runs `fn` while a capture (id 42) in `mode` is recorded as in progress on a stand-in stream. */
function whileCapturing(mode: cuda.CaptureMode, fn: (stream: object) => void): void {
  const stream = {};
  captureBegan(stream, mode, 42n);
  try {
    fn(stream);
  } finally {
    captureEnded(stream);
  }
}

const REFUSED = { name: "TypeError", message: /while a stream is capturing \(capture 42, mode "global"\): / };

Deno.test("cuda.capture() refuses anything but a cuda.Stream, naming the legacy default stream", () => {
  for (const notAStream of [undefined, null, {}, 0n]) {
    assert.throws(() => cuda.capture(notAStream as never, () => {}), {
      name: "TypeError",
      message:
        /^Cannot capture .*: pass a cuda.Stream \(the legacy default stream cannot be captured; create one/,
    });
  }
});

Deno.test("allocations, synchronous copies and sets are refused while a global capture is in progress", () => {
  whileCapturing("global", () => {
    const dst = 0x1000n; // never reached: the refusal comes first
    const attempts: [string, () => unknown, RegExp][] = [
      [
        "memAlloc",
        () => cuda.memAlloc(64),
        /^Cannot allocate device memory .*allocate before the capture begins/,
      ],
      [
        "memAllocAsync off the capturing stream",
        () => cuda.memAllocAsync(64),
        /^Cannot allocate device memory off the capturing stream .*memAllocAsync\(bytes, stream\) on the capturing stream/,
      ],
      ["pagelockedEmpty", () => cuda.pagelockedEmpty(64), /^Cannot allocate pinned host memory/],
      ["memcpyHtoD", () => cuda.memcpyHtoD(dst, new Uint8Array(4)), /memcpyHtoDAsync\(dst, src, stream\)/],
      ["memcpyDtoH", () => cuda.memcpyDtoH(new Uint8Array(4), dst), /memcpyDtoHAsync\(dst, src, stream\)/],
      ["memcpyDtoD", () => cuda.memcpyDtoD(dst, dst, 4), /memcpyDtoDAsync\(dst, src, bytes, stream\)/],
      ["memcpyPeer", () => cuda.memcpyPeer(dst, dst, 4), /memcpyPeerAsync/],
      ["memsetD8", () => cuda.memsetD8(dst, 0, 4), /pass the capturing stream as the last argument/],
      ["memsetD16", () => cuda.memsetD16(dst, 0, 4), /memsetD16\(\) and no stream/],
      ["memsetD32", () => cuda.memsetD32(dst, 0, 4), /memsetD32\(\) and no stream/],
    ];
    for (const [what, attempt, detail] of attempts) {
      assert.throws(attempt, REFUSED, what);
      assert.throws(attempt, { message: detail }, what);
    }
  });
});

Deno.test('a capture in mode "relaxed" refuses nothing: allocations go on to the driver', () => {
  whileCapturing("relaxed", () => {
    // Where no context is current the allocation fails further on, with the driver's error; where one
    // is (another test file made it so), it succeeds. Either way it is not refused.
    let refusal: unknown;
    try {
      cuda.memAlloc(64).free();
    } catch (e) {
      if (e instanceof TypeError) refusal = e;
    }
    assert.equal(refusal, undefined);
  });
});

Deno.test("frees asked for during a capture run once the last capture has ended", () => {
  const order: string[] = [];
  releaseWhenNotCapturing(() => order.push("now"));
  assert.deepEqual(order, ["now"], "with no capture in progress a release runs at once");
  const outer = {}, inner = {};
  captureBegan(outer, "global", 1n);
  captureBegan(inner, "threadLocal", 2n);
  releaseWhenNotCapturing(() => order.push("first"));
  releaseWhenNotCapturing(() => {
    throw new Error("a failing release does not stop the others");
  });
  releaseWhenNotCapturing(() => order.push("second"));
  captureEnded(inner);
  assert.deepEqual(order, ["now"], "one capture is still in progress");
  captureEnded(outer);
  assert.deepEqual(order, ["now", "first", "second"]);
});

Deno.test("launches into a capture leave their module and object arguments with the capture's record", () => {
  const stream = {}, elsewhere = {};
  const module = { checkLoaded() {} };
  const buffer = { device: "memory" };
  captureBegan(stream, "global", 7n);
  try {
    noteCapturedLaunch(stream, module, "step", [buffer, 3, 2.5, buffer], 4);
    noteCapturedLaunch(elsewhere, module, "other", [{}], 1); // not capturing: ignored
    const record = captureOn(stream)!;
    assert.deepEqual([...record.kernels], [[module, "step"]]);
    assert.deepEqual([...record.keep], [buffer], "numbers are not kept; one object once");
    assert.equal(record.id, 7n);
  } finally {
    captureEnded(stream);
  }
  assert.equal(captureOn(stream), undefined);
});
