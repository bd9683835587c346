import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { allocations, deviceInts, host, hostMatmul, relativeError } from "./_linalg_host.ts";
import { cudaTest } from "../_backends.ts";

/** Checks `matmul(a, b)` (values exact: small integers) against the host's NumPy rules. */
function checkProduct(a: ga.GPUArray, b: ga.GPUArray, label: string): ga.GPUArray {
  const want = hostMatmul(host(a), host(b));
  const got = ga.matmul(a, b);
  assert.deepEqual(got.shape, want.shape, `${label}: shape`);
  assert.deepEqual(host(got).data, want.data, `${label}: values`);
  return got;
}

eachBackend("matmul() follows NumPy's rules for 1-D operands", () => {
  const v = deviceInts([4], 1), m = deviceInts([4, 3], 2), w = deviceInts([5, 4], 3);
  assert.deepEqual(checkProduct(v, m, "[4] @ [4, 3]").shape, [3]);
  assert.deepEqual(checkProduct(w, v, "[5, 4] @ [4]").shape, [5]);
  assert.deepEqual(checkProduct(v, v, "[4] @ [4]").shape, []);
  assert.deepEqual(checkProduct(v, deviceInts([2, 4, 3], 4), "[4] @ [2, 4, 3]").shape, [2, 3]);
  assert.deepEqual(checkProduct(deviceInts([2, 5, 4], 5), v, "[2, 5, 4] @ [4]").shape, [2, 5]);
});

eachBackend("matmul() broadcasts batch dimensions as NumPy does", () => {
  const cases: [number[], number[]][] = [
    [[3, 5, 4], [3, 4, 2]], // equal batches
    [[2, 1, 3, 4], [5, 4, 2]], // [2, 1] against [5]
    [[3, 4], [2, 4, 5]], // one matrix against a batch
    [[6, 3, 4], [4, 5]], // a batch against one matrix: one product of 18 rows
    [[6, 1, 4], [4, 5]], // the same with single rows
    [[1, 3, 4], [6, 4, 2]],
    [[4, 1, 2, 3], [1, 5, 3, 2]], // broadcast along different axes of each
    [[2, 3, 1, 2, 3], [3, 4, 3, 2]],
  ];
  cases.forEach(([sa, sb], i) => {
    checkProduct(deviceInts(sa, 10 + i), deviceInts(sb, 20 + i), `[${sa}] @ [${sb}]`);
  });
});

eachBackend("matmul() reads transposed, Fortran-ordered, sliced, flipped and offset views", () => {
  const base = deviceInts([6, 7], 30), other = deviceInts([7, 6], 31);
  const views: [string, ga.GPUArray, ga.GPUArray][] = [
    ["a.T @ b.T", base.T, other.T],
    ["a @ a.T", base, base.T],
    ["sliced rows and columns", base.slice([1, 5], [null, null, 2]), other.slice([null, null, 2], [1, 4])],
    ["flipped", base.flip(0), other.flip()],
    ["offset", base.slice([2, 6], [1, 7]), other.slice([1, 7], [3, 6])],
    ["a column of a matrix as a vector", base.slice([], 3), base.slice([], [0, 6])],
    [
      "Fortran-ordered",
      deviceInts([4, 3, 2], 32).transpose(2, 1, 0),
      deviceInts([2, 5, 4], 33).transpose(0, 2, 1),
    ],
  ];
  for (const [label, a, b] of views) checkProduct(a, b, label);
});

eachBackend("matmul() of a broadcast operand matches the product of its copy", () => {
  const row = deviceInts([1, 4], 40);
  const stretched = ga.broadcastTo(row, [3, 4]);
  checkProduct(stretched, deviceInts([4, 2], 41), "[1, 4] broadcast to [3, 4]");
  checkProduct(
    deviceInts([5, 3, 4], 43),
    ga.broadcastTo(deviceInts([4, 2], 42), [5, 4, 2]),
    "broadcast batch",
  );
});

