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

cudaTest(
  "an out-of-bounds kernel raises CUDA_ERROR_ILLEGAL_ADDRESS naming it, and resetDevice() recovers",
  async () => {
    const r = await run(`
    const bad = new cuda.SourceModule("__global__ void bad_write(float *x) { x[(long long)1 << 40] = 1.0f; }");
    const buf = cuda.memAlloc(64);
    bad.getFunction("bad_write")(buf, { block: 1 });
    let first;
    try { cuda.synchronize(); } catch (e) { first = e; }
    if (!(first instanceof cuda.CudaError)) throw new Error("no CudaError: " + first);
    console.log(JSON.stringify({ name: first.codeName, lost: first.contextLost, message: first.message }));
    let stillBroken = false;
    try { cuda.memAlloc(64); } catch { stillBroken = true; }
    cuda.resetDevice();
    let usedStale = "";
    try { buf.ptr; } catch (e) { usedStale = e.name; }
    const mod = new cuda.SourceModule("__global__ void twice(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }");
    const x = Float32Array.from({ length: 32 }, (_, i) => i);
    const dx = cuda.memAlloc(x.byteLength);
    cuda.memcpyHtoD(dx, x);
    mod.getFunction("twice")(dx, 32, { block: 32 });
    cuda.memcpyDtoH(x, dx);
    console.log(JSON.stringify({ stillBroken, usedStale, after: Array.from(x.slice(0, 4)) }));
  `);
    assert.equal(r.code, 0, r.err);
    const [fault, after] = r.out.trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(fault.name, "CUDA_ERROR_ILLEGAL_ADDRESS");
    assert.equal(fault.lost, true);
    assert.match(fault.message, /the last kernel launched was bad_write/);
    assert.match(fault.message, /cuda\.resetDevice\(\)/);
    assert.equal(after.stillBroken, true, "the context is lost until reset");
    assert.equal(after.usedStale, "TypeError", "allocations from before the reset are refused");
    assert.deepEqual(after.after, [0, 2, 4, 6]);
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
