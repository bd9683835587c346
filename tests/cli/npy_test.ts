import assert from "node:assert/strict";
import { NpyError, readNpy, writeNpy } from "../../src/kernel/npy.ts";

const fixture = (name: string) => Deno.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const MAGIC = [0x93, ...ascii("NUMPY")];

/** A .npy file from its parts, as the format specification lays it out. */
function npy(header: string, data: ArrayLike<number> = [], version = 1): Uint8Array {
  const length = version === 1 ? [header.length & 0xff, header.length >> 8] : [
    header.length & 0xff,
    (header.length >> 8) & 0xff,
    (header.length >> 16) & 0xff,
    header.length >>> 24,
  ];
  return new Uint8Array([...MAGIC, version, 0, ...length, ...ascii(header), ...Array.from(data)]);
}

/** A header padded the way the spec asks: spaces, then '\n', ending the preamble on a 64-byte boundary. */
function padded(dict: string, preamble = 10): string {
  const total = Math.ceil((preamble + dict.length + 1) / 64) * 64;
  return dict + " ".repeat(total - preamble - dict.length - 1) + "\n";
}

function assertNpyError(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof NpyError, `expected an NpyError, got ${error}`);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

Deno.test("readNpy() reads the arrays numpy.save wrote, for every supported dtype", () => {
  const cases: [string, string, number[], ArrayLike<number | bigint>][] = [
    ["f4_2x3.npy", "float32", [2, 3], [0, 0.5, 1, 1.5, 2, 2.5]],
    ["f2.npy", "float16", [4], [0, 1, -2.5, 65504]],
    ["f8_scalar.npy", "float64", [], [1.5]],
    ["i1.npy", "int8", [4], [-128, -1, 0, 127]],
    ["u1.npy", "uint8", [3], [0, 1, 255]],
    ["b1.npy", "bool", [3], [1, 0, 1]],
    ["i2.npy", "int16", [2], [-32768, 32767]],
    ["i4_2x0x3.npy", "int32", [2, 0, 3], []],
    ["u4.npy", "uint32", [2], [0, 4294967295]],
    ["i8.npy", "int64", [2], [-(2n ** 63n), 2n ** 63n - 1n]],
    ["u8.npy", "uint64", [1], [2n ** 64n - 1n]],
    ["u2_v2.npy", "uint16", [3], [1, 2, 3]],
    ["f4_v3.npy", "float32", [2], [0.25, -8]],
    ["v2.npy", "bfloat16", [2], [0x3f80, 0xc000]],
  ];
  for (const [name, dtype, shape, values] of cases) {
    const array = readNpy(fixture(name), name);
    assert.equal(array.dtype, dtype, name);
    assert.deepEqual(array.shape, shape, name);
    assert.deepEqual(Array.from(array.data as ArrayLike<number | bigint>), Array.from(values), name);
  }
});

Deno.test("readNpy() reads files built by hand from the specification, versions 1.0, 2.0 and 3.0", () => {
  const v1 = npy(padded("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }"), [1, 0, 0xff, 0xff]);
  assert.equal(v1.length, 128 + 4);
  assert.deepEqual(readNpy(v1), { dtype: "int16", shape: [2], data: new Int16Array([1, -1]) });

  const v2 = npy(padded("{'descr': '<u4', 'fortran_order': False, 'shape': (1, 1), }", 12), [1, 2, 0, 0], 2);
  assert.deepEqual(readNpy(v2), { dtype: "uint32", shape: [1, 1], data: new Uint32Array([0x201]) });

  const v3 = npy(padded("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", 12), [
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0x40,
  ], 3);
  assert.deepEqual(readNpy(v3), { dtype: "float64", shape: [], data: new Float64Array([2]) });
  // Version 3.0 headers are UTF-8, so a stray "✓" is reported as one character.
  const utf8 = new TextEncoder().encode("{'descr': '<f8', 'fortran_order': False, 'shape': (), } ✓\n");
  const bad = new Uint8Array([...MAGIC, 3, 0, utf8.length, 0, 0, 0, ...utf8, ...v3.subarray(-8)]);
  assertNpyError(() => readNpy(bad), /expected only spaces after the dict, found "✓" at character 57/);
});

