import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

// deno test --parallel runs test files as Workers of one process: one file's compile() captures the
// device work of its step while another computes eagerly. On CUDA the capture once broke the other's
// launches on the legacy stream (and they broke the capture).
eachBackend(
  "compile() traces and replays while a Worker computes eagerly on the same device",
  async (backend) => {
    const stop = new SharedArrayBuffer(4);
    const worker = new Worker(new URL("./_eager_worker.ts", import.meta.url).href, { type: "module" });
    try {
      const messages: { started?: boolean; rounds?: number; error?: string }[] = [];
      let wake: () => void = () => {};
      worker.onmessage = (e) => {
        messages.push(e.data);
        wake();
      };
      worker.onerror = (e) => {
        e.preventDefault();
        messages.push({ error: e.message });
        wake();
      };
      const next = () => new Promise<void>((resolve) => (wake = resolve));
      worker.postMessage({ backend, stop });
      await next();
      assert.deepEqual(messages[0], { started: true }, messages[0]?.error);
      const x = ga.asarray([0, 0.5, 1, -2], "float32");
      const want = [0, 0.5, 1, -2].map((v) => Math.fround(2 * Math.exp(v)));
      // Five compiled functions, each traced at its third call, while the Worker runs.
      for (let f = 0; f < 5; f++) {
        const step = ga.compile((x: ga.GPUArray) => ga.exp(x).mul(2).add(f));
        for (let i = 0; i < 6; i++) {
          const got = Array.from(step(x).get() as Float32Array);
          got.forEach((v, k) =>
            assert.ok(Math.abs(v - want[k]! - f) < 1e-5, `function ${f}, call ${i}: ${got}`)
          );
        }
      }
      Atomics.store(new Int32Array(stop), 0, 1);
      if (messages.length < 2) await next();
      const last = messages[messages.length - 1]!;
      assert.equal(last.error, undefined, last.error);
      assert.ok(last.rounds! >= 10);
    } finally {
      worker.terminate();
    }
  },
);
