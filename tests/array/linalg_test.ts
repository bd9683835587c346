import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { deviceInts, host, hostEinsum, hostMatmul } from "./_linalg_host.ts";

function sameArray(got: unknown, want: { shape: readonly number[]; data: readonly number[] }, label: string) {
  assert.ok(got instanceof ga.GPUArray, `${label}: an array`);
  assert.deepEqual(got.shape, want.shape, `${label}: shape`);
  assert.deepEqual(host(got).data, want.data, `${label}: values`);
}

eachBackend("dot() of two 1-D arrays is a host number, and of 2-D arrays the matrix product", () => {
  const v = deviceInts([7], 1), w = deviceInts([7], 2);
  assert.equal(ga.dot(v, w), hostEinsum("i,i->", host(v), host(w)).data[0]);
  assert.equal(v.dot(w), ga.dot(v, w));
  const a = deviceInts([3, 7], 3), b = deviceInts([7, 4], 4);
  sameArray(ga.dot(a, b), hostMatmul(host(a), host(b)), "2-D · 2-D");
  sameArray(a.dot(b), hostMatmul(host(a), host(b)), "the method");
  sameArray(ga.dot(a, v), hostMatmul(host(a), host(v)), "2-D · 1-D");
  sameArray(ga.dot(v, b), hostMatmul(host(v), host(b)), "1-D · 2-D");
});

eachBackend("dot() of N-D arrays sums the last axis of a against the second-to-last of b", () => {
  const a = deviceInts([2, 3, 4], 5), b = deviceInts([5, 4, 2], 6), m = deviceInts([4, 6], 7);
  sameArray(ga.dot(a, b), hostEinsum("ijk,lkm->ijlm", host(a), host(b)), "3-D · 3-D");
  sameArray(ga.dot(a, m), hostEinsum("ijk,km->ijm", host(a), host(m)), "3-D · 2-D");
  sameArray(ga.dot(m.T, b), hostEinsum("ik,lkm->ilm", host(m.T), host(b)), "2-D · 3-D");
  sameArray(
    ga.dot(a, deviceInts([4], 8)),
    hostEinsum("ijk,k->ij", host(a), host(deviceInts([4], 8))),
    "3-D · 1-D",
  );
  const s = ga.full([], 3);
  sameArray(ga.dot(s, m), { shape: [4, 6], data: host(m).data.map((x) => 3 * x) }, "0-d · 2-D");
});

eachBackend("dot() errors name both shapes and the summed axes", () => {
  assert.throws(() => ga.dot(ga.zeros([2, 3]), ga.zeros([4, 5])), {
    name: "RangeError",
    message: "Cannot dot arrays of shapes [2, 3] and [4, 5]: the first's last axis (3) and the second's " +
      "second-to-last axis (4) differ",
  });
  assert.throws(() => ga.dot(ga.zeros([3]), ga.zeros([4])), {
    name: "RangeError",
    message: /^Cannot dot arrays of shapes \[3\] and \[4\]: .* the second's only axis \(4\) differ$/,
  });
});

eachBackend("vdot() flattens any layouts to a host number", () => {
  const a = deviceInts([3, 4], 10), b = deviceInts([4, 3], 11);
  const want = host(a).data.reduce((s, x, i) => s + x * host(b.T.copy().T).data[i]!, 0);
  assert.equal(ga.vdot(a, b.T.copy().T), want);
  const flat = host(a.T).data, other = host(b).data;
  assert.equal(ga.vdot(a.T, b), flat.reduce((s, x, i) => s + x * other[i]!, 0));
  assert.throws(() => ga.vdot(ga.zeros([3]), ga.zeros([4])), {
    name: "RangeError",
    message: "Cannot vdot arrays of shapes [3] and [4]: the sizes (3 and 4) differ",
  });
});

eachBackend("inner() sums over the last axes of both", () => {
  const v = deviceInts([5], 20), w = deviceInts([5], 21);
  assert.equal(ga.inner(v, w), hostEinsum("i,i->", host(v), host(w)).data[0]);
  const a = deviceInts([3, 5], 22), b = deviceInts([2, 4, 5], 23);
  sameArray(ga.inner(a, b), hostEinsum("ik,jlk->ijl", host(a), host(b)), "2-D, 3-D");
  sameArray(ga.inner(a, a), hostEinsum("ik,jk->ij", host(a), host(a)), "a·aᵀ");
  assert.throws(() => ga.inner(a, ga.zeros([5, 3])), {
    name: "RangeError",
    message: "Cannot inner arrays of shapes [3, 5] and [5, 3]: their last axes (5 and 3) differ",
  });
});