Deno.test("readNpy() accepts the header spellings NumPy accepts", () => {
  const one = (dict: string, data: number[] = [7]) => readNpy(npy(padded(dict), data));
  assert.equal(one("{'descr': '=u1', 'fortran_order': False, 'shape': (1,), }").dtype, "uint8");
  assert.equal(one("{'descr': '<i1', 'fortran_order': False, 'shape': (1,), }").dtype, "int8");
  assert.equal(one("{'descr': '>b1', 'fortran_order': False, 'shape': (1,), }").dtype, "bool");
  assert.equal(one("{'descr': 'u1', 'fortran_order': False, 'shape': (1,), }").dtype, "uint8");
  assert.equal(one("{'descr': '=f2', 'fortran_order': False, 'shape': (1,), }", [0, 0x3c]).dtype, "float16");
  assert.equal(one("{'descr': '<V2', 'fortran_order': False, 'shape': (1,), }", [0, 0]).dtype, "bfloat16");
  // Double quotes, other key order, no trailing comma, tabs and newlines between tokens.
  assert.deepEqual(one('{"shape":(1,),\t"fortran_order" :False,\n"descr":"|u1"}').shape, [1]);
  // Python 2 wrote long integers with an L suffix; NumPy still reads those in versions 1.0 and 2.0.
  assert.deepEqual(one("{'descr': '|u1', 'fortran_order': False, 'shape': (1L,), }").shape, [1]);
  // `(1)` is not a tuple in Python, but `()` and `(1, 1,)` are.
  assert.deepEqual(one("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1,), }").shape, [1, 1]);
  assert.deepEqual(one("{'descr': '|u1', 'fortran_order': False, 'shape': (), }").shape, []);
});

Deno.test("readNpy() copies the data into a fresh, aligned array", () => {
  const file = fixture("f4_2x3.npy");
  const shifted = new Uint8Array(file.length + 1);
  shifted.set(file, 1);
  const array = readNpy(shifted.subarray(1));
  assert.equal(array.data.byteOffset, 0);
  assert.equal(array.data.buffer.byteLength, 24);
  shifted.fill(0);
  assert.deepEqual(Array.from(array.data as Float32Array), [0, 0.5, 1, 1.5, 2, 2.5]);
});

Deno.test("readNpy() reads a Fortran-order array into C order", () => {
  // numpy.asfortranarray(np.arange(6).reshape(2, 3)) holds 0, 3, 1, 4, 2, 5 on disk.
  const array = readNpy(fixture("f4_fortran.npy"), "x.npy");
  assert.deepEqual([array.dtype, array.shape], ["float32", [2, 3]]);
  assert.deepEqual(Array.from(array.data as Float32Array), [0, 1, 2, 3, 4, 5]);
  // A 3-D one built by hand: element (i, j, k) of shape (2, 3, 2) is 100 i + 10 j + k.
  const shape = [2, 3, 2];
  const onDisk: number[] = [];
  for (let k = 0; k < 2; k++) {
    for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) onDisk.push(100 * i + 10 * j + k);
  }
  const file = npy(
    padded("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3, 2), }"),
    new Uint8Array(Int16Array.from(onDisk).buffer),
  );
  const cube = readNpy(file);
  assert.deepEqual(cube.shape, shape);
  const expected: number[] = [];
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 3; j++) for (let k = 0; k < 2; k++) expected.push(100 * i + 10 * j + k);
  }
  assert.deepEqual(Array.from(cube.data as Int16Array), expected);
});

Deno.test("readNpy() rejects big-endian data", () => {
  assertNpyError(
    () => readNpy(fixture("f4_bigendian.npy"), "b.npy"),
    "Cannot read b.npy: big-endian data ('>f4') is not supported; save with arr.astype('<f4')",
  );
});

Deno.test("readNpy() rejects a truncated data section", () => {
  const file = fixture("f4_2x3.npy");
  assertNpyError(
    () => readNpy(file.subarray(0, file.length - 3), "t.npy"),
    "Cannot read t.npy: shape (2, 3) of <f4 needs 24 data bytes but the file has 21; the file is truncated",
  );
});

Deno.test("readNpy() rejects bytes after the data", () => {
  const file = fixture("u1.npy");
  assertNpyError(
    () => readNpy(new Uint8Array([...file, 0])),
    /needs 3 data bytes but the file has 4; .* own file$/,
  );
});

