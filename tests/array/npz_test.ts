import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { crc32, readZip, writeZip } from "../../src/kernel/zip.ts";
import { writeNpy } from "../../src/kernel/npy.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";
import { eachBackend } from "./_each_backend.ts";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

function tempDir(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "cudeno_npz_" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

const fail = (detail: string): never => {
  throw new Error(detail);
};

Deno.test("crc32() gives the published check values", () => {
  const text = new TextEncoder();
  assert.equal(crc32(new Uint8Array(0)), 0);
  assert.equal(crc32(text.encode("123456789")), 0xcbf43926);
  assert.equal(crc32(text.encode("The quick brown fox jumps over the lazy dog")), 0x414fa339);
});

Deno.test("writeZip() of one stored .npy member writes the bytes of the ZIP specification, computed by hand", () => {
  const npy = writeNpy(Uint8Array.of(1, 0), [2], "bool"); // numpy.save of [True, False]: 130 bytes
  assert.equal(npy.length, 130);
  const name = [0x61, 0x2e, 0x6e, 0x70, 0x79]; // "a.npy"
  const u16 = (v: number) => [v & 0xff, v >>> 8];
  const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
  const crc = u32(0x5dbb19ee); // zlib.crc32 of those 130 bytes
  const date = u16(0x21); // 1980-01-01
  const local = [
    ...u32(0x04034b50),
    ...u16(20),
    ...u16(0),
    ...u16(0),
    ...u16(0),
    ...date,
    ...crc,
    ...u32(130),
    ...u32(130),
    ...u16(5),
    ...u16(0),
    ...name,
  ];
  const central = [
    ...u32(0x02014b50),
    ...u16(0x0314),
    ...u16(20),
    ...u16(0),
    ...u16(0),
    ...u16(0),
    ...date,
    ...crc,
    ...u32(130),
    ...u32(130),
    ...u16(5),
    ...u16(0),
    ...u16(0),
    ...u16(0),
    ...u16(0),
    ...u32(0o100644 << 16 >>> 0),
    ...u32(0),
    ...name,
  ];
  const end = [
    ...u32(0x06054b50),
    ...u16(0),
    ...u16(0),
    ...u16(1),
    ...u16(1),
    ...u32(51),
    ...u32(165),
    ...u16(0),
  ];
  const want = Uint8Array.from([...local, ...npy, ...central, ...end]);
  assert.deepEqual(writeZip([{ name: "a.npy", data: npy }], { compress: false }), want);
});

Deno.test("readZip() reads back what writeZip() wrote: stored, deflated and with Zip64 records", () => {
  const entries = [
    { name: "x.npy", data: writeNpy(Float64Array.from({ length: 1000 }, (_, i) => i % 7), [10, 100]) },
    { name: "empty", data: new Uint8Array(0) },
    { name: "ü.npy", data: Uint8Array.of(1, 2, 3) },
  ];
  for (
    const options of [{ compress: false }, { compress: true }, { compress: true, zip64: true }, {
      compress: false,
      zip64: true,
    }]
  ) {
    const back = readZip(writeZip(entries, options), fail);
    assert.deepEqual(back.map((e) => e.name), entries.map((e) => e.name), JSON.stringify(options));
    back.forEach((e, i) => assert.deepEqual(e.data, entries[i]!.data));
  }
  const stored = writeZip(entries, { compress: false }).length;
  assert.ok(writeZip(entries, { compress: true }).length < stored / 4);
});

eachBackend(
  "load() reads numpy.savez and numpy.savez_compressed files (Zip64 local headers) with every array's dtype and shape",
  () => {
    for (const file of ["numpy_savez.npz", "numpy_savez_compressed.npz"]) {
      const arrays = ga.load(fixture(file).pathname as `${string}.npz`);
      assert.deepEqual(Object.keys(arrays), ["a", "b", "c", "d"]);
      const { a, b, c, d } = arrays;
      assert.deepEqual([a!.dtype, a!.shape, [...a!.get() as Float32Array]], ["float32", [2, 3], [
        0,
        0.5,
        1,
        1.5,
        2,
        2.5,
      ]]);
      assert.deepEqual([b!.dtype, b!.shape, b!.item()], ["int64", [], 7n]);
      assert.deepEqual([c!.dtype, c!.shape], ["bool", [0, 3]]);
      assert.deepEqual([d!.dtype, [...d!.get() as Uint16Array]], ["uint16", [0, 1, 2, 3, 4]]);
    }
  },
);

eachBackend(
  "savez() and savezCompressed() round-trip every dtype the backend has through load() and loadAsync()",
  async () => {
    using tmp = tempDir();
    const backend = ga.zeros(1).backend;
    const cases: [ga.DType, ArrayBufferView & { length: number }, number[]][] = [
      ["float32", Float32Array.of(1.5, -2, 3e-8, Infinity, NaN, -0), [2, 3]],
      ["float64", Float64Array.of(1e300, -0.1), [2]],
      ["float16", Uint16Array.of(0x3c00, 0xc000), [2]],
      ["int8", Int8Array.of(-128, 127, 0, 1), [2, 2]],
      ["uint32", Uint32Array.of(4294967295, 0), [2, 1]],
      ["int64", BigInt64Array.of(-(2n ** 63n), 2n ** 63n - 1n), [2]],
      ["bool", Uint8Array.of(1, 0, 1), [3]],
      ["int32", Int32Array.of(42), []],
      ["float32", new Float32Array(0), [0, 4]],
    ];
    const arrays: Record<string, ga.GPUArray> = {};
    cases.filter(([dtype]) => backend.supports(dtype)).forEach(([dtype, data, shape], i) => {
      arrays[`${dtype}_${i}`] = ga.toGpu(data, shape, dtype);
    });
    arrays["view"] = ga.arange(12, "int32").reshape(3, 4).T.slice([1, 3]); // saved in C order
    ga.savez(`${tmp.path}/stored`, arrays); // NumPy appends .npz
    ga.savezCompressed(`${tmp.path}/packed.npz`, arrays);
    for (const back of [ga.load(`${tmp.path}/stored.npz`), await ga.loadAsync(`${tmp.path}/packed.npz`)]) {
      assert.deepEqual(Object.keys(back), Object.keys(arrays));
      for (const [key, a] of Object.entries(arrays)) {
        const b = back[key]!;
        assert.deepEqual([b.dtype, b.shape], [a.dtype, a.shape], key);
        assert.deepEqual(b.get(), a.get(), key);
      }
    }
    assert.deepEqual([...ga.load(`${tmp.path}/stored.npz`).view!.get() as Int32Array], [1, 5, 9, 2, 6, 10]);
    ga.savez(`${tmp.path}/list.npz`, [ga.arange(2, "int32"), ga.ones([1])]);
    assert.deepEqual(Object.keys(ga.load(`${tmp.path}/list.npz`)), ["arr_0", "arr_1"]);
    ga.savez(`${tmp.path}/none.npz`, {});
    assert.deepEqual(Object.keys(ga.load(`${tmp.path}/none.npz`)), []);
  },
);

eachBackend("load() of a broken .npz file is an NpyError saying what is wrong and naming the member", () => {
  using tmp = tempDir();
  ga.savez(`${tmp.path}/good.npz`, { x: ga.arange(100, "int32") });
  const good = Deno.readFileSync(`${tmp.path}/good.npz`);
  const write = (name: string, bytes: Uint8Array) => {
    Deno.writeFileSync(`${tmp.path}/${name}`, bytes);
    return `${tmp.path}/${name}` as `${string}.npz`;
  };
  const flipped = good.slice();
  flipped[200]! ^= 1; // inside x.npy's data
  const cases: [string, RegExp][] = [
    [write("crc.npz", flipped), /member "x.npy" fails its CRC-32 check/],
    [write("short.npz", good.subarray(0, 150)), /no end-of-central-directory record/],
    [
      write("cut.npz", Uint8Array.from([...good.subarray(0, 60), ...good.subarray(good.length - 80)])),
      /truncated|bad signature|no local header/,
    ],
    [
      write("text.npz", writeZip([{ name: "notes.txt", data: new Uint8Array(3) }], { compress: false })),
      /member "notes.txt" is not a .npy file/,
    ],
    [
      write("bad.npz", writeZip([{ name: "y.npy", data: new Uint8Array(8) }], { compress: true })),
      /member "y.npy".*not a .npy file/,
    ],
    [write("npy.npz", writeNpy(Int32Array.of(1))), /this is a .npy file, not a .npz archive/],
  ];
  for (const [path, message] of cases) {
    assert.throws(() => ga.load(path as `${string}.npz`), { name: "NpyError", message }, path);
  }
  ga.save(`${tmp.path}/zip.npy`, ga.arange(2));
  Deno.copyFileSync(`${tmp.path}/good.npz`, `${tmp.path}/zip.npy`);
  assert.throws(() => ga.load(`${tmp.path}/zip.npy`), {
    name: "NpyError",
    message: /a .npz \(zip\) archive/,
  });
  assert.throws(() => ga.savez(`${tmp.path}/x.npz`, { x: [1, 2] as unknown as ga.GPUArray }), {
    name: "TypeError",
    message: /"x", which is object/,
  });
  assert.throws(() => ga.savez(`${tmp.path}/x.npz`, ga.arange(2) as unknown as ga.GPUArray[]), TypeError);
});

const NAMES = ["f4", "f8", "f2", "i8", "u8", "u1", "b1", "empty", "scalar"] as const;
const VALUES: Record<(typeof NAMES)[number], () => ga.GPUArray> = {
  f4: () => ga.asarray([[0, 0.5, 1], [1.5, 2, 2.5]], "float32"),
  f8: () => ga.asarray([1e300, -2.5, 3.25], "float64"),
  f2: () => ga.toGpu(Uint16Array.of(0x3800, 0xbc00, 0x7bff), [3], "float16"),
  i8: () => ga.asarray([-(2n ** 63n), 2n ** 63n - 1n, 0n], "int64"),
  u8: () => ga.asarray([2n ** 64n - 1n, 0n, 5n], "uint64"),
  u1: () => ga.asarray([0, 255, 7], "uint8"),
  b1: () => ga.asarray([true, false, true]),
  empty: () => ga.zeros([0, 2], "float32"),
  scalar: () => ga.asarray(42, "int32"),
};

function numpyProblem(): string | undefined {
  try {
    const run = new Deno.Command("python3", { args: ["-c", "import numpy"], stdout: "null", stderr: "null" })
      .outputSync();
    return run.success ? undefined : "python3 cannot import numpy";
  } catch {
    return "no python3";
  }
}

const NUMPY = numpyProblem();
const CHECK = new URL("./npz_numpy_check.py", import.meta.url).pathname;

function python(...args: string[]): void {
  const run = new Deno.Command("python3", { args: [CHECK, ...args] }).outputSync();
  const out = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
  assert.ok(run.success && out.trim() === "ok", out);
}

for (const backend of ["cuda", "opencl"] as const) {
  const reason = backend === "cuda" ? cudaProblem : openclProblem;
  const problem = reason === undefined ? NUMPY : reason.split("\n")[0]!.split(": no candidate")[0];
  Deno.test({
    name:
      `NumPy loads the .npz files savez(), savezCompressed() and writeZip() write, and load() reads NumPy's [${backend}${
        problem === undefined ? "" : `; ignored: ${problem}`
      }]`,
    ignore: problem !== undefined,
    fn: () => {
      ga.useBackend(backend);
      using tmp = tempDir();
      const names = NAMES.filter((n) => n !== "f2" || ga.zeros(1).backend.supports("float16"));
      const arrays = Object.fromEntries(names.map((n) => [n, VALUES[n]()]));
      ga.savez(`${tmp.path}/stored.npz`, arrays);
      ga.savezCompressed(`${tmp.path}/compressed.npz`, arrays);
      const zip64 = writeZip(
        (["f4", "b1"] as const).map((n) => ({
          name: `${n}.npy`,
          data: writeNpy(arrays[n]!.get(), [...arrays[n]!.shape], arrays[n]!.dtype),
        })),
        { compress: true, zip64: true },
      );
      Deno.writeFileSync(`${tmp.path}/zip64.npz`, zip64);
      python("read", tmp.path, names.join(","));
      python("write", tmp.path, names.join(","));
      for (const file of ["numpy.npz", "numpy_compressed.npz"] as const) {
        const back = ga.load(`${tmp.path}/${file}`);
        assert.deepEqual(Object.keys(back), ["fortran", ...names]);
        assert.deepEqual([...back.fortran!.get() as Int16Array], [0, 1, 2, 3, 4, 5]);
        for (const n of names) {
          assert.deepEqual(
            [back[n]!.dtype, back[n]!.shape],
            [arrays[n]!.dtype, arrays[n]!.shape],
            `${file} ${n}`,
          );
          assert.deepEqual(back[n]!.get(), arrays[n]!.get(), `${file} ${n}`);
        }
      }
    },
  });
}
