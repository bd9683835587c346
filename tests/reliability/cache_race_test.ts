import assert from "node:assert/strict";

const CACHE = new URL("../../src/kernel/cache.ts", import.meta.url).href;

Deno.test("two processes writing and reading the same cache entries at once never see a damaged entry", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cudeno-race-" });
  const script = `
    import { CompileCache } from "${CACHE}";
    const payload = new Uint8Array(256 * 1024).map((_, i) => (i * 31) & 255);
    let hits = 0;
    for (let round = 0; round < 200; round++) {
      const key = CompileCache.key("entry", String(round % 10));
      const cache = new CompileCache("race");
      const hit = cache.get(key);
      if (hit !== undefined) {
        hits++;
        if (hit.payload.length !== payload.length || hit.payload.some((v, i) => v !== payload[i])) {
          console.log("DAMAGED"); Deno.exit(3);
        }
      }
      cache.put(key, payload);
    }
    console.log(hits);`;
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      env: { CUDENO_CACHE_DIR: dir },
      stdout: "piped",
      stderr: "piped",
    }).output();
  try {
    const [a, b] = await Promise.all([spawn(), spawn()]);
    for (const r of [a, b]) {
      assert.equal(r.code, 0, new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr));
    }
    const leftovers: string[] = [];
    for await (const d of Deno.readDir(`${dir}/race`)) {
      for await (const f of Deno.readDir(`${dir}/race/${d.name}`)) {
        if (f.name.endsWith(".tmp")) leftovers.push(f.name);
      }
    }
    assert.deepEqual(leftovers, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