Deno.test("readNpy() rejects files that are not .npy files", () => {
  assertNpyError(() => readNpy(new Uint8Array()), /^Cannot read \.npy data: not a \.npy file/);
  assertNpyError(
    () => readNpy(new Uint8Array(ascii("hello, world"))),
    /not a \.npy file \(it does not start/,
  );
  assertNpyError(() => readNpy(new Uint8Array(ascii("PK\x03\x04"))), /this is a \.npz \(zip\) archive/);
  assertNpyError(() => readNpy(new Uint8Array(MAGIC)), /ends inside its preamble after 6 bytes/);
  assertNpyError(
    () => readNpy(new Uint8Array([...MAGIC, 2, 0, 5])),
    /ends inside its preamble after 9 bytes/,
  );
  assertNpyError(
    () => readNpy(new Uint8Array([...MAGIC, 4, 0, 0, 0])),
    /unsupported \.npy format version 4\.0/,
  );
  assertNpyError(
    () => readNpy(new Uint8Array([...MAGIC, 1, 1, 0, 0])),
    /unsupported \.npy format version 1\.1/,
  );
  assertNpyError(
    () => readNpy(new Uint8Array([...MAGIC, 1, 0, 200, 0, 0x7b])),
    /header is 200 bytes but only 1 follow/,
  );
});

Deno.test("readNpy() rejects malformed headers", () => {
  const bad = (dict: string, message: RegExp, data: number[] = []) =>
    assertNpyError(() => readNpy(npy(padded(dict), data), "h.npy"), message);
  bad(
    "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4) }x",
    /expected only spaces after the dict, found "x"/,
  );
  bad("['descr', '<f4']", /expected '\{', found "\[" at character 1/);
  bad("{'descr': '<f4' 'shape': ()}", /expected ',' or '\}', found "'" at character 17/);
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (3 4), }", /expected ',' or '\)', found "4"/);
  bad(
    "{'descr': '<f4', 'fortran_order': false, 'shape': (), }",
    /expected a string, True, False, an integer or a tuple/,
  );
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", /expected a string, True, False/);
  bad(
    "{'descr': '<f4, 'fortran_order': False, 'shape': (), }",
    /expected ',' or '\}', found "f" at character 18/,
  );
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", /expected ',' or '\}', found the end\)/);
  bad("{'descr': '<f4', 'shape': (), }", /^Cannot read h\.npy: the header lacks 'fortran_order'; re-save it/);
  bad("{3: 4}", /expected a quoted key or '\}', found "3"/);
  bad("{}", /the header lacks 'descr' and 'fortran_order' and 'shape'/);
  bad("{'descr': '<f4', 'descr': '<f4', }", /the header gives 'descr' twice/);
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}", /unexpected key 'x'/);
  bad("{'descr': '<f4', 'fortran_order': 0, 'shape': (), }", /fortran_order is not True or False/);
  bad("{'descr': '|u1', 'fortran_order': False, 'shape': (3), }", /shape is not a tuple of integers/);
  bad("{'descr': '|u1', 'fortran_order': False, 'shape': [3], }", /shape is not a tuple of integers/);
  bad("{'descr': '|u1', 'fortran_order': False, 'shape': ('3',), }", /shape is not a tuple of integers/);
  bad(
    "{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999999999999,), }",
    /not a tuple of integers/,
  );
  bad(
    `{'descr': '|u1', 'fortran_order': False, 'shape': (${"1, ".repeat(65)}), }`,
    /65 dimensions; NumPy allows at most 64/,
  );
  bad(
    `{'descr': '|u1', 'fortran_order': False, 'shape': ${"(".repeat(20)}${")".repeat(20)}, }`,
    /nests tuples too deeply/,
  );
  bad("{'descr': 3, 'fortran_order': False, 'shape': (), }", /descr is not a type string such as '<f4'/);
  bad("{'descr': 'it\\'s', 'fortran_order': False, 'shape': (), }", /expected a closing '/);
  bad(
    "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (), }",
    /structured arrays \(a list descr\)/,
  );
  bad(
    "{'descr': '<m8', 'fortran_order': False, 'shape': (), }",
    /unsupported dtype '<m8'; cudeno reads float16/,
  );
  bad("{'descr': '<U3', 'fortran_order': False, 'shape': (), }", /unsupported dtype '<U3'/);
  bad(
    "{'descr': '|f4', 'fortran_order': False, 'shape': (), }",
    /the descr '\|f4' gives no byte order .* write '<f4'/,
  );
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", /is too large/);
  assertNpyError(
    () => readNpy(npy("{'descr': '|u1', 'fortran_order': False, 'shape': (1L,), }\n", [1], 3)),
    /expected an integer without an L suffix/,
  );
  assertNpyError(
    () => readNpy(new Uint8Array([...MAGIC, 3, 0, 1, 0, 0, 0, 0xff])),
    /the header is not valid UTF-8/,
  );
});

