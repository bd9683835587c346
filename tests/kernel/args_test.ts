import assert from "node:assert/strict";
import { ArgumentBlock, LocalMemory } from "../../src/kernel/args.ts";
import { parseParameterList } from "../../src/kernel/signature.ts";

const params = parseParameterList(
  "float *x, char c, double d, short s, int i, unsigned int u, long long l, unsigned long long ul, __half h, __nv_bfloat16 b, bool f",
  "cuda",
);

function block(): ArgumentBlock {
  return new ArgumentBlock("k", params, (value) => {
    if (typeof value !== "bigint") throw new TypeError("pointer expected");
    return value;
  });
}

Deno.test("ArgumentBlock lays out parameters at their natural alignment", () => {
  const b = block();
  assert.deepEqual(b.slots.map((s) => [s.offset, s.size]), [
    [0, 8],
    [8, 1],
    [16, 8],
    [24, 2],
    [28, 4],
    [32, 4],
    [40, 8],
    [48, 8],
    [56, 2],
    [58, 2],
    [60, 1],
  ]);
  assert.equal(b.storage.byteLength, 64);
  assert.deepEqual([...b.addresses].map((a) => Number(a - b.address)), b.slots.map((s) => s.offset));
});

Deno.test("ArgumentBlock.write() packs each C type exactly", () => {
  const b = block();
  const values = [0x1234n, -5, Math.PI, -300, -7, 4000000000, -(2n ** 62n), 2n ** 64n - 1n, 1.5, 1.5, true];
  values.forEach((v, i) => b.write(i, v));
  const v = b.view;
  assert.equal(v.getBigUint64(0, true), 0x1234n);
  assert.equal(v.getInt8(8), -5);
  assert.equal(v.getFloat64(16, true), Math.PI);
  assert.equal(v.getInt16(24, true), -300);
  assert.equal(v.getInt32(28, true), -7);
  assert.equal(v.getUint32(32, true), 4000000000);
  assert.equal(v.getBigInt64(40, true), -(2n ** 62n));
  assert.equal(v.getBigUint64(48, true), 2n ** 64n - 1n);
  assert.equal(v.getFloat16(56, true), 1.5);
  assert.equal(v.getUint16(58, true), 0x3fc0);
  assert.equal(v.getUint8(60), 1);
});

Deno.test("ArgumentBlock.write() packs safe-integer numbers into 64-bit parameters as their bigints would", () => {
  const b = block();
  for (
    const n of [
      0,
      1,
      -1,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 32 - 1,
      2 ** 32,
      -(2 ** 32),
      2 ** 53 - 1,
      -(2 ** 53) + 1,
      123456789012,
    ]
  ) {
    b.write(6, n);
    assert.equal(b.view.getBigInt64(40, true), BigInt(n), `long long ${n}`);
    if (n >= 0) {
      b.write(7, n);
      assert.equal(b.view.getBigUint64(48, true), BigInt(n), `unsigned long long ${n}`);
    }
  }
  assert.throws(() => b.write(7, -1), { name: "RangeError", message: /it holds 0 to 18446744073709551615/ });
  assert.throws(() => b.write(6, 1.5), { name: "TypeError", message: /a bigint or a safe integer/ });
});

Deno.test("ArgumentBlock.write() rejects a float for an int parameter, naming it", () => {
  assert.throws(() => block().write(4, 2.5), {
    name: "TypeError",
    message: "Cannot pass 2.5 to k() parameter 5 (int i): it needs an integer",
  });
});

Deno.test("ArgumentBlock.write() rejects values outside the C type's range", () => {
  const b = block();
  assert.throws(() => b.write(5, -1), {
    name: "RangeError",
    message: /parameter 6 \(unsigned int u\): it holds 0 to 4294967295/,
  });
  assert.throws(() => b.write(1, 128), RangeError);
  assert.throws(() => b.write(7, -1n), RangeError);
  assert.throws(() => b.write(6, 2 ** 60), { name: "TypeError", message: /a bigint or a safe integer/ });
});

Deno.test("ArgumentBlock.write() rejects a wrong kind of value", () => {
  const b = block();
  assert.throws(() => b.write(2, "3"), { name: "TypeError", message: /needs a number/ });
  assert.throws(() => b.write(10, 2), { name: "TypeError", message: /true, false, 0 or 1/ });
  assert.throws(() => b.write(0, 5), {
    name: "TypeError",
    message: "Cannot pass 5 to k() parameter 1 (float * x): pointer expected",
  });
});

Deno.test("ArgumentBlock rejects a struct passed by value", () => {
  assert.throws(() => new ArgumentBlock("k", parseParameterList("struct pair v", "cuda"), () => 0n), {
    name: "TypeError",
    message:
      'Cannot pass k() parameter 1 (struct pair v): type "pair" by value is not supported; pass a pointer, a scalar type or a vector type',
  });
});

Deno.test("ArgumentBlock takes a LocalMemory size for an OpenCL __local parameter", () => {
  const b = new ArgumentBlock("r", parseParameterList("__local float *tmp", "opencl"), () => 0n);
  b.write(0, new LocalMemory(1024));
  assert.equal(b.view.getBigUint64(0, true), 1024n);
  assert.throws(() => b.write(0, 1024), /takes a LocalMemory/);
  assert.throws(() => new LocalMemory(0), RangeError);
});

Deno.test("ArgumentBlock.writePointer() writes an address, and only to a pointer parameter", () => {
  const b = block();
  b.writePointer(0, 0x7f00_1234_5678n);
  assert.equal(b.view.getBigUint64(0, true), 0x7f00_1234_5678n);
  assert.throws(() => b.writePointer(4, 8n), {
    name: "TypeError",
    message: "Cannot write an address to k() parameter 5 (int i): it is not a pointer",
  });
  assert.throws(() => b.writePointer(11, 8n), { name: "TypeError", message: /it has 11 parameters/ });
  const local = new ArgumentBlock("r", parseParameterList("__local float *tmp", "opencl"), () => 0n);
  assert.throws(
    () => local.writePointer(0, 8n),
    /r\(\) parameter 1 \(__local float \* tmp\): it is not a pointer/,
  );
});
