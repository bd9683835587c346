import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray } from "./_nd.ts";

eachBackend("zerosLike(), onesLike() and fullLike() take the shape, backend and dtype of their model", () => {
  using model = ga.arange(6, undefined, 1, "int16").reshape(2, 3).T;
  using z = ga.zerosLike(model);
  assert.equal(z.dtype, "int16");
  assert.equal(z.backend, model.backend);
  assertArray(z, [3, 2], () => 0);
  using o = ga.onesLike(model, "float32");
  assertArray(o, [3, 2], () => 1);
  assert.equal(o.dtype, "float32");
  using f = ga.fullLike(model, 7.9);
  assertArray(f, [3, 2], () => 7, "a float into an integer dtype truncates");
  using b = ga.fullLike(model, 2n ** 40n, "int64");
  assertArray(b, [3, 2], () => 2n ** 40n);
  assert.throws(() => ga.fullLike(model, 40000), {
    name: "RangeError",
    message: /40000 is out of int16's range -32768\.\.32767/,
  });
});

eachBackend("full() truncates a float into an integer dtype, as NumPy does", () => {
  using a = ga.full([2, 2], 2.7, "int32");
  assertArray(a, [2, 2], () => 2);
  using n = ga.full([3], -2.7, "int8");
  assertArray(n, [3], () => -2);
});

eachBackend(
  "asarray() converts a typed array of another element size to the dtype asked for, as NumPy",
  () => {
    using wide = ga.asarray(Int32Array.from([-3, 0, 7, 2 ** 31 - 1]), "int64");
    assert.equal(wide.dtype, "int64");
    assertArray(wide, [4], ([i]) => [-3n, 0n, 7n, 2n ** 31n - 1n][i!]!);
    using floats = ga.asarray(Uint8Array.from([0, 128, 255]), "float32");
    assertArray(floats, [3], ([i]) => [0, 128, 255][i!]!);
    using bits = ga.asarray(Uint32Array.from([0x3f800000]), "float32");
    assertArray(bits, [1], () => 1, "the same element size reads the bits");
  },
);
