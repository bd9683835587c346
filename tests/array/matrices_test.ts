import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray, fromIndex } from "./_nd.ts";

eachBackend("eye() puts ones on diagonal k of an n × m matrix", () => {
  for (const [n, m, k] of [[3, 3, 0], [3, 5, 1], [4, 2, -1], [2, 3, 5], [0, 3, 0]] as const) {
    using e = ga.eye(n, m, k);
    assertArray(e, [n, m], ([i, j]) => (j! - i! === k ? 1 : 0), `eye(${n}, ${m}, ${k})`);
  }
  using square = ga.eye(4);
  assertArray(square, [4, 4], ([i, j]) => (i === j ? 1 : 0));
  using ints = ga.eye(3, undefined, -2, "int64");
  assertArray(ints, [3, 3], ([i, j]) => (j! - i! === -2 ? 1n : 0n));
  using flags = ga.identity(3, "bool");
  assertArray(flags, [3, 3], ([i, j]) => i === j);
  assert.equal(flags.dtype, "bool");
});

eachBackend("tri() has ones at and below diagonal k", () => {
  for (const k of [0, 1, -2]) {
    using t = ga.tri(3, 5, k, "int32");
    assertArray(t, [3, 5], ([i, j]) => (j! <= i! + k ? 1 : 0), `tri(3, 5, ${k})`);
  }
});

eachBackend("triu() and tril() zero one side of the diagonal of each matrix, reading views", () => {
  const values = (idx: number[]) => idx.reduce((n, i) => n * 10 + i, 0) + 1;
  using a = ga.toGpu(fromIndex([2, 3, 4], values), [2, 3, 4]);
  for (const k of [0, 1, -1]) {
    using u = ga.triu(a, k);
    assertArray(u, [2, 3, 4], ([b, i, j]) => (j! - i! >= k ? values([b!, i!, j!]) : 0), `triu k=${k}`);
    using l = ga.tril(a, k);
    assertArray(l, [2, 3, 4], ([b, i, j]) => (j! - i! <= k ? values([b!, i!, j!]) : 0), `tril k=${k}`);
  }
  using t = a.slice(0).T; // [4, 3], strides [1, 4]
  using u = ga.triu(t);
  assertArray(u, [4, 3], ([i, j]) => (j! >= i! ? values([0, j!, i!]) : 0));
  using big = ga.asarray([[2n ** 62n, 1n], [3n, 4n]]);
  using lower = ga.tril(big);
  assertArray(lower, [2, 2], ([i, j]) => (j! <= i! ? [[2n ** 62n, 1n], [3n, 4n]][i!]![j!]! : 0n));
});

eachBackend("triu() of a 1-D array is the upper triangle of its rows repeated, as NumPy's", () => {
  using a = ga.asarray([1, 2, 3], "int32");
  using u = ga.triu(a);
  assertArray(u, [3, 3], ([i, j]) => (j! >= i! ? j! + 1 : 0));
  using s = ga.full([], 1);
  assert.throws(() => ga.triu(s), {
    name: "RangeError",
    message: /Cannot take triu\(\) of an array of shape \[\]/,
  });
});

eachBackend("eye() and tri() refuse negative sizes and fractional diagonals", () => {
  assert.throws(() => ga.eye(-1), {
    name: "RangeError",
    message: "Cannot make eye() with n = -1: give a non-negative integer",
  });
  assert.throws(() => ga.tri(2, 2.5), { name: "RangeError", message: /with m = 2\.5/ });
  assert.throws(() => ga.eye(2, 2, 0.5), { name: "RangeError", message: /with k = 0\.5: give an integer/ });
});