Deno.test("writeNpy() writes the header NumPy writes, byte for byte", () => {
  const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  // numpy.save leaves room for the first dimension to grow to 21 digits, then pads to 64 bytes.
  const header = dict + " ".repeat(21 - 1) + " ".repeat(38) + "\n";
  assert.equal(10 + header.length, 128);
  const expected = new Uint8Array([...MAGIC, 1, 0, 118, 0, ...ascii(header), ...new Uint8Array(48)]);
  assert.deepEqual(writeNpy(new Float32Array(12), [3, 4]), expected);
});

Deno.test("writeNpy() output equals numpy.save's for the same arrays", () => {
  for (
    const name of [
      "f4_2x3.npy",
      "f2.npy",
      "f8_scalar.npy",
      "i1.npy",
      "u1.npy",
      "b1.npy",
      "i2.npy",
      "i4_2x0x3.npy",
    ]
  ) {
    const file = fixture(name);
    const { data, shape, dtype } = readNpy(file);
    assert.deepEqual(writeNpy(data, shape, dtype), file, name);
  }
  for (const name of ["u4.npy", "i8.npy", "u8.npy"]) {
    const file = fixture(name);
    assert.deepEqual(writeNpy(readNpy(file).data), file, name);
  }
});

Deno.test("writeNpy() starts the data on a 64-byte boundary and ends the header with a newline", () => {
  for (
    const shape of [[], [0], [7], [1, 2], [123456789, 0], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]
  ) {
    const count = shape.reduce((a, b) => a * b, 1);
    const file = writeNpy(new Uint8Array(count), shape);
    const headerLength = file[8] | (file[9] << 8);
    assert.equal((10 + headerLength) % 64, 0, `shape ${shape}`);
    assert.equal(file[10 + headerLength - 1], 0x0a, `shape ${shape}`);
    assert.equal(file.length, 10 + headerLength + count);
    assert.deepEqual(readNpy(file).shape, shape);
  }
});

Deno.test("writeNpy() round-trips every dtype through readNpy()", () => {
  const arrays = [
    new Float32Array([1.5, -2]),
    new Float64Array([Math.PI]),
    new Float16Array([0.5, 65504]),
    new Int8Array([-5]),
    new Int16Array([-300, 300]),
    new Int32Array([-(2 ** 31)]),
    new Uint16Array([65535]),
    new Uint32Array([2 ** 32 - 1]),
    new BigInt64Array([-1n]),
    new BigUint64Array([2n ** 64n - 1n]),
  ];
  for (const data of arrays) assert.deepEqual(readNpy(writeNpy(data)).data, data);
  assert.equal(readNpy(writeNpy(new Uint8Array([0, 1]), [2], "bool")).dtype, "bool");
  const bf16 = readNpy(writeNpy(new Uint16Array([0x3f80]), [1], "bfloat16"));
  assert.deepEqual([bf16.dtype, bf16.data[0]], ["bfloat16", 0x3f80]);
});

Deno.test("writeNpy() writes only the bytes of a subarray view", () => {
  const whole = new Int16Array([1, 2, 3, 4]);
  assert.deepEqual(readNpy(writeNpy(whole.subarray(1, 3))).data, new Int16Array([2, 3]));
});

Deno.test("writeNpy() rejects a shape or dtype that does not fit the data", () => {
  assert.throws(() => writeNpy(new Float32Array(6), [4, 2]), {
    name: "RangeError",
    message: "Cannot write shape [4, 2] to .npy: it holds 8 elements but the data has 6",
  });
  assert.throws(() => writeNpy(new Float32Array(1), [-1]), RangeError);
  assert.throws(() => writeNpy(new Float32Array(1), [0.5, 2]), RangeError);
  assert.throws(() => writeNpy(new Float32Array(1), Array(65).fill(1)), /at most 64 non-negative integers/);
  assert.throws(() => writeNpy(new Float32Array(1), [1], "int32"), {
    name: "TypeError",
    message: "Cannot write Float32Array data as int32 to .npy: int32 is kept in Int32Array",
  });
});
