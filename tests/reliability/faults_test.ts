import assert from "node:assert/strict";
import { cudaTest } from "../_backends.ts";

const script = (body: string) => `
import * as cuda from "${new URL("../../src/cuda/mod.ts", import.meta.url).href}";
cuda.useDevice(0);
${body}`;

async function run(body: string): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script(body)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: r.code, out: new TextDecoder().decode(r.stdout), err: new TextDecoder().decode(r.stderr) };
}

const TWICE = `
  const mod = new cuda.SourceModule("__global__ void twice(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }");
  const x = Float32Array.from({ length: 32 }, (_, i) => i);
  const dx = cuda.memAlloc(x.byteLength);
  cuda.memcpyHtoD(dx, x);
  mod.getFunction("twice")(dx, 32, { block: 32 });
  cuda.memcpyDtoH(x, dx);`;

cudaTest(
  "an out-of-bounds kernel raises CUDA_ERROR_ILLEGAL_ADDRESS naming it; recovery works in place or in a new process",
  async () => {
    const r = await run(`
    const bad = new cuda.SourceModule("__global__ void bad_write(float *x) { x[(long long)1 << 40] = 1.0f; }");
    const buf = cuda.memAlloc(64);
    bad.getFunction("bad_write")(buf, { block: 1 });
    let first;
    try { cuda.synchronize(); } catch (e) { first = e; }
    if (!(first instanceof cuda.CudaError)) throw new Error("no CudaError: " + first);
    console.log(JSON.stringify({ name: first.codeName, lost: first.contextLost, message: first.message }));
    let later = "";
    try { cuda.memAlloc(64); } catch (e) { later = e.name + ": " + e.message; }
    let reset = "recovered";
    try { cuda.resetDevice(); } catch (e) { reset = e.name + ": " + e.message; }
    let after = null;
    if (reset === "recovered") {
      let stale = "";
      try { buf.ptr; } catch (e) { stale = e.name; }
      ${TWICE}
      after = { stale, values: Array.from(x.slice(0, 4)) };
    }
    console.log(JSON.stringify({ later, reset, after }));
  `);
    assert.equal(r.code, 0, r.err);
    const [fault, next] = r.out.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(fault.name, "CUDA_ERROR_ILLEGAL_ADDRESS");
    assert.equal(fault.lost, true);
    assert.match(fault.message, /the last kernel launched was bad_write/);
    assert.match(fault.message, /restart the process/);
    assert.match(
      next.later,
      /^CudaError: .*CUDA_ERROR_ILLEGAL_ADDRESS/,
      "later calls fail clearly, without a crash",
    );
    if (next.reset === "recovered") {
      assert.equal(next.after.stale, "TypeError", "allocations from before the reset are refused");
      assert.deepEqual(next.after.values, [0, 2, 4, 6]);
    } else {
      assert.match(
        next.reset,
        /^CudaError: cuDevicePrimaryCtxRetain failed: .* the driver refuses a fresh context in this process/,
      );
      const fresh = await run(`${TWICE}\n console.log(JSON.stringify(Array.from(x.slice(0, 4))));`);
      assert.equal(fresh.code, 0, fresh.err);
      assert.deepEqual(JSON.parse(fresh.out), [0, 2, 4, 6], "a new process computes right results at once");
    }
  },
);

cudaTest("a process that exits with live allocations, modules and streams exits cleanly", async () => {
  const r = await run(`
    const keep = [];
    for (let i = 0; i < 100; i++) keep.push(cuda.memAlloc(1 << 20));
    keep.push(new cuda.SourceModule("__global__ void k(int *x) { *x = 1; }"), new cuda.Stream(), new cuda.Event());
    keep.push(cuda.pagelockedEmpty(1 << 20));
    console.log("done");
  `);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim(), "done");
  assert.equal(r.err.trim(), "");
});
