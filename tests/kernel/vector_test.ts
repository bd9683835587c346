/**
 * Vector types by value: their layouts as CUDA's vector_types.h and the OpenCL C specification give
 * them, and how an argument block packs them from arrays and typed arrays.
 */

import assert from "node:assert/strict";
import { ArgumentBlock } from "../../src/kernel/args.ts";
import { parseParameterList } from "../../src/kernel/signature.ts";
import type { Dialect } from "../../src/kernel/ctypes.ts";

function layout(type: string, dialect: Dialect): [string, number, number, number] | undefined {
  const v = parseParameterList(`${type} v`, dialect)[0]!.vector;
  return v === undefined ? undefined : [v.element, v.lanes, v.size, v.align];
}

Deno.test("CUDA's vector types have vector_types.h's sizes and alignments", () => {
  const expected: Record<string, [string, number, number, number]> = {
    char1: ["int8", 1, 1, 1],
    char2: ["int8", 2, 2, 2],
    char3: ["int8", 3, 3, 1],
    char4: ["int8", 4, 4, 4],
    uchar4: ["uint8", 4, 4, 4],
    short2: ["int16", 2, 4, 4],
    short3: ["int16", 3, 6, 2],
    short4: ["int16", 4, 8, 8],
    ushort2: ["uint16", 2, 4, 4],
    int2: ["int32", 2, 8, 8],
    int3: ["int32", 3, 12, 4],
    int4: ["int32", 4, 16, 16],
    uint2: ["uint32", 2, 8, 8],
    uint4: ["uint32", 4, 16, 16],
    float1: ["float32", 1, 4, 4],
    float2: ["float32", 2, 8, 8],
    float3: ["float32", 3, 12, 4],
    float4: ["float32", 4, 16, 16],
    long2: ["int64", 2, 16, 16],
    longlong2: ["int64", 2, 16, 16],
    ulonglong3: ["uint64", 3, 24, 8],
    double2: ["float64", 2, 16, 16],
    double3: ["float64", 3, 24, 8],
    double4: ["float64", 4, 32, 16],
    double4_16a: ["float64", 4, 32, 16],
    double4_32a: ["float64", 4, 32, 32],
    longlong4_32a: ["int64", 4, 32, 32],
    __half2: ["float16", 2, 4, 4],
    __nv_bfloat162: ["bfloat16", 2, 4, 4],
  };
  for (const [type, want] of Object.entries(expected)) assert.deepEqual(layout(type, "cuda"), want, type);
  for (const type of ["float5", "float8", "int4_32a", "float", "int", "dim3", "half4"]) {
    assert.equal(layout(type, "cuda"), undefined, type);
  }
});

Deno.test("OpenCL's vector types align to their size, and a 3-vector takes the room of 4", () => {
  const expected: Record<string, [string, number, number, number]> = {
    float2: ["float32", 2, 8, 8],
    float3: ["float32", 3, 16, 16],
    float4: ["float32", 4, 16, 16],
    float8: ["float32", 8, 32, 32],
    float16: ["float32", 16, 64, 64],
    int4: ["int32", 4, 16, 16],
    uint3: ["uint32", 3, 16, 16],
    char3: ["int8", 3, 4, 4],
    uchar16: ["uint8", 16, 16, 16],
    short2: ["int16", 2, 4, 4],
    long2: ["int64", 2, 16, 16],
    double3: ["float64", 3, 32, 32],
    half8: ["float16", 8, 16, 16],
  };
  for (const [type, want] of Object.entries(expected)) assert.deepEqual(layout(type, "opencl"), want, type);
  for (const type of ["float1", "float5", "longlong2", "double4_32a"]) {
    assert.equal(layout(type, "opencl"), undefined, type);
  }
});

Deno.test("ArgumentBlock places a vector at its alignment after a scalar, as the compiler does", () => {
  const cuda = new ArgumentBlock(
    "k",
    parseParameterList("char c, float3 v, int n, double2 d", "cuda"),
    () => 0n,
  );
  assert.deepEqual(cuda.slots.map((s) => [s.offset, s.size]), [[0, 1], [4, 12], [16, 4], [32, 16]]);
  const cl = new ArgumentBlock("k", parseParameterList("char c, float3 v, int n", "opencl"), () => 0n);
  assert.deepEqual(cl.slots.map((s) => [s.offset, s.size]), [[0, 1], [16, 16], [32, 4]]);
});

Deno.test("ArgumentBlock packs a vector from an array or a typed array, each element as its type", () => {
  const block = new ArgumentBlock(
    "k",
    parseParameterList("float3 v, int4 i, uchar4 u, double2 d, long2 l, __half2 h", "cuda"),
    () => 0n,
  );
  block.write(0, [1.5, -2, 1 / 3]);
  block.write(1, Int32Array.of(1, -2, 3, -4));
  block.write(2, [0, 255, 7, 128]);
  block.write(3, Float64Array.of(Math.PI, -Math.E));
  block.write(4, [-(2n ** 62n), 5]);
  block.write(5, [0.5, 65504]);
  const view = block.view;
  const at = (i: number) => block.slots[i]!.offset;
  assert.deepEqual([0, 1, 2].map((k) => view.getFloat32(at(0) + 4 * k, true)), [1.5, -2, Math.fround(1 / 3)]);
  assert.deepEqual([0, 1, 2, 3].map((k) => view.getInt32(at(1) + 4 * k, true)), [1, -2, 3, -4]);
  assert.deepEqual([0, 1, 2, 3].map((k) => view.getUint8(at(2) + k)), [0, 255, 7, 128]);
  assert.deepEqual([0, 1].map((k) => view.getFloat64(at(3) + 8 * k, true)), [Math.PI, -Math.E]);
  assert.deepEqual([0, 1].map((k) => view.getBigInt64(at(4) + 8 * k, true)), [-(2n ** 62n), 5n]);
  assert.deepEqual([0, 1].map((k) => view.getFloat16(at(5) + 2 * k, true)), [0.5, 65504]);
});

Deno.test("a vector of the wrong length, or with an element out of range, is a TypeError naming the parameter", () => {
  const block = new ArgumentBlock(
    "set_them",
    parseParameterList("float *dest, float3 x, uchar4 c", "cuda"),
    () => 0n,
  );
  assert.throws(() => block.write(1, [1, 2]), {
    name: "TypeError",
    message:
      "Cannot pass an Array of length 2 to set_them() parameter 2 (float3 x): it takes 3 values of float, as an array or typed array of length 3",
  });
  assert.throws(
    () => block.write(1, new Float32Array(4)),
    /a Float32Array of length 4 to set_them\(\) parameter 2/,
  );
  assert.throws(
    () => block.write(1, 1.5),
    /Cannot pass 1.5 to set_them\(\) parameter 2 \(float3 x\): it takes 3/,
  );
  assert.throws(() => block.write(1, [1, "2", 3]), {
    name: "TypeError",
    message: /Cannot pass a string to set_them\(\) parameter 2 \(float x\[1\]\): it needs a number/,
  });
  assert.throws(() => block.write(2, [0, 1, 2, 256]), {
    name: "RangeError",
    message: /set_them\(\) parameter 3 \(unsigned char c\[3\]\): it holds 0 to 255/,
  });
});
