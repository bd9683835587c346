/**
 * A JIT kernel's launch configuration, checked before anything reaches a backend: a missing block, a
 * list in Numba's `kernel[grid, block]` order, a size that is not a positive integer, or no
 * configuration at all is an error that says what to pass (it was `Cannot read properties of
 * undefined (reading 'length')`). No device is needed: nothing is compiled or launched.
 */

import assert from "node:assert/strict";
import { jit, threadIdx } from "../../src/jit/mod.ts";
import type { LaunchConfig } from "../../src/kernel/dims.ts";

const fill = jit({ a: "f32[]" }, (a) => {
  a[threadIdx.x] = 1;
});
const host = new Float32Array(4);
const launch = (config: unknown) => () => fill.launch(config as LaunchConfig, host);

Deno.test("jit kernel.launch() without block says the configuration needs one", () => {
  assert.throws(launch({ grid: [1] }), {
    name: "TypeError",
    message:
      /^Cannot launch kernel "jit_kernel": the launch configuration has no block, the threads per block; .*launch\(\{ grid: \[blocks\], block: \[threads per block\] \}/,
  });
  assert.throws(launch({}), { name: "TypeError", message: /has no block/ });
});

Deno.test("jit kernel.launch() with a misspelt block names the key that is not an option", () => {
  assert.throws(launch({ grid: [1], threads: [64] }), {
    name: "TypeError",
    message:
      /has no block, the threads per block \("threads" is not an option; the options are grid, block, shared, stream\)/,
  });
});

Deno.test("jit kernel.launch() with Numba's [grid, block] list shows the object to write", () => {
  assert.throws(launch([4, 256]), {
    name: "TypeError",
    message:
      /not the list \[4,256\] \(Numba's kernel\[grid, block\]\): write launch\(\{ grid: 4, block: 256 \}, \.\.\.args\)/,
  });
});

Deno.test("jit kernel.launch() without a configuration, or with bad sizes, says which", () => {
  assert.throws(launch(undefined), {
    name: "TypeError",
    message: /the launch configuration must be \{ grid, block \}, as launch\(/,
  });
  assert.throws(launch({ grid: 0, block: 4 }), {
    name: "RangeError",
    message: /grid sizes must be positive integers, got 0/,
  });
  assert.throws(launch({ grid: [1], block: "64" }), {
    name: "TypeError",
    message: /block must be a number or an array of 1 to 3 numbers, got "64"/,
  });
  assert.throws(launch({ grid: [1], block: [2, 2, 2, 2] }), { name: "TypeError", message: /block must be/ });
});

Deno.test("jit kernel.simulate() without block says the configuration needs one", () => {
  assert.throws(() => fill.simulate({ grid: [1] } as unknown as LaunchConfig, host), {
    name: "TypeError",
    message: /^Cannot simulate kernel "jit_kernel": the launch configuration has no block/,
  });
  fill.simulate({ grid: 1, block: 4 }, host);
  assert.deepEqual([...host], [1, 1, 1, 1]);
});