eachBackend("outer() multiplies every element of a by every element of b, flattened", () => {
  const a = deviceInts([2, 3], 30), b = deviceInts([4], 31);
  sameArray(ga.outer(a, b), hostEinsum("i,j->ij", { shape: [6], data: host(a).data }, host(b)), "outer");
  const out = ga.zeros([4, 6]);
  assert.equal(ga.outer(b, a.T, { out }), out);
  sameArray(out, hostEinsum("i,j->ij", host(b), { shape: [6], data: host(a.T).data }), "into out");
  assert.equal(ga.outer(ga.ones(2, "int8"), ga.ones(2, "int16")).dtype, "int16");
});

eachBackend("trace() of a 2-D array is a host value; of more dimensions an array of diagonal sums", () => {
  const a = deviceInts([4, 5], 40);
  const d = host(a).data;
  const diag = (k: number) =>
    [0, 1, 2, 3].filter((i) => i + k >= 0 && i + k < 5).map((i) => d[i * 5 + i + k]!);
  const total = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  assert.equal(ga.trace(a), total(diag(0)));
  assert.equal(a.trace({ offset: 1 }), total(diag(1)));
  assert.equal(ga.trace(a, { offset: -2 }), total(diag(-2)));
  assert.equal(ga.trace(a, { offset: 9 }), 0);
  assert.equal(
    ga.trace(deviceInts([3, 3], 41, "int32")),
    BigInt(hostEinsum("ii->", host(deviceInts([3, 3], 41))).data[0]!),
  );
  const cube = deviceInts([3, 2, 3], 42);
  const t = ga.trace(cube, { axis1: 0, axis2: 2 });
  sameArray(t, hostEinsum("iji->j", host(cube)), "axes 0 and 2");
  const ints = ga.trace(deviceInts([2, 3, 3], 43, "int16"), { axis1: 1, axis2: 2 }) as ga.GPUArray;
  assert.equal(ints.dtype, "int64");
  assert.deepEqual(host(ints).data, hostEinsum("ijj->i", host(deviceInts([2, 3, 3], 43))).data);
  assert.throws(() => ga.trace(ga.zeros([3])), { name: "RangeError", message: /at least 2/ });
});

eachBackend("tensordot() pairs the last axes of a with the first of b, or the axes listed", () => {
  const a = deviceInts([3, 4, 5], 50), b = deviceInts([4, 5, 2], 51);
  sameArray(ga.tensordot(a, b), hostEinsum("ijk,jkl->il", host(a), host(b)), "axes = 2");
  const c = deviceInts([5, 6, 2], 52);
  sameArray(ga.tensordot(a, c, 1), hostEinsum("ijk,klm->ijlm", host(a), host(c)), "axes = 1");
  sameArray(ga.tensordot(a, b, 0), hostEinsum("ijk,lmn->ijklmn", host(a), host(b)), "axes = 0");
  sameArray(ga.tensordot(a, b, [[1], [0]]), hostEinsum("ijk,jlm->iklm", host(a), host(b)), "[[1], [0]]");
  sameArray(
    ga.tensordot(a, b, [[2, 1], [1, 0]]),
    hostEinsum("ijk,jkl->il", host(a), host(b)),
    "[[2, 1], [1, 0]]",
  );
  sameArray(ga.tensordot(a.T, b, [[1, 0], [0, 1]]), hostEinsum("kji,jkl->il", host(a.T), host(b)), "a view");
  assert.throws(() => ga.tensordot(a, b, [[0], [0]]), {
    name: "RangeError",
    message:
      "Cannot tensordot arrays of shapes [3, 4, 5] and [4, 5, 2]: axis 0 of the first (3) and axis 0 of " +
      "the second (4) differ",
  });
  assert.throws(() => ga.tensordot(a, b, 4), { name: "RangeError", message: /axes = 4 must be an integer/ });
  assert.throws(() => ga.tensordot(a, b, [[0, 1], [0]]), { name: "RangeError", message: /in pairs/ });
});
