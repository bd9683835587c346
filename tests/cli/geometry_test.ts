import assert from "node:assert/strict";
import { evaluateSizes, resolveLaunch } from "../../src/cli/geometry.ts";
import { UsageError } from "../../src/cli/usage_error.ts";

const env = new Map<string, number>([["n", 1000], ["N", 40], ["M", 24]]);

Deno.test("resolveLaunch() gives one thread per element of the largest array, in blocks of 256", () => {
  assert.deepEqual(resolveLaunch({}, "cuda", env, 1000), { backend: "cuda", grid: [4], block: [256] });
  assert.deepEqual(resolveLaunch({}, "opencl", env, 1000), {
    backend: "opencl",
    global: [1024],
    local: [256],
  });
  assert.deepEqual(resolveLaunch({}, "cuda", env, 0), { backend: "cuda", grid: [1], block: [256] });
});

Deno.test("resolveLaunch() evaluates --grid and --block over the scalar arguments", () => {
  const flags = { grid: "(N+15)>>4,(M+15)>>4", block: "16,16" };
  assert.deepEqual(resolveLaunch(flags, "cuda", env, 0), { backend: "cuda", grid: [3, 2], block: [16, 16] });
  assert.deepEqual(resolveLaunch({ block: "128" }, "cuda", env, 1000), {
    backend: "cuda",
    grid: [8],
    block: [128],
  });
});

Deno.test("resolveLaunch() maps --grid/--block to OpenCL's global = grid × block and local = block", () => {
  assert.deepEqual(resolveLaunch({ grid: "3,2", block: "16,16" }, "opencl", env, 0), {
    backend: "opencl",
    global: [48, 32],
    local: [16, 16],
  });
  assert.deepEqual(resolveLaunch({ global: "n" }, "opencl", env, 0), {
    backend: "opencl",
    global: [1000],
    local: null,
  });
  assert.deepEqual(resolveLaunch({ global: "64,8", local: "8,8" }, "opencl", env, 0), {
    backend: "opencl",
    global: [64, 8],
    local: [8, 8],
  });
});

Deno.test("resolveLaunch() rejects sizes that do not fit together", () => {
  const rejects = (flags: Parameters<typeof resolveLaunch>[0], dialect: "cuda" | "opencl", message: RegExp) =>
    assert.throws(() => resolveLaunch(flags, dialect, env, 100), (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.match(e.message, message);
      return true;
    });
  rejects({ grid: "4" }, "cuda", /^Cannot use --grid without --block: give both/);
  rejects({ block: "16,16" }, "cuda", /^Cannot use a 2-D or 3-D --block without --grid/);
  rejects({ global: "64" }, "cuda", /^Cannot use --global with a CUDA kernel/);
  rejects({ local: "64" }, "opencl", /^Cannot use --local without --global/);
  rejects(
    { grid: "1", block: "64", global: "64" },
    "opencl",
    /^Cannot use --grid\/--block together with --global/,
  );
  rejects({ global: "64,64", local: "8" }, "opencl", /give both the same number of sizes/);
  rejects({ grid: "0", block: "1" }, "cuda", /^Cannot use --grid 0: every size must be at least 1$/);
  rejects({ grid: "n/3", block: "1" }, "cuda", /needs an integer \(the value is 333\.3/);
  rejects({ grid: "1,1,1,1", block: "1" }, "cuda", /give at most 3 sizes/);
});

Deno.test("evaluateSizes() accepts zero and up to 64 sizes when asked, as shapes need", () => {
  assert.deepEqual(evaluateSizes("0, n", "--shape", env, { most: 64, least: 0 }), [0, 1000]);
  assert.throws(() => evaluateSizes("-1", "--shape", env, { most: 64, least: 0 }), /cannot be negative/);
});
