import assert from "node:assert/strict";
import { candidatePaths, LazyLibrary, LibraryNotFoundError, loadLibrary } from "../../ffi/load.ts";

const spec = {
  what: "a test library",
  env: "CUDENO_TEST_LIB",
  sonames: ["libcudeno-missing.so.1", "libcudeno-missing.so.0"],
  dirs: ["/nonexistent/a", "/nonexistent/stubs"],
  reject: (p: string) => (p.includes("/stubs/") ? "a stub" : undefined),
  hint: "install it",
  symbols: { nothing: { parameters: [], result: "void" } },
} as const;

Deno.test("loadLibrary() lists every path tried and the variable to set", () => {
  let err: LibraryNotFoundError | undefined;
  try {
    loadLibrary(spec);
  } catch (e) {
    if (e instanceof LibraryNotFoundError) err = e;
  }
  assert.ok(err !== undefined, "expected a LibraryNotFoundError");
  assert.deepEqual(err.tried.map((t) => t.path), [
    "libcudeno-missing.so.1",
    "libcudeno-missing.so.0",
    "/nonexistent/a/libcudeno-missing.so.1",
    "/nonexistent/a/libcudeno-missing.so.0",
    "/nonexistent/stubs/libcudeno-missing.so.1",
    "/nonexistent/stubs/libcudeno-missing.so.0",
  ]);
  assert.equal(err.tried[4]!.reason, "a stub");
  assert.match(err.message, /Set CUDENO_TEST_LIB to the library's full path, or install it/);
  assert.match(err.message, /\/nonexistent\/a\/libcudeno-missing\.so\.1: /);
});

Deno.test("loadLibrary() tries only the environment override when it is set", () => {
  Deno.env.set("CUDENO_TEST_LIB", "/nonexistent/override.so");
  try {
    assert.deepEqual(candidatePaths(spec), ["/nonexistent/override.so"]);
  } finally {
    Deno.env.delete("CUDENO_TEST_LIB");
  }
});

Deno.test("loadLibrary() opens a real library from a folder", () => {
  const lib = loadLibrary({
    ...spec,
    sonames: ["libc.so.6"],
    dirs: [],
    symbols: { getpid: { parameters: [], result: "i32" } },
  });
  assert.equal(lib.symbols.getpid(), Deno.pid);
});

Deno.test("LazyLibrary opens nothing until first use and remembers a failure", () => {
  let built = 0;
  const lazy = new LazyLibrary(() => (built++, spec));
  assert.equal(built, 0);
  assert.equal(lazy.available(), false);
  assert.throws(() => lazy.get(), LibraryNotFoundError);
  assert.equal(built, 1);
});
