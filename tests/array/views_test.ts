import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

/** 0, 1, 2, ... as float32 of `shape`, on the device and on the host. */
function counting(shape: number[]): { gpu: ga.GPUArray<"float32">; host: Float32Array } {
  const n = shape.reduce((a, b) => a * b, 1);
  const host = Float32Array.from({ length: n }, (_, i) => i);
  return { gpu: ga.toGpu(host, shape), host };
}

eachBackend("a transposed view reads, copies and computes in its own order", () => {
  const { gpu, host } = counting([3, 5]);
  const t = gpu.T;
  assert.deepEqual([t.shape, t.strides, t.isContiguous], [[5, 3], [1, 5], false]);
  const expected = Float32Array.from({ length: 15 }, (_, k) => host[(k % 3) * 5 + Math.floor(k / 3)]!);
  assert.deepEqual(t.get(), expected);
  assert.deepEqual(t.copy().get(), expected);
  assert.deepEqual(t.mul(2).get(), expected.map((v) => v * 2));
  const big = counting([70, 45]);
  assert.deepEqual(
    big.gpu.T.copy().get(),
    Float32Array.from({ length: 70 * 45 }, (_, k) => (k % 70) * 45 + Math.floor(k / 70)),
  );
});

eachBackend("slices with steps and negative steps are views that compute and write through", () => {
  const { gpu, host } = counting([4, 6]);
  const v = gpu.slice([null, null, -1], [1, null, 2]); // x[::-1, 1::2]
  assert.deepEqual(v.shape, [4, 3]);
  const expected = [3, 2, 1, 0].flatMap((r) => [1, 3, 5].map((c) => host[r * 6 + c]!));
  assert.deepEqual(Array.from(v.get()), expected);
  assert.deepEqual(Array.from(v.add(0.5).get()), expected.map((e) => e + 0.5));
  v.fill(-1);
  const after = gpu.get();
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 6; c++) {
      assert.equal(after[r * 6 + c], c % 2 === 1 ? -1 : host[r * 6 + c], `(${r}, ${c})`);
    }
  }
  gpu.slice(2).assign(ga.asarray([9, 8, 7, 6, 5, 4]));
  assert.deepEqual(Array.from(gpu.slice(2).get()), [9, 8, 7, 6, 5, 4]);
  gpu.slice([], 0).set(Float32Array.of(10, 11, 12, 13));
  assert.deepEqual(Array.from(gpu.slice([], 0).get()), [10, 11, 12, 13]);
});

eachBackend("binary operations broadcast by NumPy's rules, into new arrays and into out", () => {
  const a = ga.asarray([[1, 2, 3], [4, 5, 6]]);
  assert.deepEqual(Array.from(a.sub(ga.asarray([1, 1, 1])).get()), [0, 1, 2, 3, 4, 5]);
  const col = ga.asarray([[10], [20]]);
  assert.deepEqual(Array.from(a.add(col).get()), [11, 12, 13, 24, 25, 26]);
  assert.deepEqual(ga.add(ga.asarray([1, 2]), ga.asarray([[1], [2], [3]])).shape, [3, 2]);
  const out = ga.zeros([2, 3]);
  ga.mul(a, ga.asarray([2, 0, 1]), { out });
  assert.deepEqual(Array.from(out.get()), [2, 0, 3, 8, 0, 6]);
  assert.throws(() => a.add(ga.zeros([2])), { name: "RangeError", message: /shapes \[2, 3\] and \[2\]/ });
  assert.throws(() => ga.add(a, col, { out: ga.zeros([3, 2]) }), {
    name: "RangeError",
    message: "Cannot add into an array of shape [3, 2]: the result has shape [2, 3]",
  });
  assert.throws(() => ga.add(a, 1, { out: a.slice([0, 1]).broadcastTo([2, 3]) }), {
    name: "RangeError",
    message: /into a broadcast view/,
  });
});

