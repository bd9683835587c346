import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { loadSafetensors, SafetensorsFile, saveSafetensors } from "../../src/nn/safetensors.ts";
import { bfloat16Bits } from "../../src/kernel/bfloat16.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { eachBackendWith } from "../optim/_reference.ts";

/** The dtypes safetensors holds (complex numbers are saved as their parts). */
type DType = Exclude<ga.GPUArray["dtype"], "complex64" | "complex128">;

/** Each dtype's safetensors name, as the format's specification lists them. */
const FORMATS: Record<DType, string> = {
  float64: "F64",
  float32: "F32",
  float16: "F16",
  bfloat16: "BF16",
  int64: "I64",
  int32: "I32",
  int16: "I16",
  int8: "I8",
  uint64: "U64",
  uint32: "U32",
  uint16: "U16",
  uint8: "U8",
  bool: "BOOL",
};

const SHAPES: Record<DType, number[]> = {
  float64: [3],
  float32: [2, 3],
  float16: [2, 2],
  bfloat16: [5],
  int64: [2, 2],
  int32: [7],
  int16: [3, 1],
  int8: [4],
  uint64: [],
  uint32: [0, 2],
  uint16: [3],
  uint8: [6],
  bool: [3, 2],
};

/**
 * The value of element `i` in each dtype (as `_safetensors_check.py` computes it): k = (7i + 3) mod 23,
 * then (k - 11) / 4 for floats, k - 11 signed, k unsigned, k mod 3 == 0 for bool.
 */
function valueOf(dtype: DType, i: number): number {
  const k = (7 * i + 3) % 23;
  if (dtype === "bool") return k % 3 === 0 ? 1 : 0;
  if (dtype.startsWith("float") || dtype === "bfloat16") return (k - 11) / 4;
  return dtype.startsWith("uint") ? k : k - 11;
}

const sizeOf = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
const values = (dtype: DType, shape: readonly number[]) =>
  Array.from({ length: sizeOf(shape) }, (_, i) => valueOf(dtype, i));

/** The host array of `dtype` holding {@link valueOf}'s values (bfloat16 as bits). */
function hostArray(dtype: DType, shape: readonly number[]) {
  const v = values(dtype, shape);
  switch (dtype) {
    case "bfloat16":
      return Uint16Array.from(v, bfloat16Bits);
    case "int64":
      return BigInt64Array.from(v, BigInt);
    case "uint64":
      return BigUint64Array.from(v, BigInt);
    case "float64":
      return Float64Array.from(v);
    case "float32":
      return Float32Array.from(v);
    case "float16":
      return Float16Array.from(v);
    case "int32":
      return Int32Array.from(v);
    case "uint32":
      return Uint32Array.from(v);
    case "int16":
      return Int16Array.from(v);
    case "uint16":
      return Uint16Array.from(v);
    case "int8":
      return Int8Array.from(v);
    default:
      return Uint8Array.from(v);
  }
}

/** The numbers of a host array, bigints and bfloat16 bits included. */
const numbers = (host: ArrayLike<number | bigint>) => Array.from(host, Number);

function supported(): DType[] {
  const backend = ga.empty([1]).backend;
  return (Object.keys(FORMATS) as DType[]).filter((d) => backend.supports(d));
}