eachBackend("matmul() promotes mixed dtypes as NumPy's result_type and wraps integer products", () => {
  const i32 = deviceInts([3, 4], 50, "int32"), f32 = deviceInts([4, 2], 51);
  if (i32.backend.supports("float64")) {
    const p = checkProduct(i32, f32, "int32 @ float32");
    assert.equal(p.dtype, "float64");
  }
  const i8 = deviceInts([3, 4], 52, "int8"), u8 = deviceInts([4, 2], 53, "uint8");
  assert.equal(checkProduct(i8, i8.T.copy().T.T, "int8 @ int8").dtype, "int8");
  assert.equal(ga.matmul(i8, u8).dtype, "int16");
  // 100 · 100 · 3 = 30000 wraps in int8 to 48, as NumPy's int8 product does.
  const hundreds = ga.full([1, 3], 100, "int8");
  const wrapped = ga.matmul(hundreds, ga.full([3, 1], 100, "int8"));
  assert.deepEqual([...wrapped.get()], [((30000 + 128) % 256) - 128]);
  // int64 products are exact past 2^53.
  const big = ga.full([2, 2], 2 ** 40, "int64"), three = ga.full([2, 2], 3, "int64");
  assert.deepEqual([...ga.matmul(big, three).get()], new Array(4).fill(BigInt(2 ** 40) * 6n));
  // bool @ bool is an `or` of `and`s.
  const t = ga.asarray([[true, false], [false, false]]), u = ga.asarray([[true, true], [false, true]]);
  const p = ga.matmul(t, u);
  assert.equal(p.dtype, "bool");
  assert.deepEqual([...p.get()], [1, 1, 0, 0]);
});

eachBackend("matmul() writes into out views, and into out sharing an input's memory", () => {
  const a = deviceInts([3, 4], 60), b = deviceInts([4, 5], 61);
  const want = hostMatmul(host(a), host(b)).data;
  const wide = ga.zeros([5, 3]);
  assert.equal(ga.matmul(a, b, { out: wide.T }).shape.join(), "3,5");
  assert.deepEqual(host(wide.T).data, want);
  const bigger = ga.full([6, 10], 999);
  const window = bigger.slice([1, 4], [null, null, 2]);
  ga.matmul(a, b, { out: window });
  assert.deepEqual(host(window).data, want);
  assert.equal(host(bigger).data.filter((x) => x === 999).length, 60 - 15, "only the window is written");
  const sq = deviceInts([4, 4], 62), before = host(sq);
  ga.matmul(sq, sq, { out: sq });
  assert.deepEqual(host(sq).data, hostMatmul(before, before).data);
  const batched = ga.zeros([2, 3]), m = deviceInts([2, 3, 4], 63), v = deviceInts([4], 64);
  ga.matmul(m, v, { out: batched });
  assert.deepEqual(host(batched).data, hostMatmul(host(m), host(v)).data);
});

eachBackend("matmul() with an empty inner dimension gives zeros, in out too", () => {
  const out = ga.full([2, 3, 2], 7);
  ga.matmul(ga.empty([2, 3, 0]), ga.empty([0, 2]), { out });
  assert.deepEqual([...out.get()], new Array(12).fill(0));
  assert.deepEqual([...ga.matmul(ga.empty([0]), ga.empty([0])).get()], [0]);
  assert.deepEqual(ga.matmul(ga.empty([4, 0, 3]), ga.ones([3, 2])).shape, [4, 0, 2]);
});

eachBackend("matmul() errors name both shapes and what to change", () => {
  const cases: [ga.GPUArray, ga.GPUArray, RegExp][] = [
    [
      ga.zeros([2, 3]),
      ga.zeros([4, 5]),
      /^Cannot matmul arrays of shapes \[2, 3\] and \[4, 5\]: the first's columns \(3\) must equal the second's rows \(4\)$/,
    ],
    [
      ga.zeros([3]),
      ga.zeros([4]),
      /^Cannot matmul arrays of shapes \[3\] and \[4\]: the first's columns \(3\)/,
    ],
    [
      ga.zeros([2, 2, 3]),
      ga.zeros([3, 3, 1]),
      /^Cannot matmul arrays of shapes \[2, 2, 3\] and \[3, 3, 1\]: their batch dimensions \[2\] and \[3\] do not broadcast$/,
    ],
    [
      ga.zeros([]),
      ga.zeros([3]),
      /^Cannot matmul arrays of shapes \[\] and \[3\]: a 0-d array has no matrix product/,
    ],
  ];
  for (const [a, b, message] of cases) assert.throws(() => ga.matmul(a, b), { name: "RangeError", message });
  const a = ga.ones([2, 3]), b = ga.ones([3, 4]);
  assert.throws(() => ga.matmul(a, b, { out: ga.zeros([4, 2]) }), {
    name: "RangeError",
    message: "Cannot matmul into an array of shape [4, 2]: the result has shape [2, 4]",
  });
  assert.throws(() => ga.matmul(a, b, { out: ga.zeros([2, 4], "int32") }), {
    name: "TypeError",
    message: /^Cannot matmul into a int32 array: the result is float32/,
  });
  assert.throws(() => ga.matmul(a, b, { out: ga.broadcastTo(ga.zeros([4]), [2, 4]) }), {
    name: "RangeError",
    message: /^Cannot matmul into a broadcast view of shape \[2, 4\]/,
  });
  assert.throws(() => ga.matmul(a, 2 as unknown as ga.GPUArray), {
    name: "TypeError",
    message: /pass two GPUArrays/,
  });
});