eachBackend("an assignment between overlapping views reads every element before it is written", () => {
  const { gpu } = counting([10]);
  gpu.slice([1, null]).assign(gpu.slice([null, -1]));
  assert.deepEqual(Array.from(gpu.get()), [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
  const m = counting([3, 3]).gpu;
  m.assign(m.T);
  assert.deepEqual(Array.from(m.get()), [0, 3, 6, 1, 4, 7, 2, 5, 8]);
});

eachBackend(
  "reshape views what it can and copies what it must; ravel, flip, squeeze, expandDims, moveaxis, diagonal",
  () => {
    const { gpu, host } = counting([2, 3, 4]);
    const r = gpu.reshape(6, -1);
    assert.equal(r.base, gpu);
    r.slice(0).fill(100);
    assert.equal(gpu.get()[0], 100);
    gpu.slice(0, 0).assign(ga.asarray([0, 1, 2, 3]));
    const t = gpu.transpose(2, 0, 1);
    const flat = t.reshape(-1);
    assert.deepEqual(Array.from(flat.get()), Array.from(t.get()), "a copy where strides cannot express it");
    flat.fill(0);
    assert.deepEqual(gpu.get(), host, "the copy is not the original");
    assert.deepEqual(gpu.ravel().shape, [24]);
    assert.deepEqual(Array.from(ga.flip(ga.arange(5)).get()), [4, 3, 2, 1, 0]);
    assert.deepEqual(ga.zeros([1, 3, 1]).squeeze().shape, [3]);
    assert.throws(() => ga.zeros([2, 3]).squeeze(0), { name: "RangeError", message: /extent is 2, not 1/ });
    assert.deepEqual(ga.expandDims(ga.zeros([3]), [0, 2]).shape, [1, 3, 1]);
    assert.throws(() => ga.expandDims(ga.zeros([3]), undefined as never), {
      name: "TypeError",
      message: "Cannot expandDims with axis undefined: give the new axis (a number) or a list of them",
    });
    assert.deepEqual(ga.moveaxis(gpu, 0, -1).shape, [3, 4, 2]);
    assert.deepEqual(Array.from(ga.diagonal(counting([3, 4]).gpu, { offset: 1 }).get()), [1, 6, 11]);
  },
);

eachBackend("where tests a float condition before converting it, and scalars stay weak", () => {
  assert.deepEqual(ga.where(ga.asarray([0, 0.5, -0.25]), 1, 0).get(), BigInt64Array.of(0n, 1n, 1n));
  const x = ga.asarray([1, 2, 3], "uint8");
  assert.equal(x.add(250).dtype, "uint8");
  assert.throws(() => x.add(300), {
    name: "RangeError",
    message:
      "Cannot add 300 and a uint8 array: 300 is out of uint8's range 0..255; convert the array first (astype())",
  });
  assert.equal(x.add(0.5).dtype, "float64");
  assert.deepEqual(Array.from(ga.full([3], 2.7, "int32").get()), [2, 2, 2]);
  assert.throws(() => ga.full([3], 300, "int8"), {
    name: "RangeError",
    message: /300 is out of int8's range/,
  });
});

eachBackend("ElementwiseKernel arguments broadcast and may be views", () => {
  const lin = new ga.ElementwiseKernel(
    "float *x, float *y, float *z, float a",
    "z[i] = a*x[i] + y[i]",
    "lin_b",
  );
  const x = ga.asarray([[1, 2, 3], [4, 5, 6]]).T, y = ga.asarray([100, 200]), z = ga.zeros([3, 2]);
  lin(x, y, z, 2);
  assert.deepEqual(Array.from(z.get()), [102, 208, 104, 210, 106, 212]);
  const raw = new ga.ElementwiseKernel("float *x, float *z", "z[i] = x[0] + x[i]", "raw_index");
  assert.throws(() => raw(x, ga.zeros([3, 2])), {
    name: "TypeError",
    message: /indexes it other than as x\[i\]/,
  });
  const ok = ga.asarray([1, 2, 3]), into = ga.zeros([3]);
  raw(ok, into);
  assert.deepEqual(Array.from(into.get()), [2, 3, 4]);
});
