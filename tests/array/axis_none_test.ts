import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

eachBackend("axis null is NumPy's axis=None and transpose takes its axes one by one", () => {
  const x = ga.asarray([[1, 2], [3, 4]]);
  // The TypeScript signatures take no null axis (leave it out); JavaScript callers write NumPy's None.
  const sum = ga.sum as (a: ga.GPUArray, ...args: unknown[]) => number | ga.GPUArray;
  assert.equal(sum(x, null), 10);
  assert.deepEqual((sum(x, null, { keepdims: true }) as ga.GPUArray).shape, [1, 1]);
  assert.equal(sum(x, { axis: null }), 10);
  assert.deepEqual(Array.from(ga.flip(x).get()), [4, 3, 2, 1]);
  assert.deepEqual(Array.from(ga.transpose(x, 1, 0).copy().get()), [1, 3, 2, 4]);
  assert.deepEqual(Array.from(ga.transpose(x, [1, 0]).copy().get()), [1, 3, 2, 4]);
  assert.throws(() => ga.transpose(x, 0, 0), /give each of its 2 axes once/);
});
