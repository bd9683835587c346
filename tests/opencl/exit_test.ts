import assert from "node:assert/strict";
import { openclTest } from "../_backends.ts";

/** Runs `ending` after a non-blocking read into a 64 MiB host array that nothing waits for. */
async function exitWithCopyInFlight(ending: string): Promise<{ code: number; err: string }> {
  const body = `import * as cl from "${new URL("../../src/opencl/mod.ts", import.meta.url).href}";
    const ctx = cl.createSomeContext();
    const queue = new cl.CommandQueue(ctx);
    const n = 1 << 24;
    const buf = new cl.Buffer(ctx, n * 4);
    cl.enqueueCopy(queue, new Float32Array(n), buf, { isBlocking: false });
    ${ending}`;
  const r = await new Deno.Command(Deno.execPath(), { args: ["eval", body], stderr: "piped" }).output();
  return { code: r.code, err: new TextDecoder().decode(r.stderr) };
}

openclTest("a process that exits with a non-blocking read still running ends cleanly", async () => {
  assert.deepEqual(await exitWithCopyInFlight(""), { code: 0, err: "" });
});

openclTest("an uncaught error or rejection while a read is running is reported, not a crash", async () => {
  for (const ending of ['throw new Error("left early")', 'await Promise.reject(new Error("left early"))']) {
    const { code, err } = await exitWithCopyInFlight(ending);
    assert.equal(code, 1, `${ending}: exit code ${code} (139 is a segmentation fault)\n${err}`);
    assert.match(err, /left early/);
  }
});
