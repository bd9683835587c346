/**
 * Load: eight async tasks, each on a stream of its own on CUDA (on OpenCL, on the one queue), running
 * mixed array operations with awaits between them; every result is checked against the host, and the
 * memory pool's usage is the same afterwards; and four Workers doing the same at once. CUDENO_LONG=1 runs
 * 10,000 rounds per task (about 6 operations each) instead of 100, and 170 per Worker instead of 5.
 */
import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import { cudaContext, cudaTest as cudaHere, openclTest as openclHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { COLS, task } from "./_load_task.ts";

// The stream-ordered pool's counters are the context's, which every Worker of the process shares.
const { cudaTest, openclTest } = alone(import.meta.url, "it reads the CUDA pool's counters", {
  cudaTest: cudaHere,
  openclTest: openclHere,
});

const LONG = Deno.env.get("CUDENO_LONG") === "1";
const ROUNDS = LONG ? 10_000 : 100, TASKS = 8;

cudaTest(
  "8 async tasks on 8 streams run mixed array work, every result right, the pool's usage flat",
  async () => {
    const device = cudaContext().device;
    ga.useBackend("cuda");
    using eye = ga.eye(COLS, "float64");
    const streams = Array.from({ length: TASKS }, () => new cuda.Stream({ nonBlocking: true }));
    await Promise.all(streams.map((s, id) => ga.withStream(s, () => task(id, eye, ROUNDS)))); // warm the kernels
    cuda.synchronize();
    const before = cuda.memPoolUsage(device).used;
    await Promise.all(streams.map((s, id) => ga.withStream(s, () => task(id, eye, ROUNDS))));
    cuda.synchronize();
    // Sort and scan scratch stays with the four most recently used streams (src/device/stream.ts), which
    // of the eight those are depends on the order the tasks finished in: allow for its few KiB, no more
    // (one leaked 256-byte array a round would be 200 KiB here).
    const grown = cuda.memPoolUsage(device).used - before;
    assert.ok(grown <= 64n * 1024n, `the pool's usage grew by ${grown} bytes`);
    for (const s of streams) s.destroy();
  },
);

openclTest("8 async tasks run mixed array work on OpenCL, every result right", async () => {
  ga.useBackend("opencl");
  using eye = ga.eye(COLS, "float64");
  await Promise.all(Array.from({ length: TASKS }, (_, id) => task(id, eye, ROUNDS)));
});

/** Runs `_load_worker.ts` in four Workers at once on `backend`, `rounds` rounds each; every one must pass. */
async function workers(backend: ga.BackendName, rounds: number): Promise<void> {
  const url = new URL("./_load_worker.ts", import.meta.url);
  const replies = await Promise.all(Array.from({ length: 4 }, (_, id) =>
    new Promise<string>((resolve) => {
      const worker = new Worker(url, { type: "module" });
      worker.onmessage = (e: MessageEvent<string>) => {
        worker.terminate();
        resolve(e.data);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        worker.terminate();
        resolve(`error: ${e.message}`);
      };
      worker.postMessage({ backend, id, rounds });
    })));
  assert.deepEqual(replies, ["ok", "ok", "ok", "ok"]);
}

cudaTest("4 Workers run mixed array work on CUDA at once, every result right", async () => {
  await workers("cuda", LONG ? 170 : 5);
});

openclTest("4 Workers run mixed array work on OpenCL at once, every result right", async () => {
  await workers("opencl", LONG ? 170 : 5);
});
