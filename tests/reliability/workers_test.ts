/**
 * cudeno from several Deno Workers of one process. A device is initialised once per process, so each
 * round runs in a process of its own (`_workers_main.ts`) that starts 4 Workers together, each
 * importing the array module and computing, every result checked against the host. A few rounds by
 * default; `CUDENO_LONG=1` runs 100. Arrays stay in the Worker that made them: posting one is an error.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { cudaTest, openclTest } from "../_backends.ts";

const ROUNDS = Deno.env.get("CUDENO_LONG") === "1" ? 100 : 3;
const MAIN = new URL("./_workers_main.ts", import.meta.url).pathname;

/** Runs `count` fresh processes of 4 Workers on `backend`; returns the failed rounds' reports. */
async function rounds(backend: ga.BackendName, count: number): Promise<string[]> {
  const failed: string[] = [];
  for (let r = 0; r < count; r++) {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, backend],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const out = new TextDecoder().decode(stdout).trim();
    if (code !== 0) failed.push(`round ${r + 1}: exit ${code}: ${out}\n${new TextDecoder().decode(stderr)}`);
  }
  return failed;
}

openclTest(
  `4 Workers starting together each compute on OpenCL and match the host, in ${ROUNDS} fresh processes`,
  async () => {
    const failed = await rounds("opencl", ROUNDS);
    assert.deepEqual(failed, [], `${failed.length} of ${ROUNDS} rounds failed:\n${failed.join("\n")}`);
  },
);

cudaTest(
  `4 Workers starting together each compute on CUDA and match the host, in ${ROUNDS} fresh processes`,
  async () => {
    const failed = await rounds("cuda", ROUNDS);
    assert.deepEqual(failed, [], `${failed.length} of ${ROUNDS} rounds failed:\n${failed.join("\n")}`);
  },
);

openclTest("posting a GPUArray to a Worker is a DataCloneError saying to post arr.get() instead", () => {
  ga.useBackend("opencl");
  const a = ga.toGpu(new Float32Array([1, 2, 3]));
  const worker = new Worker("data:text/javascript,", { type: "module" });
  try {
    const refused = (e: unknown) => {
      assert.ok(e instanceof DOMException, `a DOMException, not ${e}`);
      assert.equal(e.name, "DataCloneError");
      assert.match(e.message, /a GPUArray stays in the Worker that made it: post arr\.get\(\)/);
      return true;
    };
    assert.throws(() => worker.postMessage(a), refused);
    assert.throws(() => worker.postMessage({ inside: [a.T] }), refused);
    assert.throws(() => structuredClone(a), refused);
    assert.deepEqual(structuredClone(a.get()), new Float32Array([1, 2, 3]), "the host copy posts");
  } finally {
    worker.terminate();
  }
});