function checkRoundTrip(dtypes: readonly DType[]): void {
  const path = Deno.makeTempFileSync({ suffix: ".safetensors" });
  try {
    const tensors: Record<string, ga.GPUArray> = {};
    for (const d of dtypes) tensors[`layer.${d}`] = ga.toGpu(hostArray(d, SHAPES[d]), SHAPES[d], d);
    saveSafetensors(path, tensors, { format: "pt", note: "round trip" });
    const loaded = loadSafetensors(path);
    assert.deepEqual(Object.keys(loaded).sort(), Object.keys(tensors).sort());
    for (const d of dtypes) {
      const a = loaded[`layer.${d}`]!;
      assert.equal(a.dtype, d);
      assert.deepEqual(a.shape, SHAPES[d], d);
      assert.deepEqual(numbers(a.get()), numbers(hostArray(d, SHAPES[d])), d);
    }
    // The layout, read by hand: the length, a header padded to 8 bytes, each tensor aligned to its element size.
    const bytes = Deno.readFileSync(path);
    const length = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    assert.equal(length % 8, 0);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
    assert.deepEqual(header.__metadata__, { format: "pt", note: "round trip" });
    let end = 0;
    const entries = dtypes.map((d) => [d, header[`layer.${d}`]] as const)
      .sort((a, b) =>
        a[1].data_offsets[0] - b[1].data_offsets[0] || a[1].data_offsets[1] - b[1].data_offsets[1]
      );
    for (const [d, entry] of entries) {
      assert.equal(entry.dtype, FORMATS[d]);
      assert.deepEqual(entry.shape, SHAPES[d]);
      assert.equal(entry.data_offsets[0], end, `${d} follows the tensor before it`);
      assert.equal(entry.data_offsets[0] % hostArray(d, [1]).BYTES_PER_ELEMENT, 0, `${d} is aligned`);
      end = entry.data_offsets[1];
    }
    assert.equal(8 + length + end, bytes.length);
  } finally {
    Deno.removeSync(path);
  }
}

eachBackend(
  "saveSafetensors() and loadSafetensors() round-trip every dtype the device has, in the format's layout",
  () => {
    checkRoundTrip(supported().filter((d) => d !== "float16" && d !== "bfloat16"));
  },
);

for (const dtype of ["float16", "bfloat16"] as const) {
  eachBackendWith(
    dtype,
    `saveSafetensors() and loadSafetensors() round-trip ${dtype}`,
    () => checkRoundTrip([dtype]),
  );
}

/** A safetensors file from a header and data section given as they are. */
function fileOf(
  header: string,
  data: Uint8Array,
  length = new TextEncoder().encode(header).length,
): Uint8Array {
  const text = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return out;
}

eachBackend("SafetensorsFile reads a file built by hand from the specification, one tensor at a time", () => {
  const data = new Uint8Array(32), view = new DataView(data.buffer);
  [1.5, -2, 0.25, 3].forEach((v, i) => view.setFloat32(4 * i, v, true)); // a: F32 [2, 2] at [0, 16)
  [0x3f80, 0xc000, 0x4049].forEach((v, i) => view.setUint16(16 + 2 * i, v, true)); // b: BF16 [3] at [16, 22)
  view.setBigInt64(22, -5n, true); // c: I64 [1] at [22, 30), unaligned
  data[30] = 1; // d: BOOL [2] at [30, 32)
  const header = JSON.stringify({
    __metadata__: { format: "pt" },
    d: { dtype: "BOOL", shape: [2], data_offsets: [30, 32] },
    a: { dtype: "F32", shape: [2, 2], data_offsets: [0, 16] },
    b: { dtype: "BF16", shape: [3], data_offsets: [16, 22] },
    c: { dtype: "I64", shape: [1], data_offsets: [22, 30] },
  });
  const path = Deno.makeTempFileSync({ suffix: ".safetensors" });
  try {
    const bytes = fileOf(header, data);
    Deno.writeFileSync(path, bytes);
    const file = SafetensorsFile.open(path);
    assert.deepEqual(file.keys(), ["a", "b", "c", "d"]);
    assert.deepEqual(file.metadata, { format: "pt" });
    assert.deepEqual(file.info("b"), {
      format: "BF16",
      dtype: "bfloat16",
      shape: [3],
      dataOffsets: [16, 22],
    });
    assert.deepEqual(file.getHost("a"), Float32Array.from([1.5, -2, 0.25, 3]));
    assert.deepEqual(file.getHost("b"), Uint16Array.from([0x3f80, 0xc000, 0x4049])); // 1, -2, 3.140625
    assert.deepEqual(file.getHost("c"), BigInt64Array.from([-5n]));
    assert.deepEqual(file.getHost("d"), Uint8Array.from([1, 0]));
    const a = file.get("a");
    assert.deepEqual(a.shape, [2, 2]);
    assert.deepEqual(numbers(a.get()), [1.5, -2, 0.25, 3]);
    assert.deepEqual(numbers(file.get("c").get()), [-5]);
    assert.equal(file.get("d").dtype, "bool");
    assert.throws(
      () => file.get("e"),
      (e: Error) => e instanceof RangeError && /"e" in .*: it has "a", "b", "c", "d"/.test(e.message),
    );
    // Each read goes to the file: one changed since the header was read is refused.
    Deno.writeFileSync(path, new Uint8Array(4), { append: true });
    assert.throws(
      () => file.getHost("a"),
      (e: Error) =>
        e.message.includes(`it is ${bytes.length + 4} bytes now, ${bytes.length} when its header was read`),
    );
  } finally {
    Deno.removeSync(path);
  }
});

