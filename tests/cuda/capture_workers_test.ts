/**
 * A capture in one Worker does not break the work of others: one Worker captures array work on a
 * non-blocking stream in the default mode (`"threadLocal"`) and replays it, while three others
 * allocate (from the same stream-ordered pool), compute and read back on the legacy default stream.
 * In mode `"global"`, or on a blocking stream, their allocations failed with
 * `CUDA_ERROR_STREAM_CAPTURE_IMPLICIT` and the capture was invalidated (issue 35). 10 rounds of
 * captures by default, 100 with `CUDENO_LONG=1`; every result is checked against the host.
 */
import assert from "node:assert/strict";
import { cudaTest } from "../_backends.ts";
import type { CaptureJob, CaptureReport } from "./_capture_worker.ts";

const ROUNDS = Deno.env.get("CUDENO_LONG") === "1" ? 100 : 10;

cudaTest(
  `one Worker captures and replays array work ${ROUNDS} times while three others allocate, compute and read back, all checked`,
  async () => {
    const shared = new Int32Array(new SharedArrayBuffer(12)); // [stop, compute rounds done, ready]
    const roles = ["capture", "compute", "compute", "compute"] as const;
    const workers = roles.map(() =>
      new Worker(new URL("./_capture_worker.ts", import.meta.url), { type: "module" })
    );
    try {
      const reports = await Promise.all(
        workers.map((worker, seed) =>
          new Promise<CaptureReport>((resolve, reject) => {
            worker.onmessage = (e: MessageEvent<CaptureReport>) => resolve(e.data);
            worker.onerror = (e) => {
              e.preventDefault();
              Atomics.store(shared, 0, 1);
              reject(new Error(`Worker ${seed} (${roles[seed]}): ${e.message}`));
            };
            worker.postMessage(
              {
                role: roles[seed]!,
                rounds: ROUNDS,
                computeWorkers: roles.length - 1,
                seed,
                shared,
              } satisfies CaptureJob,
            );
          })
        ),
      );
      const failures = reports.flatMap((r) => r.failures);
      assert.deepEqual(failures, [], failures.join("\n"));
      const [capture, ...computes] = reports;
      assert.ok(capture!.rounds >= ROUNDS, `${capture!.rounds} capture rounds ran, not ${ROUNDS}`);
      assert.ok(capture!.overlapped > 0, "the other Workers computed while the captures ran");
      for (const c of computes) assert.ok(c.rounds > 0, "every compute Worker ran");
    } finally {
      workers.forEach((w) => w.terminate());
    }
  },
);