eachBackend("matmul() of random float32 batches matches a float64 host product to 1e-5", () => {
  const [batch, m, k, n] = [3, 37, 29, 41];
  const a = ga.random.normal([batch, m, k], { seed: 70 }), b = ga.random.normal([k, n], { seed: 71 });
  const got = host(ga.matmul(a, b.T.copy().T)).data, want = hostMatmul(host(a), host(b)).data;
  assert.ok(relativeError(got, want) < 1e-5);
});

eachBackend("the tiled kernel reads every view in place: matmul() into out allocates nothing", (backend) => {
  // The tiled kernel runs float32 on OpenCL, integers on CUDA.
  const dtype = backend === "cuda" ? "int32" : "float32";
  const base = deviceInts([8, 8], 80, dtype), other = deviceInts([3, 8, 8], 81, dtype);
  const out = ga.empty([3, 4, 8], dtype);
  const cases: [string, () => unknown][] = [
    ["transposed", () => ga.matmul(base.T.slice([0, 4]), other, { out })],
    ["flipped and stepped", () => ga.matmul(base.flip(0).slice([null, null, 2]), other.flip(2), { out })],
    ["broadcast batch", () => ga.matmul(ga.broadcastTo(base.slice([0, 4]), [3, 4, 8]), other.T.T, { out })],
  ];
  for (const [label, run] of cases) assert.equal(allocations(base.backend, run), 0, label);
  const want = hostMatmul(host(ga.broadcastTo(base.slice([0, 4]), [3, 4, 8])), host(other)).data;
  assert.deepEqual(host(out).data, want);
});

cudaTest("matmul() on CUDA multiplies integer batches on the tiled kernel, exactly", () => {
  ga.useBackend("cuda");
  for (const dtype of ["int32", "int64", "uint8", "int16"] as const) {
    checkProduct(deviceInts([3, 5, 7], 90, dtype), deviceInts([7, 4], 91, dtype).T.copy().T, dtype);
  }
});

eachBackend("the tiled kernel steps over batches and row tiles past the grid's 65535 blocks", (backend) => {
  const dtype = backend === "cuda" ? "int32" : "float32"; // the tiled kernel's dtypes on each backend
  const n = 70_000;
  const products = ga.matmul(ga.arange(0, n, 1, dtype).reshape(n, 1, 1), ga.full([n, 1, 1], 2, dtype)).get();
  assert.equal(products.findIndex((v, i) => Number(v) !== 2 * i), -1, "batch");
  const m = 16 * 65535 + 40;
  const rows = ga.matmul(ga.arange(0, m, 1, dtype).reshape(m, 1), ga.full([1, 1], 3, dtype)).get();
  assert.equal(rows.findIndex((v, i) => Number(v) !== 3 * i), -1, "rows");
});

cudaTest(
  "matmul() on CUDA runs batches of every float dtype on cuBLAS, reading column-major operands in place",
  () => {
    ga.useBackend("cuda");
    for (const dtype of ["float32", "float64", "float16", "bfloat16"] as const) {
      // Small integers: every product and sum is exact even in bfloat16.
      const a = deviceInts([4, 6, 5], 100, dtype), b = deviceInts([4, 7, 5], 101, dtype).transpose(0, 2, 1);
      const single = deviceInts([5, 6], 102, dtype).T;
      const out = ga.empty([4, 6, 7], dtype), out2 = ga.empty([4, 6, 7], dtype);
      assert.equal(allocations(a.backend, () => ga.matmul(a, b, { out })), 0, `${dtype}: batch`);
      assert.equal(
        allocations(a.backend, () => ga.matmul(single, b, { out: out2 })),
        0,
        `${dtype}: broadcast`,
      );
      const f32 = (x: ga.GPUArray) => host(x.astype("float32"));
      assert.deepEqual(f32(out).data, hostMatmul(f32(a), f32(b)).data, `${dtype}: batch`);
      assert.deepEqual(f32(out2).data, hostMatmul(f32(single), f32(b)).data, `${dtype}: broadcast`);
    }
  },
);