Deno.test("SafetensorsFile.open() refuses a malformed file naming the file and the problem", () => {
  const f32 = (name: string, offsets: number[], shape = [1]) =>
    `"${name}":{"dtype":"F32","shape":${JSON.stringify(shape)},"data_offsets":${JSON.stringify(offsets)}}`;
  const cases: [string, Uint8Array, RegExp][] = [
    [
      "too short",
      new Uint8Array(5),
      /it is 5 bytes long; a safetensors file starts with an 8-byte header length/,
    ],
    [
      "huge header",
      fileOf("{}", new Uint8Array(0), 2 ** 40),
      /header length 1099511627776 is over the format's limit/,
    ],
    [
      "header past the end",
      fileOf("{}", new Uint8Array(0), 100),
      /header length 100 runs past the end of the file \(10 bytes\)/,
    ],
    ["not an object", fileOf("[1, 2]", new Uint8Array(0)), /its header starts with "\[1, 2\]", not "\{"/],
    ["not JSON", fileOf("{not json", new Uint8Array(0)), /its header is not JSON/],
    ["not UTF-8", fileOf('{"\xff"}', new Uint8Array(0)).map((b, i) => (i === 10 ? 0xff : b)), /not UTF-8/],
    [
      "unknown dtype",
      fileOf(`{"x":{"dtype":"F128","shape":[1],"data_offsets":[0,16]}}`, new Uint8Array(16)),
      /tensor "x" has dtype "F128"; the format's dtypes are BOOL, U8/,
    ],
    [
      "bad shape",
      fileOf(`{"x":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, new Uint8Array(4)),
      /tensor "x" has shape \[-1\], not a list of sizes/,
    ],
    [
      "reversed offsets",
      fileOf(`{${f32("x", [4, 0])}}`, new Uint8Array(4)),
      /tensor "x" has data_offsets \[4,0\], not \[begin, end\]/,
    ],
    [
      "size mismatch",
      fileOf(`{${f32("x", [0, 8], [3])}}`, new Uint8Array(8)),
      /data_offsets \[0, 8\], 8 bytes, but shape \[3\] of F32 takes 12/,
    ],
    [
      "a gap",
      fileOf(`{${f32("x", [0, 4])},${f32("y", [8, 12])}}`, new Uint8Array(12)),
      /tensor "y" starts at byte 8 of the data, where 4 was expected/,
    ],
    [
      "an overlap",
      fileOf(`{${f32("x", [0, 4])},${f32("y", [0, 4])}}`, new Uint8Array(8)),
      /starts at byte 0 of the data, where 4 was expected/,
    ],
    [
      "trailing bytes",
      fileOf(`{${f32("x", [0, 4])}}`, new Uint8Array(8)),
      /tensors' bytes end at byte 4 of the data, but the data section holds 8 bytes/,
    ],
    [
      "missing bytes",
      fileOf(`{${f32("x", [0, 4])}}`, new Uint8Array(2)),
      /end at byte 4 of the data, but the data section holds 2 bytes/,
    ],
    [
      "an empty tensor where another starts is no gap",
      fileOf(`{${f32("x", [0, 4])},${f32("y", [4, 8])},${f32("e", [4, 4], [0])}}`, new Uint8Array(12)),
      /end at byte 8 of the data, but the data section holds 12 bytes/,
    ],
    [
      "metadata of numbers",
      fileOf(`{"__metadata__":{"step":1}}`, new Uint8Array(0)),
      /its __metadata__ is \{"step":1\}, not an object of strings/,
    ],
  ];
  for (const [what, bytes, message] of cases) {
    const path = Deno.makeTempFileSync({ suffix: ".safetensors" });
    try {
      Deno.writeFileSync(path, bytes);
      assert.throws(
        () => SafetensorsFile.open(path),
        (e: Error) =>
          e instanceof SyntaxError && e.message.includes(`Cannot read safetensors file ${path}: `) &&
          message.test(e.message),
        what,
      );
    } finally {
      Deno.removeSync(path);
    }
  }
});

eachBackend("saveSafetensors() refuses what the format cannot hold, with the reason", () => {
  assert.throws(
    () => saveSafetensors("/tmp/never.safetensors", { x: [1, 2] as never }),
    /tensor "x" .* not a GPUArray/,
  );
  assert.throws(
    () => saveSafetensors("/tmp/never.safetensors", { __metadata__: ga.ones([1]) }),
    /name is reserved/,
  );
  assert.throws(
    () => saveSafetensors("/tmp/never.safetensors", {}, { step: 3 as never }),
    /convert each value with String\(\)/,
  );
});

/** Why Python's safetensors with PyTorch cannot run here, or undefined when it can. */
function pythonProblem(): string | undefined {
  try {
    const { success, stderr } = new Deno.Command("python3", {
      args: ["-c", "import safetensors, torch"],
      stderr: "piped",
    })
      .outputSync();
    return success ? undefined : new TextDecoder().decode(stderr).trim().split("\n").at(-1);
  } catch (e) {
    return `no python3 (${(e as Error).message})`;
  }
}

const PYTHON = pythonProblem();

Deno.test({
  name: `Python's safetensors.torch reads what cudeno writes, and cudeno reads what it writes${
    PYTHON === undefined ? "" : ` [ignored: ${PYTHON}]`
  }`,
  ignore: PYTHON !== undefined,
  fn() {
    const ours = Deno.makeTempFileSync({ suffix: ".safetensors" }),
      theirs = Deno.makeTempFileSync({ suffix: ".safetensors" });
    try {
      const python: DType[] = [
        "float64",
        "float32",
        "float16",
        "bfloat16",
        "int64",
        "int32",
        "int16",
        "int8",
        "uint8",
        "bool",
      ];
      const written = python.filter((d) => supported().includes(d));
      const tensors: Record<string, ga.GPUArray> = {};
      for (const d of written) tensors[FORMATS[d]] = ga.toGpu(hostArray(d, SHAPES[d]), SHAPES[d], d);
      const shapes = Object.fromEntries(python.map((d) => [FORMATS[d], SHAPES[d]]));
      saveSafetensors(ours, tensors, {
        shapes: JSON.stringify(shapes),
        written: JSON.stringify(Object.keys(tensors)),
      });
      const run = new Deno.Command("python3", {
        args: [new URL("./_safetensors_check.py", import.meta.url).pathname, ours, theirs],
      })
        .outputSync();
      const output = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
      assert.ok(run.success, `the Python check failed:\n${output}`);
      const file = SafetensorsFile.open(theirs);
      assert.match(file.metadata.writer ?? "", /^torch /);
      assert.deepEqual(file.keys(), Object.keys(shapes).sort());
      for (const d of python) {
        assert.equal(file.info(FORMATS[d]).dtype, d);
        assert.deepEqual(file.info(FORMATS[d]).shape, SHAPES[d]);
        assert.deepEqual(numbers(file.getHost(FORMATS[d])), numbers(hostArray(d, SHAPES[d])), d);
        if (written.includes(d)) {
          assert.deepEqual(numbers(file.get(FORMATS[d]).get()), numbers(hostArray(d, SHAPES[d])), d);
        }
      }
    } finally {
      Deno.removeSync(ours);
      Deno.removeSync(theirs);
    }
  },
});
