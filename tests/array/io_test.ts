import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

const fixture = (name: string) => new URL(`../cli/fixtures/${name}`, import.meta.url);

function tempDir(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "cudeno_io_" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

eachBackend("save() writes the bytes numpy.save writes for the same array", () => {
  using tmp = tempDir();
  using a = ga.asarray([[0, 0.5, 1], [1.5, 2, 2.5]]);
  ga.save(`${tmp.path}/a.npy`, a);
  assert.deepEqual(Deno.readFileSync(`${tmp.path}/a.npy`), Deno.readFileSync(fixture("f4_2x3.npy")));
  using flags = ga.asarray([true, false, true]);
  ga.save(`${tmp.path}/b`, flags); // NumPy appends .npy to a path without it
  assert.deepEqual(Deno.readFileSync(`${tmp.path}/b.npy`), Deno.readFileSync(fixture("b1.npy")));
});

eachBackend("save() and load() round-trip every dtype the backend has, with its shape", () => {
  using tmp = tempDir();
  const cases: [ga.DType, ArrayBufferView & { length: number }, number[]][] = [
    ["float32", Float32Array.of(1.5, -2, 3e-8, Infinity, NaN, -0), [2, 3]],
    ["float64", Float64Array.of(Math.PI, -1e300), [2]],
    ["float16", Float16Array.of(0.5, 65504, -0.25, 1), [2, 1, 2]],
    ["bfloat16", Uint16Array.of(0x3f80, 0xc000, 0x7f80), [3]],
    ["int8", Int8Array.of(-128, 127), [2]],
    ["uint8", Uint8Array.of(0, 255, 7), [3]],
    ["int16", Int16Array.of(-32768, 32767), [1, 2]],
    ["uint16", Uint16Array.of(65535, 0), [2]],
    ["int32", Int32Array.of(-(2 ** 31), 2 ** 31 - 1, 5), [3, 1]],
    ["uint32", Uint32Array.of(2 ** 32 - 1), []],
    ["int64", BigInt64Array.of(-(2n ** 63n), 2n ** 62n + 1n), [2]],
    ["uint64", BigUint64Array.of(2n ** 64n - 1n, 3n), [2]],
    ["bool", Uint8Array.of(1, 0, 0, 1), [2, 2]],
  ];
  const backend = ga.zeros(1).backend;
  for (const [dtype, host, shape] of cases) {
    if (!backend.supports(dtype)) continue;
    using a = ga.toGpu(host, shape, dtype);
    const path = `${tmp.path}/${dtype}.npy`;
    ga.save(path, a);
    using back = ga.load(path);
    assert.equal(back.dtype, dtype, dtype);
    assert.deepEqual(back.shape, shape, dtype);
    assert.deepEqual(back.get(), host, dtype);
  }
});

eachBackend("save() writes a non-contiguous view in C order", () => {
  using tmp = tempDir();
  using a = ga.arange(12, undefined, 1, "int32").reshape(3, 4);
  using view = a.T.slice([null, null, -1]); // shape [4, 3], rows reversed
  ga.save(`${tmp.path}/v.npy`, view);
  using back = ga.load(`${tmp.path}/v.npy`);
  assert.deepEqual(back.shape, [4, 3]);
  const expected: number[] = [];
  for (let i = 3; i >= 0; i--) for (let j = 0; j < 3; j++) expected.push(j * 4 + i);
  assert.deepEqual(back.tolist(), [0, 1, 2, 3].map((r) => expected.slice(3 * r, 3 * r + 3)));
});

eachBackend("load() reads NumPy's files: 0-d, empty, version 2.0 and Fortran order", () => {
  using scalar = ga.load(fixture("f8_scalar.npy"));
  if (scalar.backend.supports("float64")) assert.deepEqual([scalar.shape, scalar.item()], [[], 1.5]);
  using empty = ga.load(fixture("i4_2x0x3.npy"));
  assert.deepEqual([empty.dtype, empty.shape, empty.size], ["int32", [2, 0, 3], 0]);
  using v2 = ga.load(fixture("u2_v2.npy"));
  assert.deepEqual(v2.tolist(), [1, 2, 3]);
  using fortran = ga.load(fixture("f4_fortran.npy"));
  assert.deepEqual(fortran.tolist(), [[0, 1, 2], [3, 4, 5]]);
});

eachBackend("saveAsync() and loadAsync() round-trip an array", async () => {
  using tmp = tempDir();
  using a = ga.arange(10).reshape(2, 5);
  await ga.saveAsync(`${tmp.path}/a.npy`, a.slice([], [1, 4]));
  using back = await ga.loadAsync(`${tmp.path}/a.npy`);
  assert.deepEqual(back.tolist(), [[1, 2, 3], [6, 7, 8]]);
});

eachBackend("load() reads the complex64 file NumPy wrote", () => {
  // numpy.save("c8.npy", numpy.array([1 + 2j], dtype="<c8"))
  const z = ga.load(fixture("c8.npy"));
  assert.equal(z.dtype, "complex64");
  assert.deepEqual(z.shape, [1]);
  assert.deepEqual([...z.get()], [1, 2]);
});

eachBackend("load() of a file that is not .npy is an NpyError naming the file", () => {
  using tmp = tempDir();
  Deno.writeTextFileSync(`${tmp.path}/t.npy`, "x,y\n1,2\n");
  assert.throws(() => ga.load(`${tmp.path}/t.npy`), {
    name: "NpyError",
    message: /t\.npy: not a \.npy file/,
  });
  assert.throws(() => ga.save(`${tmp.path}/x.npy`, [1, 2] as never), {
    name: "TypeError",
    message: "Cannot save object to .npy: pass a GPUArray",
  });
});
