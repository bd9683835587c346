/**
 * `get(out)` and `getAsync(out)`: the elements copied into the caller's typed array (the same object
 * returned), which a loop reuses as a C program reuses one buffer; an `out` of another element type
 * or size refused, naming what to pass.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

eachBackend("get(out) fills the caller's typed array in C order and returns it, round after round", () => {
  using x = ga.toGpu(Float32Array.from({ length: 12 }, (_, i) => i), [3, 4]);
  const host = new Float32Array(12).fill(-1);
  for (let round = 1; round <= 3; round++) {
    x.add(1, { out: x });
    const got = x.get(host);
    assert.equal(got, host, "the same array comes back");
    assert.deepEqual([...host], Array.from({ length: 12 }, (_, i) => i + round), `round ${round}`);
  }
  // A transposed view (copied on the device first) and an offset slice (read in place at its offset).
  const t = new Float32Array(12);
  x.T.get(t);
  assert.deepEqual([...t], [3, 7, 11, 4, 8, 12, 5, 9, 13, 6, 10, 14]);
  const row = new Float32Array(4);
  x.slice("2").get(row);
  assert.deepEqual([...row], [11, 12, 13, 14]);
});

eachBackend(
  "get(out) takes each dtype's host array: int64 into BigInt64Array, bfloat16's bits into Uint16Array",
  () => {
    using i = ga.arange(5, "int64");
    const big = new BigInt64Array(5);
    assert.equal(i.get(big), big);
    assert.deepEqual([...big], [0n, 1n, 2n, 3n, 4n]);
    if (i.backend.supports("bfloat16")) {
      using b = ga.asarray([1, -2, 0.5]).astype("bfloat16");
      const bits = new Uint16Array(3);
      b.get(bits);
      // bfloat16 is float32's top 16 bits: 1 = 0x3f80, -2 = 0xc000, 0.5 = 0x3f00.
      assert.deepEqual([...bits], [0x3f80, 0xc000, 0x3f00]);
    }
    using flags = ga.asarray([1, 0, 3]).astype("bool");
    const bytes = new Uint8Array(3);
    flags.get(bytes);
    assert.deepEqual([...bytes], [1, 0, 1]);
    using empty = ga.zeros([0, 3]);
    const none = new Float32Array(0);
    assert.equal(empty.get(none), none);
  },
);

eachBackend("getAsync(out) fills the caller's typed array and resolves to it", async () => {
  using x = ga.arange(6, "float32").reshape(2, 3);
  const host = new Float32Array(6);
  assert.equal(await x.getAsync(host), host);
  assert.deepEqual([...host], [0, 1, 2, 3, 4, 5]);
  const t = new Float32Array(6);
  await x.T.getAsync(t);
  assert.deepEqual([...t], [0, 3, 1, 4, 2, 5]);
});

eachBackend("get(out) refuses an out of another element type or size, naming what to pass", async () => {
  using x = ga.zeros([2, 3]);
  assert.throws(() => x.get(new Float64Array(6) as never), {
    name: "TypeError",
    message: "Cannot get() a float32 array into a Float64Array: pass a Float32Array of 6 elements",
  });
  assert.throws(() => x.get([0, 0, 0, 0, 0, 0] as never), {
    name: "TypeError",
    message: "Cannot get() a float32 array into a Array: pass a Float32Array of 6 elements",
  });
  assert.throws(() => x.get(new Float32Array(5)), {
    name: "RangeError",
    message:
      "Cannot get() an array of shape [2, 3] (6 elements) into a Float32Array of 5: pass one of 6 elements",
  });
  await assert.rejects(() => x.getAsync(new Float32Array(7)), {
    name: "RangeError",
    message: /^Cannot getAsync\(\) an array of shape \[2, 3\] \(6 elements\) into a Float32Array of 7/,
  });
  using u = ga.zeros(4, "uint16");
  assert.throws(() => u.get(new Int16Array(4) as never), {
    name: "TypeError",
    message: "Cannot get() a uint16 array into a Int16Array: pass a Uint16Array of 4 elements",
  });
});
