import assert from "node:assert/strict";
import { CompileCache, frameEntry, unframeEntry } from "../../src/kernel/cache.ts";
import { alone } from "../_alone.ts";

// CUDENO_CACHE_DIR and CUDENO_DISABLE_CACHE are the process's: other files' Workers compiling meanwhile
// would write into the directory these tests count.
const { test } = alone(import.meta.url, "it sets CUDENO_CACHE_DIR", { test: Deno.test });

function withCacheDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "cudeno-cache-" });
  const before = Deno.env.get("CUDENO_CACHE_DIR");
  Deno.env.set("CUDENO_CACHE_DIR", dir);
  try {
    fn(dir);
  } finally {
    if (before === undefined) Deno.env.delete("CUDENO_CACHE_DIR");
    else Deno.env.set("CUDENO_CACHE_DIR", before);
    Deno.removeSync(dir, { recursive: true });
  }
}

function entryFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) e.isDirectory ? walk(`${d}/${e.name}`) : out.push(`${d}/${e.name}`);
  };
  walk(dir);
  return out;
}

test("CompileCache serves a second cache object from disk", () => {
  withCacheDir(() => {
    const key = CompileCache.key("src", "opts");
    let compiles = 0;
    const compute = () => (compiles++, new Uint8Array([1, 2, 3]));
    assert.equal(new CompileCache("t").getOrCompute(key, compute).source, "none");
    const second = new CompileCache("t").getOrCompute(key, compute);
    assert.equal(second.source, "disk");
    assert.deepEqual([...second.payload], [1, 2, 3]);
    assert.equal(compiles, 1);
  });
});

test("CompileCache recompiles a truncated or damaged entry instead of loading it", () => {
  withCacheDir((dir) => {
    const key = CompileCache.key("src2");
    new CompileCache("t").put(key, new Uint8Array([9, 9, 9, 9]));
    const [file] = entryFiles(dir);
    const bytes = Deno.readFileSync(file!);
    bytes[bytes.length - 1] = 0;
    Deno.writeFileSync(file!, bytes);
    assert.equal(new CompileCache("t").get(key), undefined);
    Deno.writeFileSync(file!, bytes.subarray(0, 10));
    assert.equal(new CompileCache("t").get(key), undefined);
  });
});

test("CompileCache leaves no temporary files after writing", () => {
  withCacheDir((dir) => {
    const cache = new CompileCache("t");
    for (let i = 0; i < 20; i++) cache.put(CompileCache.key(`k${i}`), new Uint8Array(100).fill(i));
    const files = entryFiles(dir);
    assert.equal(files.length, 20);
    assert.ok(files.every((f) => !f.endsWith(".tmp")));
  });
});

test("CUDENO_DISABLE_CACHE=1 keeps the cache in memory only", () => {
  withCacheDir((dir) => {
    Deno.env.set("CUDENO_DISABLE_CACHE", "1");
    try {
      new CompileCache("t").put(CompileCache.key("x"), new Uint8Array([1]));
      assert.deepEqual(entryFiles(dir), []);
    } finally {
      Deno.env.delete("CUDENO_DISABLE_CACHE");
    }
  });
});

test("unframeEntry() returns the payload of an intact entry only", () => {
  const framed = frameEntry(new Uint8Array([5, 6, 7]));
  assert.deepEqual([...unframeEntry(framed)!], [5, 6, 7]);
  const wrongMagic = framed.slice();
  wrongMagic[0] = 0;
  assert.equal(unframeEntry(wrongMagic), undefined);
});
