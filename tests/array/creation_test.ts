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
