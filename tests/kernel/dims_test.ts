import assert from "node:assert/strict";
import { checkLimits, readDim3 } from "../../src/kernel/dims.ts";

const limits = {
  block: [1024, 1024, 64] as const,
  threadsPerBlock: 1024,
  grid: [2147483647, 65535, 65535] as const,
};

Deno.test("readDim3() reads numbers and 1-3 element arrays, filling with 1", () => {
  const out = new Uint32Array(6);
  readDim3(256, out, 0, "grid", "k");
  readDim3([4, 4], out, 3, "block", "k");
  assert.deepEqual([...out], [256, 1, 1, 4, 4, 1]);
  readDim3(undefined, out, 0, "grid", "k");
  assert.deepEqual([...out.subarray(0, 3)], [1, 1, 1]);
});

Deno.test("readDim3() rejects zero, fractions and over-long arrays", () => {
  const out = new Uint32Array(6);
  assert.throws(() => readDim3(0, out, 0, "grid", "k"), {
    name: "RangeError",
    message: "Cannot launch k(): grid.x must be a positive integer, got 0",
  });
  assert.throws(() => readDim3([2, 1.5], out, 0, "block", "k"), /block.y must be a positive integer/);
  assert.throws(() => readDim3([1, 1, 1, 1] as never, out, 0, "block", "k"), TypeError);
});

Deno.test("checkLimits() rejects a block beyond the device's threads per block", () => {
  const dims = new Uint32Array([1, 1, 1, 32, 64, 1]);
  assert.throws(() => checkLimits(dims, limits, "H200", "k"), {
    name: "RangeError",
    message: "Cannot launch k(): a block of 32×64×1 = 2048 threads exceeds H200's limit of 1024 per block",
  });
});

Deno.test("checkLimits() rejects grid and block extents beyond the device's", () => {
  assert.throws(
    () => checkLimits(new Uint32Array([1, 70000, 1, 1, 1, 1]), limits, "H200", "k"),
    /grid.y = 70000 exceeds H200's limit of 65535/,
  );
  assert.throws(() => checkLimits(new Uint32Array([1, 1, 1, 1, 1, 65]), limits, "H200", "k"), /block.z = 65/);
  checkLimits(new Uint32Array([65535, 1, 1, 1024, 1, 1]), limits, "H200", "k");
});
